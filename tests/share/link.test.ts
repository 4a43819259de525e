import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import {
  decodeShareBytes,
  decodeShareFragment,
  encodeShareBytes,
  encodeShareBytesWithRawMeta,
  encodeShareFragment,
  isShareFragment,
  linkSizeVerdict,
  MAX_LINK_CHARS,
  MAX_META_BYTES,
  MAX_META_STRING_CHARS,
  MAX_OPEN_TABS,
  MAX_REDACTED_ITEMS,
  MAX_SELECTIONS,
  MAX_SUPPRESSIONS,
  MAX_TITLE_CHARS,
  ShareLinkError,
  SHARE_PREFIX,
  type ShareState,
} from '../../src/core/share/link.ts';
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

const bookinfo = ['bookinfo.yaml', 'networking.yaml', 'destination-rules.yaml'].map((f) => ({
  path: f,
  text: readFileSync(`public/samples/bookinfo/${f}`, 'utf8'),
}));

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

  it('takes format 0, which was never written, for damage rather than a newer version', () => {
    const b = encodeShareBytes({ files: [{ path: 'a', text: 'b' }] });
    b[1] = 0;
    expect(codeOf(() => decodeShareFragment(SHARE_PREFIX + toBase64Url(b)))).toBe('corrupt');
    expect(() => decodeShareFragment(SHARE_PREFIX + toBase64Url(b))).toThrow(/format 0/);
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
    const frag = encodeShareFragment({
      files: [{ path: 'a.yaml', text: 'x' }],
      openTabs: ['a.yaml', 'nope.yaml'],
      view: { line: -3 as number, file: 'a.yaml' },
    });
    const s = decodeShareFragment(frag);
    expect(s.openTabs).toEqual(['a.yaml']);
    expect(s.view).toEqual({ file: 'a.yaml' });
  });
});

/** A well-formed link (real framing, checksum and compression) around one file and exactly this meta text. */
const withMeta = (meta: string) => SHARE_PREFIX + toBase64Url(encodeShareBytesWithRawMeta({ files: [{ path: 'a.yaml', text: 'kind: Namespace\n' }] }, meta));
const entry = { file: 'a.yaml', line: 3, what: 'private key' };

function errorOf(fn: () => unknown): ShareLinkError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ShareLinkError);
    return e as ShareLinkError;
  }
  throw new Error('no error');
}

