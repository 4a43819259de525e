// The parsed workspace, kept up to date incrementally: files are split at document
// boundaries and a document whose text did not change is not parsed again.
import type { Diagnostic, Resource, SourceDocument, WorkspaceFile } from './types.ts';
import { splitDocuments, commonPrefixLength, commonSuffixLength, countNewlines, isJsonPath } from './split.ts';
import { parseSourceDocument, PARSER_CODES } from './parse.ts';
import { resourcesOf } from './resources.ts';

/** Files larger than this are not parsed (the 5,000-service mesh is ~6 MB). */
export const MAX_FILE_CHARS = 32 * 1024 * 1024;
/** Files larger than this are analyzed, with a note that the editor is in large-file mode. */
export const LARGE_FILE_CHARS = 8 * 1024 * 1024;

export interface ModelDocument {
  doc: SourceDocument;
  resources: Resource[];
  problems: Diagnostic[];
}

export interface ModelFile {
  path: string;
  text: string;
  documents: ModelDocument[];
  /** File-level problems (binary, too large). */
  problems: Diagnostic[];
}

/** True for content that is not text: NUL bytes, or many control/replacement characters. */
export function looksBinary(text: string): boolean {
  if (text.includes('\u0000')) return true;
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

function buildDocument(doc: SourceDocument): ModelDocument {
  const parsed = parseSourceDocument(doc);
  const shaped = resourcesOf(parsed);
  return { doc, resources: shaped.resources, problems: [...parsed.problems, ...shaped.problems] };
}

/** Moves an unchanged document to its new place (index, offset, lines) in a new file text. */
function relocate(md: ModelDocument, text: string, index: number, offsetDelta: number, lineDelta: number): ModelDocument {
  const old = md.doc;
  if (old.index === index && offsetDelta === 0 && lineDelta === 0) return md;
  const startOffset = old.startOffset + offsetDelta;
  const doc: SourceDocument = {
    ...old,
    index,
    text: text.slice(startOffset, startOffset + old.text.length),
    startOffset,
    startLine: old.startLine + lineDelta,
    referenceLine: old.referenceLine + lineDelta,
  };
  for (const r of md.resources) {
    if (r.source) {
      r.source.docIndex = index;
      r.source.line += lineDelta;
    }
  }
  return { doc, resources: md.resources, problems: md.problems.map((p) => shiftDiagnostic(p, lineDelta)) };
}

export class WorkspaceModel {
  private files = new Map<string, ModelFile>();
  /** Documents parsed by the last update (the rest were reused). */
  lastReparsed = 0;

  update(changed: WorkspaceFile[], removed: string[]): void {
    this.lastReparsed = 0;
    for (const p of removed) this.files.delete(p);
    for (const f of changed) this.files.set(f.path, this.buildFile(f, this.files.get(f.path)));
  }

  private buildFile(f: WorkspaceFile, old: ModelFile | undefined): ModelFile {
    if (f.text.length > MAX_FILE_CHARS) {
      const mb = (f.text.length / (1024 * 1024)).toFixed(1);
      return { path: f.path, text: '', documents: [], problems: [fileProblem(f.path, PARSER_CODES.tooLarge, `File is too large to analyze (${mb} MB; the limit is ${MAX_FILE_CHARS / (1024 * 1024)} MB). Split it into smaller files.`)] };
    }
    if (looksBinary(f.text)) {
      return { path: f.path, text: '', documents: [], problems: [fileProblem(f.path, PARSER_CODES.binary, 'This looks like a binary file, not YAML or JSON text. It was not analyzed.')] };
    }
    if (old && old.text === f.text) return old;
    const built = this.buildTextFile(f, old);
    if (f.text.length > LARGE_FILE_CHARS) {
      const mb = (f.text.length / (1024 * 1024)).toFixed(1);
      built.problems = [{ ...fileProblem(f.path, PARSER_CODES.largeFile, `Large file (${mb} MB): it is analyzed in the background, but the editor turns off highlighting and some features for it. Splitting it into smaller files keeps editing fast.`), level: 'Info' }];
    }
    return built;
  }

  private buildTextFile(f: WorkspaceFile, old: ModelFile | undefined): ModelFile {
    if (!old || old.documents.length === 0 || old.text === '' || isJsonPath(f.path)) {
      const documents = splitDocuments(f.path, f.text).map(buildDocument);
      this.lastReparsed += documents.length;
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
    const regionStart = i >= 0 ? (docs[i] as ModelDocument).doc.startOffset : 0;
    const regionStartLine = i >= 0 ? (docs[i] as ModelDocument).doc.startLine : 1;
    const regionEndOld = j < docs.length ? oldText.lastIndexOf('\n', (docs[j] as ModelDocument).doc.startOffset - 2) + 1 : oldText.length;
    const regionEndNew = regionEndOld + delta;
    const lineDelta = countNewlines(text, regionStart, regionEndNew) - countNewlines(oldText, regionStart, regionEndOld);
    const documents: ModelDocument[] = docs.slice(0, Math.max(i, 0));
    const reusable = new Map<string, ModelDocument>();
    for (let k = Math.max(i, 0); k < j; k++) reusable.set((docs[k] as ModelDocument).doc.text, docs[k] as ModelDocument);
    for (const doc of splitDocuments(f.path, text, { start: regionStart, end: regionEndNew, startLine: regionStartLine })) {
      const same = reusable.get(doc.text);
      if (same && same.doc.startLine === doc.startLine && same.doc.referenceLine === doc.referenceLine) {
        documents.push(relocate(same, text, documents.length, doc.startOffset - same.doc.startOffset, 0));
        continue;
      }
      this.lastReparsed++;
      documents.push(buildDocument({ ...doc, index: documents.length, text: detached(doc.text) }));
    }
    for (let k = j; k < docs.length; k++) documents.push(relocate(docs[k] as ModelDocument, text, documents.length, delta, lineDelta));
    return { path: f.path, text, documents, problems: [] };
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
    for (const f of this.files.values()) for (const d of f.documents) for (const r of d.resources) out.push(r);
    return out;
  }

  problems(): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const f of this.files.values()) {
      out.push(...f.problems);
      for (const d of f.documents) out.push(...d.problems);
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
