// The simulated cluster (src/core/ambient/cluster.ts), istio-cni's in-pod redirection (cni.ts) and the
// simulation settings (settings.ts). Expected values:
//  - istio cni/pkg/iptables/testdata/default.golden (nat table of an enrolled pod; the DNS lines are absent
//    in dns_pod_disabled_and_on_globally.golden); HOST_PROBE_SNAT_IP 169.254.7.127, mark 0x539/0xfff.
//  - cni/pkg/nodeagent (ambient.istio.io/redirection=enabled is written by istio-cni on enrolled, running
//    pods; ambient.istio.io/dns-capture and ambient.istio.io/bypass-inbound-capture pod annotations).
//  - the injector's template (manifests/charts/istio-control/istio-discovery/files/injection-template.yaml):
//    security.istio.io/tlsMode=istio, service.istio.io/canonical-name / canonical-revision (from
//    app.kubernetes.io/name|app, app.kubernetes.io/version|version, else the pod name / latest), and with
//    ISTIO_META_ENABLE_HBONE networking.istio.io/tunnel=http.
//  - the spec /work/shared/specs/ambient-spec.md §0.1 (defaults of the ambient profile: istio-cni
//    excludeNamespaces [kube-system], ambient enabled, DNS capture on, system namespace istio-system,
//    PILOT_AUTO_ALLOW_WAYPOINT_POLICY false) and §1.4 (a pod without an IP or terminated is not redirected).
import { describe, expect, it } from 'vitest';
import { redirectionRules, HOST_PROBE_SNAT_IP } from '../../src/core/ambient/cni.ts';
import { loadMesh } from '../../src/core/meshLoader.ts';
import { ambientModel, buildAmbientModel } from '../../src/core/ambient/dataPlane.ts';
import { describeAssumptions, resolveSettings, settingsKey, withOverrides, type AmbientSettings } from '../../src/core/ambient/settings.ts';

const ns = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const pod = (
  namespace: string,
  name: string,
  o: { labels?: Record<string, string>; annotations?: Record<string, string>; ip?: string | null; phase?: string; node?: string } = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { app: name, ...o.labels }, annotations: o.annotations ?? {} },
  spec: { nodeName: o.node ?? 'n1', serviceAccountName: name, containers: [{ name: 'app', image: 'app', ports: [{ containerPort: 8080 }] }] },
  status:
    o.ip === null
      ? { phase: o.phase ?? 'Pending' }
      : { phase: o.phase ?? 'Running', podIP: o.ip ?? '10.0.0.1', podIPs: [{ ip: o.ip ?? '10.0.0.1' }], conditions: [{ type: 'Ready', status: 'True' }] },
});
function model(objects: object[], settings: AmbientSettings = {}) {
  const { view, problems } = loadMesh([{ path: 'm.yaml', text: objects.map((o) => JSON.stringify(o)).join('\n---\n') }]);
  expect(problems).toEqual([]);
  return { view, m: buildAmbientModel(view, settings) };
}
const AMB = ns('a', { 'istio.io/dataplane-mode': 'ambient' });

