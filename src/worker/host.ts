// What the analysis worker does with each message, apart from the worker plumbing (so it
// runs in unit tests too). It holds the one WorkspaceAnalyzer, whose model keeps the worker's
// only copy of each file's text; editor changes are applied to that copy.
//
// - A newer `sync` supersedes a running analysis. Changes that arrive while a run is in
//   flight wait in `pending` and go to the analyzer once the run has returned (it is never
//   changed mid-run).
// - Queries are answered against the last analyzed state, never mid-run; one that arrives
//   before the first analysis waits for it.
// - Nothing here throws out of `handle`: a failed run is reported as `failed` and the next
//   run rebuilds the analyzer from the texts it held; changes that do not fit the worker's
//   copy make it ask for every file whole (`resync`).
// - The first diagnostics need only the analysis: the query module (xDS, config dumps,
//   certificates, ambient) is imported on the first query or once the first result is out;
//   the CEL and certificate libraries before a run whose resources could need them
//   (libGates.ts), istioctl mode's reader before a run in that mode, the quick fixes before
//   the first fixes, and all of them after the first result. None is in the first chunk.
// - The Kiali pack (when its toggle is on) loads once the page has painted its first results;
//   the analysis then runs again (from its caches) with it. Each run posts istioctl's findings
//   first (with the last Kiali findings kept in place) and the pack's after them, as a second
//   result of the same version: typing never waits for the pack.
import { nextTask } from '../core/nextTask.ts';
import { WorkspaceAnalyzer, type WorkspaceResult } from '../core/workspace.ts';
import type { ModelOptions } from '../core/document/workspaceModel.ts';
import { problemsOrder } from '../core/document/problemsOrder.ts';
import type { FileLimit } from '../core/document/inputLimits.ts';
import type { Diagnostic, Resource } from '../core/document/types.ts';
import { defaultAnalysisSettings, type AnalysisSettings } from '../core/analysis/settings.ts';
import { celLibrary } from './celLib.lazy.ts';
import { credentials } from './credential.lazy.ts';
import { fixes } from './fixes.lazy.ts';
import { istioctlMode } from './istioctl.lazy.ts';
import { kialiPack } from './kiali.lazy.ts';
import { resourcesNeedCel, resourcesNeedPki, resourcesNeedXds } from './libGates.ts';
import { envoyFilterReachModule } from './envoyFilterReach.lazy.ts';
import { applyTextChanges } from './textChanges.ts';
import type { DiagnosticsReuse, FileEdits, FromWorker, Progress, ToWorker } from './protocol.ts';

export type QueriesModule = typeof import('../core/queries/index.ts');

/** A module the worker build loads on demand (celLib.lazy.ts and the stand-ins of onDemand.ts). */
export interface LazyLib {
  loaded(): boolean;
  load(): Promise<void>;
}

export interface HostOptions {
  /** Yield to the event loop this often during a run (ms), so newer messages are seen. */
  yieldEveryMs?: number;
  /** Imports the query module (default: a dynamic import; tests hold it back). */
  loadQueries?: () => Promise<QueriesModule>;
  /** The CEL library (default: celLib.lazy.ts, which the worker build uses for celLib.ts). */
  cel?: LazyLib;
  /** Certificate parsing (default: credential.lazy.ts, which the worker build gives the analyzers for pki/credential.ts). */
  pki?: LazyLib;
  /** The quick fixes (default: fixes.lazy.ts, which the worker build gives workspace.ts). */
  fixes?: LazyLib;
  /** The xDS generator for envoyfilter.PatchReachAnalyzer (default: envoyFilterReach.lazy.ts). */
  xds?: LazyLib;
  /** istioctl mode's reader (default: istioctl.lazy.ts, which the worker build gives workspace.ts). */
  istioctl?: LazyLib;
  /** The Kiali pack (default: kiali.lazy.ts, which the worker build gives workspace.ts). */
  kiali?: LazyLib;
  /** Load the query module and the libraries once the first result is posted (default true). */
  preload?: boolean;
  /**
   * Wait for the page's `warm` message before preloading (the worker entry sets this: the page
   * sends it once the first results are painted, so the imports never delay them).
   */
  preloadOnWarm?: boolean;
}

