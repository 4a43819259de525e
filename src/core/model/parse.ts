// Document parsing. The fast path uses js-yaml (values only, no positions); documents that
// fail it, or that use anchors (alias expansion must be bounded), go through the `yaml`
// package, which reports every error with its position. Source ranges of fields are
// resolved later and only on demand (see locate.ts).
import jsyaml from 'js-yaml';
import { parseDocument as parseYamlDocument } from 'yaml';
import type { Diagnostic, SourceDocument } from './types.ts';
import { lineIndex } from './lines.ts';
import { parseFastYaml, NOT_HANDLED } from './fastYaml.ts';

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
  // Errors reported at the very end of a document (an unclosed bracket, say) would land on
  // the next separator line; point at the document's last character instead.
  let last = doc.text.length;
  while (last > 0 && /\s/.test(doc.text[last - 1] ?? '')) last--;
  if (last > 0 && relStart >= last) {
    relStart = last - 1;
    relEnd = last;
  }
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
    // Plain block-style manifests: our one-pass reader (same values as js-yaml).
    const fast = parseFastYaml(doc.text);
    if (fast !== NOT_HANDLED) return { doc, value: fast, problems: [] };
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
    // Engines word (and locate) JSON errors differently; find the offset ourselves.
    const at = jsonErrorOffset(doc.text);
    // Drop the engine's echo of the input (it may span lines) and its own position text.
    const reason = msg.replace(/,\s*(?:\.\.\.)?"[\s\S]*is not valid JSON\s*$/, '').replace(/\s*(in JSON )?at position \d+.*$/s, '').trim() || 'invalid JSON';
    return { doc, value: undefined, problems: [problem(doc, PARSER_CODES.json, `JSON syntax error: ${firstLineOf(reason)}`, at, at + 1)] };
  }
}

/**
 * Offset of the first JSON syntax error in text (text.length when the input ends early).
 * A small recursive-descent scan; only called after JSON.parse has already failed.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  class Stop extends Error {}
  const fail = (): never => {
    throw new Stop();
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 32) fail();
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i += 2;
            fail();
          }
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else {
          i++;
          fail();
        }
      } else i++;
    }
    fail();
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '' || m[0] === '-') fail();
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (depth: number): void => {
    if (depth > 10000) fail();
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail();
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail();
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else fail();
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value(0);
    ws();
    if (i < n) fail();
    return n;
  } catch (e) {
    if (e instanceof Stop) return Math.min(i, n);
    return 0;
  }
}
