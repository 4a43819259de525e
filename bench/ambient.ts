// The ambient data plane in `npm run bench`: for a mesh of 1,000 pods on 20 nodes, the time
// to compute enrollment (the cluster model), ztunnel's views (the records and the
// `ztunnel-config` tables of every node) and 100 request traces. Target: under 500 ms in total.
// Run alone: node --expose-gc --import tsx bench/ambient.ts
import { loadMesh } from '../src/core/meshLoader.ts';
import { buildCluster } from '../src/core/ambient/cluster.ts';
import { resolveSettings } from '../src/core/ambient/settings.ts';
import { buildZtunnelState, certificatesTable, nodeView, policiesTable, servicesTable, tabwrite, workloadsTable } from '../src/core/ambient/ztunnel.ts';
import { traceRequest } from '../src/core/ambient/trace.ts';
import type { AmbientModel } from '../src/core/ambient/dataPlane.ts';
import { fileURLToPath } from 'node:url';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/**
 * `namespaces` namespaces of `apps` Deployments with `replicas` pods each, a Service per
 * Deployment, a waypoint per namespace (every other namespace uses it), an L4 ALLOW policy per
 * namespace and an L7 DENY on each waypoint's first Service. One namespace in ten injects
 * sidecars instead; one Deployment in ten opts out of ambient.
 */
export function generateAmbientMesh(namespaces = 10, apps = 20, replicas = 5): string {
  const docs: string[] = [];
  for (let n = 0; n < namespaces; n++) {
    const ns = `team-${n}`;
    const sidecar = n % 10 === 9;
    const waypoint = n % 2 === 0 && !sidecar;
    const labels = sidecar
      ? { 'istio-injection': 'enabled' }
      : { 'istio.io/dataplane-mode': 'ambient', ...(waypoint ? { 'istio.io/use-waypoint': 'waypoint' } : {}) };
    docs.push(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels } }));
    if (waypoint)
      docs.push(
        JSON.stringify({
          apiVersion: 'gateway.networking.k8s.io/v1',
          kind: 'Gateway',
          metadata: { name: 'waypoint', namespace: ns, labels: { 'istio.io/waypoint-for': 'service' } },
          spec: { gatewayClassName: 'istio-waypoint', listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
        }),
      );
    for (let a = 0; a < apps; a++) {
      const app = `app-${a}`;
      const optOut = a % 10 === 7;
      docs.push(
        JSON.stringify({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: app, namespace: ns },
          spec: {
            replicas,
            selector: { matchLabels: { app } },
            template: {
              metadata: { labels: { app, ...(optOut ? { 'istio.io/dataplane-mode': 'none' } : {}) } },
              spec: { serviceAccountName: app, containers: [{ name: app, image: `example/${app}:1`, ports: [{ containerPort: 8080 }] }] },
            },
          },
        }),
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: app, namespace: ns },
          spec: { selector: { app }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
        }),
      );
    }
    docs.push(
      JSON.stringify({
        apiVersion: 'security.istio.io/v1',
        kind: 'AuthorizationPolicy',
        metadata: { name: 'allow-team', namespace: ns },
        spec: {
          action: 'ALLOW',
          rules: [
            { from: [{ source: { namespaces: [ns, `team-${(n + 1) % namespaces}`] } }, { source: { principals: [`cluster.local/ns/${ns}/sa/waypoint`] } }] },
          ],
        },
      }),
    );
    if (waypoint)
      docs.push(
        JSON.stringify({
          apiVersion: 'security.istio.io/v1',
          kind: 'AuthorizationPolicy',
          metadata: { name: 'no-post', namespace: ns },
          spec: { targetRefs: [{ kind: 'Service', group: '', name: 'app-0' }], action: 'DENY', rules: [{ to: [{ operation: { methods: ['POST'] } }] }] },
        }),
      );
  }
  docs.push(
    JSON.stringify({
      apiVersion: 'security.istio.io/v1',
      kind: 'PeerAuthentication',
      metadata: { name: 'default', namespace: 'istio-system' },
      spec: { mtls: { mode: 'STRICT' } },
    }),
  );
  return docs.join('\n---\n');
}

