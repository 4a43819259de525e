// The capability views in the main area: a tab per open view beside the file tabs, and the
// view itself over the editor or split beside it. Each view keeps its own state in its store,
// so showing, hiding or splitting it never loses a selection. The tabs are in ViewTab.tsx.
import { lazy, Suspense, type ReactNode } from 'react';
import { useViews, VIEW_TITLES, type ViewId } from '../../state/views.ts';

// Each view (and the engine it brings: config-dump tables, ELK, the PKI code, the diff
// editor) loads the first time it opens, not with the page.
const ProxyConfigView = lazy(() => import('../proxyconfig/ProxyConfigView.tsx').then((m) => ({ default: m.ProxyConfigView })));
const DataPlaneView = lazy(() => import('../dataplane/DataPlaneView.tsx').then((m) => ({ default: m.DataPlaneView })));
const DescribeView = lazy(() => import('../describe/DescribeView.tsx').then((m) => ({ default: m.DescribeView })));
const CertificatesView = lazy(() => import('../certs/CertificatesView.tsx').then((m) => ({ default: m.CertificatesView })));
const ReviewView = lazy(() => import('../review/ReviewView.tsx'));

function view(id: ViewId): ReactNode {
  switch (id) {
    case 'proxy':
      return <ProxyConfigView />;
    case 'dataplane':
      return <DataPlaneView />;
    case 'describe':
      return <DescribeView />;
    case 'certs':
      return <CertificatesView />;
    case 'review':
      return <ReviewView />;
  }
}

function body(id: ViewId): ReactNode {
  const what = id === 'review' ? 'the review' : VIEW_TITLES[id];
  return (
    <Suspense
      fallback={
        <p className="muted view-loading" data-testid="view-loading">
          Loading {what}…
        </p>
      }
    >
      {view(id)}
    </Suspense>
  );
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
        <button
          type="button"
          className="icon-button"
          aria-label={`Close ${VIEW_TITLES[id]}`}
          title={`Close ${VIEW_TITLES[id]}`}
          data-testid="view-close"
          onClick={() => useViews.getState().closeView(id)}
        >
          ×
        </button>
      </div>
      <div className="view-content">{body(id)}</div>
    </section>
  );
}
