// Surviving mutants of src/core/ambient/cluster.ts (the simulated cluster). Expected values:
//  - the injector (manifests/charts/istio-control/istio-discovery/files/injection-template.yaml):
//    sidecar.istio.io/status, security.istio.io/tlsMode=istio, service.istio.io/canonical-name|revision
//    (revision "latest" without app.kubernetes.io/version|version) and, with ISTIO_META_ENABLE_HBONE,
//    networking.istio.io/tunnel=http. What the injector added to a derived pod is not an input: a
//    what-if that turns injection off gives the pod its controller template's labels back.
//  - the ztunnel DaemonSet's pods (manifests/charts/ztunnel: istio-system, app=ztunnel, serviceAccount
//    ztunnel, container istio-proxy, owner DaemonSet ztunnel, generateName ztunnel-).
//  - istio-cni (cni/pkg/nodeagent): ambient.istio.io/redirection is its output; a pasted value other
//    than "enabled" is ignored and noted; a pod without it gets no note.
//  - Kubernetes: a container port's protocol defaults to TCP.
//  - The notes are the assumptions the view and the CLI print.
import { describe, expect, it } from 'vitest';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import type { AmbientSettings } from '../../src/core/ambient/settings.ts';
import { BYPASS_INBOUND_ANNOTATION, DNS_CAPTURE_ANNOTATION, TUNNEL_LABEL } from '../../src/core/ambient/cluster.ts';

const y = (objs: object[]) => objs.map((o) => JSON.stringify(o)).join('\n---\n');
function model(objects: object[], settings: AmbientSettings = {}, opts: { includePlaceholders?: boolean } = {}) {
  const { view, problems } = loadMesh([{ path: 'm.yaml', text: y(objects) }], opts);
  expect(problems).toEqual([]);
  return buildAmbientModel(view, settings);
}
const ns = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const controller = (
  namespace: string,
  name: string,
  kind = 'Deployment',
  labels: Record<string, string> = { app: name },
  o: { annotations?: Record<string, string>; containers?: object[] } = {},
) => ({
  apiVersion: 'apps/v1',
  kind,
  metadata: { name, namespace },
  spec: {
    selector: { matchLabels: labels },
    template: {
      metadata: { labels, ...(o.annotations ? { annotations: o.annotations } : {}) },
      spec: { containers: o.containers ?? [{ name: 'app', image: 'x', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP', name: 'dns' }] }] },
    },
  },
});
const pod = (
  namespace: string,
  name: string,
  o: { labels?: Record<string, string>; annotations?: Record<string, string>; containers?: object[]; ip?: string | null; node?: string } = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { app: name, ...o.labels }, annotations: o.annotations ?? {} },
  spec: { nodeName: o.node ?? 'n1', serviceAccountName: name, containers: o.containers ?? [{ name: 'app', image: 'app' }] },
  status:
    o.ip === null
      ? { phase: 'Pending' }
      : { phase: 'Running', podIP: o.ip ?? '10.0.0.1', podIPs: [{ ip: o.ip ?? '10.0.0.1' }], conditions: [{ type: 'Ready', status: 'True' }] },
});
const INJ = ns('inj', { 'istio-injection': 'enabled' });
const JOB = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'jb', namespace: 'inj' },
  spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'a', image: 'x' }] } } },
};
const NO_INJECTION: AmbientSettings = { overrides: { namespaceLabels: { inj: { 'istio-injection': null } } } };
const byName = (m: ReturnType<typeof model>, namespace: string, prefix: string) =>
  m.cluster.pods.find((p) => p.namespace === namespace && p.name.startsWith(prefix))!;

describe('the exported names', () => {
  it('are the Istio label and annotations', () => {
    expect(TUNNEL_LABEL).toBe('networking.istio.io/tunnel');
    expect(BYPASS_INBOUND_ANNOTATION).toBe('ambient.istio.io/bypass-inbound-capture');
    expect(DNS_CAPTURE_ANNOTATION).toBe('ambient.istio.io/dns-capture');
  });
});

