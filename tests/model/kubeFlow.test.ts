// A colon that ends a plain scalar inside a flow collection: Kubernetes (go-yaml) keeps it in
// the scalar, YAML 1.2 readers (js-yaml) make a mapping of it. We read it as Kubernetes does.
import { describe, expect, it } from 'vitest';
import jsyaml from 'js-yaml';
import { kubeFlowText } from '../../src/core/model/kubeFlow.ts';
import { parseSourceDocument } from '../../src/core/model/parse.ts';
import type { SourceDocument } from '../../src/core/model/types.ts';

function read(text: string): { value: unknown; errors: string[] } {
  const doc: SourceDocument = { file: 'm.yaml', index: 0, text, startOffset: 0, startLine: 1, referenceLine: 1, isJson: false };
  const parsed = parseSourceDocument(doc);
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
