// Pods derived from controllers when the workspace holds none of their own.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { ResourceStore, type StoreOptions } from '../../src/core/config/store.ts';
import { KINDS } from '../../src/core/document/kinds.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../src/core/config/mesh/meshconfig.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import type { Resource } from '../../src/core/document/types.ts';
import { PodSpec, PodTemplate, podSpec, podStatus } from '../../src/core/config/api/kube.ts';
import { templateFingerprintHash } from '../../src/core/config/derivedWorkloads.ts';
import { fnv32a } from '../../src/core/config/fnv.ts';
import { yamlFiles } from '../helpers/files.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

function storeOptions(derive = true): StoreOptions {
  return {
    mode: 'cli',
    defaultNamespace: 'default',
    includePlaceholders: false,
    deriveWorkloads: derive,
    meshConfig: defaultMeshConfig(),
    meshNetworks: defaultMeshNetworks(),
  };
}

function storeOf(files: Record<string, string>, derive = true): ResourceStore {
  const model = new WorkspaceModel(kindProblems);
  model.update(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    [],
  );
  return new ResourceStore(model.resources(), storeOptions(derive));
}

const derived = (s: ResourceStore) => s.list(KINDS.Pod).filter((p) => p.synthetic === 'derived');

function deployment(
  name: string,
  ns: string,
  extra: { replicas?: number; labels?: Record<string, string>; annotations?: Record<string, string>; hostNetwork?: boolean } = {},
): string {
  const labels = extra.labels ?? { app: name };
  const lbl = (indent: string) =>
    Object.entries(labels)
      .map(([k, v]) => `${indent}${k}: "${v}"`)
      .join('\n');
  const ann = extra.annotations
    ? `\n      annotations:\n${Object.entries(extra.annotations)
        .map(([k, v]) => `        ${k}: "${v}"`)
        .join('\n')}`
    : '';
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  replicas: ${extra.replicas ?? 1}
  selector:
    matchLabels:
${lbl('      ')}
  template:
    metadata:
      labels:
${lbl('        ')}${ann}
    spec:${extra.hostNetwork ? '\n      hostNetwork: true' : ''}
      containers:
      - name: app
        image: example.org/${name}:1
`;
}

const namespace = (name: string, labels: Record<string, string> = {}) =>
  `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n  labels:\n${
    Object.entries(labels)
      .map(([k, v]) => `    ${k}: ${v}`)
      .join('\n') || '    team: x'
  }\n`;

describe('pods derived from controllers', () => {
  it('our Bookinfo with Deployments only: IST0173 just for the subsets no Deployment provides, no IST0103, no IST0162 for the gateway port 8080', async () => {
    const files: Record<string, string> = {};
    for (const f of yamlFiles('tests/fixtures/bookinfo-deployments')) files[f] = readFileSync(f, 'utf8');
    const wa = new WorkspaceAnalyzer();
    wa.update(
      Object.entries(files).map(([path, text]) => ({ path, text })),
      [],
    );
    const result = await wa.run(defaultAnalysisSettings());
    if (result === 'canceled') throw new Error('canceled');
    const codes = result.diagnostics.map((d) => `${d.code} ${d.origin} ${d.message.match(/Subset (\S+)/)?.[1] ?? ''}`.trim());
    expect(codes.filter((c) => c.startsWith('IST0173')).sort()).toEqual([
      'IST0173 DestinationRule shop/ratings canary',
      'IST0173 DestinationRule shop/reviews v4',
    ]);
    // The assumed gateway is the default ingress chart's, whose Service sends port 80 to the
    // container's 8080, where the shop gateway listens (gateway.go accepts a target port).
    expect(codes.filter((c) => /IST0162|IST0103|IST0101/.test(c))).toEqual([]);
  });

  it('names pods as Kubernetes does, as many as the replicas, with unique IPs, deterministically', () => {
    const files = { 'a.yaml': [deployment('web', 'shop', { replicas: 3 }), deployment('api', 'shop')].join('---\n') };
    const pods = derived(storeOf(files));
    expect(pods.map((p) => p.name.replace(/-[a-z0-9]{10}-[a-z0-9]{5}$/, '-<hash>-<id>'))).toEqual([
      'web-<hash>-<id>',
      'web-<hash>-<id>',
      'web-<hash>-<id>',
      'api-<hash>-<id>',
    ]);
    expect(new Set(pods.map((p) => p.name)).size).toBe(4);
    const ips = pods.map((p) => podStatus(p).podIP);
    expect(new Set(ips).size).toBe(4);
    for (const ip of ips) expect(ip).toMatch(/^10\.244\.\d+\.\d+$/);
    expect(derived(storeOf(files)).map((p) => [p.name, podStatus(p).podIP])).toEqual(pods.map((p) => [p.name, podStatus(p).podIP]));
    // The replica set hash is shared by the pods of one Deployment.
    expect(new Set(pods.slice(0, 3).map((p) => p.labels['pod-template-hash'])).size).toBe(1);
    expect(pods[0]!.derivedFrom).toEqual({ kind: 'Deployment', namespace: 'shop', name: 'web' });
  });

  it('derives every replica: a generated name that repeats a sibling is asked for again, as the API server makes the controller do', () => {
    // 40 Deployments of 20 replicas (the most derived): with five random characters from 27,
    // Kubernetes' pods practically never collide, and none of the 800 may be lost here either.
    const files = { 'a.yaml': Array.from({ length: 40 }, (_, i) => deployment(`app-${i}`, 'shop', { replicas: 20 })).join('---\n') };
    const pods = derived(storeOf(files));
    expect(pods).toHaveLength(800);
    expect(new Set(pods.map((p) => p.name)).size).toBe(800);
    for (const p of pods) expect(p.name).toMatch(/^app-\d+-[bcdfghjklmnpqrstvwxz2456789]{1,10}-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('gives derived pods addresses that no workspace pod holds', () => {
    const files = { 'a.yaml': deployment('web', 'shop', { replicas: 3 }) };
    const first = derived(storeOf(files)).map((p) => podStatus(p).podIP);
    // A workspace pod (of another app) already at the first derived address: the derivation steps past it.
    const squatter = `apiVersion: v1
kind: Pod
metadata: {name: squatter, namespace: other, labels: {app: other}}
spec: {containers: [{name: c, image: i}]}
status: {podIP: ${first[0]}}
`;
    const again = derived(storeOf({ ...files, 'b.yaml': squatter })).map((p) => podStatus(p).podIP);
    expect(again).not.toContain(first[0]);
    expect(again.slice(1)).toEqual(first.slice(1));
    expect(new Set(again).size).toBe(3);
  });

  it('keeps a derived pod the same object across a refresh that leaves its controller and inputs alone', () => {
    const model = new WorkspaceModel(kindProblems);
    const web = deployment('web', 'shop', { replicas: 2 });
    const api = deployment('api', 'shop');
    model.update(
      [
        { path: 'a.yaml', text: web },
        { path: 'b.yaml', text: api },
      ],
      [],
    );
    model.takeChangedKinds();
    const store = new ResourceStore(model.resources(), storeOptions());
    const before = derived(store);
    // A Namespace is an input of the derivation (injection labels), so the pods are re-derived…
    const ns = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: other}\n';
    model.update(
      [
        { path: 'a.yaml', text: web },
        { path: 'b.yaml', text: api },
        { path: 'c.yaml', text: ns },
      ],
      [],
    );
    store.refreshKinds(model.resources(), new Set(model.takeChangedKinds()));
    const after = derived(store);
    // …and come out as the very same objects.
    expect(after.length).toBe(3);
    after.forEach((p, i) => expect(p).toBe(before[i]));
    // A changed controller gives new pods; the other controller's stay.
    model.update(
      [
        { path: 'a.yaml', text: deployment('web', 'shop', { replicas: 3 }) },
        { path: 'b.yaml', text: api },
        { path: 'c.yaml', text: ns },
      ],
      [],
    );
    store.refreshKinds(model.resources(), new Set(model.takeChangedKinds()));
    const third = derived(store);
    expect(third.length).toBe(4);
    for (const p of third.filter((p) => p.derivedFrom?.name === 'web')) expect(before).not.toContain(p);
    expect(third.find((p) => p.derivedFrom?.name === 'api')).toBe(before.find((p) => p.derivedFrom?.name === 'api'));
  });

  it("reads a derived pod's spec as PodSpec reads it, though its view is made from the template's", () => {
    const gateway = `apiVersion: apps/v1
kind: Deployment
metadata: {name: gw, namespace: inj}
spec:
  selector: {matchLabels: {istio: gw}}
  template:
    metadata: {labels: {istio: gw}}
    spec:
      containers:
      - {name: istio-proxy, image: auto, ports: [{containerPort: 8080}]}
      - {name: helper, image: h, securityContext: {runAsUser: 1337}}
`;
    const odd = (ns: string, containers: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: odd-${ns}, namespace: ${ns}}
spec:
  selector: {matchLabels: {app: odd}}
  template:
    metadata: {labels: {app: odd}}
    spec: {nodeName: node-a, serviceAccountName: sa, containers: ${containers}}
`;
    const files = {
      'ns.yaml': [namespace('inj', { 'istio-injection': 'enabled' }), namespace('amb', { 'istio.io/dataplane-mode': 'ambient' }), namespace('plain')].join(
        '---\n',
      ),
      'd.yaml': [
        deployment('a', 'inj', { replicas: 2 }),
        deployment('b', 'amb'),
        deployment('c', 'plain'),
        gateway,
        odd('inj', 'notalist'),
        odd('plain', '[{name: x, image: 5}]'),
      ].join('---\n'),
    };
    const pods = derived(storeOf(files));
    expect(pods.length).toBe(7);
    for (const p of pods) expect(podSpec(p), p.name).toEqual(PodSpec.readOrEmpty(p.body.spec));
    // The injected container is there, and the gateway's `image: auto` is filled in.
    const gw = pods.find((p) => p.derivedFrom?.name === 'gw')!;
    expect(podSpec(gw).containers.map((c) => [c.name, c.image])).toEqual([
      ['istio-proxy', 'docker.io/istio/proxyv2:latest'],
      ['helper', 'h'],
    ]);
    expect(podSpec(pods.find((p) => p.namespace === 'inj' && p.derivedFrom?.name === 'odd-inj')!).containers.map((c) => c.name)).toEqual(['istio-proxy']);
  });

  it('carries labels, annotations, service account, node name and container ports over', () => {
    const text = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata:
      labels: {app: db, tier: storage}
      annotations: {team: data}
    spec:
      serviceAccountName: db-sa
      nodeName: node-a
      containers:
      - name: pg
        image: postgres:16
        ports: [{containerPort: 5432, name: tcp-pg}]
`;
    const pods = derived(storeOf({ 'db.yaml': text }));
    expect(pods.map((p) => p.name)).toEqual(['db-0', 'db-1']);
    const p = pods[1] as Resource;
    expect(p.labels.tier).toBe('storage');
    expect(p.labels['statefulset.kubernetes.io/pod-name']).toBe('db-1');
    expect(p.annotations.team).toBe('data');
    const spec = podSpec(p);
    expect(spec.serviceAccountName).toBe('db-sa');
    expect(spec.nodeName).toBe('node-a');
    expect(spec.containers[0]?.ports[0]?.containerPort).toBe(5432);
  });

  it('puts one DaemonSet pod on each Node, and derives Jobs, CronJobs and ReplicaSets', () => {
    const nodes = ['n1', 'n2'].map((n) => `apiVersion: v1\nkind: Node\nmetadata: {name: ${n}}\n`).join('---\n');
    const ds = `apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: ops}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec: {containers: [{name: a, image: a}]}\n`;
    const job = `apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate, namespace: ops}\nspec:\n  template:\n    metadata: {labels: {app: migrate}}\n    spec: {containers: [{name: m, image: m}], restartPolicy: Never}\n`;
    const cron = `apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: nightly, namespace: ops}\nspec:\n  schedule: "0 0 * * *"\n  jobTemplate:\n    spec:\n      template:\n        metadata: {labels: {app: nightly}}\n        spec: {containers: [{name: n, image: n}], restartPolicy: Never}\n`;
    const rs = `apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: legacy, namespace: ops}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: legacy}}\n  template:\n    metadata: {labels: {app: legacy}}\n    spec: {containers: [{name: l, image: l}]}\n`;
    const pods = derived(storeOf({ 'n.yaml': nodes, 'w.yaml': [ds, job, cron, rs].join('---\n') }));
    const agent = pods.filter((p) => p.labels.app === 'agent');
    expect(agent.map((p) => podSpec(p).nodeName)).toEqual(['n1', 'n2']);
    expect(pods.filter((p) => p.labels.app === 'migrate').map((p) => p.labels['job-name'])).toEqual(['migrate']);
    expect(pods.filter((p) => p.labels.app === 'nightly').map((p) => p.name.replace(/-[a-z0-9]{5}$/, ''))).toEqual(['nightly-29000000']);
    expect(pods.filter((p) => p.labels.app === 'legacy')).toHaveLength(2);
  });

  it('derives nothing for a controller whose pods are in the workspace, or a ReplicaSet its Deployment owns', () => {
    const pod = `apiVersion: v1\nkind: Pod\nmetadata: {name: web-abc-123, namespace: shop, labels: {app: web}}\nspec: {containers: [{name: app, image: x}]}\n`;
    expect(derived(storeOf({ 'a.yaml': deployment('web', 'shop'), 'p.yaml': pod }))).toEqual([]);
    const owned = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: api-7c9d-x\n  namespace: shop\n  labels: {other: label}\n  ownerReferences: [{kind: ReplicaSet, name: api-7c9d5f}]\nspec: {containers: [{name: app, image: x}]}\n`;
    expect(derived(storeOf({ 'a.yaml': deployment('api', 'shop'), 'p.yaml': owned }))).toEqual([]);
    const rs = `apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web-5d9f\n  namespace: shop\n  ownerReferences: [{kind: Deployment, name: web}]\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: app, image: x}]}\n`;
    expect(derived(storeOf({ 'a.yaml': deployment('web', 'shop'), 'r.yaml': rs })).map((p) => p.derivedFrom?.kind)).toEqual(['Deployment']);
    // Nothing at all in Istio's test harness mode.
    expect(derived(storeOf({ 'a.yaml': deployment('web', 'shop') }, false))).toEqual([]);
  });

  it('injects a sidecar in injected namespaces, marks ambient pods, and leaves host-network pods alone', () => {
    const files = {
      'ns.yaml': [namespace('inj', { 'istio-injection': 'enabled' }), namespace('amb', { 'istio.io/dataplane-mode': 'ambient' }), namespace('plain')].join(
        '---\n',
      ),
      'd.yaml': [
        deployment('a', 'inj'),
        deployment('b', 'amb'),
        deployment('c', 'plain'),
        deployment('d', 'inj', { hostNetwork: true }),
        deployment('e', 'inj', { labels: { app: 'e', 'sidecar.istio.io/inject': 'false' } }),
      ].join('---\n'),
    };
    const byApp = new Map(derived(storeOf(files)).map((p) => [p.labels.app, p]));
    const proxy = (app: string) => podSpec(byApp.get(app)!).containers.find((c) => c.name === 'istio-proxy');
    expect(proxy('a')?.image).not.toBe('');
    expect(byApp.get('a')!.labels['security.istio.io/tlsMode']).toBe('istio');
    expect(proxy('b')).toBeUndefined();
    expect(byApp.get('b')!.annotations['ambient.istio.io/redirection']).toBe('enabled');
    expect(proxy('c')).toBeUndefined();
    expect(byApp.get('c')!.annotations['ambient.istio.io/redirection']).toBeUndefined();
    expect(proxy('d')).toBeUndefined();
    expect(proxy('e')).toBeUndefined();
  });

  it('points a message about a derived pod at the field in the controller template', async () => {
    const text = deployment('web', 'shop', { annotations: { 'sidecar.istio.io/proxyCPUz': '100m' } });
    const wa = new WorkspaceAnalyzer();
    wa.update([{ path: 'web.yaml', text }], []);
    const result = await wa.run(defaultAnalysisSettings());
    if (result === 'canceled') throw new Error('canceled');
    const onPod = result.diagnostics.find((d) => d.code === 'IST0108' && d.origin?.startsWith('Pod shop/web-'));
    expect(onPod, JSON.stringify(result.diagnostics.map((d) => [d.code, d.origin]))).toBeDefined();
    const line = text.split('\n').findIndex((l) => l.includes('proxyCPUz')) + 1;
    expect(onPod!.range?.startLine).toBe(line);
    expect(onPod!.file).toBe('web.yaml');
    expect(onPod!.derivedFrom).toBe('Deployment shop/web');
  });

  it('an edit to a Deployment updates its pods incrementally, as a fresh run would', async () => {
    const wa = new WorkspaceAnalyzer();
    const dr = `apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: web, namespace: shop}\nspec:\n  host: web\n  subsets:\n  - name: v2\n    labels: {version: v2}\n`;
    const svc = `apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec:\n  selector: {app: web}\n  ports: [{port: 80, name: http}]\n`;
    wa.update(
      [
        { path: 'd.yaml', text: deployment('web', 'shop') },
        { path: 'dr.yaml', text: dr },
        { path: 's.yaml', text: svc },
      ],
      [],
    );
    const first = await wa.run(defaultAnalysisSettings());
    if (first === 'canceled') throw new Error('canceled');
    expect(first.diagnostics.some((d) => d.code === 'IST0173')).toBe(true);
    const v2 = deployment('web', 'shop', { labels: { app: 'web', version: 'v2' } });
    wa.update([{ path: 'd.yaml', text: v2 }], []);
    const second = await wa.run(defaultAnalysisSettings());
    if (second === 'canceled') throw new Error('canceled');
    expect(second.diagnostics.some((d) => d.code === 'IST0173')).toBe(false);
    const fresh = new WorkspaceAnalyzer();
    fresh.update(
      [
        { path: 'd.yaml', text: v2 },
        { path: 'dr.yaml', text: dr },
        { path: 's.yaml', text: svc },
      ],
      [],
    );
    const again = await fresh.run(defaultAnalysisSettings());
    if (again === 'canceled') throw new Error('canceled');
    expect(second.diagnostics.map((d) => [d.code, d.origin, d.line])).toEqual(again.diagnostics.map((d) => [d.code, d.origin, d.line]));
  });

  it('keeps the message of a derived pod on its controller when documents are inserted above it', async () => {
    const body = deployment('web', 'shop', { annotations: { 'sidecar.istio.io/proxyCPUz': '100m' } });
    const wa = new WorkspaceAnalyzer();
    wa.update([{ path: 'web.yaml', text: body }], []);
    const first = await wa.run(defaultAnalysisSettings());
    if (first === 'canceled') throw new Error('canceled');
    // A document and a comment above the Deployment: nothing the pods derive from changes.
    const above = `# notes\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: extra, namespace: shop}\n---\n`;
    const text = above + body;
    wa.update([{ path: 'web.yaml', text }], []);
    const second = await wa.run(defaultAnalysisSettings());
    if (second === 'canceled') throw new Error('canceled');
    const onPod = second.diagnostics.find((d) => d.code === 'IST0108' && d.origin?.startsWith('Pod shop/web-'));
    expect(onPod?.range?.startLine).toBe(text.split('\n').findIndex((l) => l.includes('proxyCPUz')) + 1);
    const fresh = new WorkspaceAnalyzer();
    fresh.update([{ path: 'web.yaml', text }], []);
    const again = await fresh.run(defaultAnalysisSettings());
    if (again === 'canceled') throw new Error('canceled');
    expect(second.diagnostics.map((d) => [d.code, d.origin, d.line, d.range?.startLine])).toEqual(
      again.diagnostics.map((d) => [d.code, d.origin, d.line, d.range?.startLine]),
    );
  });
});

