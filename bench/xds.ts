// `npm run bench:xds`: xDS generation time for one sidecar (LDS + RDS + CDS + EDS, and the
// config dump) over the synthetic meshes of generateMesh.ts at 100, 1,000 and 5,000 services.
// "cold" includes the push context (indexes of services, VirtualServices, DestinationRules,
// Sidecars, built once per workspace version and shared by every proxy); "proxy" is one more
// proxy against a built push context (what istiod pays per proxy); "scoped" is the same with a
// Sidecar that imports only the proxy's namespace (1 of 20), so cost follows what is in scope.
// `npm run bench` includes it (benchXds); `npm run bench:xds` runs it alone.
import { generateMesh } from './generateMesh.ts';
import { WorkspaceModel } from '../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../src/core/config/store.ts';
import { configView, type ConfigView } from '../src/core/config/configView.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../src/core/config/mesh/meshconfig.ts';
import { findProxy, proxyForPod } from '../src/core/xds/proxy.ts';
import { generateForProxy } from '../src/core/xds/generate.ts';
import { configDump } from '../src/core/xds/dump.ts';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { kindProblems } from '../src/core/validation/kindProblems.ts';

const SIZES = [100, 1000, 5000];
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

const SIDECAR = `apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: default
  namespace: ns-1
spec:
  egress:
  - hosts: ["./*", "istio-system/*"]
`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function viewOf(text: string): ConfigView {
  const model = new WorkspaceModel(kindProblems);
  model.update([{ path: 'mesh.yaml', text }], []);
  return configView(
    new ResourceStore(model.resources(), {
      mode: 'cli',
      defaultNamespace: 'default',
      includePlaceholders: true,
      deriveWorkloads: true,
      meshConfig: defaultMeshConfig(),
      meshNetworks: defaultMeshNetworks(),
    }),
  );
}

function generate(view: ConfigView, pod: string, ns: string) {
  const ref = findProxy(view, pod, ns);
  if (!ref) throw new Error(`no proxy ${ns}/${pod}`);
  const gen = generateForProxy(view, proxyForPod(view, ref));
  const dump = configDump(gen);
  return { gen, dump };
}

interface Row {
  services: number;
  cold: number;
  cpu: number;
  proxy: number;
  scoped: number;
  clusters: number;
  listeners: number;
  routes: number;
  scopedClusters: number;
}

export interface XdsBench {
  lines: string[];
  checks: { label: string; pass: boolean; detail: string }[];
}

