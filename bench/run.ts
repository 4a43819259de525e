// `npm run bench`: parse/analysis speed against the js-yaml floor, incremental edits, heap,
// the first load in real Chromium (time to first diagnostics, the JavaScript before them),
// typing into a large file, whole CLI processes against bare Node and js-yaml, and the CLI on
// whole-cluster dumps of up to 50,000 services (bench/scale.ts) and in the tab (bench/tabScale.ts).
//   --cli-only       just the CLI processes
//   --budgets        just the first-load, typing and CLI budgets (issue #32), printed PASS/FAIL
//                    (not the whole-cluster dumps: `npm run bench:scale` runs those alone)
//   --write-readme   also rewrite the performance block of the README and docs/performance.md
//                    from the budgets measured
//   --no-browser     leave Chromium out
import jsyaml from 'js-yaml';
import { generateMesh } from './generateMesh.ts';
import { KIALI_BUDGET, measureKialiCost } from './kiali.ts';
import { WorkspaceAnalyzer } from '../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../src/core/analysis/settings.ts';
import { formatTyping, measureTyping } from './typing.ts';
import { formatFirstLoad, measureFirstLoad } from './firstLoad.ts';
import { BUDGET_TARGETS, budgetsBlock, rewriteBudgetsBlocks, type Budget } from './budgets.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { measureCli, SMALL_FILE } from './cli.ts';
import { measureScale } from './scale.ts';
import { formatTabScale, measureTabScale } from './tabScale.ts';
import { BEFORE_MESH_MODEL } from './beforeMeshModel.ts';
import { benchValidation } from './validation.ts';
import { benchXds } from './xds.ts';
import { benchShare } from './share.ts';
import { benchCerts } from './certs.ts';
import { benchAmbient } from './ambient.ts';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const SIZES = [100, 1000, 5000];
/** Measured runs per figure (median), after one warm-up run. */
const RUNS = 5;
/** Interleaved rounds of the whole-process CLI timings (median). */
const CLI_ROUNDS = 9;
const budgetsOnly = process.argv.includes('--budgets');
const cliOnly = process.argv.includes('--cli-only') || budgetsOnly;
const budgets: Budget[] = [];
const loadAtStart = loadavg()[0] as number;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

async function fullAnalysis(text: string, timing?: Map<string, number>) {
  const w = new WorkspaceAnalyzer();
  const t0 = performance.now();
  w.update([{ path: 'mesh.yaml', text }], []);
  const t1 = performance.now();
  const res = await w.run(defaultAnalysisSettings(), { timing });
  const t2 = performance.now();
  if (res === 'canceled') throw new Error('unexpected cancel');
  return { w, parseMs: t1 - t0, analyzeMs: t2 - t1, totalMs: t2 - t0, res };
}

interface Row {
  services: number;
  sizeBytes: number;
  documents: number;
  resources: number;
  jsyamlMs: number;
  parseMs: number;
  analyzeMs: number;
  totalMs: number;
  diagnostics: number;
  peakHeap: number;
  editMs?: number;
}

/** Peak live heap of the pipeline, measured in a separate process (see heap.ts). */
function measureHeap(services: number): { peak: number } {
  const script = fileURLToPath(new URL('./heap.ts', import.meta.url));
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, String(services)], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop() as string) as { peak: number };
}

const rows: Row[] = [];
const analyzerTime = new Map<string, number>();
let ok = true;
const checks: string[] = [];
function check(label: string, pass: boolean, detail: string) {
  checks.push(`${pass ? 'PASS' : 'FAIL'}  ${label}: ${detail}`);
  if (!pass) ok = false;
}

