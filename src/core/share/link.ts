// Share links: the workspace (or some of its files), optionally a "before" side, and view
// state, in the URL fragment, which browsers never send to a server.
//
// Format version 1, byte for byte (all of it base64url, no padding, after `#share=`):
//   0      0x4D ('M')              magic
//   1      0x01                    format version
//   2..5   CRC-32 of the payload   big-endian; catches corruption the inflater lets through
//   6..    payload length          unsigned LEB128; checked against the cap before inflating
//   then   deflate (raw, RFC 1951) of the payload, with the version-1 preset dictionary
// The payload is a list of records: tag (varint), length (varint), then that many bytes.
//   1  a file:          path (varint length + UTF-8), then the text (UTF-8, the rest)
//   2  a "before" file: as 1, for a link that carries both sides of a change
//   3  meta:            UTF-8 JSON (open tabs, view state, settings, what was redacted)
// Readers skip tags they do not know, so later version-1 writers may add records.
//
// Meta JSON (every key optional; the last meta record wins):
//   openTabs   string[]                       paths of files in the link (others are dropped)
//   view       { file?, line?, diagnostic?: { code, file, line? }, selections?: { panel: value } }
//   settings   { includePlaceholders?: boolean, suppressions?: string[], istioctlMode?: boolean }
//              (istioctlMode is written only when true, so other links read as before)
//              kialiPack?: boolean (written only when false: the pack is on unless turned off)
//   title      string
//   redacted   { file: string, line: number, what: string }[]
//   hasBefore  true                           the link has a "before" side (maybe empty)
//
// Reading is total: any text gives a ShareState or a ShareLinkError, nothing else (an
// unexpected exception inside the reader is reported as 'corrupt'). Wrong types:
//   - view state (openTabs, view, settings, title): a value of the wrong type is dropped, as
//     an entry of a list or map of the wrong type is; only own keys are read, and a
//     `__proto__` panel name is dropped;
//   - redacted: all or nothing, since the reader trusts it to say what the link leaves out. A
//     list that is not a list, an entry that is not an object, a file or what that is not a
//     string, or a line that is not a positive safe integer makes the link 'corrupt'.
// Caps (encodeShareBytes refuses a state over them too, with the same 'too-large' error, so
// the app never makes a link no reader opens):
//   payload                MAX_DECOMPRESSED_BYTES   32 MB unpacked (declared size checked first)
//   files + before files   MAX_FILES                5,000 (and a path over MAX_PATH_CHARS, 1,024,
//                                                   empty or with control characters is 'corrupt')
//   meta record            MAX_META_BYTES           4 MB of JSON (checked before parsing it)
//   redacted               MAX_REDACTED_ITEMS       10,000 entries
//   openTabs               MAX_OPEN_TABS            5,000 entries (before dropping unknown paths)
//   suppressions           MAX_SUPPRESSIONS         1,000 entries
//   view.selections        MAX_SELECTIONS           100 panels
//   any other meta string  MAX_META_STRING_CHARS    4,096 characters
// Over a cap the link is refused as 'too-large', with a message that names the cap (no
// silent truncation: a reader must not see part of the list of removed secrets as all of
// it). The one exception is the title, which is cut to MAX_TITLE_CHARS (200), as always.
import { Inflate, deflateSync } from 'fflate';
import { ByteReadError, ByteReader, ByteWriter, crc32, encodeUtf8, fromBase64Url, toBase64Url, utf8 } from './bytes.ts';
import { dictionaryV1 } from './dictionary.ts';
import { SHARE_PREFIX } from './fragment.ts';
import { isObj as isObject } from '../document/read.ts';

export { SHARE_PREFIX, isShareFragment } from './fragment.ts';
export const FORMAT_VERSION = 1;
const MAGIC = 0x4d;

