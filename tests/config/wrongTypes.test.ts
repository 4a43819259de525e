// No shape of input may throw: a field of the wrong type reads as absent. These tests put
// odd values (objects with `toString`/`valueOf`/`__proto__`/`constructor` keys, lists and
// mappings where strings are expected, numbers where lists are expected) into every field
// of our samples and check that the whole pipeline, quick fixes included, still runs and
// that an unrelated file keeps its message.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import jsyaml from 'js-yaml';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import type { Diagnostic } from '../../src/core/document/types.ts';
import { yamlFiles } from '../helpers/files.ts';

/** An independent resource with a message of its own (IST0118: port name without protocol). */
const SENTINEL = `apiVersion: v1
kind: Service
metadata:
  name: sentinel
  namespace: sentinel-ns
spec:
  selector:
    app: sentinel
  ports:
  - name: web
    port: 8080
`;

const ODD_VALUES: Array<[string, unknown]> = [
  ['toString key', { toString: 'x' }],
  ['valueOf key', { valueOf: 1 }],
  ['__proto__ key', JSON.parse('{"__proto__": {"polluted": "yes"}}')],
  ['constructor key', { constructor: 'x' }],
  ['list', ['a', { toString: 'x' }]],
  ['mapping', { a: 'b' }],
  ['number', 42],
  ['null', null],
];

async function analyzeFiles(files: Record<string, string>): Promise<Diagnostic[]> {
  const wa = new WorkspaceAnalyzer();
  wa.update(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    [],
  );
  const result = await wa.run(defaultAnalysisSettings(), { fixes: true });
  if (result === 'canceled') throw new Error('canceled');
  return result.diagnostics;
}

const hasSentinel = (ds: readonly Diagnostic[]) => ds.some((d) => d.code === 'IST0118' && d.origin === 'Service sentinel-ns/sentinel');

function dump(docs: unknown[]): string {
  return docs.map((d) => jsyaml.dump(d, { noRefs: true })).join('---\n');
}

describe('odd values in the fields the analyzers read', () => {
  it('the sentinel alone gives its message', async () => {
    expect(hasSentinel(await analyzeFiles({ 'sentinel.yaml': SENTINEL }))).toBe(true);
  });

  // The five places fuzzing found crashing, and the example.
  const cases: Array<[string, string]> = [
    ['name with a toString key', 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name:\n    toString: x\n'],
    [
      'namespace with a toString key',
      'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: a\n  namespace:\n    toString: x\nspec:\n  hosts: [a]\n',
    ],
    [
      'label value with a toString key',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n    app:\n      toString: x\nspec:\n  containers: [{name: a, image: b}]\n',
    ],
    [
      'annotation value with a valueOf key',
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  annotations:\n    networking.istio.io/exportTo:\n      valueOf: 1\nspec:\n  ports: [{port: 80}]\n',
    ],
    [
      'selector value with a toString key',
      'apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata:\n  name: g\nspec:\n  selector:\n    istio:\n      toString: x\n  servers: [{port: {number: 80, name: http, protocol: HTTP}, hosts: ["*"]}]\n',
    ],
    [
      'injector values with a toString key',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: istio-sidecar-injector\n  namespace: istio-system\ndata:\n  values:\n    toString: x\n',
    ],
    [
      'Service selector with a __proto__ key',
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: s2\nspec:\n  selector:\n    __proto__: {a: b}\n  ports: [{port: 80, name: http}]\n',
    ],
  ];
  for (const [name, text] of cases) {
    it(`${name}: no crash, and another file keeps its message`, async () => {
      const ds = await analyzeFiles({ 'odd.yaml': text, 'sentinel.yaml': SENTINEL });
      expect(hasSentinel(ds)).toBe(true);
      expect(ds.filter((d) => d.code === 'IST0001')).toEqual([]);
    });
  }

  // Every field of the "many mistakes" and "bookinfo with mistakes" samples, each replaced by
  // an odd value (rotating through them), analyzed incrementally next to the sentinel.
  it('every field of the samples, replaced by an odd value', async () => {
    const sampleFiles = [...yamlFiles('public/samples/many-mistakes'), ...yamlFiles('public/samples/bookinfo-mistakes')];
    expect(sampleFiles.length).toBeGreaterThan(3);
    const base: Record<string, string> = { 'sentinel.yaml': SENTINEL };
    for (const f of sampleFiles) base[f] = readFileSync(f, 'utf8');
    const wa = new WorkspaceAnalyzer();
    wa.update(
      Object.entries(base).map(([path, text]) => ({ path, text })),
      [],
    );
    let runs = 0;
    let rotation = 0;
    for (const file of sampleFiles) {
      const docs = jsyaml.loadAll(base[file] as string) as unknown[];
      for (let d = 0; d < docs.length; d++) {
        for (const path of fieldPaths(docs[d], 6)) {
          const [label, value] = ODD_VALUES[rotation++ % ODD_VALUES.length] as [string, unknown];
          const mutated = docs.map((x, i) => (i === d ? replaceAt(x, path, value) : x));
          wa.update([{ path: file, text: dump(mutated) }], []);
          const result = await wa.run(defaultAnalysisSettings(), { fixes: true });
          if (result === 'canceled') throw new Error('canceled');
          runs++;
          const where = `${file} doc ${d} ${path.join('.')} = ${label}`;
          expect(hasSentinel(result.diagnostics), where).toBe(true);
          expect(
            result.diagnostics.filter((x) => x.code === 'IST0001').map((x) => x.message),
            where,
          ).toEqual([]);
        }
        wa.update([{ path: file, text: base[file] as string }], []);
      }
    }
    expect(runs).toBeGreaterThan(300);
    // Nothing leaked into Object.prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 120_000);
});

/** Paths to every value in a parsed document, up to a depth. */
function fieldPaths(v: unknown, depth: number, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [];
  if (depth === 0 || v === null || typeof v !== 'object') return out;
  const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  for (const [k, x] of entries) {
    const p = [...prefix, k];
    // apiVersion and kind decide what a document is; changing them is a different test.
    if (prefix.length === 0 && (k === 'apiVersion' || k === 'kind')) continue;
    out.push(p);
    out.push(...fieldPaths(x, depth - 1, p));
  }
  return out;
}

function replaceAt(v: unknown, path: ReadonlyArray<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? replaceAt(x, rest, value) : x));
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) out[k] = k === head ? replaceAt(o[k], rest, value) : o[k];
  return out;
}

describe('odd values in the mesh config', () => {
  it('reads wrong-typed mesh config fields as absent', async () => {
    const cm = `apiVersion: v1
kind: ConfigMap
metadata:
  name: istio
  namespace: istio-system
data:
  mesh: |
    trustDomain:
      toString: x
    trustDomainAliases: [a, {toString: x}, 3]
    ingressService: [x]
    extensionProviders: [{name: {toString: x}}, 7, {name: ok, envoyOtelAls: {}}]
    defaultConfig: 5
`;
    const ds = await analyzeFiles({ 'mesh.yaml': cm, 'sentinel.yaml': SENTINEL });
    expect(hasSentinel(ds)).toBe(true);
    expect(ds.filter((d) => d.code === 'IST0001')).toEqual([]);
  });
});
