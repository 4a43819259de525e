// Byte helpers for share links: base64url without padding, CRC-32, and a small record
// writer/reader (unsigned LEB128 varints, length-prefixed UTF-8). Pure: no DOM, no Node.

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64URL_INDEX = (() => {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < B64URL.length; i++) t[B64URL.charCodeAt(i)] = i;
  return t;
})();

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  const chunk: string[] = [];
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    chunk.push(B64URL[n >>> 18]! + B64URL[(n >>> 12) & 63]! + B64URL[(n >>> 6) & 63]! + B64URL[n & 63]!);
    if (chunk.length >= 4096) {
      out += chunk.join('');
      chunk.length = 0;
    }
  }
  out += chunk.join('');
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += B64URL[n >>> 18]! + B64URL[(n >>> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += B64URL[n >>> 18]! + B64URL[(n >>> 12) & 63]! + B64URL[(n >>> 6) & 63]!;
  }
  return out;
}

/** Decodes base64url (padding tolerated); returns the offset of the first bad character instead on failure. */
export function fromBase64Url(text: string): Uint8Array | { badAt: number } {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */) end--;
  if (end % 4 === 1) return { badAt: end - 1 };
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? B64URL_INDEX[c]! : -1;
    if (v < 0) return { badAt: i };
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE, as in zip and gzip). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export class ByteWriter {
  private parts: Uint8Array[] = [];
  private cur = new Uint8Array(1024);
  private pos = 0;
  private total = 0;

  private room(n: number): void {
    if (this.pos + n <= this.cur.length) return;
    this.parts.push(this.cur.subarray(0, this.pos));
    this.cur = new Uint8Array(Math.max(n, 64 * 1024));
    this.pos = 0;
  }

  byte(b: number): void {
    this.room(1);
    this.cur[this.pos++] = b & 0xff;
    this.total++;
  }

  varint(n: number): void {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`varint out of range: ${n}`);
    while (n >= 0x80) {
      this.byte((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    this.byte(n);
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.cur.set(b, this.pos);
    this.pos += b.length;
    this.total += b.length;
  }

  /** A length-prefixed UTF-8 string. */
  string(s: string): void {
    const b = encoder.encode(s);
    this.varint(b.length);
    this.bytes(b);
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.total);
    let o = 0;
    for (const p of [...this.parts, this.cur.subarray(0, this.pos)]) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }
}

/** Thrown by ByteReader when the bytes end early or hold something impossible. */
export class ByteReadError extends Error {}

export class ByteReader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  byte(): number {
    if (this.pos >= this.buf.length) throw new ByteReadError('unexpected end of data');
    return this.buf[this.pos++]!;
  }

  varint(): number {
    let n = 0;
    let mul = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.byte();
      n += (b & 0x7f) * mul;
      if (!(b & 0x80)) return n;
      mul *= 0x80;
    }
    throw new ByteReadError('number too long');
  }

  bytes(n: number): Uint8Array {
    if (n > this.buf.length - this.pos) throw new ByteReadError('unexpected end of data');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  string(): string {
    return utf8(this.bytes(this.varint()));
  }
}

export function utf8(b: Uint8Array): string {
  try {
    return decoder.decode(b);
  } catch {
    throw new ByteReadError('text is not valid UTF-8');
  }
}

export function encodeUtf8(s: string): Uint8Array {
  return encoder.encode(s);
}
