// Typed messages between the UI thread and the analysis worker.
import type { Diagnostic, WorkspaceFile } from '../core/document/types.ts';
import type { AnalysisSettings } from '../core/analysis/settings.ts';
import type { SkippedAnalyzer } from '../core/analysis/skipped.ts';
import type { QueryArgs, QueryView } from '../core/queries/views.ts';
import type { TextChange } from './textChanges.ts';
import type { RunProgress } from '../core/workspace.ts';
import type { FileLimit } from '../core/document/inputLimits.ts';

export type { TextChange } from './textChanges.ts';

export interface AnalysisStats {
  files: number;
  documents: number;
  resources: number;
  parseMs: number;
  analyzeMs: number;
  /** Documents re-parsed in this run (the rest came from the cache). */
  reparsedDocuments: number;
}

/** A file whose text came in `pieces` textPiece messages (see ToWorker). */
export interface PiecedFile {
  path: string;
  pieces: number;
}

/** Editor changes to one file since the last sync, applied in order to the worker's copy. */
export interface FileEdits {
  path: string;
  changes: TextChange[];
  /** The file's length (UTF-16 units) after the changes: a check that both copies agree. */
  length: number;
}

/** Where a run is: reading the files' documents (characters), building the mesh model, running analyzers. */
export type Progress = { step: 'parse'; done: number; total: number } | RunProgress;

/** A typed request for one query view. */
export type QueryRequest = { [V in QueryView]: { view: V; args: QueryArgs<V> } }[QueryView];

export type ToWorker =
  | {
      type: 'sync';
      /** Monotonic workspace version; a newer one supersedes a running analysis. */
      version: number;
      /**
       * The whole workspace follows in `changed`: drop every file the worker holds first (after
       * a worker restart, or when the worker asked for it with `resync`).
       */
      full?: boolean;
      /**
       * Files added, or replaced from outside the editor, since the last sync: the whole text,
       * or, for a large one, how many `textPiece` messages just before this one carried it.
       */
      changed: Array<WorkspaceFile | PiecedFile>;
      /** Files edited in the editor since the last sync: their content changes. */
      edits: FileEdits[];
      /** Paths removed since the last sync. */
      removed: string[];
      settings: AnalysisSettings;
      /** The longest file this tab analyzes (from its heap); the worker's default until one comes. */
      fileLimit?: FileLimit;
    }
  /**
   * A piece of a large file's text, ahead of the sync that names the file (`first` starts it).
   * A 60 MB string posted at once is copied in one long task on the page's thread.
   */
  | { type: 'textPiece'; path: string; piece: string; first: boolean }
  | { type: 'cancel'; version: number }
  /**
   * The page has painted its first results (or gave up waiting for them): the worker may now
   * import what later runs and queries need, without competing with the first diagnostics.
   */
  | { type: 'warm' }
  /**
   * `known`: the page still holds its last answer to this view and args, so the worker may
   * answer `unchanged` instead of sending an equal result again.
   */
  | ({ type: 'query'; id: number; known?: boolean } & QueryRequest);

export type FromWorker =
  | { type: 'started'; version: number }
  /** A long run's progress (a large file's), at most every 100 ms. */
  | ({ type: 'progress'; version: number } & Progress)
  | {
      type: 'result';
      version: number;
      /**
       * The diagnostics. The worker may instead send `reuse`: most of a large result is the
       * previous result's diagnostics, which the page already holds; the client rebuilds
       * `diagnostics` from it before anything else sees the message.
       */
      diagnostics: Diagnostic[];
      reuse?: DiagnosticsReuse;
      /** Resources analyzed (including assumed ones); the UI shows the count only. */
      resourceCount: number;
      /** Human-readable notes about assumed inputs (default mesh config, placeholders, …). */
      assumptions: string[];
      /** Analyzers skipped because the workspace holds no object of a kind they need. */
      skipped: SkippedAnalyzer[];
      stats: AnalysisStats;
      /**
       * This many `resultPart` messages of the same version came first: their diagnostics, in
       * order, go before `diagnostics` (or before `reuse.added`).
       */
      parts?: number;
      /** The diagnostics' indices in the Problems panel's order (core/document/problemsOrder.ts), for a large result. */
      order?: Int32Array;
    }
  /** Diagnostics of a large result, ahead of its `result` message (see `parts`). */
  | { type: 'resultPart'; version: number; diagnostics: Diagnostic[] }
  /** Quick fixes for the diagnostics of a posted result (by index), computed after it. */
  | { type: 'fixes'; version: number; fixes: Array<[number, NonNullable<Diagnostic['fixes']>]> }
  | { type: 'canceled'; version: number }
  | { type: 'failed'; version: number; message: string }
  /** The worker's copy of the texts no longer matches the page's: send every file whole (`full`). */
  | { type: 'resync'; message: string }
  /** The answer to query `id`, from the analysis of `version`. */
  /** `unchanged`: the result equals the last one sent for the same view and args (not sent again). */
  | { type: 'queryResult'; id: number; version: number; result: unknown; unchanged?: true }
  | { type: 'queryFailed'; id: number; message: string };

/**
 * A result's diagnostics as references into the previous result the worker posted: `refs[i]`
 * is the index of diagnostic i there, or -1 for the next one of `added`.
 */
export interface DiagnosticsReuse {
  refs: Int32Array;
  added: Diagnostic[];
}