describe('what the injector adds to a pod', () => {
  it('status, tlsMode, canonical labels (revision latest) and the tunnel label', () => {
    const m = model([INJ, controller('inj', 'web', 'Deployment', { app: 'web', 'service.istio.io/canonical-name': 'custom' })]);
    const p = byName(m, 'inj', 'web-');
    expect(p.mode).toBe('sidecar');
    expect(p.annotations['sidecar.istio.io/status']).toBe('{"containers":["istio-proxy"],"simulated":true}');
    expect(p.labels['security.istio.io/tlsMode']).toBe('istio');
    expect(p.labels['service.istio.io/canonical-name']).toBe('custom');
    expect(p.labels['service.istio.io/canonical-revision']).toBe('latest');
    expect(p.labels['networking.istio.io/tunnel']).toBe('http');
    const noHbone = byName(model([INJ, controller('inj', 'web')], { sidecarHbone: false }), 'inj', 'web-');
    expect(noHbone.labels['networking.istio.io/tunnel']).toBeUndefined();
  });

  it('turning injection off gives derived pods their template labels back (Deployment, StatefulSet, Job without template metadata)', () => {
    const m = model(
      [INJ, controller('inj', 'web', 'Deployment', { app: 'web', 'service.istio.io/canonical-name': 'custom' }), controller('inj', 'st', 'StatefulSet'), JOB],
      NO_INJECTION,
    );
    for (const prefix of ['web-', 'st-', 'jb-']) {
      const p = byName(m, 'inj', prefix);
      expect(p.mode).toBe('none');
      expect(p.annotations['sidecar.istio.io/status']).toBeUndefined();
      expect(p.labels['security.istio.io/tlsMode']).toBeUndefined();
      expect(p.labels['service.istio.io/canonical-revision']).toBeUndefined();
      expect(p.labels['networking.istio.io/tunnel']).toBeUndefined();
    }
    // A label the template itself has stays.
    expect(byName(m, 'inj', 'web-').labels['service.istio.io/canonical-name']).toBe('custom');
    expect(byName(m, 'inj', 'st-').labels['service.istio.io/canonical-name']).toBeUndefined();
    const ss = model([INJ, controller('inj', 'ss', 'StatefulSet', { app: 'ss', 'service.istio.io/canonical-name': 'ss-custom' })], NO_INJECTION);
    expect(byName(ss, 'inj', 'ss-').labels['service.istio.io/canonical-name']).toBe('ss-custom');
  });

  it('a template that already carries the sidecar status is taken as injected', () => {
    const m = model([
      ns('plain'),
      controller(
        'plain',
        'pre',
        'Deployment',
        { app: 'pre' },
        {
          annotations: { 'sidecar.istio.io/status': '{"containers":["istio-proxy"]}' },
          containers: [
            { name: 'app', image: 'x' },
            { name: 'istio-proxy', image: 'proxyv2', args: ['proxy', 'sidecar'] },
          ],
        },
      ),
    ]);
    const p = byName(m, 'plain', 'pre-');
    expect(p.mode).toBe('sidecar');
    expect(p.annotations['sidecar.istio.io/status']).toBe('{"containers":["istio-proxy"]}');
  });
});

describe('roles', () => {
  it('gateways by istio label or router proxy; waypoint by its proxy args; otherwise an app', () => {
    const proxy = (args: string[]) => [{ name: 'istio-proxy', image: 'proxyv2', args }];
    const m = model([
      ns('g'),
      pod('g', 'ing', { labels: { istio: 'ingressgateway' } }),
      pod('g', 'egr', { labels: { istio: 'egressgateway' } }),
      pod('g', 'other', { labels: { istio: 'other' } }),
      pod('g', 'router', { containers: proxy(['proxy', 'router']) }),
      pod('g', 'notrouter', { containers: proxy(['x', 'router']) }),
      pod('g', 'wp', { containers: proxy(['proxy', 'waypoint']) }),
      pod('g', 'firstc', { containers: [{ name: 'app', image: 'x', args: ['proxy', 'waypoint'] }] }),
    ]);
    const role = (n: string) => m.cluster.podsByKey.get(`g/${n}`)!.role;
    expect(role('ing')).toBe('gateway');
    expect(role('egr')).toBe('gateway');
    expect(role('other')).toBe('app');
    expect(role('router')).toBe('gateway');
    expect(role('notrouter')).toBe('app');
    expect(role('wp')).toBe('waypoint');
    expect(role('firstc')).toBe('app');
  });

  it('the placeholder ingress gateway is a gateway; its Service a placeholder', () => {
    const m = model(
      [ns('a'), { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'a' }, spec: { selector: { app: 's' }, ports: [{ port: 80 }] } }],
      {},
      { includePlaceholders: true },
    );
    const ph = m.cluster.pods.find((p) => p.origin === 'placeholder');
    expect(ph?.role).toBe('gateway');
    expect(m.cluster.services.find((s) => s.key === 'a/s')?.origin).toBe('file');
    expect(m.cluster.services.filter((s) => s.origin === 'placeholder').length).toBeGreaterThan(0);
    // Without its istio label (a what-if), the placeholder is still the gateway.
    const key = ph!.key;
    const un = model([ns('a')], { overrides: { podLabels: { [key]: { istio: null } } } }, { includePlaceholders: true });
    expect(un.cluster.podsByKey.get(key)!.labels.istio).toBeUndefined();
    expect(un.cluster.podsByKey.get(key)!.role).toBe('gateway');
  });
});

