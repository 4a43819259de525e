// The parsed workspace, kept up to date incrementally: files are split at document
// boundaries and a document whose text did not change is not parsed again.
import type { Diagnostic, KindJudge, Resource, SourceDocument, WorkspaceFile } from './types.ts';
import { splitDocuments, commonPrefixLength, commonSuffixLength, countNewlines, isJsonPath, separatorKept } from './split.ts';
import { parseSourceDocument, PARSER_CODES } from './parse.ts';
import { resourcesOf } from './resources.ts';
import { looksLikeMisreadUtf16 } from './encoding.ts';
import { LARGE_FILE_CHARS, tabFileLimit } from './inputLimits.ts';

/**
 * The browser tab's limit, and the model's default: a file longer than this is not parsed
 * (see inputLimits.ts for where it comes from). The page passes its own when the browser says
 * how large its heap is; the CLI passes what the machine can hold (src/cli/inputLimit.ts).
 */
export const TAB_MAX_FILE_CHARS = tabFileLimit().chars;
export { LARGE_FILE_CHARS };

const MIB = 1024 * 1024;

/** A size in MiB: whole when it is whole, else to one decimal. */
function mib(n: number): string {
  return Number.isInteger(n / MIB) ? String(n / MIB) : (n / MIB).toFixed(1);
}

/**
 * What a file over the limit is told. `size` is its size when known (characters here, bytes
 * for the CLI's reader, which stops at the cap); an input read from a stream, device or FIFO
 * is only known to be over it. `why` says where the limit comes from, when it is not the tab's.
 */
export function tooLargeMessage(size: number | undefined, limit: number = TAB_MAX_FILE_CHARS, why?: string): string {
  const shown = size === undefined ? `more than ${mib(limit)}` : (size / MIB).toFixed(1);
  return `File is too large to analyze (${shown} MB; the limit is ${mib(limit)} MB${why ? `, ${why}` : ''}). Split it into smaller files.`;
}

export interface ModelOptions {
  /**
   * The longest file parsed, in characters (default TAB_MAX_FILE_CHARS), and where that limit
   * comes from for the message (omitted: the tab's).
   */
  maxFileChars?: number;
  maxFileWhy?: string;
}

/** How far an update is: characters of the files it reads, read so far and in all. */
export interface ParseProgress {
  done: number;
  total: number;
}

/** Documents read between two pauses of an update (see WorkspaceModel.updateSteps). */
export const PARSE_STEP_DOCUMENTS = 200;

export interface ModelDocument {
  doc: SourceDocument;
  resources: Resource[];
  problems: Diagnostic[];
  /**
   * The parsed value (undefined when the document could not be read): the same object as
   * the resource's body for a single object. The istioctl reader (analysis/istioctlMode.ts)
   * looks at it for what the resources leave out: a List's own kind and items, a document that
   * is no Kubernetes object.
   */
  value?: unknown;
}

export interface ModelFile {
  path: string;
  text: string;
  documents: ModelDocument[];
  /** File-level problems (binary, too large). */
  problems: Diagnostic[];
  /** Every document's resources in order, made on first use (and patched by an edit). */
  resources?: Resource[];
  /**
   * The text of a file refused as binary (not analyzed): `istioctl analyze` reads such a file
   * as it reads any other, so its mode reads it through {@link textFileOf}.
   */
  binaryText?: string;
}

/** A file's documents as the model reads text, with no binary or size check. */
export function textFileOf(path: string, text: string, judgeKind: KindJudge): ModelFile {
  return { path, text, documents: splitDocuments(path, text).map((d) => buildDocument(d, judgeKind)), problems: [] };
}

/** True for content that is not text: NUL bytes, or many control/replacement characters. */
export function looksBinary(text: string): boolean {
  // Binary formats show NUL bytes or control characters near the start; scanning a prefix
  // keeps this cheap on every edit of a large text file.
  if (text.slice(0, 65536).includes('\u0000')) return true;
  const sample = text.slice(0, 8192);
  if (!sample) return false;
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 0xfffd) bad++;
  }
  return bad / sample.length > 0.05;
}

function fileProblem(path: string, code: string, message: string): Diagnostic {
  return { level: 'Error', code, message, file: path, line: 1, range: { startLine: 1, startCol: 1, endLine: 1, endCol: 2 }, source: 'parser' };
}

/**
 * A copy of `s` that does not keep a larger parent string alive. Values parsed from a
 * slice of a big file would otherwise pin that whole version of the file in memory.
 */
