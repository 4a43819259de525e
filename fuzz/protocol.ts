// Messages between the fuzz runner and its worker threads, and the shared heartbeat layout.
import type { FailureKind } from './failure.ts';
import type { TargetReport } from './target.ts';

export interface WorkerJob {
  target: string;
  runs: number;
  seed: number;
  timeLimitMs: number;
  knownCrashes: string[];
  heartbeat: SharedArrayBuffer;
}

export interface Counterexample {
  input: unknown;
  kind: FailureKind;
  detail: string;
  seed: number;
  signature?: string;
  analyzerCrash?: boolean;
}

export interface WorkerResult {
  target: string;
  inputs: number;
  skipped: number;
  knownCrashInputs: number;
  restarts: number;
  counterexamples: Counterexample[];
  ms: number;
  /** The target's own counts (Target.report). */
  report?: TargetReport;
}

/** Layout of the heartbeat buffer: [0] inputs started, [8] start time (epoch ms), [16] input length, [24…] input JSON. */
export const HEARTBEAT_BYTES = 24 + 4 * 1024 * 1024;
