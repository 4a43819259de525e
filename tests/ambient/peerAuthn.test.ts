// PeerAuthentication in ambient (src/core/ambient/authz.ts: buildPolicySet, workloadPolicyKeys,
// effectiveMtls). Expected values come from Istio (istio@…eed52ebb66ad),
// pilot/pkg/serviceregistry/ambient/authorization.go:
//  - convertPeerAuthentication, with its golden files testdata/peer-authn-*-in.yaml → peer-authn-*.yaml
//    (each case below names its golden file);
//  - convertedSelectorPeerAuthentications / effectivePeerAuthenticationKeys: which of
//    `istio-system/istio_converted_static_strict` and `<ns>/converted_peer_authentication_<name>` a
//    workload lists (mesh → namespace → workload, UNSET inherits, oldest creationTimestamp wins);
//  - ambient/policies.go: the static strict policy (DENY, WORKLOAD_SELECTOR, notPrincipals presence)
//    exists only while some PeerAuthentication exists.
import { describe, expect, it } from 'vitest';
import { buildPolicySet, effectiveMtls, workloadPolicyKeys, type PolicySet } from '../../src/core/ambient/authz.ts';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { pa } from './manifests.ts';

const ap = (name: string, namespace: string, spec: object) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'AuthorizationPolicy',
  metadata: { name, namespace },
  spec,
});

function policySet(objects: object[]): PolicySet {
  const { view, problems } = loadMesh([{ path: 'm.yaml', text: objects.map((o) => JSON.stringify(o)).join('\n---\n') }]);
  expect(problems).toEqual([]);
  return buildPolicySet(view);
}
const STATIC = 'istio-system/istio_converted_static_strict';
const presence = { type: 'presence' };
const A = { app: 'a' };