describe('istio-cni in-pod redirection (cni/pkg/iptables/testdata/default.golden, nat table)', () => {
  const GOLDEN_NAT = [
    '-A ISTIO_PRERT -s 169.254.7.127 -p tcp -m tcp -j ACCEPT',
    '-A ISTIO_OUTPUT -d 169.254.7.127 -p tcp -m tcp -j ACCEPT',
    '-A ISTIO_PRERT ! -d 127.0.0.1/32 -p tcp ! --dport 15008 -m mark ! --mark 0x539/0xfff -j REDIRECT --to-ports 15006',
    '-A ISTIO_OUTPUT ! -o lo -p udp -m mark ! --mark 0x539/0xfff -m udp --dport 53 -j REDIRECT --to-port 15053',
    '-A ISTIO_OUTPUT ! -d 127.0.0.1/32 -p tcp --dport 53 -m mark ! --mark 0x539/0xfff -j REDIRECT --to-ports 15053',
    '-A ISTIO_OUTPUT -p tcp -m mark --mark 0x111/0xfff -j ACCEPT',
    '-A ISTIO_OUTPUT ! -d 127.0.0.1/32 -o lo -j ACCEPT',
    '-A ISTIO_OUTPUT ! -d 127.0.0.1/32 -p tcp -m mark ! --mark 0x539/0xfff -j REDIRECT --to-ports 15001',
  ];
  const rulesOf = (m: ReturnType<typeof model>['m'], key: string) => redirectionRules(m.cluster.podsByKey.get(key)!);
  const iptables = (rules: ReturnType<typeof redirectionRules>) => rules.map((r) => r.iptables).filter((l) => l.startsWith('-A '));

  it('an enrolled running pod gets exactly the golden nat rules, in order, on the right chains', () => {
    const { m } = model([AMB, pod('a', 'x')]);
    const rules = rulesOf(m, 'a/x');
    expect(iptables(rules)).toEqual(GOLDEN_NAT);
    for (const r of rules) if (r.iptables.startsWith('-A ISTIO_PRERT')) expect(r.chain).toBe('PREROUTING (inbound)');
    for (const r of rules) if (r.iptables.startsWith('-A ISTIO_OUTPUT')) expect(r.chain).toBe('OUTPUT (outbound)');
    expect(HOST_PROBE_SNAT_IP).toBe('169.254.7.127');
  });

  it('DNS capture off (dns_pod_disabled_and_on_globally.golden): no port-53 redirects', () => {
    const { m } = model([AMB, pod('a', 'x', { annotations: { 'ambient.istio.io/dns-capture': 'false' } })]);
    expect(iptables(rulesOf(m, 'a/x'))).toEqual(GOLDEN_NAT.filter((l) => !l.includes('15053')));
    const off = model([AMB, pod('a', 'y')], { cni: { dnsCapture: false } }).m;
    expect(off.cluster.podsByKey.get('a/y')!.dnsCapture).toBe(false);
    const on = model([AMB, pod('a', 'z', { annotations: { 'ambient.istio.io/dns-capture': 'true' } })], { cni: { dnsCapture: false } }).m;
    expect(on.cluster.podsByKey.get('a/z')!.dnsCapture).toBe(true);
  });

  it('bypass-inbound-capture=true: no inbound REDIRECT to 15006, outbound unchanged', () => {
    const { m } = model([AMB, pod('a', 'x', { annotations: { 'ambient.istio.io/bypass-inbound-capture': 'true' } })]);
    const p = m.cluster.podsByKey.get('a/x')!;
    expect(p.bypassInboundCapture).toBe(true);
    expect(iptables(redirectionRules(p))).toEqual(GOLDEN_NAT.filter((l) => !l.includes('--to-ports 15006')));
    expect(
      model([AMB, pod('a', 'y', { annotations: { 'ambient.istio.io/bypass-inbound-capture': 'false' } })]).m.cluster.podsByKey.get('a/y')!.bypassInboundCapture,
    ).toBe(false);
  });

  it('no rules for a pod that is not enrolled, pending (no IP) or terminated', () => {
    const { m } = model([AMB, ns('plain'), pod('plain', 'x'), pod('a', 'pending', { ip: null }), pod('a', 'done', { phase: 'Succeeded' })]);
    expect(rulesOf(m, 'plain/x')).toEqual([]);
    expect(rulesOf(m, 'a/pending')).toEqual([]);
    expect(rulesOf(m, 'a/done')).toEqual([]);
  });
});

