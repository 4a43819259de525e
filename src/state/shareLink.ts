// Opening a share link and copying it to the person's workspaces (see shareOpen.ts for the
// review state). This module, with the link decoder (fflate, the dictionary), loads only for
// an address that is a share link: boot imports it then, the review banner at "Copy".
import { decodeShareFragment, ShareLinkError } from '../core/share/link.ts';
import { useWorkspace } from './workspace.ts';
import { defaultUserSettings, useAnalysis, useEditorUi, type UserSettings } from './analysis.ts';
import { useSelections } from './selections.ts';
import { enterReviewMode, TAB_CURRENT_KEY } from './workspaces.ts';
import { useShareView, type ShareViewState } from './shareOpen.ts';
import * as idb from './idb.ts';

/** Opens the link in `hash`: its files read-only on screen, or the error page. */
export function openShareLink(hash: string): boolean {
  let state;
  try {
    state = decodeShareFragment(hash);
  } catch (e) {
    return showLinkError(
      e instanceof ShareLinkError
        ? { code: e.code, message: e.message }
        : { code: 'unexpected', message: `The link could not be opened (${e instanceof Error ? e.message : String(e)}).` },
    );
  }
  enterReviewMode();
  const s = state.settings ?? {};
  const d = defaultUserSettings();
  const settings: UserSettings = {
    includePlaceholders: s.includePlaceholders ?? d.includePlaceholders,
    suppressions: [...(s.suppressions ?? d.suppressions)],
    istioctlMode: s.istioctlMode ?? d.istioctlMode,
    kialiPack: s.kialiPack ?? d.kialiPack,
  };
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

/** A link that cannot be opened: the error page, over an empty read-only workspace. */
function showLinkError(err: NonNullable<ShareViewState['linkError']>): false {
  enterReviewMode();
  useShareView.setState({ linkError: err, readOnly: true });
  useWorkspace.getState().replaceAll([]);
  useWorkspace.getState().setReadOnly(true);
  return false;
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
      settings: {
        includePlaceholders: review.settings.includePlaceholders,
        suppressions: [...review.settings.suppressions],
        istioctlMode: review.settings.istioctlMode,
        kialiPack: review.settings.kialiPack,
      },
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
