// Share links against their documented format (docs/sharing.md "Format", the top of link.ts): magic
// 0x4D, version 1, CRC-32 big-endian, LEB128 payload length, raw deflate (RFC 1951) with the
// version-1 dictionary, tagged records. Links are built here by an independent writer (Node's
// zlib and CRC-32, LEB128 by hand, RFC 1951 stored blocks), and every refusal is checked for
// its code and the exact message the reader is shown.
import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import {
  decodeShareBytes,
  decodeShareFragment,
  encodeShareBytes,
  encodeShareBytesWithRawMeta,
  isShareFragment,
  linkSizeVerdict,
  MAX_DECOMPRESSED_BYTES,
  MAX_META_BYTES,
  ShareLinkError,
  type ShareState,
} from '../../src/core/share/link.ts';
import { toBase64Url } from '../../src/core/share/bytes.ts';
import { DICTIONARY_V1_TEXT } from '../../src/core/share/dictionary.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const dict = Buffer.from(DICTIONARY_V1_TEXT, 'utf8');
const AGAIN = 'Ask for the link again.';

function leb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n % 128;
    n = Math.floor(n / 128);
    if (n === 0) return [...out, b];
    out.push(b | 0x80);
  }
}
function concat(...parts: Array<ArrayLike<number>>): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
const record = (tag: number, body: ArrayLike<number>) => concat(leb(tag), leb(body.length), body);
function fileRec(tag: number, path: string, text = ''): Uint8Array {
  const p = enc(path);
  return record(tag, concat(leb(p.length), p, enc(text)));
}
const metaRec = (json: string) => record(3, enc(json));

/** RFC 1951 §3.2.4 stored blocks (no compression), the last one final. */
function stored(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i === 0 || i < data.length; i += 65535) {
    const part = data.subarray(i, i + 65535);
    const last = i + 65535 >= data.length;
    out.push(last ? 1 : 0, part.length & 0xff, part.length >>> 8, ~part.length & 0xff, (~part.length >>> 8) & 0xff, ...part);
  }
  return Uint8Array.from(out);
}

interface Frame {
  magic?: number;
  version?: number;
  crc?: number;
  declared?: number;
  body?: Uint8Array;
}
function frame(payload: ArrayLike<number>, o: Frame = {}): Uint8Array {
  const p = Uint8Array.from(payload);
  const crc = o.crc ?? zlib.crc32(p);
  const body = o.body ?? zlib.deflateRawSync(p, { dictionary: dict });
  return concat([o.magic ?? 0x4d, o.version ?? 1, crc >>> 24, (crc >>> 16) & 0xff, (crc >>> 8) & 0xff, crc & 0xff], leb(o.declared ?? p.length), body);
}

/** Reads one of our links with the independent tools: header fields and the records. */
function parse(bytes: Uint8Array, inflate = true) {
  let at = 6;
  let length = 0;
  for (let mul = 1; ; mul *= 128) {
    const b = bytes[at++]!;
    length += (b & 0x7f) * mul;
    if (!(b & 0x80)) break;
  }
  const payload = inflate ? new Uint8Array(zlib.inflateRawSync(bytes.subarray(at), { dictionary: dict })) : new Uint8Array(0);
  const records: Array<{ tag: number; body: Uint8Array }> = [];
  let r = 0;
  const varint = () => {
    let n = 0;
    for (let mul = 1; ; mul *= 128) {
      const b = payload[r++]!;
      n += (b & 0x7f) * mul;
      if (!(b & 0x80)) return n;
    }
  };
  while (r < payload.length) {
    const tag = varint();
    const len = varint();
    records.push({ tag, body: payload.subarray(r, r + len) });
    r += len;
  }
  const crc = ((bytes[2]! << 24) | (bytes[3]! << 16) | (bytes[4]! << 8) | bytes[5]!) >>> 0;
  return { magic: bytes[0], version: bytes[1], crc, length, payload, records };
}

function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ShareLinkError);
    expect((e as Error).name).toBe('ShareLinkError');
    return { code: (e as ShareLinkError).code, message: (e as Error).message };
  }
  throw new Error('the link opened');
}
const open = (payload: ArrayLike<number>, o: Frame = {}, cap?: number) =>
  decodeShareBytes(frame(payload, o), cap === undefined ? {} : { maxDecompressedBytes: cap });
