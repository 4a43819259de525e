// What a fuzz target reports when an input breaks its property.

export type FailureKind = 'divergence' | 'crash' | 'hang';

export class FuzzFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    detail: string,
  ) {
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
  if (ms > timeLimitMs) {
    // A busy machine (or a garbage collection) can stall one run: a hang is an input that is
    // slow every time, so it is timed twice more and judged by its fastest run.
    let best = ms;
    for (let i = 0; i < 2 && best > timeLimitMs; i++) {
      const t1 = performance.now();
      try {
        fn();
      } catch {
        // It threw the first time round if it throws at all.
      }
      best = Math.min(best, performance.now() - t1);
    }
    if (best > timeLimitMs) throw new FuzzFailure('hang', `${what} took ${best.toFixed(0)} ms at best of three runs (limit ${timeLimitMs} ms)`);
  }
  return out;
}

/**
 * Runs a whole check, again up to twice when it reports a hang: a busy machine (other jobs,
 * a garbage collection) can stall one run, and a hang is an input that is slow every time.
 * Targets time their own calls with `guarded`; this covers the totals some targets check.
 */
export function retryingHangs<T>(check: () => T): T {
  for (let attempt = 1; ; attempt++) {
    try {
      return check();
    } catch (e) {
      if (!(e instanceof FuzzFailure && e.kind === 'hang') || attempt === 3) throw e;
    }
  }
}

export async function retryingHangsAsync<T>(check: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await check();
    } catch (e) {
      if (!(e instanceof FuzzFailure && e.kind === 'hang') || attempt === 3) throw e;
    }
  }
}

export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const frames = (e.stack ?? '')
      .split('\n')
      .slice(1, 4)
      .map((l) => l.trim())
      .join(' | ');
    return `${e.name}: ${e.message}${frames ? ` (${frames})` : ''}`;
  }
  return String(e);
}
