// Another tab saved this workspace while this one had unsaved changes: nothing is overwritten
// until the person chooses.
import { resolveConflict, useWorkspaces } from '../../state/workspaces.ts';

export function ConflictBanner() {
  const conflict = useWorkspaces((s) => s.conflict);
  if (!conflict) return null;
  return (
    <div className="notice notice-warning conflict-banner" role="alert" data-testid="conflict-banner">
      <span className="notice-text">This workspace was changed in another tab too. Which version do you want?</span>
      <span className="conflict-actions">
        <button type="button" className="button" data-testid="conflict-theirs" onClick={() => void resolveConflict('theirs')}>
          Load the other tab's
        </button>
        <button type="button" className="button" data-testid="conflict-mine" onClick={() => void resolveConflict('mine')}>
          Keep mine
        </button>
        <button type="button" className="button" data-testid="conflict-copy" onClick={() => void resolveConflict('copy')}>
          Save mine as a copy
        </button>
      </span>
    </div>
  );
}
