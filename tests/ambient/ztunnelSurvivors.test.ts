// Surviving mutants of src/core/ambient/ztunnel.ts (ztunnel's view and `istioctl ztunnel-config`).
// Expected values:
//  - pilot/pkg/serviceregistry/ambient (istio 86c9f01f): workloads.go (Workloads from pods with an IP,
//    uid "Kubernetes//Pod/<ns>/<name>", cluster ID "Kubernetes"; WorkloadEntry and ServiceEntry
//    endpoints: network mode Standard, workload type pod, Healthy; implicit endpoints of a DNS /
//    DNS_ROUND_ROBIN / DYNAMIC_DNS ServiceEntry without endpoints and without workloadSelector, service
//    account "default"), services.go (a Service port's numeric or named targetPort, resolved per pod by
//    TCP container port name (FindPortName); an unset targetPort is the port; ServiceEntry hosts are
//    not headless and keep no unhealthy endpoint policy; a ServiceEntry port of the same name as a
//    selected pod's container port targets it).
//  - pkg/kube/labels CanonicalService (revision "latest" by default); address: an IP or a hostname.
//  - istioctl/pkg/writer/ztunnel/configdump: filters compare case-insensitively (strings.EqualFold),
//    an address filter matches any of a workload's IPs, rows sorted by namespace.name then node,
//    WAYPOINT is the Service owning the waypoint's VIP (NA when none), SERVICE VIP joins the VIPs with
//    ","; Go's text/tabwriter counts runes and leaves the last cell unpadded; certificates: a Leaf and
//    a Root row per identity (serials and dates not simulated: "—").
//  - ztunnel cert_fetcher.rs: a node's ztunnel holds certificates only for its HBONE pods.
import { describe, expect, it } from 'vitest';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import type { AmbientSettings } from '../../src/core/ambient/settings.ts';
import { CLUSTER_ID, certificatesTable, nodeView, servicesTable, tabwrite, workloadsTable } from '../../src/core/ambient/ztunnel.ts';

const ns = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const pod = (
  namespace: string,
  name: string,
  o: {
    labels?: Record<string, string>;
    ip?: string | null;
    ips?: string[];
    node?: string;
    sa?: string;
    ports?: Array<{ name?: string; containerPort: number; protocol?: string }>;
  } = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { app: name, ...o.labels } },
  spec: {
    nodeName: o.node ?? 'n1',
    serviceAccountName: o.sa ?? name,
    containers: [{ name: 'app', image: 'app', ports: o.ports ?? [{ containerPort: 8080 }] }],
  },
  status:
    o.ip === null
      ? { phase: 'Pending' }
      : {
          phase: 'Running',
          podIP: o.ips?.[0] ?? o.ip ?? '10.0.0.1',
          podIPs: (o.ips ?? [o.ip ?? '10.0.0.1']).map((ip) => ({ ip })),
          conditions: [{ type: 'Ready', status: 'True' }],
        },
});
const svc = (namespace: string, name: string, spec: object = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace },
  spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080 }], ...spec },
});
const se = (name: string, spec: object, namespace = 'a') => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'ServiceEntry',
  metadata: { name, namespace },
  spec,
});
const we = (name: string, spec: object) => ({ apiVersion: 'networking.istio.io/v1', kind: 'WorkloadEntry', metadata: { name, namespace: 'a' }, spec });
function model(objects: object[], settings: AmbientSettings = {}) {
  const { view, problems } = loadMesh([{ path: 'm.yaml', text: objects.map((o) => JSON.stringify(o)).join('\n---\n') }]);
  expect(problems).toEqual([]);
  return buildAmbientModel(view, settings);
}
const AMB = ns('a', { 'istio.io/dataplane-mode': 'ambient' });

describe('pod workloads', () => {
  it('uid and cluster ID "Kubernetes"; canonical revision "latest"; pending pods are no workload', () => {
    expect(CLUSTER_ID).toBe('Kubernetes');
    const m = model([ns('a'), pod('a', 'x'), pod('a', 'wait', { ip: null })]);
    expect(m.ztunnel.workloads.map((w) => w.json.name)).toEqual(['x']);
    expect(m.ztunnel.workloads[0]!.json).toMatchObject({
      uid: 'Kubernetes//Pod/a/x',
      clusterId: 'Kubernetes',
      canonicalName: 'x',
      canonicalRevision: 'latest',
    });
  });
});

