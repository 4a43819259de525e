// The query registry over an analyzed workspace: workloads (from the files and derived),
// services and the pods they select, one resource by key; bad arguments never throw.
import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { answerQuery, isQueryView, QueryError, type QueryState } from '../../src/core/queries/index.ts';

const NAMESPACES = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels:
    istio-injection: enabled
---
apiVersion: v1
kind: Namespace
metadata:
  name: edge
  labels:
    istio.io/dataplane-mode: ambient
---
apiVersion: v1
kind: Namespace
metadata:
  name: plain
`;

const WORKLOADS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: cart
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels: {app: cart}
  template:
    metadata:
      labels: {app: cart, version: v1}
    spec:
      serviceAccountName: cart-sa
      containers:
      - name: cart
        image: example.org/cart:1
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: edge
spec:
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
      - name: api
        image: example.org/api:1
---
apiVersion: v1
kind: Pod
metadata:
  name: legacy
  namespace: shop
  labels: {app: legacy}
spec:
  nodeName: node-a
  containers:
  - name: legacy
    image: example.org/legacy:1
status:
  podIP: 10.1.2.3
---
apiVersion: v1
kind: Pod
metadata:
  name: tool
  namespace: plain
  labels: {app: tool}
spec:
  containers:
  - name: tool
    image: example.org/tool:1
`;

const SERVICES = `apiVersion: v1
kind: Service
metadata:
  name: cart
  namespace: shop
spec:
  selector: {app: cart}
  ports:
  - name: http
    port: 80
    targetPort: 8080
---
apiVersion: v1
kind: Service
metadata:
  name: manual
  namespace: shop
  annotations:
    networking.istio.io/exportTo: "."
spec:
  ports:
  - name: tcp
    port: 5432
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata:
  name: payments
  namespace: shop
spec:
  hosts: [payments.example.com]
  location: MESH_EXTERNAL
  resolution: DNS
  ports:
  - number: 443
    name: https
    protocol: TLS
  exportTo: ["."]
`;

async function analyzed(files: Record<string, string>, includePlaceholders = false): Promise<QueryState> {
  const w = new WorkspaceAnalyzer();
  expect(w.analyzedState()).toBeUndefined();
  w.update(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    [],
  );
  const r = await w.run({ ...defaultAnalysisSettings(), includePlaceholders });
  expect(r).not.toBe('canceled');
  const state = w.analyzedState();
  expect(state).toBeDefined();
  return state!;
}

const FILES = { 'namespaces.yaml': NAMESPACES, 'workloads.yaml': WORKLOADS, 'services.yaml': SERVICES };

