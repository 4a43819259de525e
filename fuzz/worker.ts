// Runs one fuzz target in a worker thread, so that the runner can stop an input that never
// returns. Before each input it writes the input and the time it started into shared
// memory (the runner's watchdog reads them); at the end it posts the counts and the
// minimised counterexamples.
import { parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { targetByName } from './targets/index.ts';
import { loadSeeds } from './gen/seeds.ts';
import { FuzzFailure, describeError, retryingHangs, retryingHangsAsync, type FailureKind } from './failure.ts';
import { isAnalyzerCrash } from './targets/pipeline.ts';
import type { CheckOutcome } from './target.ts';
import type { Counterexample, WorkerJob, WorkerResult } from './protocol.ts';

const job = workerData as WorkerJob;
const target = targetByName(job.target);
if (!target || !parentPort) throw new Error(`unknown fuzz target ${job.target}`);
const port = parentPort;
if (target.stackFrames !== undefined) Error.stackTraceLimit = target.stackFrames;
const seeds = loadSeeds();
const count = new Int32Array(job.heartbeat, 0, 1);
const started = new Float64Array(job.heartbeat, 8, 1);
const length = new Int32Array(job.heartbeat, 16, 1);
const bytes = new Uint8Array(job.heartbeat, 24);
const encoder = new TextEncoder();

const known = new Set(job.knownCrashes);
let inputs = 0;
let skipped = 0;
let knownCrashInputs = 0;
let shrinking = false;
let lastProgress = Date.now();
const t0 = Date.now();

function beat(input: unknown): void {
  const { written } = encoder.encodeInto(JSON.stringify(input) ?? 'null', bytes);
  Atomics.store(length, 0, written);
  started[0] = Date.now();
  Atomics.add(count, 0, 1);
}

function tally(outcome: CheckOutcome): void {
  if (shrinking) return;
  inputs++;
  if (outcome === 'skipped') skipped++;
  else if (outcome === 'known-crash') knownCrashInputs++;
  if (Date.now() - lastProgress > 30_000) {
    lastProgress = Date.now();
    port.postMessage({ type: 'progress', target: job.target, inputs, ms: Date.now() - t0 });
  }
}

function failed(e: unknown): never {
  shrinking = true;
  throw e;
}

const options = { timeLimitMs: job.timeLimitMs, knownCrashes: known, seed: job.seed };
const checked = target;
const arbitrary = target.arbitrary(seeds);
const isAsync = target.async;

// A slow input is judged by its fastest of three runs (see failure.ts).
const checkSync = (input: never): CheckOutcome => retryingHangs(() => checked.check(input, options) as CheckOutcome);
const checkAsync = (input: never): Promise<CheckOutcome> => retryingHangsAsync(async () => checked.check(input, options));

const counterexamples: Counterexample[] = [];
let remaining = job.runs;
let seed = job.seed;
let restarts = 0;
while (remaining > 0) {
  shrinking = false;
  const before = inputs;
  const params = { numRuns: remaining, seed, verbose: 0 as const };
  const result = isAsync
    ? await fc.check(
        fc.asyncProperty(arbitrary, async (input: never) => {
          beat(input);
          try {
            tally(await checkAsync(input));
          } catch (e) {
            failed(e);
          }
        }),
        params,
      )
    : fc.check(
        fc.property(arbitrary, (input: never) => {
          beat(input);
          try {
            tally(checkSync(input));
          } catch (e) {
            failed(e);
          }
        }),
        params,
      );
  started[0] = 0;
  if (!result.failed) break;
  inputs++; // the failing input (shrink runs are not counted)
  remaining -= inputs - before;
  if (!result.counterexample) {
    counterexamples.push({ input: null, kind: 'crash', detail: `fast-check stopped: ${describeError(result.errorInstance)}`, seed });
    break;
  }
  const err = result.errorInstance;
  const kind: FailureKind = err instanceof FuzzFailure ? err.kind : 'crash';
  const detail = err instanceof FuzzFailure ? err.message : describeError(err);
  const cx: Counterexample = { input: result.counterexample[0], kind, detail, seed };
  const signature = kind === 'crash' && target.name === 'pipeline' ? detail.replace(/^crash: /, '').split(' :: ')[0] : undefined;
  if (signature) {
    cx.signature = signature;
    cx.analyzerCrash = isAnalyzerCrash(signature);
  }
  counterexamples.push(cx);
  // Analyzer crashes are recorded and the run goes on (with the next seed) to find others.
  if (!cx.analyzerCrash || !signature || restarts >= 50) break;
  known.add(signature);
  seed++;
  restarts++;
}
const report = target.report?.();
const result: WorkerResult = {
  target: job.target,
  inputs,
  skipped,
  knownCrashInputs,
  restarts,
  counterexamples,
  ms: Date.now() - t0,
  ...(report ? { report } : {}),
};
port.postMessage({ type: 'done', result });
