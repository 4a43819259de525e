import { describe, expect, it } from 'vitest';
import { conflictingMeshGatewayHostsAnalyzer } from '../../../../src/core/analysis/analyzers/virtualservice/conflictingMeshGatewayHosts.ts';
import { destinationRuleAnalyzer } from '../../../../src/core/analysis/analyzers/virtualservice/destinationRules.ts';
import { jwtClaimRouteAnalyzer } from '../../../../src/core/analysis/analyzers/virtualservice/jwtClaimRoute.ts';
import { analyze, docs, lines, pairs } from '../helpers.ts';
import { lineOf, vs } from './util.ts';

const route = (host: string) => `  http:\n  - route:\n    - destination:\n        host: ${host}\n`;

describe('virtualservice.ConflictingMeshGatewayHostsAnalyzer', () => {
  it('reports every mesh VirtualService claiming the same host, on its name', () => {
    const text = docs(
      vs('shop', 'cart-a', `  hosts: [cart]\n${route('cart')}`),
      vs('web', 'cart-b', `  hosts: [cart.shop.svc.cluster.local]\n  gateways: [public-gw, mesh]\n${route('cart.shop.svc.cluster.local')}`),
      vs('shop', 'edge-only', `  hosts: [cart]\n  gateways: [public-gw]\n${route('cart')}`),
    );
    const out = analyze(conflictingMeshGatewayHostsAnalyzer, { 'vs.yaml': text });
    expect(pairs(out)).toEqual(['IST0109 VirtualService shop/cart-a', 'IST0109 VirtualService web/cart-b']);
    const msg =
      'The VirtualServices shop/cart-a,web/cart-b associated with mesh gateway define the same host */cart.shop.svc.cluster.local which can lead to undefined behavior. This can be fixed by merging the conflicting VirtualServices into a single resource.';
    expect(lines(out)).toEqual([
      `Error [IST0109] (VirtualService shop/cart-a vs.yaml:${lineOf(text, 'name: cart-a')}) ${msg}`,
      `Error [IST0109] (VirtualService web/cart-b vs.yaml:${lineOf(text, 'name: cart-b')}) ${msg}`,
    ]);
    expect(out[0]?.fieldPath).toBe('metadata.name');
  });

  it('keeps hosts exported to different namespaces apart, but matches them with hosts exported to all', () => {
    const text = docs(
      vs('a', 'local-a', `  hosts: [api]\n  exportTo: ["."]\n${route('api')}`),
      vs('b', 'local-b', `  hosts: [api.a.svc.cluster.local]\n  exportTo: ["."]\n${route('api.a.svc.cluster.local')}`),
      vs('c', 'wild-local', `  hosts: ["*.example.com"]\n  exportTo: ["."]\n${route('x')}`),
      vs('d', 'global', `  hosts: [pay.example.com]\n${route('x')}`),
    );
    const out = analyze(conflictingMeshGatewayHostsAnalyzer, { 'vs.yaml': text });
    expect(pairs(out)).toEqual(['IST0109 VirtualService c/wild-local', 'IST0109 VirtualService d/global']);
    expect(out[0]?.message).toContain('c/wild-local,d/global');
    expect(out[0]?.message).toContain('define the same host c/*.example.com ');
  });

  it('reports a VirtualService once even when it conflicts on several hosts', () => {
    const out = analyze(conflictingMeshGatewayHostsAnalyzer, {
      'vs.yaml': docs(vs('ns', 'one', `  hosts: [a, b]\n${route('a')}`), vs('ns', 'two', `  hosts: [a, b]\n${route('a')}`)),
    });
    expect(pairs(out)).toEqual(['IST0109 VirtualService ns/one', 'IST0109 VirtualService ns/two']);
  });

  it('accepts distinct hosts and gateway-only VirtualServices', () => {
    const out = analyze(conflictingMeshGatewayHostsAnalyzer, {
      'vs.yaml': docs(
        vs('ns', 'one', `  hosts: [a]\n${route('a')}`),
        vs('ns', 'two', `  hosts: [b]\n  gateways: [mesh]\n${route('b')}`),
        vs('ns', 'three', `  hosts: [a]\n  gateways: [ingress]\n${route('a')}`),
      ),
    });
    expect(out).toEqual([]);
  });
});