const importQueries = (): Promise<QueriesModule> => import('../core/queries/index.ts');
const lazyCel: LazyLib = celLibrary;

interface QueuedQuery {
  id: number;
  view: string;
  args: unknown;
  /** The page holds its last answer to this view and args. */
  known: boolean;
}

/** How many recent answers the worker remembers to tell the page "unchanged". */
const REMEMBERED_ANSWERS = 16;

/** How often a run says where it is (the page's progress bar moves smoothly at this rate). */
const PROGRESS_EVERY_MS = 100;

/** Diagnostics per message of a large result (the page reads 2,000 in a few tens of ms). */
export const RESULT_PART_SIZE = 2000;

export function errorText(e: unknown): string {
  try {
    if (e instanceof Error) return e.message || e.name;
    return typeof e === 'string' ? e : 'unknown error';
  } catch {
    return 'unknown error';
  }
}

export class AnalysisHost {
  private analyzer = new WorkspaceAnalyzer();
  /** The page's limit on one file (src/core/document/inputLimits.ts), once it has sent one. */
  private fileLimit?: FileLimit;
  /** The analyzer's model is being updated: its documents and its store disagree, so queries wait. */
  private updating = false;
  private lastProgressAt = 0;
  private lastProgressStep = '';
  /** Texts (or null for a removal) not yet handed to the analyzer. */
  private pending = new Map<string, string | null>();
  /** Large texts arriving in pieces, by path, until the sync that names them (see ToWorker textPiece). */
  private readonly pieces = new Map<string, string[]>();
  /** Texts the analyzer's model does not keep (binary or too large to parse). */
  private outside = new Map<string, string>();
  /** Start from an empty analyzer: the page is sending the whole workspace. */
  private reset = false;
  /** Rebuild the analyzer from the texts it holds (after a failed run). */
  private rebuild = false;
  /** Our copy went out of step; ignore syncs until the page sends a full one. */
  private awaitingFull = false;
  private settings: AnalysisSettings = defaultAnalysisSettings();
  private latestVersion = 0;
  private cancelRequested = false;
  private runRequested = false;
  private looping = false;
  /** Version of the run that last loaded the analyzer's state (what queries answer from). */
  private stateVersion = 0;
  private lastFailure: string | null = null;
  private queries: QueuedQuery[] = [];
  /**
   * The JSON of the last answer sent per view and args (most recent last). After each edit
   * the panels ask again; most answers are the same, and a large one (10,000 proxies) costs
   * the page's thread to receive and render even when nothing in it changed.
   */
  private lastAnswers = new Map<string, string>();
  /** The Kiali findings of the last result that had them (kept in place while the next run's come). */
  private lastKiali: readonly Diagnostic[] = [];
  /** The diagnostics of the last result posted (the page holds the same list). */
  private lastPosted: readonly Diagnostic[] = [];
  /** The query module once imported, and the import while it is under way. */
  private queryModule?: QueriesModule;
  private queryModuleLoading?: Promise<QueriesModule>;
  private preloaded = false;
  /** The page said its first results are painted (see preloadOnWarm). */
  private warmed = false;
  /** A result (with its fixes, when there are any) has been posted. */
  private resultPosted = false;
  /** The imports this host started (settled() waits for them). */
  private loads: Promise<unknown>[] = [];
  private readonly cel: LazyLib;
  private readonly pki: LazyLib;
  private readonly fixes: LazyLib;
  private readonly istioctl: LazyLib;
  private readonly xds: LazyLib;
  private readonly kiali: LazyLib;

  constructor(
    private readonly post: (msg: FromWorker) => void,
    private readonly options: HostOptions = {},
  ) {
    this.cel = options.cel ?? lazyCel;
    this.pki = options.pki ?? credentials;
    this.fixes = options.fixes ?? fixes;
    this.istioctl = options.istioctl ?? istioctlMode;
    this.xds = options.xds ?? envoyFilterReachModule;
    this.kiali = options.kiali ?? kialiPack;
  }