/** Longest link a browser takes: Chromium refuses URLs over 2 MiB (others accept more). */
export const MAX_LINK_CHARS = 2 * 1024 * 1024;
/** Chat tools often cut or refuse longer messages. */
export const WARN_LINK_CHARS = 8 * 1024;
/** Largest workspace a link may unpack to (the decompression-bomb cap). */
export const MAX_DECOMPRESSED_BYTES = 32 * 1024 * 1024;
export const MAX_FILES = 5000;
export const MAX_PATH_CHARS = 1024;
/** The meta record (view state, settings, title, what was redacted): JSON bytes. */
export const MAX_META_BYTES = 4 * 1024 * 1024;
/** Entries of the list of removed secret values. */
export const MAX_REDACTED_ITEMS = 10_000;
/** Open tabs (each names a file of the link, and a link holds at most MAX_FILES). */
export const MAX_OPEN_TABS = MAX_FILES;
export const MAX_SUPPRESSIONS = 1000;
/** Panels with a selection (the app has a handful). */
export const MAX_SELECTIONS = 100;
/** Any one string of the meta record: names, suppressions, selections, descriptions. */
export const MAX_META_STRING_CHARS = 4096;
/** The title is cut to this many characters (not refused). */
export const MAX_TITLE_CHARS = 200;

const TAG_FILE = 1;
const TAG_BEFORE = 2;
const TAG_META = 3;

export interface ShareFile {
  path: string;
  text: string;
}

/** Where the link should take the reader: a file and line, or one diagnostic. */
export interface ShareView {
  file?: string;
  line?: number;
  diagnostic?: { code: string; file: string; line?: number };
  /** Selections of the inspector's panels (selected proxy, trace, …), by panel. */
  selections?: Record<string, string>;
}

export interface RedactedItem {
  file: string;
  line: number;
  /** What was replaced, e.g. `Secret istio-system/cert data["tls.key"]` or `private key`. */
  what: string;
}

export interface ShareSettings {
  includePlaceholders?: boolean;
  suppressions?: string[];
  /** Analyze as istioctl analyze --use-kube=false (absent: false). */
  istioctlMode?: boolean;
  /** Run the Kiali pack (absent: true). */
  kialiPack?: boolean;
}

export interface ShareState {
  files: ShareFile[];
  /** The "before" side of a change, when the link carries both. */
  before?: ShareFile[];
  openTabs?: string[];
  view?: ShareView;
  settings?: ShareSettings;
  /** A name for the shared workspace. */
  title?: string;
  /** What redaction replaced before the link was made (the reader sees the list). */
  redacted?: RedactedItem[];
}

export type ShareLinkErrorCode = 'not-a-link' | 'bad-characters' | 'truncated' | 'corrupt' | 'too-large' | 'unsupported-version';

export class ShareLinkError extends Error {
  constructor(
    readonly code: ShareLinkErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ShareLinkError';
  }
}

export interface DecodeOptions {
  maxDecompressedBytes?: number;
  maxLinkChars?: number;
}

function encodePayload(state: ShareState, meta: Uint8Array | undefined): Uint8Array {
  const w = new ByteWriter();
  const file = (tag: number, f: ShareFile) => {
    const path = encodeUtf8(f.path);
    const text = encodeUtf8(f.text);
    const inner = new ByteWriter();
    inner.varint(path.length);
    inner.bytes(path);
    inner.bytes(text);
    const rec = inner.finish();
    w.varint(tag);
    w.varint(rec.length);
    w.bytes(rec);
  };
  for (const f of state.files) file(TAG_FILE, f);
  for (const f of state.before ?? []) file(TAG_BEFORE, f);
  if (meta) {
    w.varint(TAG_META);
    w.varint(meta.length);
    w.bytes(meta);
  }
  return w.finish();
}

