// Surviving mutants of src/core/ambient/authz.ts. Expected values from Istio (commit 86c9f01f):
//  - pilot/pkg/serviceregistry/kube/controller/ambient/authorization.go: convertAuthorizationPolicy
//    (dry-run, targetRefs, action, the ZtunnelAccepted messages httpRuleFmt + the three boilerplates),
//    handleRule (l4WhenAttributes source.ip/source.namespace/source.principal/destination.ip/
//    destination.port), stringToIP (netip.ParsePrefix: bits are decimal digits, ≤ 32 / ≤ 128),
//    stringToServiceAccountMatch (strings.Cut on "/": "/sa" is namespace "" and account "sa"),
//    convertPeerAuthentication (port exceptions against the namespace and root policies, ports
//    sorted), and the oldest-creationTimestamp rule for PeerAuthentications of one level.
//  - REVISION_LABEL filtering: istiod "default" also takes objects labelled istio.io/rev="".
//  - ztunnel src/rbac.rs: StringMatch Exact/Prefix/Suffix/Presence, matches_principal (needs the
//    "spiffe://" prefix), the identity's namespace/service account (spiffe://<td>/ns/<ns>/sa/<sa>),
//    not-fields fail when any value matches; IpNet::contains for bad prefixes.
//  - The explanations (`why`) are what the trace view prints for each policy.
import { describe, expect, it } from 'vitest';
import {
  buildPolicySet,
  cidrContains,
  convertAuthorizationPolicy,
  effectiveMtls,
  evaluateL4,
  policyMatches,
  workloadPolicyKeys,
  type L4Connection,
  type PolicySet,
  type RbacMatch,
  type ZtunnelAuthorization,
} from '../../src/core/ambient/authz.ts';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { makeResource } from '../../src/core/document/resources.ts';
import { pa } from './manifests.ts';

const apRes = (name: string, namespace: string, spec: object, meta: { labels?: Record<string, string>; annotations?: Record<string, string> } = {}) =>
  makeResource({ apiVersion: 'security.istio.io/v1', kind: 'AuthorizationPolicy', metadata: { name, namespace, ...meta }, spec }, undefined);
const convert = (spec: object, namespace = 'shop') => convertAuthorizationPolicy(apRes('p', namespace, spec), 'istio-system');
const groupsOf = (rule: object, action = 'DENY') => convert({ action, rules: [rule] }).authorization?.rules;

const ap = (name: string, namespace: string, spec: object, labels?: Record<string, string>) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'AuthorizationPolicy',
  metadata: { name, namespace, ...(labels ? { labels } : {}) },
  spec,
});
function policySet(objects: object[]): PolicySet {
  const { view, problems } = loadMesh([{ path: 'm.yaml', text: objects.map((o) => JSON.stringify(o)).join('\n---\n') }]);
  expect(problems).toEqual([]);
  return buildPolicySet(view);
}
const presence = { type: 'presence' };
const A = { app: 'a' };
const NO_ID = { notPrincipals: [presence] };

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
const matches = (m: RbacMatch, c: L4Connection = conn()) => policyMatches(pol([[[m]]]), c);

