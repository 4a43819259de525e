// ztunnel's view and `istioctl ztunnel-config` tables (src/core/ambient/ztunnel.ts). Expected values:
//  - Istio pkg/kube/util.go GetWorkloadMetaFromPod / GetDeployMetaFromPod (workload name heuristics:
//    service.istio.io/workload-name label; with generateName and a controller owner: ReplicaSet minus
//    "-<pod-template-hash>" (TrimSuffix), Argo rollouts-pod-template-hash, DeploymentConfig label,
//    Job `(.+)-\d{8,10}$` → CronJob; else the controller's name).
//  - pkg/kube/labels/labels.go CanonicalService (canonical-name, app.kubernetes.io/name, app, else the
//    workload name; canonical-revision, app.kubernetes.io/version, version, else "latest") and
//    WorkloadNameFromWorkloadEntry (istio.io/autoRegistrationGroup annotation, then the label, then the name).
//  - pilot/pkg/serviceregistry/ambient/workloads.go (Workload from Pod/WorkloadEntry/ServiceEntry, UIDs
//    from helpers.go), services.go (ExternalName not sent; ServiceEntry one service per host).
//  - ztunnel src/state/service.rs: unhealthy endpoints are kept only with ALLOW_ALL (publishNotReadyAddresses).
//  - istioctl/pkg/writer/ztunnel/configdump: workload.go, services.go, policies.go, certificates.go (column
//    headers, sort order, WAYPOINT None/NA, ENDPOINTS healthy/total), tabwriter padding 1 (3 for certificates
//    is not asserted here); the spec /work/shared/specs/ambient-spec.md §2.7-2.8.
import { describe, expect, it } from 'vitest';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import type { AmbientSettings } from '../../src/core/ambient/settings.ts';
import { certificatesTable, nodeView, policiesTable, serviceEndpoints, servicesTable, tabwrite, workloadsTable } from '../../src/core/ambient/ztunnel.ts';
import { podWorkloadName as workloadNameOf } from '../../src/core/config/services.ts';
import { makeResource } from '../../src/core/document/resources.ts';

const ns = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const pod = (
  namespace: string,
  name: string,
  o: {
    labels?: Record<string, string>;
    ip?: string;
    node?: string;
    sa?: string;
    ready?: boolean;
    ports?: Array<{ name?: string; containerPort: number }>;
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
  status: {
    phase: 'Running',
    podIP: o.ip ?? '10.0.0.1',
    podIPs: [{ ip: o.ip ?? '10.0.0.1' }],
    conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
  },
});
const svc = (namespace: string, name: string, spec: object = {}, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace, labels },
  spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080 }], ...spec },
});

function model(objects: object[], settings: AmbientSettings = {}) {
  const { view, problems } = loadMesh([{ path: 'm.yaml', text: objects.map((o) => JSON.stringify(o)).join('\n---\n') }]);
  expect(problems).toEqual([]);
  return buildAmbientModel(view, settings);
}
const AMB = ns('a', { 'istio.io/dataplane-mode': 'ambient' });