  /** Handles one message from the page; never throws. */
  handle(data: unknown): void {
    try {
      this.dispatch(data as ToWorker);
    } catch (e) {
      this.rebuild = true;
      const version = typeof data === 'object' && data !== null && 'version' in data && typeof data.version === 'number' ? data.version : this.latestVersion;
      this.safePost({ type: 'failed', version, message: errorText(e) });
    }
  }

  /** True while a run is in flight (for tests). */
  get busy(): boolean {
    return this.looping;
  }

  /** Resolves once every import the host started has settled, and what waited on it ran (for tests). */
  async settled(): Promise<void> {
    while (this.loads.length > 0) {
      const loads = this.loads.splice(0);
      await Promise.allSettled(loads);
    }
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.loads.push(p);
    return p;
  }

  private safePost(msg: FromWorker): void {
    try {
      this.post(msg);
    } catch {
      // Nothing sensible is left to do if posting fails (the page went away).
    }
  }

  private dispatch(msg: ToWorker): void {
    if (typeof msg !== 'object' || msg === null) return;
    switch (msg.type) {
      case 'sync':
        this.sync(msg);
        break;
      case 'textPiece':
        if (typeof msg.path !== 'string' || typeof msg.piece !== 'string') return;
        if (msg.first || !this.pieces.has(msg.path)) this.pieces.set(msg.path, []);
        this.pieces.get(msg.path)?.push(msg.piece);
        break;
      case 'cancel':
        if (typeof msg.version === 'number' && msg.version >= this.latestVersion) this.cancelRequested = true;
        break;
      case 'warm':
        this.warmed = true;
        // Before any result (the page stopped waiting for a slow first run), the preload waits
        // for that result, so it never slows the run down.
        if (this.resultPosted) this.preload();
        this.loadKialiWhenWarm();
        break;
      case 'query':
        if (typeof msg.id !== 'number') return;
        this.queries.push({ id: msg.id, view: msg.view, args: msg.args, known: msg.known === true });
        this.answerQueries();
        break;
    }
  }

  /** The worker's current text of a file (undefined when it has none). */
  private textOf(path: string): string | undefined {
    if (this.pending.has(path)) return this.pending.get(path) ?? undefined;
    if (this.reset) return undefined;
    return this.outside.get(path) ?? this.analyzer.model.file(path)?.text;
  }

  private sync(msg: Extract<ToWorker, { type: 'sync' }>): void {
    const version = typeof msg.version === 'number' ? msg.version : this.latestVersion + 1;
    if (msg.full) {
      // The page starts over (it may have lost step with our results too).
      this.lastPosted = [];
      this.awaitingFull = false;
      this.reset = true;
      this.rebuild = false;
      this.pending.clear();
    } else if (this.awaitingFull) {
      // A full sync is on its way; this one was built on texts we no longer trust.
      this.latestVersion = version;
      return;
    }
    for (const f of Array.isArray(msg.changed) ? msg.changed : []) {
      if (typeof f?.path !== 'string') continue;
      if ('text' in f && typeof f.text === 'string') this.pending.set(f.path, f.text);
      else if ('pieces' in f) {
        const pieces = this.pieces.get(f.path);
        this.pieces.delete(f.path);
        if (!pieces || pieces.length !== f.pieces) {
          this.awaitingFull = true;
          this.latestVersion = version;
          this.safePost({ type: 'resync', message: `${f.path} arrived in ${pieces?.length ?? 0} of its ${f.pieces} pieces` });
          return;
        }
        this.pending.set(f.path, pieces.join(''));
      }
    }
    for (const e of Array.isArray(msg.edits) ? msg.edits : []) {
      const problem = this.applyEdits(e);
      if (problem) {
        this.awaitingFull = true;
        this.latestVersion = version;
        this.safePost({ type: 'resync', message: problem });
        return;
      }
    }
    for (const p of Array.isArray(msg.removed) ? msg.removed : []) if (typeof p === 'string') this.pending.set(p, null);
    this.latestVersion = version;
    this.cancelRequested = false;
    if (msg.settings && typeof msg.settings === 'object') this.settings = msg.settings;
    const limit = msg.fileLimit;
    if (limit && typeof limit.chars === 'number' && typeof limit.why === 'string' && limit.chars !== this.fileLimit?.chars) {
      // The model reads files under its limit when they arrive: start it afresh under the new one.
      this.fileLimit = { chars: limit.chars, why: limit.why };
      this.rebuild = true;
    }
    this.runRequested = true;
    void this.loop();
  }

