// Surviving mutants of src/core/ambient/trace.ts that traceFacts.test.ts left
// (reports/mutation/ambient.nofuzz.nostatic-survivors.txt). Expected values:
//  - ztunnel state.rs fetch_waypoint: a waypoint addressed by an IP is the workload at that IP
//    (no Service has it as a VIP), and only a running pod is an upstream.
//  - istiod policyattachment.go: a `GatewayClass` targetRef attaches a root-namespace policy to every
//    waypoint of that class; a reference of another kind in the gateway API group does not.
//  - istio-cni (cni/pkg/iptables): ambient.istio.io/bypass-inbound-capture leaves inbound plaintext
//    unredirected; the HBONE port 15008 is still ztunnel's.
//  - Envoy: an HTTP request always has an :authority, so a `hosts: ["*"]` rule (any non-empty host)
//    matches a request to a Service name or to a pod IP.
//  - Istio protocol selection: a Service port declared TCP gets a TCP proxy chain at the sidecar that
//    receives it (no HTTP attributes, L4), whoever sends it.
//  - ztunnel outbound.rs: a workload without HBONE gets plain TCP; an uncaptured client sends plain TCP;
//    a STRICT PeerAuthentication makes the sidecar refuse plaintext. A sender and its receiver agree
//    on the protocol of the leg between them.
//  - Kubernetes: kube-proxy's endpoints are pods (EndpointSlices); a WorkloadEntry is Istio's only.
//  - The trace's contract (TraceHop docs): each hop names who acts (component), the protocol, and the
//    policies and addresses it lists, one by one.
import { describe, expect, it } from 'vitest';
import type { TraceResult } from '../../src/core/ambient/trace.ts';
import { ap, ns, one, pod, svc, trace } from './traceHelpers.ts';

const waypoint = (namespace: string, name = 'waypoint', o: { waypointFor?: string; ip?: string } = {}) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name, namespace, labels: o.waypointFor ? { 'istio.io/waypoint-for': o.waypointFor } : {} },
  spec: { gatewayClassName: 'istio-waypoint', listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
  ...(o.ip ? { status: { addresses: [{ type: 'IPAddress', value: o.ip }] } } : {}),
});
const strict = (namespace: string) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'PeerAuthentication',
  metadata: { name: 'default', namespace },
  spec: { mtls: { mode: 'STRICT' } },
});
const wpRef = { targetRefs: [{ kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'waypoint' }] };

/** The words of a text: names and addresses listed one by one come out whole. */
const words = (text: string) => text.split(/[\s,;()]+/).filter(Boolean);

const AMB = { 'istio.io/dataplane-mode': 'ambient' };
const WP_NS = { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'waypoint' };
const base = () => [ns('a', AMB), pod('a', 'client', '10.0.0.1'), pod('a', 'server', '10.0.0.2', { node: 'n2' }), svc('a', 'server', '10.96.0.2')];
const withWaypoint = (ports?: object[]) => [
  ns('a', WP_NS),
  pod('a', 'client', '10.0.0.1'),
  pod('a', 'server', '10.0.0.2', { node: 'n2' }),
  svc('a', 'server', '10.96.0.2', ports ? { ports } : {}),
  waypoint('a'),
];
/** A namespace whose pods get a sidecar (injection on). */
const INJ = () => ns('s', { 'istio-injection': 'enabled' });
const TCP_PORT = [{ name: 'tcp', port: 80, targetPort: 8080, protocol: 'TCP' }];

