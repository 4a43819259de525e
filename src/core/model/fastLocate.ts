// A fast, line-based locator for the block-style YAML that Kubernetes manifests are
// written in. It walks only the lines on the path to a field, so locating the fields of
// thousands of messages costs little. Whenever it meets something it does not fully
// understand (anchors, tags, multi-line flow collections, tabs, complex keys…) it returns
// null and the caller falls back to the full YAML parser.
import type { SourceDocument, SourceRange } from './types.ts';
import type { FieldLocation } from './locate.ts';

interface Lines {
  text: string;
  starts: number[];
}

/** Lines [first, end) of a block node; the first line's content may start at `firstCol`. */
interface Block {
  first: number;
  end: number;
  firstCol: number;
}

type Found =
  | { kind: 'block'; block: Block; key?: Range0 }
  /** A key with no value (null): the parser places the null right after the colon. */
  | { kind: 'empty'; line: number; col: number; key: Range0 }
  | { kind: 'inline'; line: number; col: number; key?: Range0; lines: Lines };

/** 0-based line and columns, end exclusive. */
interface Range0 {
  line: number;
  start: number;
  end: number;
}

const UNSURE = null;

function lineOf(l: Lines, i: number): string {
  const s = l.starts[i] as number;
  let e = i + 1 < l.starts.length ? (l.starts[i + 1] as number) - 1 : l.text.length;
  if (e > s && l.text.charCodeAt(e - 1) === 13) e--;
  return l.text.slice(s, e);
}

/** Column of the first content character, -1 for blank/comment lines, -2 when unsure (tabs). */
function contentCol(line: string, from: number): number {
  let i = from;
  while (i < line.length && line.charCodeAt(i) === 32) i++;
  if (i >= line.length) return -1;
  const c = line[i];
  if (c === '#') return -1;
  if (c === '\t') return -2;
  return i;
}

function indentAt(l: Lines, b: Block, i: number): number {
  return contentCol(lineOf(l, i), i === b.first && b.firstCol >= 0 ? b.firstCol : 0);
}

/** End (exclusive) of a quoted scalar starting at `at`, or -1 if it does not close on the line. */
function quotedEnd(line: string, at: number): number {
  const q = line[at];
  for (let i = at + 1; i < line.length; i++) {
    if (q === '"' && line[i] === '\\') {
      i++;
      continue;
    }
    if (line[i] === q) {
      if (q === "'" && line[i + 1] === "'") {
        i++;
        continue;
      }
      return i + 1;
    }
  }
  return -1;
}

function isSeqItem(line: string, col: number): boolean {
  return line[col] === '-' && (col + 1 >= line.length || line[col + 1] === ' ');
}

/** Where a mapping key ends and its value starts on a line, or null when this is no simple `key:` line. */
function splitKey(line: string, col: number): { key: string; keyEnd: number; valueCol: number } | null {
  const c = line[col];
  if (c === undefined || '?&*!|>{[@`%,]}'.includes(c)) return null;
  let keyEnd: number;
  let key: string;
  if (c === '"' || c === "'") {
    keyEnd = quotedEnd(line, col);
    if (keyEnd < 0) return null;
    const raw = line.slice(col + 1, keyEnd - 1);
    if (raw.includes('\\') || (c === "'" && raw.includes("''"))) return null;
    key = raw;
    if (line[keyEnd] !== ':') return null;
  } else {
    let i = col;
    for (;;) {
      i = line.indexOf(':', i);
      if (i < 0) return null;
      if (i + 1 >= line.length || line[i + 1] === ' ') break;
      i++;
    }
    keyEnd = i;
    while (keyEnd > col && line[keyEnd - 1] === ' ') keyEnd--;
    key = line.slice(col, keyEnd);
    if (key.includes(' #')) return null;
    keyEnd = i === keyEnd ? i : keyEnd;
  }
  const colon = line.indexOf(':', keyEnd);
  let v = colon + 1;
  while (v < line.length && line[v] === ' ') v++;
  return { key, keyEnd, valueCol: v };
}

/** The lines of the block value of a key on line `keyLine` at indentation `indent`. */
function blockValue(l: Lines, b: Block, keyLine: number, indent: number): Block | null {
  let first = -1;
  let sameIndentSeq = false;
  let end = b.end;
  for (let j = keyLine + 1; j < b.end; j++) {
    const line = lineOf(l, j);
    const ci = contentCol(line, 0);
    if (ci === -2) return UNSURE;
    if (ci < 0) continue;
    if (first < 0) {
      first = j;
      sameIndentSeq = ci === indent && isSeqItem(line, ci);
      if (ci < indent || (ci === indent && !sameIndentSeq)) {
        end = j;
        break;
      }
      continue;
    }
    if (ci > indent || (sameIndentSeq && ci === indent && isSeqItem(line, ci))) continue;
    end = j;
    break;
  }
  if (first < 0 || first >= end) return { first: keyLine + 1, end: keyLine + 1, firstCol: -1 };
  return { first, end, firstCol: -1 };
}

