// Bytes of a file to text. Manifests are UTF-8, but Windows tools (PowerShell's `>`, some
// editors) write UTF-16; reading those as UTF-8 would give a "binary" file full of NULs.

/** Which encoding the bytes are in: a BOM decides, else a NUL in every other byte means UTF-16. */
export function detectEncoding(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  // Without a BOM: ASCII text in UTF-16 has a zero byte in every pair (first or second).
  const pairs = Math.min(bytes.length >> 1, 64);
  if (pairs < 2) return 'utf-8';
  let le = true;
  let be = true;
  for (let i = 0; i < pairs; i++) {
    const a = bytes[2 * i] as number;
    const b = bytes[2 * i + 1] as number;
    if (!(a !== 0 && b === 0)) le = false;
    if (!(a === 0 && b !== 0)) be = false;
  }
  return le ? 'utf-16le' : be ? 'utf-16be' : 'utf-8';
}

/** The text of a file (any BOM dropped; invalid UTF-8 becomes U+FFFD, never an error). */
export function decodeFileBytes(bytes: Uint8Array): string {
  const decoder = new FileDecoder();
  return decoder.push(bytes) + decoder.end();
}

/**
 * Bytes to text a piece at a time, as a large file is read: the same text as decodeFileBytes
 * on the whole file, however the bytes are cut. The encoding is decided on the first 128 bytes
 * (more than detectEncoding looks at), so pieces are held back until there are that many.
 */
export class FileDecoder {
  private head: Uint8Array | null = new Uint8Array(0);
  private decoder?: TextDecoder;
  private swap = false;
  /** A UTF-16BE byte whose pair is in the next piece. */
  private oddByte: number | undefined;

  push(piece: Uint8Array): string {
    if (this.head) {
      const joined = new Uint8Array(this.head.length + piece.length);
      joined.set(this.head);
      joined.set(piece, this.head.length);
      if (joined.length < 128) {
        this.head = joined;
        return '';
      }
      this.head = null;
      this.start(joined);
      return this.decode(joined, true);
    }
    return this.decode(piece, true);
  }

  /** The text of whatever is held back (a short file, or an incomplete character at the end). */
  end(): string {
    if (this.head) {
      const head = this.head;
      this.head = null;
      this.start(head);
      return this.decode(head, false);
    }
    return this.decode(new Uint8Array(0), false);
  }

  private start(first: Uint8Array): void {
    const encoding = detectEncoding(first);
    this.swap = encoding === 'utf-16be';
    // Swapped to little-endian: every runtime's TextDecoder knows UTF-16LE.
    this.decoder = new TextDecoder(encoding === 'utf-8' ? 'utf-8' : 'utf-16le', { fatal: false, ignoreBOM: false });
  }

  private decode(bytes: Uint8Array, stream: boolean): string {
    const decoder = this.decoder as TextDecoder;
    if (!this.swap) return decoder.decode(bytes, { stream });
    let data = bytes;
    if (this.oddByte !== undefined) {
      data = new Uint8Array(bytes.length + 1);
      data[0] = this.oddByte;
      data.set(bytes, 1);
      this.oddByte = undefined;
    }
    const even = data.length & ~1;
    // A lone last byte waits for its pair; at the end of the file it is dropped, as a whole-file read drops it.
    if (even < data.length && stream) this.oddByte = data[even] as number;
    const swapped = new Uint8Array(even);
    for (let i = 0; i + 1 < even; i += 2) {
      swapped[i] = data[i + 1] as number;
      swapped[i + 1] = data[i] as number;
    }
    return decoder.decode(swapped, { stream });
  }
}

/**
 * True for UTF-16 text that was read as UTF-8 or Latin-1: a NUL after (or before) most
 * ASCII characters. Such text cannot be analyzed, but it is not binary either.
 */
export function looksLikeMisreadUtf16(text: string): boolean {
  let start = 0;
  while (
    start < text.length &&
    start < 4 &&
    (text.charCodeAt(start) === 0xfffd || text.charCodeAt(start) === 0xff || text.charCodeAt(start) === 0xfe || text.charCodeAt(start) === 0xfeff)
  )
    start++;
  const sample = text.slice(start, start + 256);
  if (sample.length < 8) return false;
  let zerosEven = 0;
  let zerosOdd = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample.charCodeAt(i) === 0) {
      if (i % 2 === 0) zerosEven++;
      else zerosOdd++;
    }
  }
  const half = sample.length / 2;
  return Math.max(zerosEven, zerosOdd) >= half * 0.8 && Math.min(zerosEven, zerosOdd) <= half * 0.05;
}
