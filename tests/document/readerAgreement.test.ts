// Every example of how the reader used to differ from js-yaml and kubectl (issue #7): each
// gives js-yaml's value, or an error where js-yaml errors, and the line istioctl prints.
import { describe, expect, it } from 'vitest';
import jsyaml from 'js-yaml';
import { parseSourceDocument } from '../../src/core/document/parse.ts';
import { parseFastYaml, NOT_HANDLED } from '../../src/core/document/fastYaml.ts';
import { YAML_LOAD_OPTIONS } from '../../src/core/document/yamlSchema.ts';
import { fastLocate } from '../../src/core/document/fastLocate.ts';
import { locateWithParser, parseFieldPath } from '../../src/core/document/locate.ts';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { renderMessage } from '../../src/core/analysis/render.ts';
import { MESSAGES } from '../../src/core/analysis/messages.ts';
import type { Resource, SourceDocument } from '../../src/core/document/types.ts';
import { sameValue } from '../../fuzz/compare.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

function doc(text: string, file = 'm.yaml'): SourceDocument {
  return { file, index: 0, text, startOffset: 0, startLine: 1, referenceLine: 1, isJson: file.endsWith('.json') };
}

function jsYaml(text: string): { value?: unknown; error?: string } {
  try {
    return { value: jsyaml.load(text, YAML_LOAD_OPTIONS) };
  } catch (e) {
    return { error: (e as { reason: string }).reason };
  }
}

/** Reads a text the way the app does, checks it against js-yaml, and returns the value. */
function readsAsJsYaml(text: string): unknown {
  const ref = jsYaml(text);
  expect(ref.error, `js-yaml rejects ${JSON.stringify(text)}`).toBeUndefined();
  const parsed = parseSourceDocument(doc(text));
  expect(parsed.problems).toEqual([]);
  expect(sameValue(parsed.value, ref.value), `${JSON.stringify(parsed.value)} vs js-yaml ${JSON.stringify(ref.value)}`).toBe(true);
  const fast = parseFastYaml(text);
  if (fast !== NOT_HANDLED) expect(sameValue(fast, ref.value)).toBe(true);
  return parsed.value;
}

/** A text js-yaml rejects: one error, no value, and the fast reader does not answer. */
function rejectedLikeJsYaml(text: string): string {
  expect(jsYaml(text).error, `js-yaml accepts ${JSON.stringify(text)}`).toBeDefined();
  expect(parseFastYaml(text)).toBe(NOT_HANDLED);
  const parsed = parseSourceDocument(doc(text));
  expect(parsed.value).toBeUndefined();
  expect(parsed.problems).toHaveLength(1);
  expect(parsed.problems[0]?.level).toBe('Error');
  return parsed.problems[0]?.message as string;
}

