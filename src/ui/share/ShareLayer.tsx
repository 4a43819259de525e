// The share/review dialogs, mounted once by the app shell.
import { useDialogs } from './dialogs.ts';
import { ShareDialog } from './ShareDialog.tsx';
import { ReviewDialog } from '../review/ReviewDialog.tsx';

export function ShareLayer() {
  const open = useDialogs((s) => s.open);
  if (open === 'share') return <ShareDialog />;
  if (open === 'review') return <ReviewDialog />;
  return null;
}

export function ShareButtons() {
  const show = useDialogs((s) => s.show);
  return (
    <>
      <button type="button" className="button" data-testid="share-button" onClick={() => show('share')}>
        Share…
      </button>
      <button type="button" className="button" data-testid="review-button" onClick={() => show('review')}>
        Review…
      </button>
    </>
  );
}
