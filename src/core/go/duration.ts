// Go's time.ParseDuration, exactly: `300ms`, `1.5h`, `2h45m`, `-1m30s`; units ns, us (µs, μs),
// ms, s, m, h. Istio reads every Duration field of its config with it (the legacy jsonpb
// package it unmarshals CRDs and mesh config with hands Duration strings to
// time.ParseDuration), the Gateway API conversion parses timeouts with it, and so does CEL's
// `duration()`. Nanoseconds are bigints: Go's int64 range and rounding are part of the rule.

import { timeQuote } from './time.ts';

// A Map, not an object: a unit such as `constructor` must not find a prototype's member.
const UNIT_NS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['\u00b5s', 1_000n], // MICRO SIGN
  ['\u03bcs', 1_000n], // GREEK SMALL LETTER MU
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);

const TWO_63 = 1n << 63n;

/** time.Millisecond, in nanoseconds. */
export const MS = 1_000_000n;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Why time.ParseDuration refused a text: its three errors. */
type Refusal = 'invalid' | 'missing unit' | { unknownUnit: string };

function scanGoDuration(text: string): bigint | Refusal {
  let s = text;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return 'invalid';
  let total = 0n;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (!(c === 46 || isDigit(c))) return 'invalid';
    // The integer part: an error once it passes 2^63.
    const intStart = i;
    let whole = 0n;
    while (i < s.length && isDigit(s.charCodeAt(i))) {
      whole = whole * 10n + BigInt(s.charCodeAt(i) - 48);
      if (whole > TWO_63) return 'invalid';
      i++;
    }
    const pre = i > intStart;
    // The fraction: digits past what fits in int64 are read and ignored, as Go does.
    let frac = 0n;
    let scale = 1;
    let post = false;
    if (s[i] === '.') {
      i++;
      const fracStart = i;
      let overflow = false;
      while (i < s.length && isDigit(s.charCodeAt(i))) {
        if (!overflow) {
          const next = frac * 10n + BigInt(s.charCodeAt(i) - 48);
          if (frac > (TWO_63 - 1n) / 10n || next > TWO_63) overflow = true;
          else {
            frac = next;
            scale *= 10;
          }
        }
        i++;
      }
      post = i > fracStart;
    }
    if (!pre && !post) return 'invalid';
    const unitStart = i;
    while (i < s.length && s[i] !== '.' && !isDigit(s.charCodeAt(i))) i++;
    if (i === unitStart) return 'missing unit';
    const unit = UNIT_NS.get(s.slice(unitStart, i));
    if (unit === undefined) return { unknownUnit: s.slice(unitStart, i) };
    if (whole > TWO_63 / unit) return 'invalid';
    let v = whole * unit;
    if (frac > 0n) {
      // Go adds the fraction in float64 (exact to the nanosecond for fractions of an hour) and truncates.
      v += BigInt(Math.trunc(Number(frac) * (Number(unit) / scale)));
      if (v > TWO_63) return 'invalid';
    }
    total += v;
    if (total > TWO_63) return 'invalid';
  }
  if (neg) return -total;
  return total > TWO_63 - 1n ? 'invalid' : total;
}

/** The duration in nanoseconds, or undefined where time.ParseDuration returns an error. */
export function parseGoDuration(text: string): bigint | undefined {
  const r = scanGoDuration(text);
  return typeof r === 'bigint' ? r : undefined;
}

/** time.ParseDuration's error for the text (`time: missing unit in duration "5"`), undefined when it parses. */
export function goDurationError(text: string): string | undefined {
  const r = scanGoDuration(text);
  if (typeof r === 'bigint') return undefined;
  if (r === 'invalid') return `time: invalid duration ${timeQuote(text)}`;
  if (r === 'missing unit') return `time: missing unit in duration ${timeQuote(text)}`;
  return `time: unknown unit ${timeQuote(r.unknownUnit)} in duration ${timeQuote(text)}`;
}

/**
 * A Duration field as Istio's config reader takes it: a string time.ParseDuration accepts.
 * Anything else (a number, a list) fails to unmarshal, so it is undefined.
 */
export function readGoDuration(v: unknown): bigint | undefined {
  return typeof v === 'string' ? parseGoDuration(v) : undefined;
}
