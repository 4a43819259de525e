// The banner over a shared link: read-only, the person's own workspaces untouched, and the
// ways on: copy it to my workspaces (a fork), review its change, or leave.
import { useState } from 'react';
import { leaveSharedLink, useShareView } from '../../state/shareOpen.ts';
import { useViews } from '../../state/views.ts';

/** Rows of the list of removed values shown; a link may list up to MAX_REDACTED_ITEMS (10,000). */
export const BANNER_REDACTED_ROWS = 50;

const count = (n: number) => n.toLocaleString('en-US');

export function ReviewBanner() {
  const review = useShareView((s) => s.review);
  const [busy, setBusy] = useState(false);
  if (!review) return null;
  const removed = review.redacted.length;
  const hidden = removed - Math.min(removed, BANNER_REDACTED_ROWS);
  const fork = async () => {
    setBusy(true);
    const { copySharedToMyWorkspaces } = await import('../../state/shareLink.ts');
    if (await copySharedToMyWorkspaces()) leaveSharedLink();
    else setBusy(false);
  };
  return (
    <div className="review-banner" role="region" aria-label="Shared link" data-testid="review-banner">
      <div className="review-banner-text">
        <strong>Shared link{review.title ? `: ${review.title}` : ''}</strong> — read-only. Your own workspaces are not changed.
        {removed > 0 && (
          <details className="review-redacted">
            <summary data-testid="review-redacted-summary">
              {count(removed)} secret value{removed === 1 ? ' was' : 's were'} removed before sharing
            </summary>
            <ul>
              {review.redacted.slice(0, BANNER_REDACTED_ROWS).map((r, i) => (
                <li key={i} data-testid="review-redacted-item">
                  {r.file}:{r.line} — {r.what}
                </li>
              ))}
              {hidden > 0 && <li data-testid="review-redacted-more">and {count(hidden)} more</li>}
            </ul>
          </details>
        )}
      </div>
      <div className="review-banner-actions">
        {review.before && (
          <button type="button" className="button" data-testid="review-show-changes" onClick={() => useViews.getState().openView('review')}>
            Review changes
          </button>
        )}
        <button type="button" className="button primary" data-testid="copy-to-workspaces" disabled={busy} onClick={() => void fork()}>
          Copy to my workspaces
        </button>
        <button type="button" className="button" data-testid="leave-link" onClick={leaveSharedLink}>
          Open my workspaces
        </button>
      </div>
    </div>
  );
}
