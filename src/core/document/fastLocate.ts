// A fast, line-based locator for the block-style YAML that Kubernetes manifests are
// written in. It walks only the lines on the path to a field, so locating the fields of
// thousands of messages costs little. It answers only where its answer is the full
// locator's (locate.ts, the `yaml` package's positions): the key range, whether the value
// is a scalar, the value's start, and the value's end for scalars and for collections
// without a key. Whenever it meets something it does not fully understand (anchors,
// aliases, tags, multi-line scalars or flow collections, keys that are not plain strings,
// tabs, comments inside a range it would have to end…) it returns null and the caller
// uses the full parser.
import type { FieldLocation, SourceDocument, SourceRange } from './types.ts';
import { hasCharsOutsideFastSubset } from './fastYaml.ts';

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
  | { kind: 'inline'; line: number; col: number; key?: Range0 };

/** 0-based line and columns, end exclusive. */
interface Range0 {
  line: number;
  start: number;
  end: number;
}

const UNSURE = null;

/** End (exclusive, before any CR) of line `i`, which starts at `s`. */
function lineEnd(l: Lines, i: number, s: number): number {
  let e = i + 1 < l.starts.length ? (l.starts[i + 1] as number) - 1 : l.text.length;
  if (e > s && l.text.charCodeAt(e - 1) === 13) e--;
  return e;
}

function lineOf(l: Lines, i: number): string {
  const s = l.starts[i] as number;
  return l.text.slice(s, lineEnd(l, i, s));
}

/**
 * contentCol of line `i` read in the text itself: the walks below look at every line of a
 * block for its indentation, and cutting each out as a string made most of their garbage.
 */
function contentColAt(l: Lines, i: number, from: number): number {
  const s = l.starts[i] as number;
  const e = lineEnd(l, i, s);
  const t = l.text;
  let p = s + from;
  while (p < e && t.charCodeAt(p) === 32) p++;
  if (p >= e || t.charCodeAt(p) === 35) return -1;
  return p - s;
}

/** isSeqItem of line `i`, read in the text itself. */
function isSeqItemAt(l: Lines, i: number, col: number): boolean {
  const s = l.starts[i] as number;
  const p = s + col;
  const e = lineEnd(l, i, s);
  return p < e && l.text.charCodeAt(p) === 45 && (p + 1 >= e || l.text.charCodeAt(p + 1) === 32);
}

/** Column of the first content character at or after `from`, -1 for blank/comment lines. */
function contentCol(line: string, from: number): number {
  let i = from;
  while (i < line.length && line.charCodeAt(i) === 32) i++;
  if (i >= line.length || line.charCodeAt(i) === 35) return -1;
  return i;
}

function indentAt(l: Lines, b: Block, i: number): number {
  return contentColAt(l, i, i === b.first && b.firstCol >= 0 ? b.firstCol : 0);
}