describe('a waypoint addressed by an IP that no Service has (waypointPod)', () => {
  const wpPod = (name: string, ip: string | null, of = 'wp') => pod('a', name, ip, { labels: { 'gateway.networking.k8s.io/gateway-name': of } });
  it('is the running pod of that waypoint at the address', () => {
    const objs = [
      ns('a', { ...AMB, 'istio.io/use-waypoint': 'wp' }),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2'),
      svc('a', 'server', '10.96.0.2'),
      // Another waypoint's pod and a pending pod of ours come first in the files.
      wpPod('aaa-other', '10.0.0.8', 'other'),
      waypoint('a', 'other', { ip: '10.0.0.8' }),
      wpPod('wp-pending', null),
      wpPod('wp-run', '10.0.0.9'),
      waypoint('a', 'wp', { ip: '10.0.0.9' }),
    ];
    const r = trace(objs, { from: 'a/client', to: 'server:80' });
    expect(r.result).toBe('ALLOW');
    expect(r.waypointUsed).toBe('a/wp');
    const toWaypoint = one(r, (h) => h.component === 'waypoint' && h.actor === 'ztunnel@n1');
    expect(toWaypoint.peerIdentity).toBe('spiffe://cluster.local/ns/a/sa/wp-run');
    expect(toWaypoint.text).toContain('10.0.0.9:15008');
    expect(r.hops.filter((h) => h.component === 'waypoint' && h.pod !== undefined).every((h) => h.pod === 'a/wp-run')).toBe(true);
  });
  it('of two running pods of the waypoint, is the one at the address, not the first', () => {
    const objs = [
      ns('a', { ...AMB, 'istio.io/use-waypoint': 'wp' }),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2'),
      svc('a', 'server', '10.96.0.2'),
      wpPod('wp-a', '10.0.0.8'),
      wpPod('wp-b', '10.0.0.9'),
      waypoint('a', 'wp', { ip: '10.0.0.9' }),
    ];
    const r = trace(objs, { from: 'a/client', to: 'server:80' });
    const toWaypoint = one(r, (h) => h.component === 'waypoint' && h.actor === 'ztunnel@n1');
    expect(toWaypoint.text).toContain('10.0.0.9:15008');
    expect(toWaypoint.peerIdentity).toBe('spiffe://cluster.local/ns/a/sa/wp-b');
  });
});

describe('waypoint policies (waypointPolicies)', () => {
  it('a root-namespace targetRef of another kind in the gateway API group is no GatewayClass reference', () => {
    const ref = (kind: string) =>
      ap(`deny-${kind.toLowerCase()}`, 'istio-system', {
        targetRefs: [{ kind, group: 'gateway.networking.k8s.io', name: 'istio-waypoint' }],
        action: 'DENY',
        rules: [{}],
      });
    const objs = [...withWaypoint(), ns('istio-system')];
    expect(trace([...objs, ref('HTTPRoute')], { from: 'a/client', to: 'server:80' }).result).toBe('ALLOW');
    const byClass = trace([...objs, ref('GatewayClass')], { from: 'a/client', to: 'server:80' });
    expect(byClass.result).toBe('DENY');
    expect(byClass.deniedAt?.policy).toBe('istio-system/deny-gatewayclass');
  });

  it('name each policy of the waypoint authorization hop', () => {
    const objs = [...withWaypoint(), ap('p1', 'a', { ...wpRef, rules: [{}] }), ap('p2', 'a', { ...wpRef, rules: [{}] })];
    const hop = one(trace(objs, { from: 'a/client', to: 'server:80' }), (h) => h.component === 'waypoint' && h.decision !== undefined);
    expect(words(hop.text)).toEqual(expect.arrayContaining(['a/p1', 'a/p2']));
  });
});

describe('HBONE at a pod that bypasses inbound capture', () => {
  it('still ends at its ztunnel, which enforces the policies', () => {
    const objs = [
      ns('a', AMB),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2', { node: 'n2', annotations: { 'ambient.istio.io/bypass-inbound-capture': 'true' } }),
      svc('a', 'server', '10.96.0.2'),
      ap('deny', 'a', { action: 'DENY', rules: [{}] }),
    ];
    const r = trace(objs, { from: 'a/client', to: 'server:80' });
    expect(r.result).toBe('DENY');
    expect(r.deniedAt?.point).toBe('ztunnel@n2 inbound');
    expect(r.enforcement.map((e) => e.listener)).toEqual([15008]);
  });
});

