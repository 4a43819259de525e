// Large texts to Blobs of UTF-8 and back, a piece at a time. IndexedDB stores a Blob by
// reference (putting a record that holds one costs well under a millisecond), where a 60 MB
// string is structured-cloned on the page's thread. But `new Blob([hugeString])` encodes the
// whole string in one task, so texts are encoded in small pieces across tasks here, and read
// back the same way.
import { FileDecoder } from '../core/document/encoding.ts';
import { nextTask } from '../core/nextTask.ts';

/** Characters encoded at a time: at most 768 KiB of UTF-8. */
const SLICE_CHARS = 256 * 1024;
/** Bytes decoded at a time. */
const SLICE_BYTES = 1024 * 1024;
/** Work done in one task before the page gets a turn. */
const TASK_MS = 12;

/** A text handed over in pieces: `read()` gives the next piece, null after the last (Monaco's ITextSnapshot). */
export interface TextPieces {
  read(): string | null;
}

function onePiece(text: string): TextPieces {
  let left: string | null = text;
  return {
    read() {
      const piece = left;
      left = null;
      return piece;
    },
  };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * The UTF-8 Blob of a text (a string, or pieces read one by one), encoded a slice at a time
 * with a turn for the page every ~12 ms. The bytes are those of TextEncoder on the whole text:
 * a surrogate pair split between pieces is joined again (a lone surrogate becomes U+FFFD, as
 * it would there).
 */
export async function textBlob(source: string | TextPieces): Promise<Blob> {
  const pieces = typeof source === 'string' ? onePiece(source) : source;
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  /** A high surrogate that ended the previous piece: its pair may start the next. */
  let carry = '';
  let start = performance.now();
  for (let piece = pieces.read(); piece !== null; piece = pieces.read()) {
    if (piece.length === 0) continue;
    let from = 0;
    // Not `carry + piece`: slicing that would copy the whole (maybe huge) piece at once.
    if (carry) {
      const paired = isLowSurrogate(piece.charCodeAt(0));
      parts.push(encoder.encode(paired ? carry + piece[0] : carry));
      from = paired ? 1 : 0;
      carry = '';
    }
    let to = piece.length;
    if (to > from && isHighSurrogate(piece.charCodeAt(to - 1))) {
      carry = piece.slice(to - 1);
      to--;
    }
    for (let at = from; at < to; ) {
      let end = Math.min(at + SLICE_CHARS, to);
      if (end < to && isHighSurrogate(piece.charCodeAt(end - 1))) end--;
      parts.push(encoder.encode(piece.slice(at, end)));
      at = end;
      if (performance.now() - start > TASK_MS) {
        await nextTask();
        start = performance.now();
      }
    }
  }
  if (carry) parts.push(encoder.encode(carry));
  // Copies bytes only (no encoding): cheap even for tens of MB.
  return new Blob(parts as BlobPart[]);
}

export interface BlobTextOptions {
  /** Bytes read so far. */
  onProgress?: (read: number) => void;
  /** Stops reading: `blobText` rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * The text of a Blob written by `textBlob` or of a file as uploaded (UTF-8 or UTF-16, any BOM):
 * decoded as `decodeFileBytes` does, a piece at a time with a turn for the page every ~12 ms.
 * Never throws on content: invalid UTF-8 becomes U+FFFD, NUL bytes stay NUL (the binary check sees them).
 */
export async function blobText(blob: Blob, { onProgress, signal }: BlobTextOptions = {}): Promise<string> {
  signal?.throwIfAborted();
  const decoder = new FileDecoder();
  const parts: string[] = [];
  const reader = blob.stream().getReader();
  const stop = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', stop, { once: true });
  try {
    let read = 0;
    let start = performance.now();
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      for (let at = 0; at < value.length; at += SLICE_BYTES) {
        parts.push(decoder.push(value.subarray(at, at + SLICE_BYTES)));
        if (performance.now() - start > TASK_MS) {
          await nextTask();
          signal?.throwIfAborted();
          start = performance.now();
        }
      }
      read += value.byteLength;
      onProgress?.(read);
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  parts.push(decoder.end());
  return parts.join('');
}
