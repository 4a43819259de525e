import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { decodeShareFragment, encodeShareBytes, encodeShareFragment, isShareFragment, linkSizeVerdict, MAX_LINK_CHARS, ShareLinkError, SHARE_PREFIX, type ShareState } from '../../src/core/share/link.ts';
import { crc32, encodeUtf8, fromBase64Url, toBase64Url } from '../../src/core/share/bytes.ts';
import { DICTIONARY_V1_TEXT } from '../../src/core/share/dictionary.ts';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ShareLinkError);
    expect((e as Error).message.length).toBeGreaterThan(20);
    return (e as ShareLinkError).code;
  }
  return 'no error';
}

const bookinfo = ['bookinfo.yaml', 'networking.yaml', 'destination-rules.yaml'].map((f) => ({ path: f, text: readFileSync(`public/samples/bookinfo/${f}`, 'utf8') }));

describe('base64url', () => {
  it('round-trips every length and rejects foreign characters', () => {
    for (let n = 0; n < 40; n++) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n) & 0xff);
      const s = toBase64Url(b);
      expect(s).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(Buffer.from(s, 'base64url').equals(Buffer.from(b))).toBe(true);
      expect(Array.from(fromBase64Url(s) as Uint8Array)).toEqual(Array.from(b));
    }
    expect(fromBase64Url('ab+c')).toEqual({ badAt: 2 });
  });

  it('CRC-32 is the standard one', () => {
    expect(crc32(encodeUtf8('123456789'))).toBe(0xcbf43926);
  });
});