  /** Applies one file's editor changes to our copy; returns what went wrong, if anything. */
  private applyEdits(e: FileEdits): string | undefined {
    if (typeof e?.path !== 'string') return 'an edit without a path';
    const base = this.textOf(e.path);
    if (base === undefined) return `edits for ${e.path}, which the worker does not hold`;
    const next = applyTextChanges(base, e.changes);
    if (next === undefined) return `edits for ${e.path} do not fit the worker's copy`;
    if (next.length !== e.length) return `${e.path} has ${next.length} characters after the edits in the worker, ${e.length} on the page`;
    this.pending.set(e.path, next);
    return undefined;
  }

  /** Every text the worker holds, newest first: pending over the analyzer's own. */
  private allTexts(): Map<string, string | null> {
    const out = new Map<string, string | null>();
    if (!this.reset) {
      for (const f of this.analyzer.model.fileList()) out.set(f.path, f.text);
      for (const [p, t] of this.outside) out.set(p, t);
    }
    for (const [p, t] of this.pending) {
      if (t === null) out.delete(p);
      else out.set(p, t);
    }
    return out;
  }

  /**
   * Hands the pending texts to the analyzer, pausing now and then so that a newer sync or a
   * cancel can arrive while a large file is read. Returns false when it stopped for one: the
   * texts stay pending, and the next run reads on from where the analyzer got to.
   */
  private async applyPending(version: number): Promise<boolean> {
    if (this.reset || this.rebuild) {
      // The new analyzer starts empty: everything it should hold is in `pending`.
      const all = this.allTexts();
      this.analyzer = new WorkspaceAnalyzer(this.modelOptions());
      this.outside.clear();
      this.pending = all;
      this.reset = false;
      this.rebuild = false;
    }
    if (this.pending.size === 0) return true;
    const changed: { path: string; text: string }[] = [];
    const removed: string[] = [];
    for (const [path, text] of this.pending) {
      if (text === null) removed.push(path);
      else changed.push({ path, text });
    }
    // If this throws, `pending` still has every change and the next run rebuilds from it.
    const every = this.options.yieldEveryMs ?? 8;
    let lastYield = performance.now();
    for (const step of this.analyzer.updateSteps(changed, removed)) {
      this.progress(version, { step: 'parse', done: step.done, total: step.total });
      if (performance.now() - lastYield < every) continue;
      await nextTask();
      lastYield = performance.now();
      if (this.latestVersion !== version || this.cancelRequested) return false;
    }
    for (const f of changed) {
      if (this.analyzer.model.file(f.path)?.text === f.text) this.outside.delete(f.path);
      else this.outside.set(f.path, f.text);
    }
    for (const p of removed) this.outside.delete(p);
    this.pending.clear();
    return true;
  }

  /** Where a run is, posted at most every PROGRESS_EVERY_MS (a large file's run takes seconds). */
  private progress(version: number, step: Progress): void {
    const now = performance.now();
    if (now - this.lastProgressAt < PROGRESS_EVERY_MS && step.step === this.lastProgressStep) return;
    this.lastProgressAt = now;
    this.lastProgressStep = step.step;
    this.safePost({ type: 'progress', version, ...step });
  }

  private modelOptions(): ModelOptions {
    return this.fileLimit ? { maxFileChars: this.fileLimit.chars, maxFileWhy: this.fileLimit.why } : {};
  }

