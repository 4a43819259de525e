// The simulator's RBAC verdict: the destination sidecar's generated inbound RBAC filters,
// evaluated with Envoy's semantics, on Bookinfo-like meshes.
import { describe, expect, it } from 'vitest';
import { viewOf, generateFor } from './helpers.ts';
import { simulateRequest, type RequestInput, type RequestResult } from '../../src/core/xds/request.ts';
import { evaluateRbacFilter, parseRbacPolicyName, type RbacRequest } from '../../src/core/xds/rbac.ts';
import { join } from 'node:path';
import { cli, REPO } from '../cli/helpers.ts';

function deployment(ns: string, app: string, version: string, sa: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${app}-${version}, namespace: ${ns}}
spec:
  selector: {matchLabels: {app: ${app}, version: ${version}}}
  template:
    metadata: {labels: {app: ${app}, version: ${version}}}
    spec:
      serviceAccountName: ${sa}
      containers: [{name: ${app}, image: example.com/${app}:1, ports: [{containerPort: 9080}]}]
`;
}

function service(ns: string, app: string): string {
  return `apiVersion: v1
kind: Service
metadata: {name: ${app}, namespace: ${ns}}
spec:
  selector: {app: ${app}}
  ports: [{name: http, port: 9080, targetPort: 9080}]
`;
}

const MESH = [
  `apiVersion: v1
kind: Namespace
metadata: {name: bookinfo, labels: {istio-injection: enabled}}
`,
  `apiVersion: v1
kind: Namespace
metadata: {name: other, labels: {istio-injection: enabled}}
`,
  service('bookinfo', 'productpage'),
  deployment('bookinfo', 'productpage', 'v1', 'bookinfo-productpage'),
  service('bookinfo', 'reviews'),
  deployment('bookinfo', 'reviews', 'v1', 'bookinfo-reviews'),
  deployment('other', 'sleep', 'v1', 'sleep'),
];

function mesh(...extra: string[]): string {
  return [...MESH, ...extra].join('---\n');
}

function run(text: string, from: { pod: string; ns: string }, input: Partial<RequestInput> = {}): RequestResult {
  const view = viewOf(text);
  const gen = generateFor(view, from.pod, from.ns);
  return simulateRequest(view, gen, { host: 'reviews.bookinfo.svc.cluster.local', port: 9080, path: '/reviews/1', ...input });
}

const PRODUCTPAGE = { pod: 'productpage-v1', ns: 'bookinfo' };
const SLEEP = { pod: 'sleep-v1', ns: 'other' };

const ALLOW_PRODUCTPAGE = `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: reviews-viewer, namespace: bookinfo}
spec:
  selector: {matchLabels: {app: reviews}}
  action: ALLOW
  rules:
    - from:
        - source: {principals: [cluster.local/ns/bookinfo/sa/bookinfo-productpage]}
      to:
        - operation: {methods: [GET]}
