// A small strict DER reader: enough to walk certificates, public keys and private keys
// without pulling in a full ASN.1 library. Lengths must be definite and minimally encoded.

export interface Tlv {
  tag: number;
  /** Offset of the first content byte. */
  start: number;
  /** Offset just past the content. */
  end: number;
  /** Offset just past the element (same as `end`). */
  next: number;
  /** Offset of the tag byte. */
  offset: number;
}

export class DerError extends Error {}

export const TAG = {
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  SEQUENCE: 0x30,
  /** [0] and [1] constructed context tags. */
  CTX0: 0xa0,
  CTX1: 0xa1,
} as const;

/** Reads one element at `offset` (within `limit`, default the end of the buffer). */
export function readTlv(bytes: Uint8Array, offset: number, limit = bytes.length): Tlv {
  if (offset + 2 > limit) throw new DerError('truncated element');
  const tag = bytes[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError('high tag numbers are not supported');
  let len = bytes[offset + 1]!;
  let pos = offset + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0) throw new DerError('indefinite length');
    if (n > 4) throw new DerError('length too large');
    if (pos + n > limit) throw new DerError('truncated length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + bytes[pos + i]!;
    if (bytes[pos] === 0 || len < 0x80) throw new DerError('non-minimal length');
    pos += n;
  }
  const end = pos + len;
  if (end > limit) throw new DerError('truncated content');
  return { tag, start: pos, end, next: end, offset };
}

/** The elements inside a constructed element (or a byte range). */
export function children(bytes: Uint8Array, parent: { start: number; end: number }): Tlv[] {
  const out: Tlv[] = [];
  let pos = parent.start;
  while (pos < parent.end) {
    const t = readTlv(bytes, pos, parent.end);
    out.push(t);
    pos = t.next;
  }
  return out;
}

export function expectTag(t: Tlv | undefined, tag: number, what: string): Tlv {
  if (!t || t.tag !== tag) throw new DerError(`expected ${what}`);
  return t;
}

export function content(bytes: Uint8Array, t: Tlv): Uint8Array {
  return bytes.subarray(t.start, t.end);
}

/** An INTEGER as a bigint (two's complement). */
export function readBigInt(bytes: Uint8Array, t: Tlv): bigint {
  if (t.tag !== TAG.INTEGER || t.end === t.start) throw new DerError('expected INTEGER');
  let v = 0n;
  for (let i = t.start; i < t.end; i++) v = (v << 8n) | BigInt(bytes[i]!);
  if (bytes[t.start]! & 0x80) v -= 1n << BigInt(8 * (t.end - t.start));
  return v;
}

/** Unsigned big-endian bytes as a bigint. */
export function bytesToBigInt(b: Uint8Array): bigint {
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  return v;
}

/** Dotted text of an OBJECT IDENTIFIER. */
export function readOid(bytes: Uint8Array, t: Tlv): string {
  if (t.tag !== TAG.OID || t.end === t.start) throw new DerError('expected OBJECT IDENTIFIER');
  const parts: number[] = [];
  let v = 0;
  for (let i = t.start; i < t.end; i++) {
    const b = bytes[i]!;
    // X.690 §8.19.2: fewest octets, so no subidentifier starts with 0x80; the last octet of
    // each has bit 8 clear. Go (cryptobyte readBase128Int) refuses both.
    if (b === 0x80 && v === 0) throw new DerError('malformed OBJECT IDENTIFIER');
    if (b & 0x80 && i === t.end - 1) throw new DerError('malformed OBJECT IDENTIFIER');
    v = v * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(v);
      v = 0;
    }
  }
  const first = parts.shift() ?? 0;
  const head = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80];
  return [...head, ...parts].join('.');
}

/** BIT STRING payload (must have no unused bits). */
export function readBitString(bytes: Uint8Array, t: Tlv): Uint8Array {
  if (t.tag !== TAG.BIT_STRING || t.end === t.start) throw new DerError('expected BIT STRING');
  if (bytes[t.start] !== 0) throw new DerError('BIT STRING with unused bits');
  return bytes.subarray(t.start + 1, t.end);
}

/** Splits back-to-back DER elements (e.g. several certificates in one PEM block). */
export function splitElements(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const t = readTlv(bytes, pos);
    out.push(bytes.subarray(pos, t.next));
    pos = t.next;
  }
  return out;
}
