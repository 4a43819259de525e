// Redaction before sharing: private keys (PEM `PRIVATE KEY` blocks anywhere, also base64 of
// one) and the values of Kubernetes Secrets' `data` and `stringData` are replaced by markers.
// Certificates are public and stay, also inside Secrets. The text around a replaced value is
// kept byte for byte and no line moves, so other documents and their diagnostics stay put.
import { parseAllDocuments, isMap, isScalar, isSeq, type Node as YamlNode, type YAMLMap } from 'yaml';
import { decodeBase64Std } from '../pki/base64.ts';
import type { RedactedItem, ShareFile } from './link.ts';

import { DATA_MARKER, PRIVATE_KEY_MARKER, STRING_MARKER } from './markers.ts';
export { DATA_MARKER, PRIVATE_KEY_MARKER, STRING_MARKER, isRedactionMarker } from './markers.ts';

const PEM_KEY = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY)-----[\s\S]*?(?:-----END \1-----|$)/g;
/** Base64 of "-----BEGIN" followed by more base64: a PEM block encoded once more. */
const B64_PEM = /LS0tLS1CRUdJTi[A-Za-z0-9+/]*={0,2}/g;

interface Cut {
  start: number;
  end: number;
  replacement: string;
  what: string;
}

export interface RedactionResult {
  files: ShareFile[];
  items: RedactedItem[];
}

function isPrivateKeyText(s: string): boolean {
  return /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/.test(s);
}

function isCertificatesOnly(s: string): boolean {
  return s.includes('-----BEGIN CERTIFICATE-----') && !/-----BEGIN (?!CERTIFICATE-----)/.test(s);
}

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}

function scalarString(n: unknown): string | undefined {
  return isScalar(n) && typeof n.value === 'string' ? n.value : undefined;
}

function secretName(m: YAMLMap): string {
  const meta = m.get('metadata', true);
  if (!isMap(meta)) return 'Secret';
  const ns = scalarString(meta.get('namespace', true));
  const name = scalarString(meta.get('name', true)) ?? '';
  return `Secret ${ns ? `${ns}/` : ''}${name}`;
}

function secretCuts(m: YAMLMap, out: Cut[]): void {
  const kind = scalarString(m.get('kind', true));
  if (kind === 'List' || kind?.endsWith('List')) {
    const items = m.get('items', true);
    if (isSeq(items)) for (const it of items.items) if (isMap(it)) secretCuts(it, out);
    return;
  }
  if (kind !== 'Secret') return;
  const who = secretName(m);
  for (const field of ['data', 'stringData'] as const) {
    const map = m.get(field, true);
    if (!isMap(map)) continue;
    for (const pair of map.items) {
      const v = pair.value as YamlNode | null;
      if (!v || !v.range) continue;
      const key = isScalar(pair.key) ? String(pair.key.value) : '?';
      if (isScalar(v)) {
        if (v.value === null || v.value === '') continue;
        const text = String(v.value);
        const decoded = field === 'data' ? decodeBase64Std(text.replace(/\s+/g, '')) : undefined;
        const plain = field === 'data' ? (decoded ? latin1(decoded) : '') : text;
        // Certificates are public: a value made only of CERTIFICATE blocks stays.
        if (isCertificatesOnly(plain)) continue;
      }
      const replacement = JSON.stringify(field === 'data' ? DATA_MARKER : STRING_MARKER);
      out.push({ start: v.range[0], end: v.range[1], replacement, what: `${who} ${field}[${JSON.stringify(key)}]` });
    }
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The cuts redaction would make in one file, in text order, without overlaps. */
function findCuts(text: string): Cut[] {
  const cuts: Cut[] = [];
  // Secret values: only where the file parses as YAML (JSON included).
  if (text.includes('Secret')) {
    try {
      for (const doc of parseAllDocuments(text, { uniqueKeys: false, strict: false })) {
        if (isMap(doc.contents)) secretCuts(doc.contents, cuts);
      }
    } catch {
      // Not YAML: the PEM scan below still runs.
    }
  }
  for (const m of text.matchAll(PEM_KEY)) cuts.push({ start: m.index, end: m.index + m[0].length, replacement: PRIVATE_KEY_MARKER, what: m[1]!.toLowerCase() });
  for (const m of text.matchAll(B64_PEM)) {
    const bytes = decodeBase64Std(m[0].length % 4 === 0 ? m[0] : m[0] + '='.repeat((4 - (m[0].length % 4)) % 4));
    if (bytes && isPrivateKeyText(latin1(bytes))) cuts.push({ start: m.index, end: m.index + m[0].length, replacement: DATA_MARKER, what: 'private key (base64)' });
  }
  cuts.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Cut[] = [];
  for (const c of cuts) {
    const last = out[out.length - 1];
    if (last && c.start < last.end) continue;
    out.push(c);
  }
  return out;
}

/** Secret values and private keys in these files (what `redact` would replace), without changing anything. */
export function findSecrets(files: readonly ShareFile[]): RedactedItem[] {
  return redact(files).items;
}

export function redact(files: readonly ShareFile[]): RedactionResult {
  const items: RedactedItem[] = [];
  const outFiles = files.map((f) => {
    const cuts = findCuts(f.text);
    if (cuts.length === 0) return f;
    let text = '';
    let at = 0;
    for (const c of cuts) {
      // Lines never move: a multi-line value leaves its line breaks behind (blank lines are
      // fine in YAML), and the indentation the range ran into stays.
      const removed = f.text.slice(c.start, c.end);
      const breaks = removed.split('\n').length - 1;
      const tail = breaks > 0 ? removed.slice(removed.lastIndexOf('\n') + 1) : '';
      text += f.text.slice(at, c.start) + c.replacement + '\n'.repeat(breaks) + (/^[ \t]*$/.test(tail) ? tail : '');
      at = c.end;
      items.push({ file: f.path, line: lineAt(f.text, c.start), what: c.what });
    }
    text += f.text.slice(at);
    return { path: f.path, text };
  });
  return { files: outFiles, items };
}