function findKey(l: Lines, b: Block, key: string): Found | null {
  let indent = -1;
  for (let i = b.first; i < b.end; i++) {
    const line = lineOf(l, i);
    const ci = indentAt(l, b, i);
    if (ci === -2) return UNSURE;
    if (ci < 0) continue;
    if (indent < 0) indent = ci;
    if (ci < indent) return UNSURE;
    // Deeper lines, and `- ` items at the same indentation (a sequence value written
    // level with its key), belong to the previous key's value.
    if (ci > indent) continue;
    if (isSeqItem(line, ci)) {
      if (i === b.first) return UNSURE;
      continue;
    }
    const k = splitKey(line, ci);
    if (!k) return UNSURE;
    if (k.key !== key) continue;
    const keyRange: Range0 = { line: i, start: ci, end: k.keyEnd };
    if (k.valueCol >= line.length || line[k.valueCol] === '#') {
      const value = blockValue(l, b, i, indent);
      if (value && value.first === value.end) {
        // The parser puts the null where the value would start; after a comment it is less clear.
        if (k.valueCol < line.length) return UNSURE;
        return { kind: 'empty', line: i, col: k.valueCol, key: keyRange };
      }
      return value ? { kind: 'block', block: value, key: keyRange } : UNSURE;
    }
    return { kind: 'inline', line: i, col: k.valueCol, key: keyRange, lines: l };
  }
  return UNSURE;
}

function findItem(l: Lines, b: Block, index: number): Found | null {
  let indent = -1;
  let n = -1;
  let itemLine = -1;
  let itemEnd = b.end;
  for (let i = b.first; i < b.end; i++) {
    const line = lineOf(l, i);
    const ci = indentAt(l, b, i);
    if (ci === -2) return UNSURE;
    if (ci < 0) continue;
    if (indent < 0) indent = ci;
    if (ci < indent) return UNSURE;
    if (ci > indent) continue;
    if (!isSeqItem(line, ci)) return UNSURE;
    n++;
    if (n === index) itemLine = i;
    else if (n === index + 1) {
      itemEnd = i;
      break;
    }
  }
  if (itemLine < 0) return UNSURE;
  const line = lineOf(l, itemLine);
  const dash = itemLine === b.first && b.firstCol >= 0 ? contentCol(line, b.firstCol) : contentCol(line, 0);
  const col = contentCol(line, dash + 1);
  if (col === -2) return UNSURE;
  if (col < 0) return { kind: 'block', block: { first: itemLine + 1, end: itemEnd, firstCol: -1 } };
  if (isSeqItem(line, col) || splitKey(line, col)) return { kind: 'block', block: { first: itemLine, end: itemEnd, firstCol: col } };
  return { kind: 'inline', line: itemLine, col, lines: l };
}

/** Range of an inline scalar starting at `col`, or null for anything else. */
function inlineScalar(line: string, col: number): { start: number; end: number } | null {
  const c = line[col];
  if (c === undefined || '&*!|>{[%@`'.includes(c)) return null;
  if (c === '"' || c === "'") {
    const e = quotedEnd(line, col);
    return e < 0 ? null : { start: col, end: e };
  }
  let e = line.indexOf(' #', col);
  if (e < 0) e = line.length;
  while (e > col && line[e - 1] === ' ') e--;
  return { start: col, end: e };
}

