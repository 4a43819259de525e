// The shape of a fuzz target: an input generator (seeded by real manifests) and a check
// that throws a FuzzFailure when the input breaks the target's property.
import type fc from 'fast-check';
import type { Seeds } from './gen/seeds.ts';

export interface CheckOptions {
  /** Per-input time limit (ms): slower counts as a hang. */
  timeLimitMs: number;
  /** Crash signatures to count rather than fail on (known analyzer crashes, pipeline target). */
  knownCrashes?: ReadonlySet<string>;
  /** The run's first seed (a target that writes its own counts names the run by it). */
  seed?: number;
}

/** What a check saw, for the run's counters. */
export type CheckOutcome = 'ok' | 'skipped' | 'known-crash';

export interface Target<I> {
  name: string;
  description: string;
  arbitrary(seeds: Seeds): fc.Arbitrary<I>;
  check(input: I, options: CheckOptions): CheckOutcome | Promise<CheckOutcome>;
  /** True when `check` returns a promise. */
  async: boolean;
  /** Inputs per target in the CI smoke run. */
  smokeRuns: number;
  /**
   * Stack frames V8 records per Error while this target runs (its worker only). Reports read
   * at most 3 (`describeError`); fewer frames make the errors parsers build and catch inside
   * a check cheaper. Unset: V8's default, for targets whose reports look deeper (pipeline).
   */
  stackFrames?: number;
  /**
   * Runs only when named with --target (the oracle's targets: a development tool CI never builds),
   * never in the default set or the CI smoke run.
   */
  onlyWhenNamed?: boolean;
  /**
   * Why the target cannot run on this machine (a tool it compares against is missing), or
   * undefined. The runner then reports it as SKIPPED (not run), never as passed.
   */
  unavailable?: () => string | undefined;
  /**
   * Counts the target keeps itself, read once when its run ends (in its worker): lines for the
   * run's report (how many inputs an oracle compared, and why the others were skipped), and a
   * failure that fails the run (an oracle that compared nothing).
   */
  report?(): TargetReport;
}

export interface TargetReport {
  lines: string[];
  failure?: string;
}
