// The byte layer of share links, checked against the specifications it implements:
// base64url (RFC 4648 §5, padding tolerated on input), unsigned LEB128 varints (DWARF 5 §7.6),
// and strict UTF-8 (RFC 3629 §3-4: no overlongs, no surrogates, no lone continuation bytes).
import { describe, expect, it } from 'vitest';
import { ByteReadError, ByteReader, ByteWriter, fromBase64Url, toBase64Url, utf8 } from '../../src/core/share/bytes.ts';

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

describe('base64url (RFC 4648)', () => {
  // RFC 4648 §10 test vectors, without the padding (the URL form of §5 leaves it out).
  const vectors: Array<[string, string]> = [
    ['', ''],
    ['f', 'Zg'],
    ['fo', 'Zm8'],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg'],
    ['fooba', 'Zm9vYmE'],
    ['foobar', 'Zm9vYmFy'],
  ];

  it('encodes and decodes the RFC 4648 §10 vectors', () => {
    for (const [plain, encoded] of vectors) {
      expect(toBase64Url(ascii(plain))).toBe(encoded);
      expect(fromBase64Url(encoded)).toEqual(ascii(plain));
    }
  });

  it('accepts the padded form of the same vectors (§4 padding, tolerated on input)', () => {
    expect(fromBase64Url('Zg==')).toEqual(ascii('f'));
    expect(fromBase64Url('Zm8=')).toEqual(ascii('fo'));
    expect(fromBase64Url('Zm9vYg==')).toEqual(ascii('foob'));
    expect(fromBase64Url('==')).toEqual(new Uint8Array(0));
  });

  it('uses the URL alphabet: 62 is "-" and 63 is "_" (§5), never "+" or "/"', () => {
    expect(toBase64Url(Uint8Array.from([0xfb, 0xff]))).toBe('-_8');
    expect(fromBase64Url('-_8')).toEqual(Uint8Array.from([0xfb, 0xff]));
    expect(fromBase64Url('+/8=')).toEqual({ badAt: 0 });
  });

  it('a single character left over after whole quanta cannot be base64 of whole bytes', () => {
    expect(fromBase64Url('A')).toEqual({ badAt: 0 });
    expect(fromBase64Url('Zm9vY')).toEqual({ badAt: 4 });
    expect(fromBase64Url('Zm9vY==')).toEqual({ badAt: 4 });
  });

  it('names the first character outside the alphabet, including non-ASCII ones', () => {
    expect(fromBase64Url('Zm\u00e9v')).toEqual({ badAt: 2 });
    expect(fromBase64Url('Zm9\u0080')).toEqual({ badAt: 3 });
    expect(fromBase64Url('\u4e2dm9v')).toEqual({ badAt: 0 });
    expect(fromBase64Url('Zm=v')).toEqual({ badAt: 2 });
  });

  it('encodes a large input exactly as Node does (many 4,096-quantum chunks)', () => {
    const big = Uint8Array.from({ length: 50_000 }, (_, i) => (i * 131 + (i >> 8)) & 0xff);
    const text = toBase64Url(big);
    expect(text).toBe(Buffer.from(big).toString('base64url'));
    expect(fromBase64Url(text)).toEqual(big);
  });
});

