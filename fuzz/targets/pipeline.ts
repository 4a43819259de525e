// Target `pipeline`: the whole analysis as the CLI and the worker drive it (parse, store,
// every analyzer, located diagnostics, quick fixes, the output formats, an incremental
// edit and an applied quick fix), on workspaces built from real manifests with mutated
// values: wrong types, missing fields, odd keys (`toString`, `__proto__`, `constructor`…),
// lists or mappings where strings are expected, numbers where lists are expected, and now
// and then broken YAML. The property: no exception escapes, and no input takes over the
// time limit.
import fc from 'fast-check';
import jsyaml from 'js-yaml';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings, type AnalysisSettings } from '../../src/core/analysis/settings.ts';
import { formatDiagnostics, OUTPUT_FORMATS } from '../../src/core/analysis/format/index.ts';
import { applyTextEdits } from '../../src/core/analysis/fixes/index.ts';
import { YAML_LOAD_OPTIONS } from '../../src/core/document/yamlSchema.ts';
import type { Diagnostic, WorkspaceFile } from '../../src/core/document/types.ts';
import { applyNoise, noiseArb, type Noise } from '../gen/yamlText.ts';
import type { Seeds } from '../gen/seeds.ts';
import { FuzzFailure, describeError } from '../failure.ts';
import type { CheckOutcome, CheckOptions, Target } from '../target.ts';

/** A workspace to analyze, written out (so a corpus entry needs no seed files). */
export interface PipelineCase {
  files: WorkspaceFile[];
  settings: AnalysisSettings;
  meshConfigText?: string;
  /** A second version of one file, analyzed incrementally after the first run. */
  edit?: WorkspaceFile;
  /** Apply the first quick fix offered and analyze again. */
  applyFix: boolean;
}

/** Values that are wrong almost anywhere in a manifest. */
const WRONG: unknown[] = [
  0,
  -1,
  1.5,
  65536,
  1e300,
  -0,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  null,
  '',
  'x',
  '*',
  '0',
  ' ',
  '80',
  '-1',
  'toString',
  '__proto__',
  [],
  {},
  ['x'],
  [1],
  [[]],
  [null],
  [{}],
  { a: 'b' },
  { toString: 'x' },
  { valueOf: 1 },
  { constructor: 'y' },
  { length: 5 },
  { hasOwnProperty: 1 },
  'a'.repeat(300),
  [['x', ['y', ['z']]]],
  { name: { name: { name: 'n' } } },
  '${x}',
  'http://',
  'a/b/c',
  '*.',
  '.*',
  'IST0101',
  '~',
];

const ODD_KEYS = [
  'toString',
  'valueOf',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'length',
  '0',
  '',
  ' ',
  '*',
  'spec',
  'metadata',
  'name',
  'namespace',
  'hosts',
  'selector',
  'ports',
  'items',
  'kind',
  'apiVersion',
];

export interface Mutation {
  op: 'replace' | 'delete' | 'add' | 'dup';
  at: number;
  pick: number;
}

export const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom('replace' as const, 'replace' as const, 'delete' as const, 'add' as const, 'dup' as const),
  at: fc.nat(),
  pick: fc.nat(),
});

type Container = Record<string, unknown> | unknown[];

/** Containers of a value with the key of each of their children, depth first (bounded). */
function slots(value: unknown, max = 400): Array<[Container, string | number]> {
  const out: Array<[Container, string | number]> = [];
  const walk = (v: unknown, depth: number) => {
    if (out.length >= max || depth > 40 || typeof v !== 'object' || v === null) return;
    const c = v as Container;
    if (Array.isArray(c)) c.forEach((x, i) => (out.push([c, i]), walk(x, depth + 1)));
    else for (const k of Object.keys(c)) out.push([c, k]), walk(c[k], depth + 1);
  };
  walk(value, 0);
  return out;
}

export function copy(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(copy);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) setOwn(out, k, copy((v as Record<string, unknown>)[k]));
  return out;
}

/** Sets a property as YAML would (an own `__proto__` included). */
function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