const dr = (ns: string, name: string, host: string, subsets: string[]) => `
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  host: ${host}
  subsets:
${subsets.map((s) => `  - name: ${s}\n    labels:\n      version: ${s}`).join('\n')}
`;

describe('virtualservice.DestinationRuleAnalyzer', () => {
  const subsetRoute = (host: string, subset: string) => `        host: ${host}\n        subset: ${subset}\n`;

  it('reports route and mirror subsets no DestinationRule defines, on the host line', () => {
    const text = docs(
      dr('shop', 'cart', 'cart', ['v1']),
      vs('shop', 'bad-route', `  hosts: [cart]\n  tcp:\n  - route:\n    - destination:\n${subsetRoute('cart', 'v9')}`),
      vs(
        'shop',
        'bad-mirror',
        `  hosts: [cart]\n  http:\n  - route:\n    - destination:\n${subsetRoute('cart', 'v1')}    mirror:\n      host: cart\n      subset: v2\n`,
      ),
    );
    const out = analyze(destinationRuleAnalyzer, { 'r.yaml': text });
    expect(lines(out)).toEqual([
      `Error [IST0101] (VirtualService shop/bad-mirror r.yaml:${lineOf(text, 'host: cart', 'mirror:')}) Referenced mirror+subset in destinationrule not found: "cart+v2"`,
      `Error [IST0101] (VirtualService shop/bad-route r.yaml:${lineOf(text, 'host: cart', 'name: bad-route')}) Referenced host+subset in destinationrule not found: "cart+v9"`,
    ]);
    expect(out.map((d) => d.fieldPath)).toEqual(['spec.http[0].mirror.host', 'spec.tcp[0].route[0].destination.host']);
  });

  it('matches short names, FQDNs and cross-namespace rules', () => {
    const out = analyze(destinationRuleAnalyzer, {
      'ok.yaml': docs(
        dr('shop', 'cart', 'cart', ['v1']),
        dr('other', 'pay', 'pay.billing.svc.cluster.local', ['blue']),
        vs('shop', 'short', `  hosts: [cart]\n  http:\n  - route:\n    - destination:\n${subsetRoute('cart', 'v1')}`),
        vs('web', 'fqdn', `  hosts: [x]\n  http:\n  - route:\n    - destination:\n${subsetRoute('cart.shop.svc.cluster.local', 'v1')}`),
        vs('billing', 'pay', `  hosts: [pay]\n  http:\n  - route:\n    - destination:\n${subsetRoute('pay', 'blue')}`),
        vs('web', 'nosubset', `  hosts: [x]\n${route('nowhere')}`),
      ),
    });
    expect(out).toEqual([]);
  });

  it('does not resolve a short host in another namespace', () => {
    const out = analyze(destinationRuleAnalyzer, {
      'x.yaml': docs(
        dr('shop', 'cart', 'cart', ['v1']),
        vs('web', 'short-elsewhere', `  hosts: [x]\n  http:\n  - route:\n    - destination:\n${subsetRoute('cart', 'v1')}`),
      ),
    });
    expect(pairs(out)).toEqual(['IST0101 VirtualService web/short-elsewhere']);
  });
});

const gateway = (ns: string, name: string, selector: string) => `
apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  selector:
    ${selector}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: ["*"]
`;

const pod = (ns: string, name: string, labels: string) => `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${ns}
  labels: {${labels}}
`;

const requestAuthn = (ns: string, name: string, selector?: string) => `
apiVersion: security.istio.io/v1
kind: RequestAuthentication
metadata:
  name: ${name}
  namespace: ${ns}
spec:
${selector ? `  selector:\n    matchLabels: {${selector}}\n` : ''}  jwtRules:
  - issuer: https://issuer.example
`;

