// How istiod converts AuthorizationPolicies for ztunnel (src/core/ambient/authz.ts). Expected values
// come from Istio's source (istio@…eed52ebb66ad), pilot/pkg/serviceregistry/ambient/authorization.go:
//  - convertAuthorizationPolicy: scope WORKLOAD_SELECTOR when `selector` is set, else NAMESPACE, or
//    GLOBAL in the root namespace; only ALLOW/DENY ("ztunnel does not support the %s action"); targetRefs
//    policies are not for ztunnel (nil, nil); HTTP attributes → reason UnsupportedValue with httpRuleFmt.
//  - handleRule: `to` → one clause, `from` → one clause, each `when` its own clause; an ALLOW rule with
//    any L7 attribute is dropped whole; l4WhenAttributes = source.ip, source.namespace, source.principal,
//    destination.ip, destination.port.
//  - stringToMatch (`*` presence, `*x` suffix, `x*` prefix, else exact), stringToPort (ParseUint,
//    ≤ 65535), stringToIP (ParsePrefix/ParseAddr; a bare address has its full bit length),
//    stringToServiceAccountMatch (strings.Cut on "/", else the rule's namespace).
//  - pilot/pkg/model/service.go WorkloadAuthorization.GetConditions: reason "Accepted", message
//    "attached to ztunnel" when there is no status message.
import { describe, expect, it } from 'vitest';
import { buildPolicySet, convertAuthorizationPolicy, hasEffectiveRules, isEmptyMatch, matchText, type RbacMatch } from '../../src/core/ambient/authz.ts';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { makeResource } from '../../src/core/document/resources.ts';

const ap = (name: string, namespace: string, spec: object, meta: { labels?: Record<string, string>; annotations?: Record<string, string> } = {}) =>
  makeResource({ apiVersion: 'security.istio.io/v1', kind: 'AuthorizationPolicy', metadata: { name, namespace, ...meta }, spec }, undefined);
const convert = (spec: object, namespace = 'shop') => convertAuthorizationPolicy(ap('p', namespace, spec), 'istio-system');
/** The rules of the one group of a one-rule policy. */
const clausesOf = (rule: object, action = 'DENY') => convert({ action, rules: [rule] }).authorization?.rules[0];

describe('scope and action (convertAuthorizationPolicy)', () => {
  it('selector → WorkloadSelector; no selector → Namespace; no selector in the root namespace → Global', () => {
    expect(convert({ selector: { matchLabels: { app: 'a' } } }).authorization?.scope).toBe('WorkloadSelector');
    expect(convert({}).authorization?.scope).toBe('Namespace');
    expect(convert({}, 'istio-system').authorization?.scope).toBe('Global');
    // A selector in the root namespace keeps WORKLOAD_SELECTOR.
    expect(convert({ selector: { matchLabels: { app: 'a' } } }, 'istio-system').authorization?.scope).toBe('WorkloadSelector');
  });

  it('keeps the selector for workload policies only', () => {
    expect(convert({ selector: { matchLabels: { app: 'a' } } }).selector).toEqual({ app: 'a' });
    expect(convert({}).selector).toBeUndefined();
  });

  it('ALLOW is the default action, DENY maps to Deny; name, namespace and dryRun=false are carried', () => {
    expect(convert({}).authorization).toEqual({ name: 'p', namespace: 'shop', scope: 'Namespace', action: 'Allow', rules: [], dryRun: false });
    expect(convert({ action: 'DENY' }).authorization?.action).toBe('Deny');
    expect(convert({ action: 'ALLOW' }).authorization?.action).toBe('Allow');
  });

  it('CUSTOM and AUDIT are not sent: ZtunnelAccepted False, UnsupportedValue, "ztunnel does not support the <ACTION> action"', () => {
    for (const action of ['CUSTOM', 'AUDIT']) {
      const c = convert({ action, rules: [{}] });
      expect(c.authorization).toBeUndefined();
      expect(c.condition).toEqual({
        type: 'ZtunnelAccepted',
        status: 'False',
        reason: 'UnsupportedValue',
        message: `ztunnel does not support the ${action} action`,
      });
      expect(c.excluded).toContain(action);
    }
  });

  it('targetRef / targetRefs policies are never sent and get no ztunnel condition', () => {
    for (const spec of [
      { targetRefs: [{ kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'wp' }] },
      { targetRef: { kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'wp' } },
    ]) {
      const c = convert({ ...spec, action: 'DENY', rules: [{}] });
      expect(c.authorization).toBeUndefined();
      expect(c.condition).toBeUndefined();
      expect(c.excluded).toBeDefined();
    }
    // An empty targetRefs list is no targetRef: the policy is sent.
    expect(convert({ targetRefs: [], rules: [{}] }).authorization).toBeDefined();
  });

  it('a policy without HTTP attributes: ZtunnelAccepted True, reason Accepted, "attached to ztunnel"', () => {
    expect(convert({ rules: [{ from: [{ source: { namespaces: ['a'] } }] }] }).condition).toEqual({
      type: 'ZtunnelAccepted',
      status: 'True',
      reason: 'Accepted',
      message: 'attached to ztunnel',
    });
  });
});