/** indentAt for a line already cut out of the text (the walks below need both). */
function lineIndent(line: string, b: Block, i: number): number {
  return contentCol(line, i === b.first && b.firstCol >= 0 ? b.firstCol : 0);
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

/** Characters that make a node more than a plain scalar or a simple key (properties, block scalars, indicators). */
const SPECIAL_START = '?&*!|>{[@`%,]}#:';

/**
 * Plain keys the full parser may read as something else than the same string (numbers,
 * booleans, null, `-` indicators, merge keys): the two locators could then disagree on
 * what matches.
 */
const MAYBE_NOT_A_STRING_KEY = /^(?:[-+.~0-9]|(?:true|false|null|yes|no|on|off|y|n|<<)$)/i;

/** Where a mapping key ends and its value starts on a line, or null when this is no simple `key:` line. */
function splitKey(line: string, col: number): { key: string; keyEnd: number; valueCol: number } | null {
  const c = line[col];
  if (c === undefined || SPECIAL_START.includes(c) || isSeqItem(line, col)) return null;
  let keyEnd: number;
  let key: string;
  let colon: number;
  if (c === '"' || c === "'") {
    keyEnd = quotedEnd(line, col);
    if (keyEnd < 0) return null;
    const raw = line.slice(col + 1, keyEnd - 1);
    if (raw.includes('\\') || (c === "'" && raw.includes("''"))) return null;
    key = raw;
    colon = keyEnd;
    if (line[colon] !== ':' || (colon + 1 < line.length && line[colon + 1] !== ' ')) return null;
  } else {
    let i = col;
    for (;;) {
      i = line.indexOf(':', i);
      if (i < 0) return null;
      if (i + 1 >= line.length || line[i + 1] === ' ') break;
      i++;
    }
    colon = i;
    keyEnd = i;
    while (keyEnd > col && line[keyEnd - 1] === ' ') keyEnd--;
    key = line.slice(col, keyEnd);
    if (key.includes(' #') || MAYBE_NOT_A_STRING_KEY.test(key)) return null;
  }
  let v = colon + 1;
  while (v < line.length && line[v] === ' ') v++;
  return { key, keyEnd, valueCol: v };
}

/** The lines of the block value of a key on line `keyLine` at indentation `indent`. */
function blockValue(l: Lines, b: Block, keyLine: number, indent: number): Block {
  let first = -1;
  let sameIndentSeq = false;
  let end = b.end;
  for (let j = keyLine + 1; j < b.end; j++) {
    const ci = contentColAt(l, j, 0);
    if (ci < 0) continue;
    if (first < 0) {
      first = j;
      sameIndentSeq = ci === indent && isSeqItemAt(l, j, ci);
      if (ci < indent || (ci === indent && !sameIndentSeq)) {
        end = j;
        break;
      }
      continue;
    }
    if (ci > indent || (sameIndentSeq && ci === indent && isSeqItemAt(l, j, ci))) continue;
    end = j;
    break;
  }
  if (first < 0 || first >= end) return { first: keyLine + 1, end: keyLine + 1, firstCol: -1 };
  return { first, end, firstCol: -1 };
}

/**
 * True when no line after `line` (up to the end of the block) is indented deeper than
 * `indent`, comments aside: an inline value there is all on its line.
 */
function endsOnItsLine(l: Lines, b: Block, line: number, indent: number): boolean {
  for (let j = line + 1; j < b.end; j++) {
    const ci = contentColAt(l, j, 0);
    if (ci < 0) continue;
    return ci <= indent;
  }
  return true;
}

/** True when the line holds a scalar or a flow collection from `col` and no mapping key. */
function isLoneScalar(line: string, col: number): boolean {
  const c = line[col];
  if (c === '[' || c === '{') return true; // answered (or refused) by flowItems
  const s = inlineScalar(line, col);
  if (!s) return false;
  if (c === '"' || c === "'") return true;
  const text = line.slice(s.start, s.end);
  return !text.includes(': ') && !text.endsWith(':');
}

/**
 * A block whose first content line is not a mapping or sequence holds a scalar (or a flow
 * collection) on its own line: answer it like an inline value when that is its only line.
 */
function classify(l: Lines, block: Block, key: Range0 | undefined): Found | null {
  let first = -1;
  for (let i = block.first; i < block.end; i++) {
    if (indentAt(l, block, i) >= 0) {
      first = i;
      break;
    }
  }
  if (first < 0) return blockFound(block, key);
  const line = lineOf(l, first);
  const col = indentAt(l, block, first);
  if (isSeqItem(line, col) || splitKey(line, col)) return blockFound(block, key);
  if (!isLoneScalar(line, col)) return UNSURE;
  for (let i = first + 1; i < block.end; i++) if (indentAt(l, block, i) >= 0) return UNSURE; // multi-line
  return key ? { kind: 'inline', line: first, col, key } : { kind: 'inline', line: first, col };
}

// The results below are written as two literals rather than with `...(key ? { key } : {})`:
// V8 builds such spreads slowly, and every message's location goes through here.
function blockFound(block: Block, key: Range0 | undefined): Found {
  return key ? { kind: 'block', block, key } : { kind: 'block', block };
}

function located(key: SourceRange | undefined, value: SourceRange, scalar: boolean): FieldLocation {
  return key ? { key, value, scalar, exact: true } : { value, scalar, exact: true };
}

function findKey(l: Lines, b: Block, key: string): Found | null {
  let indent = -1;
  let hit: { line: number; col: number; split: NonNullable<ReturnType<typeof splitKey>> } | undefined;
  for (let i = b.first; i < b.end; i++) {
    const ci = indentAt(l, b, i);
    if (ci < 0) continue;
    if (indent < 0) indent = ci;
    if (ci < indent) return UNSURE;
    // Deeper lines, and `- ` items at the same indentation (a sequence value written
    // level with its key), belong to the previous key's value.
    if (ci > indent) continue;
    if (isSeqItemAt(l, i, ci)) {
      if (i === b.first) return UNSURE;
      continue;
    }
    const k = splitKey(lineOf(l, i), ci);
    if (!k) return UNSURE;
    // The last of duplicated keys is the one whose value is used.
    if (k.key === key) hit = { line: i, col: ci, split: k };
  }
  if (!hit) return UNSURE;
  const { line: i, col: ci, split: k } = hit;
  const line = lineOf(l, i);
  const keyRange: Range0 = { line: i, start: ci, end: k.keyEnd };
  if (k.valueCol >= line.length || line[k.valueCol] === '#') {
    const value = blockValue(l, b, i, indent);
    if (value.first === value.end) {
      // The parser puts the null where the value would start; after a comment it is less clear.
      if (k.valueCol < line.length) return UNSURE;
      return { kind: 'empty', line: i, col: k.valueCol, key: keyRange };
    }
    return classify(l, value, keyRange);
  }
  if (!endsOnItsLine(l, b, i, indent)) return UNSURE;
  return { kind: 'inline', line: i, col: k.valueCol, key: keyRange };
}

function findItem(l: Lines, b: Block, index: number): Found | null {
  let indent = -1;
  let n = -1;
  let itemLine = -1;
  let itemEnd = b.end;
  for (let i = b.first; i < b.end; i++) {
    const ci = indentAt(l, b, i);
    if (ci < 0) continue;
    if (indent < 0) indent = ci;
    if (ci < indent) return UNSURE;
    if (ci > indent) continue;
    if (!isSeqItemAt(l, i, ci)) return UNSURE;
    n++;
    if (n === index) itemLine = i;
    else if (n === index + 1) {
      itemEnd = i;
      break;
    }
  }
  if (itemLine < 0) return UNSURE;
  const line = lineOf(l, itemLine);
  const dash = lineIndent(line, b, itemLine);
  const col = contentCol(line, dash + 1);
  const item: Block = { first: itemLine, end: itemEnd, firstCol: -1 };
  if (col < 0) return classify(l, { first: itemLine + 1, end: itemEnd, firstCol: -1 }, undefined);
  if (isSeqItem(line, col) || splitKey(line, col)) return { kind: 'block', block: { first: itemLine, end: itemEnd, firstCol: col } };
  if (!isLoneScalar(line, col) || !endsOnItsLine(l, item, itemLine, dash)) return UNSURE;
  return { kind: 'inline', line: itemLine, col };
}

/** Range of an inline scalar starting at `col`, or null for anything else. */
function inlineScalar(line: string, col: number): { start: number; end: number } | null {
  const c = line[col];
  if (c === undefined || SPECIAL_START.includes(c) || isSeqItem(line, col)) return null;
  if (c === '"' || c === "'") {
    const e = quotedEnd(line, col);
    if (e < 0) return null;
    const rest = line.slice(e).trimStart();
    return rest === '' || rest.startsWith('#') ? { start: col, end: e } : null;
  }
  let e = line.indexOf(' #', col);
  if (e < 0) e = line.length;
  while (e > col && line[e - 1] === ' ') e--;
  return { start: col, end: e };
}

interface FlowItem {
  key?: { start: number; end: number; text: string };
  start: number;
  end: number;
}

/** A simple key inside a one-line flow mapping (`app`, `kubernetes.io/name`). */
const FLOW_KEY = /^[A-Za-z_][\w./-]*$/;

/**
 * Items of a one-line flow collection of scalars (`[a, "b"]` or `{k: v}`) and the end of the
 * collection, or null when it is not that simple.
 */
function flowItems(line: string, col: number): { items: FlowItem[]; end: number } | null {
  const open = line[col];
  const close = open === '[' ? ']' : '}';
  const items: FlowItem[] = [];
  let i = col + 1;
  for (;;) {
    while (line[i] === ' ') i++;
    if (i >= line.length) return null;
    if (line[i] === close) {
      const rest = line.slice(i + 1).trimStart();
      return rest === '' || rest.startsWith('#') ? { items, end: i + 1 } : null;
    }
    let key: FlowItem['key'];
    if (open === '{') {
      const colon = line.indexOf(': ', i);
      if (colon < 0) return null;
      const text = line.slice(i, colon);
      if (!FLOW_KEY.test(text) || MAYBE_NOT_A_STRING_KEY.test(text)) return null;
      key = { start: i, end: colon, text };
      i = colon + 2;
      while (line[i] === ' ') i++;
    }
    const c = line[i];
    if (c === undefined || SPECIAL_START.includes(c) || c === '-' || c === ' ') return null;
    let end: number;
    if (c === '"' || c === "'") {
      end = quotedEnd(line, i);
      if (end < 0) return null;
    } else {
      end = i;
      while (end < line.length && line[end] !== ',' && line[end] !== close) {
        const ch = line[end];
        if (ch === '[' || ch === ']' || ch === '{' || ch === '}' || ch === '#' || ch === '"' || ch === "'" || ch === ':') return null;
        end++;
      }
      while (end > i && line[end - 1] === ' ') end--;
    }
    items.push(key ? { key, start: i, end } : { start: i, end });
    i = end;
    while (line[i] === ' ') i++;
    if (line[i] === ',') {
      i++;
      while (line[i] === ' ') i++;
      if (line[i] === close) return null; // trailing comma
    } else if (line[i] !== close) return null;
  }
}

function toRange(doc: SourceDocument, line: number, start: number, end: number): SourceRange {
  return { startLine: doc.startLine + line, startCol: start + 1, endLine: doc.startLine + line, endCol: end + 1 };
}

/** Range of a block collection: its first content character to the end of its last content line. */
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

/** True when a line of the block holds a `#` (the full parser's collection ranges treat comments unevenly). */
function blockHasHash(l: Lines, b: Block): boolean {
  const start = l.starts[b.first] as number;
  const end = b.end < l.starts.length ? (l.starts[b.end] as number) : l.text.length;
  const at = l.text.indexOf('#', start);
  return at >= 0 && at < end;
}

/** Whitespace to JavaScript's `\s` that YAML reads as text. */
const UNICODE_SPACE = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/;

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
  let l: Lines | null = null;
  // Documents with directives, explicit markers, tabs, lone CRs, control characters or
  // Unicode spaces (the full locator trims those off ranges) are left to the full parser.
  if (!/^(---|\.\.\.|%)/m.test(text) && !hasCharsOutsideFastSubset(text) && !UNICODE_SPACE.test(text)) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    l = { text, starts };
  }
  linesCache.set(doc, l);
  return l;
}

