// Opening a share link: the link's files go on screen in review mode (read-only, nothing
// saved, the person's own workspaces untouched), with the view it carries (a file and line,
// or one diagnostic highlighted). A link that cannot be read gives an error page, not a
// blank screen. "Copy to my workspaces" forks it into a new named workspace: the files and
// settings exactly as the link carried them (kept here when it opens), not what is on screen.
// While a link is open the workspace store is read-only (see WorkspaceState.readOnly).
import { create } from 'zustand';
import { decodeShareFragment, ShareLinkError, type RedactedItem, type ShareFile, type ShareLinkErrorCode, type ShareView } from '../core/share/link.ts';
import { useWorkspace } from './workspace.ts';
import { defaultUserSettings, useAnalysis, useEditorUi, type UserSettings } from './analysis.ts';
import { useSelections } from './selections.ts';
import { enterReviewMode, TAB_CURRENT_KEY } from './workspaces.ts';
import * as idb from './idb.ts';

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

export function openShareLink(hash: string): boolean {
  let state;
  try {
    state = decodeShareFragment(hash);
  } catch (e) {
    const err = e instanceof ShareLinkError ? { code: e.code, message: e.message } : { code: 'unexpected' as const, message: `The link could not be opened (${e instanceof Error ? e.message : String(e)}).` };
    enterReviewMode();
    useShareView.setState({ linkError: err, readOnly: true });
    useWorkspace.getState().replaceAll([]);
    useWorkspace.getState().setReadOnly(true);
    return false;
  }
  enterReviewMode();
  const s = state.settings ?? {};
  const d = defaultUserSettings();
  const settings: UserSettings = { includePlaceholders: s.includePlaceholders ?? d.includePlaceholders, suppressions: [...(s.suppressions ?? d.suppressions)], istioctlMode: s.istioctlMode ?? d.istioctlMode };
  useAnalysis.setState({ settings: { ...settings, suppressions: [...settings.suppressions] } });
  useSelections.getState().replace(state.view?.selections ?? {});
  const view = state.view;
  const open = [...(state.openTabs ?? [])];
  const target = view?.diagnostic?.file ?? view?.file;
  if (target && state.files.some((f) => f.path === target) && !open.includes(target)) open.push(target);
  const shared = state.files.map((f) => ({ path: f.path, text: f.text }));
  useWorkspace.getState().replaceAll(shared, open);
  useWorkspace.getState().setReadOnly(true);
  useShareView.setState({
    readOnly: true,
    review: { title: state.title, redacted: state.redacted ?? [], before: state.before, view, files: shared, settings },
    linked: view?.diagnostic ?? null,
  });
  if (target && state.files.some((f) => f.path === target)) {
    useWorkspace.getState().setActive(target);
    const line = view?.diagnostic?.line ?? view?.line;
    if (line) useEditorUi.getState().requestReveal(target, undefined, line);
  }
  return true;
}

/**
 * Saves the shared workspace as a new workspace of the person's and makes it current (the
 * caller then leaves review mode). It saves the files and settings exactly as the link carried
 * them, whatever is on screen; the open tabs and the inspector's selections come along.
 */
export async function copySharedToMyWorkspaces(): Promise<boolean> {
  const ws = useWorkspace.getState();
  const review = useShareView.getState().review;
  if (!review) return false;
  const files = review.files.map((f) => ({ path: f.path, text: f.text }));
  const paths = new Set(files.map((f) => f.path));
  const list = await idb.listWorkspaces();
  const taken = new Set(list.map((w) => w.name));
  const base = review.title ? `Shared: ${review.title}` : 'Shared workspace';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base} (${n})`;
  const id = idb.newWorkspaceId();
  const res = await idb.saveWorkspace(
    {
      id,
      name,
      files,
      openTabs: ws.openTabs.filter((p) => paths.has(p)),
      active: ws.active !== null && paths.has(ws.active) ? ws.active : null,
      settings: { includePlaceholders: review.settings.includePlaceholders, suppressions: [...review.settings.suppressions], istioctlMode: review.settings.istioctlMode },
      selections: useSelections.getState().selections,
      ...(review.before ? { baseline: { files: review.before, pinnedAt: Date.now() } } : {}),
    },
    0,
  );
  if (!res.ok) {
    ws.notify({ id: 'storage', level: 'error', text: res.reason === 'error' ? res.message : 'Could not save the copy.' });
    return false;
  }
  await idb.setMeta('current', id);
  try {
    sessionStorage.setItem(TAB_CURRENT_KEY, id);
  } catch {
    // The meta record is enough.
  }
  return true;
}

/** Leaves a shared link for the person's own workspaces (a fresh page without the fragment). */
export function leaveSharedLink(): void {
  location.replace(location.pathname + location.search);
}