export function mutate(value: unknown, m: Mutation): unknown {
  const all = slots(value);
  const wrong = copy(WRONG[m.pick % WRONG.length]);
  if (all.length === 0) return m.op === 'replace' ? wrong : value;
  const [c, k] = all[m.at % all.length] as [Container, string | number];
  if (Array.isArray(c)) {
    const i = k as number;
    if (m.op === 'replace') c[i] = wrong;
    else if (m.op === 'delete') c.splice(i, 1);
    else if (m.op === 'dup') c.splice(i, 0, copy(c[i]));
    else c.push(wrong);
  } else {
    const key = k as string;
    if (m.op === 'replace') setOwn(c, key, wrong);
    else if (m.op === 'delete') delete c[key];
    else if (m.op === 'dup') setOwn(c, `${key}2`, copy(c[key]));
    else setOwn(c, ODD_KEYS[m.pick % ODD_KEYS.length] as string, wrong);
  }
  return value;
}

const MESH_CONFIGS = [
  '',
  'a: [',
  'defaultConfig: 5',
  'ingressControllerMode: 7',
  'rootNamespace: {}',
  '{}',
  '[]',
  'meshNetworks: x',
  'defaultConfig:\n  proxyMetadata: [1]\n',
  'ingressService: [a]\ningressSelector: {}\n',
  'trustDomain: 3\n',
];
const SUPPRESSIONS = ['IST0101=*', 'IST0102=Namespace default', 'IST0103=Pod *', 'IST0118=Service bookinfo/*', 'IST0101=VirtualService x.y', 'X=Y'];

let parsedSeeds: unknown[] | undefined;

function seedValues(seeds: Seeds): unknown[] {
  if (!parsedSeeds) {
    parsedSeeds = seeds.documents.map((t) => {
      try {
        return jsyaml.load(t, YAML_LOAD_OPTIONS);
      } catch {
        return undefined;
      }
    });
  }
  return parsedSeeds;
}

function docText(seeds: Seeds, seed: number, mutations: readonly Mutation[], json: boolean): string {
  const values = seedValues(seeds);
  const i = seed % Math.max(values.length, 1);
  const base = values[i];
  if (base === undefined) return seeds.documents[i] ?? '';
  let value = copy(base);
  for (const m of mutations) value = mutate(value, m);
  try {
    return json ? `${JSON.stringify(value, null, 2)}\n` : jsyaml.dump(value, { lineWidth: -1, noRefs: true });
  } catch {
    return seeds.documents[i] ?? '';
  }
}

const docArb = fc.record({ seed: fc.nat(), mutations: fc.array(mutationArb, { maxLength: 4 }) });
const fileArb = fc.record({
  name: fc.constantFrom('a.yaml', 'b.yml', 'c.json', 'dir/d.yaml'),
  docs: fc.array(docArb, { minLength: 1, maxLength: 5 }),
  noise: fc.option(fc.array(noiseArb, { minLength: 1, maxLength: 2 }), { freq: 6 }),
});

function buildFile(
  seeds: Seeds,
  f: { name: string; docs: Array<{ seed: number; mutations: Mutation[] }>; noise: Noise[] | null },
  index: number,
): WorkspaceFile {
  const json = f.name.endsWith('.json');
  const texts = f.docs.map((d) => docText(seeds, d.seed, d.mutations, json));
  const text = json ? (texts[0] as string) : texts.join('---\n');
  return { path: `${index}-${f.name}`, text: f.noise ? applyNoise(text, f.noise) : text };
}