describe('the host an Envoy sees (hosts: ["*"] matches any request)', () => {
  const anyHost = (namespace: string, extra: object = {}) => ap('any-host', namespace, { ...extra, rules: [{ to: [{ operation: { hosts: ['*'] } }] }] });
  it('at a sidecar, for a request to a pod IP', () => {
    const objs = [ns('a', AMB), pod('a', 'client', '10.0.0.1'), INJ(), pod('s', 'web', '10.0.3.2'), anyHost('s')];
    const r = trace(objs, { from: 'a/client', to: '10.0.3.2:8080' });
    expect(r.enforcement.map((e) => [e.point, e.decision])).toEqual([['sidecar s/web', 'ALLOW']]);
    expect(r.result).toBe('ALLOW');
  });
  it('at a waypoint, for a request to a Service', () => {
    const r = trace([...withWaypoint(), anyHost('a', wpRef)], { from: 'a/client', to: 'server:80' });
    expect(r.enforcement.find((e) => e.point === 'waypoint a/waypoint')?.decision).toBe('ALLOW');
    expect(r.result).toBe('ALLOW');
  });
  it('at a workload waypoint, for a request to the pod IP', () => {
    const objs = [
      ns('a', AMB),
      pod('a', 'client', '10.0.0.1'),
      pod('a', 'server', '10.0.0.2', { labels: { 'istio.io/use-waypoint': 'waypoint' } }),
      waypoint('a', 'waypoint', { waypointFor: 'workload' }),
      anyHost('a', wpRef),
    ];
    const r = trace(objs, { from: 'a/client', to: '10.0.0.2:8080' });
    expect(r.waypointUsed).toBe('a/waypoint');
    expect(r.enforcement.find((e) => e.point === 'waypoint a/waypoint')?.decision).toBe('ALLOW');
    expect(r.result).toBe('ALLOW');
  });
});

describe('sidecar authorization hop', () => {
  it('names each policy', () => {
    const objs = [
      ns('a', AMB),
      pod('a', 'client', '10.0.0.1'),
      INJ(),
      pod('s', 'web', '10.0.3.2'),
      svc('s', 'web', '10.96.3.2'),
      ap('p1', 's', { rules: [{}] }),
      ap('p2', 's', { rules: [{}] }),
    ];
    const hop = one(trace(objs, { from: 'a/client', to: 'web.s:80' }), (h) => h.component === 'sidecar-inbound' && h.decision !== undefined);
    expect(words(hop.text)).toEqual(expect.arrayContaining(['s/p1', 's/p2']));
  });
});

describe('a waypoint sending to a sidecar endpoint of a TCP Service port', () => {
  const objs = () => [
    ns('a', AMB),
    pod('a', 'client', '10.0.0.1'),
    ns('s', { 'istio-injection': 'enabled', 'istio.io/use-waypoint': 'waypoint' }),
    pod('s', 'web', '10.0.3.2'),
    svc('s', 'web', '10.96.3.2', { ports: TCP_PORT }),
    waypoint('s'),
  ];
  it('over HBONE: the sidecar uses a TCP chain (L4)', () => {
    const r = trace(objs(), { from: 'a/client', to: 'web.s:80' });
    expect(r.waypointUsed).toBe('s/waypoint');
    expect(
      one(
        r,
        (h) =>
          h.component === 'waypoint' &&
          h.pod === undefined &&
          h.protocol !== undefined &&
          h.port === 15008 &&
          h.peerIdentity === 'spiffe://cluster.local/ns/s/sa/web',
      ).protocol,
    ).toBe('HBONE mTLS');
    expect(r.enforcement.find((e) => e.point === 'sidecar s/web')?.layer).toBe('L4');
  });
  it('without HBONE: both ends of the leg agree on its protocol, and a TCP chain (L4)', () => {
    const r = trace(objs(), { from: 'a/client', to: 'web.s:80' }, { sidecarHbone: false });
    const sent = one(r, (h) => h.component === 'waypoint' && h.actor === 'waypoint s/waypoint' && h.port === 8080);
    const received = one(r, (h) => h.component === 'sidecar-inbound' && h.protocol !== undefined);
    expect(received.protocol).toBe(sent.protocol);
    expect(r.enforcement.find((e) => e.point === 'sidecar s/web')?.layer).toBe('L4');
  });
});