describe('the reader agrees with js-yaml', () => {
  it('reads tabs as whitespace: separators, before comments, after list dashes', () => {
    expect(readsAsJsYaml('host: reviews\t# comment\n')).toEqual({ host: 'reviews' });
    expect(readsAsJsYaml('host:\treviews\n')).toEqual({ host: 'reviews' });
    expect(readsAsJsYaml('port: 9080\t# http\n')).toEqual({ port: 9080 });
    expect(readsAsJsYaml('-\treviews\n')).toEqual(['reviews']);
  });

  it('rejects what js-yaml rejects: indicators, control characters, bad block scalar headers', () => {
    for (const text of [
      'a: - b\n',
      'a: [-, b]\n',
      '@a: 1\n',
      '`a: 1\n',
      'a: b\u0001c\n',
      'a: "b\u0001c"\n',
      "a: 'b\u0000c'\n",
      'a: b\u007f\n',
      'a: |#c\n  x\n',
      'a: b\na: - c\n',
    ]) {
      rejectedLikeJsYaml(text);
    }
  });

  it('treats a lone CR as a line break', () => {
    expect(readsAsJsYaml('"x\ry"\n')).toBe('x y');
    expect(readsAsJsYaml('a: b\r\r\n')).toEqual({ a: 'b' });
    expect(readsAsJsYaml('a: b\rc: d\r')).toEqual({ a: 'b', c: 'd' });
  });

  it('honours merge keys, as kubectl does', () => {
    expect(readsAsJsYaml('spec:\n  <<: {host: reviews}\n')).toEqual({ spec: { host: 'reviews' } });
    expect(readsAsJsYaml('base: &b {host: a, port: 1}\nspec:\n  <<: *b\n  host: b\n')).toEqual({ base: { host: 'a', port: 1 }, spec: { host: 'b', port: 1 } });
  });

  it("the fast reader itself answers for plain block-style manifests, with js-yaml's value", () => {
    // readsAsJsYaml checks the fast reader only when it answers; here it must answer.
    const texts = [
      'host: reviews\n',
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: reviews\n  labels:\n    app: reviews\nspec:\n  ports:\n  - name: http\n    port: 9080\n',
      'spec:\n  http:\n  - route:\n    - destination:\n        host: "reviews"\n        subset: \'v1\'\n      weight: 50\n  enabled: true\n',
    ];
    for (const text of texts) {
      const fast = parseFastYaml(text);
      expect(fast, JSON.stringify(text)).not.toBe(NOT_HANDLED);
      expect(sameValue(fast, jsYaml(text).value)).toBe(true);
    }
  });

  it('keeps the later value of a duplicated key and says where each duplicate is', () => {
    const parsed = parseSourceDocument(doc('a: 1\nb: 2\na: 3\n'));
    expect(jsYaml('a: 1\nb: 2\na: 3\n').error).toBe('duplicated mapping key');
    expect(parsed.value).toEqual({ a: 3, b: 2 });
    // Not a read error: the earlier key (offset 0) is listed with go-yaml's line of the later value.
    expect(parsed.problems).toEqual([]);
    expect(parsed.duplicateKeys?.map((d) => [d.path, d.start, d.message])).toEqual([
      [['a'], 0, 'strict decoding error: yaml: unmarshal errors:\n  line 3: key "a" already set in map'],
    ]);
  });
});