`;

const DENY_ADMIN = `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: deny-admin, namespace: bookinfo}
spec:
  selector: {matchLabels: {app: reviews}}
  action: DENY
  rules:
    - to:
        - operation: {methods: [DELETE]}
    - to:
        - operation: {paths: [/admin/*]}
`;

function rbacStep(r: RequestResult) {
  return r.steps.filter((s) => s.kind === 'rbac');
}

describe('RBAC verdict in the request simulator', () => {
  it('allows when no AuthorizationPolicy applies, with the mTLS principal of the source', () => {
    const r = run(mesh(), PRODUCTPAGE);
    expect(r.ok).toBe(true);
    expect(r.status).toBeUndefined();
    expect(r.rbac).toHaveLength(1);
    const v = r.rbac![0]!;
    expect(v.verdict).toBe('allow');
    expect(v.mtls).toBe(true);
    expect(v.principal).toBe('spiffe://cluster.local/ns/bookinfo/sa/bookinfo-productpage');
    expect(v.proxy).toMatch(/^reviews-v1-.*\.bookinfo$/);
    expect(rbacStep(r)[0]!.title).toContain('no AuthorizationPolicy applies');
  });

  it('ALLOW by principal: the productpage identity passes, another identity gets 403 naming the policy', () => {
    const text = mesh(ALLOW_PRODUCTPAGE);
    const ok = run(text, PRODUCTPAGE);
    expect(ok.ok).toBe(true);
    expect(ok.rbac![0]!.policy).toMatchObject({ namespace: 'bookinfo', name: 'reviews-viewer', rule: 0, action: 'ALLOW' });
    expect(rbacStep(ok)[0]!.title).toContain('allowed by AuthorizationPolicy bookinfo/reviews-viewer');

    const denied = run(text, SLEEP);
    expect(denied.ok).toBe(false);
    expect(denied.failure).toBe('RBAC: access denied');
    expect(denied.status).toBe(403);
    expect(denied.rbac![0]!.principal).toBe('spiffe://cluster.local/ns/other/sa/sleep');
    expect(denied.rbac![0]!.policy?.name).toBe('reviews-viewer');
    const step = rbacStep(denied)[0]!;
    expect(step.title).toContain('no rule of the ALLOW policy bookinfo/reviews-viewer matches');
    // The step links to the policy's rule.
    expect(step.ref?.resourceKey).toMatch(/AuthorizationPolicy\/bookinfo\/reviews-viewer$/);
    expect(step.ref?.fieldPath).toBe('spec.rules[0]');

    // The operation is part of the rule: a POST from productpage matches no rule.
    const post = run(text, PRODUCTPAGE, { method: 'POST' });
    expect(post.status).toBe(403);
  });

  it('DENY by path and by method: the matching rule is named; other requests pass', () => {
    const text = mesh(DENY_ADMIN);
    const admin = run(text, PRODUCTPAGE, { path: '/admin/users?x=1' });
    expect(admin.status).toBe(403);
    expect(admin.rbac![0]!.policy).toMatchObject({ name: 'deny-admin', rule: 1, action: 'DENY' });
    expect(rbacStep(admin)[0]!.ref?.fieldPath).toBe('spec.rules[1]');
    const del = run(text, PRODUCTPAGE, { method: 'DELETE' });
    expect(del.rbac![0]!.policy).toMatchObject({ name: 'deny-admin', rule: 0 });
    const fine = run(text, PRODUCTPAGE, { path: '/reviews/admin' });
    expect(fine.ok).toBe(true);
    expect(fine.rbac![0]!.verdict).toBe('allow');
  });

  it('DENY is evaluated before ALLOW', () => {
    const r = run(mesh(ALLOW_PRODUCTPAGE, DENY_ADMIN), PRODUCTPAGE, { path: '/admin/x' });
    expect(r.rbac![0]!.policy?.name).toBe('deny-admin');
    expect(run(mesh(ALLOW_PRODUCTPAGE, DENY_ADMIN), PRODUCTPAGE).rbac![0]!.policy?.name).toBe('reviews-viewer');
  });

  it('mTLS disabled: no principal reaches the destination, so principal and namespace rules do not match', () => {
    const disable = `apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: reviews-plain, namespace: bookinfo}
spec:
  selector: {matchLabels: {app: reviews}}
  mtls: {mode: DISABLE}
`;
    const byNamespace = `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: from-bookinfo, namespace: bookinfo}
spec:
  selector: {matchLabels: {app: reviews}}
  rules: [{from: [{source: {namespaces: [bookinfo]}}]}]
`;
    const withMtls = run(mesh(byNamespace), PRODUCTPAGE);
    expect(withMtls.ok).toBe(true);
    const r = run(mesh(disable, byNamespace), PRODUCTPAGE);
    expect(r.rbac![0]!.mtls).toBe(false);
    expect(r.rbac![0]!.principal).toBeUndefined();
    expect(r.status).toBe(403);
    expect(rbacStep(r)[0]!.detail).toContain('plaintext');
    const p = run(mesh(disable, ALLOW_PRODUCTPAGE), PRODUCTPAGE);
    expect(p.status).toBe(403);
  });

  it('a plaintext client against a STRICT destination is refused', () => {
    const strict = `apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: default, namespace: bookinfo}
spec: {mtls: {mode: STRICT}}
`;
    const plain = `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: reviews, namespace: bookinfo}
spec:
  host: reviews
  trafficPolicy: {tls: {mode: DISABLE}}
`;
    expect(run(mesh(strict), PRODUCTPAGE).ok).toBe(true);
    const r = run(mesh(strict, plain), PRODUCTPAGE);
    expect(r.ok).toBe(false);
    expect(r.rbac![0]!.verdict).toBe('refused');
    expect(r.failure).toContain('STRICT');
  });

  it('AUDIT and dry-run policies never deny; they are reported', () => {
    const audit = `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: audit-all, namespace: bookinfo}
spec:
  selector: {matchLabels: {app: reviews}}
  action: AUDIT
  rules: [{to: [{operation: {paths: ["/reviews/*"]}}]}]
`;
    const dryDeny = `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: dry-deny, namespace: bookinfo, annotations: {istio.io/dry-run: "true"}}
spec:
  selector: {matchLabels: {app: reviews}}
  action: DENY
  rules: [{to: [{operation: {methods: [GET]}}]}]
`;
    const r = run(mesh(audit, dryDeny), PRODUCTPAGE);
    expect(r.ok).toBe(true);
    const notes = r.rbac![0]!.notes.join('\n');
    expect(notes).toContain('audited by AuthorizationPolicy bookinfo/audit-all');
    expect(notes).toContain('dry-run AuthorizationPolicy bookinfo/dry-deny');
  });

  it('CUSTOM: a matching policy hands the request to the ext_authz provider (not simulated); an unknown provider denies', () => {
    const custom = (provider: string) => `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: ext-check, namespace: bookinfo}
spec:
  selector: {matchLabels: {app: reviews}}
  action: CUSTOM
  provider: {name: ${provider}}
  rules: [{to: [{operation: {paths: ["/reviews/*"]}}]}]
`;
    const authzSvc = service('bookinfo', 'authz');
    const meshCfg = { extensionProviders: [{ name: 'ext', envoyExtAuthzHttp: { service: 'authz.bookinfo.svc.cluster.local', port: 9080 } }] };
    const view = viewOf(mesh(authzSvc, custom('ext')), meshCfg);
    const r = simulateRequest(view, generateFor(view, 'productpage-v1', 'bookinfo'), { host: 'reviews', port: 9080, path: '/reviews/1' });
    expect(r.ok).toBe(true);
    expect(r.rbac![0]!.notes.join(' ')).toContain('AuthorizationPolicy bookinfo/ext-check (rule 0, CUSTOM) sends the request to the external authorizer');
    const other = simulateRequest(view, generateFor(view, 'productpage-v1', 'bookinfo'), { host: 'reviews', port: 9080, path: '/other' });
    expect(other.rbac![0]!.notes.join(' ')).not.toContain('external authorizer');
    const bad = viewOf(mesh(authzSvc, custom('missing')), meshCfg);
    const denied = simulateRequest(bad, generateFor(bad, 'productpage-v1', 'bookinfo'), { host: 'reviews', port: 9080, path: '/reviews/1' });
    expect(denied.status).toBe(403);
    expect(denied.rbac![0]!.policy).toMatchObject({ name: 'ext-check', action: 'CUSTOM' });
  });

  it('request.auth conditions do not match a request without a token', () => {
    const jwt = `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: need-jwt, namespace: bookinfo}
spec:
  selector: {matchLabels: {app: reviews}}
  rules: [{from: [{source: {requestPrincipals: ["*"]}}]}]
`;
    const r = run(mesh(jwt), PRODUCTPAGE);
    expect(r.status).toBe(403);
    expect(r.rbac![0]!.notes.join(' ')).toContain('no validated token');
  });

  it('evaluates only sidecar endpoints: a request to an address outside the mesh has no RBAC step', () => {
    const r = run(mesh(), PRODUCTPAGE, { host: 'example.com', port: 80 });
    expect(r.rbac).toBeUndefined();
  });
});

describe('simulate CLI', () => {
  it('prints the RBAC step with the policy file line and exits 1 on a deny', async () => {
    const sample = join(REPO, 'public/samples/bookinfo');
    const args = ['simulate', 'productpage-v1.bookinfo', '--host', 'reviews', '--port', '9080', '--path', '/admin/x', sample, '-'];
    const r = await cli(args, { stdin: DENY_ADMIN });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^rbac\s+RBAC denied by AuthorizationPolicy bookinfo\/deny-admin \(rule 1, DENY\)$/m);
    const secondRule = DENY_ADMIN.split('\n').findIndex((l, i, all) => l.trim() === '- to:' && all.slice(0, i).some((x) => x.trim() === '- to:')) + 1;
    expect(r.stdout).toContain(`from AuthorizationPolicy bookinfo/deny-admin spec.rules[1] (-:${secondRule})\n`);
    expect(r.stdout).toContain('result: fails: RBAC: access denied');
    const ok = await cli(
      args.map((a) => (a === '/admin/x' ? '/reviews/1' : a)),
      { stdin: DENY_ADMIN },
    );
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^rbac\s+RBAC allowed: no DENY policy matches and no ALLOW policy applies$/m);
  });
});

describe('Envoy RBAC semantics', () => {
  const req: RbacRequest = {
    sourceIp: '10.0.0.1',
    destinationIp: '10.0.0.2',
    destinationPort: 8080,
    headers: new Map([
      [':path', '/a?b'],
      [':method', 'GET'],
    ]),
    sni: '',
    principal: 'spiffe://td/ns/a/sa/b',
  };
  const pol = (permissions: unknown[], principals: unknown[]) => ({ permissions, principals });

  it('ALLOW with no matching (or no) policy denies; DENY with a match denies; LOG never denies', () => {
    expect(evaluateRbacFilter({ rules: {} }, req).rules?.denies).toBe(true);
    expect(evaluateRbacFilter({ rules: { policies: { p: pol([{ any: true }], [{ any: true }]) } } }, req).rules).toMatchObject({
      denies: false,
      matched: ['p'],
    });
    expect(
      evaluateRbacFilter({ rules: { action: 'DENY', policies: { p: pol([{ urlPath: { path: { exact: '/a' } } }], [{ any: true }]) } } }, req).rules?.denies,
    ).toBe(true);
    expect(
      evaluateRbacFilter({ rules: { action: 'DENY', policies: { p: pol([{ urlPath: { path: { exact: '/a?b' } } }], [{ any: true }]) } } }, req).rules?.denies,
    ).toBe(false);
    expect(evaluateRbacFilter({ rules: { action: 'LOG', policies: { p: pol([{ any: true }], [{ any: true }]) } } }, req).rules?.denies).toBe(false);
    expect(evaluateRbacFilter({ shadowRules: { action: 'DENY', policies: { p: pol([{ any: true }], [{ any: true }]) } } }, req).rules).toBeUndefined();
  });

  it('needs a permission and a principal; and/or/not compose; authenticated needs a principal', () => {
    const authn = { authenticated: { principalName: { safeRegex: { regex: '.*/ns/a/.*' } } } };
    expect(evaluateRbacFilter({ rules: { policies: { p: pol([{ any: true }], [authn]) } } }, req).rules?.denies).toBe(false);
    const { principal: _p, ...anon } = req;
    expect(evaluateRbacFilter({ rules: { policies: { p: pol([{ any: true }], [authn]) } } }, anon).rules?.denies).toBe(true);
    const and = { andRules: { rules: [{ header: { name: ':method', stringMatch: { exact: 'GET' } } }, { notRule: { destinationPort: 8080 } }] } };
    expect(evaluateRbacFilter({ rules: { policies: { p: pol([and], [{ any: true }]) } } }, req).rules?.denies).toBe(true);
    const ip = { directRemoteIp: { addressPrefix: '10.0.0.0', prefixLen: 8 } };
    expect(evaluateRbacFilter({ rules: { policies: { p: pol([{ any: true }], [{ orIds: { ids: [ip] } }]) } } }, req).rules?.denies).toBe(false);
  });

  it('reads policy names back to their AuthorizationPolicy rule', () => {
    expect(parseRbacPolicyName('ns[bookinfo]-policy[deny-admin]-rule[1]')).toEqual({ namespace: 'bookinfo', name: 'deny-admin', rule: 1 });
    expect(parseRbacPolicyName('istio-ext-authz-ns[foo]-policy[ext]-rule[0]')).toEqual({ namespace: 'foo', name: 'ext', rule: 0 });
    expect(parseRbacPolicyName('other')).toBeUndefined();
  });
});
