// Named workspaces in IndexedDB, and keeping the open one saved: every change is written
// within about 300 ms (a few seconds' idle wait is never taken), and on pagehide or when the
// tab is hidden the unsaved state also goes synchronously into a localStorage journal, so a
// reload right after typing keeps the text even if the browser drops the last IndexedDB write.
// Two tabs on one workspace: each save names the revision it started from; when another tab
// saved in between, nothing is overwritten and the person chooses (see `conflict`).
import { create } from 'zustand';
import { fileText, useWorkspace, type WsFile } from './workspace.ts';
import { onTextEdited } from './texts.ts';
import { defaultUserSettings, useAnalysis, type UserSettings } from './analysis.ts';
import { useSelections } from './selections.ts';
import { SETTINGS_KEY, WORKSPACE_KEY, loadWorkspace, readJson } from './persistence.ts';
import * as idb from './idb.ts';

export const JOURNAL_KEY = 'mesh-workbench/journal/v1';
export const TAB_CURRENT_KEY = 'mesh-workbench/current-workspace';
const LEGACY_MIGRATED = 'legacy-localstorage-migrated';
export const SAVE_DELAY_MS = 300;
/**
 * With a large file in the workspace every save copies megabytes on the page's thread (about
 * 60 ms for 6 MB): wait for a longer pause in typing, as the localStorage fallback does.
 */
export const LARGE_SAVE_DELAY_MS = 1500;
const LARGE_WORKSPACE_BYTES = 1024 * 1024;

export type SaveStatus = 'saved' | 'pending' | 'saving' | 'error' | 'off';

export interface WorkspacesState {
  /** `local`: the person's own workspaces (saved); `review`: a shared link (never saved); `none`: no IndexedDB. */
  mode: 'loading' | 'local' | 'review' | 'none';
  list: idb.WorkspaceSummary[];
  currentId: string | null;
  currentName: string;
  status: SaveStatus;
  /** Another tab saved this workspace after we loaded it, and we have changes of our own. */
  conflict: { theirRev: number } | null;
  baseline: idb.StoredFile[] | null;
}

export const useWorkspaces = create<WorkspacesState>()(() => ({
  mode: 'loading',
  list: [],
  currentId: null,
  currentName: '',
  status: 'off',
  conflict: null,
  baseline: null,
}));

const tabId = Math.random().toString(36).slice(2);
let rev = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let dirty = false;
let applying = false;
let chain: Promise<unknown> = Promise.resolve();
let channel: BroadcastChannel | null = null;

interface Snapshot {
  files: idb.StoredFile[];
  openTabs: string[];
  active: string | null;
  settings: UserSettings;
  selections: Record<string, string>;
}

function snapshot(): Snapshot {
  const ws = useWorkspace.getState();
  return {
    files: ws.files.map((f) => ({ path: f.path, text: fileText(f.path) ?? '' })),
    openTabs: [...ws.openTabs],
    active: ws.active,
    settings: useAnalysis.getState().settings,
    selections: useSelections.getState().selections,
  };
}

