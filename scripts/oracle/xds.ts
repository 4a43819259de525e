// `npm run oracle -- xds`: for every sample with pods, every sidecar and gateway proxy, the xDS
// resources our generator makes (the proxyConfig query, as `proxy-config all` prints them)
// against those istiod's own generator makes (xds-oracle, oracle/cmd/xds-oracle), compared
// resource by resource and field by field. Prints `xds: N agree, N differ` per resource type;
// details in reports/oracle/xds.json.
//
// Both sides must see the same workloads. Our analysis gives every pod without `status.podIP` an
// address of ours, derives pods from Deployments whose pods are not in the files, and assumes
// Istio's ingress gateway Pod and Service; istiod, which reads a cluster, would see those pods
// with their addresses. So the oracle gets the sample's files followed by one more file that
// writes out every Pod of our view (with its address) and every Service we assumed; the oracle
// takes a later object over an earlier one of the same kind, namespace and name.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { answerQuery, type QueryState } from '../../src/core/queries/index.ts';
import { KINDS } from '../../src/core/model/kinds.ts';
import { podAddress, podShape } from '../../src/core/config/workloads.ts';
import { sidecarInjected } from '../../src/core/config/workloadState.ts';
import { assumedServiceIps } from '../../src/core/config/services.ts';
import { envoyProtoSchema } from '../../src/core/xds/configdump/protoSchema.ts';
import { normalise, type Normalisation } from './xdsNormalise.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SAMPLES = join(ROOT, 'public', 'samples');
const REPORTS = join(ROOT, 'reports', 'oracle');
const XDS_ORACLE = process.env.XDS_ORACLE ?? '';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };
const TYPES = ['clusters', 'listeners', 'routes', 'endpoints'] as const;
type ResourceType = (typeof TYPES)[number];
type Resources = Record<ResourceType, Map<string, Obj>>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const c = spawn(cmd, args, { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    c.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    c.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    c.on('error', (e) => res({ code: -1, stdout, stderr: stderr + String(e) }));
    c.on('close', (code) => res({ code: code ?? -1, stdout, stderr }));
  });
}

async function analyze(files: { path: string; text: string }[]): Promise<QueryState> {
  const w = new WorkspaceAnalyzer();
  w.update(files, []);
  await w.run(defaultAnalysisSettings());
  const s = w.analyzedState();
  if (!s) throw new Error('the files could not be analyzed');
  return s;
}

/** The Pods of our view with their addresses, and the Services we assumed, as Kubernetes YAML (JSON documents). */
function workloadsFile(state: QueryState): string {
  const docs: unknown[] = [];
  for (const pod of state.view.list(KINDS.Pod)) {
    const body = pod.body;
    const meta = isObj(body.metadata) ? body.metadata : {};
    const status = isObj(body.status) ? body.status : {};
    // A pod our model takes as injected carries the label the injector gives the pods it
    // injects (security.istio.io/tlsMode: istio), as it would once admitted.
    const labels: Record<string, string> = { ...pod.labels };
    if (labels['security.istio.io/tlsMode'] === undefined && sidecarInjected(state.view, podShape(pod)).inject) labels['security.istio.io/tlsMode'] = 'istio';
    docs.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { ...meta, name: pod.name, namespace: pod.namespace, labels, annotations: { ...pod.annotations } },
      spec: isObj(body.spec) ? body.spec : {},
      status: { ...status, podIP: podAddress(state.view, pod) },
    });
  }
  // Services: the ones we assumed, and every Service written without a cluster IP, with the one
  // we allocated (the API server would have given it one; istiod reads it from the Service).
  const ips = assumedServiceIps(state.view);
  for (const svc of state.view.list(KINDS.Service)) {
    const ip = ips.get(svc);
    if (svc.synthetic !== 'placeholder' && ip === undefined) continue;
    const spec = isObj(svc.body.spec) ? svc.body.spec : {};
    docs.push({
      ...svc.body,
      metadata: { ...(isObj(svc.body.metadata) ? svc.body.metadata : {}), name: svc.name, namespace: svc.namespace },
      spec: ip === undefined ? spec : { ...spec, clusterIP: ip, clusterIPs: [ip] },
    });
  }
  return docs.map((d) => JSON.stringify(d)).join('\n---\n') + '\n';
}