describe('query registry', () => {
  it('knows its views and refuses others with a QueryError', async () => {
    const state = await analyzed(FILES);
    expect(isQueryView('workloads')).toBe(true);
    expect(isQueryView('toString')).toBe(false);
    expect(isQueryView(42)).toBe(false);
    expect(() => answerQuery('proxyConfig', {}, state)).toThrow(QueryError);
    expect(() => answerQuery('__proto__', {}, state)).toThrow(/Unknown query view "__proto__"/);
    expect(() => answerQuery({ toString: 1 } as unknown as string, {}, state)).toThrow(/of type object/);
  });

  it('workloads: pods from the files and derived ones, with identity, node, IP and mesh state', async () => {
    const state = await analyzed(FILES);
    const res = answerQuery('workloads', {}, state);
    expect(res.trustDomain).toBe('cluster.local');
    // 2 cart replicas + 1 api (derived), legacy and tool from the files.
    expect(res.counts).toEqual({ all: 5, derived: 3, sidecar: 2, ambient: 1, none: 2 });
    expect(res.total).toBe(5);
    const names = res.items.map((w) => `${w.namespace}/${w.name}`);
    expect(names).toEqual([...names].sort());

    const cart = res.items.filter((w) => w.derivedFrom === 'Deployment shop/cart');
    expect(cart).toHaveLength(2);
    for (const w of cart) {
      expect(w.name).toMatch(/^cart-[a-z0-9]{10}-[a-z0-9]{5}$/);
      expect(w.mesh).toBe('sidecar');
      expect(w.serviceAccount).toBe('cart-sa');
      expect(w.identity).toBe('spiffe://cluster.local/ns/shop/sa/cart-sa');
      expect(w.ip).toMatch(/^10\.244\.\d+\.\d+$/);
      expect(w.onRestart).toBeUndefined();
      expect(w.labels).toMatchObject({ app: 'cart', version: 'v1', 'security.istio.io/tlsMode': 'istio' });
      // Located at the controller's template in the file.
      expect(w.source).toMatchObject({ file: 'workloads.yaml', line: 1, startLine: 1, templatePath: 'spec.template' });
      expect(w.source!.endLine).toBeGreaterThanOrEqual(17);
      expect(w.source!.endLine).toBeLessThanOrEqual(18);
    }
    expect(new Set(cart.map((w) => w.ip)).size).toBe(2);

    const api = res.items.find((w) => w.derivedFrom === 'Deployment edge/api')!;
    expect(api.mesh).toBe('ambient');
    expect(api.identity).toBe('spiffe://cluster.local/ns/edge/sa/default');

    // A pod from the files without a sidecar, in an injected namespace: none now, sidecar on restart.
    const legacy = res.items.find((w) => w.name === 'legacy')!;
    expect(legacy).toMatchObject({
      namespace: 'shop',
      ip: '10.1.2.3',
      node: 'node-a',
      mesh: 'none',
      onRestart: 'sidecar',
      serviceAccount: 'default',
      key: 'core/Pod/shop/legacy',
    });
    expect(legacy.derivedFrom).toBeUndefined();
    expect(legacy.source).toMatchObject({ file: 'workloads.yaml', startLine: legacy.source!.line });

    const tool = res.items.find((w) => w.name === 'tool')!;
    expect(tool.mesh).toBe('none');
    expect(tool.onRestart).toBeUndefined();
  });

  it('workloads: filters and pages', async () => {
    const state = await analyzed(FILES);
    expect(answerQuery('workloads', { namespace: 'shop' }, state).total).toBe(3);
    expect(answerQuery('workloads', { derived: false }, state).items.map((w) => `${w.namespace}/${w.name}`)).toEqual(['plain/tool', 'shop/legacy']);
    expect(answerQuery('workloads', { mesh: 'ambient' }, state).items.map((w) => w.namespace)).toEqual(['edge']);
    expect(answerQuery('workloads', { text: 'LEG' }, state).items.map((w) => w.name)).toEqual(['legacy']);
    const page1 = answerQuery('workloads', { limit: 2 }, state);
    const page2 = answerQuery('workloads', { offset: 2, limit: 2 }, state);
    expect(page1.items).toHaveLength(2);
    expect(page1.total).toBe(5);
    expect(page2.offset).toBe(2);
    expect(page2.items.map((w) => w.key)).not.toContain(page1.items[0]!.key);
    // The counts do not depend on the filters.
    expect(answerQuery('workloads', { namespace: 'nowhere' }, state)).toMatchObject({ total: 0, items: [], counts: { all: 5 } });
  });

  it('workloads: the assumed ingress gateway pod is marked as a placeholder', async () => {
    const state = await analyzed(FILES, true);
    const gw = answerQuery('workloads', { namespace: 'istio-system' }, state).items;
    expect(gw).toHaveLength(1);
    expect(gw[0]).toMatchObject({ placeholder: true, mesh: 'sidecar', name: 'istio-ingressgateway-dummypod' });
    expect(gw[0]!.source).toBeUndefined();
  });

  it('services: FQDNs, ports, visibility and the pods a selector picks', async () => {
    const state = await analyzed(FILES);
    const res = answerQuery('services', {}, state);
    expect(res.items.map((s) => `${s.kind} ${s.namespace}/${s.name}`)).toEqual(['Service shop/cart', 'Service shop/manual', 'ServiceEntry shop/payments']);
    const [cart, manual, payments] = res.items as [(typeof res.items)[0], (typeof res.items)[0], (typeof res.items)[0]];
    expect(cart).toMatchObject({
      hosts: ['cart.shop.svc.cluster.local'],
      ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }],
      exportTo: ['*'],
      selector: { app: 'cart' },
      type: 'ClusterIP',
    });
    expect(cart.pods.total).toBe(2);
    expect(cart.pods.names.every((n) => /^shop\/cart-/.test(n))).toBe(true);
    expect(cart.source).toMatchObject({ file: 'services.yaml', line: 1, startLine: 1 });
    // No selector: endpoints by hand, no pods. exportTo `.` is shown as the namespace it means.
    expect(manual).toMatchObject({ selector: null, pods: { total: 0, names: [] }, exportTo: ['shop'] });
    expect(payments).toMatchObject({
      hosts: ['payments.example.com'],
      ports: [{ name: 'https', port: 443, protocol: 'TLS' }],
      exportTo: ['shop'],
      resolution: 'DNS',
      location: 'MESH_EXTERNAL',
      endpoints: 0,
      selector: null,
    });

    expect(answerQuery('services', { kind: 'ServiceEntry' }, state).items.map((s) => s.name)).toEqual(['payments']);
    expect(answerQuery('services', { text: 'example.com' }, state).items.map((s) => s.name)).toEqual(['payments']);
    expect(answerQuery('services', { text: 'cart.shop.svc' }, state).items.map((s) => s.name)).toEqual(['cart']);
  });

  it('services: a ServiceEntry workloadSelector picks pods by labels', async () => {
    const se = `apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata:
  name: legacy-vm
  namespace: shop
spec:
  hosts: [legacy.internal]
  location: MESH_INTERNAL
  resolution: STATIC
  ports: [{number: 80, name: http, protocol: HTTP}]
  workloadSelector:
    labels: {app: legacy}
`;
    const state = await analyzed({ ...FILES, 'se.yaml': se });
    const item = answerQuery('services', { kind: 'ServiceEntry', text: 'legacy' }, state).items[0]!;
    expect(item.selector).toEqual({ app: 'legacy' });
    expect(item.pods).toEqual({ total: 1, names: ['shop/legacy'] });
  });

  it('resource: one resource by key, with its location; derived pods say so', async () => {
    const state = await analyzed(FILES);
    const svc = answerQuery('resource', { key: 'core/Service/shop/manual' }, state)!;
    expect(svc).toMatchObject({
      kind: 'Service',
      apiVersion: 'v1',
      namespace: 'shop',
      name: 'manual',
      derived: false,
      annotations: { 'networking.istio.io/exportTo': '.' },
    });
    expect(svc.source).toMatchObject({ file: 'services.yaml' });
    expect(svc.source!.line).toBeGreaterThan(10);
    expect(svc.source!.endLine).toBeGreaterThan(svc.source!.startLine);

    const se = answerQuery('resource', { key: 'networking.istio.io/ServiceEntry/shop/payments' }, state)!;
    expect(se).toMatchObject({ kind: 'ServiceEntry', apiVersion: 'networking.istio.io/v1' });

    const podKey = answerQuery('workloads', { derived: true, namespace: 'edge' }, state).items[0]!.key;
    const pod = answerQuery('resource', { key: podKey }, state)!;
    expect(pod).toMatchObject({ kind: 'Pod', derived: true, synthetic: 'derived', derivedFrom: { kind: 'Deployment', namespace: 'edge', name: 'api' } });
    expect(pod.source?.templatePath).toBe('spec.template');

    const ns = answerQuery('resource', { key: 'core/Namespace//edge' }, state)!;
    expect(ns).toMatchObject({ kind: 'Namespace', namespace: '', labels: { 'istio.io/dataplane-mode': 'ambient' } });

    expect(answerQuery('resource', { key: 'core/Service/shop/nope' }, state)).toBeNull();
    expect(answerQuery('resource', { key: 'nonsense' }, state)).toBeNull();
    expect(answerQuery('resource', { key: 'x/Unknown/a/b' }, state)).toBeNull();
    expect(() => answerQuery('resource', {} as never, state)).toThrow(QueryError);
  });

  it('arguments of any shape read as absent and never throw', async () => {
    const state = await analyzed(FILES);
    const weird: unknown[] = [
      null,
      undefined,
      42,
      'x',
      [],
      [1, 2],
      { toString: 'x' },
      { namespace: { toString: 1 }, limit: 'ten', offset: -5 },
      JSON.parse('{"__proto__": {"namespace": "shop"}, "constructor": 1}'),
      { limit: Infinity, offset: NaN },
      { mesh: 'weird', derived: 'yes' },
    ];
    for (const args of weird) {
      const w = answerQuery('workloads', args as never, state);
      expect(w.total).toBe(5);
      expect(answerQuery('services', args as never, state).total).toBe(3);
    }
    expect(answerQuery('workloads', { limit: 1e9 } as never, state).items).toHaveLength(5);
    expect(answerQuery('workloads', { limit: 0 }, state).items).toHaveLength(0);
  });

  it('results are plain data: structured clones equal the originals, labels with odd keys included', async () => {
    const odd = `apiVersion: v1
kind: Pod
metadata:
  name: odd
  namespace: plain
  labels:
    __proto__: x
    constructor: w
    toString: z
spec:
  containers:
  - name: a
    image: b
`;
    const state = await analyzed({ ...FILES, 'odd.yaml': odd });
    for (const [view, args] of [
      ['workloads', {}],
      ['services', {}],
      ['resource', { key: 'core/Pod/plain/odd' }],
    ] as const) {
      const res = answerQuery(view, args as never, state);
      expect(structuredClone(res)).toEqual(res);
      expect(JSON.parse(JSON.stringify(res))).toEqual(res);
    }
    const pod = answerQuery('workloads', { text: 'plain/odd' }, state).items[0]!;
    expect(Object.keys(pod.labels).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(pod.labels)).toBe(Object.prototype);
    expect(structuredClone(pod.labels)).toHaveProperty('toString', 'z');
  });

  it('answers from the last run: edits show after the next run, not before', async () => {
    const w = new WorkspaceAnalyzer();
    w.update([{ path: 'a.yaml', text: WORKLOADS }], []);
    await w.run(defaultAnalysisSettings());
    expect(answerQuery('workloads', { namespace: 'plain' }, w.analyzedState()!).total).toBe(1);
    w.update([{ path: 'a.yaml', text: WORKLOADS.replace('name: tool', 'name: tool2') }], []);
    const before = w.analyzedState()!;
    expect(answerQuery('workloads', { namespace: 'plain' }, before).items.map((x) => x.name)).toEqual(['tool']);
    const running = w.run(defaultAnalysisSettings());
    // While a run is in progress there is no state to read.
    expect(w.analyzedState()).toBeUndefined();
    await running;
    expect(answerQuery('workloads', { namespace: 'plain' }, w.analyzedState()!).items.map((x) => x.name)).toEqual(['tool2']);
  });
});
