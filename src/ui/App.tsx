import { useLayout } from '../state/layout.ts';
import { Splitter } from './layout/Splitter.tsx';
import { WorkspacePanel } from './workspace/WorkspacePanel.tsx';
import { DropZone } from './workspace/DropZone.tsx';
import { SamplesMenu } from './workspace/SamplesMenu.tsx';
import { EditorArea } from './editor/EditorArea.tsx';
import { ProblemsPanel } from './problems/ProblemsPanel.tsx';
import { StatusBar } from './statusbar/StatusBar.tsx';
import { Inspector } from './inspector/Inspector.tsx';
import { Notices } from './common/Notices.tsx';
import { WorkspaceSwitcher } from './workspaces/WorkspaceSwitcher.tsx';
import { ConflictBanner } from './workspaces/ConflictBanner.tsx';
import { ReviewBanner } from './share/ReviewBanner.tsx';
import { LinkErrorPage } from './share/LinkErrorPage.tsx';
import { ShareButtons, ShareLayer } from './share/ShareLayer.tsx';
import { useShareView } from '../state/shareOpen.ts';

export function App() {
  const { left, right, bottom, resize } = useLayout();
  const linkError = useShareView((s) => s.linkError);
  if (linkError) return <LinkErrorPage />;
  return (
    <div className="app" data-testid="app">
      <header className="titlebar">
        <div className="brand">
          <svg className="brand-logo" viewBox="0 0 32 32" aria-hidden="true">
            <path d="M16 3 4 27h24z" fill="currentColor" />
            <path d="M16 10 10 23h12z" fill="var(--bg-titlebar)" />
          </svg>
          <span className="brand-name">Mesh Workbench</span>
          <span className="brand-sub">Istio configuration diagnostics, in your browser</span>
        </div>
        <div className="titlebar-actions">
          <WorkspaceSwitcher />
          <ShareButtons />
          <SamplesMenu />
        </div>
      </header>
      <div className="main" style={{ gridTemplateColumns: `${left}px 4px minmax(200px, 1fr) 4px ${right}px` }}>
        <aside className="pane pane-left" aria-label="Workspace">
          <WorkspacePanel />
        </aside>
        <Splitter orientation="col" direction={1} size={left} onResize={(v) => resize('left', v)} label="Resize workspace panel" testId="splitter-left" />
        <section className="pane pane-center" style={{ gridTemplateRows: `auto minmax(80px, 1fr) 4px ${bottom}px` }}>
          <div className="pane-notices">
            <ReviewBanner />
            <ConflictBanner />
            <Notices />
          </div>
          <EditorArea />
          <Splitter orientation="row" direction={-1} size={bottom} onResize={(v) => resize('bottom', v)} label="Resize problems panel" testId="splitter-bottom" />
          <ProblemsPanel />
        </section>
        <Splitter orientation="col" direction={-1} size={right} onResize={(v) => resize('right', v)} label="Resize inspector" testId="splitter-right" />
        <aside className="pane pane-right" aria-label="Inspector">
          <Inspector />
        </aside>
      </div>
      <StatusBar />
      <DropZone />
      <ShareLayer />
    </div>
  );
}