function byName(list: Json[] | undefined, name: (o: Obj) => string): Map<string, Obj> {
  const m = new Map<string, Obj>();
  for (const x of list ?? []) {
    if (!isObj(x)) continue;
    const { ['@type']: _t, ...rest } = x;
    m.set(name(x), rest);
  }
  return m;
}

/** The dynamic resources of our config dump (what istiod sends; the static ones come from the bootstrap). */
function oursFromDump(dump: unknown): Resources {
  const configs = isObj(dump) && Array.isArray(dump.configs) ? dump.configs.filter(isObj) : [];
  const of = (t: string) => configs.find((c) => c['@type'] === `type.googleapis.com/envoy.admin.v3.${t}`) ?? {};
  const pick = (list: Json | undefined, ...path: string[]): Json[] =>
    (Array.isArray(list) ? list : []).map((x) => path.reduce<Json>((v, k) => (isObj(v) ? (v[k] ?? null) : null), x)).filter((x) => x !== null);
  const name = (o: Obj) => String(o.name ?? '');
  return {
    clusters: byName(pick(of('ClustersConfigDump').dynamicActiveClusters, 'cluster'), name),
    listeners: byName(pick(of('ListenersConfigDump').dynamicListeners, 'activeState', 'listener'), name),
    routes: byName(pick(of('RoutesConfigDump').dynamicRouteConfigs, 'routeConfig'), name),
    endpoints: byName(pick(of('EndpointsConfigDump').dynamicEndpointConfigs, 'endpointConfig'), (o) => String(o.clusterName ?? '')),
  };
}

function theirsFromOracle(out: Obj): Resources {
  const name = (o: Obj) => String(o.name ?? '');
  const list = (k: string) => (Array.isArray(out[k]) ? (out[k] as Json[]) : []);
  return {
    clusters: byName(list('clusters'), name),
    listeners: byName(list('listeners'), name),
    routes: byName(list('routes'), name),
    endpoints: byName(list('endpoints'), (o) => String(o.clusterName ?? '')),
  };
}

/** Field paths where two values differ (arrays by index), at most `limit`. */
export function fieldDiff(a: Json | undefined, b: Json | undefined, path = '', out: { path: string; istiod?: Json; ours?: Json }[] = [], limit = 40): typeof out {
  if (out.length >= limit) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) fieldDiff(a[i], b[i], `${path}[${i}]`, out, limit);
    return out;
  }
  if (isObj(a) && isObj(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) fieldDiff(a[k], b[k], path ? `${path}.${k}` : k, out, limit);
    return out;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) {
    const short = (v: Json | undefined) => (v !== undefined && JSON.stringify(v).length > 300 ? `${JSON.stringify(v).slice(0, 297)}...` : v);
    out.push({ path, istiod: short(a), ours: short(b) });
  }
  return out;
}

/**
 * Differences whose cause is known and tracked elsewhere. A differing resource is put under the
 * first cause that explains every one of its differing fields; the rest are reported unexplained.
 */