describe('pod state and istio-cni marks (spec §1.4; istio-cni writes ambient.istio.io/redirection=enabled)', () => {
  it("origin: pods from the files are file; a ztunnel DaemonSet's pods in the system namespace are infrastructure", () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'ztunnel', namespace: 'istio-system' },
      spec: {
        selector: { matchLabels: { app: 'ztunnel' } },
        template: {
          metadata: { labels: { app: 'ztunnel' } },
          spec: { serviceAccountName: 'ztunnel', containers: [{ name: 'istio-proxy', image: 'ztunnel' }] },
        },
      },
    };
    const other = { ...ds, metadata: { name: 'ztunnel', namespace: 'tools' } };
    const { m } = model([AMB, pod('a', 'x'), ns('istio-system'), ns('tools'), ds, other]);
    expect(m.cluster.podsByKey.get('a/x')!.origin).toBe('file');
    const zt = m.cluster.pods.filter((p) => p.namespace === 'istio-system' && p.resource.derivedFrom?.name === 'ztunnel');
    expect(zt.length).toBeGreaterThan(0);
    for (const p of zt) expect(p).toMatchObject({ origin: 'infrastructure', role: 'ztunnel' });
    const tools = m.cluster.pods.filter((p) => p.namespace === 'tools');
    expect(tools.length).toBeGreaterThan(0);
    for (const p of tools) expect(p).toMatchObject({ origin: 'derived', role: 'app' });
  });

  it('an enrolled running pod carries the redirection annotation; a pending one is mode pending (NoPodIP); a terminated one none (Terminated)', () => {
    const { m } = model([AMB, pod('a', 'run'), pod('a', 'pending', { ip: null }), pod('a', 'done', { phase: 'Failed' })]);
    const run = m.cluster.podsByKey.get('a/run')!;
    expect(run).toMatchObject({ mode: 'ambient', state: 'running' });
    expect(run.stateCode).toBeUndefined();
    expect(run.annotations['ambient.istio.io/redirection']).toBe('enabled');
    const pending = m.cluster.podsByKey.get('a/pending')!;
    expect(pending).toMatchObject({ mode: 'pending', state: 'pending', stateCode: 'NoPodIP' });
    expect(pending.annotations['ambient.istio.io/redirection']).toBeUndefined();
    expect(m.cluster.podsByKey.get('a/done')).toMatchObject({ mode: 'none', state: 'terminated', stateCode: 'Terminated' });
  });

  it('a pasted redirection annotation is an output, never an input', () => {
    const { m } = model([
      ns('plain'),
      pod('plain', 'x', { annotations: { 'ambient.istio.io/redirection': 'enabled' } }),
      pod('plain', 'y', { ip: '10.0.0.2', annotations: { 'ambient.istio.io/redirection': 'disabled' } }),
    ]);
    const x = m.cluster.podsByKey.get('plain/x')!;
    expect(x.mode).toBe('none');
    expect(x.annotations['ambient.istio.io/redirection']).toBeUndefined();
    expect(x.redirectionNote).toBeDefined();
    expect(x.redirectionNote).toContain('ambient.istio.io/redirection');
    const y = m.cluster.podsByKey.get('plain/y')!;
    expect(y.redirectionNote).toContain('disabled');
    // An enrolled pod with the annotation pasted: consistent, no note.
    expect(
      model([AMB, pod('a', 'z', { annotations: { 'ambient.istio.io/redirection': 'enabled' } })]).m.cluster.podsByKey.get('a/z')!.redirectionNote,
    ).toBeUndefined();
  });

  it('identity is spiffe://<trust domain>/ns/<ns>/sa/<service account>', () => {
    expect(model([AMB, pod('a', 'x')]).m.cluster.podsByKey.get('a/x')!.identity).toBe('spiffe://cluster.local/ns/a/sa/x');
  });
});