/** Items of a one-line flow collection (`[a, "b"]` or `{k: v}`), or null when not that simple. */
function flowItems(line: string, col: number): Array<{ key?: { start: number; end: number; text: string }; start: number; end: number }> | null {
  const open = line[col];
  const close = open === '[' ? ']' : '}';
  const items: Array<{ key?: { start: number; end: number; text: string }; start: number; end: number }> = [];
  let i = col + 1;
  for (;;) {
    while (line[i] === ' ') i++;
    if (i >= line.length) return null;
    if (line[i] === close) return items;
    let key: { start: number; end: number; text: string } | undefined;
    if (open === '{') {
      const colon = line.indexOf(':', i);
      if (colon < 0) return null;
      let ke = colon;
      while (ke > i && line[ke - 1] === ' ') ke--;
      const text = line.slice(i, ke);
      if (/["'[\]{},]/.test(text)) return null;
      key = { start: i, end: ke, text };
      i = colon + 1;
      while (line[i] === ' ') i++;
    }
    const c = line[i];
    if (c === undefined || '[{&*!|>'.includes(c)) return null;
    let end: number;
    if (c === '"' || c === "'") {
      end = quotedEnd(line, i);
      if (end < 0) return null;
    } else {
      end = i;
      while (end < line.length && line[end] !== ',' && line[end] !== close) end++;
      while (end > i && line[end - 1] === ' ') end--;
    }
    items.push({ ...(key ? { key } : {}), start: i, end });
    i = end;
    while (line[i] === ' ') i++;
    if (line[i] === ',') i++;
    else if (line[i] !== close) return null;
  }
}

function toRange(doc: SourceDocument, line: number, start: number, end: number): SourceRange {
  return { startLine: doc.startLine + line, startCol: start + 1, endLine: doc.startLine + line, endCol: end + 1 };
}

function blockRange(doc: SourceDocument, l: Lines, b: Block): SourceRange | null {
  let first = -1;
  let last = -1;
  for (let i = b.first; i < b.end; i++) {
    if (indentAt(l, b, i) >= 0) {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (first < 0) return null;
  const startCol = indentAt(l, b, first);
  return { startLine: doc.startLine + first, startCol: startCol + 1, endLine: doc.startLine + last, endCol: lineOf(l, last).trimEnd().length + 1 };
}

/**
 * Line starts of recently used documents (a document's text never changes; relocation keeps
 * the object). Bounded: located messages are kept elsewhere, so old entries are not needed.
 */
const linesCache = new Map<SourceDocument, Lines | null>();
const LINES_CACHE_LIMIT = 256;

function linesOf(doc: SourceDocument): Lines | null {
  const hit = linesCache.get(doc);
  if (hit !== undefined) return hit;
  if (linesCache.size >= LINES_CACHE_LIMIT) linesCache.delete(linesCache.keys().next().value as SourceDocument);
  const text = doc.text;
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  // Documents with directives or explicit markers are left to the full parser.
  const l = /^(---|\.\.\.|%)/m.test(text) ? null : { text, starts };
  linesCache.set(doc, l);
  return l;
}

/**
 * Locates a field path in a document (same result shape as the full locator), or returns
 * null when unsure. Only exact hits are returned: a path that does not resolve gives null.
 */
export function fastLocate(doc: SourceDocument, path: ReadonlyArray<string | number>): FieldLocation | null {
  if (doc.isJson || path.length === 0) return null;
  const l = linesOf(doc);
  if (!l) return null;
  let block: Block = { first: 0, end: l.starts.length, firstCol: -1 };
  for (let p = 0; p < path.length; p++) {
    const seg = path[p] as string | number;
    const found = typeof seg === 'number' ? findItem(l, block, seg) : findKey(l, block, seg);
    if (!found) return null;
    const key = found.key ? toRange(doc, found.key.line, found.key.start, found.key.end) : undefined;
    const last = p === path.length - 1;
    if (found.kind === 'empty') {
      if (!last) return null;
      return { key: key as SourceRange, value: toRange(doc, found.line, found.col, found.col), scalar: true, exact: true };
    }
    if (found.kind === 'block') {
      if (last) {
        const value = blockRange(doc, l, found.block);
        if (!value) return key ? { key, value: key, scalar: true, exact: true } : null;
        return { ...(key ? { key } : {}), value, scalar: false, exact: true };
      }
      block = found.block;
      continue;
    }
    const line = lineOf(l, found.line);
    const c = line[found.col];
    if (c === '[' || c === '{') {
      const items = flowItems(line, found.col);
      if (!items) return null;
      if (last) {
        const close = line.indexOf(c === '[' ? ']' : '}', items.length ? (items[items.length - 1] as { end: number }).end : found.col);
        return { ...(key ? { key } : {}), value: toRange(doc, found.line, found.col, close + 1), scalar: false, exact: true };
      }
      // One more step into the flow collection, which must be the last.
      if (p + 2 !== path.length) return null;
      const next = path[p + 1];
      const item = typeof next === 'number' && c === '[' ? items[next] : typeof next === 'string' && c === '{' ? items.find((x) => x.key?.text === next) : undefined;
      if (!item || line[item.start] === '[' || line[item.start] === '{') return null;
      const itemKey = item.key ? toRange(doc, found.line, item.key.start, item.key.end) : undefined;
      return { ...(itemKey ? { key: itemKey } : {}), value: toRange(doc, found.line, item.start, item.end), scalar: true, exact: true };
    }
    if (!last) return null;
    const s = inlineScalar(line, found.col);
    if (!s) return null;
    return { ...(key ? { key } : {}), value: toRange(doc, found.line, s.start, s.end), scalar: true, exact: true };
  }
  return null;
}

/** Forgets cached line tables (they pin document texts); called after each analysis run. */
export function clearFastLocateCache(): void {
  linesCache.clear();
}
