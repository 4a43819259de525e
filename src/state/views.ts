// Capability views (Proxy config, Data plane, Describe, Certificates, Review) open in the main area as
// tabs beside the files, as VS Code opens its settings or diff editors. A view is shown alone
// or split beside the active file. Which views are open, which one shows and the split are
// kept in localStorage, so a reload brings the same screen back.
import { create } from 'zustand';
import { readJson, writeJson } from './persistence.ts';

export type ViewId = 'proxy' | 'dataplane' | 'describe' | 'certs' | 'review';

export const VIEW_IDS: readonly ViewId[] = ['proxy', 'dataplane', 'describe', 'certs', 'review'];

export const VIEW_TITLES: Record<ViewId, string> = {
  proxy: 'Proxy config',
  dataplane: 'Data plane',
  describe: 'Describe',
  certs: 'Certificates',
  review: 'Review',
};

export const VIEWS_KEY = 'mesh-workbench/views/v1';

export interface ViewsState {
  /** Open view tabs, in tab order (after the file tabs). */
  open: ViewId[];
  /** The view on screen; null when the active file is. */
  active: ViewId | null;
  /** The active view is shown beside the active file instead of over it. */
  split: boolean;
  /** Opens (or shows) a view. `split`: beside the active file. */
  openView(id: ViewId, opts?: { split?: boolean }): void;
  closeView(id: ViewId): void;
  /** A file tab was chosen: a full-size view steps aside (a split one stays). */
  showFile(): void;
  setSplit(split: boolean): void;
}

function isView(v: unknown): v is ViewId {
  return typeof v === 'string' && (VIEW_IDS as readonly string[]).includes(v);
}

function initial(): Pick<ViewsState, 'open' | 'active' | 'split'> {
  const saved = readJson<{ open?: unknown; active?: unknown; split?: unknown }>(VIEWS_KEY);
  const open = Array.isArray(saved?.open) ? [...new Set(saved.open.filter(isView))] : [];
  const active = isView(saved?.active) && open.includes(saved.active) ? saved.active : null;
  return { open, active, split: saved?.split === true && active !== null };
}

function save(s: Pick<ViewsState, 'open' | 'active' | 'split'>): void {
  writeJson(VIEWS_KEY, { open: s.open, active: s.active, split: s.split });
}

export const useViews = create<ViewsState>()((set, get) => ({
  ...initial(),
  openView(id, opts) {
    const s = get();
    const open = s.open.includes(id) ? s.open : [...s.open, id];
    const split = opts?.split ?? (s.active !== null ? s.split : false);
    set({ open, active: id, split });
    save(get());
  },
  closeView(id) {
    const s = get();
    const i = s.open.indexOf(id);
    if (i < 0) return;
    const open = s.open.filter((v) => v !== id);
    // Closing the view on screen shows its neighbour when no file takes its place.
    const active = s.active === id ? (s.split ? null : (open[Math.min(i, open.length - 1)] ?? null)) : s.active;
    set({ open, active, split: active !== null && s.split });
    save(get());
  },
  showFile() {
    const s = get();
    if (s.active === null || s.split) return;
    set({ active: null });
    save(get());
  },
  setSplit(split) {
    const s = get();
    if (s.active === null) return;
    set({ split });
    save(get());
  },
}));

/**
 * Going to a config line (a source link in a view, a Problems row) shows the file: a full-size
 * view steps aside even when the file was already the active one.
 */
export function followReveals(subscribe: (cb: () => void) => () => void): () => void {
  return subscribe(() => useViews.getState().showFile());
}
