/// <reference lib="webworker" />
// Web Worker entry: holds one WorkspaceAnalyzer and runs analyses off the UI thread.
// A newer `sync` supersedes a running analysis; updates that arrive while a run is in
// flight are buffered and applied once the run has returned (the analyzer is never
// mutated mid-run). Nothing here may throw out of the message handler: every failure
// is reported as `failed` and the analyzer is rebuilt from the worker's file mirror.
import { WorkspaceAnalyzer } from '../core/workspace.ts';
import type { Diagnostic } from '../core/model/types.ts';
import { defaultAnalysisSettings, type AnalysisSettings } from '../core/analysis/settings.ts';
import type { FromWorker, ToWorker } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

let analyzer = new WorkspaceAnalyzer();
/** Mirror of the workspace, so the analyzer can be rebuilt after a failure. */
const files = new Map<string, string>();
/** Changes not yet handed to the analyzer: text, or null for a removal. */
const pending = new Map<string, string | null>();
let needsFullReload = false;
let settings: AnalysisSettings = defaultAnalysisSettings();
let latestVersion = 0;
let cancelRequested = false;
let runRequested = false;
let looping = false;

function post(msg: FromWorker): void {
  self.postMessage(msg);
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

function applyPending(): void {
  if (needsFullReload) {
    analyzer = new WorkspaceAnalyzer();
    analyzer.update([...files].map(([path, text]) => ({ path, text })), []);
    needsFullReload = false;
    pending.clear();
    return;
  }
  if (pending.size === 0) return;
  const changed: { path: string; text: string }[] = [];
  const removed: string[] = [];
  for (const [path, text] of pending) {
    if (text === null) removed.push(path);
    else changed.push({ path, text });
  }
  pending.clear();
  analyzer.update(changed, removed);
}

async function loop(): Promise<void> {
  if (looping) return;
  looping = true;
  try {
    while (runRequested) {
      runRequested = false;
      const version = latestVersion;
      if (cancelRequested) {
        post({ type: 'canceled', version });
        continue;
      }
      try {
        applyPending();
        post({ type: 'started', version });
        const result = await analyzer.run(settings, {
          canceled: () => latestVersion !== version || cancelRequested,
          yieldEveryMs: 8,
        });
        if (result === 'canceled') {
          post({ type: 'canceled', version });
          continue;
        }
        if (latestVersion !== version) {
          // Finished, but a newer version is already queued: its result will follow.
          post({ type: 'canceled', version });
          continue;
        }
        post({
          type: 'result',
          version,
          diagnostics: result.diagnostics,
          resourceCount: result.resources.length,
          assumptions: result.assumptions,
          skipped: result.skipped,
          derivedPods: result.derivedPods,
          stats: result.stats,
        });
        // Fixes come second: diagnostics show at once, the lightbulbs a moment later.
        if (latestVersion === version && !runRequested) {
          analyzer.attachFixes(result.diagnostics);
          const fixes: Array<[number, NonNullable<Diagnostic['fixes']>]> = [];
          result.diagnostics.forEach((d, i) => {
            if (d.fixes) fixes.push([i, d.fixes]);
          });
          if (fixes.length > 0) post({ type: 'fixes', version, fixes });
        }
      } catch (e) {
        needsFullReload = true;
        post({ type: 'failed', version, message: errorText(e) });
      }
    }
  } finally {
    looping = false;
  }
}

function handle(msg: ToWorker): void {
  switch (msg.type) {
    case 'sync': {
      latestVersion = msg.version;
      cancelRequested = false;
      settings = msg.settings;
      for (const f of msg.changed) {
        files.set(f.path, f.text);
        pending.set(f.path, f.text);
      }
      for (const p of msg.removed) {
        files.delete(p);
        pending.set(p, null);
      }
      runRequested = true;
      void loop();
      break;
    }
    case 'cancel': {
      if (msg.version >= latestVersion) cancelRequested = true;
      break;
    }
  }
}

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  try {
    handle(ev.data);
  } catch (e) {
    needsFullReload = true;
    const version = typeof ev.data === 'object' && ev.data && 'version' in ev.data ? Number(ev.data.version) : latestVersion;
    post({ type: 'failed', version, message: errorText(e) });
  }
};
