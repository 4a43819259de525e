// `npm run oracle -- xds`: for every sample with pods and for a generated 100-service mesh
// (scripts/oracle/xdsMesh.ts), every sidecar and gateway proxy,
// the xDS resources our generator makes (the proxyConfig query, as `proxy-config all` prints
// them) against those istiod's own generator makes (`xds-oracle --serve`, oracle/cmd/xds-oracle,
// one process for the whole run), compared resource by resource and field by field
// (scripts/oracle/xdsCompare.ts). Prints `xds: N agree, N differ` per resource type and per
// workspace; details in reports/oracle/xds.json.
//
//   --limit N        stop after N proxies
//   --mesh N         the generated mesh's size (default 100; 0 leaves it out)
//   --mesh-proxies all|sample   every proxy of the generated mesh (default: 200 proxies, about
//                    a minute), or a sample of about 30 (meshSample, below) for a quicker run
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerQuery } from '../../src/core/queries/index.ts';
import { envoyProtoSchema } from '../../src/core/xds/configdump/protoSchema.ts';
import type { Normalisation } from './xdsNormalise.ts';
import {
  analyze,
  compareResources,
  FILTER_CHAIN_ORDER,
  KNOWN_CAUSES,
  workspaceFacts,
  oursFromDump,
  theirsFromOracle,
  TYPES,
  workloadsFile,
  type Obj,
  type ResourceType,
  type TypeComparison,
} from './xdsCompare.ts';
import { XdsServer } from './xdsServer.ts';
import { xdsMesh } from './xdsMesh.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SAMPLES = join(ROOT, 'public', 'samples');
const REPORTS = join(ROOT, 'reports', 'oracle');
const XDS_ORACLE = process.env.XDS_ORACLE ?? '';

export function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

export interface Workspace {
  name: string;
  files: { path: string; text: string }[];
  /** Which of the workspace's proxies to compare (all when absent). */
  pick?: (proxies: { id: string; type: string }[]) => { id: string; type: string }[];
}

export function sampleWorkspaces(): Workspace[] {
  const out: Workspace[] = [];
  for (const d of readdirSync(SAMPLES).sort()) {
    const dir = join(SAMPLES, d);
    if (!statSync(dir).isDirectory()) continue;
    const paths = readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f) && f !== 'route-tests.yaml')
      .sort()
      .map((f) => join(dir, f));
    const files = paths.map((p) => ({ path: relative(ROOT, p), text: readFileSync(p, 'utf8') }));
    if (!files.some((f) => /^kind:\s*(Pod|Deployment)\b/m.test(f.text) || /kind:\s*Pod\b/.test(f.text))) continue;
    out.push({ name: d, files });
  }
  return out;
}

/**
 * The generated mesh's proxies compared by default: every gateway, and per namespace the first
 * pod of its first service, plus the pods of the services a workload-selecting Sidecar or
 * PeerAuthentication names (svc-1, svc-5, ... as xdsMesh writes them), so that every kind of
 * sidecar scope the mesh has is seen at least once. About 30 of its 200 proxies.
 */
function meshSample(proxies: { id: string; type: string }[]): { id: string; type: string }[] {
  const picked = new Map<string, { id: string; type: string }>();
  const seenNs = new Set<string>();
  for (const p of proxies) {
    if (p.type === 'router') picked.set(p.id, p);
    const ns = p.id.slice(p.id.lastIndexOf('.') + 1);
    const svc = /^(svc-\d+)-v1-/.exec(p.id)?.[1];
    if (!seenNs.has(ns) && p.type === 'sidecar') {
      seenNs.add(ns);
      picked.set(p.id, p);
    }
    if (svc && ['svc-1', 'svc-2', 'svc-5', 'svc-21'].includes(svc)) picked.set(p.id, p);
  }
  return [...picked.values()];
}

interface ProxyResult {
  sample: string;
  proxy: string;
  type: string;
  error?: string;
  resources: Record<ResourceType, TypeComparison>;
}