describe('pod-template-hash', () => {
  // The text the hash stands for (the oracle): the JSON of the labels and the containers' names and images.
  const templateFingerprint = (t: PodTemplate) => JSON.stringify({ labels: t.metadata?.labels, containers: t.spec?.containers.map((c) => [c.name, c.image]) });

  // The hash is taken over the fingerprint's pieces without building its JSON text; it must be
  // the hash of that text whatever the labels and containers hold.
  const templates: unknown[] = [
    {},
    { metadata: {} },
    { spec: {} },
    { metadata: { labels: { app: 'reviews', version: 'v1' } }, spec: { containers: [{ name: 'reviews', image: 'example.com/reviews:1.0' }] } },
    { metadata: { labels: { '2': 'int-like key first', a: 'b', '10': 'x' } }, spec: { containers: [] } },
    { metadata: { labels: { 'quote"key': 'back\\slash', tab: 'a\tb', nl: 'x\ny', ctl: '\u0001' } } },
    {
      metadata: { labels: { lone: '\ud800', pair: '\ud83d\ude00', accent: 'é' } },
      spec: { containers: [{ name: 'a' }, { image: 'b' }, { name: 'c"', image: '\\' }] },
    },
  ];
  it.each(templates.map((t, i) => [i, t] as const))('template %i: the incremental hash equals the hash of the JSON text', (_, raw) => {
    const t = PodTemplate.readOrEmpty(raw);
    expect(templateFingerprintHash(t)).toBe(fnv32a(templateFingerprint(t)));
  });
});

