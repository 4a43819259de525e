// Which AuthorizationPolicies apply to a proxy (model.PolicyMatcherForProxy,
// ShouldAttachPolicy, ListAuthorizationPolicies).
import { describe, expect, it } from 'vitest';
import {
  listAuthorizationPolicies,
  policyMatcherForProxy,
  shouldAttachPolicy,
  targetingOf,
  type AuthorizationPolicyInput,
  type PolicyProxy,
} from '../../../src/core/xds/authz/index.ts';

const ROOT = 'istio-system';

function pol(namespace: string, name: string, spec: object = {}, creationTimestamp?: string): AuthorizationPolicyInput {
  return { name, namespace, spec, creationTimestamp };
}

function names(policies: AuthorizationPolicyInput[], proxy: PolicyProxy, opts: Parameters<typeof policyMatcherForProxy>[1] = {}, flags = {}): string[] {
  const r = listAuthorizationPolicies(policies, policyMatcherForProxy(proxy, { rootNamespace: ROOT, ...opts }), ROOT, flags);
  return [...r.audit, ...r.deny, ...r.allow, ...r.custom].map((p) => `${p.namespace}/${p.name}`);
}

const sidecar: PolicyProxy = { namespace: 'shop', labels: { app: 'cart', version: 'v1' } };

describe('sidecars and plain gateways: selectors', () => {
  it('namespace-wide policies, matching selectors and root-namespace policies apply', () => {
    const policies = [
      pol('shop', 'ns-wide'),
      pol('shop', 'match', { selector: { matchLabels: { app: 'cart' } } }),
      pol('shop', 'nomatch', { selector: { matchLabels: { app: 'web' } } }),
      pol('shop', 'extra-label', { selector: { matchLabels: { app: 'cart', tier: 'x' } } }),
      pol(ROOT, 'mesh-wide'),
      pol(ROOT, 'mesh-selector', { selector: { matchLabels: { version: 'v1' } } }),
      pol('other', 'elsewhere'),
    ];
    // Root namespace first, then the workload's; same creation time, so by name.
    expect(names(policies, sidecar)).toEqual(['istio-system/mesh-selector', 'istio-system/mesh-wide', 'shop/match', 'shop/ns-wide']);
  });

  it('an empty matchLabels selects everything; a policy with targetRefs is ignored', () => {
    expect(
      names(
        [
          pol('shop', 'empty', { selector: { matchLabels: {} } }),
          pol('shop', 'ref', { targetRefs: [{ kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'gw' }] }),
        ],
        sidecar,
      ),
    ).toEqual(['shop/empty']);
    expect(names([pol('shop', 'ref', { targetRef: { kind: 'Service', name: 'cart' } })], sidecar)).toEqual([]);
  });

  it('grouped by action, oldest first within a namespace (then by name)', () => {
    const policies = [
      pol('shop', 'b', { action: 'DENY' }, '2024-01-02T00:00:00Z'),
      pol('shop', 'a', { action: 'DENY' }, '2024-01-03T00:00:00Z'),
      pol('shop', 'c', { action: 'DENY' }, '2024-01-02T00:00:00Z'),
      pol('shop', 'z', { action: 'AUDIT' }),
      pol('shop', 'y', { action: 'CUSTOM', provider: { name: 'p' } }),
      pol('shop', 'x', { action: 2 }),
      pol('shop', 'w', { action: 'bogus' }),
    ];
    const r = listAuthorizationPolicies(policies, policyMatcherForProxy(sidecar, { rootNamespace: ROOT }), ROOT);
    expect(r.deny.map((p) => p.name)).toEqual(['b', 'c', 'a']);
    expect(r.audit.map((p) => p.name)).toEqual(['x', 'z']);
    expect(r.custom.map((p) => p.name)).toEqual(['y']);
    expect(r.allow).toEqual([]);
  });

  it('the root namespace is whatever the mesh config says', () => {
    const m = policyMatcherForProxy(sidecar, { rootNamespace: 'mesh-root' });
    expect(listAuthorizationPolicies([pol('mesh-root', 'r'), pol(ROOT, 's')], m, 'mesh-root').allow.map((p) => p.name)).toEqual(['r']);
  });
});