describe('plain TCP to a STRICT sidecar is refused', () => {
  const objs = () => [
    ns('a', AMB),
    pod('a', 'client', '10.0.0.1'),
    ns('p'),
    pod('p', 'legacy', '10.0.5.5'),
    INJ(),
    pod('s', 'web', '10.0.3.2'),
    svc('s', 'web', '10.96.3.2'),
    strict('s'),
  ];
  const refused = (r: TraceResult) => {
    expect(r.result).toBe('DENY');
    expect(r.deniedAt?.point).toBe('sidecar s/web');
    expect(r.deniedAt?.policy).toBe('s/default');
    expect(one(r, (h) => h.component === 'sidecar-inbound' && h.protocol !== undefined).protocol).toBe('plaintext');
  };
  it('from ztunnel to a Service endpoint without HBONE', () => refused(trace(objs(), { from: 'a/client', to: 'web.s:80' }, { sidecarHbone: false })));
  it('from ztunnel to the pod IP without HBONE', () => refused(trace(objs(), { from: 'a/client', to: '10.0.3.2:8080' }, { sidecarHbone: false })));
  it('from an uncaptured client to the pod IP', () => refused(trace(objs(), { from: 'p/legacy', to: '10.0.3.2:8080' })));
});

describe('a sidecar without HBONE to an ambient pod that bypasses inbound capture', () => {
  it('sends plaintext, which reaches the app without ztunnel', () => {
    const objs = [
      ns('a', AMB),
      pod('a', 'server', '10.0.0.2', { annotations: { 'ambient.istio.io/bypass-inbound-capture': 'true' } }),
      svc('a', 'server', '10.96.0.2'),
      INJ(),
      pod('s', 'sc', '10.0.3.1'),
      ap('deny', 'a', { action: 'DENY', rules: [{}] }),
    ];
    const r = trace(objs, { from: 's/sc', to: 'server.a:80' }, { sidecarHbone: false });
    expect(r.result).toBe('ALLOW');
    expect(r.hops.some((h) => h.component === 'ztunnel-inbound')).toBe(false);
    expect(r.hops.at(-1)?.component).toBe('app');
    expect(r.hops.at(-1)?.pod).toBe('a/server');
  });
});

describe('name resolution hops', () => {
  it('without capture, cluster DNS is who answers NXDOMAIN', () => {
    const r = trace([ns('p'), pod('p', 'legacy', '10.0.5.5')], { from: 'p/legacy', to: 'nothere:80' });
    expect(r.result).toBe('ERROR');
    expect(r.hops[0]?.actor).toBe('cluster DNS');
    expect(r.hops[0]?.text).toContain('cluster DNS');
  });
  it('a headless Service answers each ready pod IP, with and without capture', () => {
    const objs = [
      ...base(),
      pod('a', 'hl-1', '10.0.0.21', { labels: { app: 'hl' } }),
      pod('a', 'hl-2', '10.0.0.22', { labels: { app: 'hl' } }),
      svc('a', 'hl', 'None'),
    ];
    for (const [settings, actor] of [
      [{}, 'ztunnel@n1'],
      [{ cni: { dnsCapture: false } }, 'cluster DNS'],
    ] as const) {
      const dns = trace(objs, { from: 'a/client', to: 'hl:8080' }, settings).hops[0]!;
      expect(dns.component).toBe('dns');
      expect(dns.actor).toBe(actor);
      expect(words(dns.text)).toEqual(expect.arrayContaining(['10.0.0.21', '10.0.0.22']));
    }
  });
  it('a name ztunnel forwards upstream is still a DNS hop', () => {
    const hop = trace(base(), { from: 'a/client', to: 'www.example.com:443' }).hops[0]!;
    expect(hop.component).toBe('dns');
    expect(hop.port).toBe(15053);
    expect(hop.protocol).toBe('DNS');
  });
});