function metaJson(state: ShareState): Uint8Array | undefined {
  const meta: Record<string, unknown> = {};
  if (state.openTabs?.length) meta.openTabs = state.openTabs;
  if (state.view && Object.keys(state.view).length > 0) meta.view = state.view;
  if (state.settings) {
    const { istioctlMode, kialiPack, ...rest } = state.settings;
    const written = istioctlMode ? { ...rest, istioctlMode } : rest;
    meta.settings = kialiPack === false ? { ...written, kialiPack: false } : written;
  }
  if (state.title) meta.title = state.title;
  if (state.redacted?.length) meta.redacted = state.redacted;
  if (state.before) meta.hasBefore = true;
  return Object.keys(meta).length > 0 ? encodeUtf8(JSON.stringify(meta)) : undefined;
}

function frame(payload: Uint8Array): Uint8Array {
  // No `mem`: fflate sizes its hash table to the input. `mem: 12` allocated a 32 MB table for
  // every link, even a one-file one (~9 ms each), and gave the same bytes.
  const body = deflateSync(payload, { level: 9, dictionary: dictionaryV1() });
  const w = new ByteWriter();
  w.byte(MAGIC);
  w.byte(FORMAT_VERSION);
  const crc = crc32(payload);
  w.byte(crc >>> 24);
  w.byte(crc >>> 16);
  w.byte(crc >>> 8);
  w.byte(crc);
  w.varint(payload.length);
  w.bytes(body);
  return w.finish();
}

/**
 * The link's binary form (before base64url). Throws ShareLinkError('too-large') for a state
 * over one of the caps, since no reader would open the link.
 */
export function encodeShareBytes(state: ShareState): Uint8Array {
  const meta = metaJson(state);
  checkCaps(state, meta);
  const payload = encodePayload(state, meta);
  if (payload.length > MAX_DECOMPRESSED_BYTES) refuse(`${formatSize(MAX_DECOMPRESSED_BYTES)} unpacked (this one would be ${formatSize(payload.length)})`);
  return frame(payload);
}

function refuse(what: string): never {
  throw new ShareLinkError('too-large', `A share link can carry at most ${what}. Share fewer files, or download the workspace and send the file instead.`);
}

/** The writer's side of the caps the reader enforces (see the top of this file). */
function checkCaps(state: ShareState, meta: Uint8Array | undefined): void {
  const n = (x: number) => x.toLocaleString('en-US');
  const count = (have: number, cap: number, what: string) => {
    if (have > cap) refuse(`${n(cap)} ${what} (this one would have ${n(have)})`);
  };
  count(state.files.length + (state.before?.length ?? 0), MAX_FILES, 'files');
  count(state.openTabs?.length ?? 0, MAX_OPEN_TABS, 'open tabs');
  count(state.settings?.suppressions?.length ?? 0, MAX_SUPPRESSIONS, 'suppressions');
  count(Object.keys(state.view?.selections ?? {}).length, MAX_SELECTIONS, 'panel selections');
  count(state.redacted?.length ?? 0, MAX_REDACTED_ITEMS, 'removed secret values in its list');
  const strings = [
    state.view?.file,
    state.view?.diagnostic?.code,
    state.view?.diagnostic?.file,
    ...Object.entries(state.view?.selections ?? {}).flat(),
    ...(state.settings?.suppressions ?? []),
    ...(state.redacted ?? []).flatMap((r) => [r.file, r.what]),
  ];
  for (const x of strings)
    if (x !== undefined && x.length > MAX_META_STRING_CHARS)
      refuse(`${n(MAX_META_STRING_CHARS)} characters in a name, suppression or description (one has ${n(x.length)})`);
  if (meta && meta.length > MAX_META_BYTES)
    refuse(`${formatSize(MAX_META_BYTES)} of view settings and list of removed secrets (this one would have ${formatSize(meta.length)})`);
}

/**
 * For tests and the fuzzer only: a well-formed link (right magic, version, checksum, length
 * and compression) around the files of `state` and a meta record of exactly `meta` (any text,
 * JSON or not), so the reader's handling of hostile meta can be exercised. The app never
 * writes links this way.
 */
