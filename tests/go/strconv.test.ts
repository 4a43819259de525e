// Go's base-10 strconv parsers and their *NumError texts (go/strconv.ts).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { atoi, atoiError, numError, parseBool, parseInt10, parseUint10 } from '../../src/core/go/strconv.ts';

describe('strconv (go/strconv.ts)', () => {
  it('ParseInt and Atoi hold int64 exactly, edges included', () => {
    expect(parseInt10('9223372036854775807', 64)).toBe(9223372036854775807n);
    expect(parseInt10('-9223372036854775808', 64)).toBe(-9223372036854775808n);
    // 2^63 rounds to a float that looks in range; Go refuses it.
    expect(parseInt10('9223372036854775808', 64)).toBe('value out of range');
    expect(atoi('9223372036854775808')).toBeUndefined();
    expect(atoiError('9223372036854775808')).toBe('strconv.Atoi: parsing "9223372036854775808": value out of range');
    expect(atoi('+42')).toBe(42);
    expect(atoi('-0')).toBe(0);
    for (const bad of ['', '+', '-', ' 1', '1 ', '1_000', '0x10', '1.0', '\u0661']) {
      expect(atoi(bad), JSON.stringify(bad)).toBeUndefined();
      expect(atoiError(bad)).toBe(`strconv.Atoi: parsing ${JSON.stringify(bad).replace('\\u0661', '\u0661')}: invalid syntax`);
    }
    expect(parseInt10('2147483647', 32)).toBe(2147483647n);
    expect(parseInt10('-2147483649', 32)).toBe('value out of range');
  });

  it('ParseUint takes no sign, and ranges by bit size', () => {
    expect(parseUint10('4294967295', 32)).toBe(4294967295n);
    expect(parseUint10('4294967296', 32)).toBe('value out of range');
    expect(parseUint10('+1', 32)).toBe('invalid syntax');
    expect(parseUint10('65536', 16)).toBe('value out of range');
    expect(numError('ParseUint', 'x"y', 'invalid syntax')).toBe('strconv.ParseUint: parsing "x\\"y": invalid syntax');
  });

  it('ParseBool takes exactly its twelve spellings', () => {
    for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) expect(parseBool(t)).toBe(true);
    for (const f of ['0', 'f', 'F', 'FALSE', 'false', 'False']) expect(parseBool(f)).toBe(false);
    for (const no of ['', 'yes', 'on', 'tRUE', 'true ', '01']) expect(parseBool(no)).toBeUndefined();
  });

  it('agrees with exact integer arithmetic on any signed digit text', () => {
    fc.assert(
      fc.property(fc.constantFrom('', '+', '-'), fc.stringMatching(/^\d{1,22}$/), fc.constantFrom(8, 16, 32, 64), (sign, digits, bits) => {
        const v = BigInt(sign + digits);
        const inInt = v >= -(1n << BigInt(bits - 1)) && v < 1n << BigInt(bits - 1);
        expect(parseInt10(sign + digits, bits)).toBe(inInt ? v : 'value out of range');
        const inUint = sign === '' && v < 1n << BigInt(bits);
        expect(parseUint10(sign + digits, bits)).toBe(sign !== '' ? 'invalid syntax' : inUint ? v : 'value out of range');
      }),
      { seed: 20261206, numRuns: 5000 },
    );
  });
});