describe('Service ports (services.go) and the ports each pod serves', () => {
  const ports = (spec: object, podPorts: Array<{ name?: string; containerPort: number; protocol?: string }>) => {
    const m = model([ns('a'), pod('a', 'web', { ports: podPorts }), svc('a', 'web', spec)]);
    const s = m.ztunnel.servicesByKey.get('a/web.a.svc.cluster.local')!;
    return { record: s.ports, served: m.ztunnel.workloads[0]!.services.get(s.key) };
  };
  it('a numeric string targetPort is a number, an unset or zero one is the port', () => {
    const r = ports(
      {
        ports: [
          { name: 'http', port: 80, targetPort: '8080' },
          { name: 'tcp', port: 81 },
          { name: 'z', port: 82, targetPort: 0 },
        ],
      },
      [{ containerPort: 8080 }],
    );
    expect(r.record.map((p) => [p.servicePort, p.targetPort])).toEqual([
      [80, 8080],
      [81, 81],
      [82, 82],
    ]);
    expect(r.served).toEqual([
      { servicePort: 80, targetPort: 8080 },
      { servicePort: 81, targetPort: 81 },
      { servicePort: 82, targetPort: 82 },
    ]);
  });
  it("a named targetPort resolves to the pod's TCP container port of that name (missing: the port is left out)", () => {
    const r = ports(
      {
        ports: [
          { name: 'a', port: 80, targetPort: 'web' },
          { name: 'b', port: 53, targetPort: 'dns' },
          { name: 'c', port: 90, targetPort: '80abc' },
          { name: 'd', port: 91, targetPort: 'abc80' },
        ],
      },
      [
        { name: 'web', containerPort: 8080 },
        { name: 'dns', containerPort: 5353, protocol: 'UDP' },
        { name: '80abc', containerPort: 7070 },
        { name: 'abc80', containerPort: 7071 },
      ],
    );
    expect(r.record.map((p) => p.targetPort)).toEqual([0, 0, 0, 0]);
    expect(r.served).toEqual([
      { servicePort: 80, targetPort: 8080 },
      { servicePort: 90, targetPort: 7070 },
      { servicePort: 91, targetPort: 7071 },
    ]);
  });
  it('a Service does not retarget by port name (only a ServiceEntry does)', () => {
    const r = ports({ ports: [{ name: 'http', port: 80, targetPort: 8080 }] }, [{ name: 'http', containerPort: 9090 }]);
    expect(r.served).toEqual([{ servicePort: 80, targetPort: 8080 }]);
  });
  it('a Service without a spec: no ports, no ALLOW_ALL', () => {
    const m = model([ns('a'), { apiVersion: 'v1', kind: 'Service', metadata: { name: 'bare', namespace: 'a' } }]);
    const s = m.ztunnel.servicesByKey.get('a/bare.a.svc.cluster.local')!;
    expect(s.ports).toEqual([]);
    expect(s.allowAll).toBe(false);
  });
  it('port protocols: TCP by default, UDP kept, HTTP from the name', () => {
    const r = ports(
      {
        ports: [
          { name: 'tcp', port: 80 },
          { name: 'dns', port: 53, protocol: 'UDP' },
          { name: 'http-web', port: 81 },
        ],
      },
      [],
    );
    expect(r.record.map((p) => p.protocol)).toEqual(['TCP', 'UDP', 'HTTP']);
  });
});

