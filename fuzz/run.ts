// `npm run fuzz`: differential and crash fuzzing with fast-check.
//
//   npm run fuzz -- --runs N --seed S [--target NAME]...   run as long as asked
//   npm run fuzz -- --smoke                                 seeded, bounded run for CI
//   npm run fuzz -- --list                                  the targets
//
// Targets run one after another, each in a worker thread watched by a watchdog. An input
// over the time limit (1 s) is a hang; one that never returns is stopped and recorded too.
// Minimised counterexamples are added to tests/fuzz-corpus/<target>.json (unless
// --no-record). Exit code 1 when any target found something new: a divergence, a crash, a
// hang, or an analyzer crash (pipeline; the run goes on past those, and records them as
// known). Inputs that hit an analyzer crash already recorded are counted, not failed.
import { Worker } from 'node:worker_threads';
import { targetByName, TARGETS } from './targets/index.ts';
import { addToCorpus, knownCrashSignatures } from './corpus.ts';
import { HANG_MS } from './failure.ts';
import { HEARTBEAT_BYTES, type Counterexample, type WorkerJob, type WorkerResult } from './protocol.ts';
import { loadSeeds, sharedLinesIn } from './gen/seeds.ts';

interface Options {
  targets: string[];
  runs?: number;
  seed: number;
  smoke: boolean;
  timeLimitMs: number;
  record: boolean;
}

function usage(message: string): never {
  process.stderr.write(`${message}\nUsage: npm run fuzz -- [--runs N] [--seed S] [--target NAME]... [--smoke] [--time-limit-ms MS] [--no-record] [--list]\n`);
  process.exit(64);
}

function parseOptions(argv: string[]): Options {
  const o: Options = { targets: [], seed: 1, smoke: false, timeLimitMs: HANG_MS, record: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    const int = (v: string) => {
      if (!/^\d+$/.test(v)) usage(`${a}: not a whole number: ${v}`);
      return Number(v);
    };
    if (a === '--runs') o.runs = int(value());
    else if (a === '--seed') o.seed = int(value());
    else if (a === '--target') o.targets.push(...value().split(','));
    else if (a === '--smoke') o.smoke = true;
    else if (a === '--time-limit-ms') o.timeLimitMs = int(value());
    else if (a === '--no-record') o.record = false;
    else if (a === '--list') {
      for (const t of TARGETS) process.stdout.write(`${t.name.padEnd(10)} ${t.description}${t.onlyWhenNamed ? ' (runs only with --target)' : ''}\n`);
      process.exit(0);
    } else usage(`unknown option ${a}`);
  }
  for (const t of o.targets) if (!targetByName(t)) usage(`unknown target ${t} (see --list)`);
  // The oracle's targets compare with istioctl and istiod built from Go (a development tool, never
  // built in CI): they run only when named, so a machine that happens to have the oracle built
  // runs the same default set (and the same CI smoke run) as one that does not.
  if (o.targets.length === 0) o.targets = TARGETS.filter((t) => !t.onlyWhenNamed).map((t) => t.name);
  return o;
}

interface Summary {
  target: string;
  inputs: number;
  skipped: number;
  divergences: number;
  crashes: number;
  hangs: number;
  newAnalyzerCrashes: number;
  knownCrashInputs: number;
  seconds: number;
  /** Set when the target could not run here (Target.unavailable): reported as skipped, not passed. */
  notRun?: string;
}

