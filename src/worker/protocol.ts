// Typed messages between the UI thread and the analysis worker.
import type { Diagnostic, WorkspaceFile } from '../core/model/types.ts';
import type { AnalysisSettings } from '../core/analysis/settings.ts';
import type { SkippedAnalyzer } from '../core/analysis/skipped.ts';
import type { DerivedPodSummary } from '../core/workspace.ts';

export interface AnalysisStats {
  files: number;
  documents: number;
  resources: number;
  parseMs: number;
  analyzeMs: number;
  /** Documents re-parsed in this run (the rest came from the cache). */
  reparsedDocuments: number;
}

export type ToWorker =
  | {
      type: 'sync';
      /** Monotonic workspace version; a newer one supersedes a running analysis. */
      version: number;
      /** Files added or changed since the last sync (whole text). */
      changed: WorkspaceFile[];
      /** Paths removed since the last sync. */
      removed: string[];
      settings: AnalysisSettings;
    }
  | { type: 'cancel'; version: number };

export type FromWorker =
  | { type: 'started'; version: number }
  | {
      type: 'result';
      version: number;
      diagnostics: Diagnostic[];
      /** Resources analyzed (including assumed ones); the UI shows the count only. */
      resourceCount: number;
      /** Human-readable notes about assumed inputs (default mesh config, placeholders, …). */
      assumptions: string[];
      /** Analyzers skipped because the workspace holds no object of a kind they need. */
      skipped: SkippedAnalyzer[];
      /** Pods derived from controllers. */
      derivedPods: DerivedPodSummary[];
      stats: AnalysisStats;
    }
  /** Quick fixes for the diagnostics of a posted result (by index), computed after it. */
  | { type: 'fixes'; version: number; fixes: Array<[number, NonNullable<Diagnostic['fixes']>]> }
  | { type: 'canceled'; version: number }
  | { type: 'failed'; version: number; message: string };