describe('rules → groups → clauses → matches (handleRule)', () => {
  it('`to`, `from` and each `when` become separate clauses, in that order', () => {
    const g = clausesOf({
      from: [{ source: { namespaces: ['a'] } }],
      to: [{ operation: { ports: ['80'] } }],
      when: [
        { key: 'source.ip', values: ['10.0.0.1'] },
        { key: 'destination.port', notValues: ['9090'] },
      ],
    });
    expect(g).toEqual([
      [{ destinationPorts: [80] }],
      [{ namespaces: [{ type: 'exact', value: 'a' }] }],
      [{ sourceIps: ['10.0.0.1/32'] }],
      [{ notDestinationPorts: [9090] }],
    ]);
  });

  it('several `from` sources are OR-ed matches of one clause', () => {
    expect(clausesOf({ from: [{ source: { namespaces: ['a'] } }, { source: { principals: ['x'] } }] })).toEqual([
      [{ namespaces: [{ type: 'exact', value: 'a' }] }, { principals: [{ type: 'exact', value: 'x' }] }],
    ]);
  });

  it('a `from` or `to` entry without source/operation is an empty match', () => {
    expect(clausesOf({ from: [{}], to: [{}] })).toEqual([[{}], [{}]]);
  });

  it('each rule is a group; an empty rule is a group with no clauses', () => {
    const a = convert({ action: 'DENY', rules: [{}, { to: [{ operation: { ports: ['1'] } }] }] }).authorization!;
    expect(a.rules).toEqual([[], [[{ destinationPorts: [1] }]]]);
  });

  it('stringToMatch: `*` presence, `*x` suffix, `x*` prefix, else exact (principals, namespaces and their negations)', () => {
    expect(clausesOf({ from: [{ source: { principals: ['*', '*/sa/web', 'cluster.local/ns/a/*', 'cluster.local/ns/a/sa/b'] } }] })).toEqual([
      [
        {
          principals: [
            { type: 'presence' },
            { type: 'suffix', value: '/sa/web' },
            { type: 'prefix', value: 'cluster.local/ns/a/' },
            { type: 'exact', value: 'cluster.local/ns/a/sa/b' },
          ],
        },
      ],
    ]);
    expect(clausesOf({ from: [{ source: { notNamespaces: ['*', 'kube-*', '*-system'] } }] })).toEqual([
      [{ notNamespaces: [{ type: 'presence' }, { type: 'prefix', value: 'kube-' }, { type: 'suffix', value: '-system' }] }],
    ]);
    expect(clausesOf({ from: [{ source: { notPrincipals: ['*'] } }] })).toEqual([[{ notPrincipals: [{ type: 'presence' }] }]]);
  });

  it('stringToServiceAccountMatch: ns/sa, or a bare name in the policy namespace (both polarities)', () => {
    expect(clausesOf({ from: [{ source: { serviceAccounts: ['front/web', 'api'], notServiceAccounts: ['x/y/z'] } }] })).toEqual([
      [
        {
          serviceAccounts: [
            { namespace: 'front', serviceAccount: 'web' },
            { namespace: 'shop', serviceAccount: 'api' },
          ],
          notServiceAccounts: [{ namespace: 'x', serviceAccount: 'y/z' }],
        },
      ],
    ]);
  });

  it('stringToPort: decimal ports up to 65535; names, signs and out-of-range values are dropped', () => {
    expect(clausesOf({ to: [{ operation: { ports: ['80', '65535', '65536', 'http', '-1', '8o', ' 80', '080', '0'] } }] })).toEqual([
      [{ destinationPorts: [80, 65535, 80, 0] }],
    ]);
    expect(clausesOf({ to: [{ operation: { notPorts: ['9090', 'x'] } }] })).toEqual([[{ notDestinationPorts: [9090] }]]);
  });

  it('stringToIP: a bare IPv4 is /32, a bare IPv6 /128; prefixes keep their length; invalid and empty values are dropped', () => {
    expect(
      clausesOf({
        from: [
          { source: { ipBlocks: ['10.0.0.1', '10.0.0.0/8', '', 'fd00::1', 'fd00::/64', '10.0.0.0/33', 'fd00::/129', 'nope', '10.0.0.0/x', '300.1.1.1'] } },
        ],
      }),
    ).toEqual([[{ sourceIps: ['10.0.0.1/32', '10.0.0.0/8', 'fd00::1/128', 'fd00::/64'] }]]);
    expect(clausesOf({ from: [{ source: { notIpBlocks: ['192.168.0.0/16'] } }] })).toEqual([[{ notSourceIps: ['192.168.0.0/16'] }]]);
    expect(clausesOf({ from: [{ source: { ipBlocks: ['0.0.0.0/0'] } }] })).toEqual([[{ sourceIps: ['0.0.0.0/0'] }]]);
  });

  it('when: each L4 key fills its own field, values positive and notValues negative', () => {
    const w = (key: string, values: string[], notValues: string[] = []) => clausesOf({ when: [{ key, values, notValues }] });
    expect(w('source.namespace', ['a*'], ['b'])).toEqual([[{ namespaces: [{ type: 'prefix', value: 'a' }], notNamespaces: [{ type: 'exact', value: 'b' }] }]]);
    expect(w('source.principal', ['*'], ['x*'])).toEqual([[{ principals: [{ type: 'presence' }], notPrincipals: [{ type: 'prefix', value: 'x' }] }]]);
    expect(w('source.ip', ['10.0.0.0/8'], ['10.1.0.0/16'])).toEqual([[{ sourceIps: ['10.0.0.0/8'], notSourceIps: ['10.1.0.0/16'] }]]);
    expect(w('destination.ip', ['10.9.9.9'], ['10.9.9.8'])).toEqual([[{ destinationIps: ['10.9.9.9/32'], notDestinationIps: ['10.9.9.8/32'] }]]);
    expect(w('destination.port', ['8080'], ['9090'])).toEqual([[{ destinationPorts: [8080], notDestinationPorts: [9090] }]]);
  });
});

