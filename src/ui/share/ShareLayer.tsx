// The share dialog, mounted once by the app shell; Review opens as a view in the main area.
import { lazy, Suspense } from 'react';
import { useDialogs } from './dialogs.ts';
import { useViews } from '../../state/views.ts';

// The dialog brings the redactor, the link encoder (fflate) and the YAML bundle writer:
// loaded at the first Share…, not with the page.
const ShareDialog = lazy(() => import('./ShareDialog.tsx').then((m) => ({ default: m.ShareDialog })));

export function ShareLayer() {
  const open = useDialogs((s) => s.open);
  if (open !== 'share') return null;
  return (
    <Suspense fallback={<ShareLoading />}>
      <ShareDialog />
    </Suspense>
  );
}

/** While the dialog's code loads: a quiet note where the dialog will open. */
function ShareLoading() {
  return (
    <div className="share-loading muted" role="status" data-testid="share-loading">
      Loading the Share dialog…
    </div>
  );
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
