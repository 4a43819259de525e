// Keeps the analysis worker in step with the workspace: edits are debounced (120 ms),
// only changed files are sent, and each sync carries a new version so the worker can
// drop a superseded run. Results for older versions are ignored.
import type { WorkspaceFile } from '../core/model/types.ts';
import type { FromWorker } from '../worker/protocol.ts';
import { useWorkspace } from './workspace.ts';
import { toAnalysisSettings, useAnalysis } from './analysis.ts';

export const SYNC_DEBOUNCE_MS = 120;

export interface SyncTarget {
  sync(version: number, changed: WorkspaceFile[], removed: string[], settings: ReturnType<typeof toAnalysisSettings>): void;
  cancel(version: number): void;
}

export interface SyncEngine {
  /** Send pending changes now (skipping the debounce). */
  flush(): void;
  /** Ask the worker to stop the running analysis. */
  cancel(): void;
  /** Forget what the worker has and send everything again (after a worker restart). */
  resendAll(): void;
  onMessage(msg: FromWorker): void;
  dispose(): void;
}

export function startSync(target: SyncTarget): SyncEngine {
  let lastSent = new Map<string, string>();
  let lastSettings = '';
  let timer: ReturnType<typeof setTimeout> | null = null;
  let version = 0;
  const sentAt = new Map<number, number>();
  /** The workspace texts each version was computed from (shared strings, not copies). */
  const sentTexts = new Map<number, Map<string, string>>();

  function flush(): void {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    const ws = useWorkspace.getState();
    if (!ws.ready) return;
    const settings = toAnalysisSettings(useAnalysis.getState().settings);
    const settingsKey = JSON.stringify(settings);
    const changed: WorkspaceFile[] = [];
    const current = new Map<string, string>();
    for (const f of ws.files) {
      current.set(f.path, f.text);
      if (lastSent.get(f.path) !== f.text) changed.push({ path: f.path, text: f.text });
    }
    const removed: string[] = [];
    for (const p of lastSent.keys()) if (!current.has(p)) removed.push(p);
    if (version > 0 && changed.length === 0 && removed.length === 0 && settingsKey === lastSettings) return;
    lastSent = current;
    lastSettings = settingsKey;
    version++;
    sentAt.set(version, performance.now());
    sentTexts.set(version, current);
    useAnalysis.setState({ requestedVersion: version, running: true, canceled: false });
    target.sync(version, changed, removed, settings);
  }

  function schedule(): void {
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, SYNC_DEBOUNCE_MS);
  }

  const unsubWs = useWorkspace.subscribe((s, prev) => {
    if (s.files !== prev.files || s.ready !== prev.ready) schedule();
  });
  const unsubSettings = useAnalysis.subscribe((s, prev) => {
    if (s.settings !== prev.settings) flush();
  });

  function onMessage(msg: FromWorker): void {
    const latest = useAnalysis.getState().requestedVersion;
    if (msg.version !== latest) {
      if (msg.type !== 'started') {
        sentAt.delete(msg.version);
        sentTexts.delete(msg.version);
      }
      return;
    }
    switch (msg.type) {
      case 'started':
        useAnalysis.setState({ running: true });
        break;
      case 'result': {
        const t0 = sentAt.get(msg.version) ?? performance.now();
        sentAt.clear();
        const analyzedTexts = sentTexts.get(msg.version) ?? null;
        sentTexts.clear();
        useAnalysis.setState({
          diagnostics: msg.diagnostics,
          resourceCount: msg.resourceCount,
          assumptions: msg.assumptions,
          skipped: msg.skipped,
          derivedPods: msg.derivedPods,
          resultVersion: msg.version,
          running: false,
          canceled: false,
          failure: null,
          lastRun: { ms: Math.round(performance.now() - t0), at: Date.now(), stats: msg.stats },
          analyzedTexts,
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
        useAnalysis.setState({ diagnostics });
        break;
      }
      case 'canceled':
        useAnalysis.setState({ running: false, canceled: true });
        break;
      case 'failed':
        useAnalysis.setState({ running: false, failure: msg.message });
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
    resendAll() {
      lastSent = new Map();
      lastSettings = '';
      flush();
    },
    onMessage,
    dispose() {
      if (timer) clearTimeout(timer);
      unsubWs();
      unsubSettings();
    },
  };
}
