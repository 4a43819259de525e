// ztunnel's L4 authorization (src/core/ambient/authz.ts: policyMatches, evaluateL4, applicablePolicies).
// Expected values from ztunnel's source (/work/.mirror/istio+ztunnel, HEAD):
//  - src/rbac.rs Authorization::matches: no rules → false; a rule (group) matches when ALL clauses
//    match; a clause when ANY non-empty match matches (empty matches are skipped, an empty clause
//    matches); within a match every field must hold (matches_internal: positive any, negative none).
//    principals via StringMatch::matches_principal (strip "spiffe://", fail without it); namespaces
//    compare the identity's namespace ("" without identity); ServiceAccountMatch needs an identity.
//  - src/state.rs assert_rbac + src/state/policy.rs: namespace-scoped policies of the destination's
//    namespace, global ones, then the workload's `authorization_policies`; DENY first
//    (ExplicitlyDenied), no ALLOW → allow, an ALLOW matches → allow, else NotAllowed.
import { describe, expect, it } from 'vitest';
import {
  applicablePolicies,
  evaluateL4,
  policyMatches,
  type L4Connection,
  type PolicySet,
  type RbacMatch,
  type ZtunnelAuthorization,
} from '../../src/core/ambient/authz.ts';

const conn = (o: Partial<L4Connection> = {}): L4Connection => ({
  srcIp: '10.0.0.1',
  dstIp: '10.0.0.2',
  dstPort: 8080,
  srcIdentity: 'spiffe://cluster.local/ns/front/sa/web',
  ...o,
});
const pol = (rules: RbacMatch[][][], o: Partial<ZtunnelAuthorization> = {}): ZtunnelAuthorization => ({
  name: 'p',
  namespace: 'back',
  scope: 'WorkloadSelector',
  action: 'Allow',
  rules,
  dryRun: false,
  ...o,
});
/** One group, one clause, one match. */
const one = (m: RbacMatch, o: Partial<ZtunnelAuthorization> = {}) => pol([[[m]]], o);
const matches = (m: RbacMatch, c: L4Connection = conn()) => policyMatches(one(m), c);

describe('rbac.rs Authorization::matches structure', () => {
  it('a policy with no rules never matches; a rule with no clauses matches everything', () => {
    expect(policyMatches(pol([]), conn())).toBe(false);
    expect(policyMatches(pol([[]]), conn({ srcIdentity: null }))).toBe(true);
  });

  it('empty matches are skipped: a clause of only empty matches never matches; an empty clause matches', () => {
    expect(policyMatches(pol([[[{}]]]), conn())).toBe(false);
    expect(policyMatches(pol([[[{}, { destinationPorts: [8080] }]]]), conn())).toBe(true);
    expect(policyMatches(pol([[[], [{ destinationPorts: [8080] }]]]), conn())).toBe(true);
  });

  it('clauses are AND-ed, matches in a clause OR-ed, rules (groups) OR-ed', () => {
    const port = { destinationPorts: [8080] };
    const wrongPort = { destinationPorts: [9090] };
    expect(policyMatches(pol([[[port], [wrongPort]]]), conn())).toBe(false);
    expect(policyMatches(pol([[[wrongPort, port]]]), conn())).toBe(true);
    expect(policyMatches(pol([[[wrongPort]], [[port]]]), conn())).toBe(true);
    expect(policyMatches(pol([[[wrongPort]], [[wrongPort]]]), conn())).toBe(false);
  });

  it('fields within a match are AND-ed', () => {
    expect(matches({ destinationPorts: [8080], sourceIps: ['10.0.0.0/24'] })).toBe(true);
    expect(matches({ destinationPorts: [8080], sourceIps: ['10.9.0.0/24'] })).toBe(false);
    expect(matches({ destinationPorts: [9090], sourceIps: ['10.0.0.0/24'] })).toBe(false);
  });
});