describe('handleRule: L4 when keys and HTTP attributes', () => {
  it('each of the five L4 when keys is kept as a clause and reported as no HTTP attribute', () => {
    const cases: Array<[string, string, RbacMatch]> = [
      ['source.ip', '10.0.0.0/8', { sourceIps: ['10.0.0.0/8'] }],
      ['source.namespace', 'front', { namespaces: [{ type: 'exact', value: 'front' }] }],
      ['source.principal', 'td/ns/a/sa/b', { principals: [{ type: 'exact', value: 'td/ns/a/sa/b' }] }],
      ['destination.ip', '10.1.0.1', { destinationIps: ['10.1.0.1/32'] }],
      ['destination.port', '8080', { destinationPorts: [8080] }],
    ];
    for (const [key, value, match] of cases) {
      const c = convert({ action: 'ALLOW', rules: [{ when: [{ key, values: [value] }] }] });
      expect(c.droppedHttp).toEqual([]);
      expect(c.condition).toEqual({ type: 'ZtunnelAccepted', status: 'True', reason: 'Accepted', message: 'attached to ztunnel' });
      expect(c.authorization?.rules).toEqual([[[match]]]);
    }
  });

  const prefix = (found: string) =>
    `ztunnel does not support HTTP attributes (found: ${found}). In ambient mode you must use a waypoint proxy to enforce HTTP rules. `;
  it('the three ZtunnelAccepted messages', () => {
    expect(convert({ action: 'ALLOW', rules: [{ to: [{ operation: { methods: ['GET'] } }] }] }).condition?.message).toBe(
      `${prefix('methods')}Within an ALLOW policy, rules matching HTTP attributes are omitted. This will be more restrictive than requested.`,
    );
    expect(convert({ action: 'DENY', rules: [{ to: [{ operation: { methods: ['GET'] } }] }] }).condition?.message).toBe(
      `${prefix('methods')}After omitting unsupported HTTP attributes, this DENY policy has no enforceable rules at ztunnel and will have no effect. Deploy a waypoint proxy and use a targetRef to enforce this policy.`,
    );
    expect(convert({ action: 'DENY', rules: [{ to: [{ operation: { methods: ['GET'], ports: ['80'] } }] }] }).condition?.message).toBe(
      `${prefix('methods')}DENY policy with HTTP attributes is enforced without the HTTP rules. This will be more restrictive than requested.`,
    );
  });
});

describe('stringToIP, stringToServiceAccountMatch', () => {
  const ips = (blocks: string[]) => groupsOf({ from: [{ source: { ipBlocks: blocks } }] });
  it('prefix bits must be decimal digits within the family length', () => {
    expect(ips(['10.0.0.1/32', '10.0.0.0/x3', '10.0.0.0/3x', '10.0.0.0/33'])).toEqual([[[{ sourceIps: ['10.0.0.1/32'] }]]]);
    expect(ips(['fd00::1/128', 'fd00::/x3', 'fd00::/3x', 'fd00::/129'])).toEqual([[[{ sourceIps: ['fd00::1/128'] }]]]);
    expect(ips(['10.0.0.0/x3'])).toEqual([[[{}]]]);
  });
  it('"/sa" is the service account "sa" of namespace ""; "sa" is in the rule namespace', () => {
    expect(groupsOf({ from: [{ source: { serviceAccounts: ['/sa', 'b'] } }] })).toEqual([
      [
        [
          {
            serviceAccounts: [
              { namespace: '', serviceAccount: 'sa' },
              { namespace: 'shop', serviceAccount: 'b' },
            ],
          },
        ],
      ],
    ]);
  });
});

describe('cidrContains (IpNet::contains)', () => {
  it('IPv4: a prefix over 32 bits is a full mask', () => {
    expect(cidrContains('10.0.0.1/33', '10.0.0.2')).toBe(false);
    expect(cidrContains('10.0.0.1/33', '10.0.0.1')).toBe(true);
  });
  it('IPv6: a prefix that is not a non-negative integer compares the address', () => {
    expect(cidrContains('fd00::1/x', 'fd00::1')).toBe(true);
    expect(cidrContains('fd00::1/x', 'fd00::2')).toBe(false);
    expect(cidrContains('fd00::1/-1', 'fd00::2')).toBe(false);
    expect(cidrContains('fd00::1/-1', 'fd00::1')).toBe(true);
  });
  it('values that are no address compare as text', () => {
    expect(cidrContains('foo', 'foo')).toBe(true);
    expect(cidrContains('foo', 'bar')).toBe(false);
  });
});

describe('convertAuthorizationPolicy: what is not sent', () => {
  it('dry-run, targetRefs and unsupported actions drop no HTTP attribute and say why', () => {
    const dry = convertAuthorizationPolicy(apRes('p', 'shop', { rules: [{}] }, { annotations: { 'istio.io/dry-run': 'true' } }), 'istio-system');
    expect(dry.excluded).toBe('dry-run (istio.io/dry-run): not sent to ztunnel unless AMBIENT_ENABLE_DRY_RUN_AUTHORIZATION_POLICY');
    expect(dry.droppedHttp).toEqual([]);
    const refs = convert({ targetRefs: [{ kind: 'Service', group: '', name: 's' }], rules: [{}] });
    expect(refs.excluded).toBe('has targetRefs: never sent to ztunnel (it is for a waypoint or gateway)');
    expect(refs.droppedHttp).toEqual([]);
    expect(convert({ action: 'CUSTOM', rules: [{}] }).droppedHttp).toEqual([]);
  });
});

