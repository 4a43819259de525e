// IndexedDB storage of named workspaces. Each record carries a revision: a save names the
// revision it started from and fails with 'conflict' when another tab saved in between, so
// two tabs never silently overwrite each other. Every call resolves (null/false when the
// browser has no IndexedDB, in private modes for instance).
import type { UserSettings } from './analysis.ts';
import { blobText } from './blobText.ts';

/**
 * A stored file: its text, or for a large file (see BLOB_FILE_BYTES) a Blob of its bytes,
 * which IndexedDB keeps by reference instead of copying megabytes of text on every save.
 * Records written before Blobs have `text` only.
 */
export type StoredFile = { path: string; text: string; blob?: undefined } | { path: string; blob: Blob; text?: undefined };

/** A file with its text (what goes on screen). */
export interface TextFile {
  path: string;
  text: string;
}

/** Files of at least this many bytes are stored as a Blob. */
export const BLOB_FILE_BYTES = 1024 * 1024;

export interface StoredWorkspace {
  id: string;
  name: string;
  files: StoredFile[];
  openTabs: string[];
  active: string | null;
  settings?: UserSettings;
  /** The inspector's and panels' selections (tab, proxy, trace, …). */
  selections?: Record<string, string>;
  /** A pinned "before" to review changes against. */
  baseline?: { files: StoredFile[]; pinnedAt: number };
  rev: number;
  updatedAt: number;
}

export interface WorkspaceSummary {
  id: string;
  name: string;
  updatedAt: number;
  files: number;
}

export const DB_NAME = 'mesh-workbench';

const DB_VERSION = 1;
const WS = 'workspaces';
const META = 'meta';

let dbPromise: Promise<IDBDatabase | null> | null = null;

