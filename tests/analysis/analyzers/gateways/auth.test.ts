import { describe, expect, it } from 'vitest';
import { blockedCidrsAnalyzer } from '../../../../src/core/analysis/analyzers/authn/blockedCidrs.ts';
import { authorizationPoliciesAnalyzer } from '../../../../src/core/analysis/analyzers/authz/authorizationPolicies.ts';
import { analyze, docs, lines, pairs } from '../helpers.ts';

const ra = (ns: string, name: string) => `
apiVersion: security.istio.io/v1
kind: RequestAuthentication
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  jwtRules:
  - issuer: https://issuer.example.com
`;

const istiod = (env: string) => `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: istiod
  namespace: istio-system
  labels:
    app: istiod
spec:
  template:
    spec:
      containers:
      - name: discovery
        image: pilot
${env}`;

describe('authn.BlockedCIDRsAnalyzer', () => {
  it('reports istiod without BLOCKED_CIDRS_IN_JWKS_URIS when RequestAuthentications exist, listing at most five', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const out = analyze(blockedCidrsAnalyzer, {
      'ra.yaml': docs(...names.map((n) => ra('apps', n)), istiod('        env:\n        - name: BLOCKED_CIDRS_IN_JWKS_URIS\n          value: ""\n')),
    });
    expect(pairs(out)).toEqual(['IST0175 Deployment istio-system/istiod']);
    expect(lines(out)[0]).toBe(
      'Warning [IST0175] (Deployment istio-system/istiod ra.yaml:64) BLOCKED_CIDRS_IN_JWKS_URIS is not configured but 7 RequestAuthentication resource(s) exist (apps/a, apps/b, apps/c, apps/d, apps/e, and 2 more). Consider configuring it to restrict JWKS URI fetches to trusted networks.',
    );
  });

  it('lists all of exactly five names, and five plus "and 1 more" from six on', () => {
    const namesIn = (count: number) => {
      const names = ['a', 'b', 'c', 'd', 'e', 'f'].slice(0, count);
      const out = analyze(blockedCidrsAnalyzer, { 'ra.yaml': docs(...names.map((n) => ra('apps', n)), istiod('')) });
      return out.map((d) => d.message.match(/exist \((.*)\)\. Consider/)?.[1]);
    };
    expect(namesIn(1)).toEqual(['apps/a']);
    expect(namesIn(4)).toEqual(['apps/a, apps/b, apps/c, apps/d']);
    expect(namesIn(5)).toEqual(['apps/a, apps/b, apps/c, apps/d, apps/e']);
    expect(namesIn(6)).toEqual(['apps/a, apps/b, apps/c, apps/d, apps/e, and 1 more']);
  });

  it('accepts a configured istiod, no RequestAuthentication, and non-istiod deployments', () => {
    expect(
      pairs(
        analyze(blockedCidrsAnalyzer, {
          'ok.yaml': docs(ra('apps', 'a'), istiod('        env:\n        - name: BLOCKED_CIDRS_IN_JWKS_URIS\n          value: 10.0.0.0/8\n')),
        }),
      ),
    ).toEqual([]);
    expect(pairs(analyze(blockedCidrsAnalyzer, { 'none.yaml': docs(istiod('')) }))).toEqual([]);
    expect(pairs(analyze(blockedCidrsAnalyzer, { 'other.yaml': docs(ra('apps', 'a'), istiod('').replace('app: istiod', 'app: web')) }))).toEqual([]);
  });
});

const ns = (name: string, labels = '') => `
apiVersion: v1
kind: Namespace
metadata:
  name: ${name}${labels}
`;

const pod = (namespace: string, name: string, labels: Record<string, string>, extra = '') => `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${namespace}
  labels:
${Object.entries(labels)
  .map(([k, v]) => `    ${k}: ${v}`)
  .join('\n')}${extra}
spec:
  containers:
  - name: app
    image: app:1
`;

const ap = (namespace: string, name: string, body: string) => `
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
${body}`;

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('auth.AuthorizationPoliciesAnalyzer', () => {
  it('accepts policies that select in-mesh or ambient pods and name existing namespaces', () => {
    const out = analyze(authorizationPoliciesAnalyzer, {
      'ok.yaml': docs(
        ns('shop', '\n  labels:\n    istio-injection: enabled'),
        ns('prod-eu'),
        pod('shop', 'cart', { app: 'cart' }),
        pod('amb', 'sleep', { app: 'sleep' }, '\n  annotations:\n    ambient.istio.io/redirection: enabled'),
        ap(
          'shop',
          'cart',
          '  selector:\n    matchLabels:\n      app: cart\n  rules:\n  - from:\n    - source:\n        namespaces: ["SHOP", "prod-*", "*-eu", "*"]\n',
        ),
        ap('shop', 'ns-wide', '  action: DENY\n'),
        ap('amb', 'sleep', '  selector:\n    matchLabels:\n      app: sleep\n'),
        ap('istio-system', 'mesh', '  selector:\n    matchLabels:\n      app: cart\n'),
        ap('istio-system', 'mesh-all', '  {}\n'),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('reports policies without in-mesh workloads, with the selector text', () => {
    const text = docs(
      ns('plain'),
      pod('plain', 'web', { app: 'web' }),
      ap('plain', 'web', '  selector:\n    matchLabels:\n      app: web\n      version: v1\n'),
      ap('empty', 'ns-wide', '  action: ALLOW\n'),
      ap('istio-system', 'mesh', '  selector:\n    matchLabels:\n      app: nothing\n'),
    );
    const out = analyze(authorizationPoliciesAnalyzer, { 'w.yaml': text });
    expect(pairs(out)).toEqual([
      'IST0127 AuthorizationPolicy empty/ns-wide',
      'IST0127 AuthorizationPolicy istio-system/mesh',
      'IST0127 AuthorizationPolicy plain/web',
    ]);
    expect(out.find((d) => d.origin === 'AuthorizationPolicy plain/web')?.message).toBe(
      'No matching workloads for this resource with the following labels: app=web,version=v1',
    );
    expect(out.find((d) => d.origin === 'AuthorizationPolicy empty/ns-wide')?.message).toBe(
      'No matching workloads for this resource with the following labels: ',
    );
  });

  it('reports source namespaces that match no Namespace, at the namespaces entry (also for notNamespaces)', () => {
    const text = docs(
      ns('shop'),
      pod('shop', 'cart', { app: 'cart', 'sidecar.istio.io/inject': '"true"' }),
      ap('shop', 'bad', '  rules:\n  - from:\n    - source:\n        namespaces: ["shop", "bogus-*"]\n    - source:\n        notNamespaces: ["*-nope"]\n'),
    );
    const out = analyze(authorizationPoliciesAnalyzer, { 'n.yaml': text });
    expect(lines(out)).toEqual([
      // Istio looks the entry up under `namespaces`, which this source does not have: the resource line.
      `Error [IST0101] (AuthorizationPolicy shop/bad n.yaml:${lineOf(text, 'name: bad') - 3}) Referenced namespace not found: "*-nope"`,
      `Error [IST0101] (AuthorizationPolicy shop/bad n.yaml:${lineOf(text, 'namespaces: ["shop"')}) Referenced namespace not found: "bogus-*"`,
    ]);
    expect(out[1]?.fieldPath).toBe('spec.rules[0].from[0].source.namespaces[1]');
  });
});
