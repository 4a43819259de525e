// Document parsing. The fast path uses js-yaml (values only, no positions); documents that
// fail it, or that use anchors (alias expansion must be bounded), go through the `yaml`
// package, which reports every error with its position. Source ranges of fields are
// resolved later and only on demand (see locate.ts).
import jsyaml from 'js-yaml';
import { parseDocument as parseYamlDocument, isMap, isSeq } from 'yaml';
import type { Diagnostic, SourceDocument } from './types.ts';
import { lineIndex } from './lines.ts';

/** js-yaml's core schema plus merge keys: no timestamps (Kubernetes keeps them as strings). */
const FAST_SCHEMA = jsyaml.CORE_SCHEMA.extend([(jsyaml as unknown as { types: { merge: jsyaml.Type } }).types.merge]);

/** Alias expansions allowed per document before we call it a resource-exhaustion attack. */
export const MAX_ALIAS_COUNT = 100;

export const PARSER_CODES = {
  syntax: 'MWB-YAML-SYNTAX',
  duplicateKey: 'MWB-YAML-DUPLICATE-KEY',
  aliasLimit: 'MWB-YAML-ALIAS-LIMIT',
  json: 'MWB-JSON-SYNTAX',
  notK8s: 'MWB-NOT-K8S-OBJECT',
  binary: 'MWB-BINARY-FILE',
  tooLarge: 'MWB-FILE-TOO-LARGE',
  largeFile: 'MWB-LARGE-FILE',
  badList: 'MWB-BAD-LIST',
} as const;

export interface ParsedDocument {
  doc: SourceDocument;
  /** The parsed value, or undefined when the document could not be read. */
  value: unknown;
  problems: Diagnostic[];
}

const ANCHOR_RE = /(^|[\s[{,:-])&[^\s]/;

function problem(doc: SourceDocument, code: string, message: string, relStart: number, relEnd: number): Diagnostic {
  const idx = lineIndex(doc.text);
  const a = idx.position(relStart);
  const b = idx.position(Math.max(relEnd, relStart + 1));
  return {
    level: 'Error',
    code,
    message,
    file: doc.file,
    line: doc.startLine + a.line - 1,
    range: { startLine: doc.startLine + a.line - 1, startCol: a.col, endLine: doc.startLine + b.line - 1, endCol: b.col },
    source: 'parser',
  };
}

function firstLineOf(message: string): string {
  const nl = message.indexOf('\n');
  return (nl < 0 ? message : message.slice(0, nl)).trim();
}

/** Parses one document. Never throws. */
export function parseSourceDocument(doc: SourceDocument): ParsedDocument {
  if (doc.isJson) return parseJsonDocument(doc);
  if (!ANCHOR_RE.test(doc.text)) {
    try {
      const value = jsyaml.load(doc.text, { schema: FAST_SCHEMA, filename: doc.file });
      return { doc, value, problems: [] };
    } catch {
      // fall through: the careful parser reports every problem with its position
    }
  }
  return parseCarefully(doc);
}

function parseCarefully(doc: SourceDocument): ParsedDocument {
  const problems: Diagnostic[] = [];
  let parsed;
  try {
    parsed = parseYamlDocument(doc.text, { uniqueKeys: true, merge: true, prettyErrors: false, strict: false });
  } catch (e) {
    problems.push(problem(doc, PARSER_CODES.syntax, `YAML syntax error: ${firstLineOf(String((e as Error).message))}`, 0, 1));
    return { doc, value: undefined, problems };
  }
  let fatal = false;
  for (const err of parsed.errors) {
    const [start, end] = err.pos;
    if (err.code === 'DUPLICATE_KEY') {
      const eol = doc.text.indexOf('\n', start);
      const rest = doc.text.slice(start, eol < 0 ? undefined : eol);
      const keyText = (/^("[^"]*"|'[^']*'|[^:]*)/.exec(rest)?.[1] ?? rest).trim();
      problems.push(problem(doc, PARSER_CODES.duplicateKey, `Duplicate key ${keyText}: the later value wins, which is rarely what was meant`, start, start + keyText.length));
    } else {
      fatal = true;
      problems.push(problem(doc, PARSER_CODES.syntax, `YAML syntax error: ${firstLineOf(err.message)}`, start, end));
    }
  }
  if (fatal) return { doc, value: undefined, problems };
  try {
    const value = parsed.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return { doc, value, problems };
  } catch (e) {
    const msg = String((e as Error).message);
    if (/alias/i.test(msg)) {
      problems.push(problem(doc, PARSER_CODES.aliasLimit,
        `Document rejected: its aliases expand too much (more than ${MAX_ALIAS_COUNT} expansions, as in a "billion laughs" attack). Remove the anchors/aliases or write the values out.`, 0, Math.min(doc.text.length, doc.text.indexOf('\n') >>> 0)));
    } else {
      problems.push(problem(doc, PARSER_CODES.syntax, `YAML error: ${firstLineOf(msg)}`, 0, 1));
    }
    return { doc, value: undefined, problems };
  }
}

function parseJsonDocument(doc: SourceDocument): ParsedDocument {
  try {
    return { doc, value: JSON.parse(doc.text), problems: [] };
  } catch (e) {
    const msg = String((e as Error).message);
    // V8 says "... at position N" (and newer versions "(line L column C)").
    const m = /position (\d+)/.exec(msg);
    const at = m ? Number(m[1]) : 0;
    return { doc, value: undefined, problems: [problem(doc, PARSER_CODES.json, `JSON syntax error: ${firstLineOf(msg)}`, at, at + 1)] };
  }
}

/** True when a YAML node is a collection (used by the locator). */
export function isCollection(node: unknown): boolean {
  return isMap(node) || isSeq(node);
}