describe('workloadNameOf (GetWorkloadMetaFromPod)', () => {
  const podRes = (meta: object, labels: Record<string, string> = {}) =>
    makeResource({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-7d4f9-abcde', namespace: 'a', labels, ...meta } }, undefined);
  const owner = (kind: string, name: string, controller = true) => ({
    generateName: 'x-',
    ownerReferences: [{ apiVersion: 'apps/v1', kind, name, controller }],
  });
  const name = (meta: object, labels: Record<string, string> = {}) => {
    const r = podRes(meta, labels);
    return workloadNameOf(r, r.labels);
  };

  it('the service.istio.io/workload-name label wins', () => {
    expect(name(owner('ReplicaSet', 'web-7d4f9'), { 'service.istio.io/workload-name': 'custom', 'pod-template-hash': '7d4f9' })).toBe('custom');
  });
  it('without generateName, or without a controller owner: the pod name', () => {
    expect(name({ ownerReferences: [{ kind: 'ReplicaSet', name: 'web-7d4f9', controller: true }] }, { 'pod-template-hash': '7d4f9' })).toBe('web-7d4f9-abcde');
    expect(name(owner('ReplicaSet', 'web-7d4f9', false), { 'pod-template-hash': '7d4f9' })).toBe('web-7d4f9-abcde');
  });
  it('a ReplicaSet named <deployment>-<pod-template-hash> gives the Deployment name', () => {
    expect(name(owner('ReplicaSet', 'web-7d4f9'), { 'pod-template-hash': '7d4f9' })).toBe('web');
    expect(name(owner('ReplicaSet', 'web-7d4f9'), { 'pod-template-hash': 'zzz' })).toBe('web-7d4f9');
    expect(name(owner('ReplicaSet', 'web-7d4f9'))).toBe('web-7d4f9');
  });
  it('TrimSuffix("-"+hash) leaves a name that ends with the hash but not with "-hash"', () => {
    expect(name(owner('ReplicaSet', 'web7d4f9'), { 'pod-template-hash': '7d4f9' })).toBe('web7d4f9');
  });
  it('the deploymentconfig label counts for ReplicationController owners only', () => {
    expect(name(owner('ReplicaSet', 'rs-x'), { deploymentconfig: 'dc' })).toBe('rs-x');
  });
  it('the CronJob heuristic applies to Job owners only', () => {
    expect(name(owner('StatefulSet', 'db-12345678'))).toBe('db-12345678');
    expect(name(owner('ReplicaSet', 'rs-12345678'))).toBe('rs-12345678');
  });
  it('Argo rollouts-pod-template-hash, OpenShift deploymentconfig, CronJob jobs', () => {
    expect(name(owner('ReplicaSet', 'roll-abc12'), { 'rollouts-pod-template-hash': 'abc12' })).toBe('roll');
    expect(name(owner('ReplicationController', 'dc-1'), { deploymentconfig: 'dc' })).toBe('dc');
    expect(name(owner('ReplicationController', 'rc-1'))).toBe('rc-1');
    expect(name(owner('Job', 'nightly-28374650'))).toBe('nightly');
    expect(name(owner('Job', 'nightly-1234567'))).toBe('nightly-1234567');
    expect(name(owner('Job', 'nightly-12345678901'))).toBe('nightly-12345678901');
    expect(name(owner('StatefulSet', 'db'))).toBe('db');
  });
});

describe('Workload from a Pod (workloads.go)', () => {
  it('uid, protocol HBONE for ambient pods, TCP otherwise, canonical labels and workload fields', () => {
    const m = model([
      AMB,
      ns('plain'),
      pod('a', 'x', { ip: '10.0.0.1', labels: { version: 'v2', 'app.kubernetes.io/name': 'shop' } }),
      pod('plain', 'y', { ip: '10.0.0.9' }),
    ]);
    const x = m.ztunnel.workloads.find((w) => w.json.name === 'x')!.json;
    expect(x).toMatchObject({
      uid: 'Kubernetes//Pod/a/x',
      workloadIps: ['10.0.0.1'],
      protocol: 'HBONE',
      networkMode: 'Standard',
      namespace: 'a',
      serviceAccount: 'x',
      workloadType: 'pod',
      canonicalName: 'shop',
      canonicalRevision: 'v2',
      node: 'n1',
      status: 'Healthy',
      clusterId: 'Kubernetes',
      capacity: 1,
    });
    expect(x.nativeTunnel).toBeUndefined();
    const y = m.ztunnel.workloads.find((w) => w.json.name === 'y')!.json;
    expect(y.protocol).toBe('TCP');
    expect(y.canonicalName).toBe('y');
    expect(y.canonicalRevision).toBe('latest');
  });

  it('a pod that no Service selects lists no services', () => {
    const m = model([AMB, pod('a', 'lonely'), svc('a', 'web')]);
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'lonely')!.json.services).toBeUndefined();
  });

  it('canonical name/revision precedence: service.istio.io labels, then app.kubernetes.io, then app/version', () => {
    const m = model([
      ns('plain'),
      pod('plain', 'c', {
        labels: {
          'service.istio.io/canonical-name': 'cn',
          'app.kubernetes.io/name': 'kn',
          'service.istio.io/canonical-revision': 'cr',
          'app.kubernetes.io/version': 'kv',
          version: 'v',
        },
      }),
    ]);
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'c')!.json).toMatchObject({ canonicalName: 'cn', canonicalRevision: 'cr' });
  });

  it('a networking.istio.io/tunnel label containing http → HBONE with nativeTunnel', () => {
    const m = model([
      ns('plain'),
      pod('plain', 't', { labels: { 'networking.istio.io/tunnel': 'h2c, http' } }),
      pod('plain', 'u', { ip: '10.0.0.2', labels: { 'networking.istio.io/tunnel': 'https' } }),
    ]);
    expect(m.ztunnel.workloads.find((w) => w.json.name === 't')!.json).toMatchObject({ protocol: 'HBONE', nativeTunnel: true });
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'u')!.json.protocol).toBe('TCP');
  });

  it('a pod that is not Ready is Unhealthy and dropped from service endpoints unless publishNotReadyAddresses', () => {
    const m = model([
      AMB,
      pod('a', 'web', { ip: '10.0.0.1' }),
      pod('a', 'web2', { ip: '10.0.0.2', labels: { app: 'web' }, ready: false }),
      svc('a', 'web'),
      svc('a', 'all', { selector: { app: 'web' }, publishNotReadyAddresses: true }),
    ]);
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'web2')!.json.status).toBe('Unhealthy');
    const web = m.ztunnel.servicesByKey.get('a/web.a.svc.cluster.local')!;
    expect(web.workloads).toHaveLength(2);
    expect(serviceEndpoints(web).map((w) => w.json.name)).toEqual(['web']);
    expect(
      serviceEndpoints(m.ztunnel.servicesByKey.get('a/all.a.svc.cluster.local')!)
        .map((w) => w.json.name)
        .sort(),
    ).toEqual(['web', 'web2']);
    const rows = servicesTable(m.ztunnel).rows;
    expect(rows.find((r) => r[1] === 'web')?.[4]).toBe('1/1');
    expect(rows.find((r) => r[1] === 'all')?.[4]).toBe('1/2');
  });

  it('services: selector match in the pod namespace; named targetPorts resolve per pod, unresolved ones are left out', () => {
    const m = model([
      AMB,
      pod('a', 'web', { ports: [{ name: 'http-web', containerPort: 9000 }] }),
      svc('a', 'web', {
        ports: [
          { name: 'http', port: 80, targetPort: 'http-web' },
          { name: 'grpc', port: 81, targetPort: 'missing' },
          { name: 'tcp', port: 82 },
        ],
      }),
      svc('b', 'web'),
    ]);
    const w = m.ztunnel.workloads.find((x) => x.json.name === 'web')!;
    expect(w.json.services).toEqual(['a/web.a.svc.cluster.local']);
    expect(w.services.get('a/web.a.svc.cluster.local')).toEqual([
      { servicePort: 80, targetPort: 9000 },
      { servicePort: 82, targetPort: 82 },
    ]);
    const s = m.ztunnel.servicesByKey.get('a/web.a.svc.cluster.local')!;
    expect(s.ports.map((p) => [p.servicePort, p.targetPort])).toEqual([
      [80, 0],
      [81, 0],
      [82, 82],
    ]);
  });

  it('a host-network pod: networkMode HostNetwork, and it is not addressable as a workload by IP', () => {
    const host = {
      ...pod('a', 'h', { ip: '192.168.0.10' }),
      spec: { nodeName: 'n1', hostNetwork: true, serviceAccountName: 'h', containers: [{ name: 'app', image: 'app' }] },
    };
    const m = model([ns('a'), host, pod('a', 'x', { ip: '10.0.0.5' })]);
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'h')!.json.networkMode).toBe('HostNetwork');
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'x')!.json.networkMode).toBe('Standard');
    expect(m.ztunnel.workloadsByIp.has('192.168.0.10')).toBe(false);
    expect(m.ztunnel.workloadsByIp.get('10.0.0.5')?.json.name).toBe('x');
  });

  it('subjectAltNames: none for a Kubernetes Service, the spec list for a ServiceEntry host', () => {
    const m = model([
      ns('a'),
      svc('a', 'web'),
      {
        apiVersion: 'networking.istio.io/v1',
        kind: 'ServiceEntry',
        metadata: { name: 'e', namespace: 'a' },
        spec: { hosts: ['e.example.com'], ports: [{ number: 80, name: 'http' }], resolution: 'DNS', subjectAltNames: ['spiffe://x/ns/y/sa/z'] },
      },
    ]);
    expect(m.ztunnel.servicesByKey.get('a/web.a.svc.cluster.local')!.subjectAltNames).toEqual([]);
    expect(m.ztunnel.servicesByKey.get('a/e.example.com')!.subjectAltNames).toEqual(['spiffe://x/ns/y/sa/z']);
    expect(m.ztunnel.servicesByKey.get('a/web.a.svc.cluster.local')).toMatchObject({
      kind: 'Service',
      hostname: 'web.a.svc.cluster.local',
      resolution: 'ClientSideLB',
      passthrough: false,
      headless: false,
    });
  });

  it('ExternalName Services are not sent; a selector-less Service selects no pod', () => {
    const m = model([
      AMB,
      pod('a', 'web'),
      svc('a', 'ext', { type: 'ExternalName', externalName: 'example.com', selector: undefined }),
      svc('a', 'nosel', { selector: undefined }),
    ]);
    expect(m.ztunnel.servicesByKey.has('a/ext.a.svc.cluster.local')).toBe(false);
    expect(m.ztunnel.servicesByKey.get('a/nosel.a.svc.cluster.local')?.workloads).toEqual([]);
  });
});

