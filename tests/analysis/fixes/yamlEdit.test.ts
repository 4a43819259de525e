import { describe, expect, it } from 'vitest';
import { DocumentEditor, Quoted, plainSafe, type YamlPath, type YamlValue } from '../../../src/core/analysis/fixes/yamlEdit.ts';
import { applyTextEdits } from '../../../src/core/analysis/fixes/apply.ts';
import { editDistance, closest } from '../../../src/core/analysis/fixes/distance.ts';
import type { SourceDocument, TextEdit } from '../../../src/core/document/types.ts';

function docOf(text: string, opts: { startLine?: number; isJson?: boolean } = {}): SourceDocument {
  const startLine = opts.startLine ?? 1;
  return { file: 'f.yaml', index: 0, text, startOffset: 0, startLine, referenceLine: startLine, isJson: opts.isJson ?? false };
}

function run(text: string, edit: (ed: DocumentEditor) => TextEdit | undefined, isJson = false): string {
  const ed = DocumentEditor.for(docOf(text, { isJson }));
  expect(ed).toBeDefined();
  const e = edit(ed!);
  expect(e).toBeDefined();
  return applyTextEdits(text, [e!]);
}

const lines = (...l: string[]) => l.join('\n') + '\n';

describe('replaceScalar', () => {
  it('keeps the quote style of the value it replaces', () => {
    const text = lines('spec:', '  host: reviews2 # typo', '  other: "a"', "  third: 'b'");
    expect(run(text, (ed) => ed.replaceScalar(['spec', 'host'], 'reviews'))).toBe(lines('spec:', '  host: reviews # typo', '  other: "a"', "  third: 'b'"));
    expect(run(text, (ed) => ed.replaceScalar(['spec', 'other'], 'x y'))).toContain('  other: "x y"\n');
    expect(run(text, (ed) => ed.replaceScalar(['spec', 'third'], "it's"))).toContain("  third: 'it''s'\n");
  });

  it('quotes values that would not read back as the same string', () => {
    const text = lines('a: x');
    expect(run(text, (ed) => ed.replaceScalar(['a'], '*'))).toBe(lines('a: "*"'));
    expect(run(text, (ed) => ed.replaceScalar(['a'], '9080'))).toBe(lines('a: "9080"'));
    expect(run(text, (ed) => ed.replaceScalar(['a'], 9080))).toBe(lines('a: 9080'));
    expect(run(text, (ed) => ed.replaceScalar(['a'], 'IST0101', { quote: 'double' }))).toBe(lines('a: "IST0101"'));
    expect(plainSafe('yes')).toBe(false);
    expect(plainSafe('1e3')).toBe(false);
    expect(plainSafe('reviews.bookinfo.svc.cluster.local')).toBe(true);
    // What kubectl reads as something else (YAML 1.1 words, Go integer forms) is quoted too.
    for (const s of ['on', 'Off', 'y', 'N', '0644', '0b101', '0B1', '1_000', '08', '']) expect(plainSafe(s), s).toBe(false);
    for (const s of ['v1', 'nan', 'e3', '1.2.3', 'x_1']) expect(plainSafe(s), s).toBe(true);
  });

  it('fills a key that has no value and works inside sequences', () => {
    expect(run(lines('a:', 'b: 1'), (ed) => ed.replaceScalar(['a'], 'v'))).toBe(lines('a: v', 'b: 1'));
    const text = lines('gateways:', '  - one', '  - two');
    expect(run(text, (ed) => ed.replaceScalar(['gateways', 1], 'three'))).toBe(lines('gateways:', '  - one', '  - three'));
  });

  it('reports file coordinates for a document that starts later in the file', () => {
    const ed = DocumentEditor.for(docOf(lines('kind: X', 'name: y'), { startLine: 10 }))!;
    expect(ed.replaceScalar(['name'], 'z')?.range).toEqual({ startLine: 11, startCol: 7, endLine: 11, endCol: 8 });
  });
});

