// Surviving mutants of src/core/ambient/ztunnel.ts that ztunnelSurvivors.test.ts left
// (reports/mutation/ambient.nofuzz.nostatic-survivors.txt). Expected values:
//  - istiod (pilot/pkg/serviceregistry/kube/controller/ambient/workloads.go): a WorkloadEntry bound
//    to a waypoint (istio.io/use-waypoint) carries the waypoint's address, as a pod does.
//  - istioctl/pkg/writer/ztunnel/configdump (workload.go): WAYPOINT names the first service of the
//    dump's list whose namespace/hostname, or whose VIP, is the waypoint's address.
//  - pkg/kube/labels CanonicalService: the revision is service.istio.io/canonical-revision, else
//    app.kubernetes.io/version, else version, else "latest".
import { describe, expect, it } from 'vitest';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import { workloadsTable } from '../../src/core/ambient/ztunnel.ts';

const ns = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const pod = (name: string, ip: string, o: { labels?: Record<string, string>; node?: string } = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'a', labels: { app: name, ...o.labels } },
  spec: { nodeName: o.node ?? 'n1', serviceAccountName: name, containers: [{ name: 'app', image: 'app', ports: [{ containerPort: 8080 }] }] },
  status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: 'True' }] },
});
const svc = (name: string, spec: object = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'a' },
  spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080 }], ...spec },
});
const se = (name: string, spec: object) => ({ apiVersion: 'networking.istio.io/v1', kind: 'ServiceEntry', metadata: { name, namespace: 'a' }, spec });
const we = (name: string, spec: object) => ({ apiVersion: 'networking.istio.io/v1', kind: 'WorkloadEntry', metadata: { name, namespace: 'a' }, spec });
const waypoint = (name: string, status?: object) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name, namespace: 'a', labels: { 'istio.io/waypoint-for': 'workload' } },
  spec: { gatewayClassName: 'istio-waypoint', listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
  ...(status ? { status } : {}),
});
function model(objects: object[]) {
  const { view, problems } = loadMesh([{ path: 'm.yaml', text: objects.map((o) => JSON.stringify(o)).join('\n---\n') }]);
  expect(problems).toEqual([]);
  return buildAmbientModel(view);
}
const AMB = ns('a', { 'istio.io/dataplane-mode': 'ambient' });
const USE_WP = { 'istio.io/use-waypoint': 'waypoint' };
const rowOf = (m: ReturnType<typeof model>, name: string) => workloadsTable(m.ztunnel).rows.find((r) => r[1] === name)!;

describe('a WorkloadEntry bound to a waypoint', () => {
  it('carries the waypoint address, shown in the WAYPOINT column', () => {
    const m = model([
      AMB,
      waypoint('waypoint'),
      we('vm', { address: '10.0.7.1', labels: { app: 'vm', ...USE_WP } }),
      we('plain', { address: '10.0.7.2', labels: { app: 'plain' } }),
    ]);
    const vm = m.ztunnel.workloads.find((w) => w.json.name === 'vm')!;
    expect(vm.json.waypoint?.destination).toBe('a/waypoint.a.svc.cluster.local');
    expect(rowOf(m, 'vm')[4]).toBe('waypoint');
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'plain')!.json.waypoint).toBeUndefined();
    expect(rowOf(m, 'plain')[4]).toBe('None');
  });
});

describe('WAYPOINT: the first service of the list at the address', () => {
  it('by hostname: a second service with the waypoint hostname in its namespace does not rename it', () => {
    const m = model([
      AMB,
      waypoint('waypoint'),
      pod('x', '10.0.0.1', { labels: USE_WP }),
      se('wp-alias', { hosts: ['waypoint.a.svc.cluster.local'], addresses: ['240.0.0.9'], ports: [{ number: 15008, name: 'hbone' }] }),
    ]);
    const matching = m.ztunnel.services.filter((s) => s.namespace === 'a' && s.hostname === 'waypoint.a.svc.cluster.local').map((s) => s.name);
    expect(matching).toHaveLength(2);
    expect(rowOf(m, 'x')[4]).toBe(matching[0]);
  });

  it('by VIP: two services with the waypoint IP, the first names it', () => {
    const objs = [
      AMB,
      waypoint('waypoint', { addresses: [{ type: 'IPAddress', value: '10.96.0.50' }] }),
      pod('x', '10.0.0.1', { labels: USE_WP }),
      svc('wp-one', { clusterIP: '10.96.0.50' }),
      se('wp-two', { hosts: ['two.example.com'], addresses: ['10.96.0.50'], ports: [{ number: 80, name: 'http' }] }),
    ];
    const m = model(objs);
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'x')!.json.waypoint?.destination).toBe('/10.96.0.50');
    const matching = m.ztunnel.services.filter((s) => s.vips.includes('10.96.0.50')).map((s) => s.name);
    expect(matching).toHaveLength(2);
    expect(rowOf(m, 'x')[4]).toBe(matching[0]);
  });
});

describe('canonical revision', () => {
  it('app.kubernetes.io/version comes before version', () => {
    const m = model([
      ns('a'),
      pod('x', '10.0.0.1', { labels: { 'app.kubernetes.io/version': 'v2', version: 'v1' } }),
      pod('y', '10.0.0.2', { labels: { 'app.kubernetes.io/version': 'v3' } }),
    ]);
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'x')!.json.canonicalRevision).toBe('v2');
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'y')!.json.canonicalRevision).toBe('v3');
  });
});
