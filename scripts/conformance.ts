// Conformance runner: replays the shared corpus (../shared/conformance by default) against
// our analyzers, in the test-harness mode the corpus README describes, and prints what
// fails. Usage:
//   npm run conformance -- [--root DIR] [--cases FILE] [--baseline FILE]
// With --baseline, or when the CI environment variable is set, the run is strict: a missing
// corpus, a missing cases file or a baseline case that did not run fails it.
// The functions are exported so tests can drive the runner without spawning a process.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import jsyaml from 'js-yaml';
import { WorkspaceModel } from '../src/core/model/workspaceModel.ts';
import type { KindInfo } from '../src/core/model/kinds.ts';
import type { Diagnostic, Resource } from '../src/core/model/types.ts';
import { ResourceStore } from '../src/core/config/store.ts';
import { runAnalyzersSync } from '../src/core/analysis/run.ts';
import { analyzerByName, MULTICLUSTER_ANALYZERS } from '../src/core/analysis/analyzers/index.ts';
import { MultiClusterStoreView, type ClusterStore } from '../src/core/config/multiCluster.ts';
import type { Analyzer } from '../src/core/analysis/types.ts';
import { defaultMeshConfig, defaultMeshNetworks, mergeMeshConfig, type MeshConfig, type MeshNetworks } from '../src/core/config/mesh/meshconfig.ts';
import { runWebhookCorpus } from './conformance/webhookCorpus.ts';
import type { CaseResult } from './conformance/types.ts';
import { SUITES, SUITE_PARTS } from './conformance/parts.ts';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_ROOT = resolve(PROJECT_ROOT, '..', 'shared', 'conformance');

export interface ExpectedMessage {
  code: string;
  type?: string;
  origin: string;
}

export interface AnalyzerCase {
  id: string;
  name?: string;
  analyzer: string;
  inputFiles?: string[];
  meshConfigFile?: string | null;
  meshNetworksFile?: string | null;
  /** Multi-cluster cases: cluster id → files. */
  clusters?: Record<string, string[]>;
  expected: ExpectedMessage[];
}

export type { CaseResult } from './conformance/types.ts';

const NOT_IMPLEMENTED = 'analyzer not implemented';

function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

function parseYamlMapping(text: string): Record<string, unknown> {
  const v = jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA });
  if (v === null || v === undefined) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new Error('expected a YAML mapping');
  return v as Record<string, unknown>;
}

export function loadMeshConfig(file: string | null | undefined, baseDir: string): MeshConfig {
  const base = defaultMeshConfig();
  if (!file) return base;
  return mergeMeshConfig(base, parseYamlMapping(readText(join(baseDir, file))));
}

export function loadMeshNetworks(file: string | null | undefined, baseDir: string): MeshNetworks {
  if (!file) return defaultMeshNetworks();
  const parsed = parseYamlMapping(readText(join(baseDir, file)));
  const networks = parsed.networks;
  return { networks: typeof networks === 'object' && networks !== null && !Array.isArray(networks) ? (networks as Record<string, unknown>) : {} };
}

/** Loads files (paths relative to baseDir) in order through the workspace model. */
function loadFiles(files: readonly string[], baseDir: string): WorkspaceModel {
  const model = new WorkspaceModel();
  model.update(files.map((f) => ({ path: f, text: readText(join(baseDir, f)) })), []);
  return model;
}

/** Store kinds for an analyzer: its declared inputs (synthetic kinds only when declared). */
function kindFilterOf(analyzer: Analyzer): Set<string> {
  return new Set(analyzer.metadata.inputs.map((k: KindInfo) => k.id));
}

function projection(d: Diagnostic): string {
  return `${d.code} ${d.origin ?? ''}`;
}

/** Multiset difference both ways between expected and actual (code, origin) pairs. */
export function compareMessages(expected: readonly ExpectedMessage[], actual: readonly Diagnostic[]): { missing: string[]; extra: string[] } {
  const remaining = new Map<string, number>();
  for (const d of actual) {
    const k = projection(d);
    remaining.set(k, (remaining.get(k) ?? 0) + 1);
  }
  const missing: string[] = [];
  for (const e of expected) {
    const k = `${e.code} ${e.origin}`;
    const n = remaining.get(k) ?? 0;
    if (n > 0) remaining.set(k, n - 1);
    else missing.push(k);
  }
  const extra: string[] = [];
  for (const [k, n] of remaining) for (let i = 0; i < n; i++) extra.push(k);
  return { missing, extra };
}