describe('who acts for a sidecar or a gateway client', () => {
  it('a sidecar picking an endpoint is a sidecar-outbound hop of its sidecar', () => {
    const objs = [...base(), INJ(), pod('s', 'sc', '10.0.3.1')];
    const r = trace(objs, { from: 's/sc', to: 'server.a:80' });
    expect(r.hops.some((h) => h.component === 'gateway')).toBe(false);
    const pick = one(r, (h) => h.component === 'sidecar-outbound' && h.text.includes('EDS'));
    expect(pick.text).toContain('sidecar');
  });
  it('a gateway sending to a pod IP is a gateway hop', () => {
    const objs = [...base(), ns('g'), pod('g', 'gw', '10.0.9.1', { labels: { istio: 'ingressgateway' } })];
    const r = trace(objs, { from: 'g/gw', to: '10.0.0.2:8080' });
    expect(r.source?.class).toBe('gateway');
    expect(r.hops.some((h) => h.component === 'sidecar-outbound')).toBe(false);
    expect(one(r, (h) => h.actor === 'gateway g/gw' && h.text.includes('10.0.0.2:8080')).component).toBe('gateway');
  });
});

describe('WorkloadEntry endpoints', () => {
  const we = (name: string, address: string, labels: Record<string, string>) => ({
    apiVersion: 'networking.istio.io/v1',
    kind: 'WorkloadEntry',
    metadata: { name, namespace: 'a' },
    spec: { address, labels },
  });
  it('kube-proxy has none: an uncaptured client to a Service whose only endpoint is a WorkloadEntry host name is refused', () => {
    const objs = [ns('a'), pod('a', 'client', '10.0.0.1'), svc('a', 'vm', '10.96.0.7'), we('vm-1', 'vm.example.com', { app: 'vm' })];
    const r = trace(objs, { from: 'a/client', to: 'vm:80' });
    expect(r.result).toBe('ERROR');
    expect(r.error).toContain('kube-proxy');
  });
  it('kube-proxy has none with an IP either: EndpointSlices of a selector Service list Pods, never WorkloadEntries', () => {
    const objs = [ns('a'), pod('a', 'client', '10.0.0.1'), svc('a', 'vm', '10.96.0.7'), we('vm-1', '10.0.7.1', { app: 'vm' })];
    const r = trace(objs, { from: 'a/client', to: 'vm:80' });
    expect(r.result).toBe('ERROR');
    expect(r.error).toContain('kube-proxy has no ready endpoint');
    expect(r.hops.some((h) => h.text.includes('10.0.7.1'))).toBe(false);
  });
  it('with a Pod beside the WorkloadEntry, kube-proxy DNATs to the Pod', () => {
    const objs = [ns('a'), pod('a', 'client', '10.0.0.1'), svc('a', 'vm', '10.96.0.7'), we('a-first', '10.0.7.1', { app: 'vm' }), pod('a', 'vm', '10.0.0.9')];
    const r = trace(objs, { from: 'a/client', to: 'vm:80' });
    expect(one(r, (h) => h.component === 'kube-proxy').text).toContain('DNATs to 10.0.0.9:8080');
  });
  it('a gateway tunnels to an HBONE WorkloadEntry, which has no pod: no destination ztunnel', () => {
    const objs = [
      ns('a', AMB),
      svc('a', 'vm', '10.96.0.7'),
      we('vm-1', '10.0.7.1', { app: 'vm', 'networking.istio.io/tunnel': 'http' }),
      ns('g'),
      pod('g', 'gw', '10.0.9.1', { labels: { istio: 'ingressgateway' } }),
    ];
    const r = trace(objs, { from: 'g/gw', to: 'vm.a:80' });
    expect(r.result).toBe('ALLOW');
    expect(one(r, (h) => h.component === 'gateway' && h.protocol === 'HBONE mTLS').text).toContain('10.0.7.1');
    expect(r.hops.at(-1)?.component).toBe('external');
    expect(r.hops.some((h) => h.component === 'ztunnel-inbound')).toBe(false);
  });
});