describe('ServiceEntries', () => {
  it("a host's service: not headless, no ALLOW_ALL, its own workloads only", () => {
    const m = model([
      ns('a'),
      se('e', {
        hosts: ['e.example.com'],
        addresses: ['240.0.0.1'],
        ports: [{ number: 80, name: 'http' }],
        resolution: 'STATIC',
        endpoints: [{ address: '10.9.0.1' }],
      }),
    ]);
    const s = m.ztunnel.servicesByKey.get('a/e.example.com')!;
    expect(s.headless).toBe(false);
    expect(s.allowAll).toBe(false);
    expect(s.vips).toEqual(['240.0.0.1']);
    expect(s.workloads.map((w) => w.json.uid)).toEqual(['Kubernetes/networking.istio.io/ServiceEntry/a/e/10.9.0.1']);
  });

  it("a selected pod: the entry port targets the container port of the same name, else the entry's target", () => {
    const m = model([
      ns('a'),
      pod('a', 'named', { labels: { role: 'db' }, ports: [{ name: 'http', containerPort: 9090 }] }),
      pod('a', 'plain', { labels: { role: 'db' }, ip: '10.0.0.2', ports: [{ containerPort: 8080 }] }),
      se('e', {
        hosts: ['e.example.com'],
        ports: [{ number: 80, name: 'http', targetPort: 8080 }],
        resolution: 'STATIC',
        workloadSelector: { labels: { role: 'db' } },
      }),
    ]);
    const served = (n: string) => m.ztunnel.workloads.find((w) => w.json.name === n)!.services.get('a/e.example.com');
    expect(served('named')).toEqual([{ servicePort: 80, targetPort: 9090 }]);
    expect(served('plain')).toEqual([{ servicePort: 80, targetPort: 8080 }]);
  });

  it('implicit endpoints for DNS, DNS_ROUND_ROBIN and DYNAMIC_DNS only, without endpoints or selector', () => {
    const names = (spec: object) =>
      model([ns('a'), se('e', { hosts: ['e.example.com'], ports: [{ number: 80, name: 'http' }], ...spec })]).ztunnel.workloads.map(
        (w) => w.json.hostname ?? w.json.workloadIps.join(','),
      );
    expect(names({ resolution: 'DNS' })).toEqual(['e.example.com']);
    expect(names({ resolution: 'DNS_ROUND_ROBIN' })).toEqual(['e.example.com']);
    expect(names({ resolution: 'DYNAMIC_DNS' })).toEqual(['e.example.com']);
    expect(names({ resolution: 'NONE' })).toEqual([]);
    expect(names({ resolution: 'DNS', endpoints: [{ address: 'a.example.com' }] })).toEqual(['a.example.com']);
    expect(names({ resolution: 'DNS', workloadSelector: { labels: { app: 'x' } } })).toEqual([]);
  });

  it('an implicit or inline endpoint: Standard, pod, Healthy, service account default, no identity, no waypoint', () => {
    const m = model([ns('a'), se('e', { hosts: ['e.example.com'], ports: [{ number: 80, name: 'http' }], resolution: 'DNS' })]);
    const w = m.ztunnel.workloads[0]!;
    expect(w.json).toMatchObject({
      networkMode: 'Standard',
      workloadType: 'pod',
      status: 'Healthy',
      serviceAccount: 'default',
      services: ['a/e.example.com'],
      protocol: 'TCP',
    });
    expect(w.identity).toBe('');
    expect(w.waypoint).toEqual({ via: 'none', explanation: 'ServiceEntry endpoints have no workload waypoint.' });
    const h = model([
      ns('a'),
      se('e', {
        hosts: ['e.example.com'],
        ports: [{ number: 80, name: 'http' }],
        resolution: 'STATIC',
        endpoints: [{ address: '10.9.0.1', labels: { 'networking.istio.io/tunnel': 'http' } }],
      }),
    ]);
    expect(h.ztunnel.workloads[0]!.json.protocol).toBe('HBONE');
  });

  it('an endpoint address is an IP only when it is one', () => {
    const ep = (address: string) =>
      model([ns('a'), se('e', { hosts: ['e.example.com'], ports: [{ number: 80, name: 'http' }], resolution: 'DNS', endpoints: [{ address }] })]).ztunnel
        .workloads[0]!.json;
    expect(ep('db1')).toMatchObject({ workloadIps: [], hostname: 'db1' });
    expect(ep('1db.example')).toMatchObject({ workloadIps: [], hostname: '1db.example' });
    expect(ep('10.9.0.1').workloadIps).toEqual(['10.9.0.1']);
  });
});

describe('WorkloadEntries', () => {
  it('Standard, pod, Healthy; an address is an IP only when it is one', () => {
    const m = model([ns('a'), we('vm1', { address: 'vm1' }), we('vm2', { address: '2vm.example' }), we('vm3', { address: '10.1.0.5' })]);
    const json = (n: string) => m.ztunnel.workloads.find((w) => w.json.name === n)!;
    expect(json('vm1').json).toMatchObject({ workloadIps: [], hostname: 'vm1', networkMode: 'Standard', workloadType: 'pod', status: 'Healthy' });
    expect(json('vm1').healthy).toBe(true);
    expect(json('vm2').json).toMatchObject({ workloadIps: [], hostname: '2vm.example' });
    expect(json('vm3').json.workloadIps).toEqual(['10.1.0.5']);
  });
});