export function encodeShareBytesWithRawMeta(state: Pick<ShareState, 'files' | 'before'>, meta: string | Uint8Array): Uint8Array {
  return frame(encodePayload({ files: state.files, ...(state.before ? { before: state.before } : {}) }, typeof meta === 'string' ? encodeUtf8(meta) : meta));
}

/** The fragment for a state, without `#`: `share=…`. */
export function encodeShareFragment(state: ShareState): string {
  return SHARE_PREFIX + toBase64Url(encodeShareBytes(state));
}

/**
 * Reads a fragment (`#share=…` or `share=…`). Total: it returns a well-typed state or throws a
 * ShareLinkError with a reason a person can act on, whatever the text (nothing else escapes).
 */
export function decodeShareFragment(hash: string, opts: DecodeOptions = {}): ShareState {
  return total(() => decodeFragment(hash, opts));
}

/** The binary form's reader (after base64url); total, as decodeShareFragment. */
export function decodeShareBytes(bytes: Uint8Array, opts: DecodeOptions = {}): ShareState {
  return total(() => decodeBytes(bytes, opts));
}

/**
 * Every check above is meant to say what is wrong; this is the backstop for what they miss: an
 * unexpected exception is a damaged link, not a crash of the page. (Out of memory, too, ends
 * here: the caps are meant to keep a link far from it.)
 */
function total(read: () => ShareState): ShareState {
  try {
    return read();
  } catch (e) {
    if (e instanceof ShareLinkError) throw e;
    throw new ShareLinkError('corrupt', 'The link is damaged and cannot be read. Ask for the link again.');
  }
}

