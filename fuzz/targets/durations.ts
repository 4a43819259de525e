// Target `durations`: the two Duration readers. Go's time.ParseDuration (go/duration.ts) is
// checked against exact rational arithmetic: it answers only for text of Go's grammar, within
// int64, and within one nanosecond per term of the exact value (Go adds fractions in float64
// and truncates). protojson's reader (go/protoDuration.ts) answers only for its grammar, and
// reads back what its printer writes from the answer. Neither may throw, and Go's error text
// is given exactly when the parse fails.
import fc from 'fast-check';
import { goDurationError, parseGoDuration } from '../../src/core/go/duration.ts';
import { formatProtoDuration, parseProtoDuration } from '../../src/core/go/protoDuration.ts';
import { FuzzFailure, guarded } from '../failure.ts';
import type { CheckOutcome, CheckOptions, Target } from '../target.ts';

export interface DurationsInput {
  text: string;
}

const UNIT_NS = new Map<string, bigint>([
  ['ns', 1n],
  ['us', 1_000n],
  ['\u00b5s', 1_000n],
  ['\u03bcs', 1_000n],
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);
const TERM = /(\d*)(?:\.(\d*))?([^\d.]+)/y;
const GO_GRAMMAR = /^[-+]?(?:0|(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$/;
// Seconds (0, or no leading zero) with an optional fraction, or a bare fraction (`.5s`, `.s`).
const PROTO_GRAMMAR = /^[-+]?(?:(?:0|[1-9]\d*)(?:\.\d{0,9})?|\.\d{0,9})s$/;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** The exact value of grammatical Go duration text as a fraction, and its number of terms. */
function exactGoValue(text: string): { num: bigint; den: bigint; terms: number } {
  let s = text;
  let sign = 1n;
  if (s[0] === '-' || s[0] === '+') {
    if (s[0] === '-') sign = -1n;
    s = s.slice(1);
  }
  if (s === '0') return { num: 0n, den: 1n, terms: 0 };
  // Sum of whole·unit + digits·unit/10^k over terms, over a common denominator 10^maxK.
  const parts: Array<{ whole: bigint; digits: string; unit: bigint }> = [];
  TERM.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TERM.exec(s))) parts.push({ whole: BigInt(m[1] || '0'), digits: m[2] ?? '', unit: UNIT_NS.get(m[3]!)! });
  const maxK = Math.max(0, ...parts.map((p) => p.digits.length));
  const den = 10n ** BigInt(maxK);
  let num = 0n;
  for (const p of parts) num += p.whole * p.unit * den + BigInt(p.digits.padEnd(maxK, '0') || '0') * p.unit;
  return { num: sign * num, den, terms: parts.length };
}

function checkGo(text: string, limitMs: number): void {
  const ns = guarded(`parseGoDuration(${JSON.stringify(text)})`, limitMs, () => parseGoDuration(text));
  const error = guarded(`goDurationError(${JSON.stringify(text)})`, limitMs, () => goDurationError(text));
  if (
    (error === undefined) !== (ns !== undefined) ||
    (error !== undefined && !/^time: (?:invalid duration|missing unit in duration|unknown unit ".*" in duration) "/.test(error))
  ) {
    throw new FuzzFailure('divergence', `parseGoDuration(${JSON.stringify(text)}) = ${ns} but the error is ${JSON.stringify(error)}`);
  }
  if (!GO_GRAMMAR.test(text)) {
    if (ns !== undefined) throw new FuzzFailure('divergence', `parseGoDuration accepted ${JSON.stringify(text)}, which is not Go duration grammar`);
    return;
  }
  const exact = exactGoValue(text);
  // The truncated exact value, and how far float64 arithmetic may move it (a nanosecond a term).
  const slack = BigInt(exact.terms);
  const low = exact.num / exact.den - slack;
  const high = exact.num / exact.den + slack;
  if (ns === undefined) {
    // Refusing is right only out of range (within the slack of an edge, either answer can be).
    if (low >= INT64_MIN + slack && high <= INT64_MAX - slack) {
      throw new FuzzFailure('divergence', `parseGoDuration refused ${JSON.stringify(text)}, exactly ${exact.num}/${exact.den} ns`);
    }
    return;
  }
  if (ns < INT64_MIN || ns > INT64_MAX) throw new FuzzFailure('divergence', `parseGoDuration(${JSON.stringify(text)}) = ${ns}, outside int64`);
  if (ns < low || ns > high) throw new FuzzFailure('divergence', `parseGoDuration(${JSON.stringify(text)}) = ${ns}, exactly ${exact.num}/${exact.den} ns`);
}

function checkProto(text: string, limitMs: number): void {
  const ns = guarded(`parseProtoDuration(${JSON.stringify(text)})`, limitMs, () => parseProtoDuration(text));
  if (ns === undefined) return;
  if (!PROTO_GRAMMAR.test(text)) throw new FuzzFailure('divergence', `parseProtoDuration accepted ${JSON.stringify(text)}, which protojson refuses`);
  const printed = formatProtoDuration(ns);
  if (parseProtoDuration(printed) !== ns)
    throw new FuzzFailure('divergence', `${JSON.stringify(text)} printed as ${printed}, which does not read back as ${ns}`);
}

export function checkDurations(input: DurationsInput, options: CheckOptions): CheckOutcome {
  checkGo(input.text, options.timeLimitMs);
  checkProto(input.text, options.timeLimitMs);
  return 'ok';
}

// Text near the grammar: digits (runs long enough to overflow), signs, dots, units and their pieces.
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('0', '1', '5', '9', '.', 'ns', 'us', '\u00b5s', '\u03bcs', 'ms', 's', 'm', 'h', '-', '+') },
  { weight: 2, arbitrary: fc.stringMatching(/^\d{1,22}$/) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '9223372036854775807',
      '9223372036854775808',
      '2562047',
      '315576000000',
      '00',
      'n',
      'u',
      'µ',
      'S',
      ' ',
      'x',
      'constructor',
      '__proto__',
      'e3',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
);

// Well-formed terms (`12.5ms`), often long enough to reach int64's edge, with a sign.
const digits = fc.oneof(fc.stringMatching(/^\d{0,4}$/), fc.stringMatching(/^\d{0,21}$/));
const term = fc
  .tuple(digits, fc.option(digits, { nil: undefined }), fc.constantFrom(...UNIT_NS.keys()))
  .map(([w, f, u]) => `${w}${f === undefined ? '' : `.${f}`}${u}`);
const wellFormed = fc.tuple(fc.constantFrom('', '-', '+'), fc.array(term, { minLength: 1, maxLength: 4 })).map(([sign, ts]) => sign + ts.join(''));
// protojson's form, with its edges (no leading zeros, at most 9 fraction digits, the range).
const protoForm = fc
  .tuple(
    fc.constantFrom('', '-', '+'),
    fc.oneof(fc.constantFrom('', '0', '00', '315576000000', '315576000001'), fc.stringMatching(/^[1-9]\d{0,12}$/)),
    fc.option(fc.stringMatching(/^\d{0,10}$/), { nil: undefined }),
  )
  .map(([sign, whole, frac]) => `${sign}${whole}${frac === undefined ? '' : `.${frac}`}s`);

export const durationsTarget: Target<DurationsInput> = {
  name: 'durations',
  description: "Go's time.ParseDuration against exact arithmetic; protojson Duration grammar and round trip",
  arbitrary: () =>
    fc
      .oneof(
        fc.array(piece, { maxLength: 8 }).map((ps) => ps.join('')),
        wellFormed,
        protoForm,
      )
      .map((text) => ({ text })),
  check: checkDurations,
  async: false,
  smokeRuns: 5000,
};