  private async loop(): Promise<void> {
    if (this.looping) return;
    this.looping = true;
    try {
      while (this.runRequested) {
        this.runRequested = false;
        const version = this.latestVersion;
        if (this.cancelRequested) {
          this.post({ type: 'canceled', version });
          continue;
        }
        // From here until the analyzer's run has begun, its documents may be ahead of its store.
        this.updating = true;
        try {
          // istioctl mode reads the files with its own module (settings may change meanwhile).
          while (this.settings.mode === 'istioctl' && !this.istioctl.loaded()) await this.track(this.istioctl.load());
          this.post({ type: 'started', version });
          if (!(await this.applyPending(version))) {
            this.post({ type: 'canceled', version });
            continue;
          }
          this.stateVersion = version;
          // Without the Kiali pack until it is loaded (below): the first diagnostics never wait for it.
          const withKiali = this.settings.kiali === true && this.kiali.loaded();
          const settings = this.settings.kiali === true && !withKiali ? { ...this.settings, kiali: false } : this.settings;
          const running = this.analyzer.run(settings, {
            deferKiali: withKiali,
            canceled: () => this.latestVersion !== version || this.cancelRequested,
            yieldEveryMs: this.options.yieldEveryMs ?? 8,
            prepare: (resources) => this.prepareLibs(resources),
            progress: (step) => this.progress(version, step),
          });
          // The run has marked its state as in progress: queries now wait for it by themselves.
          this.updating = false;
          const result = await running;
          this.lastFailure = null;
          if (result === 'canceled' || this.latestVersion !== version) {
            // Canceled, or finished while a newer version is queued (its result will follow).
            this.post({ type: 'canceled', version });
            continue;
          }
          // Kiali's findings of the last run stay until this run's arrive (after istioctl's).
          const files = new Set(this.analyzer.model.fileList().map((f) => f.path));
          const kept = withKiali ? this.lastKiali.filter((d) => d.file === undefined || files.has(d.file)) : [];
          const posted = kept.length > 0 ? [...result.diagnostics, ...kept] : result.diagnostics;
          this.postResult(version, posted, result);
          // Only once the page has it: it is what the next result refers to.
          this.lastPosted = posted;
          if (!withKiali) this.lastKiali = [];
          this.answerQueries();
          // Fixes come second: diagnostics show at once, the lightbulbs a moment later.
          if (this.latestVersion === version && !this.runRequested && !this.fixes.loaded()) {
            try {
              await this.track(this.fixes.load());
            } catch {
              // No lightbulbs for this result; the next one tries again.
            }
          }
          if (this.latestVersion === version && !this.runRequested && this.fixes.loaded()) {
            this.analyzer.attachFixes(result.diagnostics);
            this.postFixes(version, result.diagnostics);
          }
          this.resultPosted = true;
          this.preload();
          // The Kiali pack's findings, as a second result of this version.
          if (withKiali && this.latestVersion === version && !this.runRequested) {
            this.post({ type: 'started', version });
            const full = this.analyzer.kialiPass();
            if (full && this.latestVersion === version) {
              this.postResult(version, full, result);
              this.lastPosted = full;
              this.lastKiali = full.filter((d) => d.analyzer?.startsWith('kiali ') === true);
              if (this.fixes.loaded()) {
                this.analyzer.attachFixes(full);
                this.postFixes(version, full);
              }
            } else this.post({ type: 'canceled', version });
          }
          this.loadKialiWhenWarm();
        } catch (e) {
          this.rebuild = true;
          this.lastFailure = errorText(e);
          this.safePost({ type: 'failed', version, message: this.lastFailure });
        } finally {
          this.updating = false;
        }
      }
    } finally {
      this.looping = false;
      this.answerQueries();
    }
  }

  /** Posts the quick fixes of a posted list's diagnostics (by index). */
  private postFixes(version: number, list: readonly Diagnostic[]): void {
    const fixes: Array<[number, NonNullable<Diagnostic['fixes']>]> = [];
    list.forEach((d, i) => {
      if (d.fixes) fixes.push([i, d.fixes]);
    });
    if (fixes.length > 0) this.post({ type: 'fixes', version, fixes });
  }

