// Named workspaces in IndexedDB, and keeping the open one saved: every change is written
// within about 300 ms (a few seconds' idle wait is never taken), and on pagehide or when the
// tab is hidden the unsaved state also goes synchronously into a localStorage journal, so a
// reload right after typing keeps the text even if the browser drops the last IndexedDB write.
// Large files are stored as Blobs (fileBlobs.ts): a save encodes a changed one across tasks,
// an unchanged one costs nothing, and loading decodes them a piece at a time.
// Two tabs on one workspace: each save names the revision it started from; when another tab
// saved in between, nothing is overwritten and the person chooses (see `conflict`).
import { create } from 'zustand';
import { fileText, textStamp, useWorkspace, type WsFile } from './workspace.ts';
import { onTextEdited, textModel } from './texts.ts';
import { defaultUserSettings, useAnalysis, type UserSettings } from './analysis.ts';
import { useSelections } from './selections.ts';
import { SETTINGS_KEY, WORKSPACE_KEY, loadWorkspace, readJson } from './persistence.ts';
import * as idb from './idb.ts';
import { captureFiles, isLargeFile, rememberStoredBaseline, rememberStoredBlob, storedBaseline, storedFiles, type CapturedFiles } from './fileBlobs.ts';

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
/**
 * The most text of large files the journal takes (localStorage holds about 5 M characters);
 * beyond it a large file is journaled as "the stored one" rather than building its whole text
 * on pagehide only for localStorage to refuse it.
 */
const JOURNAL_LARGE_CHARS = 2 * 1024 * 1024;

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
  baseline: idb.TextFile[] | null;
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
/** Bumped by every `open`: an older one still decoding its files gives way. */
let openSeq = 0;
/** Each file's text stamp as stored at revision `rev` (the journal refers to those files instead of copying them). */
let savedStamps = new Map<string, string>();

/** What a save writes besides the files. */
interface View {
  openTabs: string[];
  active: string | null;
  settings: UserSettings;
  selections: Record<string, string>;
}

function view(): View {
  const ws = useWorkspace.getState();
  return {
    openTabs: [...ws.openTabs],
    active: ws.active,
    settings: useAnalysis.getState().settings,
    selections: useSelections.getState().selections,
  };
}

/** The workspace as it is now, its large files still to be encoded (see `storedFiles`). */
function capture(): View & { captured: CapturedFiles } {
  return { ...view(), captured: captureFiles(useWorkspace.getState().files) };
}

