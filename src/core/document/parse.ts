// Document parsing. Values and verdicts are js-yaml's (with the project's schema, see
// yamlSchema.ts): the fast reader answers for plain block-style documents, js-yaml for the
// rest. When js-yaml refuses a document, the `yaml` package, which keeps positions, names
// the first problem; one message per document. Source ranges of fields are resolved later
// and only on demand (see locate.ts).
import { parseDocument as parseYamlDocument, isMap, isPair, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import type { Diagnostic, SourceDocument } from './types.ts';
import { lineIndex } from './lines.ts';
import { parseFastYaml, NOT_HANDLED } from './fastYaml.ts';
import { loadYaml, MAX_YAML_DEPTH } from './yamlSchema.ts';
import { kubeFlowProblem, kubeFlowText, type KubeFlowProblem } from './kubeFlow.ts';

/** Values a document's aliases may expand it to (beyond its own length) before we call it an attack. */
export const MAX_ALIAS_EXPANSION = 100_000;

export const PARSER_CODES = {
  syntax: 'MWB-YAML-SYNTAX',
  duplicateKey: 'MWB-YAML-DUPLICATE-KEY',
  aliasLimit: 'MWB-YAML-ALIAS-LIMIT',
  json: 'MWB-JSON-SYNTAX',
  notK8s: 'MWB-NOT-K8S-OBJECT',
  binary: 'MWB-BINARY-FILE',
  encoding: 'MWB-TEXT-ENCODING',
  tooLarge: 'MWB-FILE-TOO-LARGE',
  largeFile: 'MWB-LARGE-FILE',
  badList: 'MWB-BAD-LIST',
} as const;

export interface ParsedDocument {
  doc: SourceDocument;
  /** The parsed value, or undefined when the document could not be read. */
  value: unknown;
  problems: Diagnostic[];
  /**
   * Keys a mapping repeats. The value holds the later one, as sigs.k8s.io/yaml reads it (and
   * so kubectl and istioctl); the duplicate is not a read error but a finding on the resource
   * (see DuplicateKey).
   */
  duplicateKeys?: DuplicateKey[];
}

/**
 * A mapping key written again later in the same mapping. kubectl converts YAML to JSON with
 * sigs.k8s.io/yaml's non-strict reader (cli-runtime's StreamVisitor, apimachinery's
 * YAMLToJSONDecoder): the later value wins and the request carries no duplicate. The API
 * server, given the YAML itself with strict field validation, refuses it: its serializer
 * runs sigs.k8s.io/yaml.YAMLToJSONStrict, whose go-yaml v2 decoder reports
 * `line N: key "k" already set in map` (N: the line of the later value), and the error
 * reads `strict decoding error: yaml: unmarshal errors:\n  line N: …`
 * (k8s.io/apimachinery pkg/runtime/serializer/json/json.go, pkg/runtime/error.go). For a
 * JSON body it is sigs.k8s.io/json's `duplicate field "spec.hosts"`.
 */
export interface DuplicateKey {
  /** Where the earlier key is in the document's value (`['spec', 'hosts']`); undefined when not found. */
  path?: ReadonlyArray<string | number>;
  /** The API server's strict decoding error. */
  message: string;
  /** Offsets of the earlier key in the document text. */
  start: number;
  end: number;
  /** Which occurrence of the key in its mapping the earlier one is (0 = the first). */
  occurrence?: number;
}

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

/** What js-yaml throws: a reason and where it stopped (offsets in the text without its BOM). */
interface JsYamlError {
  reason?: string;
  message?: string;
  mark?: { position?: number };
}

function reasonOf(e: unknown): string {
  const err = e as JsYamlError;
  return String(err?.reason ?? firstLineOf(String(err?.message ?? e)));
}

/** Offset in the document text of js-yaml's error mark (js-yaml strips a leading BOM first). */
function markOffset(doc: SourceDocument, e: unknown): number {
  const pos = (e as JsYamlError)?.mark?.position;
  if (typeof pos !== 'number') return 0;
  return pos + (doc.text.charCodeAt(0) === 0xfeff ? 1 : 0);
}

function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

/** Parses one document. Never throws. */
export function parseSourceDocument(doc: SourceDocument): ParsedDocument {
  // Plain block-style manifests: our one-pass reader (same values as js-yaml).
  const fast = parseFastYaml(doc.text);
  if (fast !== NOT_HANDLED) return { doc, value: fast, problems: [] };
  // Colons and `?` in flow collections are read the way Kubernetes reads them (see kubeFlow.ts).
  const kube = kubeFlowText(doc.text);
  const kubeProblem = kubeFlowProblem(doc.text);
  let value: unknown;
  try {
    value = loadYaml(kube ?? doc.text, { filename: doc.file });
  } catch (e) {
    const own = kube === undefined ? e : originalError(doc, e);
    // One error per document: the first of js-yaml's and kubectl's own.
    if (kubeProblem && kubeProblem.offset < markOffset(doc, own)) return flowProblem(doc, kubeProblem);
    return rejected(doc, own, kube);
  }
  if (kubeProblem) return flowProblem(doc, kubeProblem);
  return checkAliases(doc, value, []);
}

/** A document kubectl cannot read because of a `?` in a flow collection (kubeFlow.ts). */
function flowProblem(doc: SourceDocument, p: KubeFlowProblem): ParsedDocument {
  return {
    doc,
    value: undefined,
    problems: [problem(doc, PARSER_CODES.syntax, `YAML syntax error (as kubectl reads YAML): ${p.message}`, p.offset, p.offset + 1)],
  };
}

/** js-yaml's error on the text as written (its marks are offsets in that text), else `e`. */
function originalError(doc: SourceDocument, e: unknown): unknown {
  try {
    loadYaml(doc.text, { filename: doc.file });
  } catch (own) {
    if (reasonOf(own) === reasonOf(e)) return own;
  }
  return e;
}

/** A document js-yaml refused: duplicate keys keep the later value; anything else is one error. */
function rejected(doc: SourceDocument, e: unknown, kube?: string): ParsedDocument {
  if (reasonOf(e) === 'duplicated mapping key') {
    // Kubernetes' readers keep the later value; js-yaml does too in its JSON mode.
    try {
      const value = loadYaml(kube ?? doc.text, { filename: doc.file, json: true });
      const checked = checkAliases(doc, value, []);
      if (checked.value !== undefined) checked.duplicateKeys = duplicateKeys(doc, e);
      return checked;
    } catch (again) {
      e = again;
    }
  }
  if (isStackOverflow(e) || reasonOf(e).startsWith('nesting exceeded maxDepth')) {
    const at = markOffset(doc, e);
    return {
      doc,
      value: undefined,
      problems: [
        problem(
          doc,
          PARSER_CODES.syntax,
          `Document is nested too deeply (more than ${MAX_YAML_DEPTH} levels of mappings and sequences); it was not read.`,
          at,
          at + 1,
        ),
      ],
    };
  }
  if (doc.isJson && /^\ufeff?\s*[[{]/.test(doc.text)) {
    const jsonProblem = jsonSyntaxProblem(doc);
    if (jsonProblem) return { doc, value: undefined, problems: [jsonProblem] };
  }
  return { doc, value: undefined, problems: [syntaxProblem(doc, e)] };
}

const TEMPLATE_HINT = ' (the document looks like a template, with "{{": render it first, e.g. with helm template)';

/**
 * One error naming the first problem: the `yaml` package's first error when it is not after
 * the place js-yaml stopped (its messages say more), otherwise js-yaml's own.
 */
function syntaxProblem(doc: SourceDocument, e: unknown): Diagnostic {
  const hint = doc.text.includes('{{') ? TEMPLATE_HINT : '';
  const jsAt = markOffset(doc, e);
  let first: { message: string; start: number; end: number } | undefined;
  try {
    const parsed = parseYamlDocument(doc.text, { uniqueKeys: false, merge: true, prettyErrors: false, strict: false });
    for (const err of parsed.errors) {
      const [start, end] = err.pos;
      if (!first || start < first.start) first = { message: firstLineOf(err.message), start, end };
    }
  } catch {
    first = undefined; // the careful parser failed too (deep nesting): js-yaml's words will do
  }
  const jsLine = lineIndex(doc.text).position(Math.min(jsAt, doc.text.length)).line;
  if (first && lineIndex(doc.text).position(first.start).line <= jsLine) {
    return problem(doc, PARSER_CODES.syntax, `YAML syntax error: ${first.message}${hint}`, first.start, first.end);
  }
  return problem(doc, PARSER_CODES.syntax, `YAML syntax error: ${reasonOf(e)}${hint}`, jsAt, jsAt + 1);
}

/** Go's strconv.Quote for the keys of a manifest (what `%#v` prints for a string). */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** A key as go-yaml's `%#v` prints it in "key … already set in map". */
function goKey(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  if (v === null || v === undefined) return '<nil>';
  return String(v);
}

/** The JSON field path sigs.k8s.io/json names a duplicate with (`spec.http[0].timeout`). */
function jsonFieldPath(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${seg}` : seg;
  return out;
}

/**
 * Every repeated key of the document with the API server's error for it (see DuplicateKey),
 * found on the `yaml` package's tree (it keeps positions; js-yaml stops at the first).
 */
function duplicateKeys(doc: SourceDocument, e: unknown): DuplicateKey[] {
  const out: DuplicateKey[] = [];
  const idx = lineIndex(doc.text);
  const json = doc.isJson && /^\ufeff?\s*\{/.test(doc.text);
  const message = (path: ReadonlyArray<string | number>, key: unknown, laterAt: number) =>
    json
      ? `strict decoding error: duplicate field ${goQuote(jsonFieldPath(path))}`
      : `strict decoding error: yaml: unmarshal errors:\n  line ${idx.position(laterAt).line}: key ${goKey(key)} already set in map`;
  const walk = (node: unknown, path: Array<string | number>, depth: number): void => {
    if (depth > MAX_YAML_DEPTH) return;
    if (isMap(node)) {
      const seen = new Map<string, { key: YamlNode; value: unknown; count: number }>();
      for (const item of node.items) {
        if (!isPair(item) || !isScalar(item.key)) continue;
        const k = item.key.value;
        if (k === '<<') continue;
        const id = `${typeof k}:${String(k)}`;
        const earlier = seen.get(id);
        if (earlier) {
          const [ks, ke] = earlier.key.range ?? [0, 0];
          // go-yaml names the line of the later value (of its key when the value is empty).
          const v = item.value as YamlNode | null;
          const laterAt = v?.range && !(isScalar(v) && v.value === null && (v as { source?: string }).source === '') ? v.range[0] : (item.key.range?.[0] ?? 0);
          out.push({ path: [...path, String(k)], message: message([...path, String(k)], k, laterAt), start: ks, end: ke, occurrence: earlier.count - 1 });
        }
        seen.set(id, { key: item.key, value: item.value, count: (earlier?.count ?? 0) + 1 });
        walk(item.value, [...path, String(k)], depth + 1);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...path, i], depth + 1));
    }
  };
  try {
    const parsed = parseYamlDocument(doc.text, { uniqueKeys: false, merge: true, prettyErrors: false, strict: false });
    walk(parsed.contents, [], 0);
  } catch {
    out.length = 0;
  }
  if (out.length === 0) {
    // Not found on the tree (keys the readers resolve differently): js-yaml's place, no path.
    const start = markOffset(doc, e);
    const eol = doc.text.indexOf('\n', start);
    const rest = doc.text.slice(start, eol < 0 ? undefined : eol);
    const keyText = (/^("[^"]*"|'[^']*'|[^:]*)/.exec(rest)?.[1] ?? rest).trim();
    out.push({
      message: `strict decoding error: yaml: unmarshal errors:\n  line ${idx.position(start).line}: key ${goQuote(keyText.replace(/^["']|["']$/g, ''))} already set in map`,
      start,
      end: start + Math.max(keyText.length, 1),
    });
  }
  return out;
}

/**
 * What a duplicate key means for the user: the API server refuses it only in a body that still
 * has it, under strict field validation; `kubectl apply -f` sends JSON with the later value.
 */
export const DUPLICATE_KEY_CONSEQUENCE = 'as YAML with strict field validation; kubectl apply -f keeps the later value';

/**
 * A duplicate key outside the objects whose validation reports it (kinds other than Istio's,
 * a List's own fields): a parser warning with the same words.
 */
export function duplicateKeyNotice(doc: SourceDocument, d: DuplicateKey): Diagnostic {
  const p = problem(doc, PARSER_CODES.duplicateKey, `The API server would reject this object (${DUPLICATE_KEY_CONSEQUENCE}): ${d.message}`, d.start, d.end);
  p.level = 'Warning';
  return p;
}

/**
 * js-yaml shares one object among the aliases of an anchor, so a small text can stand for
 * a huge or cyclic value ("billion laughs"). Everything after parsing walks values as
 * trees, so such documents are refused: a cycle, more than MAX_ALIAS_EXPANSION values (or
 * the text's length, when larger) once expanded, or nesting deeper than js-yaml allows.
 */
function checkAliases(doc: SourceDocument, value: unknown, problems: Diagnostic[]): ParsedDocument {
  // Only aliases (`*name`) share objects; without a `*` there is nothing to check.
  if (typeof value !== 'object' || value === null || !doc.text.includes('*')) return { doc, value, problems };
  const maxSize = Math.max(MAX_ALIAS_EXPANSION, doc.text.length);
  const shape = expandedShape(value, maxSize);
  if (shape === 'ok') return { doc, value, problems };
  const why =
    shape === 'cycle'
      ? 'an alias refers to a mapping or sequence that contains it'
      : shape === 'deep'
        ? `its aliases nest it deeper than ${MAX_YAML_DEPTH} levels`
        : `its aliases expand too much (to more than ${maxSize.toLocaleString('en-US')} values, as in a "billion laughs" attack)`;
  const firstLineEnd = doc.text.indexOf('\n');
  return {
    doc,
    value: undefined,
    problems: [
      problem(
        doc,
        PARSER_CODES.aliasLimit,
        `Document rejected: ${why}. Remove the anchors/aliases or write the values out.`,
        0,
        firstLineEnd < 0 ? doc.text.length : firstLineEnd,
      ),
    ],
  };
}

/**
 * Walks a parsed value as the tree its aliases stand for, without recursion and visiting
 * each shared object once: its expanded size and height are memoised per object.
 */
function expandedShape(root: object, maxSize: number): 'ok' | 'cycle' | 'large' | 'deep' {
  const done = new Map<object, { size: number; height: number }>();
  const open = new Set<object>();
  interface Frame {
    node: object;
    children: unknown[];
    next: number;
    size: number;
    height: number;
  }
  const childrenOf = (o: object): unknown[] => (Array.isArray(o) ? o : Object.values(o));
  const stack: Frame[] = [{ node: root, children: childrenOf(root), next: 0, size: 1, height: 1 }];
  open.add(root);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Frame;
    if (top.next < top.children.length) {
      const child = top.children[top.next++];
      if (typeof child !== 'object' || child === null) {
        top.size++;
        continue;
      }
      if (open.has(child)) return 'cycle';
      const known = done.get(child);
      if (known) {
        top.size += known.size;
        top.height = Math.max(top.height, known.height + 1);
      } else {
        open.add(child);
        stack.push({ node: child, children: childrenOf(child), next: 0, size: 1, height: 1 });
      }
      if (top.size > maxSize) return 'large';
      continue;
    }
    stack.pop();
    open.delete(top.node);
    done.set(top.node, { size: top.size, height: top.height });
    if (top.height > MAX_YAML_DEPTH) return 'deep';
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.size += top.size;
      parent.height = Math.max(parent.height, top.height + 1);
      if (parent.size > maxSize) return 'large';
    }
  }
  return 'ok';
}

/** A .json file that looks like JSON and is not: JSON's own error, at its position. */
function jsonSyntaxProblem(doc: SourceDocument): Diagnostic | undefined {
  const text = doc.text.charCodeAt(0) === 0xfeff ? doc.text.slice(1) : doc.text;
  try {
    JSON.parse(text);
    return undefined;
  } catch (e) {
    const msg = String((e as Error).message);
    const bom = text === doc.text ? 0 : 1;
    // Engines word (and locate) JSON errors differently; find the offset ourselves.
    const at = jsonErrorOffset(text) + bom;
    // Drop the engine's echo of the input (it may span lines) and its own position text.
    const reason =
      msg
        .replace(/,\s*(?:\.\.\.)?"[\s\S]*is not valid JSON\s*$/, '')
        .replace(/\s*(in JSON )?at position \d+.*$/s, '')
        .trim() || 'invalid JSON';
    return problem(doc, PARSER_CODES.json, `JSON syntax error: ${firstLineOf(reason)}`, at, at + 1);
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