  /**
   * With the Kiali toggle on: imports the pack once the first results are out and the page has
   * painted them (so it is never fetched before the first diagnostics), then runs again.
   */
  private loadKialiWhenWarm(): void {
    if (this.settings.kiali !== true || this.kiali.loaded() || !this.resultPosted) return;
    if (this.options.preloadOnWarm && !this.warmed) return;
    void this.track(this.kiali.load()).then(
      () => {
        // The same texts again, now with the pack (the analyzers' results come from cache).
        if (this.settings.kiali !== true) return;
        this.runRequested = true;
        void this.loop();
      },
      () => undefined,
    );
  }

  /** Before a run: loads the libraries its resources could need (the run waits for them). */
  private prepareLibs(resources: readonly Resource[]): Promise<void> | void {
    const loads: Promise<void>[] = [];
    if (!this.cel.loaded() && resourcesNeedCel(resources)) loads.push(this.track(this.cel.load()));
    if (!this.pki.loaded() && resourcesNeedPki(resources)) loads.push(this.track(this.pki.load()));
    if (!this.xds.loaded() && resourcesNeedXds(resources)) loads.push(this.track(this.xds.load()));
    if (loads.length > 0) return Promise.all(loads).then(() => undefined);
  }

  /**
   * After the first result: what later runs and queries may need, imported while the user
   * reads the diagnostics rather than when they first ask. A failure here is retried on use.
   */
  private preload(): void {
    if (this.preloaded || this.options.preload === false) return;
    if (this.options.preloadOnWarm && !this.warmed) return;
    this.preloaded = true;
    void this.queriesModule().catch(() => undefined);
    if (!this.cel.loaded()) void this.track(this.cel.load()).catch(() => undefined);
    for (const m of [this.pki, this.fixes, this.istioctl, this.xds]) if (!m.loaded()) void this.track(m.load()).catch(() => undefined);
  }

  /** The query module, imported once; a failed import is tried again on the next call. */
  private queriesModule(): Promise<QueriesModule> {
    this.queryModuleLoading ??= this.track((this.options.loadQueries ?? importQueries)()).then(
      (m) => (this.queryModule = m),
      (e: unknown) => {
        this.queryModuleLoading = undefined;
        throw e;
      },
    );
    return this.queryModuleLoading;
  }

  /**
   * Answers the queued queries if there is an analyzed state to read (not mid-run) and the
   * query module is loaded (else they wait for it). After a failed run they fail with its
   * message; before the first analysis they keep waiting.
   */
  private answerQueries(): void {
    if (this.queries.length === 0 || this.updating) return;
    const state = this.analyzer.analyzedState();
    if (!state) {
      if (this.lastFailure === null || this.looping) return;
      const failure = this.lastFailure;
      for (const q of this.queries.splice(0))
        this.safePost({
          type: 'queryFailed',
          id: q.id,
          message: `The analysis failed (${failure}); queries are answered again after the next successful analysis.`,
        });
      return;
    }
    const queries = this.queryModule;
    if (!queries) {
      // Answered when it arrives, against the state analyzed by then.
      const failAll = (message: string) => {
        for (const q of this.queries.splice(0)) this.safePost({ type: 'queryFailed', id: q.id, message });
      };
      this.track(this.queriesModule()).then(
        () => {
          try {
            this.answerQueries();
          } catch (e) {
            failAll(errorText(e));
          }
        },
        (e: unknown) => failAll(`The query module did not load (${errorText(e)}).`),
      );
      return;
    }
    const { answerQuery, answerQueryAsync, isAsyncQueryView } = queries;
    for (const q of this.queries.splice(0)) {
      if (isAsyncQueryView(q.view)) {
        // Answered when ready; a newer analysis does not cancel it (it answers the state asked).
        const version = this.stateVersion;
        answerQueryAsync(q.view, q.args, state).then(
          (result) => this.safePost({ type: 'queryResult', id: q.id, version, result }),
          (e: unknown) => this.safePost({ type: 'queryFailed', id: q.id, message: errorText(e) }),
        );
        continue;
      }
      try {
        const result = answerQuery(q.view, q.args, state);
        if (this.sameAsLastAnswer(q, result)) this.post({ type: 'queryResult', id: q.id, version: this.stateVersion, result: undefined, unchanged: true });
        else this.post({ type: 'queryResult', id: q.id, version: this.stateVersion, result });
      } catch (e) {
        this.safePost({ type: 'queryFailed', id: q.id, message: errorText(e) });
      }
    }
  }

