// What every query view reads (the analyzed mesh and its source documents), and safe readers
// for arguments: they arrive from another thread and may have any shape, so nothing here
// trusts a type, and nothing throws except QueryError for a request that makes no sense.
import type { Resource, SourceDocument } from '../document/types.ts';
import type { ConfigView } from '../config/configView.ts';
import type { Page, SourceLocation } from './views.ts';
import { locateWithParser } from '../document/locate.ts';

/** The analyzed state a query reads. */
export interface QueryState {
  /** The mesh as the analysis loaded it: resources, derived pods, mesh config and lookups. */
  readonly view: ConfigView;
  /** A source document by file and index (for line spans). */
  document(file: string, index: number): SourceDocument | undefined;
  /** The workspace's file paths (absent where the caller has no file list). */
  files?(): readonly string[];
}

/** A query that cannot be answered as asked (unknown view, missing argument). */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}

export const DEFAULT_LIMIT = 200;
export const MAX_LIMIT = 2000;

type Bag = Readonly<Record<string, unknown>>;

/** The arguments as a bag of own properties ({} for anything that is not a plain object). */
export function argBag(args: unknown): Bag {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return {};
  return args as Bag;
}

function own(bag: Bag, key: string): unknown {
  return Object.hasOwn(bag, key) ? bag[key] : undefined;
}

export function optString(bag: Bag, key: string): string | undefined {
  const v = own(bag, key);
  return typeof v === 'string' ? v : undefined;
}

export function optBool(bag: Bag, key: string): boolean | undefined {
  const v = own(bag, key);
  return typeof v === 'boolean' ? v : undefined;
}

export function optOneOf<T extends string>(bag: Bag, key: string, values: readonly T[]): T | undefined {
  const v = own(bag, key);
  return typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : undefined;
}

/** offset and limit, clamped to sane integers. */
export function page(bag: Bag): Required<Page> {
  const int = (v: unknown, dflt: number, min: number, max: number) =>
    typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.trunc(v))) : dflt;
  return { offset: int(own(bag, 'offset'), 0, 0, Number.MAX_SAFE_INTEGER), limit: int(own(bag, 'limit'), DEFAULT_LIMIT, 0, MAX_LIMIT) };
}

/** A plain-object copy of a (prototype-less) string map, safe to post and to iterate. */
export function plainMap(m: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(m)) Object.defineProperty(out, k, { value: m[k], enumerable: true, writable: true, configurable: true });
  return out;
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Each document's last line, counted once: every item of a large List asks for it. */
const endLines = new WeakMap<SourceDocument, number>();

function documentEndLine(doc: SourceDocument): number {
  let end = endLines.get(doc);
  if (end === undefined) {
    // A document's text ends with its last line's newline (or at the end of the file).
    end = Math.max(doc.startLine, doc.startLine + countLines(doc.text) - (doc.text.endsWith('\n') ? 1 : 0));
    endLines.set(doc, end);
  }
  return end;
}

/** Where a resource is written, from its source and the document that holds it. */
/**
 * Whether the document `r` comes from spans `line` of `file`: what sourceLocation's lines can
 * hold, found without locating a List's item (a cluster's dump is one List of 100,000).
 */
export function documentHoldsLine(r: Resource, state: QueryState, file: string, line: number): boolean {
  const s = r.source;
  if (!s || s.file !== file) return false;
  const doc = state.document(s.file, s.docIndex);
  return doc ? doc.startLine <= line && line <= documentEndLine(doc) : s.line === line;
}

export function sourceLocation(r: Resource, state: QueryState): SourceLocation | undefined {
  const s = r.source;
  if (!s) return undefined;
  const doc = state.document(s.file, s.docIndex);
  const startLine = doc ? doc.startLine : s.line;
  const endLine = doc ? documentEndLine(doc) : s.line;
  const out: SourceLocation = { file: s.file, line: s.line, startLine, endLine };
  // A List's item: its own lines, so "the resource at this line" tells the items apart.
  if (doc && s.itemIndex !== undefined) {
    // The positioned parse (one per text, cached) finds item i at once; the line scanner would
    // read the List from its top for every item.
    const item = locateWithParser(doc, ['items', s.itemIndex]);
    if (item?.exact) {
      out.startLine = item.value.startLine;
      out.endLine = Math.max(item.value.startLine, item.value.endLine);
    }
  }
  if (s.templatePath) out.templatePath = s.templatePath.join('.');
  return out;
}

/** `text` in `hay`, ignoring case ('' matches everything). */
export function containsText(hay: string, text: string | undefined): boolean {
  return !text || hay.toLowerCase().includes(text.toLowerCase());
}
