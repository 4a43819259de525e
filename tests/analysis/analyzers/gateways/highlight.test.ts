// The editor range of the gateways group's messages lands on the offending field, while the
// line istioctl prints stays where Istio puts it.
import { describe, expect, it } from 'vitest';
import { certificateAnalyzer } from '../../../../src/core/analysis/analyzers/gateway/certificate.ts';
import { secretAnalyzer } from '../../../../src/core/analysis/analyzers/gateway/secret.ts';
import { conflictingGatewayAnalyzer } from '../../../../src/core/analysis/analyzers/gateway/conflictingGateway.ts';
import { k8sGatewaySelectorAnalyzer } from '../../../../src/core/analysis/analyzers/k8sgateway/selector.ts';
import { crdVersionAnalyzer } from '../../../../src/core/analysis/analyzers/k8sgateway/crdVersion.ts';
import { blockedCidrsAnalyzer } from '../../../../src/core/analysis/analyzers/authn/blockedCidrs.ts';
import { authorizationPoliciesAnalyzer } from '../../../../src/core/analysis/analyzers/authz/authorizationPolicies.ts';
import type { Diagnostic } from '../../../../src/core/document/types.ts';
import { analyze, docs } from '../helpers.ts';

/** Line and column (1-based) of the `nth` occurrence of `needle` in `text`. */
function at(text: string, needle: string, nth = 0): { startLine: number; startCol: number } {
  const ls = text.split('\n');
  let seen = 0;
  for (let i = 0; i < ls.length; i++) {
    const col = (ls[i] as string).indexOf(needle);
    if (col < 0) continue;
    if (seen++ === nth) return { startLine: i + 1, startCol: col + 1 };
  }
  throw new Error(`not found: ${needle}`);
}

const lineOf = (text: string, needle: string, nth = 0) => at(text, needle, nth).startLine;

function only(out: Diagnostic[], code: string, origin: string): Diagnostic {
  const hits = out.filter((d) => d.code === code && d.origin === origin);
  expect(hits).toHaveLength(1);
  return hits[0]!;
}

function expectAt(d: Diagnostic, text: string, needle: string, nth = 0): void {
  const { startLine, startCol } = at(text, needle, nth);
  expect({ startLine: d.range?.startLine, startCol: d.range?.startCol }).toEqual({ startLine, startCol });
}

const gateway = (name: string, body: string) => `
apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: ${name}
  namespace: edge
spec:
${body}`;

const tlsServer = (tls: string, host = 'shop.example.com', port = 443) => `  - port:
      number: ${port}
      name: https
      protocol: HTTPS
    hosts:
    - ${host}
    tls:
      mode: SIMPLE
${tls}
`;

