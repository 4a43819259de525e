// Small, layout-preserving YAML edits for quick fixes: each helper returns one text edit
// (in file coordinates) that changes a single value, key or collection of a document and
// leaves every other character as it was. JSON documents get JSON-shaped edits.
import { resolveKubeScalar } from '../../document/yamlSchema.ts';
import { isMap, isPair, isScalar, isSeq, type Document, type Node as YamlNode, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import type { SourceDocument, TextEdit } from '../../document/types.ts';
import { positionedDocument } from '../../document/locate.ts';
import { lineIndex } from '../../document/lines.ts';

export type YamlPath = Array<string | number>;
/** A string that is always written in double quotes (annotation values, say). */
export class Quoted {
  constructor(readonly value: string) {}
  toJSON(): string {
    return this.value;
  }
}

export type YamlValue = string | number | boolean | Quoted | YamlValue[] | { [key: string]: YamlValue };

/**
 * True when `s` can be written as a plain YAML scalar and reads back as the same string, as
 * kubectl reads it (so `yes`, `on`, `0644`, `0b1`, `1_000` are quoted).
 */
export function plainSafe(s: string): boolean {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_./-]*$/.test(s)) return false;
  return resolveKubeScalar(s) === s;
}

type QuoteStyle = 'plain' | 'double' | 'single';

function quoteDouble(s: string): string {
  return JSON.stringify(s);
}

export function renderScalar(v: string | number | boolean, style: QuoteStyle = 'plain'): string {
  if (typeof v !== 'string') return String(v);
  if (style === 'double') return quoteDouble(v);
  if (style === 'single') return `'${v.replace(/'/g, "''")}'`;
  return plainSafe(v) ? v : quoteDouble(v);
}

function isComposite(v: YamlValue): v is YamlValue[] | { [key: string]: YamlValue } {
  return typeof v === 'object' && v !== null && !(v instanceof Quoted);
}

function isEmptyComposite(v: YamlValue): boolean {
  return Array.isArray(v) ? v.length === 0 : isComposite(v) && Object.keys(v).length === 0;
}