/** The open files' texts (builds each editor model's whole text). */
function currentTexts(): idb.TextFile[] {
  return useWorkspace.getState().files.map((f) => ({ path: f.path, text: fileText(f.path) ?? '' }));
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

/**
 * Puts a stored workspace on screen without saving it back. `stored`: the files as stored
 * (in the same order), whose Blobs the next saves reuse while the texts stay unchanged.
 */
function apply(
  w: Pick<idb.StoredWorkspace, 'openTabs' | 'active' | 'settings' | 'selections'> & { files: idb.TextFile[] },
  stored: readonly idb.StoredFile[] = [],
): void {
  applying = true;
  try {
    const ws = useWorkspace.getState();
    ws.replaceAll(w.files, w.openTabs);
    for (const f of stored) if (f.blob) rememberStoredBlob(f.path, f.blob);
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
  // Taken now: edits from here on belong to the next save.
  const { captured, ...rest } = capture();
  const name = st.currentName;
  const baseline = st.baseline;
  dirty = false;
  const run = chain.then(async () => {
    useWorkspaces.setState({ status: 'saving' });
    let res: idb.SaveResult;
    try {
      // Large files changed since the last save are encoded here, across tasks.
      const files = await storedFiles(captured);
      const before = baseline ? { baseline: { files: await storedBaseline(baseline), pinnedAt: Date.now() } } : {};
      res = await idb.saveWorkspace({ id, name, ...rest, files, ...before }, rev, force);
    } catch (e) {
      res = { ok: false, reason: 'error', message: `Saving failed: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (useWorkspaces.getState().currentId !== id) return;
    if (res.ok) {
      rev = res.rev;
      savedStamps = captured.stamps;
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

/** A journaled file: its text, or `stored`: the file as stored at the journal's `baseRev` (a large file). */
type JournalFile = { path: string; text: string; stored?: undefined } | { path: string; stored: true; text?: undefined };

interface Journal {
  id: string;
  baseRev: number;
  at: number;
  snap: View & { files: JournalFile[] };
}

/**
 * The files for the journal. A large file unchanged since the last save is "the stored one"; a
 * changed one goes in whole while the large texts stay within JOURNAL_LARGE_CHARS, else it too
 * is the stored one (older, but the best localStorage can keep) or, never saved, left out.
 */
function journalFiles(): JournalFile[] {
  let room = JOURNAL_LARGE_CHARS;
  const out: JournalFile[] = [];
  for (const f of useWorkspace.getState().files) {
    if (!isLargeFile(f)) {
      out.push({ path: f.path, text: fileText(f.path) ?? '' });
      continue;
    }
    const saved = savedStamps.get(f.path);
    if (saved !== undefined && saved === textStamp(f.path, f)) {
      out.push({ path: f.path, stored: true });
      continue;
    }
    const chars = f.text?.length ?? textModel(f.path)?.getValueLength() ?? 0;
    if (chars <= room) {
      room -= chars;
      out.push({ path: f.path, text: fileText(f.path) ?? '' });
    } else if (saved !== undefined) out.push({ path: f.path, stored: true });
  }
  return out;
}

/** The journal's files in stored form: "stored" ones taken from the record `w` (which is at the journal's base revision). */
function journalStored(j: Journal, w: idb.StoredWorkspace): idb.StoredFile[] {
  const byPath = new Map(w.files.map((f) => [f.path, f]));
  const out: idb.StoredFile[] = [];
  for (const f of j.snap.files) {
    if (!f || typeof f.path !== 'string') continue;
    if (typeof f.text === 'string') out.push({ path: f.path, text: f.text });
    else if (f.stored === true) {
      const s = byPath.get(f.path);
      if (s) out.push(s);
    }
  }
  return out;
}

/** Synchronous last resort on pagehide: the unsaved state goes to localStorage (when it fits). */
function writeJournal(): void {
  const st = useWorkspaces.getState();
  if (!st.currentId || st.mode !== 'local') return;
  try {
    local()?.setItem(
      JOURNAL_KEY,
      JSON.stringify({ id: st.currentId, baseRev: rev, at: Date.now(), snap: { ...view(), files: journalFiles() } } satisfies Journal),
    );
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

/**
 * Loads a stored workspace (and any journal of unsaved edits newer than it) and makes it
 * current. Large files are decoded first, which takes a while (about a second for 60 MB): an
 * `open` started meanwhile wins; with `follow` (another tab saved), edits made meanwhile turn
 * it into a conflict instead of being overwritten.
 */
async function open(id: string, opts: { follow?: boolean } = {}): Promise<boolean> {
  const seq = ++openSeq;
  const w = await idb.getWorkspace(id);
  if (!w) return false;
  const j = readJson<Journal>(JOURNAL_KEY);
  const journal = j && j.id === id && j.baseRev === w.rev && j.snap && Array.isArray(j.snap.files) ? j : null;
  const stored = journal ? journalStored(journal, w) : w.files;
  const unreadable: string[] = [];
  const texts = await idb.fileTexts(stored, (path, e) => {
    unreadable.push(path);
    console.error(e);
  });
  const baseline = w.baseline ? await idb.fileTexts(w.baseline.files) : null;
  if (seq !== openSeq) return true;
  if (opts.follow && (dirty || timer)) {
    useWorkspaces.setState({ conflict: { theirRev: w.rev } });
    if (timer) clearTimeout(timer);
    timer = null;
    return true;
  }
  const cur = useWorkspaces.getState().currentId;
  // Typed into the workspace being left while this one was decoding.
  if (cur && cur !== id && (dirty || timer)) {
    await saveNow();
    if (seq !== openSeq) return true;
  }
  if (timer) clearTimeout(timer);
  timer = null;
  dirty = false;
  rev = w.rev;
  if (baseline && w.baseline) rememberStoredBaseline(baseline, w.baseline.files);
  useWorkspaces.setState({ currentId: id, currentName: w.name, conflict: null, status: 'saved', baseline });
  session()?.setItem(TAB_CURRENT_KEY, id);
  void idb.setMeta('current', id);
  // An unreadable Blob shows as an empty file, but is saved back as it is until that file is edited.
  apply({ ...(journal ? journal.snap : w), files: texts }, stored);
  if (unreadable.length > 0)
    useWorkspace.getState().notify({
      id: 'storage-read',
      level: 'error',
      text: `Could not read from browser storage: ${unreadable.join(', ')}. Shown empty; the stored copy is kept until you edit it.`,
    });
  // What is on screen as stored at `rev` (with a journal, only the files it took from the record).
  const record = new Set<idb.StoredFile>(w.files);
  const fromRecord = new Set(stored.filter((f) => record.has(f)).map((f) => f.path));
  savedStamps = new Map(useWorkspace.getState().files.flatMap((f) => (fromRecord.has(f.path) ? [[f.path, textStamp(f.path, f) as string] as const] : [])));
  if (journal) {
    // The page went away before its last save landed: the journal has the newer text.
    dirty = true;
    await saveNow();
  } else if (j && j.id === id) local()?.removeItem(JOURNAL_KEY);
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
  useWorkspaces.setState({ baseline: currentTexts() });
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
    const { captured, ...mine } = capture();
    const files = await storedFiles(captured);
    await open(st.currentId);
    await createWorkspace(`${st.currentName} (my copy)`, files, { open: mine.openTabs, settings: mine.settings });
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
        void open(m.id, { follow: true }).then(() => {
          if (!useWorkspaces.getState().conflict)
            useWorkspace.getState().notify({ id: 'other-tab', level: 'info', text: 'This workspace was changed in another tab; showing its latest version.' });
        });
      }
    };
  }
  return true;
}

/** A shared link is open: nothing is saved, the person's workspaces stay as they were. */
export function enterReviewMode(): void {
  useWorkspaces.setState({ mode: 'review', status: 'off' });
}
