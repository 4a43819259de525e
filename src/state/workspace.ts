// Workspace store: files, open tabs, active file and user-facing notices. A file's text is
// here until the editor gives it a model; from then on the model holds it (see texts.ts), and
// `fileText` reads it from wherever it is.
import { create } from 'zustand';
import { classify, MAX_EDITOR_BYTES, type FileKind } from './fileKind.ts';
import { utf8Length } from '../core/go/strings.ts';
import { editCount, onTextEdited, textModel, type TextEdited } from './texts.ts';

export interface WsFile {
  path: string;
  /** The text, while no editor model holds it (undefined once the editor's model does). */
  text?: string;
  /** UTF-8 size: exact when the text was set; for a file being edited, as of the last save. */
  bytes: number;
  kind: FileKind;
  /**
   * Bumped whenever the text changes from outside the editor (sample, upload, reload, a fix
   * on a file without a model), so the editor replaces its model's content and the worker
   * gets the whole text. Typing does not bump it.
   */
  rev: number;
}

export type NoticeLevel = 'info' | 'warning' | 'error';

export interface Notice {
  /** Stable id: re-posting a notice with the same id replaces it. */
  id: string;
  level: NoticeLevel;
  text: string;
  /** A button on the notice (e.g. "Download networking.yaml"). */
  action?: { label: string; testId?: string; run(): void };
}

/** What the page says when something would change a shared link's files. */
export const READ_ONLY_NOTICE = 'This is a shared link, read-only. Use "Copy to my workspaces" to edit it.';

export interface WorkspaceState {
  files: WsFile[];
  openTabs: string[];
  active: string | null;
  notices: Notice[];
  /** False until the persisted workspace or the default sample is in. */
  ready: boolean;
  /**
   * A shared link is open (review mode): the files are read-only. Every action below that
   * changes a file (replace all, add, create, rename, remove, replace a text) refuses and says
   * so; opening, closing and switching tabs still work.
   */
  readOnly: boolean;

  /** Puts files on screen (a stored workspace, a sample, a link's files); refused while read-only. */
  replaceAll(files: { path: string; text: string }[], open?: string[]): void;
  addFiles(files: { path: string; text: string; bytes?: number }[]): void;
  /** The new file's path, or null while read-only. */
  createUntitled(initialText?: string): string | null;
  rename(from: string, to: string): string | null;
  remove(path: string): void;
  /** Replaces a file's text from outside the editor (a quick fix on a file without a model). */
  replaceText(path: string, text: string): void;
  /** Turns review mode's read-only files on or off (a shared link sets it after putting its files on screen). */
  setReadOnly(readOnly: boolean): void;
  /** The editor's models now hold these files' texts: drop them here. `resend`: their text changed on the way in (line ends), so the worker needs it whole. */
  releaseTexts(paths: readonly string[], resend?: readonly string[]): void;
  /** A model is going away while its file stays (it became binary or too large): the text comes back here. */
  takeBackText(path: string, text: string, patch?: Partial<Pick<WsFile, 'kind' | 'bytes'>>): void;
  /** The text changed as a whole inside its model (line-end change): the worker needs it whole. */
  touch(path: string): void;
  /** Updates sizes measured later (persistence measures edited files on its debounce). */
  setSizes(sizes: ReadonlyMap<string, number>): void;
  openFile(path: string): void;
  closeTab(path: string): void;
  setActive(path: string): void;
  notify(n: Notice): void;
  dismiss(id: string): void;
}

let revCounter = 0;
/** Notices the person dismissed, by id: the text they dismissed. */
const dismissedNotices = new Map<string, string>();

export function makeFile(path: string, text: string, bytes?: number): WsFile {
  const b = bytes ?? utf8Length(text);
  return { path, text, bytes: b, kind: classify(text, b), rev: ++revCounter };
}