/**
 * Locates a field path in a document (same result as the full locator for what the fast
 * locator answers, see the top of this file), or returns null when unsure. Only exact hits
 * are returned: a path that does not resolve gives null.
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
        if (!key && blockHasHash(l, found.block)) return null;
        const value = blockRange(doc, l, found.block);
        if (!value) return null;
        return located(key, value, false);
      }
      block = found.block;
      continue;
    }
    const line = lineOf(l, found.line);
    const c = line[found.col];
    if (c === '[' || c === '{') {
      const flow = flowItems(line, found.col);
      if (!flow) return null;
      if (last) return located(key, toRange(doc, found.line, found.col, flow.end), false);
      // One more step into the flow collection, which must be the last.
      if (p + 2 !== path.length) return null;
      const next = path[p + 1];
      const item =
        typeof next === 'number' && c === '['
          ? flow.items[next]
          : typeof next === 'string' && c === '{'
            ? flow.items.findLast((x) => x.key?.text === next)
            : undefined;
      if (!item) return null;
      const itemKey = item.key ? toRange(doc, found.line, item.key.start, item.key.end) : undefined;
      return located(itemKey, toRange(doc, found.line, item.start, item.end), true);
    }
    if (!last) return null;
    const s = inlineScalar(line, found.col);
    if (!s) return null;
    return located(key, toRange(doc, found.line, s.start, s.end), true);
  }
  return null;
}

/** Forgets cached line tables (they pin document texts); called after each analysis run. */
export function clearFastLocateCache(): void {
  linesCache.clear();
}