describe('unsigned LEB128 varints', () => {
  const written = (n: number) => {
    const w = new ByteWriter();
    w.varint(n);
    return Array.from(w.finish());
  };

  it('writes the DWARF examples: 2, 127, 128, 129, 130, 12857 and 624485', () => {
    expect(written(0)).toEqual([0x00]);
    expect(written(2)).toEqual([0x02]);
    expect(written(127)).toEqual([0x7f]);
    expect(written(128)).toEqual([0x80, 0x01]);
    expect(written(129)).toEqual([0x81, 0x01]);
    expect(written(130)).toEqual([0x82, 0x01]);
    expect(written(12857)).toEqual([0xb9, 0x64]);
    expect(written(624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(written(Number.MAX_SAFE_INTEGER)).toEqual([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f]);
  });

  it('reads them back', () => {
    for (const n of [0, 2, 127, 128, 129, 12857, 624485, 2 ** 32, Number.MAX_SAFE_INTEGER])
      expect(new ByteReader(Uint8Array.from(written(n))).varint()).toBe(n);
  });

  it('refuses to write a number LEB128 cannot hold exactly (negative, fractional, unsafe)', () => {
    for (const n of [-1, 0.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN])
      expect(() => new ByteWriter().varint(n)).toThrow(new RangeError(`varint out of range: ${n}`));
  });

  it('reads at most 8 bytes (56 bits, more than a safe integer): a ninth is "number too long"', () => {
    const eight = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
    expect(new ByteReader(Uint8Array.from(eight)).varint()).toBe(2 ** 49);
    const nine = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
    expect(() => new ByteReader(Uint8Array.from(nine)).varint()).toThrow(new ByteReadError('number too long'));
    const nineZero = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00];
    expect(() => new ByteReader(Uint8Array.from(nineZero)).varint()).toThrow('number too long');
  });

  it('a varint cut off after a continuation byte is "unexpected end of data"', () => {
    expect(() => new ByteReader(Uint8Array.from([0x80])).varint()).toThrow(new ByteReadError('unexpected end of data'));
  });
});

describe('the record reader and writer', () => {
  it('writes a string as its UTF-8 length, then its UTF-8 bytes', () => {
    const w = new ByteWriter();
    w.string('é€');
    expect(Array.from(w.finish())).toEqual([5, 0xc3, 0xa9, 0xe2, 0x82, 0xac]);
    expect(new ByteReader(Uint8Array.from([5, 0xc3, 0xa9, 0xe2, 0x82, 0xac])).string()).toBe('é€');
  });

  it('keeps every byte across its internal buffers (small writes, then one larger than a buffer)', () => {
    const w = new ByteWriter();
    const expected: number[] = [];
    for (let i = 0; i < 3000; i++) {
      w.byte(i);
      expected.push(i & 0xff);
    }
    const block = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) & 0xff);
    w.bytes(block);
    w.byte(0xab);
    const out = w.finish();
    expect(out.length).toBe(3000 + 100_000 + 1);
    expect(Array.from(out.subarray(0, 3000))).toEqual(expected);
    expect(out.subarray(3000, 103_000)).toEqual(block);
    expect(out[103_000]).toBe(0xab);
  });

  it('reading past the end is "unexpected end of data", never undefined', () => {
    const r = new ByteReader(Uint8Array.from([7]));
    expect(r.byte()).toBe(7);
    expect(r.done).toBe(true);
    expect(() => r.byte()).toThrow(new ByteReadError('unexpected end of data'));
    expect(() => new ByteReader(new Uint8Array(0)).byte()).toThrow(ByteReadError);
  });

  it('bytes(n) takes exactly the n bytes that are left, and refuses n + 1', () => {
    const r = new ByteReader(Uint8Array.from([1, 2, 3, 4]));
    r.byte();
    expect(() => r.bytes(4)).toThrow(new ByteReadError('unexpected end of data'));
    expect(Array.from(r.bytes(3))).toEqual([2, 3, 4]);
    expect(r.done).toBe(true);
  });
});

describe('strict UTF-8 (RFC 3629)', () => {
  const invalid: Array<[string, number[]]> = [
    ['overlong NUL (C0 80)', [0xc0, 0x80]],
    ['overlong "/" (E0 80 AF)', [0xe0, 0x80, 0xaf]],
    ['overlong in four bytes (F0 80 80 AF)', [0xf0, 0x80, 0x80, 0xaf]],
    ['a UTF-16 surrogate (ED A0 80, U+D800)', [0xed, 0xa0, 0x80]],
    ['a lone continuation byte (80)', [0x41, 0x80, 0x42]],
    ['a lead byte without its continuation (E2 82)', [0xe2, 0x82]],
    ['a byte that never appears (FE)', [0xfe]],
    ['beyond U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
  ];
  for (const [what, bytes] of invalid) {
    it(`refuses ${what}`, () => {
      expect(() => utf8(Uint8Array.from(bytes))).toThrow(new ByteReadError('text is not valid UTF-8'));
    });
  }

  it('reads the RFC 3629 §7 examples', () => {
    expect(utf8(Uint8Array.from([0x41, 0xe2, 0x89, 0xa2, 0xce, 0x91, 0x2e]))).toBe('A\u2262\u0391.');
    expect(utf8(Uint8Array.from([0xed, 0x95, 0x9c, 0xea, 0xb5, 0xad, 0xec, 0x96, 0xb4]))).toBe('\ud55c\uad6d\uc5b4');
    expect(utf8(Uint8Array.from([0xe6, 0x97, 0xa5, 0xe6, 0x9c, 0xac, 0xe8, 0xaa, 0x9e]))).toBe('\u65e5\u672c\u8a9e');
    expect(utf8(Uint8Array.from([0xf0, 0xa3, 0x8e, 0xb4]))).toBe('\u{233b4}');
  });
});
