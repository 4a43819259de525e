// The banner over a shared link: read-only, the person's own workspaces untouched, and the
// ways on: copy it to my workspaces (a fork), review its change, or leave.
import { useState } from 'react';
import { copySharedToMyWorkspaces, leaveSharedLink, useShareView } from '../../state/shareOpen.ts';
import { useDialogs } from './dialogs.ts';

export function ReviewBanner() {
  const review = useShareView((s) => s.review);
  const [busy, setBusy] = useState(false);
  if (!review) return null;
  const fork = async () => {
    setBusy(true);
    if (await copySharedToMyWorkspaces()) leaveSharedLink();
    else setBusy(false);
  };
  return (
    <div className="review-banner" role="region" aria-label="Shared link" data-testid="review-banner">
      <div className="review-banner-text">
        <strong>Shared link{review.title ? `: ${review.title}` : ''}</strong> — read-only. Your own workspaces are not changed.
        {review.redacted.length > 0 && (
          <details className="review-redacted">
            <summary data-testid="review-redacted-summary">
              {review.redacted.length} secret value{review.redacted.length === 1 ? ' was' : 's were'} removed before sharing
            </summary>
            <ul>
              {review.redacted.map((r, i) => (
                <li key={i}>
                  {r.file}:{r.line} — {r.what}
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
      <div className="review-banner-actions">
        {review.before && (
          <button type="button" className="button" data-testid="review-show-changes" onClick={() => useDialogs.getState().show('review')}>
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
