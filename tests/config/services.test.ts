import { describe, expect, it } from 'vitest';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../src/core/config/store.ts';
import { configView, type ConfigView } from '../../src/core/config/configView.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../src/core/config/mesh/meshconfig.ts';
import { meshServices, servicesVisibleFrom } from '../../src/core/config/services.ts';
import { kubePortProtocol } from '../../src/core/config/protocol.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

function viewOf(text: string): ConfigView {
  const model = new WorkspaceModel(kindProblems);
  model.update([{ path: 'm.yaml', text }], []);
  return configView(
    new ResourceStore(model.resources(), {
      mode: 'cli',
      defaultNamespace: 'default',
      includePlaceholders: false,
      deriveWorkloads: true,
      meshConfig: defaultMeshConfig(),
      meshNetworks: defaultMeshNetworks(),
    }),
  );
}

const MESH = `apiVersion: v1
kind: Service
metadata: {name: reviews, namespace: shop}
spec:
  clusterIP: 10.96.0.10
  selector: {app: reviews}
  ports:
  - {name: http, port: 9080, targetPort: web}
  - {name: metrics, port: 9090, appProtocol: http}
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: shop, annotations: {networking.istio.io/exportTo: "."}}
spec:
  clusterIP: None
  selector: {app: db}
  ports: [{name: tcp-pg, port: 5432}]
---
apiVersion: v1
kind: Service
metadata: {name: legacy, namespace: shop}
spec:
  type: ExternalName
  externalName: legacy.example.com
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Pod
metadata: {name: reviews-1, namespace: shop, labels: {app: reviews}}
spec:
  serviceAccountName: bookinfo-reviews
  containers: [{name: app, image: x, ports: [{name: web, containerPort: 8080}]}]
status: {podIP: 10.1.2.3}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: pg, image: postgres}]}
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: payments, namespace: shop}
spec:
  hosts: [payments.example.com, pay.example.com]
  exportTo: [".", billing]
  location: MESH_EXTERNAL
  resolution: DNS
  ports: [{number: 443, name: tls, protocol: TLS}]
  endpoints: [{address: 203.0.113.7, labels: {region: eu}}]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: vms, namespace: shop}
spec:
  hosts: [vm.shop.internal]
  location: MESH_INTERNAL
  resolution: STATIC
  ports: [{number: 80, name: http, protocol: HTTP, targetPort: 8000}]
  workloadSelector: {labels: {app: vm}}
---
apiVersion: networking.istio.io/v1
kind: WorkloadEntry
metadata: {name: vm-1, namespace: shop}
spec: {address: 192.168.1.5, labels: {app: vm}, serviceAccount: vm-sa}
`;

