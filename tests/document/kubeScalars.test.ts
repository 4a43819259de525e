// Plain scalars resolved as kubectl resolves them. kubectl and istioctl read YAML through
// sigs.k8s.io/yaml, that is go-yaml v2, a YAML 1.1 reader: the expected values below are what
// go-yaml v2.4 gives for `v: <text>` (checked against it when this table was written), and
// where a YAML 1.2 reader such as js-yaml's core schema differs, the test says so.
import { describe, expect, it } from 'vitest';
import jsyaml from 'js-yaml';
import { loadYaml, resolveKubeScalar } from '../../src/core/document/yamlSchema.ts';
import { NOT_HANDLED, parseFastYaml } from '../../src/core/document/fastYaml.ts';

const CASES: Array<[string, unknown]> = [
  // YAML 1.1 booleans (text for YAML 1.2).
  ['yes', true],
  ['Yes', true],
  ['YES', true],
  ['y', true],
  ['Y', true],
  ['on', true],
  ['On', true],
  ['ON', true],
  ['no', false],
  ['No', false],
  ['NO', false],
  ['n', false],
  ['N', false],
  ['off', false],
  ['Off', false],
  ['OFF', false],
  ['true', true],
  ['True', true],
  ['FALSE', false],
  // Mixed case outside the listed spellings stays text, in both.
  ['yEs', 'yEs'],
  ['oN', 'oN'],
  ['tRUE', 'tRUE'],
  ['nil', 'nil'],
  // Null.
  ['~', null],
  ['null', null],
  ['Null', null],
  ['NULL', null],
  // Integers in Go's syntax, underscores dropped first.
  ['0644', 420],
  ['0777', 511],
  ['-0777', -511],
  ['+0777', 511],
  ['00', 0],
  ['0', 0],
  ['-0', 0],
  ['0o17', 15],
  ['0O17', 15],
  ['0x1F', 31],
  ['0X1F', 31],
  ['-0x1F', -31],
  ['0b101', 5],
  ['0B101', 5],
  ['-0b11', -3],
  ['1_000', 1000],
  ['1__0', 10],
  ['1_', 1],
  ['0_9', 9],
  ['+1', 1],
  ['-1', -1],
  ['9080', 9080],
  // Not an octal (8, 9): read as a float, which prints as the same number.
  ['08', 8],
  ['09', 9],
  // Floats.
  ['1.5', 1.5],
  ['1.', 1],
  ['.5', 0.5],
  ['+.5', 0.5],
  ['-.5', -0.5],
  ['1e3', 1000],
  ['1E3', 1000],
  ['.5e1_0', 5e9],
  ['.5_0', 0.5],
  // Text in both.
  ['_1', '_1'],
  ['0x', '0x'],
  ['0b', '0b'],
  ['+', '+'],
  ['1:20', '1:20'],
  ['2001-01-01', '2001-01-01'],
  ['1e400', '1e400'],
  ['0x10000000000000000', '0x10000000000000000'],
  ['.e3', '.e3'],
  ['._5', '._5'],
  ['1.2.3', '1.2.3'],
  ['0x1p3', '0x1p3'],
  ['ns-7', 'ns-7'],
];

describe('plain scalars, as kubectl reads them (go-yaml v2)', () => {
  it('resolves each case as go-yaml v2 does, in the resolver, in js-yaml with the project schema and in the fast reader', () => {
    for (const [text, want] of CASES) {
      expect(resolveKubeScalar(text), text).toEqual(want);
      expect((loadYaml(`v: ${text}\n`) as { v: unknown }).v, text).toEqual(want);
      const fast = parseFastYaml(`v: ${text}\n`);
      if (fast !== NOT_HANDLED) expect((fast as { v: unknown }).v, text).toEqual(want);
    }
  });

  it('has the special floats and keeps the merge key', () => {
    expect(resolveKubeScalar('.inf')).toBe(Infinity);
    expect(resolveKubeScalar('-.Inf')).toBe(-Infinity);
    expect(resolveKubeScalar('+.INF')).toBe(Infinity);
    expect(Number.isNaN(resolveKubeScalar('.NaN'))).toBe(true);
    expect(loadYaml('base: &b {a: 1}\nv:\n  <<: *b\n  c: 2\n')).toEqual({ base: { a: 1 }, v: { a: 1, c: 2 } });
  });

  it('differs from a YAML 1.2 reader exactly where kubectl does', () => {
    // js-yaml's core schema keeps these as text, or reads 0777 as decimal.
    expect(jsyaml.load('v: yes', { schema: jsyaml.CORE_SCHEMA })).toEqual({ v: 'yes' });
    expect(jsyaml.load('v: 0777', { schema: jsyaml.CORE_SCHEMA })).toEqual({ v: 777 });
    expect(loadYaml('v: yes')).toEqual({ v: true });
    expect(loadYaml('v: 0777')).toEqual({ v: 511 });
    // Quoted, a value is always text.
    expect(loadYaml('v: "yes"\nw: \'0777\'\n')).toEqual({ v: 'yes', w: '0777' });
    // Keys are resolved too; a boolean key is named "true" or "false", as sigs.k8s.io/yaml names it.
    expect(loadYaml('on: 1\nno: 2\n')).toEqual({ true: 1, false: 2 });
  });
});