describe('decoding is total: crafted meta in an otherwise valid link', () => {
  // Fuzz counterexample (share-link, seed 7, before the fix): String() on this entry threw
  // "TypeError: Cannot convert object to primitive value".
  it('a redacted entry whose what has no usable toString/valueOf is corrupt, not a TypeError', () => {
    const link = withMeta(
      '{"redacted":[{"file":"dir/b.yaml","line":425,"what":"private key"},{"what":{"toString":null,"valueOf":null},"line":{"valueOf":{},"toString":[]},"__proto__":true}]}',
    );
    expect(errorOf(() => decodeShareFragment(link)).code).toBe('corrupt');
    expect(errorOf(() => decodeShareFragment(link)).message).toMatch(/list of removed secrets is malformed \(entry 2 /);
  });

  it('a redacted entry whose file is an object (even one with a toString) is corrupt, not "[object Object]"', () => {
    for (const file of ['{"toString":1}', '{}', '[{"toString":1}]', '{"__proto__":{"toString":1}}', '3', 'null']) {
      const e = errorOf(() => decodeShareFragment(withMeta(`{"redacted":[{"file":${file},"line":1,"what":"x"}]}`)));
      expect(e.code, file).toBe('corrupt');
      expect(e.message, file).toContain('entry 1 has no file name');
    }
  });

  it('a redacted entry without a positive safe-integer line, or not an object, or a list that is not a list: corrupt', () => {
    for (const line of ['0', '-1', '1.5', '9007199254740993', '"3"', '{"valueOf":3}', 'null'])
      expect(
        codeOf(() => decodeShareFragment(withMeta(`{"redacted":[{"file":"a.yaml","line":${line},"what":"x"}]}`))),
        line,
      ).toBe('corrupt');
    for (const redacted of ['[0]', '[null]', '[["a.yaml",1,"x"]]', '{"0":{"file":"a.yaml","line":1,"what":"x"}}', '"a.yaml"', '{"toString":1}'])
      expect(
        codeOf(() => decodeShareFragment(withMeta(`{"redacted":${redacted}}`))),
        redacted,
      ).toBe('corrupt');
    // Inherited properties are not fields: an entry whose only keys are on the prototype has none.
    expect(codeOf(() => decodeShareFragment(withMeta('{"redacted":[{"__proto__":{"file":"a.yaml","line":1,"what":"x"}}]}')))).toBe('corrupt');
  });

  it('the reason names the entry; a well-formed list decodes as it is', () => {
    const s = decodeShareFragment(withMeta(JSON.stringify({ redacted: [entry, { ...entry, line: 9 }] })));
    expect(s.redacted).toEqual([entry, { ...entry, line: 9 }]);
  });

  // The example: a 115 KB link that unpacked to 900,000 "redacted" entries.
  it('a short link listing 900,000 removed values is refused as too large, naming the cap', () => {
    const link = withMeta(`{"redacted":[${new Array(900_000).fill('{}').join(',')}]}`);
    expect(link.length).toBeLessThan(120_000);
    const e = errorOf(() => decodeShareFragment(link));
    expect(e.code).toBe('too-large');
    expect(e.message).toBe(
      `The link lists 900,000 removed secret values, more than the ${MAX_REDACTED_ITEMS.toLocaleString('en-US')} a link may carry; it was not opened.`,
    );
  });

  it('exactly MAX_REDACTED_ITEMS entries open; one more does not', () => {
    const list = (n: number) => `{"redacted":[${new Array(n).fill(JSON.stringify(entry)).join(',')}]}`;
    expect(decodeShareFragment(withMeta(list(MAX_REDACTED_ITEMS))).redacted).toHaveLength(MAX_REDACTED_ITEMS);
    expect(codeOf(() => decodeShareFragment(withMeta(list(MAX_REDACTED_ITEMS + 1))))).toBe('too-large');
  });

  // Fuzz counterexamples (seed 7, before the fix): these decoded to lists over the caps.
  it('open tabs, suppressions and panel selections over their caps are too large', () => {
    const many = (n: number, item: string) => `[${new Array(n).fill(item).join(',')}]`;
    expect(errorOf(() => decodeShareFragment(withMeta(`{"openTabs":${many(MAX_OPEN_TABS + 1, '"a.yaml"')}}`))).message).toContain(
      'open tabs, more than the 5,000',
    );
    expect(errorOf(() => decodeShareFragment(withMeta(`{"settings":{"suppressions":${many(MAX_SUPPRESSIONS + 1, '"IST0101"')}}}`))).message).toContain(
      'suppressions, more than the 1,000',
    );
    const sel = Object.fromEntries(Array.from({ length: MAX_SELECTIONS + 1 }, (_, i) => [`panel${i}`, 'x']));
    expect(errorOf(() => decodeShareFragment(withMeta(JSON.stringify({ view: { selections: sel } })))).message).toContain(
      'panel selections, more than the 100',
    );
    // Up to the cap they open; repeated tabs are one tab.
    expect(decodeShareFragment(withMeta(`{"openTabs":${many(MAX_OPEN_TABS, '"a.yaml"')}}`)).openTabs).toEqual(['a.yaml']);
  });

  it('a string of the view state over MAX_META_STRING_CHARS is too large (fuzz counterexample: a view.file of 4,097 characters)', () => {
    const long = 'x'.repeat(MAX_META_STRING_CHARS + 1);
    for (const meta of [
      { view: { file: long } },
      { view: { selections: { proxy: long } } },
      { view: { diagnostic: { code: long, file: 'a.yaml' } } },
      { settings: { suppressions: [long] } },
      { redacted: [{ ...entry, what: long }] },
    ]) {
      expect(
        codeOf(() => decodeShareFragment(withMeta(JSON.stringify(meta)))),
        JSON.stringify(meta).slice(0, 40),
      ).toBe('too-large');
    }
    expect(decodeShareFragment(withMeta(JSON.stringify({ view: { file: long.slice(1) } }))).view?.file).toHaveLength(MAX_META_STRING_CHARS);
  });

  it('a meta record over MAX_META_BYTES is refused before it is parsed', () => {
    const meta = `{"title":"${'y'.repeat(MAX_META_BYTES)}"}`;
    const e = errorOf(() => decodeShareFragment(withMeta(meta)));
    expect(e.code).toBe('too-large');
    expect(e.message).toContain('more than the 4.0 MB a link may carry');
  });

  // Fuzz counterexamples (seed 7, before the fix): decoded, then re-encoded to a different state.
  it('an empty redacted list and an empty title decode to none (they round-trip)', () => {
    const s = decodeShareFragment(withMeta('{"openTabs":[{"__proto__":null}],"redacted":[],"title":"","hasBefore":true}'));
    expect(s).toEqual({ files: [{ path: 'a.yaml', text: 'kind: Namespace\n' }], before: [] });
    expect(decodeShareFragment(encodeShareFragment(s))).toEqual(s);
  });

  it('view state of the wrong type is dropped; own keys only; a __proto__ panel is dropped', () => {
    const meta =
      '{"openTabs":[{"toString":1},"a.yaml",3],"view":{"file":{"toString":1},"line":"4","diagnostic":{"code":{},"file":"a.yaml"},"selections":{"__proto__":"x","toString":"y","proxy":{"valueOf":1}}},"settings":{"includePlaceholders":"no","suppressions":[{"toString":1},"IST0101"]},"title":{"toString":1},"toString":1,"__proto__":{"title":"inherited"}}';
    const s = decodeShareFragment(withMeta(meta));
    expect(s).toEqual({
      files: [{ path: 'a.yaml', text: 'kind: Namespace\n' }],
      openTabs: ['a.yaml'],
      view: { selections: { toString: 'y' } },
      settings: { suppressions: ['IST0101'] },
    });
    expect(Object.getPrototypeOf(s.view!.selections)).toBe(Object.prototype);
    expect(decodeShareFragment(encodeShareFragment(s))).toEqual(s);
  });

  it('deep nesting, meta that is not an object, not JSON or not UTF-8 give a state or a ShareLinkError', () => {
    expect(decodeShareFragment(withMeta(`{"view":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)).view).toBeUndefined();
    expect(decodeShareFragment(withMeta('[1,2]')).files).toHaveLength(1);
    expect(decodeShareFragment(withMeta('"x"')).files).toHaveLength(1);
    expect(codeOf(() => decodeShareFragment(withMeta('{"redacted":[')))).toBe('corrupt');
    const bytes = encodeShareBytesWithRawMeta({ files: [] }, Uint8Array.from([0x7b, 0xff, 0x7d]));
    expect(codeOf(() => decodeShareFragment(SHARE_PREFIX + toBase64Url(bytes)))).toBe('corrupt');
  });

  it('the title is cut to MAX_TITLE_CHARS without splitting a character', () => {
    const title = 'x'.repeat(MAX_TITLE_CHARS - 1) + '\u{1F600}tail';
    const s = decodeShareFragment(withMeta(JSON.stringify({ title })));
    expect(s.title).toBe('x'.repeat(MAX_TITLE_CHARS - 1));
    expect(decodeShareFragment(encodeShareFragment(s))).toEqual(s);
  });

  it('an unexpected exception inside the reader is a corrupt link, not a crash', () => {
    expect(codeOf(() => decodeShareBytes(null as unknown as Uint8Array))).toBe('corrupt');
  });

  it('the writer refuses a state over a cap with the same error (no link a reader would refuse)', () => {
    const files = [{ path: 'a.yaml', text: 'x' }];
    const e = errorOf(() => encodeShareFragment({ files, redacted: new Array(MAX_REDACTED_ITEMS + 1).fill(entry) }));
    expect(e.code).toBe('too-large');
    expect(e.message).toContain('at most 10,000 removed secret values');
    expect(codeOf(() => encodeShareFragment({ files, settings: { suppressions: new Array(MAX_SUPPRESSIONS + 1).fill('IST0101') } }))).toBe('too-large');
    expect(codeOf(() => encodeShareFragment({ files, view: { file: 'x'.repeat(MAX_META_STRING_CHARS + 1) } }))).toBe('too-large');
    expect(decodeShareFragment(encodeShareFragment({ files, redacted: new Array(MAX_REDACTED_ITEMS).fill(entry) })).redacted).toHaveLength(MAX_REDACTED_ITEMS);
  });
});