describe('addSequenceItem', () => {
  it('appends to a block sequence with its indentation', () => {
    const text = lines('servers:', '  - hosts:', '      - a.example.com', '    port: 80', 'next: 1');
    expect(run(text, (ed) => ed.addSequenceItem(['servers', 0, 'hosts'], 'b.example.com'))).toBe(
      lines('servers:', '  - hosts:', '      - a.example.com', '      - b.example.com', '    port: 80', 'next: 1'),
    );
    // Sequences written flush with their key.
    expect(run(lines('hosts:', '- a', 'x: 1'), (ed) => ed.addSequenceItem(['hosts'], '*'))).toBe(lines('hosts:', '- a', '- "*"', 'x: 1'));
  });

  it('appends mappings as Kubernetes-style items', () => {
    const text = lines('spec:', '  ports:', '    - name: http', '      port: 80', '  selector:', '    app: x');
    const value: YamlValue = { name: 'http-8080', port: 8080, protocol: 'TCP', targetPort: 8080 };
    expect(run(text, (ed) => ed.addSequenceItem(['spec', 'ports'], value))).toBe(
      lines(
        'spec:',
        '  ports:',
        '    - name: http',
        '      port: 80',
        '    - name: http-8080',
        '      port: 8080',
        '      protocol: TCP',
        '      targetPort: 8080',
        '  selector:',
        '    app: x',
      ),
    );
  });

  it('appends to flow sequences, empty ones and JSON arrays', () => {
    expect(run(lines('hosts: [a, b]'), (ed) => ed.addSequenceItem(['hosts'], 'c'))).toBe(lines('hosts: [a, b, c]'));
    expect(run(lines('hosts: []'), (ed) => ed.addSequenceItem(['hosts'], 'c'))).toBe(lines('hosts: [c]'));
    expect(run('{"hosts": ["a"]}', (ed) => ed.addSequenceItem(['hosts'], 'b'), true)).toBe('{"hosts": ["a", "b"]}');
  });

  it('creates a missing or empty sequence', () => {
    expect(run(lines('spec:', '  a: 1'), (ed) => ed.addSequenceItem(['spec', 'hosts'], 'x'))).toBe(lines('spec:', '  a: 1', '  hosts:', '    - x'));
    expect(run(lines('spec:', '  hosts:', '  a: 1'), (ed) => ed.addSequenceItem(['spec', 'hosts'], 'x'))).toBe(lines('spec:', '  hosts:', '    - x', '  a: 1'));
  });
});

describe('addMapEntry', () => {
  it('adds a key after the last one, at the mapping indentation', () => {
    const text = lines('metadata:', '  name: ns', '  labels:', '    a: b', 'spec: {}');
    expect(run(text, (ed) => ed.addMapEntry(['metadata', 'labels'], 'istio-injection', 'enabled'))).toBe(
      lines('metadata:', '  name: ns', '  labels:', '    a: b', '    istio-injection: enabled', 'spec: {}'),
    );
  });

  it('creates missing mappings on the way', () => {
    const text = lines('apiVersion: v1', 'kind: Service', 'metadata:', '  name: x', 'spec:', '  a: 1');
    const out = run(text, (ed) => ed.addMapEntry(['metadata', 'annotations'], 'galley.istio.io/analyze-suppress', new Quoted('IST0118')));
    expect(out).toBe(
      lines(
        'apiVersion: v1',
        'kind: Service',
        'metadata:',
        '  name: x',
        '  annotations:',
        '    galley.istio.io/analyze-suppress: "IST0118"',
        'spec:',
        '  a: 1',
      ),
    );
  });

  it('handles keys after a sequence dash, empty keys, flow maps and JSON', () => {
    const text = lines('ports:', '  - port: 80', '    name: web', 'x: 1');
    expect(run(text, (ed) => ed.addMapEntry(['ports', 0], 'protocol', 'TCP'))).toBe(
      lines('ports:', '  - port: 80', '    name: web', '    protocol: TCP', 'x: 1'),
    );
    expect(run(lines('meta:', '  labels:', 'x: 1'), (ed) => ed.addMapEntry(['meta', 'labels'], 'a', 'b'))).toBe(
      lines('meta:', '  labels:', '    a: b', 'x: 1'),
    );
    expect(run(lines('labels: ~'), (ed) => ed.addMapEntry(['labels'], 'a', 'b'))).toBe(lines('labels:', '  a: b'));
    expect(run(lines('labels: {a: b}'), (ed) => ed.addMapEntry(['labels'], 'c', 'd'))).toBe(lines('labels: {a: b, c: d}'));
    expect(run(lines('labels: {}'), (ed) => ed.addMapEntry(['labels'], 'c', 'd'))).toBe(lines('labels: {c: d}'));
    expect(run('{"metadata": {"name": "x"}}', (ed) => ed.addMapEntry(['metadata', 'labels'], 'a', 'b'), true)).toBe(
      '{"metadata": {"name": "x", "labels": {"a":"b"}}}',
    );
    expect(run(lines('d:', '  number: 1'), (ed) => ed.addMapEntry(['d'], 'port', { number: 9080 }))).toBe(
      lines('d:', '  number: 1', '  port:', '    number: 9080'),
    );
  });

  it('keeps CRLF line endings', () => {
    const text = 'metadata:\r\n  labels:\r\n    a: b\r\n';
    expect(run(text, (ed) => ed.addMapEntry(['metadata', 'labels'], 'c', 'd'))).toBe('metadata:\r\n  labels:\r\n    a: b\r\n    c: d\r\n');
  });
});

