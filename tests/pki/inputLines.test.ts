// inputLines.ts: the lines the certificate view points at, found in the text as a person reads
// it. The rules come from YAML 1.2.2 and from the shapes kubectl writes:
// - a document starts at its first line that is neither blank nor a comment (§6.6 comments,
//   §9.1.4 `l-document-prefix`); `---` followed by white space or the line's end marks the start
//   of a new document (§9.1.2 `c-directives-end`), while `---x` is a plain scalar (§7.3.3);
// - `kubectl get secret -o yaml` sorts keys (data before metadata); `kubectl get secrets -o yaml`
//   writes a `kind: List` whose `items` are at column 0 (`- apiVersion: v1`), so a key of one item
//   must never be taken from the next item or from another document.
import { describe, expect, it } from 'vitest';
import { documentStartLines, keyLine, objectLine } from '../../src/core/pki/inputLines.ts';

const lines = (text: string): string[] => text.split('\n');

describe('documentStartLines', () => {
  it('a document starts at its first line with content', () => {
    expect(documentStartLines(lines('kind: Secret\nmetadata:\n  name: a'))).toEqual([1]);
  });

  it('blank, white-space-only and comment lines (indented or not) come before the start', () => {
    expect(documentStartLines(lines('\n   \n# a comment\n  # indented comment\nkind: Secret'))).toEqual([5]);
  });

  it('a line ending in # is content', () => {
    expect(documentStartLines(lines('a: b #\nc: d'))).toEqual([1]);
  });

  it('each `---` starts the next document; a leading one starts none before it', () => {
    expect(documentStartLines(lines('---\nkind: A\n---\n\nkind: B\n--- \nkind: C\n---\t# c\nkind: D'))).toEqual([2, 5, 7, 9]);
  });

  it('`---` inside a line, or followed by other text, is no separator', () => {
    expect(documentStartLines(lines('description: a --- b\n---x: 1\nkind: A'))).toEqual([1]);
    expect(documentStartLines(lines('\n---x: 1\nkind: A'))).toEqual([2]);
  });
});

describe('objectLine', () => {
  it("finds the object's name from its document's first line, including that line", () => {
    expect(objectLine(lines('name: a\nkind: X'), 'a', 1)).toBe(1);
    expect(objectLine(lines('metadata:\n  name: a\ndata: {}'), 'a', 1)).toBe(2);
  });

  it('skips an earlier document with the same name', () => {
    const text = 'metadata:\n  name: a\n---\nmetadata:\n  name: a';
    expect(objectLine(lines(text), 'a', 4)).toBe(5);
  });

  it('takes quoted names, and gives the document line when the name is not written', () => {
    expect(objectLine(lines('metadata:\n  name: "a.b"'), 'a.b', 1)).toBe(2);
    expect(objectLine(lines('metadata:\n  name: axb'), 'a.b', 1)).toBe(1);
  });
});

describe('keyLine', () => {
  it('kubectl get secret -o yaml: the key above the name (data comes before metadata)', () => {
    const text = ['apiVersion: v1', 'data:', '  tls.crt: QUJD', 'kind: Secret', 'metadata:', '  name: a', 'type: kubernetes.io/tls'].join('\n');
    expect(keyLine(lines(text), 'tls.crt', 6)).toBe(3);
  });

  it('a key below the name when none is above', () => {
    const text = ['apiVersion: v1', 'kind: Secret', 'metadata:', '  name: a', 'data:', '  ca.crt: QUJD'].join('\n');
    expect(keyLine(lines(text), 'ca.crt', 4)).toBe(6);
  });

  it("never takes the next document's key", () => {
    const text = ['data:', '  k: QUJD', 'metadata:', '  name: a', '---', 'data:', '  k: REVG', 'metadata:', '  name: b'].join('\n');
    expect(keyLine(lines(text), 'k', 4)).toBe(2);
    expect(keyLine(lines(text), 'k', 9)).toBe(7);
    // A key written only in the second document is not the first one's.
    const second = ['metadata:', '  name: a', '---', 'data:', '  k: REVG'].join('\n');
    expect(keyLine(lines(second), 'k', 2)).toBe(2);
    const spaced = ['metadata:', '  name: a', '--- ', 'data:', '  k: REVG'].join('\n');
    expect(keyLine(lines(spaced), 'k', 2)).toBe(2);
  });

  it('a comment line does not end the object, even one with a dash in it', () => {
    const text = ['data:', '  k: QUJD', '# rotated - 2026-12-01', 'metadata:', '  name: a'].join('\n');
    expect(keyLine(lines(text), 'k', 5)).toBe(2);
  });

  it('a `---` inside a value, or `---x`, does not end the object', () => {
    const text = ['data:', '  k: QUJD', '  note: a --- b', '---x: 1', 'metadata:', '  name: a'].join('\n');
    expect(keyLine(lines(text), 'k', 6)).toBe(2);
  });

  // kubectl get secrets -o yaml
  const list = [
    'apiVersion: v1', // 1
    'items:', // 2
    '- apiVersion: v1', // 3
    '  data:', // 4
    '    tls.crt: QUJD', // 5
    '  kind: Secret', // 6
    '  metadata:', // 7
    '    finalizers:', // 8
    '    - example.com/keep', // 9
    '    name: a', // 10
    '    namespace: default', // 11
    '  type: kubernetes.io/tls', // 12
    '- apiVersion: v1', // 13
    '  data:', // 14
    '    ca.crt: REVG', // 15
    '    tls.crt: R0hJ', // 16
    '  kind: Secret', // 17
    '  metadata:', // 18
    '    name: b', // 19
    'kind: List', // 20
  ].join('\n');

  it('a List item: its own key, across a list inside the item', () => {
    expect(keyLine(lines(list), 'tls.crt', 10)).toBe(5);
    expect(keyLine(lines(list), 'tls.crt', 19)).toBe(16);
    expect(keyLine(lines(list), 'ca.crt', 19)).toBe(15);
  });

  it("a List item never takes the next or the previous item's key", () => {
    expect(keyLine(lines(list), 'ca.crt', 10)).toBe(10);
    expect(keyLine(lines(list), 'type', 19)).toBe(19);
  });

  it('a hand-written List: items indented under `items:`', () => {
    const text = [
      'kind: List',
      'items:',
      '  - kind: Secret',
      '    metadata:',
      '      name: a',
      '  - kind: Secret',
      '    data:',
      '      k: QUJD',
      '    metadata:',
      '      name: b',
    ].join('\n');
    expect(keyLine(lines(text), 'k', 5)).toBe(5);
    expect(keyLine(lines(text), 'k', 10)).toBe(8);
  });

  it('an item that starts with its metadata: the key below, the dash line does not end the search down', () => {
    const text = ['items:', '- metadata:', '    name: a', '  data:', '    k: QUJD', '- metadata:', '    name: b'].join('\n');
    expect(keyLine(lines(text), 'k', 3)).toBe(5);
  });
});