describe('ztunnel pods', () => {
  it('infrastructure: one DaemonSet pod per node, as the chart deploys it', () => {
    const m = model([ns('a'), pod('a', 'x', { node: 'n1' })], { infrastructure: true });
    const zs = m.cluster.pods.filter((p) => p.origin === 'infrastructure');
    expect(zs).toHaveLength(1);
    const z = zs[0]!;
    expect(z.name).toMatch(/^ztunnel-[a-z0-9]{5}$/);
    expect(z.role).toBe('ztunnel');
    expect(z.node).toBe('n1');
    expect(z.serviceAccount).toBe('ztunnel');
    expect(z.resource.key).toBe(`core/Pod/istio-system/${z.name}`);
    expect(z.resource.gvk).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(z.resource.body).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: z.name,
        namespace: 'istio-system',
        generateName: 'ztunnel-',
        labels: { app: 'ztunnel', 'sidecar.istio.io/inject': 'false' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ztunnel', controller: true }],
      },
      spec: { nodeName: 'n1', serviceAccountName: 'ztunnel', containers: [{ name: 'istio-proxy', image: 'istio/ztunnel' }] },
    });
  });

  it('a pod labelled app=ztunnel from another controller is a derived pod, not the infrastructure', () => {
    const m = model([controller('istio-system', 'zt', 'Deployment', { app: 'ztunnel' }), controller('istio-system', 'other', 'DaemonSet', { app: 'ztunnel' })]);
    const zt = byName(m, 'istio-system', 'zt-');
    expect(zt.role).toBe('ztunnel');
    expect(zt.origin).toBe('derived');
    const other = byName(m, 'istio-system', 'other-');
    expect(other.role).toBe('ztunnel');
    expect(other.origin).toBe('derived');
  });
});