describe('share link format', () => {
  it('round-trips files, the before side, view, settings and the redaction list', () => {
    const state: ShareState = {
      files: [...bookinfo, { path: 'ünïcode/ß.yaml', text: 'a: "😀"\n' }, { path: 'empty.yaml', text: '' }],
      before: [bookinfo[0]!],
      openTabs: ['networking.yaml'],
      view: { file: 'networking.yaml', line: 7, diagnostic: { code: 'IST0101', file: 'networking.yaml', line: 7 }, selections: { proxy: 'productpage-v1' } },
      settings: { includePlaceholders: false, suppressions: ['IST0103=Pod *'] },
      title: 'review',
      redacted: [{ file: 'x.yaml', line: 3, what: 'private key' }],
    };
    const frag = encodeShareFragment(state);
    expect(frag.startsWith(SHARE_PREFIX)).toBe(true);
    expect(isShareFragment('#' + frag)).toBe(true);
    expect(decodeShareFragment('#' + frag)).toEqual(state);
  });

  it('keeps a link of the Bookinfo sample short (the dictionary helps)', () => {
    const frag = encodeShareFragment({ files: bookinfo });
    const plain = toBase64Url(deflateRawSync(Buffer.from(JSON.stringify(bookinfo)), { level: 9 }));
    expect(frag.length).toBeLessThan(plain.length * 0.9);
  });

  it('opens the fixed version-1 link (links already shared keep opening)', () => {
    const link = readFileSync('tests/fixtures/share/v1-link.txt', 'utf8').trim();
    const s = decodeShareFragment(link);
    expect(s.title).toBe('version-1 fixture');
    expect(s.files.map((f) => f.path)).toEqual(['mesh/reviews.yaml', 'mesh/services.yaml']);
    expect(s.files[0]!.text).toContain('host: reviews-v9\n');
    expect(s.before?.[0]?.text).toContain('host: reviews\n');
    expect(s.view).toEqual({ file: 'mesh/reviews.yaml', line: 12, diagnostic: { code: 'IST0101', file: 'mesh/reviews.yaml', line: 12 } });
    expect(s.redacted).toEqual([{ file: 'mesh/secret.yaml', line: 7, what: 'Secret shop/db stringData["password"]' }]);
  });

  it('re-encodes the fixed version-1 link to the very same characters (the writer is stable)', () => {
    const link = readFileSync('tests/fixtures/share/v1-link.txt', 'utf8').trim().replace(/^#/, '');
    expect(encodeShareFragment(decodeShareFragment(link))).toBe(link);
  });

  it('the version-1 dictionary never changes (old links depend on it)', () => {
    expect(crc32(encodeUtf8(DICTIONARY_V1_TEXT)).toString(16)).toBe('4982354d');
  });

  it('refuses what is not a link, foreign characters and broken escapes', () => {
    expect(codeOf(() => decodeShareFragment('#other=1'))).toBe('not-a-link');
    expect(codeOf(() => decodeShareFragment('#share=abc$def'))).toBe('bad-characters');
    expect(codeOf(() => decodeShareFragment('#share=%E0%A4%A'))).toBe('bad-characters');
    expect(codeOf(() => decodeShareFragment('#share='))).toBe('truncated');
  });

  it('says a cut-off link is truncated, at every cut', () => {
    const frag = encodeShareFragment({ files: bookinfo });
    const codes = new Set<string>();
    for (let cut = SHARE_PREFIX.length + 1; cut < frag.length; cut += 37) codes.add(codeOf(() => decodeShareFragment(frag.slice(0, cut))));
    expect([...codes].every((c) => c === 'truncated' || c === 'corrupt')).toBe(true);
    expect(codes.has('truncated')).toBe(true);
  });

  it('says a damaged link is corrupt (flipped bits never decode silently)', () => {
    const bytes = encodeShareBytes({ files: bookinfo });
    let damaged = 0;
    for (let i = 6; i < bytes.length; i += 11) {
      const b = bytes.slice();
      b[i] = b[i]! ^ 0x10;
      const code = codeOf(() => decodeShareFragment(SHARE_PREFIX + toBase64Url(b)));
      expect(code).not.toBe('no error');
      damaged++;
    }
    expect(damaged).toBeGreaterThan(50);
  });

  it('refuses a newer format version and a wrong magic byte', () => {
    const b = encodeShareBytes({ files: [{ path: 'a', text: 'b' }] });
    b[1] = 2;
    expect(codeOf(() => decodeShareFragment(SHARE_PREFIX + toBase64Url(b)))).toBe('unsupported-version');
    b[0] = 0;
    expect(codeOf(() => decodeShareFragment(SHARE_PREFIX + toBase64Url(b)))).toBe('corrupt');
  });

  it('refuses a decompression bomb without unpacking it: declared size over the cap', () => {
    // A hand-made header claiming 1 GiB, then a deflate stream of zeros.
    const zeros = deflateRawSync(Buffer.alloc(8 * 1024 * 1024));
    const header = [0x4d, 1, 0, 0, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x04];
    const link = SHARE_PREFIX + toBase64Url(Uint8Array.from([...header, ...zeros]));
    expect(link.length).toBeLessThan(20_000);
    expect(codeOf(() => decodeShareFragment(link))).toBe('too-large');
  });

  it('refuses a bomb that lies about its size: stops at the declared size', () => {
    const zeros = deflateRawSync(Buffer.alloc(8 * 1024 * 1024));
    const header = [0x4d, 1, 0, 0, 0, 0, 0x80, 0x08]; // claims 1 KiB
    const link = SHARE_PREFIX + toBase64Url(Uint8Array.from([...header, ...zeros]));
    expect(codeOf(() => decodeShareFragment(link))).toBe('corrupt');
    expect(codeOf(() => decodeShareFragment(link, { maxDecompressedBytes: 1000 }))).toBe('too-large');
  });

  it('refuses links longer than browsers accept, and rates link sizes', () => {
    expect(codeOf(() => decodeShareFragment(SHARE_PREFIX + 'A'.repeat(MAX_LINK_CHARS + 1)))).toBe('too-large');
    expect(linkSizeVerdict(2000)).toBe('ok');
    expect(linkSizeVerdict(9000)).toBe('long');
    expect(linkSizeVerdict(MAX_LINK_CHARS + 1)).toBe('too-long');
  });

  it('tolerates line breaks and %-escapes added by mail clients', () => {
    const frag = encodeShareFragment({ files: bookinfo.slice(0, 1) });
    const wrapped = frag.replace(/(.{60})/g, '$1\n');
    expect(decodeShareFragment(wrapped).files).toEqual(bookinfo.slice(0, 1));
    expect(decodeShareFragment(frag.replace(/_/g, '%5F')).files).toEqual(bookinfo.slice(0, 1));
  });

  it('drops view state of the wrong shape instead of failing', () => {
    const frag = encodeShareFragment({ files: [{ path: 'a.yaml', text: 'x' }], openTabs: ['a.yaml', 'nope.yaml'], view: { line: -3 as number, file: 'a.yaml' } });
    const s = decodeShareFragment(frag);
    expect(s.openTabs).toEqual(['a.yaml']);
    expect(s.view).toEqual({ file: 'a.yaml' });
  });
});
