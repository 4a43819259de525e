import { lazy, Suspense, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { useLayout } from '../state/layout.ts';
import { useUi, type DrawerPane } from '../state/ui.ts';
import { useTitle } from '../state/title.ts';
import { useWorkspace } from '../state/workspace.ts';
import { Splitter } from './layout/Splitter.tsx';
import { WorkspacePanel } from './workspace/WorkspacePanel.tsx';
import { DropZone } from './workspace/DropZone.tsx';
import { LoadProgress } from './workspace/LoadProgress.tsx';
import { EditorArea } from './editor/EditorArea.tsx';
import { ProblemsPanel } from './problems/ProblemsPanel.tsx';
import { StatusBar } from './statusbar/StatusBar.tsx';
import { Notices } from './common/Notices.tsx';
import { ConflictBanner } from './workspaces/ConflictBanner.tsx';
import { ShareButtons, ShareLayer } from './share/ShareLayer.tsx';
import { useShareView } from '../state/shareOpen.ts';
import { firstTabbable } from './focus.ts';
import { useFirstResults } from '../state/firstResults.ts';
import { deferredComponent } from './deferred.ts';

// What the first diagnostics do not need loads after them (state/firstResults.ts): the
// inspector (its worker queries wait for the first analysis anyway), the titlebar menus and
// the palette's window. Keys and commands stay in this chunk, so a key pressed early works,
// and so does the file list, which is on screen (and used) from the start.
const Inspector = deferredComponent('Inspector');
const WorkspaceSwitcher = deferredComponent('WorkspaceSwitcher');
const SamplesMenu = deferredComponent('SamplesMenu');
const CommandPalette = deferredComponent('CommandPalette');
// Only for a shared link.
const ReviewBanner = lazy(() => import('./share/ReviewBanner.tsx').then((m) => ({ default: m.ReviewBanner })));
const LinkErrorPage = lazy(() => import('./share/LinkErrorPage.tsx').then((m) => ({ default: m.LinkErrorPage })));

/** Below this window width the side panes fold to icon rails that open as drawers. */
export const NARROW_BREAKPOINT = 1100;
/** Where the README explains what stays in the browser (dist/readme.html, built from README.md). */
export const PRIVACY_URL = 'readme.html#sharing-and-privacy';

function subscribeResize(cb: () => void): () => void {
  window.addEventListener('resize', cb);
  return () => window.removeEventListener('resize', cb);
}

function useNarrow(): boolean {
  return useSyncExternalStore(
    subscribeResize,
    () => window.innerWidth < NARROW_BREAKPOINT,
    () => false,
  );
}

export function App() {
  const { left, right, bottom, resize } = useLayout();
  const narrow = useNarrow();
  const drawer = useUi((s) => s.drawer);
  const name = useTitle((s) => s.name);

  useEffect(() => {
    document.title = `${name} · Mesh Workbench`;
  }, [name]);
  // Wide again: no drawer.
  useEffect(() => {
    if (!narrow && drawer) useUi.getState().setDrawer(null);
  }, [narrow, drawer]);

  const linkError = useShareView((s) => s.linkError);
  const inReview = useShareView((s) => s.review !== null);
  const columns = narrow ? 'var(--rail) minmax(0, 1fr) var(--rail)' : `${left}px 4px minmax(200px, 1fr) 4px ${right}px`;
  if (linkError)
    return (
      <Suspense fallback={null}>
        <LinkErrorPage />
      </Suspense>
    );
  return (
    <div className={`app${narrow ? ' narrow' : ''}`} data-testid="app">
      <header className="titlebar">
        <div className="brand">
          <svg className="brand-logo" viewBox="0 0 32 32" aria-hidden="true">
            <path d="M16 3 4 27h24z" fill="currentColor" />
            <path d="M16 10 10 23h12z" fill="var(--bg-titlebar)" />
          </svg>
          <h1 className="brand-name">Mesh Workbench</h1>
          <span className="brand-sep" aria-hidden="true">
            ·
          </span>
          <span className="workspace-name" data-testid="workspace-title" title="The loaded workspace">
            {name}
          </span>
        </div>
        <div className="titlebar-actions">
          <p className="privacy-note" data-testid="privacy-note">
            <svg viewBox="0 0 16 16" aria-hidden="true" className="privacy-icon">
              <path d="M4.5 7V5a3.5 3.5 0 0 1 7 0v2M3.5 7h9v6.5h-9z" fill="none" stroke="currentColor" strokeWidth="1.3" />
            </svg>
            <span>Nothing leaves your browser.</span>{' '}
            <a href={PRIVACY_URL} target="_blank" rel="noopener">
              Privacy
            </a>
          </p>
          <button
            type="button"
            className="button"
            data-testid="palette-button"
            title="Command palette (F1 or Ctrl+Shift+P)"
            onClick={() => useUi.getState().openPalette('commands')}
          >
            Commands
          </button>
          <AfterFirstResults>
            <WorkspaceSwitcher />
          </AfterFirstResults>
          <ShareButtons />
          <AfterFirstResults>
            <SamplesMenu />
          </AfterFirstResults>
        </div>
      </header>
      <div className="main" style={{ gridTemplateColumns: columns }}>
        <SidePane id="workspace" label="Workspace" narrow={narrow} icon={FILES_ICON}>
          <WorkspacePanel />
        </SidePane>
        {!narrow && (
          <Splitter orientation="col" direction={1} size={left} onResize={(v) => resize('left', v)} label="Resize workspace panel" testId="splitter-left" />
        )}
        <main className="pane pane-center" style={{ gridTemplateRows: `auto minmax(80px, 1fr) 4px ${bottom}px` }}>
          <div className="pane-notices">
            {inReview && (
              <Suspense fallback={null}>
                <ReviewBanner />
              </Suspense>
            )}
            <ConflictBanner />
            <LoadProgress />
            <Notices />
          </div>
          <EditorArea />
          <Splitter
            orientation="row"
            direction={-1}
            size={bottom}
            onResize={(v) => resize('bottom', v)}
            label="Resize problems panel"
            testId="splitter-bottom"
          />
          <ProblemsPanel />
        </main>
        {!narrow && (
          <Splitter orientation="col" direction={-1} size={right} onResize={(v) => resize('right', v)} label="Resize inspector" testId="splitter-right" />
        )}
        <SidePane id="inspector" label="Inspector" narrow={narrow} icon={INSPECTOR_ICON}>
          <DeferredInspector />
        </SidePane>
      </div>
      <StatusBar />
      <DropZone />
      <DeferredPalette />
      <ShareLayer />
    </div>
  );
}

/** Renders its children once the first results are in (their code loads then). */
function AfterFirstResults({ children, waiting = null }: { children: ReactNode; waiting?: ReactNode }) {
  const open = useFirstResults((s) => s.open);
  return open ? <Suspense fallback={waiting}>{children}</Suspense> : waiting;
}

function DeferredInspector() {
  return (
    <AfterFirstResults waiting={<div className="panel inspector" data-testid="inspector-loading" aria-busy="true" />}>
      <Inspector />
    </AfterFirstResults>
  );
}

/** The palette's window: after the first results, or at once when a key opens it earlier. */
function DeferredPalette() {
  const open = useFirstResults((s) => s.open);
  const asked = useUi((s) => s.palette !== null);
  if (!open && !asked) return null;
  return (
    <Suspense fallback={null}>
      <CommandPalette />
    </Suspense>
  );
}

const FILES_ICON = (
  <svg viewBox="0 0 16 16" aria-hidden="true">
    <path d="M9.5 1.5H4a1 1 0 0 0-1 1v11a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V5zM9.5 1.5V5H13" fill="none" stroke="currentColor" strokeWidth="1.2" />
  </svg>
);
const INSPECTOR_ICON = (
  <svg viewBox="0 0 16 16" aria-hidden="true">
    <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.3" />
    <path d="m10.5 10.5 3.5 3.5" stroke="currentColor" strokeWidth="1.3" />
  </svg>
);

/**
 * A side pane: the panel itself in a wide window; in a narrow one an icon rail whose button
 * opens the panel as a drawer over the editor (Escape or the button closes it).
 */
function SidePane({ id, label, narrow, icon, children }: { id: DrawerPane; label: string; narrow: boolean; icon: ReactNode; children: ReactNode }) {
  const open = useUi((s) => s.drawer === id);
  const toggle = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLDivElement>(null);
  const side = id === 'workspace' ? 'left' : 'right';
  const active = useWorkspace((s) => s.active);

  // Opening a file from the Workspace drawer shows it: the drawer steps aside.
  const firstActive = useRef(active);
  useEffect(() => {
    if (firstActive.current === active) return;
    firstActive.current = active;
    if (narrow && id === 'workspace' && open) useUi.getState().setDrawer(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active]);

  useEffect(() => {
    if (!narrow || !open) return;
    // Focus moves into the drawer when it opens (unless something in it already has it).
    const d = drawer.current;
    if (d && !d.contains(document.activeElement)) {
      const preferred = d.querySelector('[data-pane-focus]');
      ((preferred && firstTabbable(preferred)) || firstTabbable(d))?.focus();
    }
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (drawer.current?.contains(t) || toggle.current?.contains(t) || (t as HTMLElement).closest?.('[data-transient-focus], .row-menu')) return;
      useUi.getState().setDrawer(null);
    };
    document.addEventListener('mousedown', onDown, true);
    return () => document.removeEventListener('mousedown', onDown, true);
  }, [narrow, open]);

  return (
    <aside
      className={`pane pane-${side}${narrow ? ' collapsed' : ''}${narrow && open ? ' drawer-open' : ''}`}
      aria-label={label}
      data-pane={id}
      data-testid={`pane-${id}`}
      onKeyDown={(e) => {
        if (narrow && open && e.key === 'Escape' && !e.defaultPrevented) {
          e.preventDefault();
          useUi.getState().setDrawer(null);
          toggle.current?.focus();
        }
      }}
    >
      {narrow && (
        <div className="rail">
          <button
            ref={toggle}
            type="button"
            className="rail-button"
            aria-expanded={open}
            aria-controls={`drawer-${id}`}
            aria-label={`${label}${open ? ' (close)' : ''}`}
            title={label}
            data-testid={`rail-${id}`}
            onClick={() => useUi.getState().setDrawer(open ? null : id)}
          >
            {icon}
          </button>
        </div>
      )}
      <div ref={drawer} id={`drawer-${id}`} className="pane-content" hidden={narrow && !open}>
        {children}
      </div>
    </aside>
  );
}
