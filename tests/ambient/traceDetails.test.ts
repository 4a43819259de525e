// Finer points of the request trace (src/core/ambient/trace.ts). Expected values from the spec
// /work/shared/specs/ambient-spec.md §4.3 (ztunnel outbound.rs: a destination IP is looked up as a
// Service VIP first, preferring the source's namespace when VIPs collide; target port from the
// endpoint's port map; Service waypoint only for VIP-addressed traffic), §3.4 (ingress gateways use a
// Service's waypoint only with istio.io/ingress-use-waypoint=true; waypoint pods are not captured),
// §4.1 ports, and the TraceInput syntax documented in trace.ts (`host:port`, `[v6]:port`,
// `METHOD /path` or `TCP`).
import { describe, expect, it } from 'vitest';
import { istioGateway } from '../helpers/gatewayApi.ts';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import { parseRequest, parseTarget, traceRequest, type TraceInput } from '../../src/core/ambient/trace.ts';

const ns = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const pod = (
  namespace: string,
  name: string,
  ip: string,
  o: { labels?: Record<string, string>; node?: string; ports?: Array<{ name?: string; containerPort: number }> } = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { app: name, ...o.labels } },
  spec: { nodeName: o.node ?? 'n1', serviceAccountName: name, containers: [{ name: 'app', image: 'app', ports: o.ports ?? [{ containerPort: 8080 }] }] },
  status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: 'True' }] },
});
const svc = (
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
const waypoint = (namespace: string, name = 'waypoint') => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name, namespace },
  spec: { gatewayClassName: 'istio-waypoint', listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
});
const ap = (name: string, namespace: string, spec: object) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'AuthorizationPolicy',
  metadata: { name, namespace },
  spec,
});

function trace(objects: object[], input: Partial<TraceInput> & { from: string; to: string }, extraYaml = '') {
  const text = objects.map((o) => JSON.stringify(o)).join('\n---\n') + (extraYaml ? `\n---\n${extraYaml}` : '');
  const { view, problems } = loadMesh([{ path: 'm.yaml', text }]);
  expect(problems).toEqual([]);
  const model = buildAmbientModel(view, {});
  return { r: traceRequest(view, model, input), model };
}
const AMB = ns('a', { 'istio.io/dataplane-mode': 'ambient' });
const BASE = [AMB, pod('a', 'client', '10.0.0.1'), pod('a', 'server', '10.0.0.2', { node: 'n2' }), svc('a', 'server', '10.96.0.2')];

describe('input syntax', () => {
  it('parseTarget is anchored: trailing or leading junk is no target', () => {
    for (const bad of ['server:80x', 'x[fd00::1]:80', '[fd00::1]:80x', 'server:', ':80', 'a:b:80']) expect(parseTarget(bad)).toBeUndefined();
    expect(parseTarget('10.0.0.2:1')).toEqual({ host: '10.0.0.2', port: 1 });
  });
  it('parseRequest: TCP only as the whole (trimmed) text; METHOD PATH at the start', () => {
    expect(parseRequest({ from: '', to: '', request: '  TCP  ' }).http).toBe(false);
    expect(parseRequest({ from: '', to: '', request: 'TCPX' }).http).toBe(true);
    expect(parseRequest({ from: '', to: '', request: 'XTCP' }).http).toBe(true);
    expect(parseRequest({ from: '', to: '', request: 'GET    /a/b c' })).toMatchObject({ method: 'GET', path: '/a/b' });
    expect(parseRequest({ from: '', to: '', request: '1GET /x' })).toMatchObject({ method: 'GET', path: '/' });
    expect(parseRequest({ from: '', to: '', request: 'PUT /x', path: '/override' }).path).toBe('/override');
    expect(parseRequest({ from: '', to: '', request: 'TCP' })).toEqual({ http: false, method: '', path: '', headers: {}, text: 'TCP' });
    expect(parseRequest({ from: '', to: '' }).headers).toEqual({});
  });
});

