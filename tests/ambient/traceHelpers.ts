// Builders and the trace runner the request-trace tests share (traceFacts, survivorsTrace).
import { expect } from 'vitest';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import type { AmbientSettings } from '../../src/core/ambient/settings.ts';
import { traceRequest, type TraceHop, type TraceInput, type TraceResult } from '../../src/core/ambient/trace.ts';

export const ns = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });

/** A pod on node n1 (or `node`); `ip: null` is a Pending pod without an address. */
export const pod = (
  namespace: string,
  name: string,
  ip: string | null,
  o: { labels?: Record<string, string>; annotations?: Record<string, string>; node?: string; ready?: boolean; sa?: string } = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { app: name, ...o.labels }, annotations: o.annotations ?? {} },
  spec: { nodeName: o.node ?? 'n1', serviceAccountName: o.sa ?? name, containers: [{ name: 'app', image: 'app', ports: [{ containerPort: 8080 }] }] },
  status:
    ip === null
      ? { phase: 'Pending' }
      : { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
});

export const svc = (
  namespace: string,
  name: string,
  ip: string,
  o: { labels?: Record<string, string>; ports?: object[]; selector?: Record<string, string> } = {},
) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace, labels: o.labels ?? {} },
  spec: { clusterIP: ip, selector: o.selector ?? { app: name }, ports: o.ports ?? [{ name: 'http', port: 80, targetPort: 8080 }] },
});

export const ap = (name: string, namespace: string, spec: object) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'AuthorizationPolicy',
  metadata: { name, namespace },
  spec,
});

/** Loads the objects (plus raw YAML) as one file, which must load without problems, and traces the request. */
export function trace(
  objects: object[],
  input: Partial<TraceInput> & { from: string; to: string },
  settings: AmbientSettings = {},
  extraYaml = '',
): TraceResult {
  const text = objects.map((o) => JSON.stringify(o)).join('\n---\n') + (extraYaml ? `\n---\n${extraYaml}` : '');
  const { view, problems } = loadMesh([{ path: 'm.yaml', text }]);
  expect(problems).toEqual([]);
  return traceRequest(view, buildAmbientModel(view, settings), input);
}

/** The one hop the predicate picks (fails, listing the hops, when there are none or several). */
export const one = (r: TraceResult, pred: (h: TraceHop) => boolean): TraceHop => {
  const l = r.hops.filter(pred);
  expect(l.length, JSON.stringify(r.hops.map((h) => h.text))).toBe(1);
  return l[0]!;
};

// Shapes the trace-fact tests (traceFacts, traceHops) build meshes from.
export const waypoint = (namespace: string, name = 'waypoint', waypointFor?: string) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name, namespace, labels: waypointFor ? { 'istio.io/waypoint-for': waypointFor } : {} },
  spec: { gatewayClassName: 'istio-waypoint', listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
});
export const se = (name: string, namespace: string, spec: object, labels: Record<string, string> = {}) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'ServiceEntry',
  metadata: { name, namespace, labels },
  spec,
});
export const peerAuthn = (name: string, namespace: string, mode: string) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'PeerAuthentication',
  metadata: { name, namespace },
  spec: { mtls: { mode } },
});

export const decided = (r: TraceResult, component?: string) =>
  one(r, (h) => h.decision !== undefined && (component === undefined || h.component === component));

export const AMB_LABELS = { 'istio.io/dataplane-mode': 'ambient' };
export const WP_LABELS = { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' };
export const CLIENT_ID = 'spiffe://cluster.local/ns/a/sa/client';
export const SERVER_ID = 'spiffe://cluster.local/ns/a/sa/server';
export const WP_ID = 'spiffe://cluster.local/ns/a/sa/waypoint';
// Built inside each test (never at load time).
export const base = () => [
  ns('a', AMB_LABELS),
  pod('a', 'client', '10.0.0.1'),
  pod('a', 'server', '10.0.0.2', { node: 'n2' }),
  svc('a', 'server', '10.96.0.2'),
];
export const withWaypoint = (ports?: object[]) => [
  ns('a', WP_LABELS),
  pod('a', 'client', '10.0.0.1'),
  pod('a', 'server', '10.0.0.2', { node: 'n2' }),
  svc('a', 'server', '10.96.0.2', ports ? { ports } : {}),
  waypoint('a'),
];
export const wpPolicy = (name: string, spec: object) =>
  ap(name, 'a', { targetRefs: [{ kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'waypoint' }], ...spec });