async function main(): Promise<void> {
  if (!XDS_ORACLE) throw new Error('run through `npm run oracle -- xds` (XDS_ORACLE is not set)');
  const limit = Number(option('--limit') ?? Infinity);
  const meshSize = Number(option('--mesh') ?? 100);
  const allMeshProxies = option('--mesh-proxies') !== 'sample';
  const server = new XdsServer(XDS_ORACLE);
  const results: ProxyResult[] = [];
  const normalisations = new Map<string, Normalisation>();
  const schema = await envoyProtoSchema();
  const t0 = Date.now();
  const workspaces = sampleWorkspaces();
  // Kubernetes Ingresses beside Bookinfo (istiod's ingress controller runs in its test server too): the ingress gateway.
  const bookinfo = workspaces.find((w) => w.name === 'bookinfo');
  if (bookinfo) {
    const fixture = join(ROOT, 'tests', 'fixtures', 'ingress', 'bookinfo-ingress.yaml');
    const dynamicDns = join(ROOT, 'tests', 'fixtures', 'xds', 'mesh-allow-any-dynamic-dns.yaml');
    workspaces.push({
      name: 'bookinfo+dynamic-dns',
      files: [...bookinfo.files, { path: relative(ROOT, dynamicDns), text: readFileSync(dynamicDns, 'utf8') }],
      pick: (ps) => ps.filter((p) => p.type === 'sidecar').slice(0, 2),
    });
    const externalSds = join(ROOT, 'tests', 'fixtures', 'xds', 'external-sds.yaml');
    workspaces.push({
      name: 'bookinfo+external-sds',
      files: [...bookinfo.files, { path: relative(ROOT, externalSds), text: readFileSync(externalSds, 'utf8') }],
      pick: (ps) => ps.filter((p) => p.type === 'router' || p.id.startsWith('productpage')),
    });
    workspaces.push({
      name: 'bookinfo+ingress',
      files: [...bookinfo.files, { path: relative(ROOT, fixture), text: readFileSync(fixture, 'utf8') }],
      pick: (ps) => ps.filter((p) => p.type === 'router'),
    });
  }
  if (meshSize > 0) workspaces.push({ name: `generated-mesh-${meshSize}`, files: xdsMesh(meshSize), ...(allMeshProxies ? {} : { pick: meshSample }) });
  const perWorkspace: { name: string; proxies: number; of: number; seconds: number }[] = [];
  try {
    for (const ws of workspaces) {
      if (results.length >= limit) break;
      const tw = Date.now();
      const facts = workspaceFacts(ws.files.map((f) => f.text));
      const state = await analyze(ws.files);
      const all = answerQuery('proxies', {}, state).items.filter((p) => p.type === 'sidecar' || p.type === 'router');
      const proxies = (ws.pick ? ws.pick(all) : all).slice(0, limit - results.length);
      const answer = await server.generate(
        [...ws.files.map((f) => ({ name: f.path, text: f.text })), { name: `${ws.name}-workloads.yaml`, text: workloadsFile(state) }],
        proxies.map((p) => ({ name: p.id, type: p.type as 'sidecar' | 'router' })),
      );
      for (const [i, p] of proxies.entries()) {
        const res: ProxyResult = { sample: ws.name, proxy: p.id, type: p.type, resources: {} as ProxyResult['resources'] };
        results.push(res);
        const theirs = answer.proxies[i];
        if (answer.error || !theirs || theirs.error) {
          res.error = `xds-oracle: ${answer.error ?? theirs?.error ?? 'no answer'}`;
          console.log(`ERROR ${ws.name} ${p.id}: ${res.error}`);
          continue;
        }
        const ours = oursFromDump(answerQuery('proxyConfig', { proxy: p.id }, state).dump);
        res.resources = compareResources(theirsFromOracle(theirs as unknown as Obj), ours, facts, schema, normalisations);
      }
      perWorkspace.push({ name: ws.name, proxies: proxies.length, of: all.length, seconds: (Date.now() - tw) / 1000 });
    }
  } finally {
    server.close();
  }
  mkdirSync(REPORTS, { recursive: true });
  const totalsOf = (results: readonly ProxyResult[]) =>
    Object.fromEntries(
      TYPES.map((t) => {
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
      }),
    ) as Record<ResourceType, { agree: number; differ: number; onlyIstiod: number; onlyOurs: number }>;
  const totals = totalsOf(results);
  const isMesh = (r: ProxyResult) => r.sample.startsWith('generated-mesh-');
  const byGroup = { samples: totalsOf(results.filter((r) => !isMesh(r))), generatedMesh: totalsOf(results.filter(isMesh)) };
  // The differing field paths, with indexes and names folded, counted over every proxy: the causes.
  const paths = new Map<string, number>();
  for (const r of results)
    for (const t of TYPES)
      for (const d of r.resources[t]?.differ ?? []) {
        for (const p of new Set(d.fields.map((f) => `${t}: ${f.path.replace(/\[\d+\]/g, '[]')}`))) paths.set(p, (paths.get(p) ?? 0) + 1);
      }
  // Differing resources (with different fields) by known cause; the rest are unexplained.
  const byCause = new Map<string, string[]>();
  for (const r of results)
    for (const t of TYPES)
      for (const d of r.resources[t]?.differ ?? []) {
        const key = d.cause ?? 'unexplained';
        byCause.set(key, [...(byCause.get(key) ?? []), `${r.sample} ${r.proxy} ${t} ${d.name}`]);
      }
  // Resources only one side has, by known cause too.
  for (const r of results)
    for (const t of TYPES) {
      const c = r.resources[t];
      if (!c) continue;
      for (const [list, side] of [
        [c.onlyIstiod, "only istiod's"],
        [c.onlyOurs, 'only ours'],
      ] as const) {
        for (const name of list) {
          const key = c.missingCauses?.[name] ?? 'unexplained';
          byCause.set(key, [...(byCause.get(key) ?? []), `${r.sample} ${r.proxy} ${t} ${name} (${side})`]);
        }
      }
    }
  const out = join(REPORTS, 'xds.json');
  writeFileSync(
    out,
    JSON.stringify(
      {
        when: new Date().toISOString(),
        totals,
        byGroup,
        workspaces: perWorkspace,
        normalisations: [...normalisations.values()],
        byCause: Object.fromEntries(byCause),
        fieldPaths: Object.fromEntries([...paths].sort((a, b) => b[1] - a[1])),
        results,
      },
      null,
      1,
    ),
  );
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
    for (const c of [...KNOWN_CAUSES, FILTER_CHAIN_ORDER])
      if (byCause.has(c.id)) {
        const list = byCause.get(c.id) ?? [];
        console.log(`  ${c.id}: ${list.length} (${c.why}): ${list.slice(0, 3).join('; ')}${list.length > 3 ? `; … ${list.length - 3} more` : ''}`);
      }
    if (byCause.has('unexplained')) console.log(`  unexplained: ${byCause.get('unexplained')?.length}`);
  }
  console.log('');
  const errors = results.filter((r) => r.error).length;
  for (const w of perWorkspace) console.log(`workspace ${w.name}: ${w.proxies} of ${w.of} proxies, ${w.seconds.toFixed(1)} s`);
  for (const [g, tt] of Object.entries(byGroup))
    console.log(`${g}: ${TYPES.map((t) => `${t} ${tt[t].agree}/${tt[t].differ + tt[t].onlyIstiod + tt[t].onlyOurs}`).join(', ')} (agree/differ)`);
  for (const t of TYPES) {
    const c = totals[t];
    console.log(
      `xds ${t}: ${c.agree} agree, ${c.differ + c.onlyIstiod + c.onlyOurs} differ (${c.differ} with different fields, ${c.onlyIstiod} only istiod's, ${c.onlyOurs} only ours)`,
    );
  }
  console.log(
    `xds: ${results.length} proxies${errors ? ` (${errors} the oracle could not generate)` : ''}, ${((Date.now() - t0) / 1000).toFixed(0)} s; details in ${relative(ROOT, out)}`,
  );
}

// Run as the `xds` part; imported, it only lends its sample workspaces (the proxy-config part).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
