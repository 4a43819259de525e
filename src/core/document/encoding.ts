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
  const encoding = detectEncoding(bytes);
  if (encoding === 'utf-8') return new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes);
  let data = bytes;
  if (encoding === 'utf-16be') {
    // Swapped to little-endian: every runtime's TextDecoder knows UTF-16LE.
    data = new Uint8Array(bytes.length & ~1);
    for (let i = 0; i + 1 < bytes.length; i += 2) {
      data[i] = bytes[i + 1] as number;
      data[i + 1] = bytes[i] as number;
    }
  }
  return new TextDecoder('utf-16le', { fatal: false, ignoreBOM: false }).decode(data);
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