describe('istioctl ztunnel-config tables', () => {
  it('tabwriter: runes, missing cells, the last cell unpadded', () => {
    expect(tabwrite({ header: ['A', 'BB', 'C'], rows: [['😀😀', 'x', 'last'], ['y']] })).toBe('A  BB C\n😀😀 x  last\ny\n');
  });

  it('workload filters are case-insensitive; an address filter matches any IP; rows sorted', () => {
    const m = model([ns('a'), pod('a', 'zz', { ip: '10.0.0.9' }), pod('a', 'dual', { ips: ['10.0.0.1', 'fd00::1'] })]);
    expect(workloadsTable(m.ztunnel, { namespace: 'A' }).rows.map((r) => r[1])).toEqual(['dual', 'zz']);
    expect(workloadsTable(m.ztunnel, { name: 'ZZ' }).rows.map((r) => r[1])).toEqual(['zz']);
    expect(workloadsTable(m.ztunnel, { address: 'FD00::1' }).rows.map((r) => r[1])).toEqual(['dual']);
    expect(workloadsTable(m.ztunnel, { address: 'fd00::1' }).rows[0]![2]).toBe('10.0.0.1,fd00::1');
  });

  it('same namespace and name: sorted by node (a WorkloadEntry has none)', () => {
    const m = model([ns('a'), pod('a', 'x', { node: 'n1' }), we('x', { address: '10.1.0.5' })]);
    expect(workloadsTable(m.ztunnel).records.map((w) => w.kind)).toEqual(['WorkloadEntry', 'Pod']);
    // Node names may start with a digit: no node still sorts first.
    const d = model([ns('a'), pod('a', 'x', { node: '1n' }), we('x', { address: '10.1.0.5' })]);
    expect(workloadsTable(d.ztunnel).records.map((w) => w.kind)).toEqual(['WorkloadEntry', 'Pod']);
  });

  it('ADDRESS: empty for a WorkloadEntry without an address', () => {
    const m = model([ns('a'), we('noaddr', { labels: { app: 'vm' } })]);
    expect(workloadsTable(m.ztunnel).rows[0]).toEqual(['a', 'noaddr', '', '', 'None', 'TCP']);
  });

  it("a ServiceEntry's CIDR addresses are no VIP", () => {
    const m = model([
      ns('a'),
      se('e', { hosts: ['e.example.com'], addresses: ['10.1.0.0/24', '240.0.0.2'], ports: [{ number: 80, name: 'tcp' }], resolution: 'NONE' }),
    ]);
    expect(m.ztunnel.servicesByKey.get('a/e.example.com')!.vips).toEqual(['240.0.0.2']);
  });

  it('ADDRESS: a hostname for hostname workloads; SERVICE VIP joins the VIPs', () => {
    const m = model([
      ns('a'),
      se('e', { hosts: ['e.example.com'], ports: [{ number: 80, name: 'http' }], resolution: 'DNS' }),
      svc('a', 'ds', { clusterIP: '10.96.0.7', clusterIPs: ['10.96.0.7', 'fd00::7'], ipFamilies: ['IPv4', 'IPv6'] }),
    ]);
    expect(workloadsTable(m.ztunnel).rows.find((r) => r[1] === 'e')![2]).toBe('e.example.com');
    expect(servicesTable(m.ztunnel).rows.find((r) => r[1] === 'ds')![2]).toBe('10.96.0.7,fd00::7');
  });

  it('WAYPOINT: the Service owning the waypoint VIP, NA when none', () => {
    const gw = (name: string, ip: string) => ({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { name, namespace: 'a', labels: { 'istio.io/waypoint-for': 'all' } },
      spec: { gatewayClassName: 'istio-waypoint', listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
      status: { addresses: [{ type: 'IPAddress', value: ip }] },
    });
    const m = model([
      AMB,
      gw('wp', '10.96.5.5'),
      gw('lost', '10.96.6.6'),
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'wp-svc', namespace: 'a' },
        spec: { clusterIP: '10.96.5.5', selector: { 'gateway.networking.k8s.io/gateway-name': 'wp' }, ports: [{ name: 'mesh', port: 15008 }] },
      },
      pod('a', 'x', { labels: { 'istio.io/use-waypoint': 'wp' } }),
      pod('a', 'y', { ip: '10.0.0.2', labels: { 'istio.io/use-waypoint': 'lost' } }),
    ]);
    const rows = workloadsTable(m.ztunnel).rows;
    expect(rows.find((r) => r[1] === 'x')![4]).toBe('wp-svc');
    expect(rows.find((r) => r[1] === 'y')![4]).toBe('NA');
  });

  it("node view: certificates of the node's HBONE pods, sorted; known services sorted", () => {
    const m = model([
      AMB,
      ns('p'),
      svc('a', 'b'),
      svc('a', 'a'),
      pod('a', 'z', { sa: 'zsa' }),
      pod('a', 'y', { sa: 'asa', ip: '10.0.0.2' }),
      pod('p', 'plain', { ip: '10.0.0.3' }),
    ]);
    const v = nodeView(m.cluster, m.ztunnel, 'n1');
    expect(v.certificates).toEqual([
      { identity: 'spiffe://cluster.local/ns/a/sa/asa', pods: ['a/y'] },
      { identity: 'spiffe://cluster.local/ns/a/sa/zsa', pods: ['a/z'] },
    ]);
    expect(v.servicesKnown).toEqual(['a/a', 'a/b']);
    expect(certificatesTable(v).rows[0]).toEqual(['spiffe://cluster.local/ns/a/sa/asa', 'Leaf', 'Available', 'true', '—', '—', '—']);
    expect(certificatesTable(v).rows[1]).toEqual(['spiffe://cluster.local/ns/a/sa/asa', 'Root', 'Available', 'true', '—', '—', '—']);
  });
});
