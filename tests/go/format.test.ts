// encoding/json's text for strings and float64s (go/format.ts), where two copies once
// disagreed. Expected texts are Go 1.26's json.Marshal.
import { describe, expect, it } from 'vitest';
import { goJsonFloat, goJsonString } from '../../src/core/go/format.ts';

describe('json.Marshal of a string (go/format.ts goJsonString)', () => {
  it('writes \\b and \\f short, as encoding/json has since Go 1.22', () => {
    // json.Marshal("\b\f\x0b") == `"\b\f\u000b"`
    expect(goJsonString('\b\f\u000b')).toBe('"\\b\\f\\u000b"');
    expect(goJsonString('<&>\u2028\ud800')).toBe('"\\u003c\\u0026\\u003e\\u2028\\ufffd"');
  });
});

describe('json.Marshal of a float64 (go/format.ts goJsonFloat)', () => {
  it("is JS's shortest text for finite numbers, -0 included", () => {
    const cases: Array<[number, string]> = [
      [0, '0'],
      [-0, '-0'],
      [1.5, '1.5'],
      [1e20, '100000000000000000000'],
      [1e21, '1e+21'],
      [1e-6, '0.000001'],
      [1e-7, '1e-7'],
      [-1.25e-10, '-1.25e-10'],
      [5e-324, '5e-324'],
      [123456789e15, '1.23456789e+23'],
    ];
    for (const [n, want] of cases) expect(goJsonFloat(n), String(n)).toBe(want);
  });
});