describe('buildPolicySet: revisions and selector policies', () => {
  it('the default revision takes unlabelled and istio.io/rev="" policies, not another revision\'s', () => {
    const s = policySet([
      ap('none', 'a', {}),
      ap('empty', 'a', {}, { 'istio.io/rev': '' }),
      ap('canary', 'a', {}, { 'istio.io/rev': 'canary' }),
      ap('def', 'a', {}, { 'istio.io/rev': 'default' }),
    ]);
    expect([...s.byKey.keys()].sort()).toEqual(['a/def', 'a/empty', 'a/none']);
    const c = s.conversions.find((x) => x.resource.name === 'canary')!;
    expect(c.excluded).toBe("labelled istio.io/rev=canary: another revision's istiod handles it");
    expect(c.droppedHttp).toEqual([]);
  });
  it('an empty meshConfig.rootNamespace reads as istio-system', () => {
    const mesh = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'istio', namespace: 'istio-system' }, data: { mesh: 'rootNamespace: ""\n' } };
    const s = policySet([mesh, ap('g', 'istio-system', { rules: [{}] })]);
    expect(s.rootNamespace).toBe('istio-system');
    expect(s.byKey.get('istio-system/g')?.scope).toBe('Global');
  });
  it('only WORKLOAD_SELECTOR policies are listed with their selectors', () => {
    const s = policySet([ap('ns-wide', 'a', { rules: [{}] }), ap('sel', 'a', { selector: { matchLabels: A }, rules: [{}] })]);
    expect(s.selectorPolicies).toEqual([{ key: 'a/sel', namespace: 'a', selector: A }]);
    expect(workloadPolicyKeys(s, 'a', A)).toEqual(['a/sel']);
  });
  it('a selector without matchLabels is WORKLOAD_SELECTOR but selects no workload (GetMatchLabels() is nil)', () => {
    const s = policySet([ap('bare', 'a', { selector: {}, rules: [{}] })]);
    expect(s.byKey.get('a/bare')?.scope).toBe('WorkloadSelector');
    expect(s.selectorPolicies).toEqual([]);
    expect(workloadPolicyKeys(s, 'a', A)).toEqual([]);
  });
});

