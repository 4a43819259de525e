// Typed wrapper around the analysis worker, used by the UI state layer: syncs, cancels and
// typed queries (`query('workloads', {...})` resolves to that view's result type).
import type { WorkspaceFile } from '../core/document/types.ts';
import type { AnalysisSettings } from '../core/analysis/settings.ts';
import type { FileLimit } from '../core/document/inputLimits.ts';
import type { QueryArgs, QueryResult, QueryView } from '../core/queries/views.ts';
import type { DiagnosticsReuse, FileEdits, FromWorker, PiecedFile, QueryRequest, ToWorker } from './protocol.ts';
import { nextTask } from '../core/nextTask.ts';
import type { Diagnostic } from '../core/document/types.ts';

export interface AnalysisClientOptions {
  onMessage: (msg: FromWorker) => void;
  /** The worker died (script error, out of memory); the client has already restarted it. */
  onCrash?: (message: string) => void;
}

/** Where messages go: a real Worker, or anything with the same surface (tests). */
export interface WorkerLike {
  postMessage(msg: ToWorker): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
  onmessageerror: ((ev: MessageEvent) => void) | null;
}

/** A query that the worker could not answer (or that was cut off by a worker restart). */
export class QueryFailedError extends Error {
  constructor(
    message: string,
    readonly view: string,
  ) {
    super(message);
    this.name = 'QueryFailedError';
  }
}

interface PendingQuery {
  view: QueryView;
  /** View and args, the key of `lastAnswers`. */
  key: string;
  args: unknown;
  resolve: (result: unknown) => void;
  reject: (e: Error) => void;
}

/** Texts from this length on go to the worker in pieces of TEXT_PIECE_CHARS (about a millisecond each to post). */
export const TEXT_IN_PIECES_CHARS = 4 * 1024 * 1024;
export const TEXT_PIECE_CHARS = 1024 * 1024;

function isLargeText(f: WorkspaceFile | PiecedFile): f is WorkspaceFile {
  return 'text' in f && f.text.length >= TEXT_IN_PIECES_CHARS;
}

function spawnAnalysisWorker(): WorkerLike {
  return new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module', name: 'mesh-analysis' }) as unknown as WorkerLike;
}

export class AnalysisClient {
  private worker: WorkerLike;
  private readonly opts: AnalysisClientOptions;
  private readonly spawnWorker: () => WorkerLike;
  private nextQueryId = 1;
  private readonly queries = new Map<number, PendingQuery>();
  /** The last answer per view and args, which the worker may confirm as `unchanged`. */
  private lastAnswers = new Map<string, unknown>();
  /** The diagnostics of the last result received (what the worker's `reuse` refers to). */
  private lastDiagnostics: Diagnostic[] = [];
  private disposed = false;
  /** The parts of a large result received so far (see FromWorker `resultPart`). */
  private parts: { version: number; lists: Diagnostic[][] } | null = null;
  /** Messages waiting behind a large text being sent in pieces (null when none is). */
  private outbox: ToWorker[] | null = null;

  constructor(opts: AnalysisClientOptions, spawnWorker: () => WorkerLike = spawnAnalysisWorker) {
    this.opts = opts;
    this.spawnWorker = spawnWorker;
    this.worker = this.spawn();
  }