describe('pods', () => {
  it("istio-cni's annotation: no note without it, a note for another value", () => {
    const m = model([ns('a'), pod('a', 'plain'), pod('a', 'odd', { annotations: { 'ambient.istio.io/redirection': 'disabled' } })]);
    expect(m.cluster.podsByKey.get('a/plain')!.redirectionNote).toBeUndefined();
    expect(m.cluster.podsByKey.get('a/odd')!.redirectionNote).toBe("ambient.istio.io/redirection=disabled is istio-cni's output, not an input; it is ignored.");
  });

  it('only ambient pods are pending or terminated in the mesh; others keep their mode and no state code', () => {
    const m = model([ns('a'), ns('amb', { 'istio.io/dataplane-mode': 'ambient' }), pod('a', 'run'), pod('a', 'wait', { ip: null }), pod('amb', 'run')]);
    const run = m.cluster.podsByKey.get('a/run')!;
    expect(run.mode).toBe('none');
    expect(run.stateCode).toBeUndefined();
    const wait = m.cluster.podsByKey.get('a/wait')!;
    expect(wait.state).toBe('pending');
    expect(wait.mode).toBe('none');
    expect('stateCode' in wait).toBe(false);
    expect(m.cluster.podsByKey.get('amb/run')!.mode).toBe('ambient');
  });

  it('container ports default to TCP', () => {
    const m = model([
      ns('a'),
      pod('a', 'x', { containers: [{ name: 'app', image: 'x', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP', name: 'dns' }] }] }),
    ]);
    expect(m.cluster.podsByKey.get('a/x')!.containerPorts).toEqual([
      { name: '', port: 80, protocol: 'TCP' },
      { name: 'dns', port: 53, protocol: 'UDP' },
    ]);
  });

  it('a pod in a namespace without a Namespace object is not enrolled', () => {
    const m = model([pod('ghost', 'x')]);
    expect(m.cluster.podsByKey.get('ghost/x')!.mode).toBe('none');
    expect(m.cluster.namespaceLabels('ghost')).toBeUndefined();
  });
});

describe('the cluster', () => {
  it('the root namespace follows meshConfig', () => {
    const m = model([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'istio', namespace: 'istio-system' },
        data: { mesh: 'rootNamespace: mesh-root\ntrustDomain: td.example\n' },
      },
      ns('a'),
      pod('a', 'x'),
    ]);
    expect(m.cluster.rootNamespace).toBe('mesh-root');
    expect(m.cluster.trustDomain).toBe('td.example');
    // Empty values read as Istio's defaults.
    const empty = model([
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'istio', namespace: 'istio-system' }, data: { mesh: 'rootNamespace: ""\ntrustDomain: ""\n' } },
      ns('a'),
      pod('a', 'x'),
    ]);
    expect(empty.cluster.rootNamespace).toBe('istio-system');
    expect(empty.cluster.trustDomain).toBe('cluster.local');
    expect(empty.cluster.podsByKey.get('a/x')!.identity).toBe('spiffe://cluster.local/ns/a/sa/x');
  });

  it('nodes from the settings place the pods that name none', () => {
    const p = pod('a', 'x');
    delete (p.spec as { nodeName?: string }).nodeName;
    const m = model([ns('a'), p], { cluster: { nodes: ['alpha', 'beta'] } });
    expect(m.cluster.nodes.map((n) => n.name)).toEqual(['alpha', 'beta']);
    expect(m.cluster.podsByKey.get('a/x')!.node).toBe('alpha');
    // The user's nodes are where pods are placed, even beside a Node object.
    const withNode = model([{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n0' } }, ns('a'), p], { cluster: { nodes: ['alpha'] } });
    expect(withNode.cluster.podsByKey.get('a/x')!.node).toBe('alpha');
  });

  it('the placement note lists only the nodes pods were placed on', () => {
    const y = pod('a', 'y');
    delete (y.spec as { nodeName?: string }).nodeName;
    const m = model([{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }, ns('a'), pod('a', 'x', { node: 'n1' }), y], {
      cluster: { nodes: ['alpha'] },
    });
    expect(m.cluster.notes).toContain('1 pod(s) name no node: spread round-robin over alpha.');
  });

  it("pods in Kubernetes' own namespaces are system pods", () => {
    const m = model([
      ns('kube-system'),
      pod('kube-system', 'coredns'),
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'kube-dns', namespace: 'kube-system' },
        spec: { clusterIP: '10.96.0.10', selector: { app: 'coredns' }, ports: [{ port: 53 }] },
      },
    ]);
    expect(m.cluster.podsByKey.get('kube-system/coredns')?.origin).toBe('system');
    expect(m.cluster.services.find((s) => s.key === 'kube-system/kube-dns')?.origin).toBe('system');
  });

  it('namespaces are sorted', () => {
    const m = model([ns('zeta'), pod('alpha', 'x'), ns('mid')]);
    expect(m.cluster.namespaces).toEqual(['alpha', 'mid', 'zeta']);
  });

  it('the notes say what was assumed', () => {
    const m = model([
      INJ,
      controller('inj', 'web'),
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        metadata: { name: 'waypoint', namespace: 'inj' },
        spec: { gatewayClassName: 'istio-waypoint', listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
      },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'inj' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
    ]);
    const wp = m.cluster.pods.find((p) => p.origin === 'waypoint')!;
    expect(m.cluster.notes).toEqual([
      'No node is named by a Node object or a pod: assumed nodes node-a, node-b.',
      '2 pod(s) name no node: spread round-robin over node-a, node-b.',
      "1 pod(s) have no status: taken as running and ready, with IPs from their node's range (10.244.<node>.0/24).",
      '2 Service(s) name no clusterIP: allocated from 10.96.0.0/16.',
      `Waypoint objects istiod's deployment controller would create and the files do not hold: Service inj/waypoint, Pod ${wp.key}.`,
      'Gateway inj/waypoint has no status: assumed ready, with the addresses istiod writes (waypoint.inj.svc.cluster.local).',
    ]);
    expect(m.cluster.services.map((s) => [s.key, s.origin])).toEqual([
      ['inj/s', 'file'],
      ['inj/waypoint', 'waypoint'],
    ]);
  });

  it('no notes for a fully described cluster; a Gateway of another class is noted', () => {
    const m = model([
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } },
      ns('a'),
      pod('a', 'x'),
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's', namespace: 'a' },
        spec: { clusterIP: '10.96.0.10', selector: { app: 'x' }, ports: [{ port: 80 }] },
      },
    ]);
    expect(m.cluster.notes).toEqual([]);
    const gw = model([
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } },
      ns('a'),
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        metadata: { name: 'gw', namespace: 'a' },
        spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
        status: { addresses: [{ type: 'IPAddress', value: '10.96.1.1' }] },
      },
    ]);
    expect(gw.cluster.notes).toEqual([
      '1 pod(s) name no node: spread round-robin over n1.',
      '1 Service(s) name no clusterIP: allocated from 10.96.0.0/16.',
      'Gateway a/gw (class istio) has a status address, so istiod would bind to it if asked, but its class does not deploy an HBONE waypoint: traffic sent to it would fail.',
    ]);
  });
});
