// Startup: a share link opens in review mode (nothing saved); otherwise the person's named
// workspaces in IndexedDB (see workspaces.ts; the default sample on a first visit). Without
// IndexedDB, the one workspace is kept in localStorage as before.
import { fileText, refuseWhenReadOnly, useWorkspace, type WsFile } from './workspace.ts';
import { onTextEdited, textModel } from './texts.ts';
import { defaultUserSettings, useAnalysis, type UserSettings } from './analysis.ts';
import { MAX_PERSIST_BYTES, formatBytes } from './fileKind.ts';
import { utf8Length } from '../core/go/strings.ts';
import { SETTINGS_KEY, WORKSPACE_KEY, loadWorkspace, readJson, writeJson, type PersistedWorkspace } from './persistence.ts';
import { fetchSampleFiles, fetchSampleIndex } from './samples.ts';
import { createWorkspace, startLocalWorkspaces, useWorkspaces } from './workspaces.ts';
import { isShareFragment } from '../core/share/fragment.ts';
import { openAt } from './navigation.ts';

const SAVE_DELAY_MS = 300;
/** With a large file in the workspace, saving costs more: wait for a longer pause, then idle time. */
const LARGE_SAVE_DELAY_MS = 1500;
const LARGE_WORKSPACE_CHARS = 1024 * 1024;

/**
 * Opens a sample. With named workspaces it becomes a new workspace named after it ("Bookinfo",
 * "Bookinfo (2)" when that name is taken) and the open one stays as it was, in the switcher.
 * Without IndexedDB there is one workspace only: the sample replaces its files (the caller
 * asks first).
 */
export async function loadSample(id: string): Promise<void> {
  // Not into a shared link's read-only workspace.
  if (refuseWhenReadOnly()) return;
  if (useWorkspaces.getState().mode === 'loading') await boot();
  const idx = await fetchSampleIndex();
  const sample = idx.samples.find((s) => s.id === id);
  if (!sample) throw new Error(`Unknown sample ${id}`);
  const files = await fetchSampleFiles(sample);
  const open = sample.open ?? [files.find((f) => f.path === 'networking.yaml')?.path ?? files[0]?.path ?? ''];
  if (useWorkspaces.getState().mode === 'local') {
    await createWorkspace(sample.title, files, { open });
    return;
  }
  useWorkspace.getState().replaceAll(files, open);
  setLegacyName(sample.title);
}

/** Without IndexedDB, the one workspace's name is kept in localStorage beside its files. */
const LEGACY_TITLE_KEY = 'mesh-workbench/title/v1';

function setLegacyName(name: string): void {
  useWorkspaces.setState({ currentName: name });
  writeJson(LEGACY_TITLE_KEY, { name });
}

/**
 * First visit: once the first diagnostics arrive, show the first error of the open file (or
 * of the workspace) in the editor, without taking focus, so a squiggle is in view at once.
 */
function revealFirstError(): void {
  const unsub = useAnalysis.subscribe((s) => {
    if (s.resultVersion === 0) return;
    unsub();
    const active = useWorkspace.getState().active;
    const errors = s.diagnostics.filter((d) => d.level === 'Error' && d.file && (d.range || d.line));
    const first = errors.find((d) => d.file === active) ?? errors[0];
    if (!first?.file) return;
    const at = (d: typeof first) => d.range?.startLine ?? d.line ?? 0;
    const best = errors.filter((d) => d.file === first.file).sort((a, b) => at(a) - at(b))[0] ?? first;
    openAt(best.file!, { range: best.range, line: best.line }, { focus: false });
  });
}

function restoreSettings(): void {
  const s = readJson<Partial<UserSettings>>(SETTINGS_KEY);
  if (!s) return;
  const d = defaultUserSettings();
  useAnalysis.setState({
    settings: {
      includePlaceholders: typeof s.includePlaceholders === 'boolean' ? s.includePlaceholders : d.includePlaceholders,
      suppressions: Array.isArray(s.suppressions) ? s.suppressions.filter((x) => typeof x === 'string') : d.suppressions,
      istioctlMode: typeof s.istioctlMode === 'boolean' ? s.istioctlMode : d.istioctlMode,
      kialiPack: typeof s.kialiPack === 'boolean' ? s.kialiPack : d.kialiPack,
    },
  });
}