describe('Gateway API gateways and waypoints: targetRefs', () => {
  const gw: PolicyProxy = { namespace: 'infra', labels: { 'gateway.networking.k8s.io/gateway-name': 'edge', app: 'edge' }, type: 'router' };
  const ref = (kind: string, name: string, group = 'gateway.networking.k8s.io', namespace?: string) => ({
    group,
    kind,
    name,
    ...(namespace ? { namespace } : {}),
  });

  it('a Gateway targetRef in the same namespace selects the gateway', () => {
    const policies = [
      pol('infra', 'by-ref', { targetRefs: [ref('Gateway', 'edge')] }),
      pol('infra', 'legacy-ref', { targetRef: ref('Gateway', 'edge') }),
      pol('infra', 'other-gw', { targetRefs: [ref('Gateway', 'other')] }),
      pol('infra', 'wrong-ns-ref', { targetRefs: [ref('Gateway', 'edge', 'gateway.networking.k8s.io', 'apps')] }),
      pol('infra', 'wrong-group', { targetRefs: [ref('Gateway', 'edge', 'networking.istio.io')] }),
      pol('apps', 'other-ns', { targetRefs: [ref('Gateway', 'edge')] }),
    ];
    expect(names(policies, gw)).toEqual(['infra/by-ref', 'infra/legacy-ref']);
  });

  it('selector policies apply to a gateway unless ENABLE_SELECTOR_BASED_K8S_GATEWAY_POLICY is off', () => {
    const policies = [pol('infra', 'sel', { selector: { matchLabels: { app: 'edge' } } })];
    expect(names(policies, gw)).toEqual(['infra/sel']);
    expect(names(policies, gw, {}, { enableSelectorBasedK8sGatewayPolicy: false })).toEqual([]);
  });

  const waypoint: PolicyProxy = { namespace: 'apps', labels: { 'gateway.networking.k8s.io/gateway-name': 'waypoint' }, type: 'waypoint' };

  it('a waypoint never takes selector policies; it takes its Gateway and the GatewayClass from the root namespace', () => {
    const policies = [
      pol('apps', 'ns-wide'),
      pol('apps', 'gw', { targetRefs: [ref('Gateway', 'waypoint')] }),
      pol(ROOT, 'class', { targetRefs: [ref('GatewayClass', 'istio-waypoint')] }),
      pol('apps', 'class-not-root', { targetRefs: [ref('GatewayClass', 'istio-waypoint')] }),
    ];
    expect(names(policies, waypoint)).toEqual(['istio-system/class', 'apps/gw']);
  });

  it('Service and ServiceEntry targetRefs apply to the waypoint chains of that service', () => {
    const policies = [
      pol('apps', 'svc', { targetRefs: [ref('Service', 'reviews', '')] }),
      pol('apps', 'svc-core', { targetRefs: [ref('Service', 'reviews', 'core')] }),
      pol('apps', 'se', { targetRefs: [ref('ServiceEntry', 'ext', 'networking.istio.io')] }),
      pol('other', 'svc-other-ns', { targetRefs: [ref('Service', 'reviews', '')] }),
    ];
    expect(names(policies, waypoint)).toEqual([]);
    expect(names(policies, waypoint, { service: { name: 'reviews', namespace: 'apps', registry: 'Kubernetes' } })).toEqual(['apps/svc', 'apps/svc-core']);
    expect(names(policies, waypoint, { service: { name: 'ext', namespace: 'apps', registry: 'External' } })).toEqual(['apps/se']);
    // A service in another namespace brings that namespace's policies into view.
    expect(names(policies, waypoint, { service: { name: 'reviews', namespace: 'other', registry: 'Kubernetes' } })).toEqual(['other/svc-other-ns']);
  });

  it('reads selector and targets from a spec', () => {
    expect(targetingOf({ selector: { matchLabels: { a: 'b' } }, targetRef: { kind: 'Gateway', name: 'g' } })).toEqual({
      selector: { a: 'b' },
      targetRef: { group: '', kind: 'Gateway', name: 'g', namespace: '' },
      targetRefs: [],
    });
    const m = policyMatcherForProxy(gw);
    expect(shouldAttachPolicy(m, 'infra', targetingOf({ targetRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'edge' }] }))).toBe(true);
  });
});