describe('sidecar injection marks (injection-template.yaml)', () => {
  const INJ = ns('inj', { 'istio-injection': 'enabled' });
  it('an injected pod gets tlsMode istio, canonical name/revision and, with HBONE, tunnel=http', () => {
    const { m } = model([
      INJ,
      pod('inj', 'x', { labels: { version: 'v3' } }),
      pod('inj', 'y', { ip: '10.0.0.2', labels: { 'app.kubernetes.io/name': 'why', 'app.kubernetes.io/version': '1.0' } }),
    ]);
    const x = m.cluster.podsByKey.get('inj/x')!;
    expect(x.mode).toBe('sidecar');
    expect(x.labels['security.istio.io/tlsMode']).toBe('istio');
    expect(x.labels['service.istio.io/canonical-name']).toBe('x');
    expect(x.labels['service.istio.io/canonical-revision']).toBe('v3');
    expect(x.labels['networking.istio.io/tunnel']).toBe('http');
    expect(x.annotations['sidecar.istio.io/status']).toBeDefined();
    const y = m.cluster.podsByKey.get('inj/y')!;
    expect(y.labels['service.istio.io/canonical-name']).toBe('why');
    expect(y.labels['service.istio.io/canonical-revision']).toBe('1.0');
  });

  it('the injector status annotation lists the istio-proxy container; a pod already injected is left as written', () => {
    const { m } = model([
      INJ,
      pod('inj', 'x'),
      pod('inj', 'pre', { ip: '10.0.0.3', annotations: { 'sidecar.istio.io/status': '{"containers":["istio-proxy"]}' } }),
    ]);
    const status = JSON.parse(m.cluster.podsByKey.get('inj/x')!.annotations['sidecar.istio.io/status']!) as { containers: string[] };
    expect(status.containers).toContain('istio-proxy');
    const pre = m.cluster.podsByKey.get('inj/pre')!;
    expect(pre.mode).toBe('sidecar');
    expect(pre.enrollment.injection.code).toBe('AlreadyInjected');
    expect(pre.labels['security.istio.io/tlsMode']).toBeUndefined();
  });

  it('without ISTIO_META_ENABLE_HBONE no tunnel label; explicit canonical labels are kept', () => {
    const { m } = model([INJ, pod('inj', 'x', { labels: { 'service.istio.io/canonical-name': 'keep', 'service.istio.io/canonical-revision': 'r1' } })], {
      sidecarHbone: false,
    });
    const x = m.cluster.podsByKey.get('inj/x')!;
    expect(x.labels['networking.istio.io/tunnel']).toBeUndefined();
    expect(x.labels['service.istio.io/canonical-name']).toBe('keep');
    expect(x.labels['service.istio.io/canonical-revision']).toBe('r1');
  });

  it('a Deployment in an injection namespace: its derived pods are sidecars with the same marks, judged from the template', () => {
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'inj' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app' }] } },
      },
    };
    const { m } = model([INJ, dep]);
    const p = m.cluster.pods.find((x) => x.namespace === 'inj' && x.resource.derivedFrom?.name === 'web')!;
    expect(p.origin).toBe('derived');
    expect(p.mode).toBe('sidecar');
    expect(p.labels['security.istio.io/tlsMode']).toBe('istio');
    expect(p.labels['networking.istio.io/tunnel']).toBe('http');
    const noHbone = buildAmbientModel(loadMesh([{ path: 'm.yaml', text: [INJ, dep].map((o) => JSON.stringify(o)).join('\n---\n') }]).view, {
      sidecarHbone: false,
    });
    const q = noHbone.cluster.pods.find((x) => x.namespace === 'inj' && x.resource.derivedFrom?.name === 'web')!;
    expect(q.labels['networking.istio.io/tunnel']).toBeUndefined();
  });

  it('a Deployment in an ambient namespace: derived pods are ambient', () => {
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
    const { m } = model([AMB, dep]);
    const pods = m.cluster.pods.filter((x) => x.namespace === 'a' && x.resource.derivedFrom?.name === 'web');
    expect(pods.length).toBe(2);
    for (const p of pods) expect(p).toMatchObject({ origin: 'derived', mode: 'ambient', role: 'app' });
  });
});

describe('what-if overrides (settings.ts withOverrides; the user files are untouched)', () => {
  it('withOverrides sets and removes labels on a copy', () => {
    const base = { a: '1', b: '2' };
    const out = withOverrides(base, { a: null, c: '3', b: '4' });
    expect({ ...out }).toEqual({ b: '4', c: '3' });
    expect(base).toEqual({ a: '1', b: '2' });
    expect(withOverrides(base, undefined)).toBe(base);
    expect(withOverrides(base, {})).toBe(base);
  });

  it('a namespace override enrolls its pods, and a namespace that has no object still gets labels', () => {
    const { m } = model([ns('plain'), pod('plain', 'x'), pod('ghost', 'y', { ip: '10.0.0.2' })], {
      overrides: { namespaceLabels: { plain: { 'istio.io/dataplane-mode': 'ambient' }, ghost: { 'istio.io/dataplane-mode': 'ambient' } } },
    });
    expect(m.cluster.podsByKey.get('plain/x')).toMatchObject({ mode: 'ambient', overridden: true });
    expect(m.cluster.namespaceLabels('plain')?.['istio.io/dataplane-mode']).toBe('ambient');
    expect(m.cluster.namespaceLabels('ghost')?.['istio.io/dataplane-mode']).toBe('ambient');
    expect(m.cluster.namespaceLabels('nowhere')).toBeUndefined();
  });

  it('a pod override (dataplane-mode none) opts one pod out; others are not marked overridden', () => {
    const { m } = model([AMB, pod('a', 'x'), pod('a', 'y', { ip: '10.0.0.2' })], {
      overrides: { podLabels: { 'a/x': { 'istio.io/dataplane-mode': 'none' } } },
    });
    expect(m.cluster.podsByKey.get('a/x')).toMatchObject({ mode: 'none', overridden: true });
    expect(m.cluster.podsByKey.get('a/y')).toMatchObject({ mode: 'ambient', overridden: false });
  });
});

