// PeerAuthentication precedence, from Istio's source (istio/istio HEAD 86c9f01f):
// - pilot/pkg/model/authentication.go addPeerAuthentication: configs sorted by
//   sortConfigByCreationTime (pilot/pkg/model/config.go configCompareByCreationTime: creation
//   time, then name, then namespace); only the first (oldest) namespace/mesh-level policy of a
//   namespace is kept ("Ignore %q which was created at time %v").
// - pilot/pkg/security/authn/policy_applier.go ComposePeerAuthentication: mesh (root namespace,
//   no selector) < namespace (no selector) < workload (selector, not in the root namespace); the
//   oldest (CreationTimestamp.Before) wins at each level; UNSET inherits; port-level UNSET
//   inherits the workload's mode.
// Observed through generation and the simulator: a plaintext inbound call is refused
// (ErrNoFilterChain) under STRICT and reaches the inbound cluster under PERMISSIVE.
import { describe, expect, it } from 'vitest';
import { byName, generateFor, viewOf } from './helpers.ts';
import { simulate } from '../../src/core/xds/simulate.ts';

const MESH = `apiVersion: v1
kind: Namespace
metadata: {name: app, labels: {istio-injection: enabled}}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: app}
spec:
  clusterIP: 10.96.1.10
  selector: {app: web}
  ports: [{name: http, port: 8080}, {name: http-admin, port: 9090}]
---
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: app, labels: {app: web}}
spec:
  containers: [{name: w, image: w, ports: [{containerPort: 8080}, {containerPort: 9090}]}]
status: {podIP: 10.1.1.2}
---
apiVersion: v1
kind: Service
metadata: {name: api, namespace: app}
spec:
  clusterIP: 10.96.1.11
  selector: {app: api}
  ports: [{name: http, port: 8080}]
---
apiVersion: v1
kind: Pod
metadata: {name: api-1, namespace: app, labels: {app: api}}
spec:
  containers: [{name: a, image: a, ports: [{containerPort: 8080}]}]
status: {podIP: 10.1.1.3}
`;

interface Pa {
  name: string;
  namespace?: string;
  created?: string;
  mode?: string;
  selector?: Record<string, string>;
  portLevel?: Record<number, string>;
}

function pa(p: Pa): string {
  const meta = [`name: ${p.name}`, `namespace: ${p.namespace ?? 'app'}`, ...(p.created ? [`creationTimestamp: "${p.created}"`] : [])].join(', ');
  const spec: string[] = [];
  if (p.selector) spec.push(`  selector: {matchLabels: ${JSON.stringify(p.selector)}}`);
  if (p.mode) spec.push(`  mtls: {mode: ${p.mode}}`);
  if (p.portLevel)
    spec.push(
      `  portLevelMtls: {${Object.entries(p.portLevel)
        .map(([k, v]) => `${k}: {mode: ${v}}`)
        .join(', ')}}`,
    );
  return `---
apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {${meta}}
spec:
${spec.length ? spec.join('\n') : '  {}'}
`;
}

/** 'STRICT' when a plaintext inbound call to the pod's port is refused, 'PERMISSIVE' when it gets through. */
function effective(policies: Pa[], pod = 'web-1', port = 8080): string {
  const gen = generateFor(viewOf(MESH + policies.map(pa).join('')), pod, 'app');
  const r = simulate({ listeners: gen.listeners, routes: gen.routes }, { mode: 'inbound', port, protocol: 'http' });
  if (r.error === 'ErrNoFilterChain') return 'STRICT';
  if (r.cluster === `inbound|${port}||`) return 'PERMISSIVE';
  return `unexpected: ${r.error ?? r.cluster}`;
}