const refusal = (payload: ArrayLike<number>, o: Frame = {}, cap?: number) => failure(() => open(payload, o, cap));
const withMeta = (json: string) => open(concat(fileRec(1, 'a.yaml', 'x'), metaRec(json)));
const metaRefusal = (json: string) => failure(() => withMeta(json));
const tooLargeWriter = (what: string) => ({
  code: 'too-large',
  message: `A share link can carry at most ${what}. Share fewer files, or download the workspace and send the file instead.`,
});
const writerRefusal = (state: ShareState) => failure(() => encodeShareBytes(state));

describe('what the writer writes (read back with zlib and a hand-written record reader)', () => {
  it('magic, version 1, the CRC-32 of the payload big-endian, its LEB128 length, one file record', () => {
    const l = parse(encodeShareBytes({ files: [{ path: 'a.yaml', text: 'kind: A\n' }] }));
    expect([l.magic, l.version]).toEqual([0x4d, 1]);
    expect(l.crc).toBe(zlib.crc32(l.payload));
    expect(l.length).toBe(l.payload.length);
    expect(l.payload).toEqual(fileRec(1, 'a.yaml', 'kind: A\n'));
  });

  it('writes no meta record when there is no view state (empty lists, an empty view or title)', () => {
    const files = [{ path: 'a.yaml', text: 'x' }];
    const l = parse(encodeShareBytes({ files, openTabs: [], view: {}, title: '', redacted: [] }));
    expect(l.payload).toEqual(fileRec(1, 'a.yaml', 'x'));
  });

  it('writes "before" files as tag 2 and says hasBefore in the meta record, even for an empty before side', () => {
    const l = parse(encodeShareBytes({ files: [{ path: 'a', text: '1' }], before: [{ path: 'a', text: '0' }] }));
    expect(l.records.map((r) => r.tag)).toEqual([1, 2, 3]);
    expect(JSON.parse(new TextDecoder().decode(l.records[2]!.body))).toEqual({ hasBefore: true });
    const empty = parse(encodeShareBytes({ files: [{ path: 'a', text: '1' }], before: [] }));
    expect(JSON.parse(new TextDecoder().decode(empty.records[1]!.body))).toEqual({ hasBefore: true });
    expect(decodeShareBytes(encodeShareBytes({ files: [], before: [] }))).toStrictEqual({ files: [], before: [] });
  });

  it('a settings object without suppressions is written and read back as it is', () => {
    const state: ShareState = { files: [{ path: 'a', text: '1' }], settings: { includePlaceholders: true } };
    expect(decodeShareBytes(encodeShareBytes(state))).toStrictEqual(state);
  });

  it('the test writer with raw meta takes text or bytes, and a before side', () => {
    const bytes = encodeShareBytesWithRawMeta({ files: [{ path: 'a', text: '1' }], before: [{ path: 'a', text: '0' }] }, enc('{"title":"t"}'));
    expect(decodeShareBytes(bytes)).toStrictEqual({ files: [{ path: 'a', text: '1' }], before: [{ path: 'a', text: '0' }], title: 't' });
  });
});