describe('convertPeerAuthentication (golden files in ambient/testdata)', () => {
  const converted = (objects: object[], key = 'foo/workload') => policySet(objects).convertedPeerAuthns.get(key);

  it('peer-authn-strict-and-permissive-port-mtls: STRICT with 9090 PERMISSIVE → one group: no identity AND port ≠ 9090', () => {
    const c = converted([pa('workload', 'foo', { mode: 'STRICT', selector: A, ports: { '9090': 'PERMISSIVE' } })]);
    expect(c).toEqual({
      name: 'converted_peer_authentication_workload',
      namespace: 'foo',
      scope: 'WorkloadSelector',
      action: 'Deny',
      rules: [[[{ notPrincipals: [presence] }], [{ notDestinationPorts: [9090] }]]],
      dryRun: false,
    });
  });

  it('peer-authn-strict-and-disable-port-mtls: DISABLE ports are exempted like PERMISSIVE ones', () => {
    expect(converted([pa('workload', 'foo', { mode: 'STRICT', selector: A, ports: { '9090': 'DISABLE' } })])?.rules).toEqual([
      [[{ notPrincipals: [presence] }], [{ notDestinationPorts: [9090] }]],
    ]);
  });

  it('peer-authn-strict-and-strict-port-mtls: STRICT with only STRICT ports converts to nothing (the static policy covers it)', () => {
    expect(converted([pa('workload', 'foo', { mode: 'STRICT', selector: A, ports: { '8080': 'STRICT' } })])).toBeUndefined();
  });

  it('peer-authn-permissive-port-mtls-strict-and-permissive: PERMISSIVE with 9090 STRICT → a group per strict port', () => {
    expect(converted([pa('workload', 'foo', { mode: 'PERMISSIVE', selector: A, ports: { '9090': 'STRICT', '8080': 'PERMISSIVE' } })])?.rules).toEqual([
      [[{ notPrincipals: [presence], destinationPorts: [9090] }]],
    ]);
  });

  it('peer-authn-disable-port-mtls-strict: DISABLE with 9090 STRICT → same shape', () => {
    expect(converted([pa('workload', 'foo', { mode: 'DISABLE', selector: A, ports: { '9090': 'STRICT' } })])?.rules).toEqual([
      [[{ notPrincipals: [presence], destinationPorts: [9090] }]],
    ]);
  });

  it('peer-authn-unset-port-mtls-strict: UNSET (nothing inherited) with 8080 STRICT', () => {
    expect(converted([pa('workload', 'foo', { mode: 'UNSET', selector: A, ports: { '8080': 'STRICT' } })])?.rules).toEqual([
      [[{ notPrincipals: [presence], destinationPorts: [8080] }]],
    ]);
  });

  it('two STRICT ports under PERMISSIVE are two groups (OR), in port order', () => {
    expect(converted([pa('workload', 'foo', { mode: 'PERMISSIVE', selector: A, ports: { '9090': 'STRICT', '8080': 'STRICT' } })])?.rules).toEqual([
      [[{ notPrincipals: [presence], destinationPorts: [8080] }]],
      [[{ notPrincipals: [presence], destinationPorts: [9090] }]],
    ]);
  });

  it('peer-authn-strict-root-unset-workload-port-mtls-strict-and-permissive: mesh STRICT merges into the workload policy', () => {
    const c = converted([
      pa('default-mesh', 'istio-system', { mode: 'STRICT' }),
      pa('workload', 'foo', { selector: A, ports: { '9090': 'PERMISSIVE', '8080': 'STRICT' } }),
    ]);
    expect(c?.rules).toEqual([[[{ notDestinationPorts: [9090] }], [{ notPrincipals: [presence] }]]]);
  });

  it('namespace STRICT also merges (the workload is UNSET, its PERMISSIVE port is exempted)', () => {
    const c = converted([pa('default', 'foo', { mode: 'STRICT' }), pa('workload', 'foo', { selector: A, ports: { '9090': 'PERMISSIVE' } })]);
    expect(c?.rules).toEqual([[[{ notDestinationPorts: [9090] }], [{ notPrincipals: [presence] }]]]);
  });

  it('peer-authn-strict-root-permissive-namespace-strict-workload: a PERMISSIVE namespace overrides a STRICT mesh, so the STRICT port gets its own group', () => {
    const c = converted([
      pa('default-mesh', 'istio-system', { mode: 'STRICT' }),
      pa('default-foo', 'foo', { mode: 'PERMISSIVE' }),
      pa('workload', 'foo', { selector: A, ports: { '9090': 'STRICT' } }),
    ]);
    expect(c?.rules).toEqual([[[{ notPrincipals: [presence], destinationPorts: [9090] }]]]);
  });

  it('a STRICT namespace is not merged when no port is exempted (PERMISSIVE workload with a STRICT port: shouldMergeStrict && foundNonStrictPortmTLS)', () => {
    const c = converted([pa('default', 'foo', { mode: 'STRICT' }), pa('workload', 'foo', { mode: 'PERMISSIVE', selector: A, ports: { '9090': 'STRICT' } })]);
    expect(c?.rules).toEqual([[[{ notPrincipals: [presence], destinationPorts: [9090] }]]]);
  });

  it('peer-authn-permissive-root-unset-namespace-mixed-workload-ports: PERMISSIVE mesh, UNSET namespace → only the STRICT port', () => {
    const c = converted([
      pa('default-mesh', 'istio-system', { mode: 'PERMISSIVE' }),
      pa('default-foo', 'foo', { mode: 'UNSET' }),
      pa('workload', 'foo', { selector: A, ports: { '9090': 'STRICT', '8080': 'PERMISSIVE' } }),
    ]);
    expect(c?.rules).toEqual([[[{ notPrincipals: [presence], destinationPorts: [9090] }]]]);
  });

  it('a STRICT port under an inherited STRICT (mesh or namespace) adds nothing; a PERMISSIVE port under a PERMISSIVE parent neither', () => {
    expect(converted([pa('m', 'istio-system', { mode: 'STRICT' }), pa('workload', 'foo', { selector: A, ports: { '9090': 'STRICT' } })])).toBeUndefined();
    expect(converted([pa('default', 'foo', { mode: 'STRICT' }), pa('workload', 'foo', { selector: A, ports: { '9090': 'STRICT' } })])).toBeUndefined();
    expect(converted([pa('default', 'foo', { mode: 'PERMISSIVE' }), pa('workload', 'foo', { selector: A, ports: { '9090': 'PERMISSIVE' } })])).toBeUndefined();
    expect(converted([pa('workload', 'foo', { selector: A, ports: { '9090': 'PERMISSIVE' } })])).toBeUndefined();
    expect(converted([pa('m', 'istio-system', { mode: 'PERMISSIVE' }), pa('workload', 'foo', { selector: A, ports: { '9090': 'DISABLE' } })])).toBeUndefined();
    expect(converted([pa('workload', 'foo', { mode: 'PERMISSIVE', selector: A, ports: { '9090': 'PERMISSIVE' } })])).toBeUndefined();
  });

  it('only workload policies with portLevelMtls outside the root namespace convert', () => {
    const s = policySet([
      pa('ns-level', 'foo', { mode: 'STRICT', ports: { '9090': 'PERMISSIVE' } }),
      pa('no-ports', 'foo', { mode: 'STRICT', selector: A }),
      pa('root-wl', 'istio-system', { mode: 'STRICT', selector: A, ports: { '9090': 'PERMISSIVE' } }),
    ]);
    expect([...s.convertedPeerAuthns.keys()]).toEqual([]);
  });

  it('the converted policy is also sent to ztunnel under its own name', () => {
    const s = policySet([pa('workload', 'foo', { mode: 'STRICT', selector: A, ports: { '9090': 'PERMISSIVE' } })]);
    expect(s.byKey.get('foo/converted_peer_authentication_workload')?.action).toBe('Deny');
  });
});