describe('HTTP attributes (handleRule; httpRuleFmt and its boilerplates)', () => {
  const prefix = (found: string) =>
    `ztunnel does not support HTTP attributes (found: ${found}). In ambient mode you must use a waypoint proxy to enforce HTTP rules. `;

  it('ALLOW: a rule with any HTTP attribute is dropped whole; rules without are kept; the found list is sorted', () => {
    const c = convert({
      rules: [
        { to: [{ operation: { methods: ['GET'], paths: ['/x'] } }], from: [{ source: { requestPrincipals: ['*'] } }] },
        { from: [{ source: { namespaces: ['a'] } }] },
      ],
    });
    expect(c.authorization?.rules).toEqual([[[{ namespaces: [{ type: 'exact', value: 'a' }] }]]]);
    expect(c.droppedHttp).toEqual(['methods', 'paths', 'requestPrincipals']);
    expect(c.condition).toEqual({
      type: 'ZtunnelAccepted',
      status: 'True',
      reason: 'UnsupportedValue',
      message: `${prefix('methods, paths, requestPrincipals')}Within an ALLOW policy, rules matching HTTP attributes are omitted. This will be more restrictive than requested.`,
    });
  });

  it('every HTTP operation and source field is detected', () => {
    const c = convert({
      rules: [
        {
          to: [{ operation: { hosts: ['h'], notHosts: ['h'], methods: ['m'], notMethods: ['m'], paths: ['/'], notPaths: ['/'] } }],
          from: [{ source: { remoteIpBlocks: ['1.1.1.1'], notRemoteIpBlocks: ['1.1.1.1'], requestPrincipals: ['r'], notRequestPrincipals: ['r'] } }],
        },
      ],
    });
    expect(c.droppedHttp).toEqual([
      'hosts',
      'methods',
      'notHosts',
      'notMethods',
      'notPaths',
      'notRemoteIpBlocks',
      'notRequestPrincipals',
      'paths',
      'remoteIpBlocks',
      'requestPrincipals',
    ]);
    expect(c.authorization?.rules).toEqual([]);
  });

  it('a non-L4 `when` key is an HTTP attribute, named by its key; the L4 keys are not', () => {
    const c = convert({
      rules: [
        {
          when: [
            { key: 'request.headers[x]', values: ['1'] },
            { key: 'connection.sni', values: ['a'] },
            { key: 'remote.ip', values: ['1.1.1.1'] },
          ],
        },
      ],
    });
    expect(c.droppedHttp).toEqual(['connection.sni', 'remote.ip', 'request.headers[x]']);
    for (const key of ['source.ip', 'source.namespace', 'source.principal', 'destination.ip', 'destination.port']) {
      const k = convert({ rules: [{ when: [{ key, values: ['10.0.0.1'] }] }] });
      expect(k.droppedHttp).toEqual([]);
      expect(k.condition?.reason).toBe('Accepted');
      expect(k.authorization?.rules).toHaveLength(1);
    }
  });

  it('DENY: the rule is kept without its HTTP parts (an L7 `when` leaves an empty match)', () => {
    const c = convert({
      action: 'DENY',
      rules: [
        {
          from: [{ source: { namespaces: ['a'], requestPrincipals: ['*'] } }],
          to: [{ operation: { ports: ['80'], methods: ['GET'] } }],
          when: [{ key: 'request.headers[x]', values: ['1'] }],
        },
      ],
    });
    expect(c.authorization?.rules).toEqual([[[{ destinationPorts: [80] }], [{ namespaces: [{ type: 'exact', value: 'a' }] }], [{}]]]);
    expect(c.droppedHttp).toEqual(['methods', 'request.headers[x]', 'requestPrincipals']);
    expect(c.condition?.reason).toBe('UnsupportedValue');
    expect(c.condition?.message.startsWith(prefix('methods, request.headers[x], requestPrincipals'))).toBe(true);
  });

  it('DENY with an L4 part left: the "enforced without the HTTP rules" boilerplate', () => {
    const c = convert({
      action: 'DENY',
      rules: [{ from: [{ source: { namespaces: ['a'] } }], to: [{ operation: { methods: ['GET'] } }] }, { from: [{ source: { namespaces: ['b'] } }] }],
    });
    expect(c.condition?.message).toBe(
      `${prefix('methods')}DENY policy with HTTP attributes is enforced without the HTTP rules. This will be more restrictive than requested.`,
    );
  });
});