const claimVs = (ns: string, name: string, gateways: string) =>
  vs(
    ns,
    name,
    `  hosts: [shop.example.com]
  gateways: [${gateways}]
  http:
  - match:
    - withoutHeaders:
        "@request.auth.claims.role":
          exact: guest
    route:
    - destination:
        host: shop
`,
  );

describe('virtualservice.JWTClaimRouteAnalyzer', () => {
  it('reports each gateway pod without a RequestAuthentication', () => {
    const text = docs(
      gateway('edge', 'public', 'app: edge-gw'),
      pod('edge', 'edge-gw-1', 'app: edge-gw'),
      pod('edge', 'edge-gw-2', 'app: edge-gw, covered: "yes"'),
      pod('edge', 'unrelated', 'app: other'),
      requestAuthn('edge', 'only-covered', 'covered: "yes"'),
      claimVs('shop', 'claims', 'mesh, edge/public'),
    );
    const out = analyze(jwtClaimRouteAnalyzer, { 'j.yaml': text }, { placeholders: false });
    expect(lines(out)).toEqual([
      `Error [IST0149] (VirtualService shop/claims j.yaml:${lineOf(text, 'name: claims') - 3}) The virtual service uses the JWT claim based routing (key: @request.auth.claims.role) but found no request authentication for the gateway (edge/public) pod (edge-gw-1). The request authentication must first be applied for the gateway pods to validate the JWT token and make the claims available for routing.`,
    ]);
  });

  it('accepts a RequestAuthentication in istio-system or without a selector, and ignores missing gateways', () => {
    const noSelector = analyze(
      jwtClaimRouteAnalyzer,
      {
        'j.yaml': docs(
          gateway('edge', 'public', 'app: edge-gw'),
          pod('edge', 'gw', 'app: edge-gw'),
          requestAuthn('edge', 'all'),
          claimVs('edge', 'claims', 'public'),
        ),
      },
      { placeholders: false },
    );
    expect(noSelector).toEqual([]);
    const rootNs = analyze(
      jwtClaimRouteAnalyzer,
      {
        'j.yaml': docs(
          gateway('edge', 'public', 'app: edge-gw'),
          pod('edge', 'gw', 'app: edge-gw'),
          requestAuthn('istio-system', 'mesh-wide', 'app: edge-gw'),
          claimVs('edge', 'claims', 'public'),
        ),
      },
      { placeholders: false },
    );
    expect(rootNs).toEqual([]);
    const missingGateway = analyze(jwtClaimRouteAnalyzer, { 'j.yaml': docs(pod('edge', 'gw', 'app: edge-gw'), claimVs('edge', 'claims', 'nowhere')) });
    expect(missingGateway).toEqual([]);
  });

  it("finds claim routes under the proto field name (without_headers), as Istio's decoder reads them", () => {
    const text = docs(
      gateway('edge', 'public', 'app: edge-gw'),
      pod('edge', 'gw', 'app: edge-gw'),
      claimVs('edge', 'claims', 'public').replace('withoutHeaders:', 'without_headers:'),
    );
    const out = analyze(jwtClaimRouteAnalyzer, { 'j.yaml': text }, { placeholders: false });
    expect(pairs(out)).toEqual(['IST0149 VirtualService edge/claims']);
  });

  it('ignores VirtualServices that do not route on claims', () => {
    const out = analyze(jwtClaimRouteAnalyzer, {
      'j.yaml': docs(
        gateway('edge', 'public', 'app: edge-gw'),
        pod('edge', 'gw', 'app: edge-gw'),
        vs(
          'edge',
          'plain',
          `  hosts: [a]\n  gateways: [public]\n  http:\n  - match:\n    - headers:\n        x-role:\n          exact: admin\n    route:\n    - destination:\n        host: a\n`,
        ),
      ),
    });
    expect(out).toEqual([]);
  });
});