describe('VIP-addressed traffic (outbound.rs: the destination IP is a Service VIP)', () => {
  it('dialling a ClusterIP picks the Service and maps the port to the target port', () => {
    const { r } = trace(BASE, { from: 'a/client', to: '10.96.0.2:80' });
    expect(r.result).toBe('ALLOW');
    expect(r.hops.some((h) => h.component === 'dns')).toBe(false);
    expect(r.hops.at(-1)).toMatchObject({ component: 'app', pod: 'a/server', port: 8080 });
    expect(trace(BASE, { from: 'a/client', to: '10.96.0.2:81' }).r.result).toBe('ERROR');
  });

  it('dialling a ClusterIP of a Service with a waypoint goes to the waypoint', () => {
    const objs = [
      ns('a', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' }),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2'),
      svc('a', 'server', '10.96.0.2'),
      waypoint('a'),
    ];
    expect(trace(objs, { from: 'a/client', to: '10.96.0.2:80' }).r.waypointUsed).toBe('a/waypoint');
  });

  it('colliding VIPs: the Service of the source namespace wins', () => {
    const objs = [
      AMB,
      ns('b', { 'istio.io/dataplane-mode': 'ambient' }),
      pod('a', 'client', '10.0.0.1'),
      pod('b', 'client', '10.0.1.1'),
      pod('a', 'server', '10.0.0.2'),
      pod('b', 'server', '10.0.1.2'),
      svc('a', 'server', '10.96.0.2'),
      svc('b', 'server', '10.96.0.2'),
    ];
    expect(trace(objs, { from: 'a/client', to: '10.96.0.2:80' }).r.hops.at(-1)?.pod).toBe('a/server');
    expect(trace(objs, { from: 'b/client', to: '10.96.0.2:80' }).r.hops.at(-1)?.pod).toBe('b/server');
  });

  it('svc.ns names another namespace; a bare name is the source namespace', () => {
    const objs = [
      AMB,
      ns('b', { 'istio.io/dataplane-mode': 'ambient' }),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2'),
      pod('b', 'server', '10.0.1.2'),
      svc('a', 'server', '10.96.0.2'),
      svc('b', 'server', '10.96.1.2'),
    ];
    expect(trace(objs, { from: 'a/client', to: 'server.b:80' }).r.hops.at(-1)?.pod).toBe('b/server');
    expect(trace(objs, { from: 'a/client', to: 'server:80' }).r.hops.at(-1)?.pod).toBe('a/server');
  });
});

describe('target ports (the endpoint port map; L4 policy sees the target port)', () => {
  it('a named targetPort resolves per pod; a Service port without a target port uses the port', () => {
    const objs = [
      AMB,
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2', { ports: [{ name: 'web', containerPort: 9000 }] }),
      svc('a', 'server', '10.96.0.2', {
        ports: [
          { name: 'http', port: 80, targetPort: 'web' },
          { name: 'tcp', port: 7000 },
        ],
      }),
    ];
    expect(trace(objs, { from: 'a/client', to: 'server:80' }).r.hops.at(-1)?.port).toBe(9000);
    expect(trace(objs, { from: 'a/client', to: 'server:7000' }).r.hops.at(-1)?.port).toBe(7000);
    const deny = ap('deny-9000', 'a', { action: 'DENY', rules: [{ to: [{ operation: { ports: ['9000'] } }] }] });
    expect(trace([...objs, deny], { from: 'a/client', to: 'server:80' }).r.result).toBe('DENY');
    expect(trace([...objs, deny], { from: 'a/client', to: 'server:7000' }).r.result).toBe('ALLOW');
  });

  it('only endpoints that serve the port are picked', () => {
    const objs = [
      AMB,
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'aaa', '10.0.0.3', { labels: { app: 'server' }, ports: [{ name: 'other', containerPort: 1 }] }),
      pod('a', 'server', '10.0.0.2', { ports: [{ name: 'web', containerPort: 9000 }] }),
      svc('a', 'server', '10.96.0.2', { ports: [{ name: 'http', port: 80, targetPort: 'web' }] }),
    ];
    expect(trace(objs, { from: 'a/client', to: 'server:80' }).r.hops.at(-1)?.pod).toBe('a/server');
  });
});