describe('hasEffectiveRules / isEmptyMatch (ztunnel rbac.rs skips empty matches)', () => {
  it('a group fires when it has no clauses or every clause has a non-empty match', () => {
    expect(hasEffectiveRules([])).toBe(false);
    expect(hasEffectiveRules([[]])).toBe(true);
    expect(hasEffectiveRules([[[{}]]])).toBe(false);
    expect(hasEffectiveRules([[[{ destinationPorts: [1] }], [{}]]])).toBe(false);
    expect(hasEffectiveRules([[[{}]], [[{ destinationPorts: [1] }]]])).toBe(true);
    expect(hasEffectiveRules([[[{}, { namespaces: [{ type: 'presence' }] }]]])).toBe(true);
    expect(isEmptyMatch({})).toBe(true);
    expect(isEmptyMatch({ destinationPorts: [1] })).toBe(false);
  });
});

describe('istio.io/rev (an AuthorizationPolicy labelled for another revision is left to that istiod)', () => {
  const policies = (labels: Record<string, string>) => {
    const doc = {
      apiVersion: 'security.istio.io/v1',
      kind: 'AuthorizationPolicy',
      metadata: { name: 'p', namespace: 'shop', labels },
      spec: { action: 'DENY', rules: [{}] },
    };
    const { view } = loadMesh([{ path: 'p.yaml', text: JSON.stringify(doc) }]);
    return buildPolicySet(view);
  };
  it('another revision: not sent, with its conversion marked excluded', () => {
    const s = policies({ 'istio.io/rev': 'canary' });
    expect(s.byKey.has('shop/p')).toBe(false);
    expect(s.conversions[0]?.excluded).toContain('canary');
    expect(s.conversions[0]?.authorization).toBeUndefined();
  });
  it('no label or the default revision: sent', () => {
    expect(policies({}).byKey.get('shop/p')?.action).toBe('Deny');
    expect(policies({ 'istio.io/rev': 'default' }).byKey.has('shop/p')).toBe(true);
  });
});

describe('matchText (a match shown in AuthorizationPolicy notation)', () => {
  it('renders each populated field with its values: presence, prefix x*, suffix *x, ns/sa, ports and CIDRs', () => {
    const m: RbacMatch = {
      namespaces: [
        { type: 'exact', value: 'a' },
        { type: 'prefix', value: 'kube-' },
        { type: 'suffix', value: '-system' },
      ],
      notPrincipals: [{ type: 'presence' }],
      serviceAccounts: [{ namespace: 'front', serviceAccount: 'web' }],
      destinationPorts: [80, 443],
      sourceIps: ['10.0.0.0/8'],
    };
    const t = matchText(m);
    expect(t.split('; ')).toContain('namespaces: a, kube-*, *-system');
    expect(t.split('; ')).toContain('notPrincipals: presence');
    expect(t).toContain('front/web');
    expect(t).toContain('80, 443');
    expect(t).toContain('10.0.0.0/8');
    expect(t.split('; ')).toHaveLength(5);
    expect(matchText({})).toBe('');
  });
});
