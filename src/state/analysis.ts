// Analysis store: the latest result from the worker, run state, settings and filters.
import { create } from 'zustand';
import type { Diagnostic, Level, SourceRange } from '../core/document/types.ts';
import { defaultAnalysisSettings, type AnalysisSettings } from '../core/analysis/settings.ts';
import type { AnalysisStats, Progress } from '../worker/protocol.ts';
import type { SkippedAnalyzer } from '../core/analysis/skipped.ts';
import { refuseWhenReadOnly } from './workspace.ts';

export interface UserSettings {
  includePlaceholders: boolean;
  suppressions: string[];
  /** Analyze as istioctl analyze --use-kube=false does (AnalysisSettings.mode 'istioctl'). */
  istioctlMode: boolean;
  /** Run the Kiali pack (KIA codes) beside Istio's analyzers; never in istioctl mode. */
  kialiPack: boolean;
}

export interface ProblemFilters {
  levels: Record<Level, boolean>;
  /** Exact code (`IST0101`), or empty for all. */
  code: string;
  text: string;
}

export interface LastRun {
  /** Wall-clock ms from sending the sync to the result. */
  ms: number;
  at: number;
  stats: AnalysisStats;
}

export interface AnalysisState {
  diagnostics: Diagnostic[];
  resourceCount: number;
  assumptions: string[];
  skipped: SkippedAnalyzer[];
  /** Version of the most recent sync sent to the worker. */
  requestedVersion: number;
  /** Version the diagnostics belong to (0: none yet). */
  resultVersion: number;
  running: boolean;
  /** The latest run was canceled by the user; the results shown are stale. */
  canceled: boolean;
  failure: string | null;
  /** Where the running analysis is, when it has said (long runs: a large file's). */
  progress: Progress | null;
  lastRun: LastRun | null;
  settings: UserSettings;
  filters: ProblemFilters;
  /**
   * A stamp of each file's text as the current diagnostics saw it (see textStamp): quick fix
   * edits refer to that text, so a fix is applied only while the stamp is unchanged.
   */
  analyzedStamps: ReadonlyMap<string, string> | null;

  /** Changes the analysis settings (suppression rules, assumed inputs); refused while a shared link is open read-only. */
  setSettings(patch: Partial<UserSettings>): void;
  setFilters(patch: Partial<ProblemFilters>): void;
  toggleLevel(level: Level): void;
}

export const defaultUserSettings = (): UserSettings => ({ includePlaceholders: true, suppressions: [], istioctlMode: false, kialiPack: true });

export const useAnalysis = create<AnalysisState>()((set) => ({
  diagnostics: [],
  resourceCount: 0,
  assumptions: [],
  skipped: [],
  requestedVersion: 0,
  resultVersion: 0,
  running: false,
  canceled: false,
  failure: null,
  progress: null,
  lastRun: null,
  settings: defaultUserSettings(),
  filters: { levels: { Error: true, Warning: true, Info: true }, code: '', text: '' },
  analyzedStamps: null,

  setSettings(patch) {
    // A shared link carries its settings: the reader sees the diagnostics it was shared with.
    if (refuseWhenReadOnly()) return;
    set((s) => ({ settings: { ...s.settings, ...patch } }));
  },
  setFilters(patch) {
    set((s) => ({ filters: { ...s.filters, ...patch } }));
  },
  toggleLevel(level) {
    set((s) => ({ filters: { ...s.filters, levels: { ...s.filters.levels, [level]: !s.filters.levels[level] } } }));
  },
}));

export function toAnalysisSettings(u: UserSettings): AnalysisSettings {
  const base = {
    ...defaultAnalysisSettings(),
    includePlaceholders: u.includePlaceholders,
    suppressions: [...u.suppressions],
    kiali: u.kialiPack && !u.istioctlMode,
  };
  // istioctl never reports what only the API server refuses.
  return u.istioctlMode ? { ...base, mode: 'istioctl', schemaFindings: false } : base;
}

export function filterDiagnostics(list: readonly Diagnostic[], f: ProblemFilters): Diagnostic[] {
  const text = f.text.trim().toLowerCase();
  return list.filter((d) => {
    if (!f.levels[d.level]) return false;
    if (f.code && d.code !== f.code) return false;
    if (text) {
      const hay = `${d.code} ${d.message} ${d.origin ?? ''} ${d.file ?? ''}:${d.line ?? ''}`.toLowerCase();
      if (!hay.includes(text)) return false;
    }
    return true;
  });
}

export interface RevealRequest {
  path: string;
  range?: SourceRange;
  line?: number;
  seq: number;
  /** Move focus to the editor (default); false only shows the place (e.g. on the first visit). */
  focus?: boolean;
}

export interface EditorUiState {
  reveal: RevealRequest | null;
  cursor: { line: number; col: number } | null;
  requestReveal(path: string, range?: SourceRange, line?: number, opts?: { focus?: boolean }): void;
  setCursor(c: { line: number; col: number } | null): void;
}

let revealSeq = 0;

export const useEditorUi = create<EditorUiState>()((set) => ({
  reveal: null,
  cursor: null,
  requestReveal(path, range, line, opts) {
    set({ reveal: { path, range, line, seq: ++revealSeq, ...(opts?.focus === false ? { focus: false } : {}) } });
  },
  setCursor(cursor) {
    set({ cursor });
  },
}));
