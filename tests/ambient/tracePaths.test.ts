// The hop-by-hop request trace (src/core/ambient/trace.ts) on each path of the spec's trace algorithm.
// Expected decisions, components, ports, protocols and identities come from:
//  - /work/shared/specs/ambient-spec.md §3.4-3.6 (who goes through a waypoint; policy attachment at a
//    waypoint, pilot/pkg/model/policyattachment.go), §4.1 ports (15001 outbound, 15006 inbound plaintext,
//    15008 HBONE, 15053 DNS), §4.3 (the trace algorithm, from ztunnel src/proxy/outbound.rs, inbound.rs,
//    inbound_passthrough.rs, dns/server.rs), §4.4 identities, §4.6 interop matrix, §4.7 ServiceEntry.
//  - ztunnel src/state.rs assert_rbac (L4 at the destination ztunnel only), Istio authorization docs
//    (waypoint: HTTP 403 on DENY; sidecar STRICT rejects plaintext).
// Hop texts are our own prose: only facts (component, actor, port, protocol, identities, decisions) are
// asserted.
import { describe, expect, it } from 'vitest';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { KINDS } from '../../src/core/document/kinds.ts';
import { buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import type { AmbientSettings } from '../../src/core/ambient/settings.ts';
import { parseRequest, parseTarget, policyResourceKey, resolveSourcePod, traceRequest, type TraceInput } from '../../src/core/ambient/trace.ts';

const ns = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const pod = (
  namespace: string,
  name: string,
  ip: string,
  o: { labels?: Record<string, string>; annotations?: Record<string, string>; node?: string; ready?: boolean; phase?: string } = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { app: name, ...o.labels }, annotations: o.annotations ?? {} },
  spec: { nodeName: o.node ?? 'n1', serviceAccountName: name, containers: [{ name: 'app', image: 'app', ports: [{ containerPort: 8080 }] }] },
  status:
    ip === ''
      ? { phase: 'Pending' }
      : { phase: o.phase ?? 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
});
const svc = (namespace: string, name: string, ip: string, o: { labels?: Record<string, string>; ports?: object[]; spec?: object } = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace, labels: o.labels ?? {} },
  spec: { clusterIP: ip, selector: { app: name }, ports: o.ports ?? [{ name: 'http', port: 80, targetPort: 8080 }], ...o.spec },
});
const waypoint = (namespace: string, name = 'waypoint', waypointFor?: string) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name, namespace, labels: waypointFor ? { 'istio.io/waypoint-for': waypointFor } : {} },
  spec: { gatewayClassName: 'istio-waypoint', listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
});
const ap = (name: string, namespace: string, spec: object) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'AuthorizationPolicy',
  metadata: { name, namespace },
  spec,
});
const peerAuthn = (name: string, namespace: string, mode: string) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'PeerAuthentication',
  metadata: { name, namespace },
  spec: { mtls: { mode } },
});

function run(objects: object[], input: Partial<TraceInput> & { from: string; to: string }, settings: AmbientSettings = {}) {
  const { view, problems } = loadMesh([{ path: 'm.yaml', text: objects.map((o) => JSON.stringify(o)).join('\n---\n') }]);
  expect(problems).toEqual([]);
  const model = buildAmbientModel(view, settings);
  return { r: traceRequest(view, model, input), view, model };
}
const trace = (objects: object[], input: Partial<TraceInput> & { from: string; to: string }, settings: AmbientSettings = {}) => run(objects, input, settings).r;

const AMB = ns('a', { 'istio.io/dataplane-mode': 'ambient' });
const CLIENT = pod('a', 'client', '10.0.0.1');
const SERVER = pod('a', 'server', '10.0.0.2', { node: 'n2' });
const SERVER_SVC = svc('a', 'server', '10.96.0.2');
const BASE = [AMB, CLIENT, SERVER, SERVER_SVC];
const CLIENT_ID = 'spiffe://cluster.local/ns/a/sa/client';
const SERVER_ID = 'spiffe://cluster.local/ns/a/sa/server';

describe('parseTarget / parseRequest', () => {
  it('host:port, [IPv6]:port, a trailing dot dropped; port 1..65535', () => {
    expect(parseTarget('server.a:80')).toEqual({ host: 'server.a', port: 80 });
    expect(parseTarget('[fd00::1]:8080')).toEqual({ host: 'fd00::1', port: 8080 });
    expect(parseTarget('example.com.:443')).toEqual({ host: 'example.com', port: 443 });
    expect(parseTarget('server:0')).toBeUndefined();
    expect(parseTarget('server:65536')).toBeUndefined();
    expect(parseTarget('server:65535')).toEqual({ host: 'server', port: 65535 });
    expect(parseTarget('server')).toBeUndefined();
    expect(parseTarget('fd00::1:80')).toBeUndefined();
  });
  it('TCP (any case) is not HTTP; otherwise METHOD PATH, defaulting to GET /', () => {
    expect(parseRequest({ from: '', to: '', request: 'tcp' })).toMatchObject({ http: false });
    expect(parseRequest({ from: '', to: '', request: 'post /orders' })).toMatchObject({ http: true, method: 'POST', path: '/orders', text: 'POST /orders' });
    expect(parseRequest({ from: '', to: '' })).toMatchObject({ http: true, method: 'GET', path: '/' });
    expect(parseRequest({ from: '', to: '', request: 'GET /x', method: 'delete', path: '/y', headers: { a: 'b' } })).toMatchObject({
      method: 'DELETE',
      path: '/y',
      headers: { a: 'b' },
    });
  });
});