describe('the static strict policy (ambient/policies.go)', () => {
  it('exists with any PeerAuthentication: DENY, WorkloadSelector, notPrincipals presence, in the root namespace', () => {
    const s = policySet([pa('default', 'foo', { mode: 'PERMISSIVE' })]);
    expect(s.byKey.get(STATIC)).toEqual({
      name: 'istio_converted_static_strict',
      namespace: 'istio-system',
      scope: 'WorkloadSelector',
      action: 'Deny',
      rules: [[[{ notPrincipals: [presence] }]]],
      dryRun: false,
    });
  });
  it('does not exist without PeerAuthentications', () => {
    expect(policySet([ap('x', 'foo', {})]).byKey.has(STATIC)).toBe(false);
  });
  it('follows meshConfig.rootNamespace', () => {
    const text = [
      JSON.stringify(pa('default', 'foo', { mode: 'STRICT' })),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'istio', namespace: 'istio-system' },
        data: { mesh: 'rootNamespace: mesh-root\n' },
      }),
    ].join('\n---\n');
    const { view } = loadMesh([{ path: 'm.yaml', text }]);
    const s = buildPolicySet(view);
    expect(s.byKey.has('mesh-root/istio_converted_static_strict')).toBe(true);
    expect(workloadPolicyKeys(s, 'foo', {})).toEqual(['mesh-root/istio_converted_static_strict']);
  });
});