describe('rbac.rs field predicates', () => {
  it('destination and source IPs: CIDR containment; not* excludes', () => {
    expect(matches({ destinationIps: ['10.0.0.2/32'] })).toBe(true);
    expect(matches({ destinationIps: ['10.0.0.3/32'] })).toBe(false);
    expect(matches({ notDestinationIps: ['10.0.0.0/24'] })).toBe(false);
    expect(matches({ notDestinationIps: ['10.1.0.0/24'] })).toBe(true);
    expect(matches({ sourceIps: ['10.0.0.1/32'] })).toBe(true);
    expect(matches({ sourceIps: ['10.0.0.2/32'] })).toBe(false);
    expect(matches({ notSourceIps: ['10.0.0.1/32'] })).toBe(false);
    expect(matches({ sourceIps: ['10.0.0.0/8'], notSourceIps: ['10.0.0.1/32'] })).toBe(false);
  });

  it('destination ports: equality with the (target) port; notDestinationPorts excludes', () => {
    expect(matches({ destinationPorts: [80, 8080] })).toBe(true);
    expect(matches({ destinationPorts: [80] })).toBe(false);
    expect(matches({ notDestinationPorts: [8080] })).toBe(false);
    expect(matches({ notDestinationPorts: [80] })).toBe(true);
  });

  it('service accounts: namespace and service account of the identity; no identity never matches', () => {
    expect(matches({ serviceAccounts: [{ namespace: 'front', serviceAccount: 'web' }] })).toBe(true);
    expect(matches({ serviceAccounts: [{ namespace: 'front', serviceAccount: 'api' }] })).toBe(false);
    expect(matches({ serviceAccounts: [{ namespace: 'back', serviceAccount: 'web' }] })).toBe(false);
    expect(matches({ serviceAccounts: [{ namespace: 'front', serviceAccount: 'web' }] }, conn({ srcIdentity: null }))).toBe(false);
    expect(matches({ notServiceAccounts: [{ namespace: 'front', serviceAccount: 'web' }] })).toBe(false);
    expect(matches({ notServiceAccounts: [{ namespace: 'front', serviceAccount: 'web' }] }, conn({ srcIdentity: null }))).toBe(true);
    // The trust domain is ignored.
    expect(matches({ serviceAccounts: [{ namespace: 'front', serviceAccount: 'web' }] }, conn({ srcIdentity: 'spiffe://other.domain/ns/front/sa/web' }))).toBe(
      true,
    );
  });

  it('principals: spiffe:// stripped, exact/prefix/suffix/presence; no identity fails, notPrincipals presence matches it', () => {
    expect(matches({ principals: [{ type: 'exact', value: 'cluster.local/ns/front/sa/web' }] })).toBe(true);
    expect(matches({ principals: [{ type: 'exact', value: 'spiffe://cluster.local/ns/front/sa/web' }] })).toBe(false);
    expect(matches({ principals: [{ type: 'prefix', value: 'cluster.local/ns/front/' }] })).toBe(true);
    expect(matches({ principals: [{ type: 'prefix', value: 'cluster.local/ns/back/' }] })).toBe(false);
    expect(matches({ principals: [{ type: 'suffix', value: '/sa/web' }] })).toBe(true);
    expect(matches({ principals: [{ type: 'suffix', value: '/sa/api' }] })).toBe(false);
    expect(matches({ principals: [{ type: 'presence' }] })).toBe(true);
    expect(matches({ principals: [{ type: 'presence' }] }, conn({ srcIdentity: null }))).toBe(false);
    expect(matches({ notPrincipals: [{ type: 'presence' }] }, conn({ srcIdentity: null }))).toBe(true);
    expect(matches({ notPrincipals: [{ type: 'presence' }] })).toBe(false);
  });

  it('namespaces: from the identity, "" without one', () => {
    expect(matches({ namespaces: [{ type: 'exact', value: 'front' }] })).toBe(true);
    expect(matches({ namespaces: [{ type: 'exact', value: 'back' }] })).toBe(false);
    expect(matches({ namespaces: [{ type: 'prefix', value: 'fr' }] })).toBe(true);
    expect(matches({ namespaces: [{ type: 'suffix', value: 'nt' }] })).toBe(true);
    expect(matches({ namespaces: [{ type: 'suffix', value: 'xx' }] })).toBe(false);
    expect(matches({ namespaces: [{ type: 'presence' }] }, conn({ srcIdentity: null }))).toBe(false);
    expect(matches({ namespaces: [{ type: 'prefix', value: '' }] }, conn({ srcIdentity: null }))).toBe(true);
    expect(matches({ notNamespaces: [{ type: 'exact', value: 'front' }] })).toBe(false);
    expect(matches({ notNamespaces: [{ type: 'presence' }] }, conn({ srcIdentity: null }))).toBe(true);
  });
});