const KNOWN_CAUSES: { id: string; why: string; explains: (t: ResourceType, path: string, applyTo: ReadonlySet<string>) => boolean }[] = [
  {
    id: 'envoyfilter-http-filter',
    why: 'an EnvoyFilter HTTP_FILTER patch, which our generator does not apply yet (issue #33)',
    explains: (t, path, applyTo) => applyTo.has('HTTP_FILTER') && t === 'listeners' && /\.httpFilters(\[|$)/.test(path),
  },
  {
    id: 'envoyfilter-network-filter',
    why: 'an EnvoyFilter NETWORK_FILTER patch, which our generator does not apply yet (issue #33)',
    explains: (t, path, applyTo) => applyTo.has('NETWORK_FILTER') && t === 'listeners' && /\.filters(\[|$)/.test(path),
  },
  {
    id: 'envoyfilter-cluster',
    why: 'an EnvoyFilter CLUSTER patch, which our generator does not apply yet (issue #33)',
    explains: (t, _path, applyTo) => applyTo.has('CLUSTER') && t === 'clusters',
  },
];

/** The `applyTo` values of the EnvoyFilter patches in a sample's files. */
function envoyFilterTargets(texts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const text of texts) {
    if (!/^kind:\s*EnvoyFilter\b/m.test(text)) continue;
    for (const m of text.matchAll(/applyTo:\s*([A-Z_]+)/g)) out.add(m[1] as string);
  }
  return out;
}

function knownCause(t: ResourceType, fields: readonly { path: string }[], applyTo: ReadonlySet<string>): string | undefined {
  return KNOWN_CAUSES.find((c) => fields.length > 0 && fields.every((f) => c.explains(t, f.path, applyTo)))?.id;
}

interface ProxyResult {
  sample: string;
  proxy: string;
  type: string;
  error?: string;
  resources: Record<ResourceType, { agree: string[]; differ: { name: string; cause?: string; fields: ReturnType<typeof fieldDiff> }[]; onlyIstiod: string[]; onlyOurs: string[] }>;
}

async function main(): Promise<void> {
  if (!XDS_ORACLE) throw new Error('run through `npm run oracle -- xds` (XDS_ORACLE is not set)');
  const limitAt = process.argv.indexOf('--limit');
  const limit = limitAt >= 0 ? Number(process.argv[limitAt + 1]) : Infinity;
  const tmp = mkdtempSync(join(tmpdir(), 'xds-oracle-'));
  const results: ProxyResult[] = [];
  const normalisations = new Map<string, Normalisation>();
  const schema = await envoyProtoSchema();
  const t0 = Date.now();
  try {
    for (const d of readdirSync(SAMPLES).sort()) {
      const dir = join(SAMPLES, d);
      if (!statSync(dir).isDirectory()) continue;
      const paths = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f) && f !== 'route-tests.yaml').sort().map((f) => join(dir, f));
      const files = paths.map((p) => ({ path: relative(ROOT, p), text: readFileSync(p, 'utf8') }));
      if (!files.some((f) => /^kind:\s*(Pod|Deployment)\b/m.test(f.text) || /kind:\s*Pod\b/.test(f.text))) continue;
      const applyTo = envoyFilterTargets(files.map((f) => f.text));
      const state = await analyze(files);
      const extra = join(tmp, `${d}-workloads.yaml`);
      writeFileSync(extra, workloadsFile(state));
      const proxies = answerQuery('proxies', {}, state).items.filter((p) => p.type === 'sidecar' || p.type === 'router');
      for (const p of proxies) {
        if (results.length >= limit) break;
        const ours = oursFromDump(answerQuery('proxyConfig', { proxy: p.id }, state).dump);
        const r = await run(XDS_ORACLE, ['--proxy', p.id, '--type', p.type, ...paths, extra]);
        const res: ProxyResult = { sample: d, proxy: p.id, type: p.type, resources: {} as ProxyResult['resources'] };
        results.push(res);
        let theirs: Resources;
        try {
          if (r.code !== 0) throw new Error(r.stderr.trim().split('\n').slice(-3).join(' | ') || `exit ${r.code}`);
          theirs = theirsFromOracle(JSON.parse(r.stdout) as Obj);
        } catch (e) {
          res.error = `xds-oracle: ${(e as Error).message}`;
          console.log(`ERROR ${d} ${p.id}: ${res.error}`);
          continue;
        }
        for (const t of TYPES) {
          const cell: ProxyResult['resources'][ResourceType] = { agree: [], differ: [], onlyIstiod: [], onlyOurs: [] };
          res.resources[t] = cell;
          for (const [name, want] of theirs[t]) {
            const got = ours[t].get(name);
            if (!got) {
              cell.onlyIstiod.push(name);
              continue;
            }
            const [w, g] = normalise(t, want, got, schema, normalisations);
            const fields = fieldDiff(w, g);
            if (fields.length === 0) cell.agree.push(name);
            else {
              const cause = knownCause(t, fields, applyTo);
              cell.differ.push({ name, ...(cause ? { cause } : {}), fields });
            }
          }
          for (const name of ours[t].keys()) if (!theirs[t].has(name)) cell.onlyOurs.push(name);
        }
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  mkdirSync(REPORTS, { recursive: true });
  const totals = Object.fromEntries(TYPES.map((t) => {
    let agree = 0;
    let differ = 0;
    let onlyIstiod = 0;
    let onlyOurs = 0;
    for (const r of results) {
      const c = r.resources[t];
      if (!c) continue;
      agree += c.agree.length;
      differ += c.differ.length;
      onlyIstiod += c.onlyIstiod.length;
      onlyOurs += c.onlyOurs.length;
    }
    return [t, { agree, differ, onlyIstiod, onlyOurs }];
  })) as Record<ResourceType, { agree: number; differ: number; onlyIstiod: number; onlyOurs: number }>;
  // The differing field paths, with indexes and names folded, counted over every proxy: the causes.
  const paths = new Map<string, number>();
  for (const r of results) for (const t of TYPES) for (const d of r.resources[t]?.differ ?? []) {
    for (const p of new Set(d.fields.map((f) => `${t}: ${f.path.replace(/\[\d+\]/g, '[]')}`))) paths.set(p, (paths.get(p) ?? 0) + 1);
  }
  // Differing resources (with different fields) by known cause; the rest are unexplained.
  const byCause = new Map<string, string[]>();
  for (const r of results) for (const t of TYPES) for (const d of r.resources[t]?.differ ?? []) {
    const key = d.cause ?? 'unexplained';
    byCause.set(key, [...(byCause.get(key) ?? []), `${r.sample} ${r.proxy} ${t} ${d.name}`]);
  }
  const out = join(REPORTS, 'xds.json');
  writeFileSync(out, JSON.stringify({ when: new Date().toISOString(), totals, normalisations: [...normalisations.values()], byCause: Object.fromEntries(byCause), fieldPaths: Object.fromEntries([...paths].sort((a, b) => b[1] - a[1])), results }, null, 1));
  for (const r of results) {
    if (r.error) continue;
    const bits = TYPES.map((t) => {
      const c = r.resources[t];
      return `${t} ${c.agree.length}/${c.agree.length + c.differ.length + c.onlyIstiod.length + c.onlyOurs.length}`;
    });
    console.log(`${r.sample} ${r.proxy} (${r.type}): ${bits.join(', ')} agree`);
  }
  console.log('\nMost frequent differing fields (resources):');
  for (const [p, n] of [...paths].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${String(n).padStart(4)}  ${p}`);
  if (normalisations.size > 0) {
    console.log('\nNormalised before comparing (systematic, see scripts/oracle/xdsNormalise.ts):');
    for (const n of normalisations.values()) console.log(`  ${n.id}: ${n.count} resources (${n.why})`);
  }
  if (byCause.size > 0) {
    console.log('\nDiffering resources by cause:');
    for (const c of KNOWN_CAUSES) if (byCause.has(c.id)) console.log(`  ${c.id}: ${byCause.get(c.id)?.length} (${c.why}): ${byCause.get(c.id)?.join('; ')}`);
    if (byCause.has('unexplained')) console.log(`  unexplained: ${byCause.get('unexplained')?.length}`);
  }
  console.log('');
  const errors = results.filter((r) => r.error).length;
  for (const t of TYPES) {
    const c = totals[t];
    console.log(`xds ${t}: ${c.agree} agree, ${c.differ + c.onlyIstiod + c.onlyOurs} differ (${c.differ} with different fields, ${c.onlyIstiod} only istiod's, ${c.onlyOurs} only ours)`);
  }
  console.log(`xds: ${results.length} proxies${errors ? ` (${errors} the oracle could not generate)` : ''}, ${((Date.now() - t0) / 1000).toFixed(0)} s; details in ${relative(ROOT, out)}`);
}

await main();