function decodeFragment(hash: string, opts: DecodeOptions): ShareState {
  const maxChars = opts.maxLinkChars ?? MAX_LINK_CHARS;
  const frag = hash.replace(/^#/, '');
  if (!frag.startsWith(SHARE_PREFIX)) throw new ShareLinkError('not-a-link', 'This address does not hold a shared workspace.');
  let data = frag.slice(SHARE_PREFIX.length);
  if (data.length > maxChars)
    throw new ShareLinkError(
      'too-large',
      `The link is ${data.length.toLocaleString('en-US')} characters long, more than the ${maxChars.toLocaleString('en-US')} a browser accepts; it was not opened.`,
    );
  // Mail and chat clients sometimes wrap or percent-encode long links.
  data = data.replace(/\s+/g, '');
  if (data.includes('%')) {
    try {
      data = decodeURIComponent(data);
    } catch {
      throw new ShareLinkError('bad-characters', 'The link contains a broken %-escape: it was changed on the way. Ask for the link again.');
    }
  }
  if (data.length === 0) throw new ShareLinkError('truncated', 'The link ends right after "share=": it was cut off. Ask for the whole link.');
  // Base64 of whole bytes never leaves one character over: the link was cut.
  if (data.replace(/=+$/, '').length % 4 === 1)
    throw new ShareLinkError('truncated', 'The link is cut off: its last characters are missing. Ask for the whole link.');
  const bytes = fromBase64Url(data);
  if (!(bytes instanceof Uint8Array)) {
    const at = bytes.badAt;
    throw new ShareLinkError(
      'bad-characters',
      `The link contains a character that cannot be part of a share link (at position ${at + 1}${at < data.length ? `: "${data[at]}"` : ''}). It was probably changed or cut on the way.`,
    );
  }
  return decodeBytes(bytes, opts);
}

function decodeBytes(bytes: Uint8Array, opts: DecodeOptions): ShareState {
  const cap = opts.maxDecompressedBytes ?? MAX_DECOMPRESSED_BYTES;
  const r = new ByteReader(bytes);
  let version: number;
  let crc: number;
  let length: number;
  try {
    if (r.byte() !== MAGIC) throw new ShareLinkError('corrupt', 'This is not a Mesh Workbench share link (its first bytes are wrong).');
    version = r.byte();
    // Format 0 was never written: a damaged byte, not a link from another version.
    if (version === 0)
      throw new ShareLinkError('corrupt', 'The link is damaged (it names link format 0, which no Mesh Workbench writes). Ask for the link again.');
    if (version > FORMAT_VERSION) {
      throw new ShareLinkError(
        'unsupported-version',
        `The link was made by a newer Mesh Workbench (link format ${version}; this one reads format ${FORMAT_VERSION}). Open it with the newer version.`,
      );
    }
    crc = ((r.byte() << 24) | (r.byte() << 16) | (r.byte() << 8) | r.byte()) >>> 0;
    length = r.varint();
  } catch (e) {
    if (e instanceof ByteReadError) throw new ShareLinkError('truncated', 'The link is cut off before its content starts. Ask for the whole link.');
    throw e;
  }
  if (length > cap) {
    throw new ShareLinkError('too-large', `The link says it unpacks to ${formatSize(length)}, more than the ${formatSize(cap)} allowed; it was not opened.`);
  }
  const payload = inflateCapped(bytes.subarray(r.pos), length, cap);
  if (crc32(payload) !== crc) throw new ShareLinkError('corrupt', 'The link is damaged (its checksum does not match). Ask for the link again.');
  return parsePayload(payload);
}

function formatSize(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

class CapExceeded extends Error {}

/** Inflates at most `cap` bytes, in small input steps, so a bomb stops early and costs little. */
function inflateCapped(body: Uint8Array, expected: number, cap: number): Uint8Array {
  const out = new Uint8Array(expected);
  let o = 0;
  let ended = false;
  let over = false;
  const inf = new Inflate({ dictionary: dictionaryV1() }, (chunk, final) => {
    if (o + chunk.length > expected) {
      over = true;
      throw new CapExceeded();
    }
    out.set(chunk, o);
    o += chunk.length;
    if (final) ended = true;
  });
  const STEP = 8192;
  try {
    if (body.length === 0) throw new ShareLinkError('truncated', 'The link is cut off before its content. Ask for the whole link.');
    for (let i = 0; i < body.length; i += STEP) inf.push(body.subarray(i, Math.min(body.length, i + STEP)), i + STEP >= body.length);
  } catch (e) {
    if (e instanceof ShareLinkError) throw e;
    if (over || e instanceof CapExceeded) {
      throw new ShareLinkError(
        expected >= cap ? 'too-large' : 'corrupt',
        expected >= cap
          ? `The link unpacks to more than the ${formatSize(cap)} allowed; it was not opened.`
          : 'The link is damaged: it unpacks to more than it says. Ask for the link again.',
      );
    }
    const msg = e instanceof Error ? e.message : String(e);
    if (/unexpected EOF/i.test(msg)) throw new ShareLinkError('truncated', 'The link is cut off or damaged: its content ends early. Ask for the whole link.');
    throw new ShareLinkError('corrupt', `The link is damaged and cannot be unpacked (${msg}). Ask for the link again.`);
  }
  if (!ended || o < expected) throw new ShareLinkError('truncated', 'The link is cut off or damaged: its content ends early. Ask for the whole link.');
  return out;
}

function parsePayload(payload: Uint8Array): ShareState {
  const r = new ByteReader(payload);
  const files: ShareFile[] = [];
  const before: ShareFile[] = [];
  const seen = [new Set<string>(), new Set<string>()];
  let metaBytes: Uint8Array | undefined;
  try {
    while (!r.done) {
      const tag = r.varint();
      const rec = new ByteReader(r.bytes(r.varint()));
      if (tag === TAG_FILE || tag === TAG_BEFORE) {
        const list = tag === TAG_FILE ? files : before;
        const names = seen[tag === TAG_FILE ? 0 : 1]!;
        if (files.length + before.length >= MAX_FILES)
          throw new ShareLinkError(
            'too-large',
            `The link holds more than ${MAX_FILES.toLocaleString('en-US')} files, the most a link may hold; it was not opened.`,
          );
        const path = rec.string();
        if (path.length === 0 || path.length > MAX_PATH_CHARS || /[\u0000-\u001f\u007f]/.test(path))
          throw new ShareLinkError('corrupt', 'The link holds a file without a usable name.');
        const text = utf8(rec.buf.subarray(rec.pos));
        if (names.has(path)) throw new ShareLinkError('corrupt', `The link holds the file ${JSON.stringify(path)} twice.`);
        names.add(path);
        list.push({ path, text });
      } else if (tag === TAG_META) {
        // The last meta record wins (a writer writes one).
        metaBytes = rec.buf;
      }
    }
  } catch (e) {
    if (e instanceof ByteReadError) throw new ShareLinkError('corrupt', `The link is damaged (${e.message}). Ask for the link again.`);
    throw e;
  }
  const meta = metaBytes ? readMetaJson(metaBytes) : {};
  const state: ShareState = { files };
  if (before.length > 0 || own(meta, 'hasBefore') === true) state.before = before;
  const paths = seen[0]!;
  const tabs = readTabs(own(meta, 'openTabs'), paths);
  if (tabs.length) state.openTabs = tabs;
  const view = readView(own(meta, 'view'));
  if (view) state.view = view;
  const settings = readSettings(own(meta, 'settings'));
  if (settings) state.settings = settings;
  const title = own(meta, 'title');
  if (typeof title === 'string' && title.length > 0) state.title = clip(title, MAX_TITLE_CHARS);
  const redacted = readRedacted(own(meta, 'redacted'));
  if (redacted) state.redacted = redacted;
  return state;
}

function readMetaJson(bytes: Uint8Array): Record<string, unknown> {
  if (bytes.length > MAX_META_BYTES) {
    throw new ShareLinkError(
      'too-large',
      `The link's view settings and list of removed secrets take ${formatSize(bytes.length)}, more than the ${formatSize(MAX_META_BYTES)} a link may carry; it was not opened.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8(bytes));
  } catch {
    throw new ShareLinkError('corrupt', 'The link is damaged (its view settings cannot be read).');
  }
  // Anything but an object holds nothing we read; no writer makes it, and it is ignored.
  return isObject(parsed) ? parsed : {};
}

/** An own property only: `toString`, `constructor` and friends never come from the prototype. */
function own(o: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function tooMany(count: number, cap: number, what: string): never {
  throw new ShareLinkError(
    'too-large',
    `The link lists ${count.toLocaleString('en-US')} ${what}, more than the ${cap.toLocaleString('en-US')} a link may carry; it was not opened.`,
  );
}

/** A string of the view state, or undefined when it is not one; over the string cap: too large. */
function metaString(v: unknown, what: string): string | undefined {
  if (typeof v !== 'string') return undefined;
  if (v.length > MAX_META_STRING_CHARS)
    throw new ShareLinkError(
      'too-large',
      `The link holds ${what} of ${v.length.toLocaleString('en-US')} characters, more than the ${MAX_META_STRING_CHARS.toLocaleString('en-US')} allowed; it was not opened.`,
    );
  return v;
}

/** At most `max` UTF-16 units, never cutting a character in two. */
function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const end = s.charCodeAt(max - 1) >= 0xd800 && s.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max;
  return s.slice(0, end);
}

function readTabs(v: unknown, paths: ReadonlySet<string>): string[] {
  if (!Array.isArray(v)) return [];
  if (v.length > MAX_OPEN_TABS) tooMany(v.length, MAX_OPEN_TABS, 'open tabs');
  const out = new Set<string>();
  for (const x of v) if (typeof x === 'string' && paths.has(x)) out.add(x);
  return [...out];
}

function posInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;
}

function readView(v: unknown): ShareView | undefined {
  if (!isObject(v)) return undefined;
  const out: ShareView = {};
  const file = metaString(own(v, 'file'), 'a file name to open');
  if (file !== undefined) out.file = file;
  const line = posInt(own(v, 'line'));
  if (line) out.line = line;
  const d = own(v, 'diagnostic');
  if (isObject(d)) {
    const code = metaString(own(d, 'code'), 'a diagnostic code');
    const dfile = metaString(own(d, 'file'), "a diagnostic's file name");
    if (code !== undefined && dfile !== undefined) {
      out.diagnostic = { code, file: dfile };
      const dl = posInt(own(d, 'line'));
      if (dl) out.diagnostic.line = dl;
    }
  }
  const selections = own(v, 'selections');
  if (isObject(selections)) {
    const keys = Object.keys(selections);
    if (keys.length > MAX_SELECTIONS) tooMany(keys.length, MAX_SELECTIONS, 'panel selections');
    const sel: Record<string, string> = {};
    for (const k of keys) {
      // `__proto__` would not be a key of the result but its prototype: dropped.
      if (k === '__proto__') continue;
      metaString(k, 'a panel name');
      const val = metaString(selections[k], 'a panel selection');
      if (val !== undefined) sel[k] = val;
    }
    if (Object.keys(sel).length) out.selections = sel;
  }
  return Object.keys(out).length ? out : undefined;
}

function readSettings(v: unknown): ShareSettings | undefined {
  if (!isObject(v)) return undefined;
  const out: ShareSettings = {};
  const placeholders = own(v, 'includePlaceholders');
  if (typeof placeholders === 'boolean') out.includePlaceholders = placeholders;
  const istioctlMode = own(v, 'istioctlMode');
  if (typeof istioctlMode === 'boolean') out.istioctlMode = istioctlMode;
  const kialiPack = own(v, 'kialiPack');
  if (typeof kialiPack === 'boolean') out.kialiPack = kialiPack;
  const sup = own(v, 'suppressions');
  if (Array.isArray(sup)) {
    if (sup.length > MAX_SUPPRESSIONS) tooMany(sup.length, MAX_SUPPRESSIONS, 'suppressions');
    out.suppressions = [];
    for (const x of sup) {
      const s = metaString(x, 'a suppression');
      if (s !== undefined) out.suppressions.push(s);
    }
  }
  return out;
}

/**
 * The list of what redaction removed. The reader trusts it to say what the link leaves out,
 * so it is all or nothing: an entry of the wrong shape makes the whole link corrupt rather
 * than being dropped (or shown as "[object Object]").
 */
function readRedacted(v: unknown): RedactedItem[] | undefined {
  if (v === undefined) return undefined;
  const bad = (detail: string): never => {
    throw new ShareLinkError('corrupt', `The link is damaged: its list of removed secrets is malformed (${detail}). Ask for the link again.`);
  };
  if (!Array.isArray(v)) return bad('it is not a list');
  if (v.length > MAX_REDACTED_ITEMS) tooMany(v.length, MAX_REDACTED_ITEMS, 'removed secret values');
  const out: RedactedItem[] = [];
  for (let i = 0; i < v.length; i++) {
    const x: unknown = v[i];
    const n = (i + 1).toLocaleString('en-US');
    if (!isObject(x)) return bad(`entry ${n} is not an entry`);
    const file = own(x, 'file');
    const line = own(x, 'line');
    const what = own(x, 'what');
    if (typeof file !== 'string') return bad(`entry ${n} has no file name`);
    if (typeof what !== 'string') return bad(`entry ${n} does not say what was removed`);
    if (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 1) return bad(`entry ${n} has no line number`);
    out.push({ file: metaString(file, 'a file name of a removed secret')!, line, what: metaString(what, 'a description of a removed secret')! });
  }
  return out.length ? out : undefined;
}

/** How a link of this many characters fares: fine, long for chat tools, or too long for browsers. */
export function linkSizeVerdict(chars: number): 'ok' | 'long' | 'too-long' {
  return chars > MAX_LINK_CHARS ? 'too-long' : chars > WARN_LINK_CHARS ? 'long' : 'ok';
}