describe('state.rs assert_rbac: decision and reason', () => {
  const deny = (m: RbacMatch, name = 'd') => one(m, { action: 'Deny', name });
  const allow = (m: RbacMatch, name = 'a') => one(m, { action: 'Allow', name });
  const yes = { destinationPorts: [8080] };
  const no = { destinationPorts: [1] };

  it('no policy: allow (NoAllowPolicies)', () => {
    expect(evaluateL4([], conn())).toMatchObject({ decision: 'ALLOW', code: 'NoAllowPolicies', evaluated: [] });
  });

  it('a matching DENY: ExplicitlyDenied, naming the policy and its scope, even when an ALLOW matches', () => {
    const d = evaluateL4([allow(yes), deny(yes)], conn());
    expect(d).toMatchObject({ decision: 'DENY', code: 'ExplicitlyDenied', policy: 'back/d', policyScope: 'WorkloadSelector' });
    expect(evaluateL4([one(yes, { action: 'Deny', name: 'g', namespace: 'istio-system', scope: 'Global' })], conn())).toMatchObject({
      policy: 'istio-system/g',
      policyScope: 'Global',
    });
  });

  it('only non-matching DENYs: allow (NoAllowPolicies)', () => {
    expect(evaluateL4([deny(no)], conn())).toMatchObject({ decision: 'ALLOW', code: 'NoAllowPolicies' });
  });

  it('ALLOWs present: the first matching allows (AllowMatched); none matching → NotAllowed', () => {
    expect(evaluateL4([allow(no, 'a1'), allow(yes, 'a2'), allow(yes, 'a3')], conn())).toMatchObject({
      decision: 'ALLOW',
      code: 'AllowMatched',
      policy: 'back/a2',
    });
    const d = evaluateL4([allow(no, 'a1'), allow(no, 'a2')], conn());
    expect(d.decision).toBe('DENY');
    expect(d.code).toBe('NotAllowed');
    expect(d.policy).toBeUndefined();
    expect(d.why).toContain('back/a1');
    expect(d.why).toContain('back/a2');
  });

  it('an ALLOW without rules still counts as an ALLOW (deny-all)', () => {
    expect(evaluateL4([pol([], { action: 'Allow' })], conn())).toMatchObject({ decision: 'DENY', code: 'NotAllowed' });
  });

  it('lists every policy with its key, action, scope and result, in order', () => {
    const d = evaluateL4([deny(no), allow(yes)], conn());
    expect(d.evaluated.map(({ key, action, scope, matched }) => ({ key, action, scope, matched }))).toEqual([
      { key: 'back/d', action: 'Deny', scope: 'WorkloadSelector', matched: false },
      { key: 'back/a', action: 'Allow', scope: 'WorkloadSelector', matched: true },
    ]);
  });
});

describe('state/policy.rs: which policies a destination workload gets, and in what order', () => {
  const set = (list: ZtunnelAuthorization[]): PolicySet => ({
    byKey: new Map(list.map((p) => [`${p.namespace}/${p.name}`, p])),
    conversions: [],
    selectorPolicies: [],
    peerAuthns: [],
    convertedPeerAuthns: new Map(),
    rootNamespace: 'istio-system',
  });
  const ns1 = pol([[]], { name: 'ns1', namespace: 'back', scope: 'Namespace' });
  const nsOther = pol([[]], { name: 'ns2', namespace: 'other', scope: 'Namespace' });
  const global = pol([[]], { name: 'g', namespace: 'istio-system', scope: 'Global' });
  const wl = pol([[]], { name: 'wl', namespace: 'back', scope: 'WorkloadSelector' });
  const wl2 = pol([[]], { name: 'wl2', namespace: 'back', scope: 'WorkloadSelector' });

  it('namespace policies of its namespace, then global ones, then the listed workload policies; unlisted selector policies are not applied', () => {
    const s = set([wl, global, nsOther, ns1, wl2]);
    expect(applicablePolicies(s, 'back', ['back/wl']).map((p) => p.name)).toEqual(['ns1', 'g', 'wl']);
    expect(applicablePolicies(s, 'other', []).map((p) => p.name)).toEqual(['ns2', 'g']);
  });

  it('a listed key that is unknown is skipped, and none is applied twice', () => {
    const s = set([ns1, wl]);
    expect(applicablePolicies(s, 'back', ['back/missing', 'back/wl', 'back/wl', 'back/ns1']).map((p) => p.name)).toEqual(['ns1', 'wl']);
  });
});