describe('source errors', () => {
  it('an unknown source, an unreadable destination, a pending source are errors', () => {
    expect(trace(BASE, { from: 'a/nobody', to: 'server:80' })).toMatchObject({ result: 'ERROR' });
    expect(trace(BASE, { from: 'a/nobody', to: 'server:80' }).source).toBeUndefined();
    expect(trace(BASE, { from: 'a/client', to: 'server' })).toMatchObject({ result: 'ERROR' });
    const pending = trace([...BASE, pod('a', 'new', '')], { from: 'a/new', to: 'server:80' });
    expect(pending.result).toBe('ERROR');
    expect(pending.error).toContain('pending');
  });

  it('a controller name resolves to its first pod by name (resolveSourcePod)', () => {
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'a' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app' }] } },
      },
    };
    const { r, model } = run([...BASE, dep], { from: 'a/web', to: 'server:80' });
    const pods = model.cluster.pods
      .filter((p) => p.resource.derivedFrom?.name === 'web')
      .map((p) => p.key)
      .sort();
    expect(pods.length).toBe(2);
    expect(resolveSourcePod(model, 'a/web')?.key).toBe(pods[0]);
    expect(r.source?.pod).toBe(pods[0]);
    expect(r.notes.some((n) => n.includes(pods[0]!))).toBe(true);
    expect(resolveSourcePod(model, 'web')).toBeUndefined();
    expect(resolveSourcePod(model, 'b/web')).toBeUndefined();
  });
});