describe('JSON files are read as istioctl reads them', () => {
  it('accepts flow-style YAML in a .json file and a byte-order mark', () => {
    const flow = parseSourceDocument(doc('{apiVersion: v1, kind: Service, metadata: {name: a}}\n', 'f.json'));
    expect(flow.problems).toEqual([]);
    expect(flow.value).toEqual({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' } });
    const bom = parseSourceDocument(doc('\ufeff{"apiVersion": "v1", "kind": "Service"}', 'b.json'));
    expect(bom.problems).toEqual([]);
    expect(bom.value).toEqual({ apiVersion: 'v1', kind: 'Service' });
    expect(parseSourceDocument(doc('\ufeffapiVersion: v1\nkind: Service\n')).value).toEqual({ apiVersion: 'v1', kind: 'Service' });
  });
});

describe('one clear error per broken document', () => {
  it('gives a template one error naming the first problem, with a hint', () => {
    const template = [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: {{ include "name" . }}',
      '  labels:',
      '{{- if .Values.labels }}',
      '{{ toYaml .Values.labels | indent 4 }}',
      '{{- end }}',
      'spec:',
      '  ports:',
      '  {{- range .Values.ports }}',
      '  - port: {{ .port }}',
      '  {{- end }}',
      '',
    ].join('\n');
    const m = new WorkspaceModel(kindProblems);
    m.update([{ path: 'chart.yaml', text: `${template}---\n${template}` }], []);
    const problems = m.problems();
    expect(problems).toHaveLength(2); // one per document
    expect(problems.map((p) => p.line)).toEqual([6, 20]);
    for (const p of problems) expect(p.message).toMatch(/template.*helm template/);
  });

  it('reports nesting deeper than js-yaml allows clearly, in block and flow style, however deep', () => {
    for (const depth of [150, 1000, 100_000]) {
      const flow = `a: ${'['.repeat(depth)}x${']'.repeat(depth)}\n`;
      let block = '';
      for (let i = 0; i < Math.min(depth, 2000); i++) block += `${' '.repeat(i)}k:\n`;
      for (const text of [flow, block]) {
        const message = rejectedLikeJsYaml(text);
        expect(message).toMatch(/nested too deeply \(more than 100 levels/);
      }
    }
    // Just under the limit is read.
    expect(readsAsJsYaml(`a: ${'['.repeat(90)}x${']'.repeat(90)}\n`)).toBeTruthy();
  });

  it('refuses aliases that expand into a cycle, a bomb or too deep a value', () => {
    expect(parseSourceDocument(doc('a: &x\n  b: *x\n')).problems[0]?.message).toMatch(/contains it/);
    let deep = 'l0: &l0 [x]\n';
    for (let i = 1; i < 60; i++) deep += `l${i}: &l${i} [[*l${i - 1}]]\n`;
    expect(parseSourceDocument(doc(deep)).problems[0]?.message).toMatch(/deeper than 100 levels/);
  });
});

describe('the line of a field', () => {
  function model(text: string): { m: WorkspaceModel; vs: Resource } {
    const m = new WorkspaceModel(kindProblems);
    m.update([{ path: 'f.yaml', text }], []);
    return { m, vs: m.resources().find((r) => r.gvk.kind === 'VirtualService') as Resource };
  }
  const line = (m: WorkspaceModel, r: Resource, fieldPath: string) =>
    renderMessage({ type: MESSAGES.ReferencedResourceNotFound, params: ['host', 'x'], resource: r, fieldPath }, 'test', (f, i) => m.document(f, i)).line;
  const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
  /** The fast finder answers as the full locator does, or defers. */
  const agree = (m: WorkspaceModel, path: string) => {
    const d = m.document('f.yaml', 1) as SourceDocument;
    const fast = fastLocate(d, parseFieldPath(path));
    if (fast) expect(fast).toMatchObject({ exact: true, scalar: locateWithParser(d, parseFieldPath(path))?.scalar });
  };
  const head =
    'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: other\n---\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: vs\nspec:\n  http:\n  - route:\n    - destination:\n';
  const host = 'spec.http[0].route[0].destination.host';

  it('the fast finder answers, as the full locator does, for a plain field', () => {
    // agree() checks the fast finder only when it answers; here it must answer.
    const text = `${head}        host: reviews\n`;
    const { m, vs } = model(text);
    expect(line(m, vs, host)).toBe(lineOf(text, 'host: reviews'));
    const d = m.document('f.yaml', 1) as SourceDocument;
    const fast = fastLocate(d, parseFieldPath(host));
    expect(fast).not.toBeNull();
    expect(fast).toMatchObject({ exact: true, scalar: true, value: locateWithParser(d, parseFieldPath(host))?.value });
  });

  it('is the line of the last occurrence of a duplicated key (the value used)', () => {
    const text = `${head}        host: first\n        host: second\n`;
    const { m, vs } = model(text);
    expect(line(m, vs, host)).toBe(lineOf(text, 'host: second'));
    agree(m, host);
  });

  it('is the line of a scalar written on the line after its key', () => {
    const text = `${head}        host:\n          reviews-typo\n`;
    const { m, vs } = model(text);
    expect(line(m, vs, host)).toBe(lineOf(text, 'reviews-typo'));
    agree(m, host);
  });

  it("is istioctl's for a value given by an alias: the resource's line (istioctl maps only scalar nodes), not the file's first line", () => {
    const text = `${head}        host: &h reviews-typo\n  - route:\n    - destination:\n        host: *h\n`;
    const { m, vs } = model(text);
    expect(line(m, vs, host)).toBe(lineOf(text, 'host: &h'));
    expect(line(m, vs, 'spec.http[1].route[0].destination.host')).toBe(lineOf(text, 'kind: VirtualService') - 1);
    expect(line(m, vs, 'spec.http[1].route[0].destination.host')).not.toBe(1);
    // The editor's range still points at the key on the alias's line.
    const r = renderMessage(
      { type: MESSAGES.ReferencedResourceNotFound, params: ['host', 'x'], resource: vs, fieldPath: 'spec.http[1].route[0].destination.host' },
      'test',
      (f, i) => m.document(f, i),
    );
    expect(r.range?.startLine).toBe(lineOf(text, 'host: *h'));
  });
});
