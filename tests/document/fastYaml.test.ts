import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { yamlFiles } from '../helpers/files.ts';
import jsyaml from 'js-yaml';
import { parseFastYaml, NOT_HANDLED } from '../../src/core/document/fastYaml.ts';
import { YAML_LOAD_OPTIONS } from '../../src/core/document/yamlSchema.ts';
import { splitDocuments } from '../../src/core/document/split.ts';
import { generateMesh } from '../../bench/generateMesh.ts';
import { sameValue } from '../../fuzz/compare.ts';
import { sharedTest } from '../helpers/shared.ts';

/** js-yaml exactly as the document reader calls it (parse.ts). */
function reference(text: string): { value?: unknown; error?: boolean } {
  try {
    return { value: jsyaml.load(text, YAML_LOAD_OPTIONS) };
  } catch {
    return { error: true };
  }
}

/** The fast reader must give js-yaml's value whenever it answers, and must not answer when js-yaml fails. */
function checkAgainstJsYaml(texts: string[]): { answered: number; total: number } {
  let answered = 0;
  for (const text of texts) {
    const fast = parseFastYaml(text);
    if (fast === NOT_HANDLED) continue;
    answered++;
    const ref = reference(text);
    expect(ref.error, `js-yaml rejects a document the fast reader accepted:\n${text}`).toBeUndefined();
    expect(sameValue(fast, ref.value), text).toBe(true);
  }
  return { answered, total: texts.length };
}

const docsOf = (file: string, text: string) => splitDocuments(file, text).map((d) => d.text);