describe('the fragment', () => {
  it('is a share link only when it starts with share=, after at most one leading #', () => {
    expect(isShareFragment('#share=abc')).toBe(true);
    expect(isShareFragment('share=abc')).toBe(true);
    expect(isShareFragment('##share=abc')).toBe(false);
    expect(isShareFragment('share#=abc')).toBe(false);
    expect(isShareFragment('x#share=abc')).toBe(false);
    expect(failure(() => decodeShareFragment('#shar=abc'))).toEqual({ code: 'not-a-link', message: 'This address does not hold a shared workspace.' });
    expect(failure(() => decodeShareFragment('share#=abc')).code).toBe('not-a-link');
  });

  it('a # inside the link is a foreign character, named with its position', () => {
    const link = toBase64Url(encodeShareBytes({ files: [{ path: 'a', text: '1' }] }));
    expect(failure(() => decodeShareFragment(`#share=${link.slice(0, 5)}#${link.slice(5)}`))).toEqual({
      code: 'bad-characters',
      message: 'The link contains a character that cannot be part of a share link (at position 6: "#"). It was probably changed or cut on the way.',
    });
    expect(failure(() => decodeShareFragment('share=Zm9v$A')).message).toBe(
      'The link contains a character that cannot be part of a share link (at position 5: "$"). It was probably changed or cut on the way.',
    );
  });

  it('refuses a link longer than the browser limit, with both numbers; the limit itself opens', () => {
    expect(failure(() => decodeShareFragment(`share=${'A'.repeat(2 * 1024 * 1024 + 1)}`))).toEqual({
      code: 'too-large',
      message: 'The link is 2,097,153 characters long, more than the 2,097,152 a browser accepts; it was not opened.',
    });
    const data = toBase64Url(encodeShareBytes({ files: [{ path: 'a', text: '1' }] }));
    expect(decodeShareFragment(`share=${data}`, { maxLinkChars: data.length }).files).toEqual([{ path: 'a', text: '1' }]);
    expect(failure(() => decodeShareFragment(`share=${data}`, { maxLinkChars: data.length - 1 })).code).toBe('too-large');
  });

  it('says what is wrong with an empty, cut, padded or %-broken link', () => {
    expect(failure(() => decodeShareFragment('#share='))).toEqual({
      code: 'truncated',
      message: 'The link ends right after "share=": it was cut off. Ask for the whole link.',
    });
    expect(failure(() => decodeShareFragment('#share= \n'))).toEqual({
      code: 'truncated',
      message: 'The link ends right after "share=": it was cut off. Ask for the whole link.',
    });
    const cut = { code: 'truncated', message: 'The link is cut off: its last characters are missing. Ask for the whole link.' };
    expect(failure(() => decodeShareFragment('share=AAAAA'))).toEqual(cut);
    expect(failure(() => decodeShareFragment('share=AAAAA='))).toEqual(cut);
    expect(failure(() => decodeShareFragment('share=AAAAA=='))).toEqual(cut);
    expect(failure(() => decodeShareFragment('share=AAAA=A')).message).toBe(
      'The link contains a character that cannot be part of a share link (at position 5: "="). It was probably changed or cut on the way.',
    );
    expect(failure(() => decodeShareFragment('share=%E0%A4%A'))).toEqual({
      code: 'bad-characters',
      message: `The link contains a broken %-escape: it was changed on the way. ${AGAIN}`,
    });
  });
});

describe('the header', () => {
  const one = fileRec(1, 'a.yaml', 'x');

  it('a link cut inside its header is truncated', () => {
    const full = frame(one);
    for (const n of [1, 2, 5, 6])
      expect(failure(() => decodeShareBytes(full.subarray(0, n)))).toEqual({
        code: 'truncated',
        message: 'The link is cut off before its content starts. Ask for the whole link.',
      });
    expect(failure(() => decodeShareBytes(Uint8Array.from([0x4d, 1, 0, 0, 0, 0, 0x80]))).code).toBe('truncated');
  });

  it('a link cut right after its header is truncated before its content', () => {
    expect(refusal(one, { body: new Uint8Array(0) })).toEqual({
      code: 'truncated',
      message: 'The link is cut off before its content. Ask for the whole link.',
    });
  });

  it('names a wrong magic byte, a newer version and a wrong checksum', () => {
    expect(refusal(one, { magic: 0x4e })).toEqual({ code: 'corrupt', message: 'This is not a Mesh Workbench share link (its first bytes are wrong).' });
    expect(refusal(one, { version: 2 })).toEqual({
      code: 'unsupported-version',
      message: 'The link was made by a newer Mesh Workbench (link format 2; this one reads format 1). Open it with the newer version.',
    });
    expect(refusal(one, { crc: (zlib.crc32(Uint8Array.from(one)) ^ 1) >>> 0 })).toEqual({
      code: 'corrupt',
      message: `The link is damaged (its checksum does not match). ${AGAIN}`,
    });
  });

  it('refuses a declared size over the cap before unpacking, in bytes, KB or MB', () => {
    const says = (declared: number, cap: number) => refusal(one, { declared }, cap);
    expect(says(1024, 1023)).toEqual({
      code: 'too-large',
      message: 'The link says it unpacks to 1.0 KB, more than the 1023 bytes allowed; it was not opened.',
    });
    expect(says(1000, 999).message).toBe('The link says it unpacks to 1000 bytes, more than the 999 bytes allowed; it was not opened.');
    expect(says(1536 * 1024, 1024 * 1024 - 1).message).toBe('The link says it unpacks to 1.5 MB, more than the 1024.0 KB allowed; it was not opened.');
    expect(says(1024 * 1024, 1024 * 1024 - 1).message).toBe('The link says it unpacks to 1.0 MB, more than the 1024.0 KB allowed; it was not opened.');
    expect(says(2 ** 30, MAX_DECOMPRESSED_BYTES).message).toBe('The link says it unpacks to 1024.0 MB, more than the 32.0 MB allowed; it was not opened.');
  });

  it('a payload of exactly the cap opens', () => {
    expect(open(one, {}, one.length).files).toEqual([{ path: 'a.yaml', text: 'x' }]);
  });
});

