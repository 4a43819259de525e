// Centre pane: one tab per open file, the (lazy) Monaco editor, and notices for files
// that cannot be edited (binary, too large). Monaco loads after the first diagnostics (see
// state/firstResults.ts); until then a read-only placeholder shows the file's text.
import { lazy, Suspense } from 'react';
import { useRoving } from '../common/roving.ts';
import { useWorkspace } from '../../state/workspace.ts';
import { useAnalysis } from '../../state/analysis.ts';
import { diagnosticSummary } from '../../state/diagnosticSummary.ts';
import { LARGE_EDITOR_CHARS, MAX_EDITOR_BYTES, formatBytes } from '../../state/fileKind.ts';
import { MAX_MARKERS_PER_FILE } from './markerCap.ts';
import { useViews, VIEW_TITLES, type ViewId } from '../../state/views.ts';
import { ViewTab } from '../views/ViewTab.tsx';
import { TabShell } from './TabShell.tsx';
import { EditorPlaceholder } from './EditorPlaceholder.tsx';
import { useFirstResults } from '../../state/firstResults.ts';
import { deferredComponent, loadDeferredUi } from '../deferred.ts';

// Once the editor is on screen the whole page is: it also waits for the deferred UI.
const MonacoEditor = lazy(() => Promise.all([import('./MonacoEditor.tsx'), loadDeferredUi()]).then(([m]) => m));
const ViewPanel = deferredComponent('ViewPanel');

export function EditorArea() {
  const openTabs = useWorkspace((s) => s.openTabs);
  const active = useWorkspace((s) => s.active);
  const files = useWorkspace((s) => s.files);
  const ready = useWorkspace((s) => s.ready);
  const readOnly = useWorkspace((s) => s.readOnly);
  const activeFile = files.find((f) => f.path === active);
  const hasTextFile = files.some((f) => f.kind === 'text');
  // Arrow keys, Home and End move along the tabs (and open the file, as a click would).
  const strip = useRoving({ items: '[role="tab"]', orientation: 'horizontal', activateOnMove: true });
  const activeIndex = openTabs.indexOf(active ?? '');
  const views = useViews((s) => s.open);
  const activeView = useViews((s) => s.active);
  const split = useViews((s) => s.split);
  // A full-size view covers the editor (which stays mounted, keeping its models and undo).
  const viewCovers = activeView !== null && !split;
  const editorWanted = useFirstResults((s) => s.open);

  return (
    <div className="editor-area" data-pane="editor" aria-label="Editor" role="region">
      <div className="tabs" role="tablist" aria-label="Open files and views" data-testid="editor-tabs" ref={strip}>
        {openTabs.map((p, i) => (
          <Tab key={p} path={p} index={i} active={p === active && !viewCovers} />
        ))}
        {views.map((v, i) => (
          <ViewTab key={v} id={v} index={i} active={v === activeView} />
        ))}
      </div>
      <div className={`editor-split${split && activeView ? ' split' : ''}`} data-testid="editor-split">
        <div
          className="editor-body"
          role="tabpanel"
          id="editor-tabpanel"
          hidden={viewCovers}
          {...(activeIndex >= 0 ? { 'aria-labelledby': `editor-tab-${activeIndex}` } : { 'aria-label': 'Editor' })}
        >
          {hasTextFile &&
            (editorWanted ? (
              <Suspense fallback={<EditorPlaceholder />}>
                <MonacoEditor />
              </Suspense>
            ) : (
              <EditorPlaceholder />
            ))}
          {activeFile && activeFile.kind === 'text' && activeFile.bytes > LARGE_EDITOR_CHARS && !viewCovers && (
            <LargeFileNote path={activeFile.path} bytes={activeFile.bytes} opening={activeFile.text !== undefined && editorWanted} />
          )}
          {activeFile && activeFile.kind !== 'text' && (
            <div className="editor-overlay" data-testid="file-notice">
              <div className="file-notice">
                <h3>{activeFile.kind === 'binary' ? 'This file looks binary' : 'This file is too large to edit'}</h3>
                <p>
                  {activeFile.kind === 'binary'
                    ? `${activeFile.path} (${formatBytes(activeFile.bytes)}) contains NUL bytes or mostly non-text data, so it is not opened in the editor.`
                    : `${activeFile.path} is ${formatBytes(activeFile.bytes)}, over the editor's ${formatBytes(MAX_EDITOR_BYTES)} limit, so it is not opened in the editor.`}
                </p>
                <p>It stays in the workspace and is still analyzed; see the Problems panel. Delete it from the file list if it was added by mistake.</p>
              </div>
            </div>
          )}
          {ready && !activeFile && (
            <div className="editor-overlay">
              <div className="empty-state">
                <p>No file open.</p>
                {readOnly ? (
                  <p>Pick a file on the left.</p>
                ) : (
                  <p>
                    <button type="button" className="button primary" onClick={() => useWorkspace.getState().createUntitled()}>
                      New file
                    </button>{' '}
                    then paste Kubernetes / Istio YAML, or pick a file on the left.
                  </p>
                )}
              </div>
            </div>
          )}
        </div>
        {activeView && split && <div className="view-divider" aria-hidden="true" />}
        {views.map((v, i) => (
          <DeferredViewPanel key={v} id={v} index={i} shown={v === activeView} />
        ))}
      </div>
    </div>
  );
}