describe('renameKey and removeMapEntry', () => {
  it('renames a key and keeps its value', () => {
    expect(
      run(lines('annotations:', '  sidecar.istio.io/injekt: "false"'), (ed) =>
        ed.renameKey(['annotations', 'sidecar.istio.io/injekt'], 'sidecar.istio.io/inject'),
      ),
    ).toBe(lines('annotations:', '  sidecar.istio.io/inject: "false"'));
  });

  it('removes whole lines of a block entry, nested values included', () => {
    const text = lines('labels:', '  istio-injection: enabled', '  istio.io/rev: canary', 'spec:', '  a:', '    b: 1', '  c: 2');
    expect(run(text, (ed) => ed.removeMapEntry(['labels', 'istio-injection']))).toBe(
      lines('labels:', '  istio.io/rev: canary', 'spec:', '  a:', '    b: 1', '  c: 2'),
    );
    expect(run(text, (ed) => ed.removeMapEntry(['spec', 'a']))).toBe(
      lines('labels:', '  istio-injection: enabled', '  istio.io/rev: canary', 'spec:', '  c: 2'),
    );
  });

  it('removes flow entries with their comma', () => {
    expect(run(lines('l: {a: 1, b: 2}'), (ed) => ed.removeMapEntry(['l', 'b']))).toBe(lines('l: {a: 1}'));
    expect(run(lines('l: {a: 1, b: 2}'), (ed) => ed.removeMapEntry(['l', 'a']))).toBe(lines('l: {b: 2}'));
  });

  it('returns nothing for paths that do not exist', () => {
    const ed = DocumentEditor.for(docOf(lines('a: 1')))!;
    const missing: YamlPath = ['b', 'c'];
    expect(ed.replaceScalar(missing, 'x')).toBeUndefined();
    expect(ed.renameKey(missing, 'x')).toBeUndefined();
    expect(ed.removeMapEntry(missing)).toBeUndefined();
  });
});

describe('applyTextEdits and distance', () => {
  it('applies several edits against the original text', () => {
    const text = 'abc\ndef\n';
    const out = applyTextEdits(text, [
      { range: { startLine: 1, startCol: 1, endLine: 1, endCol: 2 }, text: 'X' },
      { range: { startLine: 2, startCol: 4, endLine: 2, endCol: 4 }, text: '!' },
    ]);
    expect(out).toBe('Xbc\ndef!\n');
  });

  it('ranks candidates by edit distance', () => {
    expect(editDistance('reviews2', 'reviews')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    const r = closest('reviews2', ['ratings', 'reviews', 'details', 'productpage'], (s) => s);
    expect(r.map((x) => x.value)).toEqual(['reviews']);
    expect(closest('ratings-gateway', ['bookinfo-gateway', 'admin-gateway'], (s) => s).map((x) => x.value)).toEqual(['admin-gateway', 'bookinfo-gateway']);
  });
});