describe('ambient → ambient through a Service (spec §4.3 steps 1-4)', () => {
  it('DNS at ztunnel :15053, outbound :15001, HBONE :15008 with both identities, L4 at the destination ztunnel', () => {
    const r = trace(BASE, { from: 'a/client', to: 'server:80', request: 'TCP' });
    expect(r.result).toBe('ALLOW');
    expect(r.source).toEqual({ pod: 'a/client', class: 'ambient' });
    expect(r.waypointUsed).toBeNull();
    const dns = r.hops.find((h) => h.component === 'dns')!;
    expect(dns).toMatchObject({ actor: 'ztunnel@n1', port: 15053, protocol: 'DNS' });
    expect(r.hops.find((h) => h.component === 'ztunnel-outbound')).toMatchObject({ actor: 'ztunnel@n1', port: 15001 });
    expect(r.hops.find((h) => h.component === 'ztunnel-outbound' && h.protocol === 'HBONE mTLS')).toMatchObject({
      port: 15008,
      identity: CLIENT_ID,
      peerIdentity: SERVER_ID,
    });
    expect(r.hops.find((h) => h.component === 'ztunnel-inbound' && h.protocol === 'HBONE mTLS')).toMatchObject({
      actor: 'ztunnel@n2',
      port: 15008,
      identity: SERVER_ID,
      peerIdentity: CLIENT_ID,
    });
    expect(r.enforcement).toEqual([
      { point: 'ztunnel@n2 inbound', listener: 15008, layer: 'L4', sourceIdentity: CLIENT_ID, policies: [], decision: 'ALLOW', why: expect.any(String) },
    ]);
    expect(r.hops.at(-1)).toMatchObject({ component: 'app', pod: 'a/server', port: 8080 });
  });

  it('accepts svc, svc.ns, svc.ns.svc and the FQDN, case-insensitively', () => {
    for (const host of ['server', 'server.a', 'server.a.svc', 'server.a.svc.cluster.local', 'SERVER.A.svc.cluster.local']) {
      const r = trace(BASE, { from: 'a/client', to: `${host}:80` });
      expect(r.result).toBe('ALLOW');
      expect(r.hops.at(-1)?.pod).toBe('a/server');
    }
  });

  it('an unknown cluster-local name is NXDOMAIN (an error)', () => {
    for (const host of ['nope', 'nope.a.svc', 'nope.a.svc.cluster.local']) expect(trace(BASE, { from: 'a/client', to: `${host}:80` }).result).toBe('ERROR');
  });

  it('a DENY policy on the server is enforced by the destination ztunnel on :15008 (ExplicitlyDenied)', () => {
    const r = trace(
      [
        ...BASE,
        ap('deny', 'a', {
          selector: { matchLabels: { app: 'server' } },
          action: 'DENY',
          rules: [{ from: [{ source: { principals: ['cluster.local/ns/a/sa/client'] } }] }],
        }),
      ],
      { from: 'a/client', to: 'server:80' },
    );
    expect(r.result).toBe('DENY');
    expect(r.deniedAt).toMatchObject({ point: 'ztunnel@n2 inbound', listener: 15008, layer: 'L4', policy: 'a/deny', scope: 'WorkloadSelector' });
    const h = r.hops.find((x) => x.decision === 'DENY')!;
    expect(h.component).toBe('ztunnel-inbound');
    expect(h.policies?.[0]).toMatchObject({ key: 'a/deny', action: 'Deny', matched: true, scope: 'WorkloadSelector' });
    expect(h.policies?.[0]?.resourceKey).toBeDefined();
  });

  it('each policy check links to its own AuthorizationPolicy', () => {
    const { r, view } = run(
      [
        ...BASE,
        ap('allow-all', 'a', { rules: [{}] }),
        ap('deny-client', 'a', { action: 'DENY', rules: [{ from: [{ source: { principals: ['cluster.local/ns/a/sa/client'] } }] }] }),
      ],
      { from: 'a/client', to: 'server:80' },
    );
    const checks = r.hops.find((h) => h.decision === 'DENY')!.policies!;
    expect(checks.find((c) => c.key === 'a/deny-client')?.resourceKey).toBe(view.find(KINDS.AuthorizationPolicy, 'a', 'deny-client')?.key);
    expect(checks.find((c) => c.key === 'a/allow-all')?.resourceKey).toBe(view.find(KINDS.AuthorizationPolicy, 'a', 'allow-all')?.key);
  });

  it('a namespace-wide DENY names its scope; a global one too', () => {
    const r = trace([...BASE, ap('deny-ns', 'a', { action: 'DENY', rules: [{}] })], { from: 'a/client', to: 'server:80' });
    expect(r.deniedAt).toMatchObject({ policy: 'a/deny-ns', scope: 'Namespace' });
    expect(r.deniedAt?.text).toContain('Namespace');
    const g = trace([...BASE, ns('istio-system'), ap('deny-g', 'istio-system', { action: 'DENY', rules: [{}] })], { from: 'a/client', to: 'server:80' });
    expect(g.deniedAt).toMatchObject({ policy: 'istio-system/deny-g', scope: 'Global' });
  });

  it('an ALLOW policy that does not match denies (NotAllowed) without naming a policy', () => {
    const r = trace(
      [...BASE, ap('allow-other', 'a', { selector: { matchLabels: { app: 'server' } }, rules: [{ from: [{ source: { namespaces: ['other'] } }] }] })],
      { from: 'a/client', to: 'server:80' },
    );
    expect(r.result).toBe('DENY');
    expect(r.deniedAt?.policy).toBeUndefined();
  });

  it('ports in L4 policy are the target port: a DENY on 8080 (target) matches, one on 80 (service port) does not', () => {
    const deny = (port: string) =>
      ap('deny', 'a', { selector: { matchLabels: { app: 'server' } }, action: 'DENY', rules: [{ to: [{ operation: { ports: [port] } }] }] });
    expect(trace([...BASE, deny('8080')], { from: 'a/client', to: 'server:80' }).result).toBe('DENY');
    expect(trace([...BASE, deny('80')], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
  });

  it('a port the Service does not declare, or a Service without endpoints: ztunnel refuses (error)', () => {
    expect(trace(BASE, { from: 'a/client', to: 'server:81' }).result).toBe('ERROR');
    expect(trace([AMB, CLIENT, svc('a', 'empty', '10.96.0.9')], { from: 'a/client', to: 'empty:80' }).result).toBe('ERROR');
  });

  it('DNS capture off: cluster DNS answers the ClusterIP, the rest is unchanged', () => {
    const r = trace([AMB, pod('a', 'client', '10.0.0.1', { annotations: { 'ambient.istio.io/dns-capture': 'false' } }), SERVER, SERVER_SVC], {
      from: 'a/client',
      to: 'server:80',
    });
    expect(r.hops[0]).toMatchObject({ component: 'dns', actor: 'cluster DNS', protocol: 'DNS' });
    expect(r.hops[0]?.port).toBeUndefined();
    expect(r.result).toBe('ALLOW');
  });

  it('a headless Service: DNS answers pod IPs, and the traffic is addressed to the pod (spec §3.4: no Service port mapping, no Service waypoint)', () => {
    const headless = [
      ns('a', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' }),
      CLIENT,
      SERVER,
      svc('a', 'server', 'None'),
      waypoint('a'),
    ];
    const r = trace(headless, { from: 'a/client', to: 'server:8080' });
    expect(r.result).toBe('ALLOW');
    expect(r.waypointUsed).toBeNull();
    expect(r.hops.find((h) => h.component === 'ztunnel-inbound')).toMatchObject({ pod: 'a/server', port: 15008 });
    // The port dialed is the port at the pod: an L4 DENY on 8080 matches when the client dials 8080.
    const deny = ap('deny', 'a', { selector: { matchLabels: { app: 'server' } }, action: 'DENY', rules: [{ to: [{ operation: { ports: ['8080'] } }] }] });
    expect(trace([...headless, deny], { from: 'a/client', to: 'server:8080' }).result).toBe('DENY');
    // Dialling the Service port 80 reaches the pod IP on port 80 (no targetPort mapping for a headless name).
    expect(trace([...headless, deny], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
    // Without DNS capture, cluster DNS answers the same pod IPs.
    const noDns = [
      ns('a', { 'istio.io/dataplane-mode': 'ambient' }),
      pod('a', 'client', '10.0.0.1', { annotations: { 'ambient.istio.io/dns-capture': 'false' } }),
      SERVER,
      svc('a', 'server', 'None'),
    ];
    expect(trace(noDns, { from: 'a/client', to: 'server:8080' }).result).toBe('ALLOW');
  });

  it('the endpoint asked for is used when the Service has several', () => {
    const r = trace([...BASE, pod('a', 'server2', '10.0.0.3', { labels: { app: 'server' }, node: 'n3' })], {
      from: 'a/client',
      to: 'server:80',
      endpoint: 'a/server2',
    });
    expect(r.hops.at(-1)?.pod).toBe('a/server2');
    expect(
      trace([...BASE, pod('a', 'server2', '10.0.0.3', { labels: { app: 'server' }, node: 'n3' })], { from: 'a/client', to: 'server:80' }).hops.at(-1)?.pod,
    ).toBe('a/server');
  });
});

describe('addressed by pod IP (outbound.rs: a workload IP; no service waypoint)', () => {
  it('HBONE to an ambient pod; plain TCP to an uncaptured one; unknown IPs pass through', () => {
    const r = trace(BASE, { from: 'a/client', to: '10.0.0.2:8080' });
    expect(r.result).toBe('ALLOW');
    expect(r.hops.find((h) => h.component === 'ztunnel-outbound' && h.port === 15008)).toMatchObject({
      protocol: 'HBONE mTLS',
      identity: CLIENT_ID,
      peerIdentity: SERVER_ID,
    });
    const plain = trace([...BASE, ns('p'), pod('p', 'legacy', '10.0.5.5')], { from: 'a/client', to: '10.0.5.5:8080' });
    expect(plain.result).toBe('ALLOW');
    expect(plain.hops.find((h) => h.component === 'ztunnel-outbound' && h.protocol === 'plaintext')).toMatchObject({ port: 8080 });
    expect(plain.hops.at(-1)).toMatchObject({ component: 'app', pod: 'p/legacy', protocol: 'plaintext' });
    expect(plain.enforcement).toEqual([]);
    const ext = trace(BASE, { from: 'a/client', to: '192.0.2.1:443' });
    expect(ext.result).toBe('ALLOW');
    expect(ext.hops.at(-1)).toMatchObject({ component: 'external', port: 443, protocol: 'plaintext' });
    expect(ext.enforcement).toEqual([]);
  });

  it('the Service waypoint is not consulted for a pod IP; a workload waypoint (waypoint-for all) is', () => {
    const withSvcWp = [ns('a', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' }), CLIENT, SERVER, SERVER_SVC, waypoint('a')];
    expect(trace(withSvcWp, { from: 'a/client', to: '10.0.0.2:8080' }).waypointUsed).toBeNull();
    expect(trace(withSvcWp, { from: 'a/client', to: 'server:80' }).waypointUsed).toBe('a/waypoint');
    const all = [
      ns('a', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' }),
      CLIENT,
      SERVER,
      SERVER_SVC,
      waypoint('a', 'waypoint', 'all'),
    ];
    expect(trace(all, { from: 'a/client', to: '10.0.0.2:8080' }).waypointUsed).toBe('a/waypoint');
  });
});

describe('through a waypoint (spec §3.5, §3.6, §4.4)', () => {
  const WP = [ns('a', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' }), CLIENT, SERVER, SERVER_SVC, waypoint('a')];
  const WP_ID = 'spiffe://cluster.local/ns/a/sa/waypoint';

  it('client ztunnel → waypoint (client identity) → destination ztunnel (waypoint identity)', () => {
    const r = trace(WP, { from: 'a/client', to: 'server:80' });
    expect(r.result).toBe('ALLOW');
    expect(r.waypointUsed).toBe('a/waypoint');
    const toWp = r.hops.find((h) => h.component === 'waypoint' && h.actor === 'ztunnel@n1')!;
    expect(toWp).toMatchObject({ waypoint: 'a/waypoint', port: 15008, protocol: 'HBONE mTLS', identity: CLIENT_ID, peerIdentity: WP_ID });
    const atWp = r.hops.filter((h) => h.component === 'waypoint' && h.actor === 'waypoint a/waypoint');
    expect(atWp[0]).toMatchObject({ identity: WP_ID, peerIdentity: CLIENT_ID });
    expect(r.enforcement.map((e) => [e.point, e.layer, e.sourceIdentity])).toEqual([
      ['waypoint a/waypoint', 'L7', CLIENT_ID],
      ['ztunnel@n2 inbound', 'L4', WP_ID],
    ]);
    expect(r.hops.find((h) => h.component === 'ztunnel-inbound' && h.port === 15008)).toMatchObject({ peerIdentity: WP_ID });
  });

  it('TCP requests are checked at L4 by the waypoint', () => {
    expect(trace(WP, { from: 'a/client', to: 'server:80', request: 'TCP' }).enforcement[0]?.layer).toBe('L4');
  });

  it('applies a targetRefs Gateway policy: an HTTP DENY on a path is a 403 at the waypoint (L7)', () => {
    const deny = ap('deny-admin', 'a', {
      targetRefs: [{ kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'waypoint' }],
      action: 'DENY',
      rules: [{ to: [{ operation: { paths: ['/admin'] } }] }],
    });
    const r = trace([...WP, deny], { from: 'a/client', to: 'server:80', request: 'GET /admin' });
    expect(r.result).toBe('DENY');
    expect(r.deniedAt).toMatchObject({ point: 'waypoint a/waypoint', layer: 'L7', policy: 'a/deny-admin' });
    expect(r.clientSees).toContain('403');
    expect(trace([...WP, deny], { from: 'a/client', to: 'server:80', request: 'GET /' }).result).toBe('ALLOW');
  });

  it('applies a targetRefs Service policy only for that Service, and a GatewayClass policy from the root namespace', () => {
    const bySvc = ap('deny-svc', 'a', { targetRefs: [{ kind: 'Service', group: '', name: 'server' }], action: 'DENY', rules: [{}] });
    expect(trace([...WP, bySvc], { from: 'a/client', to: 'server:80' }).deniedAt?.policy).toBe('a/deny-svc');
    const otherSvc = ap('deny-other', 'a', { targetRefs: [{ kind: 'Service', group: '', name: 'other' }], action: 'DENY', rules: [{}] });
    expect(trace([...WP, otherSvc], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
    const byClass = ap('deny-class', 'istio-system', {
      targetRefs: [{ kind: 'GatewayClass', group: 'gateway.networking.k8s.io', name: 'istio-waypoint' }],
      action: 'DENY',
      rules: [{}],
    });
    expect(trace([...WP, ns('istio-system'), byClass], { from: 'a/client', to: 'server:80' }).deniedAt?.policy).toBe('istio-system/deny-class');
    const classElsewhere = ap('deny-class', 'a', {
      targetRefs: [{ kind: 'GatewayClass', group: 'gateway.networking.k8s.io', name: 'istio-waypoint' }],
      action: 'DENY',
      rules: [{}],
    });
    expect(trace([...WP, classElsewhere], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
    const otherGw = ap('deny-gw', 'a', { targetRefs: [{ kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'other' }], action: 'DENY', rules: [{}] });
    expect(trace([...WP, otherGw], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
  });

  it('applies a targetRefs ServiceEntry policy for a ServiceEntry bound to the waypoint', () => {
    const se = {
      apiVersion: 'networking.istio.io/v1',
      kind: 'ServiceEntry',
      metadata: { name: 'ext', namespace: 'a', labels: { 'istio.io/use-waypoint': 'waypoint' } },
      spec: { hosts: ['ext.example.com'], addresses: ['240.2.0.1'], ports: [{ number: 80, name: 'http', protocol: 'HTTP' }], resolution: 'DNS' },
    };
    const deny = (name: string) =>
      ap('deny-se', 'a', { targetRefs: [{ kind: 'ServiceEntry', group: 'networking.istio.io', name }], action: 'DENY', rules: [{}] });
    const r = trace([...WP, se, deny('ext')], { from: 'a/client', to: 'ext.example.com:80' });
    expect(r.waypointUsed).toBe('a/waypoint');
    expect(r.deniedAt).toMatchObject({ point: 'waypoint a/waypoint', policy: 'a/deny-se' });
    expect(trace([...WP, se, deny('other')], { from: 'a/client', to: 'ext.example.com:80' }).result).toBe('ALLOW');
  });

  it('targetRefs need the Gateway API group for Gateway/GatewayClass; the legacy singular targetRef also attaches', () => {
    const wrongGroup = ap('deny-wg', 'a', { targetRefs: [{ kind: 'Gateway', group: 'example.com', name: 'waypoint' }], action: 'DENY', rules: [{}] });
    expect(trace([...WP, wrongGroup], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
    const wrongClassGroup = ap('deny-cg', 'istio-system', {
      targetRefs: [{ kind: 'GatewayClass', group: 'example.com', name: 'istio-waypoint' }],
      action: 'DENY',
      rules: [{}],
    });
    expect(trace([...WP, ns('istio-system'), wrongClassGroup], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
    const legacy = ap('deny-legacy', 'a', {
      targetRef: { kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'waypoint' },
      action: 'DENY',
      rules: [{}],
    });
    expect(trace([...WP, legacy], { from: 'a/client', to: 'server:80' }).deniedAt?.policy).toBe('a/deny-legacy');
  });

  it('the chain follows the Service port protocol: explicit TCP is a TCP chain (L4, HTTP rules stripped for DENY); an unnamed port is sniffed', () => {
    const wpWith = (ports: object[]) => [
      ns('a', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' }),
      CLIENT,
      SERVER,
      svc('a', 'server', '10.96.0.2', { ports }),
      waypoint('a'),
    ];
    const denyAdmin = ap('deny-admin', 'a', {
      targetRefs: [{ kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'waypoint' }],
      action: 'DENY',
      rules: [{ to: [{ operation: { paths: ['/admin'] } }] }],
    });
    const tcp = trace([...wpWith([{ name: 'tcp-app', port: 80, targetPort: 8080 }]), denyAdmin], { from: 'a/client', to: 'server:80', request: 'GET /' });
    expect(tcp.enforcement[0]?.layer).toBe('L4');
    expect(tcp.result).toBe('DENY');
    const sniffed = trace([...wpWith([{ port: 80, targetPort: 8080 }]), denyAdmin], { from: 'a/client', to: 'server:80', request: 'GET /' });
    expect(sniffed.enforcement[0]?.layer).toBe('L7');
    expect(sniffed.result).toBe('ALLOW');
  });

  it("a targetRef must name the Service's own kind: kind ServiceEntry with a Service's name does not attach", () => {
    const wrongKind = ap('deny-wk', 'a', { targetRefs: [{ kind: 'ServiceEntry', group: 'networking.istio.io', name: 'server' }], action: 'DENY', rules: [{}] });
    expect(trace([...WP, wrongKind], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
  });

  it('selector policies are not applied at the waypoint; the destination ztunnel sees the waypoint, not the client', () => {
    // ALLOW only the client's principal at the server: with a waypoint in the path ztunnel sees the waypoint → denied there.
    const allowClient = ap('allow-client', 'a', {
      selector: { matchLabels: { app: 'server' } },
      rules: [{ from: [{ source: { principals: ['cluster.local/ns/a/sa/client'] } }] }],
    });
    const r = trace([...WP, allowClient], { from: 'a/client', to: 'server:80' });
    expect(r.result).toBe('DENY');
    expect(r.deniedAt).toMatchObject({ point: 'ztunnel@n2 inbound', layer: 'L4', listener: 15008 });
    expect(r.enforcement[0]).toMatchObject({ point: 'waypoint a/waypoint', decision: 'ALLOW', policies: [] });
    const allowWp = ap('allow-wp', 'a', {
      selector: { matchLabels: { app: 'server' } },
      rules: [{ from: [{ source: { principals: ['cluster.local/ns/a/sa/waypoint'] } }] }],
    });
    expect(trace([...WP, allowWp], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
  });

  it('a waypoint that is not ready binds nothing: traffic goes direct and its policies are not applied (spec §3.4)', () => {
    const deny = ap('deny-all', 'a', { targetRefs: [{ kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'waypoint' }], action: 'DENY', rules: [{}] });
    const r = trace([...WP, deny], { from: 'a/client', to: 'server:80' }, { notReadyWaypoints: ['a/waypoint'] });
    expect(r.waypointUsed).toBeNull();
    expect(r.result).toBe('ALLOW');
    expect(r.enforcement.map((e) => e.point)).toEqual(['ztunnel@n2 inbound']);
    expect(trace([...WP, deny], { from: 'a/client', to: 'server:80' }).result).toBe('DENY');
  });
});

describe('uncaptured client → ambient server (spec §4.6: plaintext to :15006, no identity, waypoint skipped)', () => {
  const PLAIN = [...BASE, ns('p'), pod('p', 'legacy', '10.0.5.5')];

  it('kube-proxy DNAT, ztunnel inbound plaintext :15006 with no peer identity', () => {
    const r = trace(PLAIN, { from: 'p/legacy', to: 'server.a:80' });
    expect(r.result).toBe('ALLOW');
    expect(r.source?.class).toBe('uncaptured');
    expect(r.hops[0]).toMatchObject({ component: 'dns', actor: 'cluster DNS' });
    expect(r.hops.find((h) => h.component === 'kube-proxy')).toMatchObject({ port: 8080, protocol: 'plaintext' });
    expect(r.hops.find((h) => h.component === 'ztunnel-inbound')).toMatchObject({ port: 15006, protocol: 'plaintext', peerIdentity: null });
    expect(r.enforcement[0]).toMatchObject({ point: 'ztunnel@n2 inbound plaintext :15006', listener: 15006, sourceIdentity: null });
  });

  it('STRICT PeerAuthentication denies it through the static strict policy', () => {
    const r = trace([...PLAIN, ns('istio-system'), peerAuthn('default', 'istio-system', 'STRICT')], { from: 'p/legacy', to: 'server.a:80' });
    expect(r.result).toBe('DENY');
    expect(r.deniedAt).toMatchObject({ listener: 15006, layer: 'L4', policy: 'istio-system/istio_converted_static_strict' });
    // Ambient → ambient is HBONE with an identity: STRICT does not block it.
    expect(trace([...PLAIN, ns('istio-system'), peerAuthn('default', 'istio-system', 'STRICT')], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
  });

  it('the converted PeerAuthentication policy is reported with its PeerAuthentication as the resource', () => {
    const wl = {
      apiVersion: 'security.istio.io/v1',
      kind: 'PeerAuthentication',
      metadata: { name: 'server-ports', namespace: 'a' },
      spec: { selector: { matchLabels: { app: 'server' } }, mtls: { mode: 'STRICT' }, portLevelMtls: { '9090': { mode: 'PERMISSIVE' } } },
    };
    const r = trace([...PLAIN, wl], { from: 'p/legacy', to: 'server.a:80' });
    expect(r.result).toBe('DENY');
    expect(r.deniedAt?.policy).toBe('a/converted_peer_authentication_server-ports');
    const check = r.hops.find((h) => h.decision === 'DENY')!.policies!.find((c) => c.key === 'a/converted_peer_authentication_server-ports')!;
    expect(check.resourceKey).toMatch(/PeerAuthentication.*a\/server-ports$/);
  });

  it('bypass-inbound-capture: plaintext reaches the app unchecked, even under STRICT', () => {
    const objs = [
      AMB,
      CLIENT,
      pod('a', 'server', '10.0.0.2', { annotations: { 'ambient.istio.io/bypass-inbound-capture': 'true' } }),
      SERVER_SVC,
      ns('p'),
      pod('p', 'legacy', '10.0.5.5'),
      ns('istio-system'),
      peerAuthn('default', 'istio-system', 'STRICT'),
    ];
    const r = trace(objs, { from: 'p/legacy', to: 'server.a:80' });
    expect(r.result).toBe('ALLOW');
    expect(r.enforcement).toEqual([]);
    expect(r.hops.at(-1)).toMatchObject({ component: 'app', protocol: 'plaintext' });
  });

  it('the Service waypoint is skipped; a pod IP is reached directly; an unknown IP is outside the mesh', () => {
    const wp = [
      ns('a', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' }),
      CLIENT,
      SERVER,
      SERVER_SVC,
      waypoint('a'),
      ns('p'),
      pod('p', 'legacy', '10.0.5.5'),
    ];
    expect(trace(wp, { from: 'p/legacy', to: 'server.a:80' }).waypointUsed).toBeNull();
    const byIp = trace(PLAIN, { from: 'p/legacy', to: '10.0.0.2:8080' });
    expect(byIp.hops[0]).toMatchObject({ component: 'client', protocol: 'plaintext', port: 8080 });
    expect(byIp.enforcement[0]?.listener).toBe(15006);
    const out = trace(PLAIN, { from: 'p/legacy', to: '192.0.2.1:80' });
    expect(out.result).toBe('ALLOW');
    expect(out.hops.at(-1)?.component).toBe('external');
    expect(trace(PLAIN, { from: 'p/legacy', to: 'server.a:81' }).result).toBe('ERROR');
  });
});

describe('sidecars (spec §4.3 sidecar source, §4.6)', () => {
  const INJ = ns('s', { 'istio-injection': 'enabled' });
  const SC = [...BASE, INJ, pod('s', 'sc', '10.0.3.1'), pod('s', 'web', '10.0.3.2', { node: 'n3' }), svc('s', 'web', '10.96.3.2')];
  const SC_ID = 'spiffe://cluster.local/ns/s/sa/sc';

  it('sidecar (HBONE) → ambient: HBONE to :15008 with the sidecar identity, L4 at the destination ztunnel', () => {
    const r = trace(SC, { from: 's/sc', to: 'server.a:80' });
    expect(r.source?.class).toBe('sidecar');
    expect(r.hops.find((h) => h.component === 'sidecar-outbound' && h.port === 15008)).toMatchObject({
      protocol: 'HBONE mTLS',
      identity: SC_ID,
      peerIdentity: SERVER_ID,
    });
    expect(r.enforcement[0]).toMatchObject({ point: 'ztunnel@n2 inbound', listener: 15008, sourceIdentity: SC_ID });
  });

  it('a sidecar without HBONE sends plaintext to an ambient pod (no identity at :15006)', () => {
    const r = trace(SC, { from: 's/sc', to: 'server.a:80' }, { sidecarHbone: false });
    expect(r.hops.find((h) => h.component === 'sidecar-outbound' && h.protocol === 'plaintext')).toMatchObject({ port: 8080 });
    expect(r.enforcement[0]).toMatchObject({ listener: 15006, sourceIdentity: null });
  });

  it('sidecar → sidecar: HBONE when both have the tunnel label, Istio mTLS without it', () => {
    const hb = trace(SC, { from: 's/sc', to: 'web:80' });
    expect(hb.hops.find((h) => h.component === 'sidecar-inbound')).toMatchObject({ port: 15008, protocol: 'HBONE mTLS', peerIdentity: SC_ID });
    const mtls = trace(SC, { from: 's/sc', to: 'web:80' }, { sidecarHbone: false });
    expect(mtls.hops.find((h) => h.component === 'sidecar-outbound' && h.protocol !== undefined)?.protocol).toBe('Istio mTLS');
    expect(mtls.hops.find((h) => h.component === 'sidecar-inbound')).toMatchObject({ port: 8080, protocol: 'Istio mTLS', peerIdentity: SC_ID });
    expect(mtls.enforcement[0]).toMatchObject({ point: 'sidecar s/web', layer: 'L7' });
  });

  it('a sidecar never uses the Service waypoint', () => {
    const objs = [
      ns('a', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' }),
      CLIENT,
      SERVER,
      SERVER_SVC,
      waypoint('a'),
      INJ,
      pod('s', 'sc', '10.0.3.1'),
    ];
    const r = trace(objs, { from: 's/sc', to: 'server.a:80' });
    expect(r.waypointUsed).toBeNull();
    expect(r.enforcement.map((e) => e.point)).toEqual(['ztunnel@n2 inbound']);
  });

  it('ambient → sidecar (tunnel label → HBONE): the sidecar applies its selector policies at L7 with the client identity', () => {
    const deny = ap('deny-post', 's', {
      selector: { matchLabels: { app: 'web' } },
      action: 'DENY',
      rules: [{ from: [{ source: { principals: ['cluster.local/ns/a/sa/client'] } }], to: [{ operation: { methods: ['POST'] } }] }],
    });
    const post = trace([...SC, deny], { from: 'a/client', to: 'web.s:80', request: 'POST /' });
    expect(post.result).toBe('DENY');
    expect(post.deniedAt).toMatchObject({ point: 'sidecar s/web', layer: 'L7', policy: 's/deny-post' });
    expect(post.clientSees).toContain('403');
    expect(post.hops.find((h) => h.component === 'sidecar-inbound')).toMatchObject({ port: 15008, protocol: 'HBONE mTLS', peerIdentity: CLIENT_ID });
    expect(trace([...SC, deny], { from: 'a/client', to: 'web.s:80', request: 'GET /' }).result).toBe('ALLOW');
    // Root-namespace selector-less policies apply too; other namespaces' do not; targetRefs ones never.
    expect(
      trace([...SC, ns('istio-system'), ap('deny-mesh', 'istio-system', { action: 'DENY', rules: [{}] })], { from: 'a/client', to: 'web.s:80' }).deniedAt
        ?.policy,
    ).toBe('istio-system/deny-mesh');
    expect(trace([...SC, ap('deny-a', 'a', { action: 'DENY', rules: [{}] })], { from: 's/sc', to: 'web:80' }).result).toBe('ALLOW');
    expect(
      trace([...SC, ap('deny-tr', 's', { targetRefs: [{ kind: 'Service', group: '', name: 'web' }], action: 'DENY', rules: [{}] })], {
        from: 'a/client',
        to: 'web.s:80',
      }).result,
    ).toBe('ALLOW');
  });

  it('a STRICT sidecar rejects plaintext from an uncaptured client, naming the PeerAuthentication', () => {
    const r = trace([...SC, ns('p'), pod('p', 'legacy', '10.0.5.5'), peerAuthn('default', 's', 'STRICT')], { from: 'p/legacy', to: 'web.s:80' });
    expect(r.deniedAt).toMatchObject({ point: 'sidecar s/web', layer: 'L4', policy: 's/default' });
    const h = r.hops.find((x) => x.decision === 'DENY')!;
    expect(h.policies?.[0]).toMatchObject({ key: 's/default', action: 'STRICT', matched: true });
  });

  it('STRICT only rejects plaintext: Istio mTLS and HBONE from a sidecar are accepted by a STRICT sidecar', () => {
    expect(trace([...SC, peerAuthn('default', 's', 'STRICT')], { from: 's/sc', to: 'web:80' }, { sidecarHbone: false }).result).toBe('ALLOW');
    expect(trace([...SC, peerAuthn('default', 's', 'STRICT')], { from: 's/sc', to: 'web:80' }).result).toBe('ALLOW');
  });

  it('sidecar policies: a selector that does not match the pod does not apply', () => {
    expect(
      trace([...SC, ap('deny-other', 's', { selector: { matchLabels: { app: 'other' } }, action: 'DENY', rules: [{}] })], { from: 's/sc', to: 'web:80' })
        .result,
    ).toBe('ALLOW');
    expect(
      trace([...SC, ap('deny-web', 's', { selector: { matchLabels: { app: 'web' } }, action: 'DENY', rules: [{}] })], { from: 's/sc', to: 'web:80' }).result,
    ).toBe('DENY');
  });

  it('a sidecar receives plaintext from an uncaptured client on the app port (PERMISSIVE)', () => {
    const r = trace([...SC, ns('p'), pod('p', 'legacy', '10.0.5.5')], { from: 'p/legacy', to: 'web.s:80' });
    expect(r.result).toBe('ALLOW');
    expect(r.hops.find((h) => h.component === 'sidecar-inbound')).toMatchObject({ port: 8080, protocol: 'plaintext', peerIdentity: null });
  });

  it('the sidecar evaluates `hosts` against the Service hostname', () => {
    const deny = (host: string) =>
      ap('deny-host', 's', { selector: { matchLabels: { app: 'web' } }, action: 'DENY', rules: [{ to: [{ operation: { hosts: [host] } }] }] });
    expect(trace([...SC, deny('web.s.svc.cluster.local')], { from: 's/sc', to: 'web:80' }).result).toBe('DENY');
    expect(trace([...SC, deny('other.s.svc.cluster.local')], { from: 's/sc', to: 'web:80' }).result).toBe('ALLOW');
  });

  it('a sidecar resolves a ServiceEntry host and sends to its endpoint itself (no external passthrough hop)', () => {
    const se = {
      apiVersion: 'networking.istio.io/v1',
      kind: 'ServiceEntry',
      metadata: { name: 'api', namespace: 's' },
      spec: {
        hosts: ['api.example.com'],
        addresses: ['240.3.0.1'],
        ports: [{ number: 80, name: 'http', protocol: 'HTTP' }],
        resolution: 'STATIC',
        endpoints: [{ address: '203.0.113.7' }],
      },
    };
    const r = trace([...SC, se], { from: 's/sc', to: 'api.example.com:80' });
    expect(r.hops.some((h) => h.component === 'sidecar-outbound')).toBe(true);
    const unknown = trace(SC, { from: 's/sc', to: 'unknown.example.net:443' });
    expect(unknown.hops.at(-1)?.component).toBe('external');
    expect(unknown.hops.some((h) => h.component === 'sidecar-outbound')).toBe(false);
  });

  it('a sidecar to an unknown IP passes through; to a pod IP it sends directly', () => {
    expect(trace(SC, { from: 's/sc', to: '192.0.2.1:80' }).hops.at(-1)?.component).toBe('external');
    const byIp = trace(SC, { from: 's/sc', to: '10.0.0.2:8080' });
    expect(byIp.result).toBe('ALLOW');
    expect(byIp.enforcement[0]?.sourceIdentity).toBe(SC_ID);
    expect(trace(SC, { from: 's/sc', to: 'web:81' }).result).toBe('ERROR');
  });
});

describe('ServiceEntry destinations (spec §4.7)', () => {
  const se = (name: string, spec: object, labels: Record<string, string> = {}) => ({
    apiVersion: 'networking.istio.io/v1',
    kind: 'ServiceEntry',
    metadata: { name, namespace: 'a', labels },
    spec,
  });

  it('DNS resolution without endpoints: ztunnel answers the VIP, then dials the host itself (plain TCP, no policy)', () => {
    const r = trace(
      [
        ...BASE,
        se('api', { hosts: ['api.example.com'], addresses: ['240.1.0.1'], ports: [{ number: 80, name: 'http', protocol: 'HTTP' }], resolution: 'DNS' }),
      ],
      { from: 'a/client', to: 'api.example.com:80' },
    );
    expect(r.result).toBe('ALLOW');
    expect(r.hops[0]).toMatchObject({ component: 'dns', port: 15053 });
    expect(r.hops.some((h) => h.component === 'external' && h.protocol === 'plaintext' && h.port === 80)).toBe(true);
    expect(r.enforcement).toEqual([]);
  });

  it('resolution NONE: PASSTHROUGH to the original address', () => {
    const r = trace([...BASE, se('pt', { hosts: ['pt.example.com'], addresses: ['240.1.0.2'], ports: [{ number: 443, name: 'tls', protocol: 'TLS' }] })], {
      from: 'a/client',
      to: 'pt.example.com:443',
    });
    expect(r.result).toBe('ALLOW');
    expect(r.hops.at(-1)).toMatchObject({ component: 'external', port: 443, protocol: 'plaintext' });
  });

  it('a wildcard host is matched by the DNS proxy', () => {
    const r = trace([...BASE, se('wild', { hosts: ['*.example.org'], addresses: ['240.1.0.3'], ports: [{ number: 443, name: 'tls', protocol: 'TLS' }] })], {
      from: 'a/client',
      to: 'www.example.org:443',
    });
    expect(r.hops[0]).toMatchObject({ component: 'dns', port: 15053 });
    expect(r.result).toBe('ALLOW');
  });

  it('an unknown external name: forwarded upstream and passed through; an uncaptured client goes out directly', () => {
    const r = trace(BASE, { from: 'a/client', to: 'unknown.example.net:443' });
    expect(r.result).toBe('ALLOW');
    expect(r.hops[0]).toMatchObject({ component: 'dns', actor: 'ztunnel@n1', port: 15053 });
    expect(r.hops.at(-1)?.component).toBe('external');
    const plain = trace(
      [
        ...BASE,
        ns('p'),
        pod('p', 'legacy', '10.0.5.5'),
        se('api', { hosts: ['api.example.com'], addresses: ['240.1.0.1'], ports: [{ number: 80, name: 'http' }], resolution: 'DNS' }),
      ],
      { from: 'p/legacy', to: 'api.example.com:80' },
    );
    expect(plain.hops[0]).toMatchObject({ component: 'dns', actor: 'cluster DNS' });
    expect(plain.hops.at(-1)?.component).toBe('external');
    expect(plain.enforcement).toEqual([]);
  });
});

describe('policyResourceKey', () => {
  it('the store key of an AuthorizationPolicy by ns/name, or nothing', () => {
    const { view } = run([...BASE, ap('p', 'a', {})], { from: 'a/client', to: 'server:80' });
    expect(policyResourceKey(view, 'a/p')).toBe(view.find(KINDS.AuthorizationPolicy, 'a', 'p')?.key);
    expect(policyResourceKey(view, 'a/p')).toBeDefined();
    expect(policyResourceKey(view, 'a/missing')).toBeUndefined();
    expect(policyResourceKey(view, 'nonsense')).toBeUndefined();
  });
});