function Tab({ path, index, active }: { path: string; index: number; active: boolean }) {
  const errors = useAnalysis((s) => diagnosticSummary(s.diagnostics).byFile.get(path)?.Error ?? 0);
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (
    <TabShell
      id={`editor-tab-${index}`}
      active={active}
      controls="editor-tabpanel"
      title={path}
      closeTitle={`Close ${path} (Delete on the tab)`}
      testId="tab"
      closeTestId="tab-close"
      data={{ 'data-path': path }}
      onActivate={() => showFile(path)}
      onClose={() => useWorkspace.getState().closeTab(path)}
    >
      <span className={`tab-name${errors > 0 ? ' has-errors' : ''}`}>{name}</span>
      {errors > 0 && (
        <span className="visually-hidden">
          , {errors} error{errors === 1 ? '' : 's'}
        </span>
      )}
    </TabShell>
  );
}

/**
 * A view's panel: its code loads with the rest of the page after the first results (a view
 * left open at the last visit waits for them too; its worker queries would anyway).
 */
function DeferredViewPanel(props: { id: ViewId; index: number; shown: boolean }) {
  const open = useFirstResults((s) => s.open);
  const waiting = (
    <section className={`view-panel view-${props.id}`} hidden={!props.shown} aria-busy="true">
      <p className="muted view-loading">Loading {VIEW_TITLES[props.id]}…</p>
    </section>
  );
  return open ? (
    <Suspense fallback={waiting}>
      <ViewPanel {...props} />
    </Suspense>
  ) : (
    waiting
  );
}

/** A file tab chosen: the file shows (a full-size view steps aside). */
function showFile(path: string): void {
  useWorkspace.getState().setActive(path);
  useViews.getState().showFile();
}

/**
 * What large-file mode turns off, as VS Code says for its own: shown while a large file is the
 * active one (and while its model is still being built, "Opening…").
 */
function LargeFileNote({ path, bytes, opening }: { path: string; bytes: number; opening: boolean }) {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (
    <div className="large-file-note" role="status" data-testid="large-file-note">
      <strong>{opening ? `Opening ${name} (${formatBytes(bytes)})…` : `Large file (${formatBytes(bytes)})`}</strong> Highlighting, folding and suggestions are
      off for it, as in VS Code, and the editor marks at most {MAX_MARKERS_PER_FILE.toLocaleString('en-US')} of its problems; the Problems panel lists them all.
    </div>
  );
}