  /** Records the answer to `q`, and says whether the page already holds an equal one. */
  private sameAsLastAnswer(q: QueuedQuery, result: unknown): boolean {
    const key = `${q.view}\u0000${JSON.stringify(q.args) ?? ''}`;
    let json: string;
    try {
      json = JSON.stringify(result) ?? '';
    } catch {
      // Not JSON-able (cycles, BigInt): always sent whole.
      this.lastAnswers.delete(key);
      return false;
    }
    const same = q.known && this.lastAnswers.get(key) === json;
    this.lastAnswers.delete(key);
    this.lastAnswers.set(key, json);
    if (this.lastAnswers.size > REMEMBERED_ANSWERS) this.lastAnswers.delete(this.lastAnswers.keys().next().value as string);
    return same;
  }

  /**
   * Posts the result of a run with these diagnostics: as references into the last result when
   * it can (reuseOf), and in parts when there are many, since the page reads a message in one
   * task and 60,000 diagnostics in one message would hold it for a second.
   */
  private postResult(version: number, posted: readonly Diagnostic[], result: Pick<WorkspaceResult, 'resources' | 'assumptions' | 'skipped' | 'stats'>): void {
    const reuse = this.reuseOf(posted);
    let msg: Extract<FromWorker, { type: 'result' }> = {
      type: 'result',
      version,
      diagnostics: reuse ? [] : (posted as Diagnostic[]),
      ...(reuse ? { reuse } : {}),
      resourceCount: result.resources.length,
      assumptions: result.assumptions,
      skipped: result.skipped,
      stats: result.stats,
    };
    // The page would sort a large list on its thread: the order goes with it.
    if (posted.length > RESULT_PART_SIZE) msg = { ...msg, order: problemsOrder(posted) };
    const list = msg.reuse ? msg.reuse.added : msg.diagnostics;
    if (list.length <= RESULT_PART_SIZE) return this.post(msg);
    const tail = list.length - ((list.length - 1) % RESULT_PART_SIZE) - 1;
    let parts = 0;
    for (let at = 0; at < tail; at += RESULT_PART_SIZE) {
      this.post({ type: 'resultPart', version: msg.version, diagnostics: list.slice(at, at + RESULT_PART_SIZE) });
      parts++;
    }
    const rest = list.slice(tail);
    this.post(msg.reuse ? { ...msg, reuse: { refs: msg.reuse.refs, added: rest }, parts } : { ...msg, diagnostics: rest, parts });
  }

  /**
   * The diagnostics as references into the last posted result, when at least half of them
   * are the same objects (the analysis keeps a message's diagnostic while its resource is
   * unchanged): a keystroke in a 5,000-service mesh then sends a few new diagnostics instead
   * of copying 11,000 to the page, which reads them on its own thread.
   */
  private reuseOf(list: readonly Diagnostic[]): DiagnosticsReuse | undefined {
    if (this.lastPosted.length === 0 || list.length < 64) return undefined;
    const before = new Map<Diagnostic, number>();
    this.lastPosted.forEach((d, i) => before.set(d, i));
    const refs = new Int32Array(list.length);
    const added: Diagnostic[] = [];
    for (let i = 0; i < list.length; i++) {
      const d = list[i] as Diagnostic;
      const j = before.get(d);
      if (j === undefined) {
        refs[i] = -1;
        added.push(d);
      } else refs[i] = j;
    }
    return added.length * 2 <= list.length ? { refs, added } : undefined;
  }
}