for (const services of cliOnly ? [] : SIZES) {
  const mesh = generateMesh(services);
  const sizeBytes = Buffer.byteLength(mesh.text);
  const js: number[] = [];
  jsyaml.loadAll(mesh.text); // warm-up, as for our own pipeline below
  await fullAnalysis(mesh.text);
  for (let i = 0; i < RUNS; i++) {
    gc();
    const t0 = performance.now();
    jsyaml.loadAll(mesh.text);
    js.push(performance.now() - t0);
  }
  const parse: number[] = [];
  const analyze: number[] = [];
  const total: number[] = [];
  let last: Awaited<ReturnType<typeof fullAnalysis>> | undefined;
  for (let i = 0; i < RUNS; i++) {
    last = undefined;
    gc();
    const r = await fullAnalysis(mesh.text, services === 5000 && i === RUNS - 1 ? analyzerTime : undefined);
    parse.push(r.parseMs);
    analyze.push(r.analyzeMs);
    total.push(r.totalMs);
    last = r;
  }
  const res = last!.res as Exclude<typeof last extends undefined ? never : NonNullable<typeof last>['res'], 'canceled'>;
  const row: Row = {
    services,
    sizeBytes,
    documents: mesh.documents,
    resources: res.stats.resources,
    jsyamlMs: median(js),
    parseMs: median(parse),
    analyzeMs: median(analyze),
    totalMs: median(total),
    diagnostics: res.diagnostics.length,
    peakHeap: measureHeap(services).peak,
  };
  if (services === 5000) {
    // Edit one document (a VirtualService host) and re-analyze: only that document is re-parsed.
    const w = last!.w;
    const edits: number[] = [];
    let edited = mesh.text;
    for (let e = 0; e < 7; e++) {
      const from = `host: svc-${100 + e}\n`;
      edited = edited.replace(from, `host: svc-${100 + e}-edited\n`);
      const t0 = performance.now();
      w.update([{ path: 'mesh.yaml', text: edited }], []);
      const r = await w.run(defaultAnalysisSettings());
      edits.push(performance.now() - t0);
      if (r !== 'canceled' && r.stats.reparsedDocuments !== 1) throw new Error(`edit re-parsed ${r.stats.reparsedDocuments} documents`);
    }
    row.editMs = median(edits);
  }
  rows.push(row);
}

if (!cliOnly) {
  console.log('\nMesh Workbench benchmark (median of 5 runs after a warm-up; Node ' + process.version + ')\n');
  console.log('services  size      docs    resources  js-yaml   parse     analyze   total     x floor  res/s      diags  peak heap (x input)');
  for (const r of rows) {
    const ratio = r.totalMs / r.jsyamlMs;
    console.log(
      `${String(r.services).padEnd(9)} ${mb(r.sizeBytes).padEnd(9)} ${String(r.documents).padEnd(7)} ${String(r.resources).padEnd(10)} ` +
        `${r.jsyamlMs.toFixed(0).padStart(5)} ms  ${r.parseMs.toFixed(0).padStart(5)} ms  ${r.analyzeMs.toFixed(0).padStart(5)} ms  ${r.totalMs.toFixed(0).padStart(5)} ms  ` +
        `${ratio.toFixed(2).padStart(5)}   ${Math.round(r.resources / (r.totalMs / 1000))
          .toString()
          .padEnd(10)} ${String(r.diagnostics).padEnd(6)} ${mb(r.peakHeap)} (${(r.peakHeap / r.sizeBytes).toFixed(1)}x)`,
    );
  }
  const r1k = rows.find((r) => r.services === 1000)!;
  const r5k = rows.find((r) => r.services === 5000)!;
  check(
    '1,000 services, full analysis <= 2x js-yaml load',
    r1k.totalMs <= 2 * r1k.jsyamlMs,
    `${r1k.totalMs.toFixed(0)} ms vs ${r1k.jsyamlMs.toFixed(0)} ms (${(r1k.totalMs / r1k.jsyamlMs).toFixed(2)}x)`,
  );
  check(
    '5,000 services, full analysis <= 2x js-yaml load',
    r5k.totalMs <= 2 * r5k.jsyamlMs,
    `${r5k.totalMs.toFixed(0)} ms vs ${r5k.jsyamlMs.toFixed(0)} ms (${(r5k.totalMs / r5k.jsyamlMs).toFixed(2)}x)`,
  );
  check('1,000 -> 5,000 services costs <= 6x', r5k.totalMs <= 6 * r1k.totalMs, `${(r5k.totalMs / r1k.totalMs).toFixed(2)}x`);
  check('edit one document of the 5,000-service mesh < 50 ms', (r5k.editMs ?? Infinity) < 50, `${r5k.editMs?.toFixed(1)} ms`);
  // Checked at 1,000 and 5,000 services; at 100 services fixed costs (indexes, placeholders,
  // caches) weigh more than the input, so that row is shown for reference only.
  for (const r of rows.filter((x) => x.services >= 1000))
    check(
      `peak heap < 10x input (${r.services} services)`,
      r.peakHeap < 10 * r.sizeBytes,
      `${mb(r.peakHeap)} for ${mb(r.sizeBytes)} (${(r.peakHeap / r.sizeBytes).toFixed(1)}x)`,
    );

  if (analyzerTime.size > 0) {
    const sum = [...analyzerTime.values()].reduce((a, b) => a + b, 0);
    console.log('\nAnalyzer share of analysis time (5,000 services):');
    for (const [name, ms] of [...analyzerTime.entries()].sort((a, b) => b[1] - a[1])) {
      console.log(`  ${name.padEnd(58)} ${ms.toFixed(1).padStart(7)} ms  ${((ms / sum) * 100).toFixed(1).padStart(5)}%`);
    }
  }
}