function detached(s: string): string {
  return (s + ' ').slice(0, -1);
}

function shiftDiagnostic(d: Diagnostic, lines: number): Diagnostic {
  if (lines === 0) return d;
  const out: Diagnostic = { ...d };
  if (out.line !== undefined) out.line += lines;
  if (out.range) out.range = { ...out.range, startLine: out.range.startLine + lines, endLine: out.range.endLine + lines };
  return out;
}

/**
 * A file's resource list after documents [from, to) of `oldDocs` were replaced by `region`:
 * the old list with that stretch swapped, found by identity, so that an edit does not visit
 * the resources of every other document.
 */
function patchedResources(
  oldList: readonly Resource[],
  oldDocs: readonly ModelDocument[],
  from: number,
  to: number,
  region: readonly ModelDocument[],
): Resource[] | undefined {
  const firstOf = (k: number): Resource | undefined => {
    for (; k < oldDocs.length; k++) if ((oldDocs[k] as ModelDocument).resources.length > 0) return (oldDocs[k] as ModelDocument).resources[0];
    return undefined;
  };
  const startAt = firstOf(from);
  const endAt = firstOf(to);
  const start = startAt ? oldList.indexOf(startAt) : oldList.length;
  const end = endAt ? oldList.indexOf(endAt) : oldList.length;
  // Not found would mean the list was stale: leave it to be rebuilt from the documents.
  if (start < 0 || end < start) return undefined;
  return oldList.slice(0, start).concat(
    region.flatMap((d) => d.resources),
    oldList.slice(end),
  );
}

/** Shared by every document without problems (never mutated: relocation skips empty lists). */
const NO_PROBLEMS: Diagnostic[] = [];

function buildDocument(doc: SourceDocument, judgeKind: KindJudge): ModelDocument {
  const parsed = parseSourceDocument(doc);
  const shaped = resourcesOf(parsed, judgeKind);
  const problems = parsed.problems.length + shaped.problems.length === 0 ? NO_PROBLEMS : [...parsed.problems, ...shaped.problems];
  return { doc, resources: shaped.resources, problems, value: parsed.value };
}

/**
 * Moves an unchanged document to its new place (index, offset, lines) in a new file text.
 * Updated in place: documents and resources belong to the model, and lookups go through
 * file and index. The text is kept as it is (same characters), which also avoids pinning
 * the new file text from every document.
 */
function relocate(md: ModelDocument, index: number, offsetDelta: number, lineDelta: number): ModelDocument {
  const doc = md.doc;
  // Typing inside a line moves every later document by a few characters but changes no
  // index or line: then the resources need no visit (a visit to each costs a cache miss).
  const indexChanged = doc.index !== index;
  doc.index = index;
  doc.startOffset += offsetDelta;
  if (lineDelta !== 0) {
    doc.startLine += lineDelta;
    doc.referenceLine += lineDelta;
    for (let i = 0; i < md.problems.length; i++) md.problems[i] = shiftDiagnostic(md.problems[i] as Diagnostic, lineDelta);
  }
  if (!indexChanged && lineDelta === 0) return md;
  for (const r of md.resources) {
    if (r.source) {
      r.source.docIndex = index;
      r.source.line += lineDelta;
    }
  }
  return md;
}

export class WorkspaceModel {
  private files = new Map<string, ModelFile>();
  private readonly maxFileChars: number;
  private readonly maxFileWhy: string | undefined;
  /** @param judgeKind problems of a document's apiVersion/kind (validation/kindProblems.ts). */
  constructor(
    private readonly judgeKind: KindJudge,
    options: ModelOptions = {},
  ) {
    this.maxFileChars = options.maxFileChars ?? TAB_MAX_FILE_CHARS;
    this.maxFileWhy = options.maxFileWhy ?? (options.maxFileChars === undefined ? tabFileLimit().why : undefined);
  }
  /** Documents parsed by the last update (the rest were reused). */
  lastReparsed = 0;
  /**
   * Goes up whenever a kept document moves to other lines. Positions rendered for messages
   * on kept documents stay valid while it stays the same (typing inside a line).
   */
  layoutVersion = 0;
  /** Kind ids of resources added or removed since `takeChangedKinds` was last called. */
  private changedKinds = new Set<string>();

  update(changed: WorkspaceFile[], removed: string[]): void {
    for (const _ of this.updateSteps(changed, removed));
  }

