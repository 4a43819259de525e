// What the title bar and the browser tab name: the open workspace. The name lives in one
// place, the workspaces store (`currentName`: set when a workspace is opened, created,
// renamed, or made from a sample); the title is derived from it, never kept as a second copy
// that could go stale. A shared link is not one of the person's workspaces: it is named by
// the title it carries.
import { useWorkspaces, type WorkspacesState } from './workspaces.ts';
import { useShareView, type ShareViewState } from './shareOpen.ts';

export interface TitleView {
  /** The open workspace's name. */
  name: string;
}

/** Until the workspaces are read (a few milliseconds after the page opens). */
export const LOADING_TITLE = 'Loading…';
export const SHARED_TITLE = 'Shared workspace';

export function titleName(ws: Pick<WorkspacesState, 'mode' | 'currentName'>, share: Pick<ShareViewState, 'review'>): string {
  if (ws.mode === 'review') return share.review?.title?.trim() || SHARED_TITLE;
  if (ws.mode === 'loading') return LOADING_TITLE;
  return ws.currentName || 'Your workspace';
}

/** The title, for React: `useTitle((t) => t.name)`. */
export function useTitle<T>(select: (t: TitleView) => T): T {
  const mode = useWorkspaces((s) => s.mode);
  const currentName = useWorkspaces((s) => s.currentName);
  const review = useShareView((s) => s.review);
  return select({ name: titleName({ mode, currentName }, { review }) });
}

/** The title now (outside React). */
export function currentTitle(): string {
  return titleName(useWorkspaces.getState(), useShareView.getState());
}