/**
 * Write the workspace; files over 5 MB are skipped, and on quota errors the largest go first.
 * This is where whole texts are read from the editor's models (on a debounce, not per key),
 * and where the sizes of edited files are brought up to date.
 */
function saveWorkspace(): void {
  const ws = useWorkspace.getState();
  if (!ws.ready) return;
  const all: Array<{ path: string; text: string; bytes: number }> = [];
  const sizes = new Map<string, number>();
  const tooBig: Array<{ path: string; bytes: number }> = [];
  for (const f of ws.files) {
    // A file whose text has more characters than the limit has more bytes too: it is not
    // saved, so its whole text is not built (that costs a large file hundreds of ms).
    const chars = f.text === undefined ? textModel(f.path)?.getValueLength() : undefined;
    if (chars !== undefined && chars > MAX_PERSIST_BYTES) {
      const bytes = Math.max(f.bytes, chars);
      sizes.set(f.path, bytes);
      tooBig.push({ path: f.path, bytes });
      continue;
    }
    const text = fileText(f.path) ?? '';
    const bytes = f.text !== undefined ? f.bytes : utf8Length(text);
    sizes.set(f.path, bytes);
    if (bytes > MAX_PERSIST_BYTES) tooBig.push({ path: f.path, bytes });
    else all.push({ path: f.path, text, bytes });
  }
  ws.setSizes(sizes);
  let keep = all;
  const dropped: typeof all = [];
  for (;;) {
    const data: PersistedWorkspace = {
      v: 1,
      files: keep.map((f) => ({ path: f.path, text: f.text })),
      openTabs: ws.openTabs,
      active: ws.active,
      skipped: [...tooBig, ...dropped].map((f) => f.path),
    };
    if (writeJson(WORKSPACE_KEY, data)) break;
    if (keep.length === 0) {
      ws.notify({ id: 'storage', level: 'error', text: 'This browser does not allow saving: your work will be lost on reload.' });
      return;
    }
    // Drop the largest remaining file and try again.
    let largest = 0;
    keep.forEach((f, i) => {
      if (f.bytes > (keep[largest]?.bytes ?? 0)) largest = i;
    });
    dropped.push(keep[largest]!);
    keep = keep.filter((_, i) => i !== largest);
  }
  if (tooBig.length > 0) {
    ws.notify({
      id: 'persist-size',
      level: 'warning',
      text: `Not saved in this browser (over ${formatBytes(MAX_PERSIST_BYTES)}): ${tooBig.map((f) => `${f.path} (${formatBytes(f.bytes)})`).join(', ')}. It stays here until you reload.`,
    });
  } else ws.dismiss('persist-size');
  if (dropped.length > 0) {
    ws.notify({
      id: 'storage',
      level: 'warning',
      text: `Browser storage is full: ${dropped.map((f) => f.path).join(', ')} will not survive a reload.`,
    });
  } else ws.dismiss('storage');
}

let bootPromise: Promise<void> | null = null;

export function boot(): Promise<void> {
  bootPromise ??= doBoot();
  return bootPromise;
}

async function firstVisitFiles(): Promise<{ files: { path: string; text: string }[]; open?: string[]; name?: string }> {
  try {
    const idx = await fetchSampleIndex();
    const sample = idx.samples.find((s) => s.id === (idx.default ?? idx.samples[0]?.id));
    if (!sample) return { files: [] };
    const files = await fetchSampleFiles(sample);
    revealFirstError();
    return { files, name: sample.title, open: sample.open ?? [files.find((f) => f.path === 'networking.yaml')?.path ?? files[0]?.path ?? ''] };
  } catch (e) {
    useWorkspace.getState().notify({ id: 'sample', level: 'error', text: `Could not load the default sample: ${e instanceof Error ? e.message : String(e)}` });
    return { files: [] };
  }
}