function result(suite: string, c: AnalyzerCase, fields: Partial<CaseResult>): CaseResult {
  const missing = fields.missing ?? [];
  const extra = fields.extra ?? [];
  return {
    suite,
    id: `${suite}/${c.id}`,
    analyzer: c.analyzer,
    passed: fields.error === undefined && missing.length === 0 && extra.length === 0,
    missing,
    extra,
    ...(fields.error !== undefined ? { error: fields.error } : {}),
  };
}

/** The diagnostics of one single-cluster case, run exactly as the corpus README prescribes. */
function singleClusterDiagnostics(c: AnalyzerCase, analyzer: Analyzer, baseDir: string): Diagnostic[] {
  const meshConfig = loadMeshConfig(c.meshConfigFile, baseDir);
  const meshNetworks = loadMeshNetworks(c.meshNetworksFile, baseDir);
  const model = loadFiles(c.inputFiles ?? [], baseDir);
  const store = new ResourceStore(model.resources(), {
    mode: 'harness',
    defaultNamespace: '',
    kindFilter: kindFilterOf(analyzer),
    includePlaceholders: true,
    meshConfig,
    meshNetworks,
  });
  return runAnalyzersSync(store, [analyzer], (f, i) => model.document(f, i));
}

/**
 * The diagnostics of a multi-cluster case: every cluster gets its own store (all known
 * kinds, no namespace default, no placeholders, resources tagged with the cluster id); a
 * `default` store holds only the synthetic mesh config and networks. Istio's
 * AllMultiCluster() analyzers run once over a view of all of them.
 */
function multiClusterDiagnostics(c: AnalyzerCase, analyzer: Analyzer, baseDir: string): Diagnostic[] {
  const meshConfig = defaultMeshConfig();
  const meshNetworks = defaultMeshNetworks();
  const options = { mode: 'harness', defaultNamespace: '', includePlaceholders: false, meshConfig, meshNetworks } as const;
  const clusters: ClusterStore[] = [];
  const models = new Map<string, WorkspaceModel>();
  for (const [cluster, files] of Object.entries(c.clusters ?? {})) {
    const model = loadFiles(files, baseDir);
    for (const f of files) if (!models.has(f)) models.set(f, model);
    const resources: Resource[] = model.resources().map((r) => ({ ...r, cluster }));
    clusters.push({ cluster, store: new ResourceStore(resources, options) });
  }
  const view = new MultiClusterStoreView(new ResourceStore([], options), clusters);
  const analyzers = MULTICLUSTER_ANALYZERS.includes(analyzer) ? MULTICLUSTER_ANALYZERS : [analyzer];
  // A path names the same file in every cluster, so any model that loaded it can locate it.
  return runAnalyzersSync(view, analyzers, (f, i) => models.get(f)?.document(f, i));
}

/** The diagnostics we give for a case (single- or multi-cluster); throws for an analyzer we lack. */
export function caseDiagnostics(c: AnalyzerCase, baseDir: string): Diagnostic[] {
  const analyzer = analyzerByName(c.analyzer);
  if (!analyzer) throw new Error(`${NOT_IMPLEMENTED}: ${c.analyzer}`);
  return c.clusters ? multiClusterDiagnostics(c, analyzer, baseDir) : singleClusterDiagnostics(c, analyzer, baseDir);
}

function runCase(c: AnalyzerCase, baseDir: string, suite: string): CaseResult {
  if (!analyzerByName(c.analyzer)) return result(suite, c, { error: NOT_IMPLEMENTED, missing: c.expected.map((e) => `${e.code} ${e.origin}`) });
  try {
    return result(suite, c, compareMessages(c.expected, caseDiagnostics(c, baseDir)));
  } catch (e) {
    return result(suite, c, { error: `runner error: ${(e as Error).stack ?? String(e)}` });
  }
}

/** Runs one single-cluster case exactly as the corpus README prescribes. */
export function runAnalyzerCase(c: AnalyzerCase, baseDir: string, suite = 'analyzers'): CaseResult {
  return runCase({ ...c, clusters: undefined }, baseDir, suite);
}

