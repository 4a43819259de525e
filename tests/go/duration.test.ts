// Go's time.ParseDuration (how Istio reads every Duration of its config) and protojson's
// Duration (how Envoy's JSON writes one): known answers of Go, and properties against exact
// integer arithmetic.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { goDurationError, parseGoDuration, readGoDuration } from '../../src/core/go/duration.ts';
import { formatProtoDuration, parseProtoDuration, splitProtoDuration } from '../../src/core/go/protoDuration.ts';

const S = 1_000_000_000n;
const MIN = 60n * S;
const H = 60n * MIN;
const INT64_MAX = (1n << 63n) - 1n;

describe('time.ParseDuration (go/duration.ts)', () => {
  it('reads what Go reads, to the nanosecond', () => {
    const cases: Array<[string, bigint]> = [
      ['0', 0n],
      ['-0', 0n],
      ['+0', 0n],
      ['7s', 7n * S],
      ['-7s', -7n * S],
      ['+7s', 7n * S],
      ['2.5s', 2_500_000_000n],
      ['2.s', 2n * S],
      ['.25s', 250_000_000n],
      ['1.0040s', 1_004_000_000n],
      ['300ms', 300_000_000n],
      ['12ns', 12n],
      ['15us', 15_000n],
      ['15\u00b5s', 15_000n],
      ['15\u03bcs', 15_000n],
      ['4m', 4n * MIN],
      ['3h', 3n * H],
      ['2h45m', 2n * H + 45n * MIN],
      ['-1m30.5s', -(MIN + 30_500_000_000n)],
      ['7.5s2m', 2n * MIN + 7_500_000_000n],
      ['1h2m3s4ms5us6ns', H + 2n * MIN + 3n * S + 4_000_000n + 5_000n + 6n],
      // A third of an hour, to more digits than float64 holds: 20 minutes exactly.
      ['0.3333333333333333333h', 20n * MIN],
      // Fraction digits past int64 are read and ignored; the float64 product is truncated.
      ['0.830103483285477580700h', 2_988_372_539_827n],
      ['9007199254740993ns', 9_007_199_254_740_993n],
      ['9223372036854775807ns', INT64_MAX],
      ['9223372036854775.807us', INT64_MAX],
      ['9223372036s854ms775us807ns', INT64_MAX],
      ['-9223372036854775808ns', -(1n << 63n)],
      ['-2562047h47m16.854775808s', -(1n << 63n)],
    ];
    for (const [text, ns] of cases) expect(parseGoDuration(text), text).toBe(ns);
  });

  it('refuses what Go refuses', () => {
    const refused = [
      '',
      '-',
      '+',
      '5',
      '-5',
      's',
      '.',
      '.s',
      '-.s',
      '5 s',
      ' 5s',
      '5s ',
      '1d',
      '1sec',
      '5S',
      '1.2.3s',
      '1m5',
      '9223372036854775808ns',
      '9223372036854775.808us',
      '-9223372036854775809ns',
      '99999999999999999999h',
      '2562048h',
      'constructor',
      '1constructor',
      '1__proto__',
      '1toString',
      '\u0085\u0085',
    ];
    for (const text of refused) expect(parseGoDuration(text), JSON.stringify(text)).toBeUndefined();
  });

  it("gives Go's error texts, quoted the time package's way", () => {
    expect(goDurationError('1h')).toBeUndefined();
    expect(goDurationError('')).toBe('time: invalid duration ""');
    expect(goDurationError('-')).toBe('time: invalid duration "-"');
    expect(goDurationError('1.5')).toBe('time: missing unit in duration "1.5"');
    expect(goDurationError('1m5')).toBe('time: missing unit in duration "1m5"');
    expect(goDurationError('3 s')).toBe('time: unknown unit " s" in duration "3 s"');
    expect(goDurationError('2\u00b5sx')).toBe('time: unknown unit "\\xc2\\xb5sx" in duration "2\\xc2\\xb5sx"');
    expect(goDurationError('1"q\\')).toBe('time: unknown unit "\\"q\\\\" in duration "1\\"q\\\\"');
    expect(goDurationError('9223372036854775808ns')).toBe('time: invalid duration "9223372036854775808ns"');
    // A unit named like an Object.prototype member is just an unknown unit (Go 1.26 says so);
    // jsonpb's former copy looked units up in a plain object and threw here.
    expect(goDurationError('1constructor')).toBe('time: unknown unit "constructor" in duration "1constructor"');
    expect(goDurationError('1__proto__')).toBe('time: unknown unit "__proto__" in duration "1__proto__"');
    expect(goDurationError('1.5toString')).toBe('time: unknown unit "toString" in duration "1.5toString"');
  });

  it('a Duration field must be a string: numbers and lists are not durations', () => {
    expect(readGoDuration('1m')).toBe(MIN);
    expect(readGoDuration(60)).toBeUndefined();
    expect(readGoDuration(['1s'])).toBeUndefined();
    expect(readGoDuration(undefined)).toBeUndefined();
  });

  // Fractions of up to 9 digits of seconds, and whole smaller units, are exact in float64:
  // the result must equal integer arithmetic.
  const UNITS: Array<[string, bigint]> = [
    ['h', H],
    ['m', MIN],
    ['s', S],
    ['ms', 1_000_000n],
    ['us', 1_000n],
    ['ns', 1n],
  ];
  it('a sum of whole units is their exact total', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 1_000_000n }), fc.constantFrom(...UNITS)), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('', '-', '+'),
        (parts, sign) => {
          const text = sign + parts.map(([n, [u]]) => `${n}${u}`).join('');
          const total = parts.reduce((sum, [n, [, unit]]) => sum + n * unit, 0n);
          // int64: down to -2^63, up to 2^63 - 1.
          const fits = sign === '-' ? total <= 1n << 63n : total <= INT64_MAX;
          expect(parseGoDuration(text)).toBe(fits ? (sign === '-' ? -total : total) : undefined);
        },
      ),
      { seed: 20261202, numRuns: 3000 },
    );
  });

  it('seconds with a fraction of up to 9 digits are exact', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 9_000_000_000n }), fc.stringMatching(/^\d{0,9}$/), (whole, digits) => {
        const frac = digits === '' ? 0n : BigInt(digits.padEnd(9, '0'));
        expect(parseGoDuration(`${whole}.${digits}s`)).toBe(whole * S + frac);
      }),
      { seed: 20261203, numRuns: 3000 },
    );
  });

  it('never throws, and answers only for text of Go duration grammar within int64', () => {
    const grammar = /^[-+]?(?:0|(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$/;
    const alphabet = fc.constantFrom('0', '1', '9', '.', '-', '+', 'n', 's', 'u', 'm', 'h', '\u00b5', '\u03bc', 'x', ' ');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 14 }).map((cs) => cs.join('')),
        (text) => {
          const ns = parseGoDuration(text);
          if (ns === undefined) return;
          expect(text).toMatch(grammar);
          expect(ns <= INT64_MAX && ns >= -(1n << 63n)).toBe(true);
        },
      ),
      { seed: 20261204, numRuns: 20000 },
    );
  });
});

