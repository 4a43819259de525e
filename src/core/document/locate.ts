// Lazy source locations: a document is parsed with positions (the `yaml` package) only
// when one of its resources carries a diagnostic, and the result is cached.
import { parseDocument, isMap, isSeq, isScalar, isPair, type Document, type Node as YamlNode } from 'yaml';
import type { FieldLocation, SourceDocument, SourceRange } from './types.ts';
import { lineIndex } from './lines.ts';
import { fastLocate, clearFastLocateCache } from './fastLocate.ts';
import { clearLineIndexCache } from './lines.ts';

const docCache = new Map<string, Document.Parsed | null>();
const DOC_CACHE_LIMIT = 512;

function positioned(text: string): Document.Parsed | null {
  if (docCache.has(text)) return docCache.get(text) ?? null;
  let doc: Document.Parsed | null = null;
  try {
    doc = parseDocument(withLoneCrAsLf(text), { uniqueKeys: false, merge: true, prettyErrors: false, logLevel: 'error' });
  } catch {
    doc = null;
  }
  if (docCache.size >= DOC_CACHE_LIMIT) docCache.delete(docCache.keys().next().value as string);
  docCache.set(text, doc);
  return doc;
}

/**
 * js-yaml, which reads the values, takes a lone CR as a line break; the `yaml` package does
 * not. A CR becomes an LF for the positioned parse (same length, so every offset holds),
 * so that both read the same structure.
 */
export function withLoneCrAsLf(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

const fieldPathCache = new Map<string, Array<string | number>>();

/** `spec.http[0].route[1].destination.host` → ['spec','http',0,'route',1,'destination','host']. */
export function parseFieldPath(path: string): Array<string | number> {
  const hit = fieldPathCache.get(path);
  if (hit) return hit;
  const out = splitFieldPath(path);
  if (fieldPathCache.size >= 4096) fieldPathCache.clear();
  fieldPathCache.set(path, out);
  return out;
}

function splitFieldPath(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\[["']([^"']*)["']\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path))) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else if (m[3] !== undefined) out.push(m[3]);
  }
  return out;
}

export type { FieldLocation } from './types.ts';

function toRange(doc: SourceDocument, start: number, end: number): SourceRange {
  const idx = lineIndex(doc.text);
  const a = idx.position(start);
  const b = idx.position(Math.max(end, start));
  return {
    startLine: doc.startLine + a.line - 1,
    startCol: a.col,
    endLine: doc.startLine + b.line - 1,
    endCol: b.col,
  };
}

function nodeRange(doc: SourceDocument, node: YamlNode): SourceRange | undefined {
  const r = node.range;
  if (!r) return undefined;
  // range[1] is the end of the value proper (before trailing comments/whitespace)
  let end = r[1];
  while (end > r[0] && /\s/.test(doc.text[end - 1] ?? '')) end--;
  return toRange(doc, r[0], end);
}

/**
 * Finds a field in a document. `path` is relative to the document root. The line scanner
 * answers the common cases; the full parser answers the rest (and partial paths).
 */
export function locateInDocument(doc: SourceDocument, path: Array<string | number>): FieldLocation | undefined {
  return fastLocate(doc, path) ?? locateWithParser(doc, path);
}

/**
 * Finds a field with the full YAML parser (positions of every node). A repeated key is found
 * where it is last written (its value is the one read), or, with `lastOccurrence`, where it
 * is written for that time (0 = the first) as the path's last segment.
 */
