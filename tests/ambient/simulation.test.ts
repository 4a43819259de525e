// The ambient simulation on cases beyond the shared scenarios: enrollment rules, what-if
// overrides, redirection variants, node placement, traces addressed by pod IP, the gateways
// istiod deploys.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { istioGateway } from '../helpers/gatewayApi.ts';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import type { AmbientSettings } from '../../src/core/ambient/settings.ts';
import { redirectionRules } from '../../src/core/ambient/cni.ts';
import { traceRequest } from '../../src/core/ambient/trace.ts';
import { nodeView, workloadsTable } from '../../src/core/ambient/ztunnel.ts';
import { assumedClusterIps, assumedGatewayDeployments } from '../../src/core/config/services.ts';
import { generateForProxy } from '../../src/core/xds/generate.ts';
import { findProxy, listProxies, proxyForPod } from '../../src/core/xds/proxy.ts';

const ns = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const pod = (
  namespace: string,
  name: string,
  opts: { labels?: Record<string, string>; annotations?: Record<string, string>; node?: string; ip?: string; sa?: string; hostNetwork?: boolean } = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { app: name, ...opts.labels }, annotations: opts.annotations ?? {} },
  spec: {
    ...(opts.node ? { nodeName: opts.node } : {}),
    ...(opts.hostNetwork ? { hostNetwork: true } : {}),
    serviceAccountName: opts.sa ?? name,
    containers: [{ name: 'app', image: 'app', ports: [{ containerPort: 8080 }] }],
  },
  ...(opts.ip ? { status: { phase: 'Running', podIP: opts.ip, podIPs: [{ ip: opts.ip }], conditions: [{ type: 'Ready', status: 'True' }] } } : {}),
});
const svc = (namespace: string, name: string, port = 80, targetPort = 8080) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace },
  spec: { selector: { app: name }, ports: [{ name: 'http', port, targetPort }] },
});

function model(objects: object[], settings: AmbientSettings = {}) {
  const text = objects.map((o) => JSON.stringify(o)).join('\n---\n');
  const { view, problems } = loadMesh([{ path: 'm.yaml', text }]);
  expect(problems).toEqual([]);
  return { view, model: buildAmbientModel(view, settings) };
}

describe('enrollment', () => {
  it('treats a pod dataplane-mode value other than ambient or none as unset (namespace rule decides)', () => {
    const { model: m } = model([ns('a', { 'istio.io/dataplane-mode': 'ambient' }), pod('a', 'x', { labels: { 'istio.io/dataplane-mode': 'sidecar' } })]);
    const p = m.cluster.podsByKey.get('a/x')!;
    expect(p.mode).toBe('ambient');
    expect(p.enrollment.code).toBe('NamespaceLabelAmbient');
  });

  it('honours a user list of excluded namespaces, even for a pod labelled ambient', () => {
    const objs = [ns('batch'), pod('batch', 'job', { labels: { 'istio.io/dataplane-mode': 'ambient' } })];
    expect(model(objs).model.cluster.podsByKey.get('batch/job')!.mode).toBe('ambient');
    const p = model(objs, { cni: { excludeNamespaces: ['batch'] } }).model.cluster.podsByKey.get('batch/job')!;
    expect(p.mode).toBe('none');
    expect(p.enrollment.code).toBe('ExcludedNamespace');
  });

  it('never enrolls a host-network pod, and lets injection win over the namespace label', () => {
    const { model: m } = model([
      ns('a', { 'istio.io/dataplane-mode': 'ambient' }),
      pod('a', 'host', { hostNetwork: true }),
      pod('a', 'inj', { labels: { 'sidecar.istio.io/inject': 'true' } }),
    ]);
    expect(m.cluster.podsByKey.get('a/host')!.enrollment.code).toBe('HostNetwork');
    expect(m.cluster.podsByKey.get('a/inj')!.mode).toBe('sidecar');
  });

  it('applies what-if namespace label overrides without touching the files', () => {
    const objs = [ns('a'), pod('a', 'x')];
    const before = model(objs);
    expect(before.model.cluster.podsByKey.get('a/x')!.mode).toBe('none');
    const after = model(objs, { overrides: { namespaceLabels: { a: { 'istio.io/dataplane-mode': 'ambient' } } } });
    const p = after.model.cluster.podsByKey.get('a/x')!;
    expect(p.mode).toBe('ambient');
    expect(p.overridden).toBe(true);
    // Removing the label again with an override.
    const off = model([ns('a', { 'istio.io/dataplane-mode': 'ambient' }), pod('a', 'x')], {
      overrides: { namespaceLabels: { a: { 'istio.io/dataplane-mode': null } } },
    });
    expect(off.model.cluster.podsByKey.get('a/x')!.mode).toBe('none');
  });
});

