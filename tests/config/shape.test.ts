// Typed views read absent fields as their zero values. A view must equal one read field by
// field through the shapes, and a zero value that is a fresh object (an empty map) must stay
// fresh per view.
import { describe, expect, it } from 'vitest';
import { bool, double, enumOf, int, intOrString, lazy, list, map, message, nullable, optional, protoEnum, raw, string, strings, type Shape } from '../../src/core/config/shape.ts';

const Inner = message({ a: string, b: int });
const fields = {
  s: string,
  i: int,
  d: double,
  t: bool,
  o: optional(int),
  ios: intOrString,
  r: raw,
  l: list(string),
  lm: list(Inner),
  m: map(int),
  sm: strings,
  e: enumOf(['FIRST', 'SECOND'] as const),
  pe: protoEnum(['ZERO', 'ONE'] as const),
  msg: Inner,
  nil: nullable(Inner),
  self: lazy((): Shape<unknown> => Outer),
};
const Outer = message(fields);

/** The view as message() built it before it learned zero values: every field through its shape. */
function fieldByField(v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, sh] of Object.entries(fields)) out[k] = (sh as Shape<unknown>).read(Object.prototype.hasOwnProperty.call(v, k) ? v[k] : undefined);
  return out;
}

describe('message views', () => {
  const inputs: Array<Record<string, unknown>> = [
    {},
    { s: 'x', i: 3, l: ['a'], m: { k: 1 }, sm: { k: 'v' }, e: 'SECOND', pe: 1, msg: { a: 'q' }, nil: null },
    { self: { s: 'inner', self: {} }, lm: [{ b: 2 }, null, 'x'], ios: '80', o: 0, t: true, d: 0.5 },
  ];
  it.each(inputs.map((v, i) => [i, v] as const))('input %i reads as field by field', (_, v) => {
    expect(Outer.readOrEmpty(v)).toEqual(fieldByField(v));
    // Twice: a shape keeps no state between reads.
    expect(Outer.readOrEmpty(v)).toEqual(fieldByField(v));
  });

  it('gives each view its own empty map where the zero value is a fresh object', () => {
    const a = Outer.readOrEmpty({});
    const b = Outer.readOrEmpty({});
    expect(a.m).toEqual({});
    expect(a.m).not.toBe(b.m);
    // Frozen zero values (empty lists, empty string maps) are shared.
    expect(a.l).toBe(b.l);
    expect(Object.isFrozen(a.l)).toBe(true);
  });
});
