// PEM decoding with the rules of Go's encoding/pem (Decode): a block starts at a line
// beginning with `-----BEGIN <type>-----`, may carry `Key: value` headers, and ends at
// `-----END <type>-----` followed only by whitespace on that line. A malformed candidate is
// skipped and the search goes on after its BEGIN line, as Go does.
import { bytesToLatin1, decodeBase64Std, encodeBase64Std, utf8Bytes } from './base64.ts';

export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Uint8Array;
}

const BEGIN = '-----BEGIN ';
const END = '-----END ';
const DASHES = '-----';

/** One line without its terminator and trailing spaces/tabs/CRs, and what follows it. */
function takeLine(s: string): [string, string] {
  const nl = s.indexOf('\n');
  const line = nl < 0 ? s : s.slice(0, nl);
  const rest = nl < 0 ? '' : s.slice(nl + 1);
  return [line.replace(/[ \t\r]+$/, ''), rest];
}

/** Decodes the first PEM block; `rest` is the text after it (the whole input when none). */
export function decodePem(input: string | Uint8Array): { block?: PemBlock; rest: string } {
  const data = typeof input === 'string' ? bytesToLatin1(utf8Bytes(input)) : bytesToLatin1(input);
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
  let rest: string | Uint8Array = input;
  for (;;) {
    const r = decodePem(rest);
    if (!r.block) return blocks;
    blocks.push(r.block);
    rest = latin1ToBytes(r.rest);
  }
}

function latin1ToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

/** Encodes DER bytes as a PEM block (64-character lines). */
export function encodePem(type: string, bytes: Uint8Array): string {
  const b64 = encodeBase64Std(bytes);
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 64) lines.push(b64.slice(i, i + 64));
  return `${BEGIN}${type}${DASHES}\n${lines.join('\n')}${lines.length ? '\n' : ''}${END}${type}${DASHES}\n`;
}