describe('the deflate stream (RFC 1951)', () => {
  const big = fileRec(1, 'a.yaml', 'abcdefgh'.repeat(400)); // 3,200+ bytes

  it("a stream that is not deflate is damaged, with the inflater's reason", () => {
    expect(refusal(big, { body: Uint8Array.from([0xff, 0xff, 0xff]) })).toEqual({
      code: 'corrupt',
      message: `The link is damaged and cannot be unpacked (invalid block type). ${AGAIN}`,
    });
  });

  it('a stream that stops early is truncated', () => {
    const s = stored(Uint8Array.from(big));
    const ends = { code: 'truncated', message: 'The link is cut off or damaged: its content ends early. Ask for the whole link.' };
    expect(refusal(big, { body: s.subarray(0, s.length - 10) })).toEqual(ends);
    // A complete stream with less than the declared length.
    expect(refusal(big, { declared: big.length + 10 })).toEqual(ends);
  });

  it('a stream with more than it declares is damaged; at the cap it is too large', () => {
    expect(refusal(big, { declared: 1024 }, 1025)).toEqual({ code: 'corrupt', message: `The link is damaged: it unpacks to more than it says. ${AGAIN}` });
    expect(refusal(big, { declared: 1024 }, 1024)).toEqual({
      code: 'too-large',
      message: 'The link unpacks to more than the 1.0 KB allowed; it was not opened.',
    });
    expect(refusal(big, { declared: 1024 })).toEqual({ code: 'corrupt', message: `The link is damaged: it unpacks to more than it says. ${AGAIN}` });
  });

  it('reads a body of exactly one input step (8,192 bytes) and of several', () => {
    const exact = fileRec(1, 'a', 'y'.repeat(8182));
    expect(exact.length).toBe(8187);
    const body = stored(Uint8Array.from(exact));
    expect(body.length).toBe(8192);
    expect(open(exact, { body }).files[0]!.text).toBe('y'.repeat(8182));
    const text = Array.from({ length: 30_000 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join('');
    const several = fileRec(1, 'b', text);
    expect(open(several, { body: stored(Uint8Array.from(several)) }).files[0]!.text).toBe(text);
    expect(open(several).files[0]!.text).toBe(text);
  });
});

describe('the records', () => {
  it('takes 5,000 files in all and refuses one more, before files included', () => {
    const files = (n: number, tag = 1, from = 0) => concat(...Array.from({ length: n }, (_, i) => fileRec(tag, `f${from + i}`)));
    expect(open(files(5000)).files).toHaveLength(5000);
    const more = { code: 'too-large', message: 'The link holds more than 5,000 files, the most a link may hold; it was not opened.' };
    expect(refusal(files(5001))).toEqual(more);
    expect(refusal([...files(4000), ...files(1001, 2)])).toEqual(more);
    const both = open([...files(2500), ...files(2500, 2)]);
    expect([both.files.length, both.before!.length]).toEqual([2500, 2500]);
  });

  it('a path must be 1 to 1,024 characters without control characters', () => {
    const noName = { code: 'corrupt', message: 'The link holds a file without a usable name.' };
    for (const bad of ['', 'x'.repeat(1025), 'a\u0000b', 'a\nb', '\u001f', 'a\u007f']) expect(refusal(fileRec(1, bad))).toEqual(noName);
    for (const good of ['x'.repeat(1024), 'a b/ü.yaml', ' ', '\u0080']) expect(open(fileRec(1, good)).files[0]!.path).toBe(good);
  });

  it('a file named twice on one side is damaged; the same name on both sides is a change', () => {
    expect(refusal([...fileRec(1, 'a.yaml'), ...fileRec(1, 'a.yaml')])).toEqual({ code: 'corrupt', message: 'The link holds the file "a.yaml" twice.' });
    expect(refusal([...fileRec(2, 'b'), ...fileRec(2, 'b')]).code).toBe('corrupt');
    expect(open([...fileRec(1, 'a', '1'), ...fileRec(2, 'a', '0')])).toStrictEqual({ files: [{ path: 'a', text: '1' }], before: [{ path: 'a', text: '0' }] });
  });

  it('skips records of tags it does not know, wherever they are', () => {
    const unknown = record(7, [0xff, 0xfe, 0x00]);
    expect(open([...unknown, ...fileRec(1, 'a', '1'), ...metaRec('{"title":"t"}'), ...record(9, enc('{"title":"u"}')), ...unknown])).toStrictEqual({
      files: [{ path: 'a', text: '1' }],
      title: 't',
    });
  });

  it('the last meta record wins', () => {
    expect(open([...fileRec(1, 'a'), ...metaRec('{"title":"t"}'), ...metaRec('{"title":"u"}')]).title).toBe('u');
  });

  it('names a record cut short or text that is not UTF-8', () => {
    expect(refusal([1, 50, 1, 0x61])).toEqual({ code: 'corrupt', message: `The link is damaged (unexpected end of data). ${AGAIN}` });
    expect(refusal([1, 3, 1, 0xc0, 0x80])).toEqual({ code: 'corrupt', message: `The link is damaged (text is not valid UTF-8). ${AGAIN}` });
    expect(refusal([1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01])).toEqual({
      code: 'corrupt',
      message: `The link is damaged (number too long). ${AGAIN}`,
    });
  });

  it('"before" records make a before side even without hasBefore', () => {
    expect(open([...fileRec(1, 'a', '1'), ...fileRec(2, 'b', '0')])).toStrictEqual({ files: [{ path: 'a', text: '1' }], before: [{ path: 'b', text: '0' }] });
  });

  it('a link of files alone gives the files alone, with no other key', () => {
    expect(open(fileRec(1, 'a', '1'))).toStrictEqual({ files: [{ path: 'a', text: '1' }] });
    expect(withMeta('{}')).toStrictEqual({ files: [{ path: 'a.yaml', text: 'x' }] });
    expect(withMeta('null')).toStrictEqual({ files: [{ path: 'a.yaml', text: 'x' }] });
    expect(withMeta('{"view":{"file":5,"line":"3"},"settings":7,"redacted":[]}')).toStrictEqual({ files: [{ path: 'a.yaml', text: 'x' }] });
  });
});

describe('the meta record', () => {
  const state = (meta: object) => withMeta(JSON.stringify(meta));

  it('takes exactly 4 MB of JSON and refuses a byte more before parsing it', () => {
    expect(MAX_META_BYTES).toBe(4 * 1024 * 1024);
    const json = (n: number) => `{"title":"${'t'.repeat(n - 12)}"}`;
    expect(withMeta(json(MAX_META_BYTES)).title).toBe('t'.repeat(200));
    expect(metaRefusal(json(MAX_META_BYTES + 1))).toEqual({
      code: 'too-large',
      message: "The link's view settings and list of removed secrets take 4.0 MB, more than the 4.0 MB a link may carry; it was not opened.",
    });
  });

  it('cuts the title to 200 UTF-16 units, never inside a surrogate pair', () => {
    const a = (n: number) => 'a'.repeat(n);
    const title = (t: string) => state({ title: t }).title;
    expect(title(a(200))).toBe(a(200));
    // 200 units are not cut, whatever the last one is.
    expect(title(`${a(199)}\ud83d`)).toBe(`${a(199)}\ud83d`);
    expect(title(a(201))).toBe(a(200));
    expect(title(`${a(199)}\u{1F600}`)).toBe(a(199));
    expect(title(`${a(199)}\u{10000}`)).toBe(a(199));
    expect(title(`${a(199)}\u{10FC00}`)).toBe(a(199));
    expect(title(`${a(199)}\u{1F600}b`)).toBe(a(199));
    expect(title(`${a(198)}\u{1F600}b`)).toBe(`${a(198)}\u{1F600}`);
    expect(title(`${a(199)}\uFF21\uFF22`)).toBe(`${a(199)}\uFF21`);
  });

  it('keeps only the view fields that are there and well-typed', () => {
    expect(state({ view: { file: 'a.yaml' } }).view).toStrictEqual({ file: 'a.yaml' });
    expect(state({ view: { line: 3 } }).view).toStrictEqual({ line: 3 });
    expect(state({ view: { file: 'a', line: 1.5 } }).view).toStrictEqual({ file: 'a' });
    expect(state({ view: { file: 'a', line: 0 } }).view).toStrictEqual({ file: 'a' });
    expect(state({ view: { diagnostic: { code: 'IST0101', file: 'a.yaml' } } }).view).toStrictEqual({ diagnostic: { code: 'IST0101', file: 'a.yaml' } });
    expect(state({ view: { diagnostic: { code: 'IST0101', file: 'a.yaml', line: 4 } } }).view).toStrictEqual({
      diagnostic: { code: 'IST0101', file: 'a.yaml', line: 4 },
    });
    expect(state({ view: { diagnostic: { code: 'IST0101' } } }).view).toBeUndefined();
    expect(state({ view: { diagnostic: { file: 'a.yaml' } } }).view).toBeUndefined();
    expect(state({ view: { selections: {} } }).view).toBeUndefined();
    expect(state({ view: { selections: { proxy: 5 } } }).view).toBeUndefined();
    expect(state({ view: { selections: { proxy: 'p', trace: null } } }).view).toStrictEqual({ selections: { proxy: 'p' } });
    expect(state({ settings: { includePlaceholders: true } }).settings).toStrictEqual({ includePlaceholders: true });
  });

  it('a __proto__ panel is dropped without reading its value', () => {
    const s = withMeta(`{"view":{"selections":{"__proto__":"${'x'.repeat(5000)}","p":"v"}}}`);
    expect(s.view).toStrictEqual({ selections: { p: 'v' } });
    expect(Object.getPrototypeOf(s.view!.selections)).toBe(Object.prototype);
  });

  it('takes 100 panel selections and 1,000 suppressions', () => {
    const sel = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, 'v']));
    expect(Object.keys(state({ view: { selections: sel } }).view!.selections!)).toHaveLength(100);
    expect(state({ settings: { suppressions: new Array(1000).fill('IST0101') } }).settings!.suppressions).toHaveLength(1000);
  });

  it('names the string that is over 4,096 characters', () => {
    const long = 'x'.repeat(4097);
    const over = (what: string) => ({
      code: 'too-large',
      message: `The link holds ${what} of 4,097 characters, more than the 4,096 allowed; it was not opened.`,
    });
    expect(failure(() => state({ view: { file: long } }))).toEqual(over('a file name to open'));
    expect(failure(() => state({ view: { diagnostic: { code: long, file: 'a' } } }))).toEqual(over('a diagnostic code'));
    expect(failure(() => state({ view: { diagnostic: { code: 'c', file: long } } }))).toEqual(over("a diagnostic's file name"));
    expect(failure(() => state({ view: { selections: { [long]: 'v' } } }))).toEqual(over('a panel name'));
    expect(failure(() => state({ view: { selections: { p: long } } }))).toEqual(over('a panel selection'));
    expect(failure(() => state({ settings: { suppressions: [long] } }))).toEqual(over('a suppression'));
    expect(failure(() => state({ redacted: [{ file: long, line: 1, what: 'w' }] }))).toEqual(over('a file name of a removed secret'));
    expect(failure(() => state({ redacted: [{ file: 'f', line: 1, what: long }] }))).toEqual(over('a description of a removed secret'));
    expect(state({ view: { file: 'x'.repeat(4096) } }).view!.file).toHaveLength(4096);
  });

  it('the list of removed secrets: says which entry is malformed, and how', () => {
    const malformed = (detail: string) => ({ code: 'corrupt', message: `The link is damaged: its list of removed secrets is malformed (${detail}). ${AGAIN}` });
    expect(failure(() => state({ redacted: {} }))).toEqual(malformed('it is not a list'));
    expect(failure(() => state({ redacted: [5] }))).toEqual(malformed('entry 1 is not an entry'));
    expect(failure(() => state({ redacted: [{ file: 'f', line: 1, what: 'w' }, null] }))).toEqual(malformed('entry 2 is not an entry'));
    expect(failure(() => state({ redacted: [{ line: 1, what: 'w' }] }))).toEqual(malformed('entry 1 has no file name'));
    expect(failure(() => state({ redacted: [{ file: 'f', line: 1 }] }))).toEqual(malformed('entry 1 does not say what was removed'));
    expect(failure(() => state({ redacted: [{ file: 'f', line: '3', what: 'w' }] }))).toEqual(malformed('entry 1 has no line number'));
    expect(failure(() => state({ redacted: [{ file: 'f', line: 0, what: 'w' }] }))).toEqual(malformed('entry 1 has no line number'));
    expect(state({ redacted: [{ file: 'f', line: 1, what: 'w' }] }).redacted).toStrictEqual([{ file: 'f', line: 1, what: 'w' }]);
  });
});