if (!cliOnly) {
  const validation = await benchValidation(1000, RUNS);
  for (const l of validation.lines) console.log(l);
  for (const c of validation.checks) check(c.label, c.pass, c.detail);
  const xds = benchXds(RUNS);
  for (const l of xds.lines) console.log(l);
  for (const c of xds.checks) check(c.label, c.pass, c.detail);
  const certs = await benchCerts(RUNS);
  for (const l of certs.lines) console.log(l);
  const ambient = benchAmbient(RUNS);
  for (const l of ambient.lines) console.log(l);
  for (const c of ambient.checks) check(c.label, c.pass, c.detail);
  // Issue #35: the Kiali pack beside a full analysis of the 5,000-service mesh.
  const kiali = await measureKialiCost(5000, RUNS);
  check(
    'Kiali pack adds <= 20% to a full analysis, 5,000 services',
    kiali.added <= KIALI_BUDGET,
    `+${(kiali.added * 100).toFixed(1)}% (${kiali.withoutMs.toFixed(0)} ms without, ${kiali.withMs.toFixed(0)} ms with, ${kiali.findings} KIA findings)`,
  );
}

// Whole processes, as a user runs the CLI: startup included.
if (!cliOnly) for (const c of benchShare()) check(c.label, c.pass, c.detail);