describe('protojson Duration (go/protoDuration.ts)', () => {
  it('reads the forms protojson reads', () => {
    expect(parseProtoDuration('1.5s')).toBe(1_500_000_000n);
    expect(parseProtoDuration('+1s')).toBe(S);
    expect(parseProtoDuration('.5s')).toBe(500_000_000n);
    expect(parseProtoDuration('1.s')).toBe(S);
    expect(parseProtoDuration('.s')).toBe(0n);
    expect(parseProtoDuration('-0.5s')).toBe(-500_000_000n);
    expect(parseProtoDuration('315576000000s')).toBe(315_576_000_000n * S);
    expect(parseProtoDuration('-315576000000.999999999s')).toBe(-(315_576_000_000n * S + 999_999_999n));
    for (const refused of ['01s', '1.0123456789s', 's', '-s', '+s', '1m', '2ms', '1', ' 1s', '315576000001s', '1e3s']) {
      expect(parseProtoDuration(refused), refused).toBeUndefined();
    }
    expect(parseProtoDuration(1)).toBeUndefined();
    // The range is protojson's check, not the format's.
    expect(splitProtoDuration('315576000001s')).toEqual({ seconds: 315_576_000_001n, nanos: 0n });
  });

  it('prints with 0, 3, 6 or 9 digits and reads back what it prints, in both readers', () => {
    expect(formatProtoDuration(-500_000_000n)).toBe('-0.500s');
    expect(formatProtoDuration(90n * S)).toBe('90s');
    expect(formatProtoDuration(1_000n)).toBe('0.000001s');
    fc.assert(
      fc.property(fc.bigInt({ min: -INT64_MAX, max: INT64_MAX }), (ns) => {
        const text = formatProtoDuration(ns);
        expect(text).toMatch(/^-?\d+(?:\.(?:\d{3}|\d{6}|\d{9}))?s$/);
        expect(parseProtoDuration(text)).toBe(ns);
        expect(parseGoDuration(text)).toBe(ns);
      }),
      { seed: 20261205, numRuns: 5000 },
    );
  });
});
