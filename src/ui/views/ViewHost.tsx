// The capability views in the main area: a tab per open view beside the file tabs, and the
// view itself over the editor or split beside it. Each view keeps its own state in its store,
// so showing, hiding or splitting it never loses a selection.
import { lazy, Suspense, type ReactNode } from 'react';
import { useViews, VIEW_TITLES, type ViewId } from '../../state/views.ts';
import { TabShell } from '../editor/TabShell.tsx';
import { ProxyConfigView } from '../proxyconfig/ProxyConfigView.tsx';
import { DataPlaneView } from '../dataplane/DataPlaneView.tsx';
import { CertificatesView } from '../certs/CertificatesView.tsx';

const ReviewView = lazy(() => import('../review/ReviewView.tsx'));

function body(id: ViewId): ReactNode {
  switch (id) {
    case 'proxy':
      return <ProxyConfigView />;
    case 'dataplane':
      return <DataPlaneView />;
    case 'certs':
      return <CertificatesView />;
    case 'review':
      return (
        <Suspense fallback={<p className="muted view-loading">Loading the review…</p>}>
          <ReviewView />
        </Suspense>
      );
  }
}

/**
 * An open view's panel (the editor area places it over the editor or beside it). Every open
 * view stays mounted, hidden when another shows, so its state (a form, an open row) survives.
 */
export function ViewPanel({ id, index, shown }: { id: ViewId; index: number; shown: boolean }) {
  const split = useViews((s) => s.split);
  return (
    <section
      className={`view-panel view-${id}${split ? ' view-split' : ''}`}
      role="tabpanel"
      id={`view-tabpanel-${id}`}
      aria-labelledby={`view-tab-${index}`}
      data-testid={`view-${id}`}
      hidden={!shown}
    >
      <div className="view-toolbar">
        <h2 className="view-title">{VIEW_TITLES[id]}</h2>
        <button
          type="button"
          className="button view-split-button"
          data-testid="view-split"
          aria-pressed={split}
          title={split ? 'Show the view over the editor' : 'Show the view beside the active file'}
          onClick={() => useViews.getState().setSplit(!split)}
        >
          {split ? 'Full width' : 'Split beside the file'}
        </button>
        <button type="button" className="icon-button" aria-label={`Close ${VIEW_TITLES[id]}`} title={`Close ${VIEW_TITLES[id]}`} data-testid="view-close" onClick={() => useViews.getState().closeView(id)}>
          ×
        </button>
      </div>
      <div className="view-content">{body(id)}</div>
    </section>
  );
}

/** A view's tab in the editor's tab strip (Delete or the × closes it, as with a file). */
export function ViewTab({ id, index, active }: { id: ViewId; index: number; active: boolean }) {
  return (
    <TabShell
      id={`view-tab-${index}`}
      active={active}
      controls={`view-tabpanel-${id}`}
      title={`${VIEW_TITLES[id]} (view)`}
      closeTitle={`Close ${VIEW_TITLES[id]} (Delete on the tab)`}
      className="view-tab"
      testId="view-tab"
      closeTestId="view-tab-close"
      data={{ 'data-view': id }}
      onActivate={() => useViews.getState().openView(id)}
      onClose={() => useViews.getState().closeView(id)}
    >
      <svg className="view-tab-icon" viewBox="0 0 16 16" aria-hidden="true">
        <rect x="2" y="3" width="12" height="10" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.2" />
        <path d="M2 6h12" stroke="currentColor" strokeWidth="1.2" />
      </svg>
      <span className="tab-name">{VIEW_TITLES[id]}</span>
    </TabShell>
  );
}
