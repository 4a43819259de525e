// Durations of Istio config (`1m30s`, `100ms`, `1.5s`), read as istiod reads them
// (time.ParseDuration, go/duration.ts) and written into xDS in proto3 JSON (`90s`, `0.100s`).
import { readGoDuration } from '../go/duration.ts';
import { formatProtoDuration } from '../go/protoDuration.ts';

/** The config duration in protojson's form; undefined for a value that is not a duration. */
export function durationJson(value: unknown): string | undefined {
  const ns = readGoDuration(value);
  return ns === undefined ? undefined : formatProtoDuration(ns);
}

/** Whole seconds of a config duration (for fields Envoy takes as integer seconds). */
export function durationSeconds(value: unknown): number | undefined {
  const ns = readGoDuration(value);
  return ns === undefined ? undefined : Number(ns / 1_000_000_000n);
}

export function isZeroDuration(value: unknown): boolean {
  return readGoDuration(value) === 0n;
}