describe('Workloads from WorkloadEntry and ServiceEntry (workloads.go, helpers.go UIDs)', () => {
  const we = (name: string, spec: object, meta: object = {}) => ({
    apiVersion: 'networking.istio.io/v1',
    kind: 'WorkloadEntry',
    metadata: { name, namespace: 'a', ...meta },
    spec,
  });
  const se = (name: string, spec: object) => ({ apiVersion: 'networking.istio.io/v1', kind: 'ServiceEntry', metadata: { name, namespace: 'a' }, spec });

  it('WorkloadEntry: uid, IP address or hostname, service account default, TCP unless tunnel label or redirection annotation', () => {
    const m = model([
      AMB,
      we('vm', { address: '10.1.0.5', labels: { app: 'vm' } }),
      we('dns', { address: 'vm.example.com', serviceAccount: 'vm-sa', labels: { 'networking.istio.io/tunnel': 'http' } }),
      we('red', { address: '10.1.0.6' }, { annotations: { 'ambient.istio.io/redirection': 'enabled' } }),
    ]);
    const vm = m.ztunnel.workloads.find((w) => w.json.name === 'vm')!;
    expect(vm.kind).toBe('WorkloadEntry');
    expect(vm.json).toMatchObject({
      uid: 'Kubernetes/networking.istio.io/WorkloadEntry/a/vm',
      workloadIps: ['10.1.0.5'],
      protocol: 'TCP',
      serviceAccount: 'default',
      workloadName: 'vm',
      canonicalName: 'vm',
      status: 'Healthy',
    });
    expect(vm.json.hostname).toBeUndefined();
    expect(vm.identity).toBe('spiffe://cluster.local/ns/a/sa/default');
    const dns = m.ztunnel.workloads.find((w) => w.json.name === 'dns')!;
    expect(dns.json).toMatchObject({ workloadIps: [], hostname: 'vm.example.com', protocol: 'HBONE', serviceAccount: 'vm-sa' });
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'red')!.json.protocol).toBe('HBONE');
    expect(m.ztunnel.workloadsByIp.get('10.1.0.5')?.json.name).toBe('vm');
  });

  it('WorkloadEntry workload name: istio.io/autoRegistrationGroup annotation, then service.istio.io/workload-name, then the name', () => {
    const m = model([
      ns('a'),
      we('w1', { address: '10.1.0.1' }, { annotations: { 'istio.io/autoRegistrationGroup': 'group' }, labels: { 'service.istio.io/workload-name': 'lbl' } }),
      we('w2', { address: '10.1.0.2', labels: { 'service.istio.io/workload-name': 'lbl' } }),
    ]);
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'w1')!.json.workloadName).toBe('group');
    // CanonicalService falls back to the workload name (no app / canonical-name label).
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'w1')!.json.canonicalName).toBe('group');
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'w2')!.json.workloadName).toBe('lbl');
  });

  it('WorkloadEntry selected by a Service; the WorkloadEntry port map by port name overrides the target port', () => {
    const m = model([ns('a'), we('vm', { address: '10.1.0.5', labels: { app: 'web' }, ports: { http: 9999 } }), svc('a', 'web')]);
    const w = m.ztunnel.workloads.find((x) => x.json.name === 'vm')!;
    expect(w.services.get('a/web.a.svc.cluster.local')).toEqual([{ servicePort: 80, targetPort: 9999 }]);
    expect(w.json.services).toEqual(['a/web.a.svc.cluster.local']);
    expect(m.ztunnel.servicesByKey.get('a/web.a.svc.cluster.local')!.workloads.map((x) => x.json.name)).toEqual(['vm']);
    // Without a matching port name the Service's numeric target port is used.
    const plain = model([ns('a'), we('vm', { address: '10.1.0.5', labels: { app: 'web' } }), svc('a', 'web')]).ztunnel.workloads.find(
      (x) => x.json.name === 'vm',
    )!;
    expect(plain.services.get('a/web.a.svc.cluster.local')).toEqual([{ servicePort: 80, targetPort: 8080 }]);
    // Not selected: no services.
    expect(
      model([ns('a'), we('vm', { address: '10.1.0.5', labels: { app: 'other' } }), svc('a', 'web')]).ztunnel.workloads.find((x) => x.json.name === 'vm')!.json
        .services,
    ).toBeUndefined();
  });

  it('constructServicesFromWorkloadEntry: a named Service targetPort is looked up in the entry ports by that name; missing, the port is skipped', () => {
    const named = svc('a', 'web', {
      ports: [
        { name: 'http', port: 80, targetPort: 'web-port' },
        { name: 'tcp', port: 81, targetPort: 'absent' },
        { name: 'grpc', port: 82, targetPort: 9000 },
      ],
    });
    const m = model([ns('a'), we('vm', { address: '10.1.0.5', labels: { app: 'web' }, ports: { 'web-port': 7777, http: 1111 } }), named]);
    expect(m.ztunnel.workloads.find((x) => x.json.name === 'vm')!.services.get('a/web.a.svc.cluster.local')).toEqual([
      { servicePort: 80, targetPort: 7777 },
      { servicePort: 82, targetPort: 9000 },
    ]);
  });

  it('ServiceEntry: one service per host; inline endpoints are workloads with uid …/ServiceEntry/<ns>/<name>/<address>', () => {
    const m = model([
      ns('a'),
      se('ext', {
        hosts: ['a.example.com', 'b.example.com'],
        addresses: ['240.0.0.1'],
        ports: [{ number: 443, name: 'tls', protocol: 'TLS', targetPort: 8443 }],
        resolution: 'STATIC',
        endpoints: [
          { address: '1.2.3.4', ports: { tls: 9443 } },
          { address: 'host.example.com', serviceAccount: 'ext-sa' },
        ],
      }),
    ]);
    expect(m.ztunnel.servicesByKey.has('a/a.example.com')).toBe(true);
    expect(m.ztunnel.servicesByKey.has('a/b.example.com')).toBe(true);
    const s = m.ztunnel.servicesByKey.get('a/a.example.com')!;
    expect(s).toMatchObject({ kind: 'ServiceEntry', name: 'ext', hostname: 'a.example.com', vips: ['240.0.0.1'], passthrough: false, resolution: 'STATIC' });
    expect(s.ports).toEqual([{ name: 'tls', servicePort: 443, targetPort: 8443, protocol: 'TLS' }]);
    const ip = m.ztunnel.workloads.find((w) => w.json.uid === 'Kubernetes/networking.istio.io/ServiceEntry/a/ext/1.2.3.4')!;
    expect(ip.json).toMatchObject({ workloadIps: ['1.2.3.4'], name: 'ext', serviceAccount: 'default', protocol: 'TCP', workloadName: 'ext' });
    expect(ip.json.services?.sort()).toEqual(['a/a.example.com', 'a/b.example.com']);
    expect(ip.services.get('a/a.example.com')).toEqual([{ servicePort: 443, targetPort: 9443 }]);
    expect(ip.identity).toBe('');
    const host = m.ztunnel.workloads.find((w) => w.json.uid === 'Kubernetes/networking.istio.io/ServiceEntry/a/ext/host.example.com')!;
    expect(host.json).toMatchObject({ workloadIps: [], hostname: 'host.example.com', serviceAccount: 'ext-sa' });
    expect(host.identity).toBe('spiffe://cluster.local/ns/a/sa/ext-sa');
    expect(host.services.get('a/a.example.com')).toEqual([{ servicePort: 443, targetPort: 8443 }]);
  });

  it('DNS resolution without endpoints: one implicit workload per host, hostname set, serving only its host', () => {
    const m = model([
      ns('a'),
      se('api', { hosts: ['api.example.com', 'www.example.com'], ports: [{ number: 80, name: 'http', protocol: 'HTTP' }], resolution: 'DNS' }),
    ]);
    const ws = m.ztunnel.workloads.filter((w) => w.kind === 'ServiceEntry');
    expect(ws.map((w) => w.json.uid).sort()).toEqual([
      'Kubernetes/networking.istio.io/ServiceEntry/a/api/api.example.com',
      'Kubernetes/networking.istio.io/ServiceEntry/a/api/www.example.com',
    ]);
    const api = ws.find((w) => w.json.hostname === 'api.example.com')!;
    expect(api.json.workloadIps).toEqual([]);
    expect(api.json.services).toEqual(['a/api.example.com']);
    expect(m.ztunnel.servicesByKey.get('a/api.example.com')?.ports[0]?.targetPort).toBe(80);
  });

  it('a ServiceEntry host without addresses gets an allocated VIP (addressAssumed); spec addresses are not assumed', () => {
    const m = model([
      ns('a'),
      se('auto', { hosts: ['auto.example.com'], ports: [{ number: 80, name: 'http' }], resolution: 'DNS' }),
      se('fixed', { hosts: ['fixed.example.com'], addresses: ['240.0.0.5'], ports: [{ number: 80, name: 'http' }], resolution: 'DNS' }),
    ]);
    const auto = m.ztunnel.servicesByKey.get('a/auto.example.com')!;
    expect(auto.addressAssumed).toBe(true);
    expect(auto.vips).toHaveLength(1);
    expect(m.ztunnel.servicesByKey.get('a/fixed.example.com')).toMatchObject({ addressAssumed: false, vips: ['240.0.0.5'] });
  });

  it('resolution NONE (the default) is PASSTHROUGH with no implicit workload', () => {
    const m = model([ns('a'), se('pt', { hosts: ['pt.example.com'], addresses: ['240.0.0.9'], ports: [{ number: 80, name: 'http' }] })]);
    expect(m.ztunnel.servicesByKey.get('a/pt.example.com')).toMatchObject({ passthrough: true, resolution: 'NONE' });
    expect(m.ztunnel.workloads.filter((w) => w.kind === 'ServiceEntry')).toEqual([]);
  });

  it('a workloadSelector ServiceEntry selects pods (by port name) instead of endpoints', () => {
    const m = model([
      AMB,
      pod('a', 'web', { ports: [{ name: 'http', containerPort: 7070 }] }),
      se('sel', { hosts: ['sel.example.com'], ports: [{ number: 80, name: 'http' }], resolution: 'STATIC', workloadSelector: { labels: { app: 'web' } } }),
    ]);
    const w = m.ztunnel.workloads.find((x) => x.json.name === 'web')!;
    expect(w.services.get('a/sel.example.com')).toEqual([{ servicePort: 80, targetPort: 7070 }]);
    expect(m.ztunnel.workloads.filter((x) => x.kind === 'ServiceEntry')).toEqual([]);
  });
});