describe('cluster shape and ztunnel views', () => {
  it('places pods that name no node over the given nodes deterministically, and each ztunnel captures its own', () => {
    const objs = [ns('a', { 'istio.io/dataplane-mode': 'ambient' }), ...['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((n) => pod('a', n))];
    const settings = { cluster: { nodes: ['n1', 'n2', 'n3'] } };
    const m1 = model(objs, settings).model;
    const m2 = model(objs, settings).model;
    expect(m1.cluster.pods.map((p) => p.node)).toEqual(m2.cluster.pods.map((p) => p.node));
    expect(new Set(m1.cluster.pods.filter((p) => p.namespace === 'a').map((p) => p.node))).toEqual(new Set(['n1', 'n2', 'n3']));
    for (const n of ['n1', 'n2', 'n3']) {
      const v = nodeView(m1.cluster, m1.ztunnel, n);
      expect(v.capturedPods.length).toBe(m1.cluster.pods.filter((p) => p.node === n && p.mode === 'ambient').length);
      expect(v.capturedPods.every((k) => m1.cluster.podsByKey.get(k)!.node === n)).toBe(true);
    }
    // The workloads table filtered by node lists only that node's pods.
    const t = workloadsTable(m1.ztunnel, { node: 'n2' });
    expect(t.rows.every((r) => r[3] === 'n2')).toBe(true);
  });

  it('keeps a given pod IP and node', () => {
    const { model: m } = model([ns('a', { 'istio.io/dataplane-mode': 'ambient' }), pod('a', 'x', { node: 'worker-7', ip: '10.1.2.3' })]);
    const p = m.cluster.podsByKey.get('a/x')!;
    expect(p).toMatchObject({ node: 'worker-7', nodeAssumed: false, ips: ['10.1.2.3'], ipAssumed: false });
  });
});

describe('CNI redirection rules', () => {
  it('redirects inbound to 15006 unless bypass-inbound-capture, and DNS to 15053 unless dns-capture=false', () => {
    const { model: m } = model([
      ns('a', { 'istio.io/dataplane-mode': 'ambient' }),
      pod('a', 'plain'),
      pod('a', 'bypass', { annotations: { 'ambient.istio.io/bypass-inbound-capture': 'true' } }),
      pod('a', 'nodns', { annotations: { 'ambient.istio.io/dns-capture': 'false' } }),
      pod('a', 'out', { labels: { 'istio.io/dataplane-mode': 'none' } }),
    ]);
    const rules = (k: string) =>
      redirectionRules(m.cluster.podsByKey.get(k)!)
        .map((r) => r.iptables)
        .join('\n');
    expect(rules('a/plain')).toContain('--to-ports 15006');
    expect(rules('a/plain')).toContain('--to-port 15053');
    expect(rules('a/plain')).toContain('--to-ports 15001');
    expect(rules('a/bypass')).not.toContain('--to-ports 15006');
    expect(rules('a/bypass')).toContain('--to-ports 15001');
    expect(rules('a/nodns')).not.toContain('15053');
    expect(redirectionRules(m.cluster.podsByKey.get('a/out')!)).toEqual([]);
  });
});

describe('traces', () => {
  const base = [
    ns('a', { 'istio.io/dataplane-mode': 'ambient' }),
    pod('a', 'client', { node: 'n1', ip: '10.0.0.1' }),
    pod('a', 'server', { node: 'n2', ip: '10.0.0.2' }),
    svc('a', 'server'),
  ];

  it('goes ztunnel to ztunnel over HBONE with each side presenting its own identity', () => {
    const { view, model: m } = model(base);
    const r = traceRequest(view, m, { from: 'a/client', to: 'server.a.svc.cluster.local:80' });
    expect(r.result).toBe('ALLOW');
    expect(r.waypointUsed).toBeNull();
    const inbound = r.hops.find((h) => h.component === 'ztunnel-inbound')!;
    expect(inbound.node).toBe('n2');
    expect(inbound.peerIdentity).toBe('spiffe://cluster.local/ns/a/sa/client');
    expect(r.hops.at(-1)!.component).toBe('app');
  });

  it('matches ztunnel port rules against the target port, not the service port', () => {
    const deny = (port: number) => ({
      apiVersion: 'security.istio.io/v1',
      kind: 'AuthorizationPolicy',
      metadata: { name: `deny-${port}`, namespace: 'a' },
      spec: { selector: { matchLabels: { app: 'server' } }, action: 'DENY', rules: [{ to: [{ operation: { ports: [String(port)] } }] }] },
    });
    const svcPort = model([...base, deny(80)]);
    expect(traceRequest(svcPort.view, svcPort.model, { from: 'a/client', to: 'server.a.svc.cluster.local:80' }).result).toBe('ALLOW');
    const target = model([...base, deny(8080)]);
    const r = traceRequest(target.view, target.model, { from: 'a/client', to: 'server.a.svc.cluster.local:80' });
    expect(r.result).toBe('DENY');
    expect(r.deniedAt?.policy).toBe('a/deny-8080');
    expect(r.deniedAt?.layer).toBe('L4');
  });

  it('reaches a pod IP directly, and reports a destination that does not exist', () => {
    const { view, model: m } = model(base);
    const r = traceRequest(view, m, { from: 'a/client', to: '10.0.0.2:8080' });
    expect(r.result).toBe('ALLOW');
    expect(r.hops.some((h) => h.component === 'ztunnel-inbound' && h.pod === 'a/server')).toBe(true);
    const missing = traceRequest(view, m, { from: 'a/client', to: 'nothing.a.svc.cluster.local:80' });
    expect(missing.result).toBe('ERROR');
    expect(missing.error).toContain('NXDOMAIN');
    // A name outside the cluster domain is ordinary egress.
    expect(traceRequest(view, m, { from: 'a/client', to: 'example.com:443', request: 'TCP' }).result).toBe('ALLOW');
    const bad = traceRequest(view, m, { from: 'a/client', to: 'no-port' });
    expect(bad.result).toBe('ERROR');
    expect(bad.error).toContain('host:port');
  });
});

describe('assumed Service addresses', () => {
  it('gives a Service written without a clusterIP the same address in the ambient view and in xDS', () => {
    const objects = [
      ns('a', { 'istio-injection': 'enabled' }),
      pod('a', 'client-1', { labels: { app: 'client' }, ip: '10.244.0.5' }),
      svc('a', 'reviews'),
      svc('a', 'ratings'),
      { ...svc('a', 'fixed'), spec: { ...svc('a', 'fixed').spec, clusterIP: '10.96.7.7' } },
    ];
    const { view, model: m } = model(objects);
    const ambient = new Map(m.cluster.services.map((s) => [s.key, s.addresses]));
    const xds = assumedClusterIps(view);
    for (const name of ['reviews', 'ratings']) {
      const vip = ambient.get(`a/${name}`);
      expect(vip?.assumed).toBe(true);
      expect(vip?.vips).toHaveLength(1);
      expect(vip?.vips[0]).toMatch(/^10\.96\.\d+\.\d+$/);
      expect(xds.get(`${name}.a.svc.cluster.local`)).toBe(vip?.vips[0]);
    }
    // Written addresses stay as written, and no assumed one collides with them.
    expect(ambient.get('a/fixed')).toEqual({ vips: ['10.96.7.7'], headless: false, assumed: false });
    expect(xds.has('fixed.a.svc.cluster.local')).toBe(false);
    // The sidecar's routes for the Service answer to that address too.
    const gen = generateForProxy(view, proxyForPod(view, findProxy(view, 'client-1', 'a')!));
    const domains = JSON.stringify(gen.routes);
    expect(domains).toContain(`"${xds.get('reviews.a.svc.cluster.local')}"`);
  });
});

describe('gateways istiod deploys for Kubernetes Gateways', () => {
  // The ambient sample plus an ingress Gateway of class istio and its HTTPRoute, with neither
  // the gateway's Service nor its pods written: istiod's deployment controller would make them.
  const sampleDir = new URL('../../public/samples/ambient/', import.meta.url);
  const ingress = `${istioGateway('shop', 'web', [['http', 80]])}---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: products, namespace: shop}
spec:
  parentRefs: [{name: web}]
  rules:
  - backendRefs: [{name: products, port: 80}]
`;
  // Built inside each test, not while the file is collected: work done at collection time is
  // "static" to Stryker's per-test coverage, and every mutant it touches would run every test.
  const setup = () => {
    const files = [
      ...readdirSync(sampleDir)
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => ({ path: f, text: readFileSync(new URL(f, sampleDir), 'utf8') })),
      { path: 'ingress.yaml', text: ingress },
    ];
    const { view } = loadMesh(files);
    const m = buildAmbientModel(view, {});
    const gateway = m.cluster.pods.find((p) => p.namespace === 'shop' && p.name.startsWith('web-istio-'));
    return { view, m, gateway };
  };

  it('places the gateway pod the proxy list shows, with the same name and address, and its Service', () => {
    const { view, m, gateway } = setup();
    expect(gateway).toBeDefined();
    expect(gateway!.role).toBe('gateway');
    expect(gateway!.resource.derivedFrom).toEqual({ kind: 'Gateway', namespace: 'shop', name: 'web' });
    const ref = listProxies(view).find((p) => p.type === 'router' && p.id.startsWith('web-istio-'))!;
    expect(ref.id).toBe(`${gateway!.name}.shop`);
    expect(generateForProxy(view, proxyForPod(view, ref)).proxy.ipAddresses).toEqual(gateway!.ips);
    const service = m.cluster.services.find((s) => s.key === 'shop/web-istio')!;
    expect(service.origin).toBe('gateway');
    expect(service.addresses.assumed).toBe(true);
    expect(service.addresses.vips).toEqual([assumedGatewayDeployments(view).services[0]!.defaultAddress]);
    // Its address is clear of every other Service's.
    const others = m.cluster.services.filter((s) => s !== service).flatMap((s) => s.addresses.vips);
    expect(others).not.toContain(service.addresses.vips[0]);
  });

  it("traces from the gateway: it skips the waypoint without istio.io/ingress-use-waypoint, so ztunnel's L4 policy decides", () => {
    const { view, m, gateway } = setup();
    const r = traceRequest(view, m, { from: gateway!.key, to: 'products.shop.svc.cluster.local:80' });
    expect(r.source).toEqual({ pod: gateway!.key, class: 'gateway' });
    expect(r.waypointUsed).toBeNull();
    expect(r.hops.some((h) => h.component === 'gateway' && h.text.includes('waypoint shop/waypoint is skipped'))).toBe(true);
    expect(r.result).toBe('DENY');
    expect(r.deniedAt?.layer).toBe('L4');
  });
});