describe('deny facts: listener only at ztunnel, scope only for L4 policies', () => {
  it('a ztunnel deny carries its listener; a waypoint deny none', () => {
    const z = trace([...BASE, ap('d', 'a', { action: 'DENY', rules: [{}] })], { from: 'a/client', to: 'server:80' }).r;
    expect(z.deniedAt?.listener).toBe(15008);
    const objs = [
      ns('a', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' }),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2'),
      svc('a', 'server', '10.96.0.2'),
      waypoint('a'),
      ap('d', 'a', { targetRefs: [{ kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'waypoint' }], action: 'DENY', rules: [{}] }),
    ];
    const w = trace(objs, { from: 'a/client', to: 'server:80', request: 'TCP' }).r;
    expect(w.deniedAt).toMatchObject({ point: 'waypoint a/waypoint', layer: 'L4', policy: 'a/d' });
    expect(w.deniedAt?.listener).toBeUndefined();
    expect(w.deniedAt?.scope).toBeUndefined();
    expect(w.result).toBe('DENY');
  });

  it('a default deny (no ALLOW matches) names no policy and no scope', () => {
    const r = trace([...BASE, ap('allow-none', 'a', { rules: [{ from: [{ source: { namespaces: ['x'] } }] }] })], { from: 'a/client', to: 'server:80' }).r;
    expect(r.deniedAt?.policy).toBeUndefined();
    expect(r.deniedAt?.scope).toBeUndefined();
    expect(r.deniedAt?.listener).toBe(15008);
  });

  it("through a waypoint, a deny at the destination ztunnel is seen by the client as the waypoint's error (HTTP 503 for HTTP)", () => {
    const objs = [
      ns('a', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' }),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2'),
      svc('a', 'server', '10.96.0.2'),
      waypoint('a'),
      ap('d', 'a', { selector: { matchLabels: { app: 'server' } }, action: 'DENY', rules: [{}] }),
    ];
    const r = trace(objs, { from: 'a/client', to: 'server:80' }).r;
    expect(r.deniedAt).toMatchObject({ layer: 'L4', listener: 15008, policy: 'a/d' });
    expect(r.clientSees).toContain('503');
  });
});

describe('waypoint pods and gateways as sources (spec §3.4, §4.6)', () => {
  it('a waypoint pod is role waypoint, not captured, and traces as a gateway-class source', () => {
    const objs = [
      ns('a', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' }),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2'),
      svc('a', 'server', '10.96.0.2'),
      waypoint('a'),
    ];
    const { model } = trace(objs, { from: 'a/client', to: 'server:80' });
    const wp = model.cluster.pods.find((p) => p.waypointOf === 'a/waypoint')!;
    expect(wp).toBeDefined();
    expect(wp.role).toBe('waypoint');
    expect(wp.mode).not.toBe('ambient');
    expect(wp.identity).toBe('spiffe://cluster.local/ns/a/sa/waypoint');
    const r = trace(objs, { from: wp.key, to: '10.0.0.2:8080' }).r;
    expect(r.source).toEqual({ pod: wp.key, class: 'gateway' });
  });

  it('an ingress gateway uses the Service waypoint only with istio.io/ingress-use-waypoint=true', () => {
    const base = (label: Record<string, string>) => [
      ns('a', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' }),
      pod('a', 'server', '10.0.0.2'),
      svc('a', 'server', '10.96.0.2', { labels: label }),
      waypoint('a'),
    ];
    const gw = istioGateway('a', 'web', [['http', 80]]);
    const gwPod = (m: ReturnType<typeof trace>['model']) => m.cluster.pods.find((p) => p.role === 'gateway' && p.namespace === 'a')!;
    const { model: m1 } = trace(base({}), { from: 'a/server', to: 'server:80' }, gw);
    const skip = trace(base({}), { from: gwPod(m1).key, to: 'server.a:80' }, gw).r;
    expect(skip.source?.class).toBe('gateway');
    expect(skip.waypointUsed).toBeNull();
    expect(skip.hops.some((h) => h.component === 'gateway')).toBe(true);
    // The gateway tunnels HBONE straight to the ambient pod with its own identity (spec §4.6).
    expect(skip.hops.find((h) => h.component === 'gateway' && h.port === 15008)).toMatchObject({ protocol: 'HBONE mTLS', identity: gwPod(m1).identity });
    expect(skip.enforcement[0]).toMatchObject({ listener: 15008, sourceIdentity: gwPod(m1).identity });
    // Every client-side hop is the gateway's, never a sidecar's.
    expect(skip.hops.filter((h) => h.component === 'sidecar-outbound')).toEqual([]);
    expect(skip.hops.filter((h) => h.component === 'gateway').every((h) => h.actor === `gateway ${gwPod(m1).key}`)).toBe(true);
    const { model: m2 } = trace(base({ 'istio.io/ingress-use-waypoint': 'true' }), { from: 'a/server', to: 'server:80' }, gw);
    const use = trace(base({ 'istio.io/ingress-use-waypoint': 'true' }), { from: gwPod(m2).key, to: 'server.a:80' }, gw).r;
    expect(use.waypointUsed).toBe('a/waypoint');
    expect(use.result).toBe('ALLOW');
  });
});
