// The files of a save, with large files as Blobs (see idb.ts). A save takes what it needs of
// each file synchronously (`captureFiles`: a small file's text, a large file's Blob from the
// last save or a reader of its text as it is now) and builds the new Blobs afterwards, across
// tasks (`storedFiles`). A large file that did not change since the last save costs nothing:
// its Blob is reused while the file's text stamp is the same.
import { BLOB_FILE_BYTES, type StoredFile, type TextFile } from './idb.ts';
import { textBlob, type TextPieces } from './blobText.ts';
import { editCount, textModel } from './texts.ts';
import { fileText, getFile, textStamp, type WsFile } from './workspace.ts';

/** The Blob of a file's text, by path, and the text stamp it holds. */
const blobs = new Map<string, { stamp: string; blob: Blob }>();

/**
 * Hands over the bytes a just-added file's text was decoded from (the File of an upload), so
 * its first save stores them as they are instead of encoding the text again. `rev` is the
 * file's rev after it was added; the Blob is used only while the file has that text (until
 * its first edit). Its text must be what `decodeFileBytes` gives for these bytes (a UTF-16 or
 * BOM-prefixed file is fine: loading decodes it the same way).
 */
export function rememberFileBlob(path: string, rev: number, blob: Blob): void {
  // textStamp's form, for the file at that rev with no edit since.
  blobs.set(path, { stamp: `${rev}:${editCount(path)}`, blob });
}

/** A Blob that holds `path`'s current text (read from storage): the next saves reuse it. */
export function rememberStoredBlob(path: string, blob: Blob): void {
  const stamp = textStamp(path);
  if (stamp !== undefined) blobs.set(path, { stamp, blob });
}

/** The Blob for a file's text as it is now, when there is one. */
export function cachedBlob(path: string, file: WsFile | undefined = getFile(path)): Blob | undefined {
  const hit = blobs.get(path);
  return hit && hit.stamp === textStamp(path, file) ? hit.blob : undefined;
}

/** Whether a file is stored as a Blob: by its size, or its editor text's length (it may have grown since its size was taken). */
export function isLargeFile(f: WsFile): boolean {
  if (f.bytes >= BLOB_FILE_BYTES) return true;
  // Each character is at least one byte.
  return f.text === undefined && (textModel(f.path)?.getValueLength() ?? 0) >= BLOB_FILE_BYTES;
}

/** A file taken for a save: stored as it is, or a large file whose Blob is still to be built. */
export type CapturedFile = StoredFile | { path: string; stamp: string; pieces: string | TextPieces };

export interface CapturedFiles {
  files: CapturedFile[];
  /** Each file's text stamp when it was taken. */
  stamps: Map<string, string>;
}

/**
 * Takes the files for a save, synchronously: later edits do not change what gets saved. A
 * large file's text is not built here: its editor model's snapshot (or the store's string) is
 * read later, a piece at a time.
 */
export function captureFiles(files: readonly WsFile[]): CapturedFiles {
  const stamps = new Map<string, string>();
  const out = files.map((f): CapturedFile => {
    const stamp = textStamp(f.path, f) as string;
    stamps.set(f.path, stamp);
    if (!isLargeFile(f)) return { path: f.path, text: fileText(f.path) ?? '' };
    const blob = cachedBlob(f.path, f);
    if (blob) return { path: f.path, blob };
    const model = f.text === undefined ? textModel(f.path) : undefined;
    const pieces = model?.createSnapshot?.() ?? fileText(f.path) ?? '';
    return { path: f.path, stamp, pieces };
  });
  // Files gone from the workspace keep no Blob alive.
  for (const path of blobs.keys()) if (!stamps.has(path)) blobs.delete(path);
  return { files: out, stamps };
}

/** The stored form of captured files: each large file's Blob built across tasks, and remembered for the next save. */
export async function storedFiles(captured: CapturedFiles): Promise<StoredFile[]> {
  const out: StoredFile[] = [];
  for (const f of captured.files) {
    if (!('pieces' in f)) {
      out.push(f);
      continue;
    }
    const blob = await textBlob(f.pieces);
    blobs.set(f.path, { stamp: f.stamp, blob });
    out.push({ path: f.path, blob });
  }
  return out;
}

/** The stored form of each baseline (by identity: a pin makes a new array), built once. */
const baselines = new WeakMap<readonly TextFile[], Promise<StoredFile[]>>();

/** A baseline's files for a save: its large texts as Blobs, built on its first save and reused after. */
export function storedBaseline(files: readonly TextFile[]): Promise<StoredFile[]> {
  let stored = baselines.get(files);
  if (!stored) {
    stored = (async () => {
      const out: StoredFile[] = [];
      // A text of that many characters has at least that many bytes.
      for (const f of files) out.push(f.text.length >= BLOB_FILE_BYTES ? { path: f.path, blob: await textBlob(f.text) } : f);
      return out;
    })();
    baselines.set(files, stored);
  }
  return stored;
}

/** A baseline read from storage: saves write back the files it was read from. */
export function rememberStoredBaseline(files: readonly TextFile[], stored: StoredFile[]): void {
  baselines.set(files, Promise.resolve(stored));
}
