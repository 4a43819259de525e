// PEM decoding with the rules of Go's encoding/pem (Decode): a block starts at a line
// beginning with `-----BEGIN <type>-----`, may carry `Key: value` headers, and ends at
// `-----END <type>-----` followed only by whitespace on that line. A malformed candidate is
// skipped and the search goes on after its BEGIN line, as Go does.
import { bytesToLatin1, decodeBase64Std, encodeBase64Std } from './base64.ts';
import { utf8 } from './bytes.ts';

export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Uint8Array;
}

const BEGIN = '-----BEGIN ';
const END = '-----END ';
const DASHES = '-----';

/** One line without its terminator (`\n`, or `\r\n`: one CR only) and trailing spaces/tabs, and what follows it (Go's getLine). */
function takeLine(s: string): [string, string] {
  const nl = s.indexOf('\n');
  const line = nl < 0 ? s : s.slice(0, nl > 0 && s[nl - 1] === '\r' ? nl - 1 : nl);
  const rest = nl < 0 ? '' : s.slice(nl + 1);
  return [line.replace(/[ \t]+$/, ''), rest];
}

/** Decodes the first PEM block; `rest` is the text after it (the whole input when none). */
export function decodePem(input: string | Uint8Array): { block?: PemBlock; rest: string } {
  return decodePemLatin1(typeof input === 'string' ? bytesToLatin1(utf8(input)) : bytesToLatin1(input));
}

/** `decodePem` over bytes already spelled as a latin-1 string (one char per byte). */
function decodePemLatin1(data: string): { block?: PemBlock; rest: string } {
  let rest = data;
  for (;;) {
    if (rest.startsWith(BEGIN)) rest = rest.slice(BEGIN.length);
    else {
      const at = rest.indexOf('\n' + BEGIN);
      if (at < 0) return { rest: data };
      rest = rest.slice(at + 1 + BEGIN.length);
    }
    let typeLine: string;
    [typeLine, rest] = takeLine(rest);
    if (!typeLine.endsWith(DASHES)) continue;
    const type = typeLine.slice(0, -DASHES.length);
    const headers: Record<string, string> = {};
    let headerCount = 0;
    let truncated = false;
    for (;;) {
      if (rest.length === 0) {
        truncated = true;
        break;
      }
      const [line, next] = takeLine(rest);
      const colon = line.indexOf(':');
      if (colon < 0) break;
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
      headerCount++;
      rest = next;
    }
    if (truncated) return { rest: data };
    let endIndex: number;
    let trailerAt: number;
    if (headerCount === 0 && rest.startsWith(END)) {
      endIndex = 0;
      trailerAt = END.length;
    } else {
      endIndex = rest.indexOf('\n' + END);
      trailerAt = endIndex + 1 + END.length;
    }
    if (endIndex < 0) continue;
    const trailerLen = type.length + DASHES.length;
    const trailer = rest.slice(trailerAt, trailerAt + trailerLen);
    if (trailer.length < trailerLen) continue;
    if (!trailer.startsWith(type) || !trailer.endsWith(DASHES)) continue;
    const [afterEnd] = takeLine(rest.slice(trailerAt + trailerLen));
    if (afterEnd.length !== 0) continue;
    const body = rest.slice(0, endIndex).replace(/[ \t]/g, '');
    const decoded = decodeBase64Std(body);
    if (!decoded) continue;
    const block: PemBlock = { type, headers, bytes: decoded };
    // Go resumes after the END line (measured from the space of `-----END `).
    const [, after] = takeLine(rest.slice(endIndex + END.length));
    return { block, rest: after };
  }
}

/** Every PEM block of a bundle, in order (stops at the first text that holds no more blocks). */
export function decodePemBundle(input: string | Uint8Array): PemBlock[] {
  const blocks: PemBlock[] = [];
  let rest = typeof input === 'string' ? bytesToLatin1(utf8(input)) : bytesToLatin1(input);
  for (;;) {
    const r = decodePemLatin1(rest);
    if (!r.block) return blocks;
    blocks.push(r.block);
    rest = r.rest;
  }
}

/** Encodes DER bytes as a PEM block (64-character lines). */
export function encodePem(type: string, bytes: Uint8Array): string {
  const b64 = encodeBase64Std(bytes);
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 64) lines.push(b64.slice(i, i + 64));
  return `${BEGIN}${type}${DASHES}\n${lines.join('\n')}${lines.length ? '\n' : ''}${END}${type}${DASHES}\n`;
}

