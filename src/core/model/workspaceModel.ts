// The parsed workspace, kept up to date incrementally: files are split at document
// boundaries and a document whose text did not change is not parsed again.
import type { Diagnostic, Resource, SourceDocument, WorkspaceFile } from './types.ts';
import { splitDocuments } from './split.ts';
import { parseSourceDocument, PARSER_CODES } from './parse.ts';
import { resourcesOf } from './resources.ts';

/** Files larger than this are not parsed (the 5,000-service mesh is ~6 MB). */
export const MAX_FILE_CHARS = 32 * 1024 * 1024;

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

interface CachedParse {
  value: unknown;
}

export class WorkspaceModel {
  private files = new Map<string, ModelFile>();
  /** Clean parses by document text, so unchanged or moved documents are reused. */
  private parseCache = new Map<string, CachedParse>();
  /** Documents parsed by the last update (the rest came from the cache). */
  lastReparsed = 0;

  update(changed: WorkspaceFile[], removed: string[]): void {
    this.lastReparsed = 0;
    for (const p of removed) this.files.delete(p);
    if (changed.length === 0) return;
    const live = new Map<string, CachedParse>();
    for (const f of changed) this.files.set(f.path, this.buildFile(f, live));
    // Keep cache entries of untouched files; drop those of the changed files' old texts.
    for (const file of this.files.values()) {
      for (const d of file.documents) {
        const hit = this.parseCache.get(d.doc.text) ?? live.get(d.doc.text);
        if (hit) live.set(d.doc.text, hit);
      }
    }
    this.parseCache = live;
  }

  private buildFile(f: WorkspaceFile, live: Map<string, CachedParse>): ModelFile {
    if (f.text.length > MAX_FILE_CHARS) {
      const mb = (f.text.length / (1024 * 1024)).toFixed(1);
      return { path: f.path, text: '', documents: [], problems: [fileProblem(f.path, PARSER_CODES.tooLarge, `File is too large to analyze (${mb} MB; the limit is ${MAX_FILE_CHARS / (1024 * 1024)} MB). Split it into smaller files.`)] };
    }
    if (looksBinary(f.text)) {
      return { path: f.path, text: '', documents: [], problems: [fileProblem(f.path, PARSER_CODES.binary, 'This looks like a binary file, not YAML or JSON text. It was not analyzed.')] };
    }
    const documents: ModelDocument[] = [];
    for (const doc of splitDocuments(f.path, f.text)) {
      let value: unknown;
      let problems: Diagnostic[] = [];
      const cached = this.parseCache.get(doc.text) ?? live.get(doc.text);
      if (cached) {
        value = cached.value;
      } else {
        this.lastReparsed++;
        const parsed = parseSourceDocument(doc);
        value = parsed.value;
        problems = parsed.problems;
        // Only clean parses are cached: problems carry absolute lines.
        if (problems.length === 0) live.set(doc.text, { value });
      }
      const shaped = resourcesOf({ doc, value, problems });
      documents.push({ doc, resources: shaped.resources, problems: [...problems, ...shaped.problems] });
    }
    return { path: f.path, text: f.text, documents, problems: [] };
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
