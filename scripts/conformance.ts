// Conformance runner: replays the shared corpus (../shared/conformance by default) against
// our analyzers, in the test-harness mode the corpus README describes, and prints what
// fails. Usage:
//   npm run conformance -- [--root DIR] [--cases FILE] [--baseline FILE]
// The functions are exported so tests can drive the runner without spawning a process.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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
import { runValidationSuite, type ValidationSuiteReport } from './conformance/validation.ts';

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

export interface CaseResult {
  suite: string;
  /** Suite-qualified id (`analyzers/<case id>`), as in the baseline file. */
  id: string;
  analyzer: string;
  passed: boolean;
  missing: string[];
  extra: string[];
  error?: string;
}

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

/** Runs one single-cluster case exactly as the corpus README prescribes. */
export function runAnalyzerCase(c: AnalyzerCase, baseDir: string, suite = 'analyzers'): CaseResult {
  const analyzer = analyzerByName(c.analyzer);
  if (!analyzer) return result(suite, c, { error: NOT_IMPLEMENTED, missing: c.expected.map((e) => `${e.code} ${e.origin}`) });
  try {
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
    const diagnostics = runAnalyzersSync(store, [analyzer], (f, i) => model.document(f, i));
    return result(suite, c, compareMessages(c.expected, diagnostics));
  } catch (e) {
    return result(suite, c, { error: `runner error: ${(e as Error).stack ?? String(e)}` });
  }
}

/**
 * Runs a multi-cluster case: every cluster gets its own store (all known kinds, no namespace
 * default, no placeholders, resources tagged with the cluster id); a `default` store holds
 * only the synthetic mesh config and networks. Istio's AllMultiCluster() analyzers run once
 * over a view of all of them.
 */
export function runMulticlusterCase(c: AnalyzerCase, baseDir: string, suite = 'analyzers'): CaseResult {
  const analyzer = analyzerByName(c.analyzer);
  if (!analyzer) return result(suite, c, { error: NOT_IMPLEMENTED, missing: c.expected.map((e) => `${e.code} ${e.origin}`) });
  try {
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
    const diagnostics = runAnalyzersSync(view, analyzers, (f, i) => models.get(f)?.document(f, i));
    return result(suite, c, compareMessages(c.expected, diagnostics));
  } catch (e) {
    return result(suite, c, { error: `runner error: ${(e as Error).stack ?? String(e)}` });
  }
}

/** Runs every case of an analyzers-format cases file (input paths relative to its folder). */
export function runCasesFile(file: string, suite = 'analyzers'): CaseResult[] {
  const baseDir = dirname(resolve(file));
  const cases = JSON.parse(readText(file)) as AnalyzerCase[];
  return cases.map((c) => (c.clusters ? runMulticlusterCase(c, baseDir, suite) : runAnalyzerCase(c, baseDir, suite)));
}

/** How many cases a suite we do not implement yet holds, and how they were counted. */
export function countPendingSuite(root: string, suite: string): { count: number; note?: string } | undefined {
  const dir = join(root, suite);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
  const json = (p: string): unknown => JSON.parse(readText(join(dir, p)));
  switch (suite) {
    case 'validation': {
      // Each YAML document of crds/*.yaml is one case (invalid ones carry `_err`).
      const crds = join(dir, 'crds');
      let count = 0;
      if (existsSync(crds)) {
        for (const f of readdirSync(crds).filter((n) => /\.ya?ml$/.test(n)).sort()) {
          jsyaml.loadAll(readText(join(crds, f)), (d) => {
            if (d && typeof d === 'object') count++;
          }, { schema: jsyaml.CORE_SCHEMA });
        }
      }
      return { count, note: 'one per YAML document in crds/' };
    }
    case 'xds': {
      let count = 0;
      for (const f of readdirSync(dir).filter((n) => n.endsWith('-cases.json')).sort()) {
        const v = json(f) as { cases?: unknown[] } | unknown[];
        count += Array.isArray(v) ? v.length : Array.isArray(v.cases) ? v.cases.length : 0;
      }
      return { count, note: 'counted 1 per entry of the *-cases.json files; the copied golden-file checks are not counted' };
    }
    case 'certs': {
      if (!existsSync(join(dir, 'expected.json'))) return { count: 0, note: 'no expected.json' };
      const v = json('expected.json') as { files?: Record<string, unknown>; chainChecks?: unknown[] };
      const count = Object.keys(v.files ?? {}).length + (v.chainChecks?.length ?? 0);
      return { count, note: 'counted 1 per file entry and 1 per chain check in expected.json' };
    }
    case 'ambient': {
      if (!existsSync(join(dir, 'scenarios.json'))) return { count: 0, note: 'no scenarios.json' };
      const v = json('scenarios.json');
      return { count: Array.isArray(v) ? v.length : 0, note: 'one per scenario' };
    }
    default:
      return { count: 0 };
  }
}