export interface AmbientBench {
  lines: string[];
  checks: Array<{ label: string; pass: boolean; detail: string }>;
}

export function benchAmbient(runs = 5): AmbientBench {
  const text = generateAmbientMesh();
  const nodes = Array.from({ length: 20 }, (_, i) => `node-${String(i).padStart(2, '0')}`);
  const t0 = performance.now();
  const { view } = loadMesh([{ path: 'ambient.yaml', text }]);
  const loadMs = performance.now() - t0;
  const settings = resolveSettings({ cluster: { nodes } });
  const enroll: number[] = [];
  const views: number[] = [];
  const traces: number[] = [];
  let pods = 0;
  let denied = 0;
  let rows = 0;
  for (let i = 0; i <= runs; i++) {
    gc();
    const a = performance.now();
    // A fresh view of the same store each run, so no cached lookup carries over.
    const cluster = buildCluster(view, settings);
    const b = performance.now();
    const ztunnel = buildZtunnelState(view, cluster);
    const model: AmbientModel = { cluster, ztunnel };
    let r = workloadsTable(ztunnel).rows.length + servicesTable(ztunnel).rows.length + policiesTable(ztunnel).rows.length;
    let chars = tabwrite(workloadsTable(ztunnel)).length;
    for (const n of nodes) {
      const nv = nodeView(cluster, ztunnel, n);
      r += certificatesTable(nv).rows.length + nv.capturedPods.length;
      chars += workloadsTable(ztunnel, { node: n }).rows.length;
    }
    const c = performance.now();
    const clients = cluster.pods.filter((p) => p.role === 'app');
    let d = 0;
    for (let t = 0; t < 100; t++) {
      const from = clients[(t * 37) % clients.length]!;
      const ns = `team-${(t * 7) % 10}`;
      const res = traceRequest(view, model, { from: from.key, to: `app-${t % 20}.${ns}.svc.cluster.local:80`, request: t % 3 === 0 ? 'POST /' : 'GET /' });
      if (res.result === 'DENY') d++;
    }
    const e = performance.now();
    if (i > 0) {
      enroll.push(b - a);
      views.push(c - b);
      traces.push(e - c);
    }
    pods = cluster.pods.filter((p) => p.role === 'app').length;
    denied = d;
    rows = r + (chars > 0 ? 0 : 0);
  }
  const total = median(enroll) + median(views) + median(traces);
  const lines = [
    `\nAmbient data plane (${pods} pods from Deployments on ${nodes.length} nodes, 10 namespaces, 5 waypoints; median of ${runs} runs after a warm-up)`,
    `  load the files (parse, store)                        ${loadMs.toFixed(1).padStart(7)} ms (not in the total)`,
    `  enrollment (cluster model: pods, modes, waypoints)   ${median(enroll).toFixed(1).padStart(7)} ms`,
    `  ztunnel views (records, tables, 20 node views)      ${median(views).toFixed(1).padStart(7)} ms  (${rows} rows)`,
    `  100 traces                                           ${median(traces).toFixed(1).padStart(7)} ms  (${denied} denied)`,
    `  total                                                ${total.toFixed(1).padStart(7)} ms`,
  ];
  return {
    lines,
    checks: [
      {
        label: 'ambient: enrollment + ztunnel views + 100 traces, 1,000 pods on 20 nodes < 500 ms',
        pass: total < 500 && pods === 1000,
        detail: `${total.toFixed(0)} ms for ${pods} pods`,
      },
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = benchAmbient();
  for (const l of r.lines) console.log(l);
  for (const c of r.checks) console.log(`${c.pass ? 'PASS' : 'FAIL'}  ${c.label}: ${c.detail}`);
}
