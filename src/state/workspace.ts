// Workspace store: files, open tabs, active file and user-facing notices.
import { create } from 'zustand';
import { classify, utf8Bytes, type FileKind } from './fileKind.ts';

export interface WsFile {
  path: string;
  text: string;
  bytes: number;
  kind: FileKind;
  /**
   * Bumped whenever the text changes from outside the editor (sample, upload, reload),
   * so the editor knows to replace its model's content. Typing does not bump it.
   */
  rev: number;
}

export type NoticeLevel = 'info' | 'warning' | 'error';

export interface Notice {
  /** Stable id: re-posting a notice with the same id replaces it. */
  id: string;
  level: NoticeLevel;
  text: string;
}

export interface WorkspaceState {
  files: WsFile[];
  openTabs: string[];
  active: string | null;
  notices: Notice[];
  /** False until the persisted workspace or the default sample is in. */
  ready: boolean;

  replaceAll(files: { path: string; text: string }[], open?: string[]): void;
  addFiles(files: { path: string; text: string; bytes?: number }[]): void;
  createUntitled(initialText?: string): string;
  rename(from: string, to: string): string | null;
  remove(path: string): void;
  editText(path: string, text: string): void;
  /** Replaces a file's text from outside the editor (a quick fix on a file without a model). */
  replaceText(path: string, text: string): void;
  openFile(path: string): void;
  closeTab(path: string): void;
  setActive(path: string): void;
  notify(n: Notice): void;
  dismiss(id: string): void;
}

let revCounter = 0;

export function makeFile(path: string, text: string, bytes?: number): WsFile {
  const b = bytes ?? utf8Bytes(text);
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

  replaceAll(files, open) {
    const list = files.map((f) => makeFile(f.path, f.text));
    const paths = new Set(list.map((f) => f.path));
    const tabs = (open ?? []).filter((p) => paths.has(p));
    if (tabs.length === 0 && list[0]) tabs.push(list[0].path);
    set({ files: list, openTabs: tabs, active: tabs[tabs.length - 1] ?? null, ready: true });
  },

  addFiles(incoming) {
    if (incoming.length === 0) return;
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
    const path = nextUntitled(get().files);
    set((s) => ({ files: [...s.files, makeFile(path, initialText)], openTabs: [...s.openTabs, path], active: path }));
    return path;
  },

  rename(from, toRaw) {
    const to = normalizePath(toRaw);
    const s = get();
    if (!to || to === from) return null;
    if (s.files.some((f) => f.path === to)) return `A file named ${to} already exists.`;
    set({
      files: s.files.map((f) => (f.path === from ? { ...f, path: to, rev: ++revCounter } : f)),
      openTabs: s.openTabs.map((p) => (p === from ? to : p)),
      active: s.active === from ? to : s.active,
    });
    return null;
  },

  remove(path) {
    const s = get();
    const tabs = s.openTabs.filter((p) => p !== path);
    let active = s.active;
    if (active === path) {
      const i = s.openTabs.indexOf(path);
      active = tabs[Math.min(i, tabs.length - 1)] ?? null;
    }
    set({ files: s.files.filter((f) => f.path !== path), openTabs: tabs, active });
  },

  editText(path, text) {
    set((s) => ({
      files: s.files.map((f) => {
        if (f.path !== path || f.text === text) return f;
        const bytes = utf8Bytes(text);
        return { ...f, text, bytes, kind: classify(text, bytes) };
      }),
    }));
  },

  replaceText(path, text) {
    set((s) => ({
      files: s.files.map((f) => {
        if (f.path !== path || f.text === text) return f;
        const bytes = utf8Bytes(text);
        return { ...f, text, bytes, kind: classify(text, bytes), rev: ++revCounter };
      }),
    }));
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
    set((s) => ({ notices: [...s.notices.filter((x) => x.id !== n.id), n] }));
  },

  dismiss(id) {
    set((s) => ({ notices: s.notices.filter((x) => x.id !== id) }));
  },
}));

export function getFile(path: string | null): WsFile | undefined {
  if (!path) return undefined;
  return useWorkspace.getState().files.find((f) => f.path === path);
}