  /**
   * The same update a step at a time, for a caller that must stay responsive while a large
   * file is read (the tab's worker): it pauses every PARSE_STEP_DOCUMENTS documents of a file
   * read afresh, saying how far it is. A file is replaced only once it is read whole, so a
   * caller that stops iterating leaves every unfinished file as it was, and the same update
   * run again later completes it.
   */
  *updateSteps(changed: WorkspaceFile[], removed: string[]): Generator<ParseProgress, void, undefined> {
    this.lastReparsed = 0;
    for (const p of removed) {
      this.noteKinds(this.files.get(p)?.documents);
      this.files.delete(p);
    }
    const total = changed.reduce((n, f) => n + f.text.length, 0);
    let done = 0;
    for (const f of changed) {
      this.files.set(f.path, yield* this.buildFile(f, this.files.get(f.path), done, total));
      done += f.text.length;
    }
  }

  /** The kinds whose resources changed since the previous call (and forgets them). */
  takeChangedKinds(): Set<string> {
    const out = this.changedKinds;
    this.changedKinds = new Set();
    return out;
  }

  private noteKinds(docs: readonly ModelDocument[] | undefined): void {
    for (const d of docs ?? []) for (const r of d.resources) this.changedKinds.add(r.kindId);
  }

  private *buildFile(f: WorkspaceFile, old: ModelFile | undefined, done: number, total: number): Generator<ParseProgress, ModelFile, undefined> {
    if (f.text.length > this.maxFileChars) {
      this.noteKinds(old?.documents);
      const message = tooLargeMessage(f.text.length, this.maxFileChars, this.maxFileWhy);
      return { path: f.path, text: '', documents: [], problems: [fileProblem(f.path, PARSER_CODES.tooLarge, message)] };
    }
    if (looksLikeMisreadUtf16(f.text)) {
      this.noteKinds(old?.documents);
      return {
        path: f.path,
        text: '',
        documents: [],
        problems: [
          fileProblem(
            f.path,
            PARSER_CODES.encoding,
            'This file looks like UTF-16 text that was read as UTF-8. Save it as UTF-8 (or open it from a file, which is decoded). It was not analyzed.',
          ),
        ],
      };
    }
    if (looksBinary(f.text)) {
      this.noteKinds(old?.documents);
      return {
        path: f.path,
        text: '',
        documents: [],
        problems: [fileProblem(f.path, PARSER_CODES.binary, 'This looks like a binary file, not YAML or JSON text. It was not analyzed.')],
        binaryText: f.text,
      };
    }
    if (old && old.text === f.text) return old;
    const built = yield* this.buildTextFile(f, old, done, total);
    if (f.text.length > LARGE_FILE_CHARS) {
      const mb = (f.text.length / (1024 * 1024)).toFixed(1);
      built.problems = [
        {
          ...fileProblem(
            f.path,
            PARSER_CODES.largeFile,
            `Large file (${mb} MB): it is analyzed in the background, but the editor turns off highlighting and some features for it. Splitting it into smaller files keeps editing fast.`,
          ),
          level: 'Info',
        },
      ];
    }
    return built;
  }

  private *buildTextFile(f: WorkspaceFile, old: ModelFile | undefined, done: number, total: number): Generator<ParseProgress, ModelFile, undefined> {
    if (!old || old.documents.length === 0 || old.text === '' || isJsonPath(f.path)) {
      const documents: ModelDocument[] = [];
      for (const d of splitDocuments(f.path, f.text)) {
        documents.push(buildDocument(d, this.judgeKind));
        if (documents.length % PARSE_STEP_DOCUMENTS === 0) yield { done: done + d.startOffset + d.text.length, total };
      }
      this.lastReparsed += documents.length;
      this.noteKinds(old?.documents);
      this.noteKinds(documents);
      return { path: f.path, text: f.text, documents, problems: [] };
    }
    return this.rebuildChanged(f, old);
  }