describe('PeerAuthentication precedence', () => {
  it('is PERMISSIVE without any policy (ComposePeerAuthentication: initial outputPolicy)', () => {
    expect(effective([])).toBe('PERMISSIVE');
  });

  describe('among namespace-level policies of one namespace', () => {
    it('the oldest by creationTimestamp wins, whatever the order in the files', () => {
      const older = { name: 'z-old', created: '2020-01-01T00:00:00Z' };
      const newer = { name: 'a-new', created: '2021-01-01T00:00:00Z' };
      expect(
        effective([
          { ...newer, mode: 'PERMISSIVE' },
          { ...older, mode: 'STRICT' },
        ]),
      ).toBe('STRICT');
      expect(
        effective([
          { ...older, mode: 'STRICT' },
          { ...newer, mode: 'PERMISSIVE' },
        ]),
      ).toBe('STRICT');
      expect(
        effective([
          { ...newer, mode: 'STRICT' },
          { ...older, mode: 'PERMISSIVE' },
        ]),
      ).toBe('PERMISSIVE');
    });

    // configCompareByCreationTime: equal times → strings.Compare(a.Name, b.Name).
    it('with equal creation times, the first name in order wins', () => {
      const t = '2020-01-01T00:00:00Z';
      expect(
        effective([
          { name: 'b', created: t, mode: 'PERMISSIVE' },
          { name: 'a', created: t, mode: 'STRICT' },
        ]),
      ).toBe('STRICT');
      expect(
        effective([
          { name: 'b', created: t, mode: 'STRICT' },
          { name: 'a', created: t, mode: 'PERMISSIVE' },
        ]),
      ).toBe('PERMISSIVE');
    });

    // The discarded newer policy does not count as UNSET-inherits either: an older UNSET
    // policy wins and inherits the mesh's mode.
    it('an older UNSET policy wins over a newer STRICT one and inherits the mesh mode', () => {
      const ns = [
        { name: 'old', created: '2020-01-01T00:00:00Z' },
        { name: 'new', created: '2021-01-01T00:00:00Z', mode: 'STRICT' },
      ];
      expect(effective(ns)).toBe('PERMISSIVE');
      expect(effective([...ns, { name: 'default', namespace: 'istio-system', mode: 'STRICT' }])).toBe('STRICT');
    });
  });

  describe('levels', () => {
    const meshStrict = { name: 'default', namespace: 'istio-system', mode: 'STRICT' };

    it('the mesh-wide policy (root namespace) applies to every namespace', () => {
      expect(effective([meshStrict])).toBe('STRICT');
    });

    it('among mesh-level policies the oldest wins', () => {
      expect(
        effective([
          { name: 'a', namespace: 'istio-system', created: '2021-01-01T00:00:00Z', mode: 'STRICT' },
          { name: 'b', namespace: 'istio-system', created: '2020-01-01T00:00:00Z', mode: 'PERMISSIVE' },
        ]),
      ).toBe('PERMISSIVE');
    });

    it('a namespace policy overrides the mesh; UNSET inherits it', () => {
      expect(effective([meshStrict, { name: 'ns', mode: 'PERMISSIVE' }])).toBe('PERMISSIVE');
      expect(effective([meshStrict, { name: 'ns', mode: 'UNSET' }])).toBe('STRICT');
      expect(effective([meshStrict, { name: 'ns' }])).toBe('STRICT');
    });

    it('a workload policy (selector) overrides the namespace for the workloads it selects only', () => {
      const policies = [
        { name: 'ns', mode: 'STRICT', created: '2020-01-01T00:00:00Z' },
        { name: 'web', selector: { app: 'web' }, mode: 'PERMISSIVE', created: '2021-01-01T00:00:00Z' },
      ];
      expect(effective(policies, 'web-1')).toBe('PERMISSIVE');
      expect(effective(policies, 'api-1')).toBe('STRICT');
      // UNSET at the workload level inherits the namespace's mode.
      expect(effective([policies[0] as Pa, { name: 'web', selector: { app: 'web' } }], 'web-1')).toBe('STRICT');
    });

    it('among workload policies selecting the same workload the oldest wins', () => {
      expect(
        effective([
          { name: 'a', selector: { app: 'web' }, created: '2021-01-01T00:00:00Z', mode: 'PERMISSIVE' },
          { name: 'b', selector: { app: 'web' }, created: '2020-01-01T00:00:00Z', mode: 'STRICT' },
        ]),
      ).toBe('STRICT');
    });

    // `} else if cfg.Namespace != rootNamespace {`: a selector policy in the root namespace is not a workload policy.
    it('ignores a policy with a selector in the root namespace', () => {
      expect(effective([{ name: 'sel', namespace: 'istio-system', selector: { app: 'web' }, mode: 'STRICT' }])).toBe('PERMISSIVE');
    });

    // PortLevelMtls from the workload policy; UNSET on a port inherits the workload's mode.
    it('port-level modes apply to their port, UNSET inheriting the workload mode', () => {
      const policies = [{ name: 'web', selector: { app: 'web' }, mode: 'STRICT', portLevel: { 9090: 'PERMISSIVE' } }];
      expect(effective(policies, 'web-1', 8080)).toBe('STRICT');
      expect(effective(policies, 'web-1', 9090)).toBe('PERMISSIVE');
      expect(effective([{ name: 'web', selector: { app: 'web' }, mode: 'STRICT', portLevel: { 9090: 'UNSET' } }], 'web-1', 9090)).toBe('STRICT');
    });
  });

  // The client side reads the same namespace-level winner: push_context.go
  // BestEffortInferServiceMTLSMode returns GetNamespaceMutualTLSMode (the oldest namespace policy,
  // from addPeerAuthentication), and cluster_tls.go buildUpstreamTLSSettings adds no auto-mTLS
  // when it is MTLSDisable.
  describe('on the client side (auto mTLS of the outbound cluster)', () => {
    const client = `---
apiVersion: v1
kind: Namespace
metadata: {name: client, labels: {istio-injection: enabled}}
---
apiVersion: v1
kind: Pod
metadata: {name: client-1, namespace: client, labels: {app: client}}
spec:
  containers: [{name: c, image: c}]
status: {podIP: 10.1.2.1}
`;
    const autoMtls = (policies: Pa[]): boolean => {
      const gen = generateFor(viewOf(MESH + client + policies.map(pa).join('')), 'client-1', 'client');
      return byName(gen.clusters, 'outbound|8080||web.app.svc.cluster.local').transportSocketMatches !== undefined;
    };

    it('follows the oldest namespace-level policy of the service namespace', () => {
      const older = { name: 'z', created: '2020-01-01T00:00:00Z' };
      const newer = { name: 'a', created: '2021-01-01T00:00:00Z' };
      expect(autoMtls([])).toBe(true);
      expect(
        autoMtls([
          { ...older, mode: 'DISABLE' },
          { ...newer, mode: 'STRICT' },
        ]),
      ).toBe(false);
      expect(
        autoMtls([
          { ...older, mode: 'STRICT' },
          { ...newer, mode: 'DISABLE' },
        ]),
      ).toBe(true);
      const t = '2020-01-01T00:00:00Z';
      expect(
        autoMtls([
          { name: 'b', created: t, mode: 'STRICT' },
          { name: 'a', created: t, mode: 'DISABLE' },
        ]),
      ).toBe(false);
    });
  });
});