/** Normalise a user-typed path: forward slashes, no leading `./` or `/`, no empty segments. */
export function normalizePath(p: string): string {
  return p
    .trim()
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

/**
 * Refuses a change to the files while a shared link is open: posts the read-only notice and
 * returns true (the caller then does nothing).
 */
function refusedReadOnly(get: () => WorkspaceState): boolean {
  const s = get();
  if (!s.readOnly) return false;
  s.notify({ id: 'read-only', level: 'info', text: READ_ONLY_NOTICE });
  return true;
}

/** Whether the open files are read-only (a shared link is open). */
export function isReadOnly(): boolean {
  return useWorkspace.getState().readOnly;
}

/** Refuses an action that would change a file while a shared link is open (posts the notice); true when refused. */
export function refuseWhenReadOnly(): boolean {
  return refusedReadOnly(useWorkspace.getState);
}

function nextUntitled(files: WsFile[]): string {
  const taken = new Set(files.map((f) => f.path));
  for (let n = 1; ; n++) {
    const p = `untitled-${n}.yaml`;
    if (!taken.has(p)) return p;
  }
}

export const useWorkspace = create<WorkspaceState>()((set, get) => ({
  files: [],
  openTabs: [],
  active: null,
  notices: [],
  ready: false,
  readOnly: false,

  replaceAll(files, open) {
    if (refusedReadOnly(get)) return;
    const list = files.map((f) => makeFile(f.path, f.text));
    const paths = new Set(list.map((f) => f.path));
    const tabs = (open ?? []).filter((p) => paths.has(p));
    if (tabs.length === 0 && list[0]) tabs.push(list[0].path);
    set({ files: list, openTabs: tabs, active: tabs[tabs.length - 1] ?? null, ready: true });
  },

  addFiles(incoming) {
    if (incoming.length === 0 || refusedReadOnly(get)) return;
    const files = [...get().files];
    const index = new Map(files.map((f, i) => [f.path, i]));
    const added: string[] = [];
    for (const f of incoming) {
      const path = normalizePath(f.path) || nextUntitled(files);
      const file = makeFile(path, f.text, f.bytes);
      const at = index.get(path);
      if (at === undefined) {
        index.set(path, files.length);
        files.push(file);
      } else files[at] = file;
      added.push(path);
    }
    const tabs = [...get().openTabs];
    for (const p of added) if (!tabs.includes(p)) tabs.push(p);
    set({ files, openTabs: tabs, active: added[0] ?? get().active });
  },

  createUntitled(initialText = '') {
    if (refusedReadOnly(get)) return null;
    const path = nextUntitled(get().files);
    set((s) => ({ files: [...s.files, makeFile(path, initialText)], openTabs: [...s.openTabs, path], active: path }));
    return path;
  },

  rename(from, toRaw) {
    const to = normalizePath(toRaw);
    const s = get();
    if (!to || to === from) return null;
    if (refusedReadOnly(get)) return READ_ONLY_NOTICE;
    if (s.files.some((f) => f.path === to)) return `A file named ${to} already exists.`;
    // The text moves with the file: the old path's model goes, the new path gets one.
    const text = fileText(from);
    set({
      files: s.files.map((f) => (f.path === from ? { ...f, path: to, text, rev: ++revCounter } : f)),
      openTabs: s.openTabs.map((p) => (p === from ? to : p)),
      active: s.active === from ? to : s.active,
    });
    return null;
  },

  remove(path) {
    if (refusedReadOnly(get)) return;
    const s = get();
    const tabs = s.openTabs.filter((p) => p !== path);
    let active = s.active;
    if (active === path) {
      const i = s.openTabs.indexOf(path);
      active = tabs[Math.min(i, tabs.length - 1)] ?? null;
    }
    set({ files: s.files.filter((f) => f.path !== path), openTabs: tabs, active });
  },

  replaceText(path, text) {
    if (refusedReadOnly(get)) return;
    set((s) => ({
      files: s.files.map((f) => {
        if (f.path !== path || f.text === text) return f;
        const bytes = utf8Length(text);
        return { ...f, text, bytes, kind: classify(text, bytes), rev: ++revCounter };
      }),
    }));
  },

  setReadOnly(readOnly) {
    if (get().readOnly !== readOnly) set({ readOnly });
  },

  releaseTexts(paths, resend = []) {
    if (paths.length === 0 && resend.length === 0) return;
    const release = new Set(paths);
    const bump = new Set(resend);
    set((s) => ({
      files: s.files.map((f) => {
        if (!release.has(f.path) && !bump.has(f.path)) return f;
        const out: WsFile = { ...f, rev: bump.has(f.path) ? ++revCounter : f.rev };
        if (release.has(f.path)) delete out.text;
        return out;
      }),
    }));
  },

  takeBackText(path, text, patch) {
    set((s) => ({ files: s.files.map((f) => (f.path === path ? { ...f, ...patch, text } : f)) }));
  },

  touch(path) {
    set((s) => ({ files: s.files.map((f) => (f.path === path ? { ...f, rev: ++revCounter } : f)) }));
  },

  setSizes(sizes) {
    if (![...sizes].some(([p, b]) => get().files.some((f) => f.path === p && f.bytes !== b))) return;
    set((s) => ({ files: s.files.map((f) => (sizes.has(f.path) && sizes.get(f.path) !== f.bytes ? { ...f, bytes: sizes.get(f.path)! } : f)) }));
  },

  openFile(path) {
    const s = get();
    if (!s.files.some((f) => f.path === path)) return;
    set({ openTabs: s.openTabs.includes(path) ? s.openTabs : [...s.openTabs, path], active: path });
  },

  closeTab(path) {
    const s = get();
    const i = s.openTabs.indexOf(path);
    if (i < 0) return;
    const tabs = s.openTabs.filter((p) => p !== path);
    const active = s.active === path ? (tabs[Math.min(i, tabs.length - 1)] ?? null) : s.active;
    set({ openTabs: tabs, active });
  },

  setActive(path) {
    if (get().openTabs.includes(path)) set({ active: path });
  },

  notify(n) {
    // A notice the person dismissed stays dismissed while it says the same thing.
    if (dismissedNotices.get(n.id) === n.text) return;
    set((s) => ({ notices: [...s.notices.filter((x) => x.id !== n.id), n] }));
  },

  dismiss(id) {
    const n = get().notices.find((x) => x.id === id);
    if (n) dismissedNotices.set(id, n.text);
    set((s) => ({ notices: s.notices.filter((x) => x.id !== id) }));
  },
}));

export function getFile(path: string | null): WsFile | undefined {
  if (!path) return undefined;
  return useWorkspace.getState().files.find((f) => f.path === path);
}

/**
 * A file's current text: its store entry's while it has one (set from outside the editor and
 * not yet taken by a model), else its editor model's. Builds the whole string from a model, so
 * call it when the whole text is needed, not per keystroke.
 */
export function fileText(path: string): string | undefined {
  const f = getFile(path);
  if (!f) return undefined;
  return f.text ?? textModel(path)?.getValue();
}

/** A short name for a file's current text: it changes with every edit and never repeats for a path. */
export function textStamp(path: string, file: WsFile | undefined = getFile(path)): string | undefined {
  return file ? `${file.rev}:${editCount(path)}` : undefined;
}

/** Inserted text that could turn a file binary (NUL, C0 controls other than tab and line ends). */
const SUSPICIOUS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f\ufffd]/;

/**
 * After an edit in the editor: re-classify the file only when the edit could change its kind
 * (suspicious characters typed, or the text grown near the editor's size limit).
 */
function checkKindAfterEdit(e: TextEdited): void {
  const suspicious = e.changes.some((c) => SUSPICIOUS.test(c.text));
  if (!suspicious && e.length * 3 <= MAX_EDITOR_BYTES) return;
  // After the editor's change event has run its course: the model may be closed as a result.
  queueMicrotask(() => {
    const f = getFile(e.path);
    if (f?.kind !== 'text' || f.text !== undefined) return;
    const text = textModel(e.path)?.getValue();
    if (text === undefined) return;
    const bytes = utf8Length(text);
    const kind = classify(text, bytes);
    if (kind !== 'text') useWorkspace.getState().takeBackText(e.path, text, { kind, bytes });
  });
}

onTextEdited(checkKindAfterEdit);
