// Read user-supplied files (upload or drop) into workspace files, a piece at a time: a large
// file (a whole-cluster dump) says how far it is and can be stopped, and no single step holds
// the page for long (each piece is decoded on its own; see FileDecoder).
import { FileDecoder } from '../../core/document/encoding.ts';

export interface ReadFile {
  path: string;
  text: string;
  bytes: number;
  /** The file read (its bytes decode to `text`): saved as it is while the text is unchanged. */
  file?: File;
}

/** Longest stretch of reading per task. */
const YIELD_EVERY_MS = 16;

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
    const text = await readOne(f, (n) => options.onProgress?.(before + n), options.signal);
    before += f.size;
    const rel = (f as File & { webkitRelativePath?: string }).webkitRelativePath;
    out.push({ path: rel || f.name, text, bytes: f.size, file: f });
  }
  return out;
}

async function readOne(file: File, onProgress: (read: number) => void, signal: AbortSignal | undefined): Promise<string> {
  signal?.throwIfAborted();
  // Never throws on content: UTF-16 is decoded, invalid UTF-8 becomes U+FFFD, NUL bytes stay NUL (the binary check sees them).
  const decoder = new FileDecoder();
  const parts: string[] = [];
  const reader = file.stream().getReader();
  const stop = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', stop, { once: true });
  try {
    let read = 0;
    let since = performance.now();
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      read += value.byteLength;
      parts.push(decoder.push(value));
      onProgress(read);
      // Buffered pieces resolve one after another without leaving the task: let clicks in.
      if (performance.now() - since > YIELD_EVERY_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        signal?.throwIfAborted();
        since = performance.now();
      }
    }
    parts.push(decoder.end());
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  return parts.join('');
}