  /**
   * Re-splits and re-parses only the documents that overlap the edited region; documents
   * before it are kept, documents after it are moved.
   */
  private rebuildChanged(f: WorkspaceFile, old: ModelFile): ModelFile {
    const oldText = old.text;
    const text = f.text;
    const prefix = commonPrefixLength(oldText, text);
    const suffix = commonSuffixLength(oldText, text, Math.min(oldText.length, text.length) - prefix);
    const delta = text.length - oldText.length;
    const docs = old.documents;
    // First affected document: the last one starting at or before the first changed char.
    let i = -1;
    for (let k = 0; k < docs.length && (docs[k] as ModelDocument).doc.startOffset <= prefix; k++) i = k;
    // First document after the change whose separator line (and the newline before it) is untouched.
    const changedEndOld = oldText.length - suffix;
    let j = docs.length;
    for (let k = Math.max(i + 1, 0); k < docs.length; k++) {
      const start = (docs[k] as ModelDocument).doc.startOffset;
      const sepStart = oldText.lastIndexOf('\n', start - 2) + 1;
      if (sepStart - 1 >= changedEndOld) {
        j = k;
        break;
      }
    }
    // Whether istioctl keeps the separator above a document in its chunk depends on the
    // separator lines before it (split.ts, separatorKept): an edit just above that run can
    // change it for the first document after the region, which is then re-split too. (That
    // separator's own text is untouched, so only kept or not can change.)
    while (
      j < docs.length &&
      (separatorKept(text, (docs[j] as ModelDocument).doc.startOffset + delta) !== 'no') !== ((docs[j] as ModelDocument).doc.separatorInChunk === true)
    )
      j++;
    const regionStart = i >= 0 ? (docs[i] as ModelDocument).doc.startOffset : 0;
    const regionStartLine = i >= 0 ? (docs[i] as ModelDocument).doc.startLine : 1;
    const regionEndOld = j < docs.length ? oldText.lastIndexOf('\n', (docs[j] as ModelDocument).doc.startOffset - 2) + 1 : oldText.length;
    const regionEndNew = regionEndOld + delta;
    const lineDelta = countNewlines(text, regionStart, regionEndNew) - countNewlines(oldText, regionStart, regionEndOld);
    const documents: ModelDocument[] = docs.slice(0, Math.max(i, 0));
    const reusable = new Map<string, ModelDocument>();
    for (let k = Math.max(i, 0); k < j; k++) reusable.set((docs[k] as ModelDocument).doc.text, docs[k] as ModelDocument);
    const reused: ModelDocument[] = [];
    let lastReusedIndex = -1;
    let reordered = false;
    for (const doc of splitDocuments(f.path, text, { start: regionStart, end: regionEndNew, startLine: regionStartLine })) {
      const same = reusable.get(doc.text);
      // Same text means same parse; only its place (offset, lines) may differ.
      if (same && doc.referenceLine - doc.startLine === same.doc.referenceLine - same.doc.startLine && doc.separatorInChunk === same.doc.separatorInChunk) {
        reusable.delete(doc.text);
        if (same.doc.index < lastReusedIndex) reordered = true;
        if (doc.startLine !== same.doc.startLine) this.layoutVersion++;
        lastReusedIndex = same.doc.index;
        reused.push(same);
        documents.push(relocate(same, documents.length, doc.startOffset - same.doc.startOffset, doc.startLine - same.doc.startLine));
        continue;
      }
      this.lastReparsed++;
      const built = buildDocument({ ...doc, index: documents.length, text: detached(doc.text) }, this.judgeKind);
      this.noteKinds([built]);
      documents.push(built);
    }
    // Old documents of the region that were not carried over are gone.
    this.noteKinds([...reusable.values()]);
    // Documents moved past each other (cut and paste): their kinds' load order changed.
    if (reordered) this.noteKinds(reused);
    const regionDocs = documents.length - Math.max(i, 0);
    if (lineDelta !== 0 && j < docs.length) this.layoutVersion++;
    for (let k = j; k < docs.length; k++) documents.push(relocate(docs[k] as ModelDocument, documents.length, delta, lineDelta));
    const file: ModelFile = { path: f.path, text, documents, problems: [] };
    const patched = old.resources && patchedResources(old.resources, docs, Math.max(i, 0), j, documents.slice(Math.max(i, 0), Math.max(i, 0) + regionDocs));
    if (patched) file.resources = patched;
    return file;
  }
  fileList(): ModelFile[] {
    return [...this.files.values()];
  }

  file(path: string): ModelFile | undefined {
    return this.files.get(path);
  }

  /** All resources in file order (files in insertion order). */
  resources(): Resource[] {
    const out: Resource[] = [];
    for (const f of this.files.values()) {
      f.resources ??= f.documents.flatMap((d) => d.resources);
      for (const r of f.resources) out.push(r);
    }
    return out;
  }

  problems(): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const f of this.files.values()) {
      out.push(...f.problems);
      for (const d of f.documents) if (d.problems.length > 0) out.push(...d.problems);
    }
    return out;
  }

  document(file: string, index: number): SourceDocument | undefined {
    return this.files.get(file)?.documents[index]?.doc;
  }

  documentCount(): number {
    let n = 0;
    for (const f of this.files.values()) n += f.documents.length;
    return n;
  }
}
