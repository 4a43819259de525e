// What a fuzz target reports when an input breaks its property.

export type FailureKind = 'divergence' | 'crash' | 'hang';

export class FuzzFailure extends Error {
  constructor(readonly kind: FailureKind, detail: string) {
    super(`${kind}: ${detail}`);
  }
}

/** Per-input time limit: an input that takes longer counts as a hang. */
export const HANG_MS = 1000;

/** Runs `fn`, turning an escaped exception into a crash and a slow run into a hang. */
export function guarded<T>(what: string, timeLimitMs: number, fn: () => T): T {
  const t0 = performance.now();
  let out: T;
  try {
    out = fn();
  } catch (e) {
    if (e instanceof FuzzFailure) throw e;
    throw new FuzzFailure('crash', `${what} threw ${describeError(e)}`);
  }
  const ms = performance.now() - t0;
  if (ms > timeLimitMs) throw new FuzzFailure('hang', `${what} took ${ms.toFixed(0)} ms (limit ${timeLimitMs} ms)`);
  return out;
}

export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const frames = (e.stack ?? '').split('\n').slice(1, 4).map((l) => l.trim()).join(' | ');
    return `${e.name}: ${e.message}${frames ? ` (${frames})` : ''}`;
  }
  return String(e);
}
