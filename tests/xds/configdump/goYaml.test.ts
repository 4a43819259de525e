// sigs.k8s.io/yaml JSONToYAML (go-yaml v2's encoder), which istioctl's -o yaml goes through.
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { jsonToYaml, yamlKeyLess } from '../../../src/core/xds/configdump/goYaml.ts';
import { goSortSlice } from '../../../src/core/xds/configdump/goSort.ts';

const y = (v: unknown) => jsonToYaml(JSON.stringify(v));

describe('jsonToYaml', () => {
  it('writes block style with sorted keys; sequences in a mapping are not indented; empty collections are flow', () => {
    expect(y({ b: 1, a: { c: [1, 2], d: [], e: {} }, s: [{ x: 1, y: [[1], []] }] })).toBe(
      'a:\n  c:\n  - 1\n  - 2\n  d: []\n  e: {}\nb: 1\ns:\n- x: 1\n  "y":\n  - - 1\n  - []\n',
    );
    expect(y({})).toBe('{}\n');
    expect(y([])).toBe('[]\n');
    expect(y(null)).toBe('null\n');
    expect(y('text')).toBe('text\n');
  });

  it('orders keys as go-yaml does (numbers inside keys compared by value)', () => {
    // The string part of go-yaml's own TestSortedOutput.
    const order = [
      '',
      '.1',
      '.2',
      '.a',
      '1',
      '2',
      'a!10',
      'a/0001',
      'a/002',
      'a/3',
      'a/10',
      'a/11',
      'a/0012',
      'a/100',
      'a~10',
      'ab/1',
      'b/1',
      'b/01',
      'b/2',
      'b/02',
      'b/3',
      'b/03',
      'b1',
      'b01',
      'b3',
      'c2.10',
      'c10.2',
      'd1',
      'd7',
      'd7abc',
      'd12',
      'd12a',
    ];
    const shuffled = [...order].reverse();
    expect(goSortSlice(shuffled, yamlKeyLess)).toEqual(order);
    expect(y({ b: 1, B: 2, a10: 3, a9: 4 })).toBe('B: 2\na9: 4\na10: 3\nb: 1\n');
  });

  it('quotes a string only when plain text would read back as something else', () => {
    const cases: [string, string][] = [
      ['plain words', 'plain words'],
      ['1605', '"1605"'],
      ['0x1F', '"0x1F"'],
      ['1_000', '"1_000"'],
      ['1e3', '"1e3"'],
      ['.5', '".5"'],
      // strconv.ParseFloat takes underscores between digits.
      ['.5_5', '".5_5"'],
      ['._5', '._5'],
      ['<<', '"<<"'],
      ['1e999', '1e999'],
      ['1.2.3', '1.2.3'],
      ['10.244.0.1:8080', '10.244.0.1:8080'],
      ['yes', '"yes"'],
      ['Off', '"Off"'],
      ['null', '"null"'],
      ['~', '"~"'],
      ['', '""'],
      ['2022-12-08T11:03:53.361Z', '"2022-12-08T11:03:53.361Z"'],
      ['2022-12-08', '"2022-12-08"'],
      ['2022-12-08T09:07:09Z/10', '2022-12-08T09:07:09Z/10'],
      ['2022-13-08', '2022-13-08'],
      ['1:20', '"1:20"'],
      ['@type', "'@type'"],
      ['{"a":1}', `'{"a":1}'`],
      ["it's: here", "'it''s: here'"],
      ['a #b', "'a #b'"],
      ['a#b', 'a#b'],
      ['- x', "'- x'"],
      ['-x', '-x'],
      [' lead', "' lead'"],
      ['tab\there', '"tab\\there"'],
      ['😀', '"\\U0001F600"'],
      ['é', 'é'],
      ['outbound|9080||reviews.default.svc.cluster.local', 'outbound|9080||reviews.default.svc.cluster.local'],
      ['*', "'*'"],
      ['*.example.com', "'*.example.com'"],
      ['envoy.filters.http.router', 'envoy.filters.http.router'],
    ];
    for (const [s, want] of cases) expect(y({ k: s }), s).toBe(`k: ${want}\n`);
  });

  it('writes text with newlines as a literal block', () => {
    expect(y({ k: 'line1\nline2' })).toBe('k: |-\n  line1\n  line2\n');
    expect(y({ k: 'line1\n' })).toBe('k: |\n  line1\n');
    expect(y({ k: ' indented\nx' })).toBe('k: |2-\n   indented\n  x\n');
    expect(y({ k: 'trailing \nspace' })).toBe('k: "trailing \\nspace"\n');
  });

  it('folds long plain and quoted text at 80 columns where there are spaces', () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const out = y({ key: words });
    const lines = out.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((l) => l.startsWith('  ') && !l.startsWith('   '))).toBe(true);
    expect(parseYaml(out)).toEqual({ key: words });
    const quoted = y({ key: `@${words}` });
    expect(quoted.split('\n').length).toBeGreaterThan(2);
    expect(parseYaml(quoted)).toEqual({ key: `@${words}` });
  });

  it('keeps numbers as go-yaml resolves them: int as written, float in shortest %g', () => {
    expect(jsonToYaml('{"i":15020,"n":-3,"f":0.5,"g":0.00001,"h":1e+21,"z":1.0,"big":18446744073709551616}')).toBe(
      'big: 1.8446744073709552e+19\nf: 0.5\ng: 1e-05\nh: 1e+21\ni: 15020\n"n": -3\nz: 1\n',
    );
  });

  it('writes keys over 128 bytes in the explicit form', () => {
    const k = 'k'.repeat(129);
    expect(y({ [k]: 1 })).toBe(`? ${k}\n: 1\n`);
  });

  it('reads back to the same JSON value', () => {
    const v = { a: ['x', 'y: z', '#', 'true', '0', '', ' ', 'a\nb', { b: null, c: false }], '@type': 't', 'k:': 1, '?': 2 };
    expect(parseYaml(y(v))).toEqual(v);
  });
});
