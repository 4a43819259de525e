// The editor range of routing messages lands on the offending field, while istioctl's line
// (from Istio's own field key, or the document) stays what it was.
import { describe, expect, it } from 'vitest';
import { caCertificateAnalyzer } from '../../../../src/core/analysis/analyzers/destinationrule/caCertificates.ts';
import { subsetSelectPodAnalyzer } from '../../../../src/core/analysis/analyzers/destinationrule/subsetSelectPods.ts';
import { envoyPatchAnalyzer } from '../../../../src/core/analysis/analyzers/envoyfilter/envoyPatch.ts';
import { validationAnalyzer } from '../../../../src/core/analysis/analyzers/schema/validation.ts';
import { KINDS } from '../../../../src/core/document/kinds.ts';

const virtualServiceValidationAnalyzer = validationAnalyzer(KINDS.VirtualService);
import { conflictingMeshGatewayHostsAnalyzer } from '../../../../src/core/analysis/analyzers/virtualservice/conflictingMeshGatewayHosts.ts';
import { destinationRuleAnalyzer } from '../../../../src/core/analysis/analyzers/virtualservice/destinationRules.ts';
import { jwtClaimRouteAnalyzer } from '../../../../src/core/analysis/analyzers/virtualservice/jwtClaimRoute.ts';
import type { Diagnostic } from '../../../../src/core/document/types.ts';
import { analyze, docs } from '../helpers.ts';
import { lineOf, vs } from './util.ts';

/** Line and 1-based column of `needle`, searching from the line that holds `anchor`. */
function at(text: string, needle: string, anchor?: string): { startLine: number; startCol: number } {
  const line = lineOf(text, needle, anchor);
  return { startLine: line, startCol: (text.split('\n')[line - 1] as string).indexOf(needle) + 1 };
}

/** The one diagnostic whose code and message contain `text` (output is sorted by line, not report order). */
function find(out: readonly Diagnostic[], text: string): Diagnostic {
  const hits = out.filter((d) => `${d.code} ${d.message}`.includes(text));
  expect(hits).toHaveLength(1);
  return hits[0] as Diagnostic;
}

function start(d: Diagnostic | undefined): { startLine: number; startCol: number } | undefined {
  return d?.range ? { startLine: d.range.startLine, startCol: d.range.startCol } : undefined;
}

const dr = (ns: string, name: string, spec: string) => `
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: ${name}
  namespace: ${ns}
spec:
${spec}`;

const meta = (kind: string, ns: string, name: string, rest: string) => `
apiVersion: v1
kind: ${kind}
metadata:
  name: ${name}
  namespace: ${ns}
${rest}`;