export const PENDING_SUITES = ['validation', 'xds', 'certs', 'ambient'] as const;

export interface ConformanceOptions {
  root?: string;
  cases?: string;
  baseline?: string;
}

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
  let validation: ValidationSuiteReport | undefined;
  if (options.cases) {
    results.push(...runCasesFile(options.cases));
  } else {
    const root = resolve(options.root ?? DEFAULT_ROOT);
    if (!existsSync(root)) {
      lines.push(`conformance corpus is absent (${root}); nothing to run`);
      return { results, lines, exitCode: 0, newlyPassing: [] };
    }
    const analyzersDir = join(root, 'analyzers');
    if (existsSync(join(analyzersDir, 'cases.json'))) results.push(...runCasesFile(join(analyzersDir, 'cases.json')));
    if (existsSync(join(analyzersDir, 'multicluster-cases.json'))) results.push(...runCasesFile(join(analyzersDir, 'multicluster-cases.json')));
    validation = runValidationSuite(join(root, 'validation'));
    for (const suite of PENDING_SUITES) {
      if (suite === 'validation' && validation) continue;
      const counted = countPendingSuite(root, suite);
      if (!counted) continue;
      lines.push(`${suite}: not implemented yet (${counted.count} cases${counted.note ? `; ${counted.note}` : ''})`);
      pending.push({ suite, count: counted.count });
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
  lines.unshift(...failLines, ...(validation?.lines ?? []));

  // Table by analyzer.
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

  const passed = results.filter((r) => r.passed).length;
  const failed = results.length - passed;
  lines.push(`analyzers: ${passed} passed, ${failed} failed`);
  let totalPassed = passed;
  let totalFailed = failed;
  if (validation) {
    lines.push(`validation: ${validation.passed} passed, ${validation.failed} failed`);
    totalPassed += validation.passed;
    totalFailed += validation.failed;
  }
  for (const p of pending) {
    lines.push(`${p.suite}: 0 passed, ${p.count} failed`);
    totalFailed += p.count;
  }

  let exitCode = totalFailed > 0 ? 1 : 0;
  let newlyPassing: string[] = [];
  if (options.baseline) {
    const baseline = readBaseline(options.baseline);
    const regressions = results.filter((r) => !r.passed && baseline.has(r.id)).map((r) => r.id);
    newlyPassing = results.filter((r) => r.passed && !baseline.has(r.id)).map((r) => r.id);
    const known = new Set(results.map((r) => r.id));
    const unknown = [...baseline].filter((id) => !known.has(id) && id.startsWith('analyzers/'));
    lines.push('');
    for (const id of newlyPassing) lines.push(`newly passing (add to baseline): ${id}`);
    for (const id of regressions) lines.push(`REGRESSION (in baseline, now failing): ${id}`);
    if (!options.cases) for (const id of unknown) lines.push(`baseline lists a case that was not run: ${id}`);
    lines.push(`baseline: ${baseline.size} listed, ${regressions.length} regressed, ${newlyPassing.length} newly passing`);
    exitCode = regressions.length > 0 ? 1 : 0;
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
      console.log('usage: tsx scripts/conformance.ts [--root DIR] [--cases FILE] [--baseline FILE]');
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
  const report = runConformance(opts);
  console.log(report.lines.join('\n'));
  process.exitCode = report.exitCode;
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(resolve(invokedPath)).href) main();