describe('the writer refuses what no reader would open, naming the cap', () => {
  const files = [{ path: 'a', text: '1' }];

  it('files, before files included', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `f${i}`, text: '' }));
    expect(writerRefusal({ files: many(5001) })).toEqual(tooLargeWriter('5,000 files (this one would have 5,001)'));
    expect(writerRefusal({ files: many(4999), before: many(2) })).toEqual(tooLargeWriter('5,000 files (this one would have 5,001)'));
  });

  it('open tabs, suppressions, panel selections', () => {
    expect(writerRefusal({ files, openTabs: new Array(5001).fill('a') })).toEqual(tooLargeWriter('5,000 open tabs (this one would have 5,001)'));
    expect(writerRefusal({ files, settings: { suppressions: new Array(1001).fill('IST0101') } })).toEqual(
      tooLargeWriter('1,000 suppressions (this one would have 1,001)'),
    );
    const sel = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, 'v']));
    expect(writerRefusal({ files, view: { selections: sel } })).toEqual(tooLargeWriter('100 panel selections (this one would have 101)'));
  });

  it('any string over 4,096 characters, those of the list of removed secrets included', () => {
    const over = tooLargeWriter('4,096 characters in a name, suppression or description (one has 4,097)');
    expect(writerRefusal({ files, redacted: [{ file: 'f', line: 1, what: 'w'.repeat(4097) }] })).toEqual(over);
    expect(writerRefusal({ files, redacted: [{ file: 'f'.repeat(4097), line: 1, what: 'w' }] })).toEqual(over);
    expect(writerRefusal({ files, view: { selections: { ['p'.repeat(4097)]: 'v' } } })).toEqual(over);
    expect(decodeShareBytes(encodeShareBytes({ files, redacted: [{ file: 'f', line: 1, what: 'w'.repeat(4096) }] })).redacted![0]!.what).toHaveLength(4096);
  });

  it('a meta record over 4 MB; exactly 4 MB is written', () => {
    const title = (n: number) => 't'.repeat(n - '{"title":""}'.length);
    expect(writerRefusal({ files, title: title(MAX_META_BYTES + 1) })).toEqual(
      tooLargeWriter('4.0 MB of view settings and list of removed secrets (this one would have 4.0 MB)'),
    );
    expect(decodeShareBytes(encodeShareBytes({ files, title: title(MAX_META_BYTES) })).title).toBe('t'.repeat(200));
  });

  it('a payload over 32 MB; exactly 32 MB is written (the reader takes exactly its cap, above)', () => {
    // Record: tag (1 byte), length (4 bytes of LEB128), path length (1), path "a" (1), then the text.
    const text = (payload: number) => 'k'.repeat(payload - 7);
    expect(writerRefusal({ files: [{ path: 'a', text: text(MAX_DECOMPRESSED_BYTES + 1) }] })).toEqual(
      tooLargeWriter('32.0 MB unpacked (this one would be 32.0 MB)'),
    );
    const exact = parse(encodeShareBytes({ files: [{ path: 'a', text: text(MAX_DECOMPRESSED_BYTES) }] }), false);
    expect(exact.length).toBe(MAX_DECOMPRESSED_BYTES);
  });
});

describe('link size verdicts (docs/sharing.md: a warning above 8 KB, no link above 2 MiB)', () => {
  it('rates each side of both limits', () => {
    expect(linkSizeVerdict(8192)).toBe('ok');
    expect(linkSizeVerdict(8193)).toBe('long');
    expect(linkSizeVerdict(2 * 1024 * 1024)).toBe('long');
    expect(linkSizeVerdict(2 * 1024 * 1024 + 1)).toBe('too-long');
  });
});
