// google.protobuf.Duration in proto3 JSON: parsed from `<seconds>[.<fraction>]s` and printed
// the way protojson prints it (0, 3, 6 or 9 fractional digits: `600s`, `0.002s`, `1.500s`).
import { parseDuration } from '../../validation/webhook/go.ts';

/** The duration in nanoseconds, or undefined when the text is not a proto3 JSON Duration. */
export function parseProtoDuration(v: string): bigint | undefined {
  return parseDuration(v);
}

export function formatDuration(ns: bigint): string {
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