function runTarget(name: string, runs: number, o: Options): Promise<{ result: WorkerResult; stopped?: Counterexample }> {
  const heartbeat = new SharedArrayBuffer(HEARTBEAT_BYTES);
  const job: WorkerJob = { target: name, runs, seed: o.seed, timeLimitMs: o.timeLimitMs, knownCrashes: knownCrashSignatures(name), heartbeat };
  const worker = new Worker(new URL('./worker-loader.js', import.meta.url), { workerData: job });
  const started = new Float64Array(heartbeat, 8, 1);
  const count = new Int32Array(heartbeat, 0, 1);
  const length = new Int32Array(heartbeat, 16, 1);
  const bytes = new Uint8Array(heartbeat, 24);
  // An input still running after this long never returns: stop the worker and keep the input.
  const watchdogMs = Math.max(30_000, 10 * o.timeLimitMs);
  const t0 = Date.now();
  return new Promise((resolvePromise, reject) => {
    let done = false;
    const timer = setInterval(() => {
      const since = started[0] as number;
      if (done || since === 0 || Date.now() - since < watchdogMs) return;
      done = true;
      clearInterval(timer);
      const text = new TextDecoder().decode(bytes.slice(0, Atomics.load(length, 0)));
      let input: unknown = text;
      try {
        input = JSON.parse(text);
      } catch {
        // a truncated input stays text
      }
      void worker.terminate();
      const inputs = Atomics.load(count, 0);
      resolvePromise({
        result: { target: name, inputs, skipped: 0, knownCrashInputs: 0, restarts: 0, counterexamples: [], ms: Date.now() - t0 },
        stopped: { input, kind: 'hang', detail: `hang: no answer after ${watchdogMs / 1000} s (stopped)`, seed: o.seed },
      });
    }, 1000);
    worker.on('message', (m: { type: string; inputs?: number; ms?: number; result?: WorkerResult }) => {
      if (m.type === 'progress') process.stdout.write(`  ${name}: ${m.inputs?.toLocaleString('en-US')} inputs in ${((m.ms ?? 0) / 1000).toFixed(0)} s\n`);
      if (m.type === 'done' && m.result && !done) {
        done = true;
        clearInterval(timer);
        resolvePromise({ result: m.result });
      }
    });
    worker.on('error', (e) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      reject(e);
    });
    worker.on('exit', (code) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      reject(new Error(`fuzz worker for ${name} exited with code ${code}`));
    });
  });
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const seeds = loadSeeds();
  process.stdout.write(
    `Fuzzing (seed ${o.seed}, time limit ${o.timeLimitMs} ms per input${o.smoke ? ', smoke run' : ''})\nSeed manifests: ${seeds.documents.length} documents from ${seeds.sources.join(', ') || 'nowhere'}\n`,
  );
  const summaries: Summary[] = [];
  let failedAny = false;
  for (const name of o.targets) {
    const target = targetByName(name)!;
    const runs = o.runs ?? (o.smoke ? target.smokeRuns : 10_000);
    process.stdout.write(`\n${name}: ${target.description}\n  ${runs.toLocaleString('en-US')} inputs, seed ${o.seed}\n`);
    const notRun = target.unavailable?.();
    if (notRun) {
      process.stdout.write(`  SKIPPED, not run: ${notRun}\n`);
      summaries.push({
        target: name,
        inputs: 0,
        skipped: 0,
        divergences: 0,
        crashes: 0,
        hangs: 0,
        newAnalyzerCrashes: 0,
        knownCrashInputs: 0,
        seconds: 0,
        notRun,
      });
      continue;
    }
    let outcome: { result: WorkerResult; stopped?: Counterexample };
    try {
      outcome = await runTarget(name, runs, o);
    } catch (e) {
      process.stdout.write(`  the worker failed: ${(e as Error).stack ?? String(e)}\n`);
      failedAny = true;
      summaries.push({ target: name, inputs: 0, skipped: 0, divergences: 0, crashes: 1, hangs: 0, newAnalyzerCrashes: 0, knownCrashInputs: 0, seconds: 0 });
      continue;
    }
    const { result, stopped } = outcome;
    const found = [...result.counterexamples, ...(stopped ? [stopped] : [])];
    const s: Summary = {
      target: name,
      inputs: result.inputs,
      skipped: result.skipped,
      divergences: found.filter((c) => c.kind === 'divergence').length,
      crashes: found.filter((c) => c.kind === 'crash' && !c.analyzerCrash).length,
      hangs: found.filter((c) => c.kind === 'hang').length,
      newAnalyzerCrashes: found.filter((c) => c.analyzerCrash).length,
      knownCrashInputs: result.knownCrashInputs,
      seconds: result.ms / 1000,
    };
    summaries.push(s);
    // A new analyzer crash fails this run too; once recorded, later runs count it as known.
    if (s.divergences + s.crashes + s.hangs + s.newAnalyzerCrashes > 0) failedAny = true;
    for (const c of found) {
      const label = c.analyzerCrash ? 'analyzer crash (recorded as known)' : c.kind;
      process.stdout.write(`  ${label}: ${c.detail.slice(0, 2000)}\n  input: ${JSON.stringify(c.input).slice(0, 4000)}\n`);
      // The corpus is ours: Istio's test inputs in ../shared must not end up in it.
      const borrowed = sharedLinesIn(c.input, seeds);
      if (borrowed >= 3)
        process.stdout.write(`  NOTE: ${borrowed} lines of this input come from ../shared: replace it in the corpus with an equivalent input of our own\n`);
      if (o.record) {
        const added = addToCorpus(name, {
          input: c.input,
          kind: c.kind,
          detail: c.detail.slice(0, 2000),
          found: new Date().toISOString().slice(0, 10),
          seed: c.seed,
          ...(c.analyzerCrash ? { status: 'known-analyzer-crash' as const } : {}),
          ...(c.signature ? { signature: c.signature } : {}),
          ...(borrowed >= 3 ? { review: `${borrowed} lines from ../shared: replace with an input of our own` } : {}),
        });
        if (added) process.stdout.write(`  recorded in tests/fuzz-corpus/${name}.json\n`);
      }
    }
    for (const line of result.report?.lines ?? []) process.stdout.write(`  ${line}\n`);
    if (result.report?.failure) {
      process.stdout.write(`  FAILED: ${result.report.failure}\n`);
      failedAny = true;
    }
    process.stdout.write(
      `  ${s.inputs.toLocaleString('en-US')} inputs${s.skipped ? ` (${s.skipped.toLocaleString('en-US')} not valid YAML, skipped)` : ''} in ${s.seconds.toFixed(1)} s: ${s.divergences} divergences, ${s.crashes} crashes, ${s.hangs} hangs${s.newAnalyzerCrashes + s.knownCrashInputs > 0 ? `; analyzer crashes: ${s.newAnalyzerCrashes} new (recorded as known), ${s.knownCrashInputs} inputs hit recorded ones` : ''}\n`,
    );
  }
  process.stdout.write('\ntarget      inputs      divergences  crashes  hangs  seconds\n');
  for (const s of summaries) {
    if (s.notRun) {
      process.stdout.write(`${s.target.padEnd(10)}  SKIPPED (not run): ${s.notRun}\n`);
      continue;
    }
    process.stdout.write(
      `${s.target.padEnd(10)}${s.inputs.toLocaleString('en-US').padStart(10)}  ${String(s.divergences).padStart(11)}  ${String(s.crashes).padStart(7)}  ${String(s.hangs).padStart(5)}  ${s.seconds.toFixed(0).padStart(7)}\n`,
    );
  }
  const notRun = summaries.filter((s) => s.notRun).map((s) => s.target);
  if (notRun.length) process.stdout.write(`SKIPPED, not run on this machine: ${notRun.join(', ')} (see above); these targets did not pass, they did not run\n`);
  process.stdout.write(`${JSON.stringify({ seed: o.seed, date: new Date().toISOString(), summaries })}\n`);
  process.exitCode = failedAny ? 1 : 0;
}

await main();