// The 5,000-service mesh also with its Pods written out: then both CLIs analyze the same pods
// (the one before the mesh model derived none from Deployments), and the comparison shows what
// the mesh model and validation cost apart from deriving pods.
const cli = await measureCli(
  budgetsOnly ? [{ services: 5000 }, { services: 5000, withPods: true }] : [{ services: 1000 }, { services: 5000 }, { services: 5000, withPods: true }],
  budgetsOnly ? 5 : CLI_ROUNDS,
  { comparisons: !budgetsOnly },
);
const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const ms = (v: number) => `${v.toFixed(0).padStart(5)} ms`;
console.log(`\nCLI, whole process (wall time, median of ${budgetsOnly ? 5 : CLI_ROUNDS} interleaved rounds; Node ${process.version})\n`);
const cliRow = (label: string, v: number, comparison = '') => console.log(`  ${label.padEnd(58)} ${ms(v)}${comparison ? `   ${comparison}` : ''}`);
cliRow('node -e 0 (bare Node start)', cli.bareNode);
cliRow('mesh-workbench analyze -L', cli.list, `${x(cli.list, cli.bareNode)} bare Node`);
cliRow(`mesh-workbench analyze ${SMALL_FILE.split('/').slice(-2).join('/')}`, cli.small, `${x(cli.small, cli.bareNode)} bare Node`);
for (const m of cli.meshes) {
  const n = m.services.toLocaleString('en-US');
  if (m.withPods) console.log(`  The ${n}-service mesh with each Deployment's Pods written out (no pods to derive):`);
  cliRow(`node reading and loading the ${n}-service mesh with js-yaml`, m.jsyaml, `(${mb(m.bytes)})`);
  cliRow(
    `mesh-workbench analyze -o json, ${n} services${m.withPods ? ' and their Pods' : ''}`,
    m.cli,
    `${x(m.cli, m.jsyaml)} the js-yaml process (${m.messages} messages)`,
  );
  if (m.before)
    cliRow(
      `  the same before the mesh model (${BEFORE_MESH_MODEL})`,
      m.before.ms,
      `main takes ${x(m.cli, m.before.ms)} as long (it gave ${m.before.messages} messages)`,
    );
  if (m.istioctl)
    cliRow(
      `  istioctl analyze --use-kube=false -o json, the same file`,
      m.istioctl.ms,
      `ours takes ${x(m.cli, m.istioctl.ms)} as long (istioctl gave ${m.istioctl.messages} messages)`,
    );
}
if (cli.beforeSkipped) console.log(`  (the CLI before the mesh model was not timed: ${cli.beforeSkipped})`);
if (cli.istioctlSkipped) console.log(`  (istioctl was not timed: ${cli.istioctlSkipped})`);
const startup = cli.list - cli.bareNode;
console.log(`\n  Where analyze -o json spends its time (startup: analyze -L minus bare Node; the rest: median of 3 cold processes):`);
for (const p of cli.phases) {
  console.log(
    `  ${p.services.toLocaleString('en-US').padEnd(5)} services${p.withPods ? ' and Pods' : ''}: node ${cli.bareNode.toFixed(0)} ms + startup ${startup.toFixed(0)} ms + read ${p.readMs.toFixed(0)} ms + parse ${p.parseMs.toFixed(0)} ms + ` +
      `analysis ${p.analyzeMs.toFixed(0)} ms + format ${p.formatMs.toFixed(0)} ms + write ${p.writeMs.toFixed(0)} ms`,
  );
}
const cli5k = cli.meshes.find((m) => m.services === 5000 && !m.withPods)!;
check(
  'CLI: analyze -L <= 3x bare Node start',
  cli.list <= 3 * cli.bareNode,
  `${cli.list.toFixed(0)} ms vs ${cli.bareNode.toFixed(0)} ms (${x(cli.list, cli.bareNode)})`,
);
check(
  'CLI: analyze one small file <= 3x bare Node start',
  cli.small <= 3 * cli.bareNode,
  `${cli.small.toFixed(0)} ms vs ${cli.bareNode.toFixed(0)} ms (${x(cli.small, cli.bareNode)})`,
);
const cli5kPods = cli.meshes.find((m) => m.services === 5000 && m.withPods)!;
budgets.push({ ...BUDGET_TARGETS.cliDeployments, value: cli5k.cli / cli5k.jsyaml, detail: `${cli5k.cli.toFixed(0)} ms vs ${cli5k.jsyaml.toFixed(0)} ms` });
budgets.push({
  ...BUDGET_TARGETS.cliPods,
  value: cli5kPods.cli / cli5kPods.jsyaml,
  detail: `${cli5kPods.cli.toFixed(0)} ms vs ${cli5kPods.jsyaml.toFixed(0)} ms`,
});
// Issue #6: the mesh model must not slow the CLI down beyond noise, taken as 10% (how far these
// medians move between bench runs on this machine).
if (cli5k.before) {
  const before = cli5k.before.ms;
  check(
    `CLI: analyze -o json, 5,000 services, no slower than before the mesh model (${BEFORE_MESH_MODEL}) beyond noise (<= 1.10x)`,
    cli5k.cli <= 1.1 * before,
    `${cli5k.cli.toFixed(0)} ms vs ${before.toFixed(0)} ms (${x(cli5k.cli, before)})`,
  );
}

