// google.protobuf.Duration in proto3 JSON, as Go's protojson reads and writes it: read as
// `[-+]<seconds>[.<up to 9 digits>]s` (Envoy's JSON: the xDS checker and config dumps), printed
// with 0, 3, 6 or 9 fractional digits (`600s`, `0.002s`, `1.500s`). Nanoseconds are bigints.
// Istio's own config is not read this way: its Duration fields go through time.ParseDuration
// (see duration.ts).

/** The largest number of seconds a Duration may hold (10,000 years). */
export const MAX_PROTO_DURATION_SECONDS = 315_576_000_000n;

// The seconds are `0` or have no leading zero, and may be left out before a `.` (`.5s`, `.s`).
const PROTO_DURATION = /^([-+]?)(0|[1-9]\d*)?(\.(\d{0,9}))?s$/;

/** Seconds and nanoseconds (both carrying the sign) of text in protojson's form, range unchecked. */
export function splitProtoDuration(text: string): { seconds: bigint; nanos: bigint } | undefined {
  const m = PROTO_DURATION.exec(text);
  if (!m || (m[2] === undefined && m[3] === undefined)) return undefined;
  const seconds = BigInt(m[2] ?? '0');
  const nanos = BigInt((m[4] ?? '').padEnd(9, '0'));
  return m[1] === '-' ? { seconds: -seconds, nanos: -nanos } : { seconds, nanos };
}

/** The duration in nanoseconds, or undefined when protojson would refuse the value. */
export function parseProtoDuration(v: unknown): bigint | undefined {
  if (typeof v !== 'string') return undefined;
  const parts = splitProtoDuration(v);
  if (!parts || parts.seconds > MAX_PROTO_DURATION_SECONDS || parts.seconds < -MAX_PROTO_DURATION_SECONDS) return undefined;
  return parts.seconds * 1_000_000_000n + parts.nanos;
}

/** The duration as protojson prints it. */
export function formatProtoDuration(ns: bigint): string {
  const neg = ns < 0n;
  const abs = neg ? -ns : ns;
  const secs = abs / 1_000_000_000n;
  const nanos = abs % 1_000_000_000n;
  let frac = '';
  if (nanos !== 0n) {
    frac = `.${nanos.toString().padStart(9, '0')}`;
    if (frac.endsWith('000')) frac = frac.slice(0, -3);
    if (frac.endsWith('000')) frac = frac.slice(0, -3);
  }
  return `${neg ? '-' : ''}${secs}${frac}s`;
}
