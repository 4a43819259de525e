// localStorage persistence: a reload never loses work. Every access is guarded: storage
// may be unavailable (privacy mode), full (quota), or hold data from an older build.

export interface PersistedFile {
  path: string;
  text: string;
}

export interface PersistedWorkspace {
  v: 1;
  files: PersistedFile[];
  openTabs: string[];
  active: string | null;
  /** Paths that exist but whose text was too large to keep (restored as missing). */
  skipped?: string[];
}

export const WORKSPACE_KEY = 'mesh-workbench/workspace/v1';
export const SETTINGS_KEY = 'mesh-workbench/settings/v1';
export const LAYOUT_KEY = 'mesh-workbench/layout/v1';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readJson<T>(key: string): T | null {
  const s = storage();
  if (!s) return null;
  try {
    const raw = s.getItem(key);
    return raw == null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

/** Returns false when the value could not be stored (quota, no storage). */
export function writeJson(key: string, value: unknown): boolean {
  const s = storage();
  if (!s) return false;
  try {
    s.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

export function loadWorkspace(): PersistedWorkspace | null {
  const w = readJson<PersistedWorkspace>(WORKSPACE_KEY);
  if (w?.v !== 1 || !Array.isArray(w.files)) return null;
  const files = w.files.filter((f) => f && typeof f.path === 'string' && typeof f.text === 'string');
  return {
    v: 1,
    files,
    openTabs: Array.isArray(w.openTabs) ? w.openTabs.filter((p) => typeof p === 'string') : [],
    active: typeof w.active === 'string' ? w.active : null,
    skipped: Array.isArray(w.skipped) ? w.skipped.filter((p) => typeof p === 'string') : [],
  };
}
