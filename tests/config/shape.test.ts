// Typed views read absent fields as their zero values. A view must equal one read field by
// field through the shapes, and a zero value that is a fresh object (an empty map) must stay
// fresh per view.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  bool,
  double,
  enumOf,
  int,
  intOrString,
  lazy,
  list,
  map,
  message,
  nullable,
  optional,
  protoEnum,
  raw,
  string,
  strings,
  type Shape,
} from '../../src/core/config/shape.ts';

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
  for (const [k, sh] of Object.entries(fields)) out[k] = (sh as Shape<unknown>).read(Object.hasOwn(v, k) ? v[k] : undefined);
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

describe('message views: proto aliases, odd keys and random objects', () => {
  const Proto = message({ fooBar: int, name: string, sub: Inner }, { proto: true });

  it.each([
    [{ foo_bar: 1 }, 1],
    [{ fooBar: 2, foo_bar: 1 }, 2],
    [{ foo_bar: 1, fooBar: 2 }, 2],
    // null is written (Go's nil), so the JSON name still wins over the alias.
    [{ fooBar: null, foo_bar: 1 }, 0],
    [{ fooBar: undefined, foo_bar: 3 }, 3],
    [{ foo_bar: 'x' }, 0],
  ] as const)('reads the proto alias only when the JSON name is absent: %j', (input, expected) => {
    expect(Proto.readOrEmpty(input).fooBar).toBe(expected);
  });

  it('ignores keys the message does not name, inherited keys included', () => {
    const parent = { name: 'inherited' };
    const child = Object.assign(Object.create(parent) as Record<string, unknown>, { other: 1, constructor: 'x', __proto__x: 2 });
    expect(Proto.readOrEmpty(child)).toEqual({ fooBar: 0, name: '', sub: undefined });
    const poisoned = JSON.parse('{"__proto__": {"name": "p"}, "toString": 5}') as Record<string, unknown>;
    expect(Proto.readOrEmpty(poisoned)).toEqual({ fooBar: 0, name: '', sub: undefined });
  });

  it("reads a key that is both a JSON name and another field's alias both ways", () => {
    // `a_b` is a field of its own and the proto alias of `aB`.
    const Clash = message({ aB: string, a_b: string }, { proto: true });
    expect(Clash.readOrEmpty({ a_b: 'x' })).toEqual({ aB: 'x', a_b: 'x' });
    expect(Clash.readOrEmpty({ aB: 'y', a_b: 'x' })).toEqual({ aB: 'y', a_b: 'x' });
  });

  it('agrees with field-by-field reading on random objects', () => {
    const keys = [...Object.keys(fields), 'extra', 'a', 'b'];
    const leaf = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double(),
      fc.string({ maxLength: 3 }),
      fc.constantFrom('FIRST', 'SECOND', 'ONE', '80'),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 3 }), tie('object')),
      object: fc.dictionary(fc.constantFrom(...keys), tie('value'), { maxKeys: 6 }),
    }));
    const objects = fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 8 });
    fc.assert(
      fc.property(objects, (v) => {
        expect(Outer.readOrEmpty(v)).toEqual(fieldByField(v));
      }),
      { numRuns: 2000, seed: 20261203 },
    );
  });
});