async function doBoot(): Promise<void> {
  // A link pasted into this tab's address bar changes only the fragment: open it for real.
  window.addEventListener('hashchange', () => {
    if (isShareFragment(location.hash)) location.reload();
  });
  if (isShareFragment(location.hash)) {
    restoreSettings();
    // The decoder loads only here, for an address that is a share link.
    const { openShareLink } = await import('./shareLink.ts');
    openShareLink(location.hash);
    return;
  }
  if (await startLocalWorkspaces(firstVisitFiles)) return;
  await bootLegacy();
}

/** Without IndexedDB: one workspace in localStorage (files over 5 MB are not kept). */
async function bootLegacy(): Promise<void> {
  restoreSettings();
  const saved = loadWorkspace();
  const savedName = readJson<{ name?: unknown }>(LEGACY_TITLE_KEY)?.name;
  if (typeof savedName === 'string' && savedName) useWorkspaces.setState({ currentName: savedName });
  if (saved) {
    useWorkspace.getState().replaceAll(saved.files, saved.openTabs);
    if (saved.active && saved.openTabs.includes(saved.active)) useWorkspace.getState().setActive(saved.active);
    if (saved.skipped && saved.skipped.length > 0) {
      useWorkspace.getState().notify({
        id: 'restored-skipped',
        level: 'warning',
        text: `Not restored (too large to keep in the browser): ${saved.skipped.join(', ')}. Upload them again.`,
      });
    }
  } else {
    try {
      const idx = await fetchSampleIndex();
      await loadSample(idx.default ?? idx.samples[0]?.id ?? '');
      revealFirstError();
    } catch (e) {
      useWorkspace.getState().replaceAll([]);
      useWorkspace
        .getState()
        .notify({ id: 'sample', level: 'error', text: `Could not load the default sample: ${e instanceof Error ? e.message : String(e)}` });
    }
  }

  let timer: ReturnType<typeof setTimeout> | null = null;
  let idle: number | null = null;
  let largeWorkspace = false;
  const cancelIdle = () => {
    if (idle !== null && typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
    idle = null;
  };
  const scheduleSave = () => {
    if (timer) clearTimeout(timer);
    cancelIdle();
    timer = setTimeout(
      () => {
        timer = null;
        if (largeWorkspace && typeof requestIdleCallback === 'function') {
          idle = requestIdleCallback(
            () => {
              idle = null;
              saveWorkspace();
            },
            { timeout: 2000 },
          );
        } else saveWorkspace();
      },
      largeWorkspace ? LARGE_SAVE_DELAY_MS : SAVE_DELAY_MS,
    );
  };
  // What changes the saved workspace: files added, removed, renamed or replaced (their rev),
  // tabs, and every edit in the editor. Not a size measured by the save itself.
  const filesKey = (files: readonly WsFile[]) => files.map((f) => `${f.path}\u0000${f.rev}`).join('\n');
  useWorkspace.subscribe((s, prev) => {
    if (s.openTabs !== prev.openTabs || s.active !== prev.active || (s.files !== prev.files && filesKey(s.files) !== filesKey(prev.files))) scheduleSave();
  });
  onTextEdited((e) => {
    largeWorkspace = e.length > LARGE_WORKSPACE_CHARS;
    scheduleSave();
  });
  useAnalysis.subscribe((s, prev) => {
    if (s.settings !== prev.settings) writeJson(SETTINGS_KEY, s.settings);
  });
  const flushNow = () => {
    if (timer || idle !== null) {
      if (timer) clearTimeout(timer);
      timer = null;
      cancelIdle();
      saveWorkspace();
    }
  };
  window.addEventListener('pagehide', flushNow);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushNow();
  });
  saveWorkspace();
}
