// istioctl's `-o json` format. istioctl marshals every message as a map with
// json.MarshalIndent(messages, "", "\t"), so keys come out in alphabetical order, the
// indent is one TAB per level, and strings use Go's HTML-safe escaping. Pure: no Node APIs.
import type { Diagnostic } from '../../model/types.ts';
import { reference } from '../render.ts';
import { docUrl } from '../messages.ts';

/** The ?ref= value istioctl analyze adds to documentation links (SetDocRef). */
export const ISTIOCTL_DOC_REF = 'istioctl-analyze';

/**
 * The documentation link istioctl prints for a code. istioctl pins the link to its own
 * minor version (`/v1.32/`); we are not tied to one istioctl release, so we link to
 * `/latest/` instead. That is the one intended difference from istioctl's bytes.
 */
export function documentationUrl(d: Pick<Diagnostic, 'code' | 'docUrl'>): string | undefined {
  if (/^IST\d+$/.test(d.code)) return docUrl(d.code, ISTIOCTL_DOC_REF);
  return d.docUrl;
}

/** The fields istioctl prints for one message, in their output (alphabetical) order. */
export function messageFields(d: Diagnostic): Array<[string, string]> {
  const fields: Array<[string, string]> = [['code', d.code]];
  const url = documentationUrl(d);
  if (url !== undefined) fields.push(['documentationUrl', url]);
  fields.push(['level', d.level], ['message', d.message]);
  if (d.origin) {
    fields.push(['origin', d.origin]);
    const ref = reference(d);
    if (ref) fields.push(['reference', ref]);
  }
  return fields;
}

const HEX = '0123456789abcdef';

/** Characters that goJsonString escapes or must inspect (surrogates). */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/;

/** A JSON string literal exactly as Go's encoding/json writes it (HTML escaping on). */
export function goJsonString(s: string): string {
  // Most strings need no escape; one native scan settles that.
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  const flush = (i: number) => {
    if (i > start) out += s.slice(start, i);
  };
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20) {
      switch (c) {
        case 0x08: esc = '\\b'; break;
        case 0x09: esc = '\\t'; break;
        case 0x0a: esc = '\\n'; break;
        case 0x0c: esc = '\\f'; break;
        case 0x0d: esc = '\\r'; break;
        default: esc = `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
      }
    } else if (c === 0x22) esc = '\\"';
    else if (c === 0x5c) esc = '\\\\';
    else if (c === 0x3c || c === 0x3e || c === 0x26) esc = `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
    else if (c === 0x2028 || c === 0x2029) esc = `\\u${c.toString(16)}`;
    else if (c >= 0xd800 && c <= 0xdfff) {
      // A valid surrogate pair is one rune and is written as is; a lone surrogate is
      // invalid UTF-8 for Go, which writes the replacement character's escape.
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      esc = '\\ufffd';
    }
    if (esc !== undefined) {
      flush(i);
      out += esc;
      start = i + 1;
    }
  }
  flush(s.length);
  return `${out}"`;
}

/** The whole `-o json` output, including Fprintln's trailing newline. */
export function formatJson(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return '[]\n';
  const items = diagnostics.map((d) => {
    const lines = messageFields(d).map(([k, v]) => `\t\t${goJsonString(k)}: ${goJsonString(v)}`);
    return `\t{\n${lines.join(',\n')}\n\t}`;
  });
  return `[\n${items.join(',\n')}\n]\n`;
}