describe('PeerAuthentication reading and conversion', () => {
  const converted = (objects: object[], key = 'foo/w') => policySet(objects).convertedPeerAuthns.get(key);
  const W = (o: Parameters<typeof pa>[2]) => pa('w', 'foo', { selector: A, ...o });

  it('no ports, port 0 ignored, ports sorted', () => {
    const s = policySet([W({ mode: 'STRICT' })]);
    expect(s.peerAuthns[0]?.ports).toEqual([]);
    expect(converted([W({ mode: 'STRICT', ports: { '0': 'PERMISSIVE' } })])).toBeUndefined();
    const sorted = policySet([W({ mode: 'STRICT', ports: { '8080': 'PERMISSIVE', '090': 'PERMISSIVE' } })]);
    expect(sorted.peerAuthns[0]?.ports).toEqual([
      { port: 90, mode: 'PERMISSIVE' },
      { port: 8080, mode: 'PERMISSIVE' },
    ]);
    expect(sorted.convertedPeerAuthns.get('foo/w')?.rules).toEqual([[[NO_ID], [{ notDestinationPorts: [90] }], [{ notDestinationPorts: [8080] }]]]);
  });

  it('an empty matchLabels is a namespace-level policy', () => {
    const s = policySet([pa('n', 'foo', { mode: 'STRICT', selector: {} })]);
    expect(s.peerAuthns[0]?.selector).toBeUndefined();
    expect(effectiveMtls(s, 'foo', { app: 'x' })).toEqual({ mode: 'STRICT', from: 'foo/n' });
  });

  it('the converted policy: name, and a STRICT port under a STRICT workload policy adds nothing', () => {
    const c = converted([W({ mode: 'STRICT', ports: { '8080': 'STRICT', '9090': 'PERMISSIVE' } })]);
    expect(c).toEqual({
      name: 'converted_peer_authentication_w',
      namespace: 'foo',
      scope: 'WorkloadSelector',
      action: 'Deny',
      rules: [[[NO_ID], [{ notDestinationPorts: [9090] }]]],
      dryRun: false,
    });
  });

  it('a STRICT port under UNSET inherits a STRICT root when the namespace policy is UNSET', () => {
    expect(
      converted([pa('root', 'istio-system', { mode: 'STRICT' }), pa('n', 'foo', { mode: 'UNSET' }), W({ mode: 'UNSET', ports: { '8080': 'STRICT' } })]),
    ).toBeUndefined();
  });

  it('a port without a mode is no exception', () => {
    expect(converted([W({ mode: 'STRICT', ports: { '8080': 'UNSET' } })])).toBeUndefined();
  });

  it('a PERMISSIVE port under a DISABLE policy is no exception', () => {
    expect(converted([W({ mode: 'DISABLE', ports: { '8080': 'PERMISSIVE' } })])).toBeUndefined();
  });

  it('a PERMISSIVE port under UNSET with a STRICT root and no namespace policy: an exception, merged with strict', () => {
    expect(converted([pa('root', 'istio-system', { mode: 'STRICT' }), W({ mode: 'UNSET', ports: { '8080': 'PERMISSIVE' } })])?.rules).toEqual([
      [[{ notDestinationPorts: [8080] }], [NO_ID]],
    ]);
  });

  it('merging strict follows the namespace policy, else the root', () => {
    const w = W({ mode: 'STRICT', ports: { '9090': 'PERMISSIVE' } });
    const plain = [[[NO_ID], [{ notDestinationPorts: [9090] }]]];
    const merged = [[[NO_ID], [{ notDestinationPorts: [9090] }], [NO_ID]]];
    expect(converted([pa('root', 'istio-system', { mode: 'PERMISSIVE' }), w])?.rules).toEqual(plain);
    expect(converted([pa('root', 'istio-system', { mode: 'STRICT' }), pa('n', 'foo', { mode: 'PERMISSIVE' }), w])?.rules).toEqual(plain);
    expect(converted([pa('root', 'istio-system', { mode: 'STRICT' }), pa('n', 'foo', { mode: 'UNSET' }), w])?.rules).toEqual(merged);
    expect(converted([pa('n', 'foo', { mode: 'PERMISSIVE' }), w])?.rules).toEqual(plain);
    expect(converted([pa('n', 'foo', { mode: 'STRICT' }), w])?.rules).toEqual(merged);
  });

  it('the static strict policy', () => {
    const s = policySet([pa('n', 'foo', { mode: 'STRICT' })]);
    expect(s.byKey.get('istio-system/istio_converted_static_strict')).toEqual({
      name: 'istio_converted_static_strict',
      namespace: 'istio-system',
      scope: 'WorkloadSelector',
      action: 'Deny',
      rules: [[[{ notPrincipals: [{ type: 'presence' }] }]]],
      dryRun: false,
    });
  });
});

