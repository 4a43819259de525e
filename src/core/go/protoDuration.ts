// google.protobuf.Duration in proto3 JSON, as Go's protojson reads and writes it: parsed from
// `<seconds>[.<fraction>]s` (webhook validation, Envoy's authz filters) and printed with 0, 3,
// 6 or 9 fractional digits (`600s`, `0.002s`, `1.500s`). Nanoseconds are bigints.

/** One millisecond in nanoseconds. */
export const MS = 1_000_000n;

/** The duration in nanoseconds, or undefined when the value is not a proto3 JSON Duration. */
export function parseProtoDuration(v: unknown): bigint | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(-)?(\d+)(?:\.(\d{0,9}))?s$/.exec(v);
  if (!m) return undefined;
  const secs = BigInt(m[2] as string);
  if (secs > 315576000000n) return undefined;
  const frac = (m[3] ?? '').padEnd(9, '0');
  const ns = secs * 1_000_000_000n + BigInt(frac === '' ? '0' : frac);
  return m[1] ? -ns : ns;
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