// ---- a lenient scan, for the views ---------------------------------------------------

/** One `-----BEGIN …-----` marker and what follows it, as a reader that forgives layout sees it. */
export interface ScannedBlock {
  index: number;
  /** The BEGIN label. */
  type: string;
  /** The END label when it differs from the BEGIN label (Go skips such a block). */
  endTypeMismatch?: string;
  /** No END line before the next BEGIN or the end of the text. */
  unterminated?: boolean;
  headers: Record<string, string>;
  /** The body decodes with Go's strict base64 (after trimming each line). */
  base64Strict: boolean;
  /** The decoded body (lenient: trimmed lines, characters outside the alphabet dropped); empty when unusable. */
  bytes: Uint8Array;
  /** Offset of the BEGIN marker (UTF-16 units of the scanned text) and its 1-based line. */
  offset: number;
  line: number;
  /** Offset just past the END line. */
  end: number;
  /** The markers are indented (Go's decoder does not see them). */
  indented: boolean;
}

export interface PemScan {
  blocks: ScannedBlock[];
  /** Non-blank text outside the blocks (comments, `openssl -text` dumps, prompts). */
  textOutside: boolean;
}

const BEGIN_RE = /^(\s*)-----BEGIN (.*)-----\s*$/;
const END_RE = /^\s*-----END (.*)-----\s*$/;

/** Base64 with whatever is not in the alphabet dropped (for blocks Go refuses, to say more about them). */
function lenientBase64(body: string): Uint8Array {
  const clean = body.replace(/[^A-Za-z0-9+/]/g, '');
  const usable = clean.slice(0, clean.length - (clean.length % 4 === 1 ? 1 : 0));
  const padded = usable + '='.repeat((4 - (usable.length % 4)) % 4);
  return decodeBase64Std(padded) ?? new Uint8Array();
}

/**
 * Every BEGIN marker of a text, with its label, headers, body and where it sits: what the
 * views list block by block (Go's own reading is `decodePem`). CRLF and indentation are
 * accepted; a block whose END label differs, or that has no END, is still listed.
 */
export function scanPem(text: string): PemScan {
  const blocks: ScannedBlock[] = [];
  let textOutside = false;
  let pos = 0;
  let lineNo = 0;
  let current: { begin: RegExpExecArray; offset: number; line: number; headers: Record<string, string>; body: string[]; inHeaders: boolean } | undefined;
  const finish = (endLabel: string | undefined, end: number) => {
    const c = current!;
    const body = c.body.join('');
    const strict = decodeBase64Std(body);
    const block: ScannedBlock = {
      index: blocks.length,
      type: c.begin[2]!,
      headers: c.headers,
      base64Strict: strict !== undefined,
      bytes: strict ?? lenientBase64(body),
      offset: c.offset,
      line: c.line,
      end,
      indented: c.begin[1]!.length > 0,
    };
    if (endLabel === undefined) block.unterminated = true;
    else if (endLabel !== block.type) block.endTypeMismatch = endLabel;
    blocks.push(block);
    current = undefined;
  };
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 ? text.length : nl;
    const line = text.slice(pos, lineEnd).replace(/\r$/, '');
    lineNo++;
    const begin = BEGIN_RE.exec(line);
    if (begin) {
      if (current) finish(undefined, pos);
      current = { begin, offset: pos + begin[1]!.length, line: lineNo, headers: {}, body: [], inHeaders: true };
    } else if (current) {
      const end = END_RE.exec(line);
      if (end) finish(end[1]!, nl < 0 ? text.length : nl + 1);
      else {
        const t = line.trim();
        const colon = t.indexOf(':');
        if (current.inHeaders && colon > 0 && !/^[A-Za-z0-9+/=]+$/.test(t)) current.headers[t.slice(0, colon).trim()] = t.slice(colon + 1).trim();
        else if (t !== '') {
          current.inHeaders = false;
          current.body.push(t);
        }
      }
    } else if (line.trim() !== '') textOutside = true;
    if (nl < 0) break;
    pos = nl + 1;
  }
  if (current) finish(undefined, text.length);
  return { blocks, textOutside };
}