describe('which controllers already have their pods in the workspace', () => {
  // The definition, written out plainly: a controller derives nothing when some workspace Pod of
  // its namespace names it as owner (directly, or through a ReplicaSet or Job generated from it),
  // or matches its selector. Derivation answers it from an index; this scans every pod.
  const KEYS = ['app', 'version', 'tier'];
  const VALUES = ['a', 'b', 'c'];
  const NAMES = ['web', 'api', 'web-v2'];
  const KINDS_UNDER_TEST = ['Deployment', 'StatefulSet', 'CronJob'] as const;
  type Labels = Record<string, string>;
  interface Expr {
    key: string;
    operator: string;
    values?: string[];
  }
  interface Controller {
    kind: (typeof KINDS_UNDER_TEST)[number];
    name: string;
    namespace: string;
    matchLabels?: Labels;
    matchExpressions?: Expr[];
    templateLabels: Labels;
  }
  interface PodDoc {
    name: string;
    namespace: string;
    labels: Labels;
    owners: Array<{ kind: string; name: string }>;
  }

  const labels = fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES), { maxKeys: 3 });
  const expr: fc.Arbitrary<Expr> = fc.oneof(
    fc.record({
      key: fc.constantFrom(...KEYS),
      operator: fc.constantFrom('In', 'NotIn'),
      values: fc.uniqueArray(fc.constantFrom(...VALUES), { minLength: 1, maxLength: 2 }),
    }),
    fc.record({ key: fc.constantFrom(...KEYS), operator: fc.constantFrom('Exists', 'DoesNotExist') }),
  );
  const namespaceName = fc.constantFrom('shop', 'blog');
  const controller: fc.Arbitrary<Controller> = fc.record(
    {
      kind: fc.constantFrom(...KINDS_UNDER_TEST),
      name: fc.constantFrom(...NAMES),
      namespace: namespaceName,
      matchLabels: labels,
      matchExpressions: fc.array(expr, { maxLength: 2 }),
      templateLabels: labels,
    },
    { requiredKeys: ['kind', 'name', 'namespace', 'templateLabels'] },
  );
  const ownerName = fc.oneof(
    fc.constantFrom(...NAMES),
    fc.tuple(fc.constantFrom(...NAMES, 'web-v2-x', ''), fc.constantFrom('-5d9f', '-29000000', '-AB', '-a-b', '-', '')).map(([a, b]) => a + b),
  );
  const pod: fc.Arbitrary<PodDoc> = fc.record({
    name: fc.constantFrom('p1', 'p2', 'p3', 'p4'),
    namespace: namespaceName,
    labels,
    owners: fc.array(fc.record({ kind: fc.constantFrom('ReplicaSet', 'Job', ...KINDS_UNDER_TEST, 'Other'), name: ownerName }), { maxLength: 2 }),
  });

  function generatedFrom(child: string, parent: string): boolean {
    return child.startsWith(`${parent}-`) && /^[a-z0-9]+$/.test(child.slice(parent.length + 1));
  }

  function selectorMatches(c: Controller, podLabels: Labels): boolean | undefined {
    const written = Object.keys(c.matchLabels ?? {}).length > 0 || (c.matchExpressions ?? []).length > 0;
    const matchLabels = written ? (c.matchLabels ?? {}) : c.templateLabels;
    const exprs = written ? (c.matchExpressions ?? []) : [];
    if (Object.keys(matchLabels).length === 0 && exprs.length === 0) return undefined;
    const has = (k: string) => Object.hasOwn(podLabels, k);
    return (
      Object.entries(matchLabels).every(([k, v]) => podLabels[k] === v) &&
      exprs.every((e) => {
        if (e.operator === 'In') return has(e.key) && (e.values ?? []).includes(podLabels[e.key] as string);
        if (e.operator === 'NotIn') return !has(e.key) || !(e.values ?? []).includes(podLabels[e.key] as string);
        if (e.operator === 'Exists') return has(e.key);
        return !has(e.key);
      })
    );
  }

  function ownsPod(c: Controller, p: PodDoc): boolean {
    if (p.namespace !== c.namespace) return false;
    for (const ref of p.owners) {
      if (ref.kind === c.kind && ref.name === c.name) return true;
      if (c.kind === 'Deployment' && ref.kind === 'ReplicaSet' && generatedFrom(ref.name, c.name)) return true;
      if (c.kind === 'CronJob' && ref.kind === 'Job' && generatedFrom(ref.name, c.name)) return true;
    }
    return selectorMatches(c, p.labels) === true;
  }

  function controllerDoc(c: Controller): object {
    const selector = { ...(c.matchLabels ? { matchLabels: c.matchLabels } : {}), ...(c.matchExpressions ? { matchExpressions: c.matchExpressions } : {}) };
    const template = { metadata: { labels: c.templateLabels }, spec: { containers: [{ name: 'app', image: 'example.org/app:1' }] } };
    const metadata = { name: c.name, namespace: c.namespace };
    if (c.kind === 'CronJob')
      return { apiVersion: 'batch/v1', kind: 'CronJob', metadata, spec: { schedule: '* * * * *', jobTemplate: { spec: { selector, template } } } };
    return { apiVersion: 'apps/v1', kind: c.kind, metadata, spec: { replicas: 1, selector, template } };
  }

  function podDoc(p: PodDoc): object {
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: p.name, namespace: p.namespace, labels: p.labels, ownerReferences: p.owners },
      spec: { containers: [{ name: 'app', image: 'x' }] },
    };
  }

  it('derives pods for exactly the controllers no workspace pod belongs to (2,000 random workspaces)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(controller, { maxLength: 5, selector: (c) => `${c.kind}/${c.namespace}/${c.name}` }),
        fc.uniqueArray(pod, { maxLength: 6, selector: (p) => `${p.namespace}/${p.name}` }),
        (controllers, pods) => {
          const text = [...controllers.map(controllerDoc), ...pods.map(podDoc)].map((d) => JSON.stringify(d)).join('\n---\n');
          const store = storeOf({ 'w.yaml': text });
          const got = new Set(derived(store).map((p) => `${p.derivedFrom?.kind}/${p.derivedFrom?.namespace}/${p.derivedFrom?.name}`));
          const want = new Set(controllers.filter((c) => !pods.some((p) => ownsPod(c, p))).map((c) => `${c.kind}/${c.namespace}/${c.name}`));
          expect([...got].sort()).toEqual([...want].sort());
        },
      ),
      { numRuns: 2000, seed: 20261203 },
    );
  });
});