describe('settings defaults (spec §0.1) and cache key', () => {
  it('resolveSettings fills the ambient profile defaults', () => {
    expect(resolveSettings()).toEqual({
      nodes: undefined,
      excludeNamespaces: ['kube-system'],
      ambientEnabled: true,
      dnsCapture: true,
      systemNamespace: 'istio-system',
      notReadyWaypoints: [],
      sidecarHbone: true,
      autoAllowWaypointPolicy: false,
      infrastructure: false,
      overrides: {},
    });
  });

  it('keeps given values and trims node names, dropping empty ones', () => {
    const r = resolveSettings({
      cluster: { nodes: [' n1 ', '', '  ', 'n2'] },
      cni: { excludeNamespaces: [], ambientEnabled: false, dnsCapture: false, systemNamespace: 'sys' },
      notReadyWaypoints: ['a/w'],
      sidecarHbone: false,
      autoAllowWaypointPolicy: true,
      infrastructure: true,
    });
    expect(r).toMatchObject({
      nodes: ['n1', 'n2'],
      excludeNamespaces: [],
      ambientEnabled: false,
      dnsCapture: false,
      systemNamespace: 'sys',
      notReadyWaypoints: ['a/w'],
      sidecarHbone: false,
      autoAllowWaypointPolicy: true,
      infrastructure: true,
    });
    expect(resolveSettings({ cluster: { nodes: ['', ' '] } }).nodes).toBeUndefined();
  });

  it('settingsKey does not depend on key order, and differs when a value differs', () => {
    const a = resolveSettings({ overrides: { podLabels: { 'a/x': { b: '1', a: '2' } } } });
    const b = resolveSettings({ overrides: { podLabels: { 'a/x': { a: '2', b: '1' } } } });
    expect(settingsKey(a)).toBe(settingsKey(b));
    expect(settingsKey(resolveSettings({ sidecarHbone: false }))).not.toBe(settingsKey(resolveSettings({})));
  });

  it('ambientModel caches per settings: the same settings give the same model, others a new one', () => {
    const { view } = loadMesh([{ path: 'm.yaml', text: [AMB, pod('a', 'x')].map((o) => JSON.stringify(o)).join('\n---\n') }]);
    const m1 = ambientModel(view, {});
    expect(ambientModel(view, {})).toBe(m1);
    const m2 = ambientModel(view, { sidecarHbone: false });
    expect(m2).not.toBe(m1);
    expect(ambientModel(view, { sidecarHbone: false })).toBe(m2);
  });

  it('describeAssumptions states the switches and the excluded namespaces', () => {
    const on = describeAssumptions(resolveSettings());
    expect(on[0]).toContain('istio-cni with ambient enabled');
    expect(on[0]).toContain('sidecars with HBONE');
    expect(on[0]).toContain('DNS capture on');
    expect(on[1]).toContain('kube-system');
    expect(on[3]).toContain('PILOT_AUTO_ALLOW_WAYPOINT_POLICY off');
    const off = describeAssumptions(
      resolveSettings({ cni: { ambientEnabled: false, dnsCapture: false, excludeNamespaces: [] }, sidecarHbone: false, autoAllowWaypointPolicy: true }),
    );
    expect(off[0]).toContain('DISABLED');
    expect(off[0]).toContain('DNS capture off');
    expect(off[0]).toContain('istio-cni with ambient DISABLED');
    expect(off[0]).toContain('sidecars without HBONE');
    expect(off[1]).toContain('(none)');
    expect(off[3]).toContain('PILOT_AUTO_ALLOW_WAYPOINT_POLICY on');
    expect(describeAssumptions(resolveSettings({ cni: { excludeNamespaces: ['x', 'y'] } }))[1]).toContain('x, y');
  });
});

describe('loadMesh options', () => {
  it("includePlaceholders (default false) assumes Istio's ingress gateway pod when the files have none", () => {
    const text = [AMB, pod('a', 'x')].map((o) => JSON.stringify(o)).join('\n---\n');
    const without = buildAmbientModel(loadMesh([{ path: 'm.yaml', text }]).view, {});
    expect(without.cluster.pods.filter((p) => p.origin === 'placeholder')).toEqual([]);
    const withP = buildAmbientModel(loadMesh([{ path: 'm.yaml', text }], { includePlaceholders: true }).view, {});
    const ph = withP.cluster.pods.filter((p) => p.origin === 'placeholder');
    expect(ph.length).toBeGreaterThan(0);
    for (const p of ph) expect(p.role).toBe('gateway');
  });

  it('reports unreadable documents as file:line problems', () => {
    const { problems } = loadMesh([{ path: 'bad.yaml', text: 'a: [\n' }]);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(/^bad\.yaml:\d+: /);
  });
});