export function benchXds(RUNS = 5, SIZES_: readonly number[] = SIZES): XdsBench {
  const lines: string[] = [];
  const checks: XdsBench['checks'] = [];
  const say = (s: string) => lines.push(s);
  const rows: Row[] = [];
  for (const n of SIZES_) {
    const mesh = generateMesh(n);
    const text = `${mesh.text}---\n${SIDECAR}`;
    const colds: number[] = [];
    const proxies: number[] = [];
    const scoped: number[] = [];
    const cpus: number[] = [];
    let last: ReturnType<typeof generate> | undefined;
    let lastScoped: ReturnType<typeof generate> | undefined;
    for (let r = 0; r <= RUNS; r++) {
      const view = viewOf(text);
      // Pods derived from controllers are part of the workspace view, not of generation.
      findProxy(view, 'svc-0-v1', 'ns-0');
      gc();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      last = generate(view, 'svc-0-v1', 'ns-0');
      const t1 = performance.now();
      const c1 = process.cpuUsage();
      generate(view, 'svc-20-v1', 'ns-0');
      const t2 = performance.now();
      lastScoped = generate(view, 'svc-1-v1', 'ns-1');
      const t3 = performance.now();
      if (r === 0) continue; // warm-up
      colds.push(t1 - t0);
      cpus.push((c1.user - c0.user + c1.system - c0.system) / 1000);
      proxies.push(t2 - t1);
      scoped.push(t3 - t2);
    }
    rows.push({
      services: n,
      cold: median(colds),
      cpu: median(cpus),
      proxy: median(proxies),
      scoped: median(scoped),
      clusters: last?.gen.clusters.length ?? 0,
      listeners: last?.gen.listeners.length ?? 0,
      routes: last?.gen.routes.length ?? 0,
      scopedClusters: lastScoped?.gen.clusters.length ?? 0,
    });
  }

  const ms = (v: number) => `${v.toFixed(1).padStart(8)} ms`;
  say(`\nxDS generation for one sidecar (median of ${RUNS} runs after a warm-up; Node ${process.version})\n`);
  const load = loadavg()[0] ?? 0;
  say(`(load average ${load.toFixed(1)} on ${cpus().length} CPUs: wall times on a busy machine run long; CPU time counts GC threads too)\n`);
  say('services   cold (push ctx + proxy)  cold CPU      next proxy    Sidecar-scoped   clusters  listeners  routes  scoped clusters');
  for (const r of rows) {
    say(
      `${String(r.services).padStart(8)}   ${ms(r.cold)}              ${ms(r.cpu)}   ${ms(r.proxy)}   ${ms(r.scoped)}      ${String(r.clusters).padStart(8)}  ${String(r.listeners).padStart(9)}  ${String(r.routes).padStart(6)}  ${String(r.scopedClusters).padStart(15)}`,
    );
  }
  const at1000 = rows.find((r) => r.services === 1000);
  if (at1000) {
    say(
      `\nTarget: < 1 s at 1,000 services (cold): ${at1000.cpu < 1000 ? 'met' : 'NOT met'} (${at1000.cpu.toFixed(0)} ms CPU; ${at1000.cold.toFixed(0)} ms wall)`,
    );
    // Judged on the process's CPU time: on this shared 2-core machine the wall time mostly
    // measures the other processes (the load average is printed above).
    checks.push({
      label: 'xDS: one sidecar at 1,000 services (cold, push context included) under 1 s of CPU',
      pass: at1000.cpu < 1000,
      detail: `${at1000.cpu.toFixed(0)} ms CPU, ${at1000.cold.toFixed(0)} ms wall at load ${load.toFixed(1)}`,
    });
  }
  const a = rows[0];
  const b = rows[rows.length - 1];
  if (a && b && a !== b) {
    const growth = b.cold / a.cold;
    const nlogn = (b.services * Math.log2(b.services)) / (a.services * Math.log2(a.services));
    say(
      `Growth ${a.services} → ${b.services} services: ×${growth.toFixed(1)} (n·log n would be ×${nlogn.toFixed(1)}, n² ×${((b.services / a.services) ** 2).toFixed(0)})`,
    );
    checks.push({
      label: `xDS: growth ${a.services} → ${b.services} services no worse than n·log n`,
      pass: growth <= nlogn,
      detail: `×${growth.toFixed(1)} vs ×${nlogn.toFixed(1)}`,
    });
    // A Sidecar importing one namespace of twenty: the proxy's cost follows what is in scope.
    const timeShare = b.scoped / b.proxy;
    const scopeShare = b.scopedClusters / Math.max(1, b.clusters);
    say(
      `Sidecar-limited egress at ${b.services} services: ${b.scopedClusters} of ${b.clusters} clusters in scope (${(scopeShare * 100).toFixed(0)}%), ${b.scoped.toFixed(1)} of ${b.proxy.toFixed(1)} ms (${(timeShare * 100).toFixed(0)}%)`,
    );
    checks.push({
      label: 'xDS: a Sidecar-scoped proxy costs in proportion to its scope',
      pass: timeShare <= 2 * scopeShare + 0.05,
      detail: `${(timeShare * 100).toFixed(0)}% of the time for ${(scopeShare * 100).toFixed(0)}% of the clusters`,
    });
  }
  return { lines, checks };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = benchXds();
  for (const l of r.lines) console.log(l);
  for (const c of r.checks) console.log(`${c.pass ? 'ok  ' : 'FAIL'} ${c.label}: ${c.detail}`);
}