describe('istioctl ztunnel-config tables (configdump workload.go, services.go, policies.go, certificates.go)', () => {
  const objs = () => [
    AMB,
    ns('b'),
    pod('a', 'web', { ip: '10.0.0.1', node: 'n2' }),
    pod('a', 'api', { ip: '10.0.0.2', node: 'n1' }),
    pod('b', 'db', { ip: '10.0.0.3', node: 'n1' }),
    svc('a', 'web', { clusterIP: '10.96.0.10' }),
    svc('b', 'db', { clusterIP: '10.96.0.11' }),
  ];

  it('workloads: header, rows sorted by namespace.name, ADDRESS, NODE, WAYPOINT None, PROTOCOL', () => {
    const t = workloadsTable(model(objs()).ztunnel);
    expect(t.header).toEqual(['NAMESPACE', 'POD NAME', 'ADDRESS', 'NODE', 'WAYPOINT', 'PROTOCOL']);
    expect(t.rows).toEqual([
      ['a', 'api', '10.0.0.2', 'n1', 'None', 'HBONE'],
      ['a', 'web', '10.0.0.1', 'n2', 'None', 'HBONE'],
      ['b', 'db', '10.0.0.3', 'n1', 'None', 'TCP'],
    ]);
  });

  it('workloads filters: namespace, node, address, name; case-insensitive equality', () => {
    const s = model(objs()).ztunnel;
    expect(workloadsTable(s, { namespace: 'A' }).rows.map((r) => r[1])).toEqual(['api', 'web']);
    expect(workloadsTable(s, { node: 'N1' }).rows.map((r) => r[1])).toEqual(['api', 'db']);
    expect(workloadsTable(s, { address: '10.0.0.3' }).rows.map((r) => r[1])).toEqual(['db']);
    expect(workloadsTable(s, { address: '10.0.0' }).rows).toEqual([]);
    expect(workloadsTable(s, { name: 'WEB' }).rows.map((r) => r[1])).toEqual(['web']);
  });

  it('workloads: byte order of "namespace.name" (a-b.x before a.x), ADDRESS falls back to the hostname', () => {
    const m = model([
      ns('a'),
      ns('a-b'),
      pod('a', 'x', { ip: '10.0.0.1' }),
      pod('a-b', 'x', { ip: '10.0.0.2' }),
      {
        apiVersion: 'networking.istio.io/v1',
        kind: 'ServiceEntry',
        metadata: { name: 'e', namespace: 'a' },
        spec: { hosts: ['e.example.com'], ports: [{ number: 80, name: 'http' }], resolution: 'DNS' },
      },
    ]);
    const t = workloadsTable(m.ztunnel);
    expect(t.rows.map((r) => `${r[0]}/${r[1]}`)).toEqual(['a-b/x', 'a/e', 'a/x']);
    expect(t.rows[1]).toEqual(['a', 'e', 'e.example.com', '', 'None', 'TCP']);
  });

  it('services: header, sorted by namespace then name, VIPs, WAYPOINT None, ENDPOINTS healthy/total; namespace filter', () => {
    const s = model(objs()).ztunnel;
    const t = servicesTable(s);
    expect(t.header).toEqual(['NAMESPACE', 'SERVICE NAME', 'SERVICE VIP', 'WAYPOINT', 'ENDPOINTS']);
    expect(t.rows).toEqual([
      ['a', 'web', '10.96.0.10', 'None', '1/1'],
      ['b', 'db', '10.96.0.11', 'None', '1/1'],
    ]);
    expect(servicesTable(s, { namespace: 'B' }).rows.map((r) => r[1])).toEqual(['db']);
  });

  it('policies: header, ACTION Allow/Deny, SCOPE, sorted by namespace then name, with the static strict policy; namespace filter', () => {
    const ap = (name: string, namespace: string, spec: object) => ({
      apiVersion: 'security.istio.io/v1',
      kind: 'AuthorizationPolicy',
      metadata: { name, namespace },
      spec,
    });
    const m = model([
      ...objs(),
      ap('z', 'a', { action: 'DENY', rules: [{}] }),
      ap('m', 'a', { selector: { matchLabels: { app: 'web' } } }),
      ap('g', 'istio-system', {}),
      { apiVersion: 'security.istio.io/v1', kind: 'PeerAuthentication', metadata: { name: 'default', namespace: 'b' }, spec: { mtls: { mode: 'STRICT' } } },
    ]);
    const t = policiesTable(m.ztunnel);
    expect(t.header).toEqual(['NAMESPACE', 'POLICY NAME', 'ACTION', 'SCOPE']);
    expect(t.rows).toEqual([
      ['a', 'm', 'Allow', 'WorkloadSelector'],
      ['a', 'z', 'Deny', 'Namespace'],
      ['istio-system', 'g', 'Allow', 'Global'],
      ['istio-system', 'istio_converted_static_strict', 'Deny', 'WorkloadSelector'],
    ]);
    expect(policiesTable(m.ztunnel, { namespace: 'A' }).rows.map((r) => r[1])).toEqual(['m', 'z']);
    // The workload lists its selector policy.
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'web')!.json.authorizationPolicies).toEqual(['a/m']);
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'db')!.json.authorizationPolicies).toEqual(['istio-system/istio_converted_static_strict']);
    expect(m.ztunnel.workloads.find((w) => w.json.name === 'api')!.json.authorizationPolicies).toBeUndefined();
  });

  it('tabwrite: columns padded to the widest cell plus the padding, the last cell unpadded', () => {
    expect(tabwrite({ header: ['A', 'BB', 'C'], rows: [['xxx', 'y', 'zzzz']] })).toBe('A   BB C\nxxx y  zzzz\n');
    expect(tabwrite({ header: ['A', 'B'], rows: [['x', 'y']] }, 3)).toBe('A   B\nx   y\n');
    // Width counts runes, not UTF-16 units or bytes.
    expect(tabwrite({ header: ['N', 'X'], rows: [['—', 'y']] })).toBe('N X\n— y\n');
  });
});