export function openDb(): Promise<IDBDatabase | null> {
  dbPromise ??= new Promise<IDBDatabase | null>((resolve) => {
    try {
      if (typeof indexedDB === 'undefined') return resolve(null);
      const req = indexedDB.open(DB_NAME, DB_VERSION);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains(WS)) db.createObjectStore(WS, { keyPath: 'id' });
        if (!db.objectStoreNames.contains(META)) db.createObjectStore(META);
      };
      req.onsuccess = () => {
        const db = req.result;
        // Another tab upgrading the schema: let it.
        db.onversionchange = () => db.close();
        resolve(db);
      };
      req.onerror = () => resolve(null);
      req.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return dbPromise;
}

/** For tests: forget the open database. */
export function resetDbForTests(): void {
  dbPromise = null;
}

function done<T>(tx: IDBTransaction, value: () => T): Promise<T> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve(value());
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

export async function getWorkspace(id: string): Promise<StoredWorkspace | null> {
  const db = await openDb();
  if (!db) return null;
  const tx = db.transaction(WS, 'readonly');
  const req = tx.objectStore(WS).get(id);
  return done(tx, () => (req.result as StoredWorkspace | undefined) ?? null);
}

export async function listWorkspaces(): Promise<WorkspaceSummary[]> {
  const db = await openDb();
  if (!db) return [];
  const tx = db.transaction(WS, 'readonly');
  const req = tx.objectStore(WS).getAll();
  return done(tx, () =>
    (req.result as StoredWorkspace[])
      .map((w) => ({ id: w.id, name: w.name, updatedAt: w.updatedAt, files: w.files.length }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
  );
}

/**
 * The texts of stored files, in order: Blobs are decoded a piece at a time (a 60 MB file never
 * holds the page for long). A Blob that cannot be read (storage cleared under the page) gives
 * an empty text, and `failed` hears of it.
 */
export async function fileTexts(files: readonly StoredFile[], failed?: (path: string, error: unknown) => void): Promise<TextFile[]> {
  const out: TextFile[] = [];
  for (const f of files) {
    if (!(f.blob instanceof Blob)) {
      out.push({ path: f.path, text: typeof f.text === 'string' ? f.text : '' });
      continue;
    }
    try {
      out.push({ path: f.path, text: await blobText(f.blob) });
    } catch (e) {
      failed?.(f.path, e);
      out.push({ path: f.path, text: '' });
    }
  }
  return out;
}

export type SaveResult = { ok: true; rev: number } | { ok: false; reason: 'conflict'; rev: number } | { ok: false; reason: 'error'; message: string };

/**
 * Writes a workspace if its stored revision is still `baseRev` (0: must not exist yet), or
 * whatever it is when `force`. The new revision is returned.
 */
export async function saveWorkspace(ws: Omit<StoredWorkspace, 'rev' | 'updatedAt'>, baseRev: number, force = false): Promise<SaveResult> {
  const db = await openDb();
  if (!db) return { ok: false, reason: 'error', message: 'This browser does not allow saving (no IndexedDB).' };
  try {
    const tx = db.transaction([WS, META], 'readwrite');
    const store = tx.objectStore(WS);
    let result: SaveResult = { ok: false, reason: 'error', message: 'not saved' };
    withStoredRev(tx, ws.id, (cur) => {
      if (cur !== baseRev && !force) {
        result = { ok: false, reason: 'conflict', rev: cur };
        return;
      }
      const rev = cur + 1;
      store.put({ ...ws, rev, updatedAt: Date.now() } satisfies StoredWorkspace);
      tx.objectStore(META).put(rev, revKey(ws.id));
      result = { ok: true, rev };
    });
    return await done(tx, () => result);
  } catch (e) {
    const name = e instanceof DOMException ? e.name : '';
    return {
      ok: false,
      reason: 'error',
      message:
        name === 'QuotaExceededError'
          ? 'Browser storage is full: free some space (delete a workspace) to keep saving.'
          : `Saving failed: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

/**
 * The meta record that mirrors a workspace's revision. Saves check the revision on every
 * edit; reading it from the workspace record would deserialize all its files (megabytes)
 * on the page's thread each time.
 */
function revKey(id: string): string {
  return `rev:${id}`;
}

/** Calls `then` with the stored revision of workspace `id` (0 when there is none), inside `tx`. */
function withStoredRev(tx: IDBTransaction, id: string, then: (rev: number) => void): void {
  const req = tx.objectStore(META).get(revKey(id));
  req.onsuccess = () => {
    if (typeof req.result === 'number') return then(req.result);
    // Saved before the revision had its own record: read it from the workspace once.
    const get = tx.objectStore(WS).get(id);
    get.onsuccess = () => then((get.result as StoredWorkspace | undefined)?.rev ?? 0);
  };
}

/** Changes fields of a stored workspace (name, baseline) without touching its files. */
export async function patchWorkspace(id: string, patch: Partial<Pick<StoredWorkspace, 'name' | 'baseline'>>): Promise<number | null> {
  const db = await openDb();
  if (!db) return null;
  const tx = db.transaction([WS, META], 'readwrite');
  const store = tx.objectStore(WS);
  let rev: number | null = null;
  const get = store.get(id);
  get.onsuccess = () => {
    const cur = get.result as StoredWorkspace | undefined;
    if (!cur) return;
    const next = { ...cur, ...patch, rev: cur.rev + 1, updatedAt: Date.now() };
    if ('baseline' in patch && patch.baseline === undefined) delete next.baseline;
    store.put(next);
    tx.objectStore(META).put(next.rev, revKey(id));
    rev = next.rev;
  };
  return done(tx, () => rev);
}

export async function deleteWorkspace(id: string): Promise<void> {
  const db = await openDb();
  if (!db) return;
  const tx = db.transaction([WS, META], 'readwrite');
  tx.objectStore(WS).delete(id);
  tx.objectStore(META).delete(revKey(id));
  await done(tx, () => undefined);
}

export async function getMeta<T>(key: string): Promise<T | undefined> {
  const db = await openDb();
  if (!db) return undefined;
  const tx = db.transaction(META, 'readonly');
  const req = tx.objectStore(META).get(key);
  return done(tx, () => req.result as T | undefined);
}

export async function setMeta(key: string, value: unknown): Promise<void> {
  const db = await openDb();
  if (!db) return;
  const tx = db.transaction(META, 'readwrite');
  tx.objectStore(META).put(value, key);
  await done(tx, () => undefined);
}

export function newWorkspaceId(): string {
  const c = globalThis.crypto as Crypto | undefined;
  return c?.randomUUID ? c.randomUUID() : `ws-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
