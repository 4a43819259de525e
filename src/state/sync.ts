// Keeps the analysis worker in step with the workspace. Edits are debounced (60 ms); a file
// the editor changed goes over as its content changes (ranges and text), a file added or
// replaced from outside the editor as its whole text; each sync carries a new version so the
// worker can drop a superseded run, and results for older versions are ignored. No whole
// text is built per keystroke: only files that need to go whole are read at flush time.
import type { FileEdits, FromWorker, TextChange } from '../worker/protocol.ts';
import type { FileLimit } from '../core/document/inputLimits.ts';
import type { WorkspaceFile } from '../core/document/types.ts';
import { fileText, textStamp, useWorkspace } from './workspace.ts';
import { onTextEdited, type TextEdited } from './texts.ts';
import { toAnalysisSettings, useAnalysis } from './analysis.ts';
import { carrySummary, rememberProblemsOrder } from './diagnosticSummary.ts';
import { nextTask } from '../core/nextTask.ts';

export const SYNC_DEBOUNCE_MS = 60;
/** Results of this many diagnostics are shown in a task after the one that received them. */
export const RENDER_IN_OWN_TASK = 10_000;

export interface SyncChanges {
  changed: WorkspaceFile[];
  edits: FileEdits[];
  removed: string[];
  /** The worker should drop everything it holds: `changed` is the whole workspace. */
  full?: boolean;
}

export interface SyncTarget {
  sync(version: number, changes: SyncChanges, settings: ReturnType<typeof toAnalysisSettings>, fileLimit?: FileLimit): void;
  cancel(version: number): void;
  /** Stops the worker at once, whatever it is doing, and starts a fresh one (which holds nothing). */
  restart?(): void;
}

export interface SyncEngine {
  /** Send pending changes now (skipping the debounce). */
  flush(): void;
  /** Ask the worker to stop the running analysis. */
  cancel(): void;
  /** Forget what the worker has and send everything again, whole (after a worker restart). */
  resendAll(): void;
  /**
   * Stops the running analysis now, even in a step that cannot hear a cancel (reading a large
   * file's documents), by replacing the worker; the new one is sent the workspace as it is.
   */
  restartWorker(): void;
  onMessage(msg: FromWorker): void;
  dispose(): void;
}