describe('gateways group highlight paths', () => {
  it('IST0138 points at the shared credentialName, or the shared serverCertificate', () => {
    const text = docs(
      gateway(
        'a',
        `  selector:\n    istio: gw\n  servers:\n${tlsServer('      credentialName: other', 'a.example.com', 8443)}${tlsServer('      credentialName: shared')}`,
      ),
      gateway('b', `  selector:\n    istio: gw\n  servers:\n${tlsServer('      credentialName: shared')}`),
      gateway('c', `  selector:\n    istio: gw\n  servers:\n${tlsServer('      serverCertificate: /etc/c.pem\n      privateKey: /etc/k.pem')}`),
      gateway('d', `  selector:\n    istio: gw\n  servers:\n${tlsServer('      serverCertificate: /etc/c.pem\n      privateKey: /etc/k.pem')}`),
    );
    const out = analyze(certificateAnalyzer, { 'g.yaml': text });
    const a = only(out, 'IST0138', 'Gateway edge/a');
    expectAt(a, text, 'credentialName: shared', 0);
    expect(a.line).toBe(lineOf(text, 'name: a'));
    expectAt(only(out, 'IST0138', 'Gateway edge/b'), text, 'credentialName: shared', 1);
    const c = only(out, 'IST0138', 'Gateway edge/c');
    expectAt(c, text, 'serverCertificate: /etc/c.pem', 0);
    expect(c.line).toBe(lineOf(text, 'name: c'));
  });

  it('IST0101 for an empty selector matching no pod points at the selector', () => {
    const text = gateway('lonely', `  selector: {}\n  servers:\n${tlsServer('      credentialName: cert')}`).slice(1);
    const d = only(analyze(secretAnalyzer, { 's.yaml': text }, { placeholders: false }), 'IST0101', 'Gateway edge/lonely');
    expectAt(d, text, 'selector: {}');
    expect(d.line).toBe(1);
  });

  it('IST0145 points at the first conflicting host of the server', () => {
    const server = (hosts: string[]) =>
      `  - port:\n      number: 80\n      name: http\n      protocol: HTTP\n    hosts:\n${hosts.map((h) => `    - ${h}`).join('\n')}\n`;
    const text = docs(
      gateway('a', `  selector:\n    istio: gw\n  servers:\n${server(['own.example.com', 'shared.example.com'])}`),
      gateway('b', `  selector:\n    istio: gw\n  servers:\n${server(['shared.example.com'])}`),
    );
    const out = analyze(conflictingGatewayAnalyzer, { 'g.yaml': text });
    const a = only(out, 'IST0145', 'Gateway edge/a');
    expectAt(a, text, 'shared.example.com', 0);
    expect(a.line).toBe(lineOf(text, 'name: a') - 3);
    const b = only(out, 'IST0145', 'Gateway edge/b');
    expectAt(b, text, 'shared.example.com', 1);
    expect(b.line).toBe(lineOf(text, 'name: b') - 3);
  });

  it('IST0166 points at the matchLabels of the ineffective selector', () => {
    const text = docs(
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: public-istio\n  namespace: shop\n  labels:\n    gateway.networking.k8s.io/gateway-name: public\n    app: public\n`,
      `apiVersion: security.istio.io/v1\nkind: AuthorizationPolicy\nmetadata:\n  name: ap\n  namespace: shop\nspec:\n  action: ALLOW\n  selector:\n    matchLabels:\n      app: public\n`,
    );
    const d = only(analyze(k8sGatewaySelectorAnalyzer, { 'p.yaml': text }), 'IST0166', 'AuthorizationPolicy shop/ap');
    expectAt(d, text, 'matchLabels:');
    expect(d.line).toBe(lineOf(text, 'name: ap') - 3);
  });

  it('IST0176 points at the bundle-version annotation', () => {
    const text = `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: grpcroutes.gateway.networking.k8s.io\n  annotations:\n    gateway.networking.k8s.io/bundle-version: v1.0.0\nspec:\n  group: gateway.networking.k8s.io\n`;
    const d = only(analyze(crdVersionAnalyzer, { 'crd.yaml': text }), 'IST0176', 'CustomResourceDefinition grpcroutes.gateway.networking.k8s.io');
    expectAt(d, text, 'gateway.networking.k8s.io/bundle-version');
    expect(d.line).toBe(1);
  });

  describe('IST0175', () => {
    const ra = `apiVersion: security.istio.io/v1\nkind: RequestAuthentication\nmetadata:\n  name: jwt\n  namespace: apps\nspec:\n  jwtRules:\n  - issuer: https://issuer.example.com\n`;
    const istiod = (container: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: istiod\n  namespace: istio-system\n  labels:\n    app: istiod\nspec:\n  template:\n    spec:\n      containers:\n      - name: discovery\n        image: pilot\n${container}`;
    const run = (container: string) => {
      const text = docs(ra, istiod(container));
      const d = only(analyze(blockedCidrsAnalyzer, { 'd.yaml': text }), 'IST0175', 'Deployment istio-system/istiod');
      expect(d.line).toBe(lineOf(text, 'name: istiod') - 3);
      return { d, text };
    };

    it('points at the value of a variable set empty', () => {
      const { d, text } = run(
        '        env:\n        - name: PILOT_TRACE_SAMPLING\n          value: "1"\n        - name: BLOCKED_CIDRS_IN_JWKS_URIS\n          value: ""\n',
      );
      expectAt(d, text, 'value: ""');
    });

    it("points at the first container's env list when the variable is missing", () => {
      const { d, text } = run('        env:\n        - name: PILOT_TRACE_SAMPLING\n          value: "1"\n');
      expectAt(d, text, 'env:');
    });

    it('points at the first container when it has no env', () => {
      const { d, text } = run('');
      expectAt(d, text, 'name: discovery');
    });
  });

  describe('auth.AuthorizationPoliciesAnalyzer', () => {
    const ns = (name: string) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`;
    const ap = (name: string, body: string) =>
      `apiVersion: security.istio.io/v1\nkind: AuthorizationPolicy\nmetadata:\n  name: ${name}\n  namespace: shop\nspec:\n${body}`;

    it('IST0127 points at the matchLabels of a selector matching no workload', () => {
      const text = docs(ns('shop'), ap('sel', '  action: ALLOW\n  selector:\n    matchLabels:\n      app: nothing\n'));
      const d = only(analyze(authorizationPoliciesAnalyzer, { 'a.yaml': text }), 'IST0127', 'AuthorizationPolicy shop/sel');
      expectAt(d, text, 'matchLabels:');
      expect(d.line).toBe(lineOf(text, 'name: sel') - 3);
    });

    it('IST0127 of a namespace-wide policy points at its namespace', () => {
      const text = docs(ns('shop'), ap('wide', '  action: ALLOW\n'));
      const d = only(analyze(authorizationPoliciesAnalyzer, { 'a.yaml': text }), 'IST0127', 'AuthorizationPolicy shop/wide');
      expectAt(d, text, 'namespace: shop');
      expect(d.line).toBe(lineOf(text, 'name: wide') - 3);
    });

    it('IST0101 for a notNamespaces entry points at that entry while istioctl keeps the namespaces line', () => {
      const text = docs(
        ns('shop'),
        ap('src', '  rules:\n  - from:\n    - source:\n        namespaces:\n        - shop\n        - ghost\n        notNamespaces:\n        - phantom\n'),
      );
      const out = analyze(authorizationPoliciesAnalyzer, { 'a.yaml': text });
      const ghost = out.find((d) => d.code === 'IST0101' && d.message.includes('ghost'))!;
      expectAt(ghost, text, 'ghost');
      expect(ghost.line).toBe(lineOf(text, '- ghost'));
      const phantom = out.find((d) => d.code === 'IST0101' && d.message.includes('phantom'))!;
      expectAt(phantom, text, 'phantom');
      // Istio maps the negated entry to namespaces[0].
      expect(phantom.line).toBe(lineOf(text, '- shop', 0));
    });
  });
});
