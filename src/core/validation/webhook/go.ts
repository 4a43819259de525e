// Go behaviours the webhook's messages depend on: fmt's %f, byte lengths, strconv parsing and
// protobuf JSON durations (%v and %g of a float are go/format.ts's formatFloatG).
import { goQuote as goQuoteLocal } from '../../go/fmt.ts';
import { formatFloatG } from '../../go/format.ts';

export { goQuote } from '../../go/fmt.ts';

/** Go's %f: six decimals. */
export function goFixed(x: number): string {
  if (!Number.isFinite(x)) return formatFloatG(x);
  return x.toFixed(6);
}

/** strconv.Atoi: the value, or undefined on a syntax or range error. */
export function atoi(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  if (!Number.isSafeInteger(n) && Math.abs(n) > 2 ** 63) return undefined;
  return n;
}

/** strconv.Atoi's error text for an input it rejects. */
export function atoiError(s: string): string {
  if (/^[+-]?\d+$/.test(s)) return `strconv.Atoi: parsing ${goQuoteLocal(s)}: value out of range`;
  return `strconv.Atoi: parsing ${goQuoteLocal(s)}: invalid syntax`;
}

/** A protobuf Duration in nanoseconds (bigint), from its JSON form (`1.5s`); undefined if malformed. */
export function parseDuration(v: unknown): bigint | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(-)?(\d+)(?:\.(\d{0,9}))?s$/.exec(v);
  if (!m) return undefined;
  const secs = BigInt(m[2] as string);
  if (secs > 315576000000n) return undefined;
  const frac = (m[3] ?? '').padEnd(9, '0');
  const ns = secs * 1_000_000_000n + BigInt(frac === '' ? '0' : frac);
  return m[1] ? -ns : ns;
}

export const MS = 1_000_000n;
export const SECOND = 1_000_000_000n;

/** Go's time.Duration.String(). */
export function goDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  const sign = neg ? '-' : '';
  if (u < SECOND) {
    // ns, µs or ms with fraction
    let unit: string;
    let div: bigint;
    if (u < 1000n) return `${sign}${u}ns`;
    if (u < MS) {
      unit = 'µs';
      div = 1000n;
    } else {
      unit = 'ms';
      div = MS;
    }
    return `${sign}${fraction(u, div)}${unit}`;
  }
  let out = '';
  const h = u / 3_600_000_000_000n;
  u -= h * 3_600_000_000_000n;
  const m = u / 60_000_000_000n;
  u -= m * 60_000_000_000n;
  if (h > 0n) out += `${h}h`;
  if (h > 0n || m > 0n) out += `${m}m`;
  out += `${fraction(u, SECOND)}s`;
  return sign + out;
}

function fraction(v: bigint, div: bigint): string {
  const whole = v / div;
  const rest = v % div;
  if (rest === 0n) return String(whole);
  const width = String(div).length - 1;
  return `${whole}.${String(rest).padStart(width, '0').replace(/0+$/, '')}`;
}