export function locateWithParser(doc: SourceDocument, path: Array<string | number>, lastOccurrence?: number): FieldLocation | undefined {
  const parsed = positioned(doc.text);
  if (!parsed?.contents) return undefined;
  let node: unknown = parsed.contents;
  let keyNode: YamlNode | undefined;
  let best: FieldLocation | undefined;
  const rootRange = nodeRange(doc, parsed.contents as YamlNode);
  if (rootRange) best = { value: rootRange, scalar: false, exact: path.length === 0 };
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    let next: unknown;
    keyNode = undefined;
    if (isMap(node) && typeof seg === 'string') {
      let seen = 0;
      for (const item of node.items) {
        if (!isPair(item)) continue;
        const k = item.key;
        const kv = isScalar(k) ? String(k.value) : String(k);
        if (kv === seg) {
          keyNode = k as YamlNode;
          next = item.value;
          if (lastOccurrence !== undefined && i === path.length - 1 && seen++ === lastOccurrence) break;
          // keep going: the last duplicate wins, as in the value model
        }
      }
    } else if (isSeq(node) && typeof seg === 'number') {
      next = node.items[seg];
    } else if (isMap(node) && typeof seg === 'number') {
      next = undefined;
    }
    if (next === undefined || next === null) {
      // key present with an empty value: point at the key
      if (keyNode) {
        const kr = nodeRange(doc, keyNode);
        if (kr) return { key: kr, value: kr, scalar: true, exact: i === path.length - 1 };
      }
      return best ? { ...best, exact: false } : undefined;
    }
    node = next;
    const vr = nodeRange(doc, node as YamlNode);
    const kr = keyNode ? nodeRange(doc, keyNode) : undefined;
    if (vr) best = { ...(kr ? { key: kr } : {}), value: vr, scalar: isScalar(node), exact: i === path.length - 1 };
  }
  return best;
}

/**
 * Every field path of a document (or of one `items[i]` of a List document), with the range
 * of its key and value: `spec.http[0].route[1].destination.host` → range. Collections get
 * the range of their key; scalars span key and value.
 */
export function fieldRangeMap(doc: SourceDocument, itemIndex?: number): Map<string, SourceRange> {
  const out = new Map<string, SourceRange>();
  const parsed = positioned(doc.text);
  if (!parsed?.contents) return out;
  let root: unknown = parsed.contents;
  if (itemIndex !== undefined) {
    const items = isMap(root) ? root.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === 'items')?.value : undefined;
    root = isSeq(items) ? items.items[itemIndex] : undefined;
    if (!root) return out;
  }
  const walk = (node: unknown, prefix: string, keyRange: SourceRange | undefined) => {
    if (isMap(node) || isSeq(node)) {
      if (prefix && keyRange) out.set(prefix, keyRange);
      if (isMap(node)) {
        for (const item of node.items) {
          if (!isPair(item)) continue;
          const k = isScalar(item.key) ? String(item.key.value) : String(item.key);
          walk(item.value, prefix ? `${prefix}.${k}` : k, item.key ? nodeRange(doc, item.key as YamlNode) : undefined);
        }
      } else {
        node.items.forEach((v, i) => walk(v, `${prefix}[${i}]`, undefined));
      }
    } else if (isScalar(node)) {
      const r = nodeRange(doc, node as YamlNode);
      if (!r) return;
      out.set(prefix, keyRange ? { startLine: keyRange.startLine, startCol: keyRange.startCol, endLine: r.endLine, endCol: r.endCol } : r);
    } else if (node === null && keyRange) {
      out.set(prefix, keyRange);
    }
  };
  walk(root, '', undefined);
  return out;
}

/**
 * File line from which istioctl counts the document's field lines: the first line of its
 * trimmed chunk, which is the separator above the text when its reader kept it there (see
 * SourceDocument.separatorInChunk), else the first non-blank character's line.
 */
export function trimmedStartLine(doc: SourceDocument): number {
  if (doc.separatorInChunk) return doc.startLine - 1;
  const text = doc.text;
  let lines = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) lines++;
    else if (c !== 32 && c !== 9 && c !== 13 && c !== 11 && c !== 12) return doc.startLine + lines;
  }
  return doc.startLine;
}

/** The positioned (`yaml` package) parse of a document text, shared with the locator's cache. */
export function positionedDocument(text: string): Document.Parsed | null {
  return positioned(text);
}

/**
 * Drops the position caches. They only speed up locating the messages of one run, and each
 * entry pins a document text, which is a slice of (and so keeps alive) its whole file.
 */
export function clearLocateCaches(): void {
  docCache.clear();
  clearFastLocateCache();
  clearLineIndexCache();
}
