// Reading a file in pieces (FileDecoder) gives the same text as decoding all of its bytes at
// once with the platform's TextDecoder, whatever the encoding and wherever the pieces are cut.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeFileBytes, detectEncoding, FileDecoder } from '../../src/core/document/encoding.ts';

/** The whole-buffer reading, written from the WHATWG Encoding rules rather than our decoder. */
function wholeDecode(bytes: Uint8Array): string {
  const encoding = detectEncoding(bytes);
  if (encoding === 'utf-8') return new TextDecoder('utf-8').decode(bytes);
  if (encoding === 'utf-16le') return new TextDecoder('utf-16le').decode(bytes);
  // UTF-16BE: the platform decoder reads it directly too; a lone last byte is dropped (not U+FFFD).
  return new TextDecoder('utf-16be').decode(bytes.subarray(0, bytes.length & ~1));
}

function decodeInPieces(bytes: Uint8Array, cuts: number[]): string {
  const d = new FileDecoder();
  let out = '';
  let at = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    out += d.push(bytes.subarray(at, c));
    at = c;
  }
  out += d.push(bytes.subarray(at));
  return out + d.end();
}

const text = fc.string({ unit: 'binary', maxLength: 300 });
const encoded = fc.oneof(
  text.map((t) => new TextEncoder().encode(t)),
  text.map((t) => new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(t)])),
  text.map((t) => utf16(t, true, true)),
  text.map((t) => utf16(t, false, true)),
  fc.string({ unit: fc.constantFrom('a', ':', ' ', '\n', '-'), minLength: 80, maxLength: 300 }).map((t) => utf16(t, true, false)),
  fc.string({ unit: fc.constantFrom('a', ':', ' ', '\n', '-'), minLength: 80, maxLength: 300 }).map((t) => utf16(t, false, false)),
  fc.uint8Array({ maxLength: 400 }),
);

function utf16(t: string, little: boolean, bom: boolean): Uint8Array {
  const out: number[] = bom ? (little ? [0xff, 0xfe] : [0xfe, 0xff]) : [];
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (little) out.push(c & 0xff, c >> 8);
    else out.push(c >> 8, c & 0xff);
  }
  return new Uint8Array(out);
}

describe('FileDecoder', () => {
  it('gives the whole-file text however the bytes are cut', () => {
    fc.assert(
      fc.property(
        encoded.chain((bytes) => fc.tuple(fc.constant(bytes), fc.array(fc.nat({ max: bytes.length }), { maxLength: 12 }))),
        ([bytes, cuts]) => {
          expect(decodeInPieces(bytes, cuts)).toBe(wholeDecode(bytes));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('drops a byte-order mark and keeps a later U+FEFF', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xef, 0xbb, 0xbf]);
    expect(decodeInPieces(bytes, [1, 2, 5])).toBe('a\ufeff');
  });

  it('decides UTF-16 without a BOM on the first 128 bytes, even when they come one at a time', () => {
    const bytes = utf16('kind: Service\n'.repeat(20), false, false);
    const cuts = Array.from({ length: 130 }, (_, i) => i);
    expect(decodeInPieces(bytes, cuts)).toBe('kind: Service\n'.repeat(20));
    expect(decodeFileBytes(bytes)).toBe('kind: Service\n'.repeat(20));
  });

  it('turns invalid UTF-8 cut across pieces into U+FFFD as a whole read does', () => {
    const bytes = new Uint8Array([0x61, 0xe2, 0x82, 0x62, 0xf0, 0x9f]);
    expect(decodeInPieces(bytes, [2, 3, 5])).toBe('a\ufffdb\ufffd');
  });
});
