// Flow collections as Kubernetes (go-yaml) reads them, where YAML 1.2 readers (js-yaml) differ:
// a colon that ends a plain scalar stays in it, and a `?` ends the scalar or starts a key.
import { describe, expect, it } from 'vitest';
import jsyaml from 'js-yaml';
import { kubeFlowText } from '../../src/core/document/kubeFlow.ts';
import { parseSourceDocument } from '../../src/core/document/parse.ts';
import type { SourceDocument } from '../../src/core/document/types.ts';

function docOf(text: string): SourceDocument {
  return { file: 'm.yaml', index: 0, text, startOffset: 0, startLine: 1, referenceLine: 1, isJson: false };
}

function read(text: string): { value: unknown; errors: string[] } {
  const parsed = parseSourceDocument(docOf(text));
  return { value: parsed.value, errors: parsed.problems.map((p) => `${p.range?.startLine}: ${p.message}`) };
}

describe('colons before flow indicators, read as Kubernetes reads them', () => {
  it('keeps an IPv6 range in a flow list a string (js-yaml would make a mapping of it)', () => {
    const text = 'spec:\n  addresses: [1.2.3.4, 2001:db8::]\n  hosts: [a.example.com]\n';
    expect((jsyaml.load(text) as { spec: { addresses: unknown[] } }).spec.addresses[1]).toEqual({ '2001:db8:': null });
    expect(read(text)).toEqual({ value: { spec: { addresses: ['1.2.3.4', '2001:db8::'], hosts: ['a.example.com'] } }, errors: [] });
  });

  it('applies before a comma and in flow mappings, and leaves `: ` alone', () => {
    expect(read('a: [x:, z]\n').value).toEqual({ a: ['x:', 'z'] });
    expect(read('a: {k:}\n').value).toEqual({ a: { 'k:': null } });
    expect(read('a: {k:, j: [::]}\n').value).toEqual({ a: { 'k:': null, j: [{ ':': null }] } });
    expect(read('a: [x: w, z]\n').value).toEqual({ a: [{ x: 'w' }, 'z'] });
    expect(read("a: [it's:]\n").value).toEqual({ a: ["it's:"] });
    // A scalar ending in a colon is a string in go-yaml even when the rest looks like a number.
    expect(read('a: [80:]\n').value).toEqual({ a: ['80:'] });
  });

  it('changes nothing outside plain scalars in flow collections', () => {
    for (const text of ['a: "[x:]"\n', "a: '{k:}'\n", 'a: |\n  [x:]\n', '# [x:]\na: b\n', 'a: x:]\n', 'a: [1, 2]\n', 'a: ["k":v]\n']) {
      expect(kubeFlowText(text), text).toBeUndefined();
      expect(read(text).value, text).toEqual(jsyaml.load(text));
    }
    // A scalar over two lines is left to YAML 1.2 (documented).
    expect(kubeFlowText('a: [x\n  y:]\n')).toBeUndefined();
  });

  it('keeps errors on the line where they are written', () => {
    const { errors } = read('a: [x:, y]\nb: [\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^2: /);
  });
});

describe('a `?` in a flow collection, read as Kubernetes reads it', () => {
  // What go-yaml v2 (kubectl) does with each of these, checked against it when written.
  it("ends a plain scalar there: the document is refused, at the `?`, with go-yaml's words", () => {
    for (const [text, col, close] of [
      ['a: [/login?next=1]\n', 11, ']'],
      ['a: [a ?b]\n', 7, ']'],
      ['a: {k: v?w}\n', 9, '}'],
      ['a: [b?]\n', 6, ']'],
      ['a: [?a?b]\n', 7, ']'],
    ] as const) {
      const parsed = parseSourceDocument(docOf(text));
      expect(parsed.value, text).toBeUndefined();
      expect(parsed.problems, text).toHaveLength(1);
      expect(parsed.problems[0]!.message, text).toContain(`did not find expected ',' or '${close}'`);
      expect(parsed.problems[0]!.range?.startCol, text).toBe(col);
    }
    expect(read('a: {x: ?b}\n').errors[0]).toContain('did not find expected node content');
  });

  it('starts a key when it starts the scalar', () => {
    expect(read('a: [?b]\n').value).toEqual({ a: [{ b: null }] });
    expect(read('a: [?b, c]\n').value).toEqual({ a: [{ b: null }, 'c'] });
    expect(read('a: {?k: v}\n').value).toEqual({ a: { k: 'v' } });
    expect(read('a: [?b: c]\n').value).toEqual({ a: [{ b: 'c' }] });
    expect(read('a: [?-b]\n').value).toEqual({ a: [{ '-b': null }] });
    expect(read('a: [?b:]\n').value).toEqual({ a: [{ 'b:': null }] });
    expect(read('a: [?yes]\n').value).toEqual({ a: [{ true: null }] });
  });

  it('leaves quoted scalars, block context and explicit keys alone', () => {
    expect(read('a: [\'x?y\', "v?w"]\n').value).toEqual({ a: ['x?y', 'v?w'] });
    expect(read('a: x?y\nb: |\n  [x?y]\n').value).toEqual({ a: 'x?y', b: '[x?y]\n' });
    expect(read('a: [? b]\n').value).toEqual({ a: [{ b: null }] });
  });
});
