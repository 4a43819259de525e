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
import { Inflate, deflateSync } from 'fflate';
import { ByteReadError, ByteReader, ByteWriter, crc32, encodeUtf8, fromBase64Url, toBase64Url, utf8 } from './bytes.ts';
import { dictionaryV1 } from './dictionary.ts';

export const SHARE_PREFIX = 'share=';
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

/** True when a location hash (with or without `#`) is a share link. */
export function isShareFragment(hash: string): boolean {
  return hash.replace(/^#/, '').startsWith(SHARE_PREFIX);
}

function encodePayload(state: ShareState): Uint8Array {
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
  const meta: Record<string, unknown> = {};
  if (state.openTabs?.length) meta.openTabs = state.openTabs;
  if (state.view && Object.keys(state.view).length > 0) meta.view = state.view;
  if (state.settings) meta.settings = state.settings;
  if (state.title) meta.title = state.title;
  if (state.redacted?.length) meta.redacted = state.redacted;
  if (state.before) meta.hasBefore = true;
  if (Object.keys(meta).length > 0) {
    const json = encodeUtf8(JSON.stringify(meta));
    w.varint(TAG_META);
    w.varint(json.length);
    w.bytes(json);
  }
  return w.finish();
}

/** The link's binary form (before base64url). */
export function encodeShareBytes(state: ShareState): Uint8Array {
  const payload = encodePayload(state);
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

/** The fragment for a state, without `#`: `share=…`. */
export function encodeShareFragment(state: ShareState): string {
  return SHARE_PREFIX + toBase64Url(encodeShareBytes(state));
}

/** Reads a fragment (`#share=…` or `share=…`); throws ShareLinkError with a reason a person can act on. */
export function decodeShareFragment(hash: string, opts: DecodeOptions = {}): ShareState {
  const maxChars = opts.maxLinkChars ?? MAX_LINK_CHARS;
  const frag = hash.replace(/^#/, '');
  if (!frag.startsWith(SHARE_PREFIX)) throw new ShareLinkError('not-a-link', 'This address does not hold a shared workspace.');
  let data = frag.slice(SHARE_PREFIX.length);
  if (data.length > maxChars) throw new ShareLinkError('too-large', `The link is ${data.length.toLocaleString('en-US')} characters long, more than the ${maxChars.toLocaleString('en-US')} a browser accepts; it was not opened.`);
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
  if (data.replace(/=+$/, '').length % 4 === 1) throw new ShareLinkError('truncated', 'The link is cut off: its last characters are missing. Ask for the whole link.');
  const bytes = fromBase64Url(data);
  if (!(bytes instanceof Uint8Array)) {
    const at = bytes.badAt;
    throw new ShareLinkError('bad-characters', `The link contains a character that cannot be part of a share link (at position ${at + 1}${at < data.length ? `: "${data[at]}"` : ''}). It was probably changed or cut on the way.`);
  }
  return decodeShareBytes(bytes, opts);
}

export function decodeShareBytes(bytes: Uint8Array, opts: DecodeOptions = {}): ShareState {
  const cap = opts.maxDecompressedBytes ?? MAX_DECOMPRESSED_BYTES;
  const r = new ByteReader(bytes);
  let version: number;
  let crc: number;
  let length: number;
  try {
    if (r.byte() !== MAGIC) throw new ShareLinkError('corrupt', 'This is not a Mesh Workbench share link (its first bytes are wrong).');
    version = r.byte();
    if (version === 0 || version > FORMAT_VERSION) {
      throw new ShareLinkError('unsupported-version', `The link was made by a newer Mesh Workbench (link format ${version}; this one reads format ${FORMAT_VERSION}). Open it with the newer version.`);
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
      throw new ShareLinkError(expected >= cap ? 'too-large' : 'corrupt', expected >= cap ? `The link unpacks to more than the ${formatSize(cap)} allowed; it was not opened.` : 'The link is damaged: it unpacks to more than it says. Ask for the link again.');
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
  let meta: Record<string, unknown> = {};
  try {
    while (!r.done) {
      const tag = r.varint();
      const rec = new ByteReader(r.bytes(r.varint()));
      if (tag === TAG_FILE || tag === TAG_BEFORE) {
        const list = tag === TAG_FILE ? files : before;
        if (files.length + before.length >= MAX_FILES) throw new ShareLinkError('too-large', `The link holds more than ${MAX_FILES} files; it was not opened.`);
        const path = rec.string();
        if (path.length === 0 || path.length > MAX_PATH_CHARS || /[\u0000-\u001f\u007f]/.test(path)) throw new ShareLinkError('corrupt', 'The link holds a file without a usable name.');
        const text = utf8(rec.buf.subarray(rec.pos));
        if (list.some((f) => f.path === path)) throw new ShareLinkError('corrupt', `The link holds the file ${JSON.stringify(path)} twice.`);
        list.push({ path, text });
      } else if (tag === TAG_META) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(utf8(rec.buf));
        } catch {
          throw new ShareLinkError('corrupt', 'The link is damaged (its view settings cannot be read).');
        }
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) meta = parsed as Record<string, unknown>;
      }
    }
  } catch (e) {
    if (e instanceof ByteReadError) throw new ShareLinkError('corrupt', `The link is damaged (${e.message}). Ask for the link again.`);
    throw e;
  }
  const state: ShareState = { files };
  if (before.length > 0 || meta.hasBefore === true) state.before = before;
  const paths = new Set(files.map((f) => f.path));
  const tabs = strings(meta.openTabs).filter((p) => paths.has(p));
  if (tabs.length) state.openTabs = tabs;
  const view = readView(meta.view);
  if (view) state.view = view;
  const settings = meta.settings;
  if (settings && typeof settings === 'object') {
    const s = settings as Record<string, unknown>;
    state.settings = {};
    if (typeof s.includePlaceholders === 'boolean') state.settings.includePlaceholders = s.includePlaceholders;
    if (Array.isArray(s.suppressions)) state.settings.suppressions = strings(s.suppressions);
  }
  if (typeof meta.title === 'string') state.title = meta.title.slice(0, 200);
  if (Array.isArray(meta.redacted)) {
    state.redacted = meta.redacted
      .filter((x): x is Record<string, unknown> => !!x && typeof x === 'object')
      .map((x) => ({ file: String(x.file ?? ''), line: Number.isSafeInteger(x.line) ? (x.line as number) : 0, what: String(x.what ?? '') }));
  }
  return state;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function posInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;
}

function readView(v: unknown): ShareView | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const out: ShareView = {};
  if (typeof o.file === 'string') out.file = o.file;
  const line = posInt(o.line);
  if (line) out.line = line;
  const d = o.diagnostic as Record<string, unknown> | undefined;
  if (d && typeof d === 'object' && typeof d.code === 'string' && typeof d.file === 'string') {
    out.diagnostic = { code: d.code, file: d.file };
    const dl = posInt(d.line);
    if (dl) out.diagnostic.line = dl;
  }
  if (o.selections && typeof o.selections === 'object' && !Array.isArray(o.selections)) {
    const sel: Record<string, string> = {};
    for (const [k, val] of Object.entries(o.selections as Record<string, unknown>)) if (typeof val === 'string') sel[k] = val;
    if (Object.keys(sel).length) out.selections = sel;
  }
  return Object.keys(out).length ? out : undefined;
}

/** How a link of this many characters fares: fine, long for chat tools, or too long for browsers. */
export function linkSizeVerdict(chars: number): 'ok' | 'long' | 'too-long' {
  return chars > MAX_LINK_CHARS ? 'too-long' : chars > WARN_LINK_CHARS ? 'long' : 'ok';
}
