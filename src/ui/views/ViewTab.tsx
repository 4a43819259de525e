// A view's tab beside the file tabs (the panel itself, ViewHost.tsx, loads after the first
// results: see ui/deferred.ts).
import { useViews, VIEW_TITLES, type ViewId } from '../../state/views.ts';
import { TabShell } from '../editor/TabShell.tsx';

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
