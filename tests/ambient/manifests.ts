// Manifest builders shared by the ambient tests.

export type Mode = 'STRICT' | 'PERMISSIVE' | 'DISABLE' | 'UNSET';

/** A PeerAuthentication: mesh/namespace/workload mode, port-level modes, a creation time. */
export const pa = (
  name: string,
  namespace: string,
  o: { mode?: Mode; selector?: Record<string, string>; ports?: Record<string, Mode>; created?: string } = {},
) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'PeerAuthentication',
  metadata: { name, namespace, ...(o.created ? { creationTimestamp: o.created } : {}) },
  spec: {
    ...(o.selector ? { selector: { matchLabels: o.selector } } : {}),
    ...(o.mode ? { mtls: { mode: o.mode } } : {}),
    ...(o.ports ? { portLevelMtls: Object.fromEntries(Object.entries(o.ports).map(([p, m]) => [p, { mode: m }])) } : {}),
  },
});