function session(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function local(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Puts a stored workspace on screen without saving it back. */
function apply(w: Pick<idb.StoredWorkspace, 'files' | 'openTabs' | 'active' | 'settings' | 'selections'>): void {
  applying = true;
  try {
    const ws = useWorkspace.getState();
    ws.replaceAll(w.files, w.openTabs);
    if (w.active && w.openTabs.includes(w.active)) ws.setActive(w.active);
    const d = defaultUserSettings();
    const s = w.settings;
    useAnalysis.setState({
      settings: {
        includePlaceholders: typeof s?.includePlaceholders === 'boolean' ? s.includePlaceholders : d.includePlaceholders,
        suppressions: Array.isArray(s?.suppressions) ? s.suppressions.filter((x) => typeof x === 'string') : d.suppressions,
        istioctlMode: typeof s?.istioctlMode === 'boolean' ? s.istioctlMode : d.istioctlMode,
        kialiPack: typeof s?.kialiPack === 'boolean' ? s.kialiPack : d.kialiPack,
      },
    });
    useSelections.getState().replace(w.selections ?? {});
  } finally {
    applying = false;
  }
}

async function refreshList(): Promise<void> {
  const list = await idb.listWorkspaces();
  const cur = useWorkspaces.getState().currentId;
  useWorkspaces.setState({ list, currentName: list.find((w) => w.id === cur)?.name ?? useWorkspaces.getState().currentName });
}

function broadcast(msg: { type: 'saved'; id: string; rev: number } | { type: 'list' }): void {
  try {
    channel?.postMessage({ ...msg, tab: tabId });
  } catch {
    // A closed channel: other tabs learn at their next save.
  }
}

function schedule(): void {
  const st = useWorkspaces.getState();
  if (applying || st.mode !== 'local' || !useWorkspace.getState().ready) return;
  dirty = true;
  if (st.status !== 'pending') useWorkspaces.setState({ status: 'pending' });
  if (st.conflict) return;
  if (timer) clearTimeout(timer);
  timer = setTimeout(
    () => {
      timer = null;
      whenIdle(() => {
        // An edit meanwhile has scheduled its own save.
        if (!timer && dirty) void saveNow();
      });
    },
    workspaceBytes() > LARGE_WORKSPACE_BYTES ? LARGE_SAVE_DELAY_MS : SAVE_DELAY_MS,
  );
}

/** The workspace's size (a file being edited counts with its size at the last save). */
function workspaceBytes(): number {
  let n = 0;
  for (const f of useWorkspace.getState().files) n += f.bytes;
  return n;
}

/**
 * Runs `fn` when the page is idle (within 2 s): writing a large workspace copies all its
 * text on the page's thread, which should not land in the same frame as fresh diagnostics.
 */
function whenIdle(fn: () => void): void {
  const ric = (globalThis as { requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number }).requestIdleCallback;
  if (typeof ric === 'function') ric(fn, { timeout: 2000 });
  else fn();
}

/** Saves the open workspace now (queued behind a save in flight). */
export function saveNow(force = false): Promise<void> {
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  const st = useWorkspaces.getState();
  const id = st.currentId;
  if (st.mode !== 'local' || !id || (st.conflict && !force)) return chain.then(() => undefined);
  const snap = snapshot();
  const name = st.currentName;
  dirty = false;
  const run = chain.then(async () => {
    useWorkspaces.setState({ status: 'saving' });
    const baseline = useWorkspaces.getState().baseline;
    const res = await idb.saveWorkspace({ id, name, ...snap, ...(baseline ? { baseline: { files: baseline, pinnedAt: Date.now() } } : {}) }, rev, force);
    if (useWorkspaces.getState().currentId !== id) return;
    if (res.ok) {
      rev = res.rev;
      clearJournal(id);
      useWorkspaces.setState({ status: dirty ? 'pending' : 'saved', conflict: null });
      useWorkspace.getState().dismiss('storage');
      broadcast({ type: 'saved', id, rev });
    } else if (res.reason === 'conflict') {
      dirty = true;
      useWorkspaces.setState({ status: 'pending', conflict: { theirRev: res.rev } });
    } else {
      dirty = true;
      useWorkspaces.setState({ status: 'error' });
      useWorkspace.getState().notify({ id: 'storage', level: 'error', text: res.message });
    }
  });
  chain = run.catch(() => undefined);
  return run;
}

interface Journal {
  id: string;
  baseRev: number;
  at: number;
  snap: Snapshot;
}

/** Synchronous last resort on pagehide: the unsaved state goes to localStorage (when it fits). */
function writeJournal(): void {
  const st = useWorkspaces.getState();
  if (!st.currentId || st.mode !== 'local') return;
  try {
    local()?.setItem(JOURNAL_KEY, JSON.stringify({ id: st.currentId, baseRev: rev, at: Date.now(), snap: snapshot() } satisfies Journal));
  } catch {
    // Too large for localStorage: the IndexedDB save started alongside is all there is.
  }
}

function clearJournal(id: string): void {
  const s = local();
  const j = readJson<Journal>(JOURNAL_KEY);
  if (j && j.id === id) s?.removeItem(JOURNAL_KEY);
}

function flushOnHide(): void {
  if (!dirty && !timer) return;
  writeJournal();
  void saveNow();
}

/** Loads a stored workspace (and any journal of unsaved edits newer than it) and makes it current. */
async function open(id: string): Promise<boolean> {
  const w = await idb.getWorkspace(id);
  if (!w) return false;
  if (timer) clearTimeout(timer);
  timer = null;
  dirty = false;
  rev = w.rev;
  useWorkspaces.setState({ currentId: id, currentName: w.name, conflict: null, status: 'saved', baseline: w.baseline?.files ?? null });
  session()?.setItem(TAB_CURRENT_KEY, id);
  void idb.setMeta('current', id);
  const j = readJson<Journal>(JOURNAL_KEY);
  if (j && j.id === id && j.baseRev === w.rev && j.snap && Array.isArray(j.snap.files)) {
    // The page went away before its last save landed: the journal has the newer text.
    apply(j.snap);
    dirty = true;
    await saveNow();
  } else {
    if (j && j.id === id) local()?.removeItem(JOURNAL_KEY);
    apply(w);
  }
  return true;
}

export async function createWorkspace(
  name: string,
  files: idb.StoredFile[] = [],
  opts: { open?: string[]; switchTo?: boolean; settings?: UserSettings } = {},
): Promise<string | null> {
  const id = idb.newWorkspaceId();
  const tabs = opts.open?.filter((p) => files.some((f) => f.path === p)) ?? [];
  if (tabs.length === 0 && files[0]) tabs.push(files[0].path);
  const res = await idb.saveWorkspace(
    {
      id,
      name: uniqueName(name),
      files,
      openTabs: tabs,
      active: tabs[tabs.length - 1] ?? null,
      settings: opts.settings ?? defaultUserSettings(),
      selections: {},
    },
    0,
  );
  if (!res.ok) {
    useWorkspace.getState().notify({ id: 'storage', level: 'error', text: res.reason === 'error' ? res.message : 'Could not create the workspace.' });
    return null;
  }
  broadcast({ type: 'list' });
  if (opts.switchTo !== false && useWorkspaces.getState().mode === 'local') await switchWorkspace(id);
  else await refreshList();
  return id;
}

function uniqueName(name: string): string {
  const taken = new Set(useWorkspaces.getState().list.map((w) => w.name));
  const base = name.trim() || 'Workspace';
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} (${n})`)) return `${base} (${n})`;
}

export async function switchWorkspace(id: string): Promise<void> {
  if (useWorkspaces.getState().currentId !== id && (dirty || timer)) await saveNow();
  await open(id);
  await refreshList();
}

export async function renameWorkspace(id: string, name: string): Promise<string | null> {
  const n = name.trim();
  if (!n) return 'A workspace needs a name.';
  if (useWorkspaces.getState().list.some((w) => w.id !== id && w.name === n)) return `A workspace named ${n} already exists.`;
  const r = await idb.patchWorkspace(id, { name: n });
  if (id === useWorkspaces.getState().currentId) {
    if (r !== null) rev = r;
    useWorkspaces.setState({ currentName: n });
  }
  broadcast({ type: 'list' });
  await refreshList();
  return null;
}

export async function removeWorkspace(id: string): Promise<void> {
  await idb.deleteWorkspace(id);
  broadcast({ type: 'list' });
  await refreshList();
  if (useWorkspaces.getState().currentId === id) {
    const next = useWorkspaces.getState().list[0];
    if (next) await open(next.id);
    else await createWorkspace('My workspace', []);
  }
}

/** Pins the current files as the baseline ("before") to review later changes against. */
export async function pinBaseline(): Promise<void> {
  useWorkspaces.setState({ baseline: snapshot().files });
  schedule();
  await saveNow();
}

export async function clearBaseline(): Promise<void> {
  useWorkspaces.setState({ baseline: null });
  const id = useWorkspaces.getState().currentId;
  if (id) {
    const r = await idb.patchWorkspace(id, { baseline: undefined });
    if (r !== null) rev = r;
  }
}

/** The person's answer to a two-tab conflict. */
export async function resolveConflict(choice: 'theirs' | 'mine' | 'copy'): Promise<void> {
  const st = useWorkspaces.getState();
  if (!st.currentId) return;
  if (choice === 'theirs') {
    await open(st.currentId);
  } else if (choice === 'mine') {
    await saveNow(true);
  } else {
    const snap = snapshot();
    await open(st.currentId);
    await createWorkspace(`${st.currentName} (my copy)`, snap.files, { open: snap.openTabs, settings: snap.settings });
  }
}

async function migrateLegacy(): Promise<void> {
  if (await idb.getMeta<boolean>(LEGACY_MIGRATED)) return;
  const old = loadWorkspace();
  if (old && old.files.length > 0) {
    const s = readJson<Partial<UserSettings>>(SETTINGS_KEY);
    const settings = {
      ...defaultUserSettings(),
      ...(s && typeof s.includePlaceholders === 'boolean' ? { includePlaceholders: s.includePlaceholders } : {}),
      ...(s && Array.isArray(s.suppressions) ? { suppressions: s.suppressions.filter((x) => typeof x === 'string') } : {}),
    };
    const id = await createWorkspace('My workspace', old.files, { open: old.openTabs, switchTo: false, settings });
    if (!id) return;
    await idb.setMeta('current', id);
    if (old.skipped?.length)
      useWorkspace.getState().notify({
        id: 'restored-skipped',
        level: 'warning',
        text: `Not kept by the previous version of this app (it stored at most 5 MB per file): ${old.skipped.join(', ')}. Upload them again.`,
      });
  }
  await idb.setMeta(LEGACY_MIGRATED, true);
  try {
    local()?.removeItem(WORKSPACE_KEY);
  } catch {
    // Nothing to clean up.
  }
}

/**
 * Starts the person's own workspaces: migrates the old localStorage workspace once, opens the
 * tab's last workspace (or creates one with `firstFiles`, named `name`, on a first visit) and
 * keeps it saved.
 * False when the browser has no IndexedDB (the caller falls back to localStorage).
 */
export async function startLocalWorkspaces(firstFiles: () => Promise<{ files: idb.StoredFile[]; open?: string[]; name?: string }>): Promise<boolean> {
  if (!(await idb.openDb())) {
    useWorkspaces.setState({ mode: 'none' });
    return false;
  }
  useWorkspaces.setState({ mode: 'local' });
  await migrateLegacy();
  await refreshList();
  const list = useWorkspaces.getState().list;
  const wanted = session()?.getItem(TAB_CURRENT_KEY) ?? (await idb.getMeta<string>('current'));
  const id = list.find((w) => w.id === wanted)?.id ?? list[0]?.id;
  if (id) await open(id);
  else {
    const first = await firstFiles();
    // Named after what it holds (the default sample), which is what the title bar shows.
    const created = await createWorkspace(first.name ?? 'My workspace', first.files, { open: first.open, switchTo: false });
    if (!created || !(await open(created))) return false;
    await refreshList();
  }

  const filesKey = (files: readonly WsFile[]) => files.map((f) => `${f.path}\u0000${f.rev}`).join('\n');
  useWorkspace.subscribe((s, prev) => {
    if (s.openTabs !== prev.openTabs || s.active !== prev.active || (s.files !== prev.files && filesKey(s.files) !== filesKey(prev.files))) schedule();
  });
  onTextEdited(() => schedule());
  useAnalysis.subscribe((s, prev) => {
    if (s.settings !== prev.settings) schedule();
  });
  useSelections.subscribe((s, prev) => {
    if (s.selections !== prev.selections) schedule();
  });
  window.addEventListener('pagehide', flushOnHide);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushOnHide();
  });
  if (typeof BroadcastChannel !== 'undefined') {
    channel = new BroadcastChannel('mesh-workbench');
    channel.onmessage = (ev: MessageEvent<{ type: string; id?: string; rev?: number; tab?: string }>) => {
      const m = ev.data;
      if (!m || m.tab === tabId) return;
      if (m.type === 'list') void refreshList();
      if (m.type !== 'saved' || m.id !== useWorkspaces.getState().currentId || typeof m.rev !== 'number' || m.rev <= rev) return;
      void refreshList();
      if (dirty || timer) {
        useWorkspaces.setState({ conflict: { theirRev: m.rev } });
        if (timer) clearTimeout(timer);
        timer = null;
      } else {
        // Nothing of ours unsaved: follow the other tab.
        void open(m.id).then(() =>
          useWorkspace.getState().notify({ id: 'other-tab', level: 'info', text: 'This workspace was changed in another tab; showing its latest version.' }),
        );
      }
    };
  }
  return true;
}

/** A shared link is open: nothing is saved, the person's workspaces stay as they were. */
export function enterReviewMode(): void {
  useWorkspaces.setState({ mode: 'review', status: 'off' });
}
