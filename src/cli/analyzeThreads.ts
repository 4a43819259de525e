// A large analysis split across two threads. Parsing and analysis are single-threaded, and
// most machines that run the CLI have a second core: a worker thread reads the same files
// with the same parser and runs part of the analyzers (schema and webhook validation), while
// the main thread runs the rest. The worker sends each of its analyzers' processed messages
// (plain data, a few per finding) and the main thread merges them at their analyzers' places,
// so the output is the one a single thread gives. Only the compiled bundle does this: the
// worker loads the same bundle, and the TypeScript sources would need a loader in it.
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { AnalysisSettings } from '../core/analysis/settings.ts';
import type { ShardList } from '../core/analysis/run.ts';
import { selectAnalyzers } from '../core/analyzerSets.ts';
import { WorkspaceAnalyzer, type RunOptions } from '../core/workspace.ts';

/** Below this many characters a worker's start (about 0.1 s) costs more than it saves. */
export const THREADS_MIN_CHARS = 2_000_000;
/**
 * Above this the worker's second copy of the documents would cost more memory than the time
 * it saves is worth (a whole-cluster dump should stay within a few times its size).
 */
export const THREADS_MAX_CHARS = 48 * 1024 * 1024;

/**
 * The analyzers the worker runs: schema and webhook validation, a quarter to a third of a
 * large run and independent of the mesh model. With them the worker (which also starts up and
 * parses) finishes about when the main thread does; with more it finishes later.
 */
export function runsInWorker(analyzer: string): boolean {
  return analyzer.startsWith('schema.ValidationAnalyzer.');
}

interface ShardRequest {
  meshWorkbenchShard: true;
  files: { path: string; text: string }[];
  settings: AnalysisSettings;
  options: Pick<RunOptions, 'meshConfigText' | 'meshNetworksText' | 'ranges'>;
  analyzers: string[];
}

function isShardRequest(v: unknown): v is ShardRequest {
  return typeof v === 'object' && v !== null && (v as Partial<ShardRequest>).meshWorkbenchShard === true;
}

/**
 * Whether to split: `MESH_WORKBENCH_THREADS=1` never does, `=2` always does (tests use it on
 * small files); otherwise inputs between the two sizes on a machine with two or more cores.
 */
function wantsThreads(chars: number, env: Record<string, string | undefined>): boolean {
  const forced = env.MESH_WORKBENCH_THREADS;
  if (forced === '1') return false;
  if (forced === '2') return true;
  return chars >= THREADS_MIN_CHARS && chars <= THREADS_MAX_CHARS && availableParallelism() >= 2;
}

/** The bundle this code runs from, when it runs from the compiled bundle. */
function bundlePath(): string | undefined {
  return typeof __filename === 'string' && __filename.endsWith('.cjs') ? __filename : undefined;
}

/**
 * Starts the worker for a run over `files`, when splitting is worth it; the result goes to
 * WorkspaceAnalyzer.run as `offloaded`. Any failure of the worker makes the main thread run
 * its analyzers itself (see AnalysisSession.run), so this never changes what is printed.
 */
export function startAnalyzeWorker(
  files: readonly { path: string; text: string }[],
  settings: AnalysisSettings,
  options: ShardRequest['options'],
  env: Record<string, string | undefined>,
): RunOptions['offloaded'] {
  const bundle = bundlePath();
  if (!bundle || settings.mode === 'istioctl') return undefined;
  const chars = files.reduce((n, f) => n + f.text.length, 0);
  if (!wantsThreads(chars, env)) return undefined;
  const analyzers = selectAnalyzers(settings.analyzers)
    .map((a) => a.metadata.name)
    .filter(runsInWorker);
  if (analyzers.length === 0) return undefined;
  const request: ShardRequest = { meshWorkbenchShard: true, files: [...files], settings: { ...settings, kiali: false }, options, analyzers };
  const lists = new Promise<ShardList[]>((resolve, reject) => {
    const worker = new Worker(bundle, { workerData: request });
    worker.once('message', (m: ShardList[]) => resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`analysis worker exited with code ${code}`)));
  });
  // Settled either way: a rejection is handled where the lists are awaited.
  lists.catch(() => undefined);
  return { names: new Set(analyzers), lists };
}

/** The worker's side: runs its analyzers over its own reading of the files and sends their lists. */
async function runShard(request: ShardRequest): Promise<void> {
  // The main thread's reader applied the size limit; the worker parses whatever it was sent.
  const workspace = new WorkspaceAnalyzer({ maxFileChars: Number.POSITIVE_INFINITY });
  workspace.update(request.files, []);
  const lists: ShardList[] = [];
  await workspace.run(request.settings, { ...request.options, fixes: false, only: new Set(request.analyzers), collect: (l) => lists.push(l) });
  parentPort?.postMessage(lists);
}

/** Called once by the CLI's entry module: in the analysis worker, does its part. */
export function serveAnalyzeWorker(): void {
  if (isMainThread || !isShardRequest(workerData)) return;
  void runShard(workerData);
}