describe('the oldest PeerAuthentication of a level decides (creationTimestamp, then the order read)', () => {
  const from = (objects: object[]) => effectiveMtls(policySet(objects), 'foo', {}).from;
  it('by creation time, whichever is listed first', () => {
    expect(
      from([pa('a', 'foo', { mode: 'STRICT', created: '2024-01-02T00:00:00Z' }), pa('b', 'foo', { mode: 'PERMISSIVE', created: '2024-01-01T00:00:00Z' })]),
    ).toBe('foo/b');
    expect(
      from([pa('a', 'foo', { mode: 'STRICT', created: '2024-01-01T00:00:00Z' }), pa('b', 'foo', { mode: 'PERMISSIVE', created: '2024-01-02T00:00:00Z' })]),
    ).toBe('foo/a');
  });
  it('without a time on either side, the first read', () => {
    expect(from([pa('a', 'foo', { mode: 'STRICT', created: '2024-01-02T00:00:00Z' }), pa('b', 'foo', { mode: 'PERMISSIVE' })])).toBe('foo/a');
    expect(from([pa('a', 'foo', { mode: 'STRICT' }), pa('b', 'foo', { mode: 'PERMISSIVE', created: '2024-01-01T00:00:00Z' })])).toBe('foo/a');
    expect(from([pa('a', 'foo', { mode: 'STRICT' }), pa('b', 'foo', { mode: 'PERMISSIVE' })])).toBe('foo/a');
  });
  it('the workload keys use the oldest mesh, namespace and workload policy', () => {
    const keys = (objects: object[]) => workloadPolicyKeys(policySet(objects), 'foo', A);
    const STATIC = 'istio-system/istio_converted_static_strict';
    expect(keys([pa('m1', 'istio-system', { mode: 'STRICT' }), pa('m2', 'istio-system', { mode: 'PERMISSIVE' })])).toEqual([STATIC]);
    expect(keys([pa('n1', 'foo', { mode: 'STRICT' }), pa('n2', 'foo', { mode: 'PERMISSIVE' })])).toEqual([STATIC]);
    expect(keys([pa('w1', 'foo', { mode: 'STRICT', selector: A }), pa('w2', 'foo', { mode: 'PERMISSIVE', selector: A })])).toEqual([STATIC]);
  });
  it("another namespace's policy and a root selector policy are not inherited", () => {
    const s = policySet([pa('n', 'bar', { mode: 'STRICT' }), pa('sel', 'istio-system', { mode: 'STRICT', selector: A })]);
    expect(workloadPolicyKeys(s, 'foo', A)).toEqual([]);
    expect(effectiveMtls(s, 'foo', A)).toEqual({ mode: 'UNSET' });
  });
});

describe('policyMatches details (rbac.rs)', () => {
  it('exact principal is not a prefix', () => {
    expect(matches({ principals: [{ type: 'exact', value: 'cluster.local/ns/front/sa/we' }] })).toBe(false);
    expect(matches({ principals: [{ type: 'exact', value: 'cluster.local/ns/front/sa/web' }] })).toBe(true);
  });
  it('an empty positive list places no constraint', () => {
    expect(matches({ destinationPorts: [], sourceIps: ['10.0.0.0/8'] })).toBe(true);
  });
  it('a not-list fails when any value matches', () => {
    expect(matches({ notDestinationPorts: [8080, 9090] })).toBe(false);
    expect(matches({ notDestinationPorts: [9090, 9091] })).toBe(true);
  });
  it('the identity must be a whole SPIFFE URI', () => {
    const sa = { serviceAccounts: [{ namespace: 'front', serviceAccount: 'web' }] };
    expect(matches(sa, conn({ srcIdentity: 'xspiffe://cluster.local/ns/front/sa/web' }))).toBe(false);
    expect(matches(sa, conn({ srcIdentity: 'spiffe://cluster.local/ns/front/sa/web/extra' }))).toBe(false);
    expect(matches({ principals: [presence as never] }, conn({ srcIdentity: 'cluster.local/ns/front/sa/web' }))).toBe(false);
  });
});

describe('evaluateL4 explanations', () => {
  it('each policy and the decision say why', () => {
    const none = pol([], { name: 'empty' });
    const yes = pol([[[{ destinationPorts: [8080] }]]], { name: 'yes' });
    const no = pol([[[{ destinationPorts: [1] }]]], { name: 'no' });
    expect(evaluateL4([none, yes, no], conn()).evaluated.map((e) => e.why)).toEqual(['no rules: never matches', 'a rule matches', 'no rule matches']);
    expect(evaluateL4([{ ...yes, action: 'Deny' }], conn()).why).toBe('DENY policy back/yes matches');
    expect(evaluateL4([{ ...no, action: 'Deny' }], conn()).why).toBe('no DENY matched and no ALLOW policy applies');
    expect(evaluateL4([yes], conn()).why).toBe('ALLOW policy back/yes matches');
    expect(evaluateL4([no, none], conn()).why).toBe('ALLOW policies apply (back/no, back/empty) and none matches: default deny');
  });
});