describe('service registry', () => {
  const view = viewOf(MESH);
  const by = (h: string) => meshServices(view).find((s) => s.hostname === h)!;

  it('turns Services into cluster FQDNs with protocols, addresses and resolution', () => {
    const reviews = by('reviews.shop.svc.cluster.local');
    expect(reviews.ports.map((p) => [p.name, p.port, p.protocol])).toEqual([
      ['http', 9080, 'HTTP'],
      ['metrics', 9090, 'HTTP'],
    ]);
    expect(reviews.resolution).toBe('ClientSideLB');
    expect(reviews.addresses).toEqual(['10.96.0.10']);
    expect(by('db.shop.svc.cluster.local').resolution).toBe('Passthrough');
    const legacy = by('legacy.shop.svc.cluster.local');
    expect([legacy.resolution, legacy.meshExternal, legacy.endpoints.length]).toEqual(['Alias', true, 0]);
  });

  it('finds endpoints among the pods, derived ones too, with named target ports resolved', () => {
    const ep = by('reviews.shop.svc.cluster.local').endpoints;
    expect(ep.map((e) => [e.address, e.ports.http, e.identity])).toEqual([['10.1.2.3', 8080, 'spiffe://cluster.local/ns/shop/sa/bookinfo-reviews']]);
    const db = by('db.shop.svc.cluster.local').endpoints;
    expect(db).toHaveLength(1);
    expect(db[0]!.workload?.name).toBe('db-0');
    expect(db[0]!.ports['tcp-pg']).toBe(5432);
  });

  it('gives each ServiceEntry host a service, with inline or selected endpoints', () => {
    expect(by('payments.example.com').endpoints.map((e) => e.address)).toEqual(['203.0.113.7']);
    expect(by('pay.example.com').resolution).toBe('DNS');
    const vm = by('vm.shop.internal');
    expect([vm.meshExternal, vm.resolution]).toEqual([false, 'ClientSideLB']);
    expect(vm.endpoints.map((e) => [e.address, e.ports.http, e.identity])).toEqual([['192.168.1.5', 8000, 'spiffe://cluster.local/ns/shop/sa/vm-sa']]);
  });

  it('honours exportTo: the annotation on Services, the field on ServiceEntries', () => {
    const seen = (ns: string) =>
      servicesVisibleFrom(view, ns)
        .map((s) => s.hostname)
        .sort();
    expect(seen('shop')).toContain('db.shop.svc.cluster.local');
    expect(seen('other')).not.toContain('db.shop.svc.cluster.local');
    expect(seen('billing')).toContain('payments.example.com');
    expect(seen('other')).not.toContain('payments.example.com');
    expect(seen('other')).toContain('reviews.shop.svc.cluster.local');
  });

  it("reads port protocols as Istio's ConvertProtocol does", () => {
    expect(kubePortProtocol(80, 'http-web', 'TCP', undefined)).toBe('HTTP');
    expect(kubePortProtocol(80, 'grpc-web-x', 'TCP', undefined)).toBe('GRPC-Web');
    expect(kubePortProtocol(80, 'web', 'TCP', 'kubernetes.io/h2c')).toBe('HTTP2');
    expect(kubePortProtocol(3306, 'db', 'TCP', undefined)).toBe('TCP');
    expect(kubePortProtocol(3307, 'db', 'TCP', undefined)).toBe('UnsupportedProtocol');
    expect(kubePortProtocol(53, 'dns', 'UDP', 'http')).toBe('UDP');
    expect(kubePortProtocol(80, 'HTTPS-x', 'TCP', undefined)).toBe('HTTPS');
  });

  it("selects a ServiceEntry's WorkloadEntries by every selector pair, in its namespace, spec labels over metadata labels, in load order", () => {
    const entry = (name: string, ns: string, address: string, meta: string, spec: string) =>
      `apiVersion: networking.istio.io/v1
kind: WorkloadEntry
metadata: {name: ${name}, namespace: ${ns}, labels: {${meta}}}
spec: {address: ${address}, labels: {${spec}}}
`;
    const text = [
      `apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: vms, namespace: shop}
spec:
  hosts: [vm.shop.internal]
  location: MESH_INTERNAL
  resolution: STATIC
  ports: [{number: 80, name: http, protocol: HTTP}]
  workloadSelector: {labels: {app: vm, tier: db}}
`,
      entry('a', 'shop', '192.168.1.1', 'app: vm', 'tier: db'),
      entry('b', 'shop', '192.168.1.2', 'app: vm, tier: db', 'tier: web'),
      entry('c', 'other', '192.168.1.3', 'app: vm, tier: db', ''),
      entry('d', 'shop', '192.168.1.4', '', 'app: vm, tier: db'),
      entry('e', 'shop', '192.168.1.5', 'app: vm', ''),
    ].join('---\n');
    const vm = meshServices(viewOf(text)).find((s) => s.hostname === 'vm.shop.internal')!;
    // b's spec relabels it tier=web; c is in another namespace; e lacks tier.
    expect(vm.endpoints.map((e) => e.address)).toEqual(['192.168.1.1', '192.168.1.4']);
  });
});