export function startSync(target: SyncTarget, fileLimit?: FileLimit): SyncEngine {
  /** Per path: the rev whose whole text the worker got (edits since then go as changes). */
  const sentRevs = new Map<string, number>();
  /** Editor changes not sent yet, per path, on top of what the worker has. */
  const unsent = new Map<string, { changes: TextChange[]; length: number }>();
  let full = false;
  let lastSettings = '';
  let timer: ReturnType<typeof setTimeout> | null = null;
  let version = 0;
  const sentAt = new Map<number, number>();
  /** Per version: a stamp of each file's text (see textStamp), for quick fixes. */
  const sentStamps = new Map<number, Map<string, string>>();

  function onEdit(e: TextEdited): void {
    const f = useWorkspace.getState().files.find((x) => x.path === e.path);
    // Changes only make sense on top of a text the worker has; otherwise the whole text goes.
    if (f && sentRevs.get(e.path) === f.rev) {
      let u = unsent.get(e.path);
      if (!u) unsent.set(e.path, (u = { changes: [], length: e.length }));
      for (const c of e.changes) u.changes.push(c);
      u.length = e.length;
    }
    schedule();
  }

  function flush(): void {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    const ws = useWorkspace.getState();
    if (!ws.ready) return;
    const settings = toAnalysisSettings(useAnalysis.getState().settings);
    const settingsKey = JSON.stringify(settings);
    const isFull = full;
    if (isFull) {
      sentRevs.clear();
      unsent.clear();
    }
    const changed: WorkspaceFile[] = [];
    const edits: FileEdits[] = [];
    const current = new Set<string>();
    const stamps = new Map<string, string>();
    for (const f of ws.files) {
      current.add(f.path);
      stamps.set(f.path, textStamp(f.path, f) ?? '');
      if (sentRevs.get(f.path) !== f.rev) {
        const text = fileText(f.path);
        if (text === undefined) continue;
        changed.push({ path: f.path, text });
        sentRevs.set(f.path, f.rev);
        unsent.delete(f.path);
      } else {
        const u = unsent.get(f.path);
        if (u) {
          edits.push({ path: f.path, changes: u.changes, length: u.length });
          unsent.delete(f.path);
        }
      }
    }
    const removed: string[] = [];
    for (const p of [...sentRevs.keys()]) {
      if (current.has(p)) continue;
      removed.push(p);
      sentRevs.delete(p);
      unsent.delete(p);
    }
    if (!isFull && version > 0 && changed.length === 0 && edits.length === 0 && removed.length === 0 && settingsKey === lastSettings) return;
    full = false;
    lastSettings = settingsKey;
    version++;
    sentAt.set(version, performance.now());
    sentStamps.set(version, stamps);
    useAnalysis.setState({ requestedVersion: version, running: true, canceled: false, progress: null });
    target.sync(version, { changed, edits, removed, ...(isFull ? { full: true } : {}) }, settings, fileLimit);
  }

  function schedule(): void {
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, SYNC_DEBOUNCE_MS);
  }

  const unsubEdits = onTextEdited(onEdit);
  const unsubWs = useWorkspace.subscribe((s, prev) => {
    if (s.files !== prev.files || s.ready !== prev.ready) schedule();
  });
  const unsubSettings = useAnalysis.subscribe((s, prev) => {
    if (s.settings !== prev.settings) flush();
  });

  function resendAll(): void {
    full = true;
    flush();
  }

  /**
   * Messages that came while a large result waits for its own task (null when none does): the
   * worker's message (read on the page's thread) and the render of tens of thousands of
   * findings would otherwise make one long task, and a click landing in it waits.
   */
  let waiting: FromWorker[] | null = null;

  function onMessage(msg: FromWorker): void {
    if (waiting) {
      waiting.push(msg);
      return;
    }
    if (msg.type === 'result' && msg.diagnostics.length >= RENDER_IN_OWN_TASK) {
      const queue: FromWorker[] = [];
      waiting = queue;
      void nextTask().then(() => {
        waiting = null;
        apply(msg);
        for (const m of queue) onMessage(m);
      });
      return;
    }
    apply(msg);
  }

  function apply(msg: FromWorker): void {
    if (msg.type === 'resync') {
      // The worker's copy went out of step with ours: send every file whole.
      resendAll();
      return;
    }
    if (msg.type === 'queryResult' || msg.type === 'queryFailed') return;
    const latest = useAnalysis.getState().requestedVersion;
    if (msg.version !== latest) {
      if (msg.type !== 'started') {
        sentAt.delete(msg.version);
        sentStamps.delete(msg.version);
      }
      return;
    }
    switch (msg.type) {
      case 'started':
        useAnalysis.setState({ running: true, progress: null });
        break;
      case 'progress': {
        const { type: _type, version: _version, ...progress } = msg;
        useAnalysis.setState({ progress });
        break;
      }
      case 'result': {
        rememberProblemsOrder(msg.diagnostics, msg.order);
        const t0 = sentAt.get(msg.version) ?? performance.now();
        sentAt.clear();
        const analyzedStamps = sentStamps.get(msg.version) ?? null;
        sentStamps.clear();
        useAnalysis.setState({
          diagnostics: msg.diagnostics,
          resourceCount: msg.resourceCount,
          assumptions: msg.assumptions,
          skipped: msg.skipped,
          resultVersion: msg.version,
          running: false,
          canceled: false,
          failure: null,
          progress: null,
          lastRun: { ms: Math.round(performance.now() - t0), at: Date.now(), stats: msg.stats },
          analyzedStamps,
        });
        break;
      }
      case 'fixes': {
        const state = useAnalysis.getState();
        if (state.resultVersion !== msg.version) break;
        const diagnostics = state.diagnostics.slice();
        for (const [i, fixes] of msg.fixes) {
          const d = diagnostics[i];
          if (d) diagnostics[i] = { ...d, fixes };
        }
        carrySummary(state.diagnostics, diagnostics);
        useAnalysis.setState({ diagnostics });
        break;
      }
      case 'canceled':
        useAnalysis.setState({ running: false, canceled: true, progress: null });
        break;
      case 'failed':
        useAnalysis.setState({ running: false, failure: msg.message, progress: null });
        break;
    }
  }

  if (useWorkspace.getState().ready) schedule();

  return {
    flush,
    cancel() {
      const v = useAnalysis.getState().requestedVersion;
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      target.cancel(v);
    },
    resendAll,
    restartWorker() {
      if (!target.restart) return;
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      target.restart();
      useAnalysis.setState({ running: false, progress: null });
      resendAll();
    },
    onMessage,
    dispose() {
      if (timer) clearTimeout(timer);
      unsubEdits();
      unsubWs();
      unsubSettings();
    },
  };
}
