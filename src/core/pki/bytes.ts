// Byte helpers shared by the certificate code: hex in the spellings openssl and istioctl
// use, comparisons, digests over WebCrypto, and text decoding that never throws.

export function hex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** `AA:BB:CC`, as openssl prints fingerprints and key identifiers. */
export function colonHex(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (const b of bytes) parts.push(b.toString(16).padStart(2, '0').toUpperCase());
  return parts.join(':');
}

export function fromHex(text: string): Uint8Array | undefined {
  const clean = text.replace(/[\s:]/g, '');
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) return undefined;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** A standalone ArrayBuffer holding exactly these bytes (what the libraries and WebCrypto take). */
export function toArrayBuffer(u: Uint8Array): ArrayBuffer {
  return u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** UTF-8 text of bytes (invalid sequences become U+FFFD). */
export function utf8Text(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** Whether bytes are valid UTF-8 made of printable text (tabs and line breaks allowed). */
export function isPrintableUtf8(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

/** WebCrypto's SubtleCrypto, as the platform (browser, worker, Node 20) provides it. */
type Subtle = NonNullable<NonNullable<typeof globalThis.crypto>['subtle']>;

function subtle(): Subtle {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('WebCrypto is not available in this environment');
  return s;
}

export { subtle as webCrypto };

export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest('SHA-256', toArrayBuffer(bytes)));
}

export async function sha1(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest('SHA-1', toArrayBuffer(bytes)));
}
