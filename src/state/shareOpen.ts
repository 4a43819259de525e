// Opening a share link: the link's files go on screen in review mode (read-only, nothing
// saved, the person's own workspaces untouched), with the view it carries (a file and line,
// or one diagnostic highlighted). A link that cannot be read gives an error page, not a
// blank screen. "Copy to my workspaces" forks it into a new named workspace: the files and
// settings exactly as the link carried them (kept here when it opens), not what is on screen.
// While a link is open the workspace store is read-only (see WorkspaceState.readOnly).
// Opening a link and copying it (shareLink.ts) load only for an address that is a share link.
import { create } from 'zustand';
import type { RedactedItem, ShareFile, ShareLinkErrorCode, ShareView } from '../core/share/link.ts';
import type { UserSettings } from './analysis.ts';

export interface LinkedDiagnostic {
  code: string;
  file: string;
  line?: number;
}

export interface SharedReview {
  title?: string;
  redacted: RedactedItem[];
  /** The "before" side the link carries, if any. */
  before?: ShareFile[];
  view?: ShareView;
  /** The files as the link carried them (decoded): what "Copy to my workspaces" saves. */
  files: ShareFile[];
  /** The analysis settings the link carried (the defaults where it carried none). */
  settings: UserSettings;
}

export interface ShareViewState {
  /** The editor is read-only (a shared link is open). */
  readOnly: boolean;
  /** A link that could not be opened: shown as an error page. */
  linkError: { code: ShareLinkErrorCode | 'unexpected'; message: string } | null;
  review: SharedReview | null;
  /** The diagnostic a link points at: its Problems row is highlighted. */
  linked: LinkedDiagnostic | null;
}

export const useShareView = create<ShareViewState>()(() => ({ readOnly: false, linkError: null, review: null, linked: null }));

/** Leaves a shared link for the person's own workspaces (a fresh page without the fragment). */
export function leaveSharedLink(): void {
  location.replace(location.pathname + location.search);
}