describe('workloadPolicyKeys (convertedSelectorPeerAuthentications; workloads.go: selector policies sorted, then PeerAuthentication keys)', () => {
  const keys = (objects: object[], ns = 'foo', labels: Record<string, string> = A) => workloadPolicyKeys(policySet(objects), ns, labels);

  it('mesh STRICT → the static policy; mesh PERMISSIVE → nothing', () => {
    expect(keys([pa('m', 'istio-system', { mode: 'STRICT' })])).toEqual([STATIC]);
    expect(keys([pa('m', 'istio-system', { mode: 'PERMISSIVE' })])).toEqual([]);
  });

  it('a namespace mode overrides the mesh, UNSET inherits it', () => {
    expect(keys([pa('m', 'istio-system', { mode: 'STRICT' }), pa('n', 'foo', { mode: 'PERMISSIVE' })])).toEqual([]);
    expect(keys([pa('m', 'istio-system', { mode: 'PERMISSIVE' }), pa('n', 'foo', { mode: 'STRICT' })])).toEqual([STATIC]);
    expect(keys([pa('m', 'istio-system', { mode: 'STRICT' }), pa('n', 'foo', { mode: 'UNSET' })])).toEqual([STATIC]);
    expect(keys([pa('m', 'istio-system', { mode: 'STRICT' }), pa('n', 'foo', {})])).toEqual([STATIC]);
    // Another namespace's policy does not apply.
    expect(keys([pa('n', 'bar', { mode: 'STRICT' })])).toEqual([]);
  });

  it('a workload policy overrides both, when its selector matches the workload', () => {
    expect(keys([pa('n', 'foo', { mode: 'STRICT' }), pa('w', 'foo', { mode: 'PERMISSIVE', selector: A })])).toEqual([]);
    expect(keys([pa('n', 'foo', { mode: 'STRICT' }), pa('w', 'foo', { mode: 'DISABLE', selector: A })])).toEqual([]);
    expect(keys([pa('n', 'foo', { mode: 'PERMISSIVE' }), pa('w', 'foo', { mode: 'STRICT', selector: A })])).toEqual([STATIC]);
    expect(keys([pa('n', 'foo', { mode: 'PERMISSIVE' }), pa('w', 'foo', { mode: 'STRICT', selector: { app: 'b' } })])).toEqual([]);
    // Root-namespace policies with a selector are ignored.
    expect(keys([pa('w', 'istio-system', { mode: 'STRICT', selector: A })])).toEqual([]);
  });

  it('STRICT workload with a PERMISSIVE/DISABLE port → only its converted policy (the static one is dropped)', () => {
    expect(keys([pa('w', 'foo', { mode: 'STRICT', selector: A, ports: { '9090': 'PERMISSIVE' } })])).toEqual(['foo/converted_peer_authentication_w']);
    expect(keys([pa('w', 'foo', { mode: 'STRICT', selector: A, ports: { '9090': 'DISABLE' } })])).toEqual(['foo/converted_peer_authentication_w']);
    expect(keys([pa('w', 'foo', { mode: 'STRICT', selector: A, ports: { '9090': 'STRICT' } })])).toEqual([STATIC]);
  });

  it('PERMISSIVE/DISABLE workload with a STRICT port → its converted policy; without one → nothing', () => {
    expect(keys([pa('w', 'foo', { mode: 'PERMISSIVE', selector: A, ports: { '9090': 'STRICT' } })])).toEqual(['foo/converted_peer_authentication_w']);
    expect(keys([pa('w', 'foo', { mode: 'DISABLE', selector: A, ports: { '9090': 'STRICT' } })])).toEqual(['foo/converted_peer_authentication_w']);
    expect(keys([pa('w', 'foo', { mode: 'PERMISSIVE', selector: A, ports: { '9090': 'PERMISSIVE' } })])).toEqual([]);
  });

  it('any matching port decides (a loop over all ports, not all of them): mixed port modes', () => {
    expect(keys([pa('w', 'foo', { mode: 'PERMISSIVE', selector: A, ports: { '8080': 'PERMISSIVE', '9090': 'STRICT' } })])).toEqual([
      'foo/converted_peer_authentication_w',
    ]);
    expect(keys([pa('w', 'foo', { mode: 'STRICT', selector: A, ports: { '8080': 'STRICT', '9090': 'PERMISSIVE' } })])).toEqual([
      'foo/converted_peer_authentication_w',
    ]);
    expect(keys([pa('m', 'istio-system', { mode: 'STRICT' }), pa('w', 'foo', { selector: A, ports: { '8080': 'STRICT', '9090': 'PERMISSIVE' } })])).toEqual([
      'foo/converted_peer_authentication_w',
    ]);
    expect(keys([pa('w', 'foo', { selector: A, ports: { '8080': 'PERMISSIVE', '9090': 'STRICT' } })])).toEqual(['foo/converted_peer_authentication_w']);
  });

  it('a selector with empty matchLabels is namespace-level (Selector == nil || len(MatchLabels) == 0)', () => {
    const emptySel = {
      apiVersion: 'security.istio.io/v1',
      kind: 'PeerAuthentication',
      metadata: { name: 'e', namespace: 'foo' },
      spec: { selector: { matchLabels: {} }, mtls: { mode: 'STRICT' } },
    };
    expect(keys([emptySel], 'foo', { app: 'anything' })).toEqual([STATIC]);
    expect(effectiveMtls(policySet([emptySel]), 'foo', { app: 'x' })).toEqual({ mode: 'STRICT', from: 'foo/e' });
  });

  it('UNSET workload under an effective STRICT: a PERMISSIVE port → converted only; a DISABLE port alone → static (only PERMISSIVE is checked)', () => {
    expect(keys([pa('m', 'istio-system', { mode: 'STRICT' }), pa('w', 'foo', { selector: A, ports: { '9090': 'PERMISSIVE' } })])).toEqual([
      'foo/converted_peer_authentication_w',
    ]);
    expect(keys([pa('m', 'istio-system', { mode: 'STRICT' }), pa('w', 'foo', { selector: A, ports: { '9090': 'DISABLE' } })])).toEqual([STATIC]);
    expect(keys([pa('m', 'istio-system', { mode: 'STRICT' }), pa('w', 'foo', { selector: A, ports: { '9090': 'STRICT' } })])).toEqual([STATIC]);
  });

  it('UNSET workload under an effective PERMISSIVE: a STRICT port → converted; no STRICT port → nothing', () => {
    expect(keys([pa('w', 'foo', { selector: A, ports: { '9090': 'STRICT', '8080': 'PERMISSIVE' } })])).toEqual(['foo/converted_peer_authentication_w']);
    expect(keys([pa('w', 'foo', { selector: A, ports: { '8080': 'PERMISSIVE' } })])).toEqual([]);
  });

  it('the oldest policy wins at each level (creationTimestamp)', () => {
    const older = '2024-01-01T00:00:00Z';
    const newer = '2025-01-01T00:00:00Z';
    expect(keys([pa('b', 'foo', { mode: 'PERMISSIVE', created: newer }), pa('a', 'foo', { mode: 'STRICT', created: older })])).toEqual([STATIC]);
    expect(keys([pa('b', 'foo', { mode: 'STRICT', created: newer }), pa('a', 'foo', { mode: 'PERMISSIVE', created: older })])).toEqual([]);
    expect(keys([pa('m2', 'istio-system', { mode: 'PERMISSIVE', created: newer }), pa('m1', 'istio-system', { mode: 'STRICT', created: older })])).toEqual([
      STATIC,
    ]);
    expect(
      keys([pa('w2', 'foo', { mode: 'STRICT', selector: A, created: newer }), pa('w1', 'foo', { mode: 'PERMISSIVE', selector: A, created: older })]),
    ).toEqual([]);
  });

  it('for a workload in the root namespace, root selector PeerAuthentications are ignored (cfg.Namespace != rootNamespace)', () => {
    expect(keys([pa('w', 'istio-system', { mode: 'STRICT', selector: A })], 'istio-system')).toEqual([]);
    expect(keys([pa('m', 'istio-system', { mode: 'STRICT' }), pa('w', 'istio-system', { mode: 'PERMISSIVE', selector: A })], 'istio-system')).toEqual([STATIC]);
  });

  it('selector AuthorizationPolicies of the workload namespace and the root namespace that select it, sorted, then the PeerAuthentication keys', () => {
    const objs = [
      ap('zeta', 'foo', { selector: { matchLabels: A } }),
      ap('alpha', 'foo', { selector: { matchLabels: A } }),
      ap('root-sel', 'istio-system', { selector: { matchLabels: A } }),
      ap('other-ns', 'bar', { selector: { matchLabels: A } }),
      ap('not-me', 'foo', { selector: { matchLabels: { app: 'b' } } }),
      ap('ns-wide', 'foo', {}),
      pa('m', 'istio-system', { mode: 'STRICT' }),
    ];
    expect(keys(objs)).toEqual(['foo/alpha', 'foo/zeta', 'istio-system/root-sel', STATIC]);
  });
});

