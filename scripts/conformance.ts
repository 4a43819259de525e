// Conformance runner: replays the shared corpus (../shared/conformance by default) against
// our analyzers, in the test-harness mode the corpus README describes, and prints what
// fails. Usage:
//   npm run conformance -- [--root DIR] [--cases FILE] [--baseline FILE] [--suite NAME] [--write-baseline]
// With --baseline, or when the CI environment variable is set, the run is strict: a missing
// corpus part or corpus file (conformance/manifest/<suite>.txt lists them), a manifest or
// baseline case that did not run, a regression, or a failure that conformance/known-failures.txt
// does not list fails it. --write-baseline rewrites the baseline and the manifests.
// The functions are exported so tests can drive the runner without spawning a process.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import jsyaml from 'js-yaml';
import { WorkspaceModel } from '../src/core/document/workspaceModel.ts';
import type { KindInfo } from '../src/core/document/kinds.ts';
import type { Diagnostic, Resource } from '../src/core/document/types.ts';
import { ResourceStore } from '../src/core/config/store.ts';
import { runAnalyzersSync } from '../src/core/analysis/run.ts';
import { istioAnalyzerByName, MULTICLUSTER_ANALYZERS } from '../src/core/analysis/analyzers/index.ts';
import { MultiClusterStoreView, type ClusterStore } from '../src/core/config/multiCluster.ts';
import type { Analyzer } from '../src/core/analysis/types.ts';
import { defaultMeshConfig, defaultMeshNetworks, mergeMeshConfig, type MeshConfig, type MeshNetworks } from '../src/core/config/mesh/meshconfig.ts';
import { CORPUS_DIR, runWebhookCorpus } from './conformance/webhookCorpus.ts';
import { formatManifest, listFiles, readKnownFailures, readManifest, suiteOf } from './conformance/manifest.ts';
import type { CaseResult } from './conformance/types.ts';
import { SUITES, SUITE_PARTS } from './conformance/parts.ts';
import { kindProblems } from '../src/core/validation/kindProblems.ts';
import { DESCRIBE_DIR, runDescribeSuite } from './conformance/describe.ts';

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
  const model = new WorkspaceModel(kindProblems);
  model.update(
    files.map((f) => ({ path: f, text: readText(join(baseDir, f)) })),
    [],
  );
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
  const analyzer = istioAnalyzerByName(c.analyzer);
  if (!analyzer) throw new Error(`${NOT_IMPLEMENTED}: ${c.analyzer}`);
  return c.clusters ? multiClusterDiagnostics(c, analyzer, baseDir) : singleClusterDiagnostics(c, analyzer, baseDir);
}

function runCase(c: AnalyzerCase, baseDir: string, suite: string): CaseResult {
  if (!istioAnalyzerByName(c.analyzer)) return result(suite, c, { error: NOT_IMPLEMENTED, missing: c.expected.map((e) => `${e.code} ${e.origin}`) });
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
   * Fail when something that should have run did not (corpus part, corpus file, manifest case
   * or baseline case missing) or when a case fails that is neither in the baseline nor a known
   * failure. Defaults to on with a baseline; the command line also turns it on under CI.
   */
  strict?: boolean;
  /** The manifests' folder: `manifest/` next to the baseline (default conformance/manifest). */
  manifests?: string;
  /** The known failures: `known-failures.txt` next to the baseline (default conformance/known-failures.txt). */
  knownFailures?: string;
  /** Run (and check) only these suites; default all of ALL_SUITES. */
  suites?: string[];
  /** The webhook corpus' folder (default tests/fixtures/validation). */
  webhookDir?: string;
}

/** Every suite, in the order they are reported. */
export const ALL_SUITES: readonly string[] = ['analyzers', ...SUITES, 'webhook-corpus', 'describe'];

/** Where the baseline, the manifests and the known failures are checked in. */
export const CONFORMANCE_DIR = join(PROJECT_ROOT, 'conformance');

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
  return new Set(
    readText(file)
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#')),
  );
}

/** The manifests' folder and the known-failures file for these options. */
export function conformancePaths(options: ConformanceOptions): { manifests: string; knownFailures: string } {
  const dir = options.baseline ? dirname(resolve(options.baseline)) : CONFORMANCE_DIR;
  return { manifests: resolve(options.manifests ?? join(dir, 'manifest')), knownFailures: resolve(options.knownFailures ?? join(dir, 'known-failures.txt')) };
}