describe('routing highlight paths', () => {
  it('IST0109 points at the conflicting host, istioctl at the name', () => {
    const text = docs(vs('shop', 'cart-a', '  hosts: [other, cart]\n'), vs('web', 'cart-b', '  hosts:\n  - cart.shop.svc.cluster.local\n'));
    const out = analyze(conflictingMeshGatewayHostsAnalyzer, { 'vs.yaml': text });
    expect(out.map((d) => d.code)).toEqual(['IST0109', 'IST0109']);
    expect(out[0]?.line).toBe(lineOf(text, 'name: cart-a'));
    expect(start(out[0])).toEqual(at(text, 'cart]', 'name: cart-a'));
    expect(out[1]?.line).toBe(lineOf(text, 'name: cart-b'));
    expect(start(out[1])).toEqual(at(text, 'cart.shop.svc.cluster.local', 'name: cart-b'));
  });

  it('IST0101 (host+subset) points at the missing subset of a route and of a mirror', () => {
    const text = docs(
      vs(
        'shop',
        'cart',
        `  hosts: [cart]
  http:
  - route:
    - destination:
        host: cart
        subset: v9
    mirror:
      host: cart
      subset: v8
  - route:
    - destination: {host: cart}
    mirrors:
    - destination:
        host: cart
        subset: v7
`,
      ),
    );
    const out = analyze(destinationRuleAnalyzer, { 'vs.yaml': text });
    expect(out).toHaveLength(3);
    const route = find(out, '"cart+v9"');
    expect(route.line).toBe(lineOf(text, 'host: cart', '- destination:'));
    expect(start(route)).toEqual(at(text, 'subset: v9'));
    const mirror = find(out, '"cart+v8"');
    expect(mirror.line).toBe(lineOf(text, 'host: cart', 'mirror:'));
    expect(start(mirror)).toEqual(at(text, 'subset: v8'));
    // Istio's key for a `mirrors` entry names `mirror`, which this rule lacks: the document line.
    const mirrors = find(out, '"cart+v7"');
    expect(mirrors.line).toBe(1);
    expect(start(mirrors)).toEqual(at(text, 'subset: v7'));
  });

  it('IST0149 points at the JWT claim header', () => {
    const text = docs(
      meta('Pod', 'edge', 'gw-1', '  labels: {app: edge-gw}\nspec:\n  containers:\n  - name: c\n    image: c\n'),
      `apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata:\n  name: public\n  namespace: edge\nspec:\n  selector: {app: edge-gw}\n  servers:\n  - port: {number: 80, name: http, protocol: HTTP}\n    hosts: ["*"]\n`,
      vs(
        'edge',
        'claims',
        `  hosts: [shop.example.com]
  gateways: [public]
  http:
  - route:
    - destination: {host: shop}
  - match:
    - uri: {prefix: /a}
    - headers:
        x-plain: {exact: "1"}
        "@request.auth.claims.role":
          exact: admin
    route:
    - destination: {host: shop}
`,
      ),
    );
    const out = analyze(jwtClaimRouteAnalyzer, { 'j.yaml': text }, { placeholders: false });
    expect(out.map((d) => d.code)).toEqual(['IST0149']);
    expect(out[0]?.line).toBe(lineOf(text, 'name: claims') - 3);
    expect(start(out[0])).toEqual(at(text, '"@request.auth.claims.role"'));
  });

  it('IST0128 and IST0129 point at the TLS mode', () => {
    const text = docs(
      dr(
        'db',
        'tls',
        `  host: pg
  trafficPolicy:
    tls:
      mode: SIMPLE
    portLevelSettings:
    - port: {number: 5432}
      tls:
        mode: MUTUAL
        caCertificates: ""
    - port: {number: 6432}
      tls: {mode: SIMPLE}
`,
      ),
    );
    const out = analyze(caCertificateAnalyzer, { 'dr.yaml': text });
    expect(out).toHaveLength(3);
    const top = find(out, 'IST0128');
    expect(top.line).toBe(1);
    expect(start(top)).toEqual(at(text, 'mode: SIMPLE'));
    const first = find(out, 'number:5432');
    expect(first.line).toBe(lineOf(text, 'caCertificates: ""'));
    expect(start(first)).toEqual(at(text, 'mode: MUTUAL'));
    const second = find(out, 'number:6432');
    expect(second.line).toBe(1);
    expect(start(second)).toEqual(at(text, 'mode: SIMPLE', 'number: 6432'));
  });

  it('IST0174 points at the host and IST0173 at the (last) subset that selects nothing', () => {
    const text = docs(
      meta('Service', 'shop', 'cart', 'spec:\n  selector: {app: cart}\n  ports:\n  - {port: 80, name: http}\n'),
      meta('Pod', 'shop', 'cart-1', '  labels: {app: cart, version: v1}\nspec:\n  containers:\n  - name: c\n    image: c\n'),
      dr(
        'shop',
        'cart',
        `  host: cart
  subsets:
  - name: v2
    labels: {version: v1}
  - name: v1
    labels: {version: v1}
  - name: v2
    labels: {version: v2}
`,
      ),
      dr('shop', 'ghost', '  host: ghost.shop.svc.cluster.local\n'),
    );
    const out = analyze(subsetSelectPodAnalyzer, { 'dr.yaml': text });
    expect(out.map((d) => d.code)).toEqual(['IST0173', 'IST0174']);
    expect(out[0]?.line).toBe(lineOf(text, 'name: cart', 'kind: DestinationRule') - 3);
    expect(start(out[0])).toEqual(at(text, 'name: v2', 'name: v1'));
    expect(out[1]?.line).toBe(lineOf(text, 'name: ghost') - 3);
    expect(start(out[1])).toEqual(at(text, 'host: ghost'));
  });

  it('IST0151..IST0155 point at the patch operation', () => {
    const ef = (name: string, applyTo: string, operation: string, priority = '') => `apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata:
  name: ${name}
  namespace: mesh
spec:
${priority}  configPatches:
  - applyTo: ${applyTo}
    patch:
      operation: ${operation}
      value:
        name: ${name}
`;
    const text = docs(
      ef('rel', 'HTTP_FILTER', 'INSERT_BEFORE'),
      ef('rep', 'CLUSTER', 'REPLACE', '  priority: 1\n'),
      ef('add', 'HTTP_ROUTE', 'ADD'),
      ef('rem', 'ROUTE_CONFIGURATION', 'REMOVE'),
    );
    const out = analyze(envoyPatchAnalyzer, { 'ef.yaml': text });
    expect(out).toHaveLength(4);
    const cases: Array<[string, string, string]> = [
      ['IST0151', 'rel', 'INSERT_BEFORE'],
      ['IST0152', 'rep', 'REPLACE'],
      ['IST0153', 'add', 'ADD'],
      ['IST0154', 'rem', 'REMOVE'],
    ];
    for (const [code, name, operation] of cases) {
      const d = find(out, code);
      // Istio's key (the patch value) is not a scalar: istioctl prints the document line.
      expect(d.line).toBe(lineOf(text, `name: ${name}`) - 3);
      expect(start(d)).toEqual(at(text, `operation: ${operation}`));
    }
  });

  it('IST0130 and IST0131 point at the unreachable rule, its matches, or the ineffective match', () => {
    const text = docs(
      vs(
        'web',
        'rules',
        `  hosts: [web]
  http:
  - name: first
    match:
    - uri: {exact: /a}
    route:
    - destination: {host: web}
  - name: second
    match:
    - uri: {exact: /a}
    route:
    - destination: {host: web}
  - name: prefixes
    match:
    - uri: {prefix: /shop}
    - uri: {prefix: /shop/cart}
    route:
    - destination: {host: web}
  - route:
    - destination: {host: web}
  - name: after
    match:
    - uri: {exact: /late}
    route:
    - destination: {host: web}
  tcp:
  - route:
    - destination: {host: web}
  - route:
    - destination: {host: db}
`,
      ),
    );
    const out = analyze(virtualServiceValidationAnalyzer, { 'vs.yaml': text });
    expect(out).toHaveLength(5);
    expect(out.every((d) => d.line === 1)).toBe(true);
    expect(start(find(out, 'IST0131 VirtualService rule "second" match #0'))).toEqual(at(text, 'uri: {exact: /a}', 'name: second'));
    expect(start(find(out, 'rule "second" not used (all matches used by prior rules)'))).toEqual(at(text, 'match:', 'name: second'));
    expect(start(find(out, 'rule "after" not used (route without matches defined before)'))).toEqual(at(text, 'uri: {exact: /late}'));
    expect(start(find(out, 'match #1 of prefix /shop/cart is not used'))).toEqual(at(text, 'uri: {prefix: /shop/cart}'));
    // The second tcp rule without matches: the rule itself.
    const tcpRule = lineOf(text, 'host: db') - 1;
    expect(start(find(out, 'rule #1 not used (only the last rule can have no matches)'))).toEqual({ startLine: tcpRule, startCol: 5 });
  });
});