describe('per node: captured pods, in-pod listeners, certificates (spec §2.7; cert_fetcher.rs; certificates.go)', () => {
  it('captured pods are the running ambient pods of the node, with 15001/15006/15008 and 15053 when DNS capture is on', () => {
    const m = model([
      AMB,
      ns('plain'),
      pod('a', 'x', { ip: '10.0.0.1', node: 'n1' }),
      pod('a', 'y', { ip: '10.0.0.2', node: 'n2' }),
      pod('plain', 'z', { ip: '10.0.0.3', node: 'n1' }),
      {
        ...pod('a', 'nodns', { ip: '10.0.0.4', node: 'n1' }),
        metadata: { name: 'nodns', namespace: 'a', labels: { app: 'nodns' }, annotations: { 'ambient.istio.io/dns-capture': 'false' } },
      },
    ]);
    const v = nodeView(m.cluster, m.ztunnel, 'n1');
    expect(v.node).toBe('n1');
    expect(v.capturedPods).toEqual(['a/nodns', 'a/x']);
    expect(v.inPodListeners).toEqual({ 'a/nodns': [15001, 15006, 15008], 'a/x': [15001, 15006, 15008, 15053] });
    expect(v.workloadsKnown).toEqual(['a/nodns', 'a/x', 'a/y', 'plain/z']);
  });

  it('one certificate per distinct identity of HBONE workloads on the node; Leaf and Root rows', () => {
    const m = model([
      AMB,
      ns('plain'),
      pod('a', 'x1', { ip: '10.0.0.1', sa: 'shared' }),
      pod('a', 'x2', { ip: '10.0.0.2', sa: 'shared' }),
      pod('a', 'other', { ip: '10.0.0.3', node: 'n2' }),
      pod('plain', 'p', { ip: '10.0.0.4' }),
    ]);
    const v = nodeView(m.cluster, m.ztunnel, 'n1');
    expect(v.certificates).toEqual([{ identity: 'spiffe://cluster.local/ns/a/sa/shared', pods: ['a/x1', 'a/x2'] }]);
    const t = certificatesTable(v);
    expect(t.header).toEqual(['CERTIFICATE NAME', 'TYPE', 'STATUS', 'VALID CERT', 'SERIAL NUMBER', 'NOT AFTER', 'NOT BEFORE']);
    expect(t.rows.map((r) => r.slice(0, 4))).toEqual([
      ['spiffe://cluster.local/ns/a/sa/shared', 'Leaf', 'Available', 'true'],
      ['spiffe://cluster.local/ns/a/sa/shared', 'Root', 'Available', 'true'],
    ]);
  });

  it('with the infrastructure setting, each node gets a ztunnel pod in istio-system (app=ztunnel, not captured)', () => {
    const m = model([AMB, pod('a', 'x', { ip: '10.0.0.1', node: 'n1' })], { infrastructure: true });
    const zt = m.cluster.pods.filter((p) => p.role === 'ztunnel');
    expect(zt).toHaveLength(1);
    expect(zt[0]).toMatchObject({ namespace: 'istio-system', node: 'n1', serviceAccount: 'ztunnel', origin: 'infrastructure', mode: 'none' });
    expect(zt[0]!.name.startsWith('ztunnel-')).toBe(true);
    expect(zt[0]!.labels['sidecar.istio.io/inject']).toBe('false');
    expect(nodeView(m.cluster, m.ztunnel, 'n1').capturedPods).toEqual(['a/x']);
  });
});