// Issue #37: whole-cluster dumps, 1,000 to 50,000 services (about two minutes, so not with --budgets).
if (!budgetsOnly) {
  const scale = await measureScale();
  for (const l of scale.lines) console.log(l);
  for (const c of scale.checks) check(c.label, c.pass, c.detail);
}

const skipBrowser = process.argv.includes('--no-browser') || (cliOnly && !budgetsOnly);
// Issue #37 in the tab: a 50,000-service dump dropped on the app (about a minute; not with --budgets).
if (!budgetsOnly && !skipBrowser) {
  const tab = await measureTabScale();
  if (tab) {
    const { lines, checks } = formatTabScale(tab);
    for (const l of lines) console.log(l);
    for (const c of checks) check(c.label, c.pass, c.detail);
  }
}
if (!skipBrowser) {
  const first = await measureFirstLoad(5);
  if (first) {
    console.log('');
    for (const l of formatFirstLoad(first)) console.log(l);
    budgets.push({
      ...BUDGET_TARGETS.firstDiagnostics,
      value: first.median.firstDiagnosticsMs,
      detail: `runs ${first.runs.map((r) => r.firstDiagnosticsMs.toFixed(0)).join(', ')} ms`,
    });
    budgets.push({
      ...BUDGET_TARGETS.firstJs,
      value: first.median.gzipBytes / 1024,
      detail: `${first.median.scripts.length} scripts${first.median.monacoBefore ? ', Monaco among them' : ''}`,
    });
  } else console.log('First load: skipped (no Chromium found)');
  // Typing into the generated 2,000-service mesh in Chromium (issue #32's budgets).
  const typing = await measureTyping(2000, 3);
  if (typing) {
    console.log('');
    for (const l of formatTyping(typing)) console.log(l);
    budgets.push({
      ...BUDGET_TARGETS.typingTask,
      value: typing.median.maxTypingTaskMs,
      detail: `runs ${typing.runs.map((r) => r.maxTypingTaskMs.toFixed(0)).join(', ')} ms`,
    });
    budgets.push({
      ...BUDGET_TARGETS.landingTask,
      value: typing.median.maxLandingTaskMs,
      detail: `runs ${typing.runs.map((r) => r.maxLandingTaskMs.toFixed(0)).join(', ')} ms`,
    });
    check(
      'typing, 2,000 services: last key -> Problems updated <= 150 ms',
      typing.median.lastKeyToProblemsMs <= 150,
      `${typing.median.lastKeyToProblemsMs.toFixed(0)} ms`,
    );
  } else console.log('Typing bench: skipped (no Chromium found)');
}

const loadAtEnd = loadavg()[0] as number;
console.log(`\nBudgets (load average ${loadAtStart.toFixed(2)} at the start, ${loadAtEnd.toFixed(2)} at the end; the budgets hold on a quiet machine):`);
for (const b of budgets) {
  const pass = b.value <= b.target;
  console.log(`  ${pass ? 'PASS' : 'FAIL'}  ${b.label}: ${b.format(b.value)} (budget ${b.format(b.target)}; ${b.detail})`);
  if (!pass) ok = false;
}
if (process.argv.includes('--write-readme')) {
  const block = budgetsBlock(budgets, {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    load: [loadAtStart, loadAtEnd],
    command: `npm run bench${budgetsOnly ? ' -- --budgets --write-readme' : ' -- --write-readme'}`,
  });
  const root = (file: string) => fileURLToPath(new URL(`../${file}`, import.meta.url));
  const written = rewriteBudgetsBlocks(block, { read: (file) => readFileSync(root(file), 'utf8'), write: (file, text) => writeFileSync(root(file), text) });
  console.log(`${written.join(', ')}: the performance block rewritten from these budgets.`);
}

console.log('\nTargets:');
for (const c of checks) console.log('  ' + c);
process.exitCode = ok ? 0 : 1;
