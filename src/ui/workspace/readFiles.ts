// Read user-supplied files (upload or drop) into workspace files, a piece at a time: a large
// file (a whole-cluster dump) says how far it is and can be stopped, and no single step holds
// the page for long (each piece is decoded on its own: blobText, the reader of stored files too).
import { blobText } from '../../state/blobText.ts';

export interface ReadFile {
  path: string;
  text: string;
  bytes: number;
  /** The file read (its bytes decode to `text`): saved as it is while the text is unchanged. */
  file?: File;
}

export interface ReadOptions {
  /** Bytes read so far, of all the files together. */
  onProgress?: (read: number) => void;
  /** Stops reading: `readFiles` rejects with the signal's reason. */
  signal?: AbortSignal;
}

export async function readFiles(list: Iterable<File>, options: ReadOptions = {}): Promise<ReadFile[]> {
  const out: ReadFile[] = [];
  let before = 0;
  for (const f of list) {
    const text = await blobText(f, { onProgress: (n) => options.onProgress?.(before + n), signal: options.signal });
    before += f.size;
    const rel = (f as File & { webkitRelativePath?: string }).webkitRelativePath;
    out.push({ path: rel || f.name, text, bytes: f.size, file: f });
  }
  return out;
}