function caseArb(seeds: Seeds): fc.Arbitrary<PipelineCase> {
  return fc
    .record({
      files: fc.array(fileArb, { minLength: 1, maxLength: 3 }),
      defaultNamespace: fc.constantFrom('default', 'default', 'istio-system', 'bookinfo', ''),
      namespaceFilter: fc.option(fc.constantFrom('default', 'bookinfo', 'nope'), { freq: 5 }),
      includePlaceholders: fc.boolean(),
      suppressions: fc.subarray(SUPPRESSIONS, { maxLength: 2 }),
      meshConfig: fc.option(fc.constantFrom(...MESH_CONFIGS), { freq: 4 }),
      edit: fc.option(fc.record({ file: fc.nat(), doc: docArb }), { freq: 2 }),
      applyFix: fc.boolean(),
    })
    .map((r) => {
      const files = r.files.map((f, i) => buildFile(seeds, f, i));
      const settings: AnalysisSettings = {
        ...defaultAnalysisSettings(),
        defaultNamespace: r.defaultNamespace,
        includePlaceholders: r.includePlaceholders,
        suppressions: r.suppressions,
      };
      if (r.namespaceFilter) settings.namespaceFilter = r.namespaceFilter;
      const out: PipelineCase = { files, settings, applyFix: r.applyFix };
      if (r.meshConfig !== null) out.meshConfigText = r.meshConfig;
      if (r.edit) {
        const target = files[r.edit.file % files.length] as WorkspaceFile;
        out.edit = { path: target.path, text: `${target.text}---\n${docText(seeds, r.edit.doc.seed, r.edit.doc.mutations, false)}` };
      }
      return out;
    });
}

/** Where an exception came from: its kind, its message (numbers elided) and the first frame in our sources. */
export function crashSignature(e: unknown): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const frame = (err.stack ?? '')
    .split('\n')
    .filter((l) => !l.includes('node_modules'))
    .map((l) => /at (?:(\S+) \()?(?:file:\/\/)?[^\s(]*?\/(src\/[^\s:)]+)/.exec(l))
    .find((m) => m);
  const where = frame ? `${frame[2]}#${frame[1] ?? '<anonymous>'}` : 'unknown';
  return `${err.name}: ${err.message.replace(/\d+/g, 'N')} @ ${where}`;
}

/** True for crashes inside the analysis code (src/core/analysis), which another change makes crash-proof. */
export function isAnalyzerCrash(signature: string): boolean {
  return / @ src\/core\/analysis\//.test(signature);
}

function firstFix(diagnostics: readonly Diagnostic[]): Diagnostic['fixes'] {
  for (const d of diagnostics) if (d.fixes && d.fixes.length > 0) return d.fixes;
  return undefined;
}

export async function checkPipeline(c: PipelineCase, options: CheckOptions): Promise<CheckOutcome> {
  const t0 = performance.now();
  try {
    const w = new WorkspaceAnalyzer();
    w.update(c.files, []);
    const runOptions = { fixes: true, ...(c.meshConfigText !== undefined ? { meshConfigText: c.meshConfigText } : {}) };
    let r = await w.run(c.settings, runOptions);
    if (r === 'canceled') throw new Error('run canceled without a cancel request');
    for (const f of OUTPUT_FORMATS) formatDiagnostics(f, r.diagnostics, { toolVersion: 'fuzz' });
    const current = new Map(c.files.map((f) => [f.path, f.text]));
    if (c.edit) {
      current.set(c.edit.path, c.edit.text);
      w.update([c.edit], []);
      r = await w.run(c.settings, runOptions);
      if (r === 'canceled') throw new Error('run canceled without a cancel request');
    }
    const fixes = c.applyFix ? firstFix(r.diagnostics) : undefined;
    if (fixes) {
      const byFile = new Map<string, (typeof fixes)[number]['edits']>();
      for (const e of (fixes[0] as (typeof fixes)[number]).edits) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
      const changed = [...byFile].map(([path, edits]) => ({ path, text: applyTextEdits(current.get(path) ?? '', edits) }));
      w.update(changed, []);
      r = await w.run(c.settings, runOptions);
      if (r === 'canceled') throw new Error('run canceled without a cancel request');
      formatDiagnostics('log', r.diagnostics);
    }
  } catch (e) {
    const sig = crashSignature(e);
    if (options.knownCrashes?.has(sig)) return 'known-crash';
    throw new FuzzFailure('crash', `${sig} :: ${describeError(e)}`);
  }
  const ms = performance.now() - t0;
  if (ms > options.timeLimitMs) throw new FuzzFailure('hang', `analysis took ${ms.toFixed(0)} ms (limit ${options.timeLimitMs} ms)`);
  return 'ok';
}

export const pipelineTarget: Target<PipelineCase> = {
  name: 'pipeline',
  description: 'whole analysis with quick fixes on mutated workspaces: no exception, no input over the limit',
  arbitrary: caseArb,
  check: checkPipeline,
  async: true,
  smokeRuns: 1000,
};
