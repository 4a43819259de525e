// The share dialog, mounted once by the app shell; Review opens as a view in the main area.
import { useDialogs } from './dialogs.ts';
import { ShareDialog } from './ShareDialog.tsx';
import { useViews } from '../../state/views.ts';

export function ShareLayer() {
  const open = useDialogs((s) => s.open);
  if (open === 'share') return <ShareDialog />;
  return null;
}

export function ShareButtons() {
  const show = useDialogs((s) => s.show);
  return (
    <>
      <button type="button" className="button" data-testid="share-button" onClick={() => show('share')}>
        Share…
      </button>
      <button type="button" className="button" data-testid="review-button" onClick={() => useViews.getState().openView('review')}>
        Review…
      </button>
    </>
  );
}
