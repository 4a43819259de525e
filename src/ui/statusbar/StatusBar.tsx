// Bottom status bar: counts by level, run state (with Cancel), cursor position, last run.
import { useEffect, useState } from 'react';
import type { Level } from '../../core/document/types.ts';
import { diagnosticSummary } from '../../state/diagnosticSummary.ts';
import { useAnalysis, useEditorUi } from '../../state/analysis.ts';
import { useWorkspace } from '../../state/workspace.ts';
import { LevelIcon } from '../common/LevelIcon.tsx';
import { getEngine } from '../engine.ts';
import { useUi } from '../../state/ui.ts';

const SHOW_RUNNING_AFTER_MS = 150;

function useDelayed(flag: boolean, ms: number): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!flag) {
      setShown(false);
      return;
    }
    const t = setTimeout(() => setShown(true), ms);
    return () => clearTimeout(t);
  }, [flag, ms]);
  return shown;
}

export function StatusBar() {
  const diagnostics = useAnalysis((s) => s.diagnostics);
  const running = useAnalysis((s) => s.running);
  const canceled = useAnalysis((s) => s.canceled);
  const failure = useAnalysis((s) => s.failure);
  const lastRun = useAnalysis((s) => s.lastRun);
  const resources = useAnalysis((s) => s.resourceCount);
  const cursor = useEditorUi((s) => s.cursor);
  const active = useWorkspace((s) => s.active);
  const fileCount = useWorkspace((s) => s.files.length);
  const showRunning = useDelayed(running, SHOW_RUNNING_AFTER_MS);
  const tabFocusMode = useUi((s) => s.tabFocusMode);

  const counts = diagnosticSummary(diagnostics).levels;

  return (
    <footer className="statusbar" data-testid="statusbar" role="contentinfo" aria-label="Status">
      <div className="status-left">
        <span
          className="status-counts"
          data-testid="status-counts"
          role="img"
          aria-label={`${counts.Error} errors, ${counts.Warning} warnings, ${counts.Info} info`}
        >
          {(['Error', 'Warning', 'Info'] as Level[]).map((l) => (
            <span key={l} className="status-count" data-testid={`status-${l.toLowerCase()}`}>
              <LevelIcon level={l} /> {counts[l]}
            </span>
          ))}
        </span>
        {showRunning ? (
          <span className="status-running" data-testid="status-running">
            <span className="spinner" aria-hidden="true" /> Analyzing…
            <button type="button" className="status-button" data-testid="cancel-analysis" onClick={() => getEngine()?.cancel()}>
              Cancel
            </button>
          </span>
        ) : failure ? (
          <span className="status-failure" role="alert" data-testid="status-failure" title={failure}>
            Analysis failed: {failure}
          </span>
        ) : canceled ? (
          <span className="status-note" data-testid="status-canceled">
            Analysis canceled; results may be out of date.
            <button type="button" className="status-button" onClick={() => getEngine()?.resendAll()}>
              Re-run
            </button>
          </span>
        ) : null}
      </div>
      <div className="status-right">
        {tabFocusMode && (
          <button
            type="button"
            className="status-button"
            data-testid="tab-focus-mode"
            title="Tab moves focus out of the editor instead of indenting. Ctrl+M switches back."
            onClick={() => useUi.getState().setTabFocusMode(false)}
          >
            Tab moves focus
          </button>
        )}
        {active && cursor && (
          <span className="status-item" data-testid="cursor-position">
            Ln {cursor.line}, Col {cursor.col}
          </span>
        )}
        <span className="status-item">
          {fileCount} file{fileCount === 1 ? '' : 's'} · {resources} resource{resources === 1 ? '' : 's'}
        </span>
        {lastRun && (
          <span
            className="status-item"
            data-testid="last-analysis"
            title={`Parse ${lastRun.stats.parseMs.toFixed(1)} ms, analyze ${lastRun.stats.analyzeMs.toFixed(1)} ms, ${lastRun.stats.reparsedDocuments} document(s) re-parsed`}
          >
            Analyzed in {lastRun.ms} ms at {new Date(lastRun.at).toLocaleTimeString()}
          </span>
        )}
      </div>
    </footer>
  );
}