/** Runs a multi-cluster case (see multiClusterDiagnostics). */
export function runMulticlusterCase(c: AnalyzerCase, baseDir: string, suite = 'analyzers'): CaseResult {
  return runCase({ ...c, clusters: c.clusters ?? {} }, baseDir, suite);
}

/** Reads an analyzers-format cases file. */
export function readCasesFile(file: string): AnalyzerCase[] {
  return JSON.parse(readText(file)) as AnalyzerCase[];
}

/** Runs every case of an analyzers-format cases file (input paths relative to its folder). */
export function runCasesFile(file: string, suite = 'analyzers'): CaseResult[] {
  const baseDir = dirname(resolve(file));
  return readCasesFile(file).map((c) => runCase(c, baseDir, suite));
}

export interface ConformanceOptions {
  root?: string;
  cases?: string;
  baseline?: string;
  /**
   * Fail when something that should have run did not (corpus or cases file missing, a
   * baseline case not run). Defaults to on with a baseline; the command line also turns it
   * on under CI.
   */
  strict?: boolean;
}

/** Whether the CI environment variable is set to something other than empty, 0 or false. */
export function isCi(env: Record<string, string | undefined> = process.env): boolean {
  const v = env.CI;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** The analyzer cases files a corpus must have. */
export const CASES_FILES = ['cases.json', 'multicluster-cases.json'] as const;

export interface ConformanceReport {
  results: CaseResult[];
  lines: string[];
  exitCode: number;
  /** Passing case ids that the baseline does not list yet. */
  newlyPassing: string[];
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

export function readBaseline(file: string): Set<string> {
  return new Set(readText(file).split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
}

export function runConformance(options: ConformanceOptions = {}): ConformanceReport {
  const lines: string[] = [];
  const results: CaseResult[] = [];
  const pending: Array<{ suite: string; count: number }> = [];
  const strict = options.strict ?? options.baseline !== undefined;
  // What should have been there and was not; fails a strict run.
  const absent: string[] = [];
  if (options.cases) {
    if (!existsSync(options.cases)) {
      lines.push(`ERROR: cases file not found: ${resolve(options.cases)}`);
      return { results, lines, exitCode: 1, newlyPassing: [] };
    }
    results.push(...runCasesFile(options.cases));
  } else {
    const root = resolve(options.root ?? DEFAULT_ROOT);
    if (!existsSync(root)) {
      if (!strict) {
        lines.push(`conformance corpus is absent (${root}); nothing to run`);
        return { results, lines, exitCode: 0, newlyPassing: [] };
      }
      lines.push(`ERROR: conformance corpus is absent (${root}): nothing was checked. Provide it, or pass --root DIR.`);
      return { results, lines, exitCode: 1, newlyPassing: [] };
    }
    const analyzersDir = join(root, 'analyzers');
    for (const name of CASES_FILES) {
      const file = join(analyzersDir, name);
      if (existsSync(file)) results.push(...runCasesFile(file));
      else absent.push(file);
    }
    for (const part of SUITE_PARTS) {
      if (part.run) {
        results.push(...part.run(root));
        continue;
      }
      const count = part.count(root);
      if (count === 0) continue;
      lines.push(`${part.suite}/${part.part}: not implemented yet (${count} cases; ${part.note})`);
      pending.push({ suite: part.suite, count });
    }
  }

  const failing = results.filter((r) => !r.passed);
  if (failing.length > 0) lines.unshift('');
  const failLines: string[] = [];
  for (const r of failing) {
    failLines.push(`FAIL ${r.id} (${r.analyzer})${r.error === NOT_IMPLEMENTED ? `: ${NOT_IMPLEMENTED}` : ''}`);
    if (r.error && r.error !== NOT_IMPLEMENTED) failLines.push(`  ${r.error.split('\n').join('\n  ')}`);
    if (r.error !== NOT_IMPLEMENTED) {
      for (const m of r.missing) failLines.push(`  missing: ${m}`);
      for (const x of r.extra) failLines.push(`  extra:   ${x}`);
    }
  }
  lines.unshift(...failLines);

  // Table by analyzer (or suite part).
  const byAnalyzer = new Map<string, { passed: number; failed: number }>();
  for (const r of results) {
    let row = byAnalyzer.get(r.analyzer);
    if (!row) byAnalyzer.set(r.analyzer, (row = { passed: 0, failed: 0 }));
    if (r.passed) row.passed++;
    else row.failed++;
  }
  if (byAnalyzer.size > 0) {
    const width = Math.max(8, ...[...byAnalyzer.keys()].map((k) => k.length));
    lines.push('', `${pad('analyzer', width)}  passed  failed`);
    for (const name of [...byAnalyzer.keys()].sort()) {
      const row = byAnalyzer.get(name) as { passed: number; failed: number };
      lines.push(`${pad(name, width)}  ${pad(String(row.passed), 6)}  ${row.failed}`);
    }
    lines.push('');
  }

  // One line per suite: its cases that ran, plus the cases of its parts not implemented yet.
  let totalPassed = 0;
  let totalFailed = 0;
  for (const suite of ['analyzers', ...SUITES]) {
    const ran = results.filter((r) => r.suite === suite);
    const suitePassed = ran.filter((r) => r.passed).length;
    const suiteFailed = ran.length - suitePassed + pending.filter((p) => p.suite === suite).reduce((n, p) => n + p.count, 0);
    if (suite !== 'analyzers' && ran.length === 0 && suiteFailed === 0) continue;
    lines.push(`${suite}: ${suitePassed} passed, ${suiteFailed} failed`);
    totalPassed += suitePassed;
    totalFailed += suiteFailed;
  }
  let corpusFailed = 0;
  if (!options.cases) {
    // Our own corpus, transcribed from Istio's webhook tests (it needs no shared root).
    const corpus = runWebhookCorpus();
    lines.push(...corpus.lines);
    totalPassed += corpus.passed;
    totalFailed += corpus.failed;
    corpusFailed = corpus.failed;
  }

  let exitCode = totalFailed > 0 ? 1 : 0;
  let newlyPassing: string[] = [];
  let notRun: string[] = [];
  if (options.baseline) {
    const baseline = readBaseline(options.baseline);
    const regressions = results.filter((r) => !r.passed && baseline.has(r.id)).map((r) => r.id);
    newlyPassing = results.filter((r) => r.passed && !baseline.has(r.id)).map((r) => r.id);
    const known = new Set(results.map((r) => r.id));
    // With --cases only one file runs, so the rest of the baseline is not expected to.
    notRun = options.cases ? [] : [...baseline].filter((id) => !known.has(id) && id.startsWith('analyzers/'));
    lines.push('');
    for (const id of newlyPassing) lines.push(`newly passing (add to baseline): ${id}`);
    for (const id of regressions) lines.push(`REGRESSION (in baseline, now failing): ${id}`);
    for (const id of notRun) lines.push(`NOT RUN (in baseline, no such case ran): ${id}`);
    lines.push(`baseline: ${baseline.size} listed, ${regressions.length} regressed, ${notRun.length} not run, ${newlyPassing.length} newly passing`);
    exitCode = regressions.length > 0 || corpusFailed > 0 || (strict && notRun.length > 0) ? 1 : 0;
  }
  for (const file of absent) lines.push(`${strict ? 'ERROR' : 'warning'}: cases file is absent: ${file}`);
  if (strict && absent.length > 0) exitCode = 1;
  if (strict && (absent.length > 0 || notRun.length > 0)) {
    const what = [absent.length > 0 ? `${absent.length} cases file(s) absent` : '', notRun.length > 0 ? `${notRun.length} baseline case(s) not run` : ''];
    lines.push(`FAILED: ${what.filter(Boolean).join(', ')}`);
  }
  lines.push(`${totalPassed} passed, ${totalFailed} failed`);
  return { results, lines, exitCode, newlyPassing };
}

export function parseArgs(argv: readonly string[]): ConformanceOptions {
  const opts: ConformanceOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--root') opts.root = value();
    else if (flag === '--cases') opts.cases = value();
    else if (flag === '--baseline') opts.baseline = value();
    else if (flag === '--help' || flag === '-h') {
      console.log('usage: tsx scripts/conformance.ts [--root DIR] [--cases FILE] [--baseline FILE]\n(strict with --baseline or under CI: a missing corpus or an unrun baseline case fails)');
      process.exit(0);
    } else throw new Error(`unknown argument: ${a}`);
  }
  return opts;
}

function main(): void {
  let opts: ConformanceOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const report = runConformance({ ...opts, strict: opts.baseline !== undefined || isCi() });
  console.log(report.lines.join('\n'));
  process.exitCode = report.exitCode;
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(resolve(invokedPath)).href) main();