describe('cluster notes (what the model assumed)', () => {
  it('pods without a node or status, and Services without a clusterIP, are reported', () => {
    const bare = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'b', namespace: 'a', labels: { app: 'b' } },
      spec: { containers: [{ name: 'app', image: 'app' }] },
    };
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'b', namespace: 'a' }, spec: { selector: { app: 'b' }, ports: [{ port: 80 }] } };
    const { m } = model([AMB, bare, svc]);
    const p = m.cluster.podsByKey.get('a/b')!;
    expect(p.nodeAssumed).toBe(true);
    expect(p.ipAssumed).toBe(true);
    expect(m.cluster.notes.some((n) => n.startsWith('1 pod(s) name no node'))).toBe(true);
    expect(m.cluster.notes.some((n) => n.startsWith('1 pod(s) have no status'))).toBe(true);
    expect(m.cluster.notes.some((n) => n.startsWith('1 Service(s) name no clusterIP'))).toBe(true);
    expect(m.cluster.namespaces).toEqual(['a']);
  });

  it('with no Node object and no pod naming a node, the assumed nodes are reported', () => {
    const bare = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'b', namespace: 'a', labels: { app: 'b' } },
      spec: { containers: [{ name: 'app', image: 'app' }] },
    };
    const { m } = model([AMB, bare]);
    expect(m.cluster.nodes.every((n) => n.source === 'assumed')).toBe(true);
    expect(m.cluster.notes.some((n) => n.startsWith('No node is named'))).toBe(true);
    expect(model([AMB, pod('a', 'x')]).m.cluster.notes.some((n) => n.startsWith('No node is named'))).toBe(false);
  });

  it('objects without a namespace go to the default namespace', () => {
    const nons = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'x', labels: { app: 'x' } },
      spec: { nodeName: 'n1', containers: [{ name: 'app', image: 'app' }] },
      status: { phase: 'Running', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }] },
    };
    expect(model([nons]).m.cluster.podsByKey.has('default/x')).toBe(true);
  });

  it('pod roles from the istio-proxy container arguments (proxy router: gateway; proxy waypoint: waypoint)', () => {
    const proxyPod = (name: string, args: string[]) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'g', labels: { app: name } },
      spec: { nodeName: 'n1', containers: [{ name: 'istio-proxy', image: 'proxyv2', args }] },
      status: { phase: 'Running', podIP: `10.0.9.${name.length}`, podIPs: [{ ip: `10.0.9.${name.length}` }] },
    });
    const { m } = model([
      ns('g'),
      proxyPod('gw', ['proxy', 'router']),
      proxyPod('wayp', ['proxy', 'waypoint']),
      proxyPod('other', ['x', 'waypoint']),
      proxyPod('sidecar', ['proxy', 'sidecar']),
    ]);
    expect(m.cluster.podsByKey.get('g/gw')!.role).toBe('gateway');
    expect(m.cluster.podsByKey.get('g/wayp')!.role).toBe('waypoint');
    expect(m.cluster.podsByKey.get('g/other')!.role).toBe('app');
    expect(m.cluster.podsByKey.get('g/sidecar')!.role).toBe('app');
  });

  it('the trust domain comes from meshConfig.trustDomain', () => {
    const text = [AMB, pod('a', 'x')].map((o) => JSON.stringify(o)).join('\n---\n');
    const { view } = loadMesh([{ path: 'm.yaml', text }], { meshConfigText: 'trustDomain: example.org\n' });
    const m = buildAmbientModel(view, {});
    expect(m.cluster.trustDomain).toBe('example.org');
    expect(m.cluster.podsByKey.get('a/x')!.identity).toBe('spiffe://example.org/ns/a/sa/x');
  });

  it('nothing is reported when every pod names its node and has a status', () => {
    const { m } = model([AMB, pod('a', 'x')]);
    expect(m.cluster.notes.filter((n) => n.includes('pod(s)'))).toEqual([]);
  });
});
