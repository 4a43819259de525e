// window.__meshWorkbench: a small debug hook for tests and curious users.
import { useWorkspace } from '../state/workspace.ts';
import { useAnalysis, useEditorUi } from '../state/analysis.ts';
import { query } from '../state/queries.ts';
import { useFirstResults } from '../state/firstResults.ts';

export interface EditorDebug {
  /** 1-based cursor position in the active editor. */
  position(): { line: number; col: number } | null;
  /** Markers set on a file's model (default: the active file). */
  markers(path?: string): { line: number; col: number; endLine: number; endCol: number; severity: string; message: string }[];
  /** Text of a file's model. */
  value(path?: string): string | null;
}

export interface MeshWorkbenchDebug {
  workspace: typeof useWorkspace.getState;
  analysis: typeof useAnalysis.getState;
  editorUi: typeof useEditorUi.getState;
  /** Ask the analysis worker a typed query (see src/core/queries). */
  query: typeof query;
  /** Whether the editor and side panes may load yet, and why (state/firstResults.ts). */
  firstResults: typeof useFirstResults.getState;
  editor?: EditorDebug;
}

declare global {
  interface Window {
    __meshWorkbench?: MeshWorkbenchDebug;
  }
}

/**
 * Named readiness signals on <html>, for tests and tools that must wait for the app rather than
 * for a fixed time: `data-analysis` is `ready` once the first result (or a failure) arrived,
 * `data-editor` is `ready` while Monaco is mounted.
 */
function markAnalysisReadiness(): void {
  const mark = () => {
    const s = useAnalysis.getState();
    if (s.resultVersion > 0 || s.failure !== null) {
      document.documentElement.dataset.analysis = 'ready';
      return true;
    }
    return false;
  };
  if (mark()) return;
  const unsub = useAnalysis.subscribe(() => {
    if (mark()) unsub();
  });
}

export function installDebugHook(): void {
  markAnalysisReadiness();
  window.__meshWorkbench = {
    workspace: useWorkspace.getState,
    analysis: useAnalysis.getState,
    editorUi: useEditorUi.getState,
    query,
    firstResults: useFirstResults.getState,
  };
}

export function registerEditorDebug(d: EditorDebug | undefined): void {
  if (window.__meshWorkbench) window.__meshWorkbench.editor = d;
  if (d) document.documentElement.dataset.editor = 'ready';
  else delete document.documentElement.dataset.editor;
}