describe('fast YAML reader', () => {
  it('equals js-yaml on our samples, fixtures and the benchmark mesh, and reads nearly all of them', () => {
    const texts = [...yamlFiles('public/samples'), ...yamlFiles('tests/fixtures')].flatMap((f) => docsOf(f, readFileSync(f, 'utf8')));
    texts.push(...docsOf('mesh.yaml', generateMesh(60).text));
    const { answered, total } = checkAgainstJsYaml(texts);
    expect(total).toBeGreaterThan(300);
    expect(answered / total).toBeGreaterThan(0.9);
  });

  sharedTest('equals js-yaml on Istio test inputs', '../shared/conformance', (dir) => {
    const texts = yamlFiles(dir).flatMap((f) => docsOf(f, readFileSync(f, 'utf8')));
    const { answered, total } = checkAgainstJsYaml(texts);
    expect(total).toBeGreaterThan(100);
    expect(answered / total).toBeGreaterThan(0.6);
  });

  it('equals js-yaml on tricky scalars, collections and block scalars', () => {
    const cases = [
      'a: 1\nb: -2\nc: 0x1F\nd: 1.5\ne: .inf\nf: -.Inf\ng: .nan\nh: 1e3\ni: 0o17\nj: 010\nk: +7\n',
      'a: true\nb: False\nc: TRUE\nd: yes\ne: no\nf: on\ng: ~\nh: null\ni: Null\nj:\nk: NULL\n',
      'a: 1.2.3\nb: 08\nc: 1_000\nd: 0b101\ne: 12:30\nf: v1\ng: "1"\nh: \'true\'\ni: 2020-01-01\n',
      'msg: "tab\\there\\nnew \\"q\\" \\u00e9 \\x41 \\\\"\nsq: \'it\'\'s\'\nurl: http://a.b:80/x#frag\nhash: a#b\nc: x # comment\n',
      'list: [a, "b c", 1, true, null, [x, y], {k: v}]\nmap: {a: 1, b: "two", c: [3]}\nempty: []\nnone: {}\n',
      'spec:\n  hosts:\n  - a\n  - b\n  http:\n  - route:\n    - destination:\n        host: r\n      weight: 50\n',
      'items:\n-\n  a: 1\n- - x\n  - y\n- b: 2\n  c: 3\n-\n- last\n',
      'data:\n  mesh: |-\n    defaultConfig:\n      image: x\n\n    trust: cluster.local\n  keep: |+\n    a\n\n  clip: |\n    line1\n      indented\n    line3\n\n\nnext: 1\n',
      'key: |\n\n  after blank\n',
      '\'quoted key\': 1\n"dq": 2\nplain key with spaces: 3\n',
      'a:\n  b:\n    c:\n      d: deep\n  e: 1\n',
      'a: b: c\n',
      'a: [1, 2,\n  3]\n',
      'a: >\n  folded\n',
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: 1\na: 2\n',
      'a: "multi\n  line"\n',
      'a: plain\n  continued\n',
      '80: x\n',
      '? complex\n: value\n',
      '- a\n- b: 1\n  c: [x]\n',
      'scalar only\n',
      '"just quoted"\n',
      'k: [a, b, ]\n',
      'k: {a:b}\n',
      'k: v\r\nl:\r\n  - 1\r\n',
    ];
    // Plain block-style texts are read (and equal js-yaml's values)...
    const handled = [...cases.slice(0, 11), '- a\n- b: 1\n  c: [x]\n', 'scalar only\n', '"just quoted"\n', 'k: v\r\nl:\r\n  - 1\r\n'];
    expect(checkAgainstJsYaml(handled)).toEqual({ answered: handled.length, total: handled.length });
    // ...and it gives up (rather than guessing) on what it does not fully handle.
    const deferred = cases.filter((c) => !handled.includes(c));
    expect(deferred).toHaveLength(12);
    for (const t of [
      ...deferred,
      '\ta: 1\n',
      'a: b\tc\n',
      'a: b\rc: d\n',
      'a: \u0001\n',
      '<<: {a: 1}\n',
      'a: - b\n',
      'a: [-, b]\n',
      '@a: 1\n',
      'a: |#c\n  x\n',
      '\ufeffa: 1\n',
    ]) {
      expect(parseFastYaml(t), JSON.stringify(t)).toBe(NOT_HANDLED);
    }
  });

  it("leaves keys Object.prototype has (toString, constructor) to js-yaml, whose value is the document's own key", () => {
    // The reader's duplicate-key check is a plain lookup (values are never undefined), which
    // also finds Object's members: such keys must go to the full parser, never be misread.
    for (const t of ['toString: x\n', 'a: 1\nconstructor: y\n', 'spec:\n  valueOf: 3\n', 'm:\n  hasOwnProperty: [a]\n']) {
      expect(parseFastYaml(t), JSON.stringify(t)).toBe(NOT_HANDLED);
    }
    // A key that merely starts like one is read here, as js-yaml reads it.
    expect(checkAgainstJsYaml(['toStrings: x\nconstructors: [1]\n'])).toEqual({ answered: 1, total: 1 });
  });

  it('gives lists of every length the items js-yaml gives, in order', () => {
    // Short lists are copied to their exact size (see sequence()); the copy must keep every item.
    const texts = [1, 2, 15, 16, 17, 40].map((n) => `items:\n${Array.from({ length: n }, (_, i) => `- i${i}\n`).join('')}`);
    expect(checkAgainstJsYaml(texts)).toEqual({ answered: texts.length, total: texts.length });
  });

  it('resolves plain words and decimal integers as js-yaml with the project schema does (its shortcuts for them agree with the resolvers)', () => {
    const scalars = [
      'null',
      'Null',
      'NULL',
      'nULL',
      'nil',
      'true',
      'True',
      'TRUE',
      'tRUE',
      'yes',
      'false',
      'False',
      'FALSE',
      'no',
      'off',
      'on',
      'n',
      't',
      'f',
      'ns-7',
      'tcp',
      'x1',
      '0',
      '1',
      '7',
      '9080',
      '123456789012345',
      '1234567890123456',
      '12345678901234567890',
      '01',
      '0x1F',
      '0o17',
      '1_000',
      '+1',
      '-1',
      '1.5',
      '1e3',
      '1:20',
      '9080a',
      '.inf',
      '.NaN',
      '~',
    ];
    const texts = scalars.flatMap((v) => [`k: ${v}\n`, `- ${v}\n`, `k: [${v}]\n`]);
    expect(checkAgainstJsYaml(texts)).toEqual({ answered: texts.length, total: texts.length });
    // As kubectl resolves them (go-yaml v2): underscores are dropped from numbers, YAML 1.1 words are booleans.
    expect(parseFastYaml('a: 9080\nb: True\nc: nULL\nd: 1_000\ne: yes\nf: Off\n')).toEqual({ a: 9080, b: true, c: 'nULL', d: 1000, e: true, f: false });
  });
});