describe('effectiveMtls (workload > namespace > mesh; UNSET inherits)', () => {
  it('reads each level and names the deciding policy', () => {
    const s = policySet([
      pa('m', 'istio-system', { mode: 'STRICT' }),
      pa('n', 'foo', { mode: 'PERMISSIVE' }),
      pa('w', 'foo', { mode: 'DISABLE', selector: A }),
      pa('u', 'baz', { mode: 'UNSET' }),
    ]);
    expect(effectiveMtls(s, 'foo', A)).toEqual({ mode: 'DISABLE', from: 'foo/w' });
    expect(effectiveMtls(s, 'foo', { app: 'b' })).toEqual({ mode: 'PERMISSIVE', from: 'foo/n' });
    expect(effectiveMtls(s, 'bar', A)).toEqual({ mode: 'STRICT', from: 'istio-system/m' });
    expect(effectiveMtls(s, 'baz', A)).toEqual({ mode: 'STRICT', from: 'istio-system/m' });
    expect(effectiveMtls(s, 'istio-system', A)).toEqual({ mode: 'STRICT', from: 'istio-system/m' });
  });
  it('UNSET with nothing set anywhere', () => {
    expect(effectiveMtls(policySet([pa('w', 'foo', { selector: A })]), 'foo', A)).toEqual({ mode: 'UNSET' });
  });
  it('a workload policy in the root namespace does not apply to root-namespace pods', () => {
    expect(effectiveMtls(policySet([pa('w', 'istio-system', { mode: 'STRICT', selector: A })]), 'istio-system', A)).toEqual({ mode: 'UNSET' });
  });
});