/** The folder a suite's corpus part is in (manifest paths are `<suite>/<path inside it>`). */
export function suiteDir(suite: string, root: string, webhookDir: string = CORPUS_DIR): string {
  if (suite === 'describe') return DESCRIBE_DIR;
  return suite === 'webhook-corpus' ? resolve(webhookDir) : join(resolve(root), suite);
}

function isDir(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

export function runConformance(options: ConformanceOptions = {}): ConformanceReport {
  const lines: string[] = [];
  const results: CaseResult[] = [];
  const pending: Array<{ suite: string; count: number }> = [];
  const strict = options.strict ?? options.baseline !== undefined;
  const selected = new Set(options.suites ?? ALL_SUITES);
  const unknownSuites = [...selected].filter((s) => !ALL_SUITES.includes(s));
  if (unknownSuites.length > 0) {
    lines.push(`ERROR: unknown suite(s) ${unknownSuites.join(', ')} (known: ${ALL_SUITES.join(', ')})`);
    return { results, lines, exitCode: 1, newlyPassing: [] };
  }
  const webhookDir = resolve(options.webhookDir ?? CORPUS_DIR);
  const paths = conformancePaths(options);
  // What should have been there and was not; fails a strict run.
  const absent: string[] = [];
  let root: string | undefined;
  if (options.cases) {
    if (!existsSync(options.cases)) {
      lines.push(`ERROR: cases file not found: ${resolve(options.cases)}`);
      return { results, lines, exitCode: 1, newlyPassing: [] };
    }
    results.push(...runCasesFile(options.cases));
  } else {
    root = resolve(options.root ?? DEFAULT_ROOT);
    if (!existsSync(root)) {
      if (!strict) {
        lines.push(`conformance corpus is absent (${root}); nothing to run`);
        return { results, lines, exitCode: 0, newlyPassing: [] };
      }
      lines.push(`ERROR: conformance corpus is absent (${root}): nothing was checked. Provide it, or pass --root DIR.`);
      return { results, lines, exitCode: 1, newlyPassing: [] };
    }
    if (selected.has('analyzers')) {
      const analyzersDir = join(root, 'analyzers');
      for (const name of CASES_FILES) {
        const file = join(analyzersDir, name);
        if (existsSync(file)) results.push(...runCasesFile(file));
        else absent.push(file);
      }
    }
    for (const part of SUITE_PARTS) {
      if (!selected.has(part.suite)) continue;
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
  const { known, errors: knownErrors } = readKnownFailures(paths.knownFailures);

  const failing = results.filter((r) => !r.passed && !r.notImplemented);
  if (failing.length > 0) lines.unshift('');
  const failLines: string[] = [];
  // Cases whose checker is not written yet: each one listed, none a failure.
  for (const r of results) if (r.notImplemented) failLines.push(`NOT IMPLEMENTED ${r.id} (${r.analyzer})`);
  for (const r of failing) {
    const k = known.get(r.id);
    failLines.push(
      `FAIL ${r.id} (${r.analyzer})${r.error === NOT_IMPLEMENTED ? `: ${NOT_IMPLEMENTED}` : ''}${k !== undefined ? ` [known failure: ${k}]` : ''}`,
    );
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
    if (r.notImplemented) continue;
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
    if (!selected.has(suite)) continue;
    const ran = results.filter((r) => r.suite === suite && !r.notImplemented);
    const notImplemented = results.filter((r) => r.suite === suite && r.notImplemented).length;
    const suitePassed = ran.filter((r) => r.passed).length;
    const suiteFailed = ran.length - suitePassed + pending.filter((p) => p.suite === suite).reduce((n, p) => n + p.count, 0);
    if (suite !== 'analyzers' && ran.length === 0 && suiteFailed === 0 && notImplemented === 0) continue;
    lines.push(`${suite}: ${suitePassed} passed, ${suiteFailed} failed`);
    if (notImplemented > 0) lines.push(`${suite}: ${notImplemented} not implemented (listed above as NOT IMPLEMENTED; not failures)`);
    totalPassed += suitePassed;
    totalFailed += suiteFailed;
  }
  if (!options.cases && selected.has('webhook-corpus')) {
    // Our own corpus, transcribed from Istio's webhook tests (it needs no shared root).
    if (isDir(webhookDir)) {
      const corpus = runWebhookCorpus(webhookDir);
      lines.push(...corpus.lines);
      results.push(...corpus.results);
      totalPassed += corpus.passed;
      totalFailed += corpus.failed;
    } else lines.push('webhook-corpus: 0 passed, 0 failed');
  }
  if (!options.cases && selected.has('describe')) {
    // Our own corpus, transcribed from istioctl's describe and authz tests (conformance/describe/).
    const describe = runDescribeSuite();
    results.push(...describe);
    const passed = describe.filter((r) => r.passed).length;
    for (const r of describe.filter((x) => !x.passed))
      lines.unshift(`FAIL ${r.id} (${r.analyzer})`, ...r.missing.map((m) => `  ${m.split('\n').join('\n  ')}`));
    lines.push(`describe: ${passed} passed, ${describe.length - passed} failed`);
    totalPassed += passed;
    totalFailed += describe.length - passed;
  }

  const ran = new Set(results.map((r) => r.id));
  // Two cases under one id would let one of them go missing unnoticed.
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
  const duplicates = [...counts].filter(([, n]) => n > 1).map(([id, n]) => `ERROR: ${n} cases share the id ${id} (ids must be unique)`);
  const inScope = (id: string) => selected.has(suiteOf(id));
  const baseline = options.baseline ? readBaseline(options.baseline) : undefined;
  const unknownFailures = results.filter((r) => !r.passed && !r.notImplemented && !known.has(r.id));
  const regressions = baseline ? results.filter((r) => !r.passed && baseline.has(r.id)).map((r) => r.id) : [];
  const newFailures = unknownFailures.filter((r) => !baseline?.has(r.id)).map((r) => r.id);
  const newlyPassing = baseline ? results.filter((r) => r.passed && !baseline.has(r.id)).map((r) => r.id) : [];
  const knownNowPassing = results.filter((r) => r.passed && known.has(r.id)).map((r) => r.id);
  const knownAndBaselined = baseline ? [...known.keys()].filter((id) => baseline.has(id)) : [];

  // What the manifests and the baseline expect and the corpus did not hold (not with --cases:
  // only one file runs then).
  const missing = { manifests: [] as string[], parts: [] as string[], files: [] as string[], cases: [] as string[], notRun: [] as string[] };
  const named = new Set<string>();
  const notes: string[] = [];
  if (!options.cases && root !== undefined && (strict || baseline)) {
    for (const suite of ALL_SUITES) {
      if (!selected.has(suite)) continue;
      const listed = [...(baseline ?? []), ...known.keys()].filter((id) => suiteOf(id) === suite);
      const manifestFile = join(paths.manifests, `${suite}.txt`);
      const manifest = existsSync(manifestFile) ? readManifest(manifestFile) : undefined;
      if (!manifest && listed.length > 0)
        missing.manifests.push(
          `MISSING manifest: ${manifestFile} (the baseline or known failures list ${listed.length} ${suite} case(s); write it with --write-baseline)`,
        );
      const expected = [...new Set([...(manifest?.cases ?? []), ...listed])];
      const dir = suiteDir(suite, root, webhookDir);
      if (!isDir(dir)) {
        if (manifest || listed.length > 0) {
          const baselined = expected.filter((id) => baseline?.has(id)).length;
          missing.parts.push(`MISSING corpus part: ${suite}/ (${dir}): none of its ${expected.length} case(s) ran (${baselined} in the baseline)`);
          for (const id of expected) named.add(id);
        }
        continue;
      }
      if (!manifest) continue;
      for (const f of manifest.files) {
        const p = join(dir, f.slice(suite.length + 1));
        if (!existsSync(p)) missing.files.push(`MISSING corpus file: ${f} (${p})`);
      }
      for (const id of manifest.cases) {
        if (ran.has(id)) continue;
        missing.cases.push(
          `MISSING case (in the manifest${baseline?.has(id) ? ' and the baseline' : known.has(id) ? ' and the known failures' : ''}, not in the corpus): ${id}`,
        );
        named.add(id);
      }
      const inManifest = new Set(manifest.cases);
      for (const r of results) if (r.suite === suite && !inManifest.has(r.id)) notes.push(`new case (not in the manifest; --write-baseline adds it): ${r.id}`);
    }
    for (const id of baseline ?? []) if (inScope(id) && !ran.has(id) && !named.has(id)) missing.notRun.push(`NOT RUN (in baseline, no such case ran): ${id}`);
    for (const id of known.keys())
      if (inScope(id) && !ran.has(id) && !named.has(id)) missing.notRun.push(`NOT RUN (in known failures, no such case ran): ${id}`);
  }

  const notRunCount = missing.cases.length + missing.notRun.length;
  let exitCode = unknownFailures.length > 0 || pending.length > 0 ? 1 : 0;
  if (baseline || strict) {
    lines.push('');
    if (baseline) for (const id of newlyPassing) lines.push(`newly passing (add to baseline): ${id}`);
    lines.push(...notes);
    for (const id of knownNowPassing) lines.push(`known failure now passes (remove it from ${paths.knownFailures}): ${id}`);
    for (const id of regressions) lines.push(`REGRESSION (in baseline, now failing): ${id}`);
    for (const id of newFailures) lines.push(`NEW FAILURE (in neither the baseline nor the known failures): ${id}`);
    for (const id of knownAndBaselined) lines.push(`ERROR: ${id} is both in the baseline and a known failure`);
    lines.push(...knownErrors.map((e) => `ERROR: ${e}`), ...duplicates);
    lines.push(...missing.manifests, ...missing.parts, ...missing.files, ...missing.cases, ...missing.notRun);
    if (baseline)
      lines.push(`baseline: ${baseline.size} listed, ${regressions.length} regressed, ${notRunCount} not run, ${newlyPassing.length} newly passing`);
    if (known.size > 0)
      lines.push(
        `known failures: ${known.size} listed, ${results.filter((r) => !r.passed && known.has(r.id)).length} failing as known, ${knownNowPassing.length} now passing`,
      );
  }
  for (const file of absent) lines.push(`${strict ? 'ERROR' : 'warning'}: cases file is absent: ${file}`);
  if (strict) {
    const what = [
      [missing.parts.length, 'corpus part(s) missing'],
      [missing.files.length, 'corpus file(s) missing'],
      [absent.length, 'cases file(s) absent'],
      [missing.manifests.length, 'manifest(s) missing'],
      [missing.cases.length, 'manifest case(s) not in the corpus'],
      [missing.notRun.length, 'baseline case(s) not run'],
      [regressions.length, 'regression(s)'],
      [newFailures.length, 'new failure(s)'],
      [knownErrors.length + knownAndBaselined.length, 'error(s) in the known failures'],
      [duplicates.length, 'duplicate case id(s)'],
    ] as const;
    const failed = what.filter(([n]) => n > 0);
    if (failed.length > 0) {
      exitCode = 1;
      lines.push(`FAILED: ${failed.map(([n, w]) => `${n} ${w}`).join(', ')}`);
    }
  } else if (baseline && (regressions.length > 0 || newFailures.length > 0)) exitCode = 1;
  if (pending.length > 0) exitCode = 1;
  lines.push(`${totalPassed} passed, ${totalFailed} failed`);
  return { results, lines, exitCode, newlyPassing };
}

/**
 * Rewrites the baseline (every passing id), the manifests (files and case ids of each suite's
 * corpus part) and leaves the known failures to a person: a failure without an entry there
 * is listed and makes the command exit 1. Refuses when a selected suite's corpus part is absent.
 */
export function writeBaseline(options: ConformanceOptions & { baseline: string }): { lines: string[]; exitCode: number } {
  const lines: string[] = [];
  const root = resolve(options.root ?? DEFAULT_ROOT);
  const webhookDir = resolve(options.webhookDir ?? CORPUS_DIR);
  const suites = options.suites ?? ALL_SUITES;
  const absentParts = suites.filter((s) => !isDir(suiteDir(s, root, webhookDir)));
  if (absentParts.length > 0) {
    for (const s of absentParts) lines.push(`ERROR: corpus part ${s}/ is absent (${suiteDir(s, root, webhookDir)}): nothing written`);
    return { lines, exitCode: 1 };
  }
  const paths = conformancePaths(options);
  const report = runConformance({ ...options, baseline: undefined, cases: undefined, strict: false });
  const { known, errors } = readKnownFailures(paths.knownFailures);
  mkdirSync(paths.manifests, { recursive: true });
  const baselineFile = resolve(options.baseline);
  const before = existsSync(baselineFile) ? readBaseline(baselineFile) : new Set<string>();
  const selected = new Set(suites);
  const kept = [...before].filter((id) => !selected.has(suiteOf(id)));
  const passing = report.results.filter((r) => r.passed).map((r) => r.id);
  const passingSet = new Set(passing);
  for (const suite of suites) {
    const ids = report.results.filter((r) => r.suite === suite).map((r) => r.id);
    const dir = suiteDir(suite, root, webhookDir);
    const where = suite === 'webhook-corpus' ? 'tests/fixtures/validation' : suite === 'describe' ? 'conformance/describe' : `../shared/conformance/${suite}`;
    const pending = report.results.filter((r) => r.suite === suite && r.notImplemented).map((r) => r.id);
    writeFileSync(join(paths.manifests, `${suite}.txt`), formatManifest(suite, where, { files: listFiles(dir, suite), cases: ids, pending }));
    const p = ids.filter((id) => passingSet.has(id)).length;
    const ni = pending.length;
    const was = [...before].filter((id) => suiteOf(id) === suite).length;
    lines.push(
      `${suite}: ${ids.length} case(s) in the manifest, ${p} passing in the baseline (was ${was}), ${ids.length - p - ni} failing${ni > 0 ? `, ${ni} not implemented` : ''}`,
    );
  }
  writeFileSync(
    baselineFile,
    [
      '# Every conformance case that passes; `npm run conformance -- --baseline conformance/baseline.txt` fails when one',
      '# of them fails or does not run. Written by `npm run conformance -- --write-baseline`.',
      ...[...kept, ...passing].sort(),
      '',
    ].join('\n'),
  );
  lines.push(`wrote ${baselineFile} and ${paths.manifests}/{${suites.join(',')}}.txt`);
  let exitCode = 0;
  for (const e of errors) {
    lines.push(`ERROR: ${e}`);
    exitCode = 1;
  }
  for (const r of report.results) {
    if (!r.passed && !r.notImplemented && !known.has(r.id)) {
      lines.push(`NEEDS A REASON in ${paths.knownFailures} (failing, not a known failure): ${r.id}`);
      exitCode = 1;
    }
    if (r.passed && known.has(r.id)) lines.push(`known failure now passes; remove it from ${paths.knownFailures}: ${r.id}`);
  }
  return { lines, exitCode };
}

export interface CommandLine extends ConformanceOptions {
  writeBaseline?: boolean;
}

const USAGE = `usage: npm run conformance -- [--root DIR] [--cases FILE] [--baseline FILE] [--suite NAME]...
                                [--manifests DIR] [--known-failures FILE] [--write-baseline]
  --baseline FILE    strict run (also under CI): a missing corpus part, corpus file, manifest case or
                     baseline case, a regression, or a failure that is not a known failure fails it.
                     Manifests and known failures are read next to FILE (manifest/, known-failures.txt).
  --write-baseline   rewrite the baseline (default conformance/baseline.txt) and the manifests from
                     this corpus; failures without a reason in known-failures.txt are listed (exit 1).
  --suite NAME       run and check only this suite (${ALL_SUITES.join(', ')}); repeatable.`;

export function parseArgs(argv: readonly string[]): CommandLine {
  const opts: CommandLine = {};
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
    else if (flag === '--manifests') opts.manifests = value();
    else if (flag === '--known-failures') opts.knownFailures = value();
    else if (flag === '--suite') opts.suites = [...(opts.suites ?? []), ...value().split(',')];
    else if (flag === '--write-baseline') opts.writeBaseline = true;
    else if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument: ${a}`);
  }
  return opts;
}

function main(): void {
  let opts: CommandLine;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const { writeBaseline: write, ...options } = opts;
  if (write) {
    const r = writeBaseline({ ...options, baseline: options.baseline ?? join(CONFORMANCE_DIR, 'baseline.txt') });
    console.log(r.lines.join('\n'));
    process.exitCode = r.exitCode;
    return;
  }
  const report = runConformance({ ...options, strict: options.baseline !== undefined || isCi() });
  console.log(report.lines.join('\n'));
  process.exitCode = report.exitCode;
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(resolve(invokedPath)).href) main();