  private spawn(): WorkerLike {
    const w = this.spawnWorker();
    w.onmessage = (ev: MessageEvent<FromWorker>) => this.receive(ev.data);
    w.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      const message = ev.message || 'The analysis worker stopped unexpectedly.';
      this.replaceWorker(`The analysis worker stopped (${message}) before answering`);
      this.opts.onCrash?.(message);
    };
    w.onmessageerror = () => this.opts.onCrash?.('A message from the analysis worker could not be read.');
    return w;
  }

  private receive(msg: FromWorker): void {
    if (msg.type === 'queryResult' || msg.type === 'queryFailed') {
      const q = this.queries.get(msg.id);
      if (!q) return;
      this.queries.delete(msg.id);
      if (msg.type === 'queryFailed') return q.reject(new QueryFailedError(msg.message, q.view));
      if (!msg.unchanged) {
        this.remember(q.key, msg.result);
        return q.resolve(msg.result);
      }
      if (this.lastAnswers.has(q.key)) return q.resolve(this.lastAnswers.get(q.key));
      // Forgotten here meanwhile: ask for the whole answer.
      this.ask(q, false);
      return;
    }
    if (msg.type === 'resultPart') {
      if (this.parts?.version !== msg.version) this.parts = { version: msg.version, lists: [] };
      this.parts.lists.push(msg.diagnostics);
      return;
    }
    if (msg.type === 'result' && msg.parts !== undefined) {
      const parts = this.parts;
      this.parts = null;
      if (!parts || parts.version !== msg.version || parts.lists.length !== msg.parts) {
        this.lastDiagnostics = [];
        this.opts.onMessage({ type: 'resync', message: 'Part of an analysis result did not arrive.' });
        return;
      }
      const { parts: _parts, ...whole } = msg;
      const joined = (tail: Diagnostic[]) => ([] as Diagnostic[]).concat(...parts.lists, tail);
      msg = whole.reuse
        ? { ...whole, reuse: { refs: whole.reuse.refs, added: joined(whole.reuse.added) } }
        : { ...whole, diagnostics: joined(whole.diagnostics) };
    }
    if (msg.type === 'result') {
      const diagnostics = msg.reuse ? rebuildDiagnostics(msg.reuse, this.lastDiagnostics) : msg.diagnostics;
      if (!diagnostics) {
        // Out of step with the worker (it cannot happen unless a message was lost): start over.
        this.lastDiagnostics = [];
        this.opts.onMessage({ type: 'resync', message: 'The analysis result referred to diagnostics this page does not have.' });
        return;
      }
      this.lastDiagnostics = diagnostics;
      if (msg.reuse) {
        const { reuse: _reuse, ...rest } = msg;
        return this.opts.onMessage({ ...rest, diagnostics });
      }
    }
    this.opts.onMessage(msg);
  }

  private rejectAll(why: string): void {
    const pending = [...this.queries.values()];
    this.queries.clear();
    for (const q of pending) q.reject(new QueryFailedError(`${why} the "${q.view}" query; ask again.`, q.view));
  }

  /**
   * Posts in order. A sync carrying a large text sends the text first in pieces, a task apart,
   * and whatever is sent meanwhile waits its turn behind it.
   */
  private send(msg: ToWorker): void {
    if (this.outbox) this.outbox.push(msg);
    else if (msg.type === 'sync' && msg.changed.some(isLargeText)) {
      this.outbox = [];
      void this.sendInPieces(msg, this.worker);
    } else this.worker.postMessage(msg);
  }

  private async sendInPieces(first: ToWorker, worker: WorkerLike): Promise<void> {
    for (let msg: ToWorker | undefined = first; msg; msg = this.outbox?.shift()) {
      if (msg.type === 'sync' && msg.changed.some(isLargeText)) {
        const changed: Extract<ToWorker, { type: 'sync' }>['changed'] = [];
        for (const f of msg.changed) {
          if (!isLargeText(f)) {
            changed.push(f);
            continue;
          }
          let pieces = 0;
          for (let at = 0; at < f.text.length; at += TEXT_PIECE_CHARS) {
            // A replaced worker is sent everything again; nothing queued for this one matters.
            if (worker !== this.worker) return;
            worker.postMessage({ type: 'textPiece', path: f.path, piece: f.text.slice(at, at + TEXT_PIECE_CHARS), first: at === 0 });
            pieces++;
            await nextTask();
          }
          changed.push({ path: f.path, pieces });
        }
        if (worker !== this.worker) return;
        worker.postMessage({ ...msg, changed });
      } else worker.postMessage(msg);
    }
    if (worker === this.worker) this.outbox = null;
  }

  sync(
    version: number,
    changes: { changed: WorkspaceFile[]; edits: FileEdits[]; removed: string[]; full?: boolean },
    settings: AnalysisSettings,
    fileLimit?: FileLimit,
  ): void {
    this.send({
      type: 'sync',
      version,
      changed: changes.changed,
      edits: changes.edits,
      removed: changes.removed,
      ...(changes.full ? { full: true } : {}),
      settings,
      ...(fileLimit ? { fileLimit } : {}),
    });
  }

  /** Replaces the worker with a fresh one at once (it holds nothing: send it everything). */
  restart(): void {
    if (!this.disposed) this.replaceWorker('The analysis was stopped before answering');
  }

  /** Stops the worker, fails what it was asked, and starts a new one that remembers no answers and no results. */
  private replaceWorker(why: string): void {
    this.worker.onerror = null;
    this.worker.onmessage = null;
    this.worker.terminate();
    this.rejectAll(why);
    this.lastAnswers.clear();
    this.lastDiagnostics = [];
    this.parts = null;
    this.outbox = null;
    this.worker = this.spawn();
  }

  cancel(version: number): void {
    this.send({ type: 'cancel', version });
  }

  /** The first results are painted: the worker may load what later work needs. */
  warm(): void {
    this.send({ type: 'warm' });
  }

  /**
   * Asks the worker one query; resolves with the view's result, from the latest analysis
   * (waiting for the first one if none has run yet). Rejects with QueryFailedError when the
   * worker cannot answer, or stops before it does.
   */
  query<V extends QueryView>(view: V, args: QueryArgs<V>): Promise<QueryResult<V>> {
    if (this.disposed) return Promise.reject(new QueryFailedError(`The analysis worker is gone; the "${view}" query was not sent.`, view));
    return new Promise<QueryResult<V>>((resolve, reject) => {
      const key = `${view}\u0000${JSON.stringify(args) ?? ''}`;
      this.ask({ view, key, args, resolve: resolve as (r: unknown) => void, reject }, this.lastAnswers.has(key));
    });
  }

  private ask(q: PendingQuery, known: boolean): void {
    const id = this.nextQueryId++;
    this.queries.set(id, q);
    try {
      this.send({ type: 'query', id, view: q.view, args: q.args, known } as { type: 'query'; id: number; known: boolean } & QueryRequest);
    } catch (e) {
      this.queries.delete(id);
      q.reject(new QueryFailedError(`The "${q.view}" query could not be sent: ${e instanceof Error ? e.message : 'unknown error'}`, q.view));
    }
  }

  /** Keeps the answer (the worker remembers 16; a few more here cost nothing). */
  private remember(key: string, result: unknown): void {
    this.lastAnswers.delete(key);
    this.lastAnswers.set(key, result);
    if (this.lastAnswers.size > 32) this.lastAnswers.delete(this.lastAnswers.keys().next().value as string);
  }

  /** Queries sent and not answered yet. */
  get pendingQueries(): number {
    return this.queries.size;
  }

  dispose(): void {
    this.disposed = true;
    this.worker.terminate();
    this.rejectAll('The analysis worker was shut down before answering');
  }
}

/** The diagnostics a `reuse` result stands for, or undefined when it refers outside `previous`. */
export function rebuildDiagnostics(reuse: DiagnosticsReuse, previous: readonly Diagnostic[]): Diagnostic[] | undefined {
  const { refs, added } = reuse;
  if (!(refs instanceof Int32Array) || !Array.isArray(added)) return undefined;
  const out = new Array<Diagnostic>(refs.length);
  let next = 0;
  for (let i = 0; i < refs.length; i++) {
    const j = refs[i] as number;
    const d = j < 0 ? added[next++] : previous[j];
    if (d === undefined) return undefined;
    out[i] = d;
  }
  return next === added.length ? out : undefined;
}