/** A value on one line: scalars, or flow collections (`[a, b]`, `{k: v}`). */
function renderInline(v: YamlValue, json: boolean): string {
  if (json) return JSON.stringify(v);
  if (v instanceof Quoted) return quoteDouble(v.value);
  if (Array.isArray(v)) return `[${v.map((x) => renderInline(x, false)).join(', ')}]`;
  if (isComposite(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${renderScalar(k)}: ${renderInline(x, false)}`)
      .join(', ')}}`;
  return renderScalar(v as string | number | boolean);
}

/** `key: value`, or `key:` followed by an indented block (first line not indented). */
function renderEntry(key: string, value: YamlValue, indent: string, eol: string): string {
  if (isComposite(value) && !isEmptyComposite(value)) return `${renderScalar(key)}:${eol}${renderBlock(value, `${indent}  `, eol)}`;
  return `${renderScalar(key)}: ${renderInline(value, false)}`;
}

/** A block collection, every line indented (no trailing newline). */
function renderBlock(value: YamlValue[] | { [key: string]: YamlValue }, indent: string, eol: string): string {
  if (Array.isArray(value)) return value.map((item) => renderSeqItem(item, indent, eol)).join(eol);
  return Object.entries(value)
    .map(([k, v]) => indent + renderEntry(k, v, indent, eol))
    .join(eol);
}

/** `- item` at `indent`; a mapping item starts on the dash line (Kubernetes style). */
function renderSeqItem(item: YamlValue, indent: string, eol: string): string {
  if (isComposite(item) && !Array.isArray(item) && !isEmptyComposite(item)) {
    const inner = `${indent}  `;
    return Object.entries(item)
      .map(([k, v], i) => (i === 0 ? `${indent}- ` : inner) + renderEntry(k, v, inner, eol))
      .join(eol);
  }
  return `${indent}- ${renderInline(item, false)}`;
}

/** Nests `value` under the keys of `path`: (['a','b'], v) → {a: {b: v}}. */
function nest(path: readonly string[], value: YamlValue): YamlValue {
  let out = value;
  for (let i = path.length - 1; i >= 0; i--) out = { [path[i] as string]: out };
  return out;
}

interface Found {
  /** The value node; null for a key without a value. */
  node: YamlNode | null;
  /** The pair holding it, when the last segment is a key. */
  pair?: Pair<unknown, unknown>;
  /** The map or sequence holding it. */
  parent?: YamlNode;
}

function keyText(p: Pair<unknown, unknown>): string {
  return isScalar(p.key) ? String(p.key.value) : String(p.key);
}

function isNullScalar(n: unknown): boolean {
  return isScalar(n) && n.value === null;
}

/** Edits of one document; every path is relative to the document root. */
export class DocumentEditor {
  private readonly eol: string;
  private readonly json: boolean;

  private constructor(
    readonly doc: SourceDocument,
    private readonly parsed: Document.Parsed,
  ) {
    this.eol = doc.text.includes('\r\n') ? '\r\n' : '\n';
    this.json = doc.isJson;
  }

  /** An editor for a document that parses without errors (undefined otherwise). */
  static for(doc: SourceDocument): DocumentEditor | undefined {
    const parsed = positionedDocument(doc.text);
    if (!parsed?.contents || parsed.errors.length > 0) return undefined;
    return new DocumentEditor(doc, parsed);
  }

  private get text(): string {
    return this.doc.text;
  }

  private find(path: YamlPath): Found | undefined {
    let node: YamlNode | null = this.parsed.contents as YamlNode;
    let found: Found = { node };
    for (const seg of path) {
      if (node === null) return undefined;
      if (isMap(node) && typeof seg === 'string') {
        let hit: Pair<unknown, unknown> | undefined;
        for (const item of (node as YAMLMap<unknown, unknown>).items) if (isPair(item) && keyText(item) === seg) hit = item;
        if (!hit) return undefined;
        found = { node: (hit.value as YamlNode | null) ?? null, pair: hit, parent: node };
      } else if (isSeq(node) && typeof seg === 'number') {
        const item = (node as YAMLSeq<unknown>).items[seg];
        if (item === undefined) return undefined;
        found = { node: (item as YamlNode | null) ?? null, parent: node };
      } else return undefined;
      node = found.node;
    }
    return found;
  }

  /** The plain value at a path (undefined when missing). */
  valueAt(path: YamlPath): unknown {
    const f = this.find(path);
    if (!f) return undefined;
    if (f.node === null) return null;
    return (f.node as unknown as { toJSON(): unknown }).toJSON();
  }

  /** Index of the item of the sequence at `seqPath` whose text spans the file line. */
  itemIndexAtLine(seqPath: YamlPath, fileLine: number): number | undefined {
    const f = this.find(seqPath);
    if (!f || !isSeq(f.node)) return undefined;
    const idx = lineIndex(this.text);
    const items = (f.node as YAMLSeq<unknown>).items as Array<YamlNode | null>;
    for (let i = 0; i < items.length; i++) {
      const r = items[i]?.range;
      if (!r) continue;
      const first = this.doc.startLine + idx.position(this.dashBefore(r[0]) ?? r[0]).line - 1;
      const last = this.doc.startLine + idx.position(this.contentEnd(items[i] as YamlNode)).line - 1;
      if (fileLine >= first && fileLine <= last) return i;
    }
    return undefined;
  }

  /** True when the path exists (a key without a value counts). */
  has(path: YamlPath): boolean {
    return this.find(path) !== undefined;
  }

  private edit(start: number, end: number, text: string): TextEdit {
    const idx = lineIndex(this.text);
    const a = idx.position(start);
    const b = idx.position(end);
    return {
      file: this.doc.file,
      range: { startLine: this.doc.startLine + a.line - 1, startCol: a.col, endLine: this.doc.startLine + b.line - 1, endCol: b.col },
      text,
    };
  }

  private lineStart(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  /** Offset of the end of the line holding `offset` (before its line break). */
  private lineEnd(offset: number): number {
    const nl = this.text.indexOf('\n', offset);
    const end = nl < 0 ? this.text.length : nl;
    return this.text[end - 1] === '\r' ? end - 1 : end;
  }

  /** End of a node's content, before trailing whitespace. */
  private contentEnd(node: YamlNode): number {
    const r = node.range as [number, number, number];
    let end = r[1];
    while (end > r[0] && /\s/.test(this.text[end - 1] ?? '')) end--;
    return end;
  }

  private column(offset: number): number {
    return offset - this.lineStart(offset);
  }

  private styleOf(node: YamlNode | null): QuoteStyle {
    if (this.json) return 'double';
    if (isScalar(node)) {
      const t = (node as Scalar).type;
      if (t === 'QUOTE_DOUBLE') return 'double';
      if (t === 'QUOTE_SINGLE') return 'single';
    }
    return 'plain';
  }

  /** Replaces a scalar value (or fills a key that has none). */
  replaceScalar(path: YamlPath, value: string | number | boolean, opts: { quote?: 'double' } = {}): TextEdit | undefined {
    const f = this.find(path);
    if (!f) return undefined;
    const style: QuoteStyle = opts.quote === 'double' || this.json ? 'double' : this.styleOf(f.node);
    const text = renderScalar(value, style);
    if (f.node === null || (isNullScalar(f.node) && (f.node.range as number[])[0] === (f.node.range as number[])[1])) {
      // `key:` without a value: write it after the colon.
      const at = f.pair?.key ? (((f.pair.key as YamlNode).range as number[])[1] as number) : undefined;
      if (at === undefined) return undefined;
      const colon = this.text.indexOf(':', at);
      if (colon < 0) return undefined;
      return this.edit(colon + 1, colon + 1, ` ${text}`);
    }
    if (!isScalar(f.node)) return undefined;
    const r = f.node.range as [number, number, number];
    return this.edit(r[0], r[1], text);
  }

  /** Renames the key at `path` (the value stays). */
  renameKey(path: YamlPath, newKey: string): TextEdit | undefined {
    const f = this.find(path);
    const key = f?.pair?.key as YamlNode | undefined;
    if (!key?.range) return undefined;
    const style = this.json ? 'double' : this.styleOf(key);
    return this.edit(key.range[0], key.range[1], renderScalar(newKey, style));
  }

  /**
   * Adds `key: value` to the mapping at `mapPath`. Missing mappings on the way are created
   * (e.g. `metadata.annotations`); a key without a value becomes a mapping.
   */
  addMapEntry(mapPath: YamlPath, key: string, value: YamlValue): TextEdit | undefined {
    const f = this.find(mapPath);
    if (!f) {
      // Create the missing part under the deepest existing mapping.
      for (let n = mapPath.length - 1; n >= 0; n--) {
        const head = mapPath.slice(0, n);
        if (!this.find(head)) continue;
        const rest = mapPath.slice(n);
        if (rest.some((s) => typeof s !== 'string')) return undefined;
        const [first, ...more] = rest as string[];
        return this.addMapEntry(head, first as string, nest(more, { [key]: value }));
      }
      return undefined;
    }
    const node = f.node;
    if (node === null || isNullScalar(node)) return this.fillEmptyKey(f, key, value);
    if (!isMap(node)) return undefined;
    const map = node as YAMLMap<unknown, unknown>;
    const pairs = map.items.filter(isPair);
    if (map.flow || this.json) {
      const entry = this.json ? `${JSON.stringify(key)}: ${JSON.stringify(value)}` : `${renderScalar(key)}: ${renderInline(value, false)}`;
      const last = pairs[pairs.length - 1];
      if (!last) {
        const open = (map.range as number[])[0] as number;
        if (this.text[open] !== '{') return undefined;
        return this.edit(open + 1, open + 1, entry);
      }
      const end = this.pairEnd(last);
      return this.edit(end, end, `, ${entry}`);
    }
    const first = pairs[0];
    const last = pairs[pairs.length - 1];
    if (!first || !last || !first.key) return undefined;
    const keyStart = ((first.key as YamlNode).range as number[])[0] as number;
    const indent = ' '.repeat(this.column(keyStart));
    const at = this.lineEnd(this.pairEnd(last));
    return this.edit(at, at, `${this.eol}${indent}${renderEntry(key, value, indent, this.eol)}`);
  }

  /** `key:` with no value (or `~`/`null`) gets an indented block (or a flow value in JSON). */
  private fillEmptyKey(f: Found, key: string, value: YamlValue, asSequenceItem = false): TextEdit | undefined {
    const keyNode = f.pair?.key as YamlNode | undefined;
    if (!keyNode?.range) return undefined;
    const keyStart = keyNode.range[0];
    const colon = this.text.indexOf(':', keyNode.range[1]);
    if (colon < 0) return undefined;
    const nodeRange = f.node?.range as number[] | undefined;
    const start = nodeRange && nodeRange[1]! > nodeRange[0]! ? nodeRange[0]! : colon + 1;
    const end = nodeRange && nodeRange[1]! > nodeRange[0]! ? nodeRange[1]! : colon + 1;
    if (this.json) {
      const v = asSequenceItem ? [value] : { [key]: value };
      return this.edit(start, end, `${start === colon + 1 ? ' ' : ''}${JSON.stringify(v)}`);
    }
    const indent = `${this.keyIndent(keyStart)}  `;
    const block = asSequenceItem ? renderSeqItem(value, indent, this.eol) : indent + renderEntry(key, value, indent, this.eol);
    // Drop the explicit `~`/`null` along with the space before it.
    let from = start;
    if (from > colon + 1) from = colon + 1;
    return this.edit(from, end, `${this.eol}${block}`);
  }

  /** Indentation of a key: its column, as spaces (a key after `- ` counts the dash). */
  private keyIndent(keyStart: number): string {
    return ' '.repeat(this.column(keyStart));
  }

  private pairEnd(p: Pair<unknown, unknown>): number {
    const v = p.value as YamlNode | null;
    if (v?.range && !(isNullScalar(v) && v.range[0] === v.range[1])) return this.contentEnd(v);
    return this.contentEnd(p.key as YamlNode);
  }

  /**
   * Appends an item to the sequence at `seqPath` (block or flow); a missing or empty key
   * becomes a one-item block sequence.
   */
  addSequenceItem(seqPath: YamlPath, value: YamlValue): TextEdit | undefined {
    const f = this.find(seqPath);
    if (!f) {
      const last = seqPath[seqPath.length - 1];
      if (typeof last !== 'string') return undefined;
      return this.addMapEntry(seqPath.slice(0, -1), last, [value]);
    }
    const node = f.node;
    if (node === null || isNullScalar(node))
      return this.fillEmptyKey(f, typeof seqPath[seqPath.length - 1] === 'string' ? (seqPath[seqPath.length - 1] as string) : '', value, true);
    if (!isSeq(node)) return undefined;
    const seq = node as YAMLSeq<unknown>;
    const items = seq.items as Array<YamlNode | null>;
    if (seq.flow || this.json) {
      const text = this.json ? JSON.stringify(value) : renderInline(value, false);
      const lastItem = items[items.length - 1];
      if (!lastItem?.range) {
        const open = (seq.range as number[])[0] as number;
        if (this.text[open] !== '[') return undefined;
        return this.edit(open + 1, open + 1, text);
      }
      const end = this.contentEnd(lastItem);
      return this.edit(end, end, `, ${text}`);
    }
    const firstItem = items[0];
    const lastItem = items[items.length - 1];
    if (!firstItem || !lastItem || !firstItem.range || !lastItem.range) return undefined;
    const dash = this.dashBefore(firstItem.range[0]);
    if (dash === undefined) return undefined;
    const indent = ' '.repeat(this.column(dash));
    const at = this.lineEnd(this.contentEnd(lastItem));
    return this.edit(at, at, `${this.eol}${renderSeqItem(value, indent, this.eol)}`);
  }

  /** Offset of the `-` indicator in front of a block sequence item starting at `offset`. */
  private dashBefore(offset: number): number | undefined {
    let i = offset - 1;
    while (i >= 0 && this.text[i] === ' ') i--;
    return this.text[i] === '-' ? i : undefined;
  }

  /** Removes `key: value` (whole lines in block style). */
  removeMapEntry(path: YamlPath): TextEdit | undefined {
    const f = this.find(path);
    if (!f?.pair || !f.parent || !isMap(f.parent)) return undefined;
    const keyNode = f.pair.key as YamlNode;
    if (!keyNode.range) return undefined;
    const keyStart = keyNode.range[0];
    const end = this.pairEnd(f.pair);
    const map = f.parent as YAMLMap<unknown, unknown>;
    if (map.flow || this.json) {
      const pairs = map.items.filter(isPair);
      const i = pairs.indexOf(f.pair);
      if (i > 0) {
        // `, key: value` with the comma before it.
        const prevEnd = this.pairEnd(pairs[i - 1] as Pair<unknown, unknown>);
        return this.edit(prevEnd, end, '');
      }
      const next = pairs[1];
      const nextStart = next?.key ? (((next.key as YamlNode).range as number[])[0] as number) : undefined;
      return this.edit(keyStart, nextStart ?? end, '');
    }
    const lineStart = this.lineStart(keyStart);
    if (this.text.slice(lineStart, keyStart).trim() !== '') return undefined; // `- key:` item lines
    const stop = this.lineEnd(end);
    const afterBreak = this.text.startsWith('\r\n', stop) ? stop + 2 : this.text[stop] === '\n' ? stop + 1 : stop;
    return this.edit(lineStart, afterBreak, '');
  }
}
