// Golden `-o log` text for the conformance cases, built only from Istio's side of things:
// the message templates in messages.yaml, the parameters and field paths each case's
// messages get (tests/conformance/golden/expected.yaml, derived by reading Istio's
// analyzers and the case's testdata), and Istio's rules for origins, reference lines,
// ordering and de-duplication. Nothing here imports our analysis code, so a golden file can
// disagree with what we print.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsyaml from 'js-yaml';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';

// ---------- Go's fmt, for the verbs Istio's templates use ----------

export type GoArg = string | number | GoArg[];

/** strconv.Quote for the characters our cases contain: printable text kept, quotes and controls escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x0d) out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function formatArg(verb: string, arg: GoArg): string {
  if (Array.isArray(arg)) return `[${arg.map((a) => formatArg(verb, a)).join(' ')}]`;
  switch (verb) {
    case 'q':
      if (typeof arg !== 'string') throw new Error(`%q of ${typeof arg}`);
      return goQuote(arg);
    case 'd':
      if (typeof arg !== 'number' || !Number.isInteger(arg)) throw new Error(`%d of ${JSON.stringify(arg)}`);
      return String(arg);
    case 's':
      if (typeof arg !== 'string') throw new Error(`%s of ${typeof arg} ${JSON.stringify(arg)}`);
      return arg;
    case 'v':
      return String(arg);
    default:
      throw new Error(`verb %${verb} not supported`);
  }
}

/** fmt.Sprintf for %s %v %q %d and %%; the argument count must match exactly. */
export function goSprintfForGolden(template: string, args: readonly GoArg[]): string {
  let i = 0;
  const out = template.replace(/%([%sdqv])/g, (_, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) throw new Error(`too few arguments for ${JSON.stringify(template)}`);
    return formatArg(verb, args[i++] as GoArg);
  });
  if (i !== args.length) throw new Error(`${args.length - i} extra argument(s) for ${JSON.stringify(template)}`);
  return out;
}

// ---------- Istio's file reader: documents, their first lines and field lines ----------

/** Go's bytes.TrimSpace for the ASCII whitespace YAML files use. */
function trimSpace(s: string): string {
  return s.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '');
}

/**
 * Splits a file as Istio's kubeyaml.YAMLReader does: a line starting with `---` (and
 * nothing else but spaces) ends a non-empty document; a document's line is its first line
 * that is neither empty nor exactly `---` (a comment counts). A `---` met while the buffer
 * is empty stays in the document's text, which shifts its field lines by one, as in Istio.
 */
export function istioChunks(text: string): Array<{ text: string; startLine: number }> {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const chunks: Array<{ text: string; startLine: number }> = [];
  let buffer: string[] = [];
  let startLine = 0;
  let lineNo = 0;
  for (const line of lines) {
    lineNo++;
    if (startLine === 0 && line !== '' && line !== '---') startLine = lineNo;
    if (line.startsWith('---') && line.slice(3).trim() === '' && buffer.length > 0) {
      chunks.push({ text: buffer.join('\n'), startLine });
      buffer = [];
      startLine = 0;
      continue;
    }
    buffer.push(line);
  }
  if (buffer.length > 0) chunks.push({ text: buffer.join('\n'), startLine });
  return chunks.map((c) => ({ ...c, text: trimSpace(c.text) })).filter((c) => c.text !== '');
}

/** go-yaml's Node.Value of a key: the text of a plain scalar, the value of a quoted one. */
function keyText(key: unknown, text: string): string {
  if (!isScalar(key)) return String(key);
  if (key.type === 'PLAIN' && key.range) return text.slice(key.range[0], key.range[1]);
  return String(key.value);
}

/** Istio's BuildFieldPathMap: `{.a.b[0].c}` → line, for scalar leaves only. */
export function fieldLines(
  node: YamlNode | null | undefined,
  text: string,
  lineOf: (offset: number) => number,
  startLine: number,
  path = '',
  out = new Map<string, number>(),
): Map<string, number> {
  if (!isMap(node)) return out;
  for (const pair of node.items) {
    const p = `${path}.${keyText(pair.key, text)}`;
    const value = pair.value as YamlNode | null;
    if (isScalar(value)) out.set(`{${p}}`, lineOf(value.range?.[0] ?? 0) + startLine - 1);
    else if (isMap(value)) fieldLines(value, text, lineOf, startLine, p, out);
    else if (isSeq(value)) {
      value.items.forEach((item, j) => {
        const itemNode = item as YamlNode;
        if (isScalar(itemNode)) out.set(`{${p}[${j}]}`, lineOf(itemNode.range?.[0] ?? 0) + startLine - 1);
        else fieldLines(itemNode, text, lineOf, startLine, `${p}[${j}]`, out);
      });
    }
  }
  return out;
}

/**
 * The lines of a List item's fields as Istio gets them: it re-marshals the item with go-yaml
 * (4-space block style, one line per scalar entry) and counts from the item's line in the
 * List plus the List's line, one too many. Only plain block content is supported here.
 */
function marshaledFieldLines(node: YamlNode, startLine: number): Map<string, number> {
  const out = new Map<string, number>();
  let line = 0;
  const walk = (n: YamlNode | null, path: string, sameLine: boolean): void => {
    if (n && (n.commentBefore || n.comment)) throw new Error('List items with comments are not supported by the golden generator');
    if (isMap(n) && !n.flow) {
      n.items.forEach((pair, i) => {
        if (!(i === 0 && sameLine)) line++;
        const key = String((pair.key as { value?: unknown }).value);
        const value = pair.value as YamlNode | null;
        if (isScalar(value)) out.set(`{${path}.${key}}`, line + startLine - 1);
        else walk(value, `${path}.${key}`, false);
      });
    } else if (isSeq(n) && !n.flow) {
      n.items.forEach((item, j) => {
        line++;
        const itemNode = item as YamlNode;
        if (isScalar(itemNode)) out.set(`{${path}[${j}]}`, line + startLine - 1);
        else walk(itemNode, `${path}[${j}]`, true);
      });
    }
    // Scalars and flow collections stay on their key's line.
  };
  walk(node, '', false);
  return out;
}

const CLUSTER_SCOPED = new Set([
  'Namespace',
  'Node',
  'CustomResourceDefinition',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'ClusterRole',
  'ClusterRoleBinding',
  'GatewayClass',
]);

export interface LocatedResource {
  file: string;
  line: number;
  fields: Map<string, number>;
  kind: string;
  apiVersion: string;
}

function metadataOf(value: unknown): { kind: string; apiVersion: string; name: string; namespace: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as { kind?: unknown; apiVersion?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
  if (typeof v.kind !== 'string') return undefined;
  const kind = v.kind;
  const namespace = CLUSTER_SCOPED.has(kind) ? '' : String(v.metadata?.namespace ?? '');
  return { kind, apiVersion: String(v.apiVersion ?? ''), name: String(v.metadata?.name ?? ''), namespace };
}

/** Istio's origin text: `Kind namespace/name`, or `Kind name` without a namespace. */
export function originOf(kind: string, namespace: string, name: string): string {
  return namespace ? `${kind} ${namespace}/${name}` : `${kind} ${name}`;
}

/** Every resource of the files by origin text, later documents replacing earlier ones. */
export function locateResources(baseDir: string, files: readonly string[]): Map<string, LocatedResource[]> {
  const byOrigin = new Map<string, LocatedResource[]>();
  const add = (origin: string, r: LocatedResource) => {
    const list = byOrigin.get(origin) ?? [];
    list.push(r);
    byOrigin.set(origin, list);
  };
  for (const file of files) {
    for (const chunk of istioChunks(readFileSync(join(baseDir, file), 'utf8'))) {
      const lineCounter = new LineCounter();
      const doc = parseDocument(chunk.text, { lineCounter, uniqueKeys: false });
      const lineOf = (offset: number) => lineCounter.linePos(offset).line;
      const value = doc.toJS() as unknown;
      const meta = metadataOf(value);
      if (!meta) continue;
      if (meta.kind === 'List') {
        const items = doc.contents as YamlNode & { get?: (k: string, keep: boolean) => unknown };
        const seq = isMap(items) ? items.get('items', true) : undefined;
        if (!isSeq(seq)) continue;
        for (const item of seq.items) {
          const node = item as YamlNode;
          const itemMeta = metadataOf((node as { toJSON?: () => unknown }).toJSON?.());
          if (!itemMeta) continue;
          const itemLine = lineOf(node.range?.[0] ?? 0) + chunk.startLine;
          add(originOf(itemMeta.kind, itemMeta.namespace, itemMeta.name), {
            file,
            line: itemLine,
            fields: marshaledFieldLines(node, itemLine),
            kind: itemMeta.kind,
            apiVersion: itemMeta.apiVersion,
          });
        }
        continue;
      }
      add(originOf(meta.kind, meta.namespace, meta.name), {
        file,
        line: chunk.startLine,
        fields: fieldLines(doc.contents as YamlNode, chunk.text, lineOf, chunk.startLine),
        kind: meta.kind,
        apiVersion: meta.apiVersion,
      });
    }
  }
  return byOrigin;
}

// ---------- messages, lines and order ----------

export interface MessageTemplate {
  code: string;
  name: string;
  level: 'Error' | 'Warning' | 'Info';
  template: string;
}

export function readMessageTemplates(messagesYaml: string): Map<string, MessageTemplate> {
  const parsed = jsyaml.load(readFileSync(messagesYaml, 'utf8')) as { messages: MessageTemplate[] };
  return new Map(parsed.messages.map((m) => [m.code, m]));
}

/** One expected message of a case, as written in expected.yaml. */
export interface ExpectedLogMessage {
  code: string;
  origin: string;
  args: GoArg[];
  /** Istio's field path for the line (`{.spec.x[0].y}`); without it, or when not a scalar leaf, the resource's line. */
  path?: string;
  /** Multi-cluster cases: the cluster whose resource the message is attached to. */
  cluster?: string;
  /** Picks one of several resources with the same origin (e.g. an Istio and a Gateway API Gateway). */
  apiVersion?: string;
  /**
   * What Istio may print instead when its output depends on Go's map order (another cluster
   * for the resource, arguments in another order): each entry overrides fields above.
   */
  alternatives?: Array<Partial<Pick<ExpectedLogMessage, 'args' | 'cluster' | 'path'>>>;
}

const LEVEL_ORDER = { Error: 0, Warning: 1, Info: 2 } as const;

interface Rendered {
  line: string;
  cluster: string;
  level: number;
  code: string;
  comparator: string;
}

/** Istio's Origin.Comparator(): Kind/name/namespace. */
function comparator(origin: string): string {
  const [kind, rest = ''] = origin.split(/ (.*)/s) as [string, string?];
  const slash = rest.indexOf('/');
  const [namespace, name] = slash >= 0 ? [rest.slice(0, slash), rest.slice(slash + 1)] : ['', rest];
  return `${kind}/${name}/${namespace}`;
}

function compareBy(a: Rendered, b: Rendered): number {
  if (a.cluster !== b.cluster) return a.cluster < b.cluster ? -1 : 1;
  if (a.level !== b.level) return a.level - b.level;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  if (a.comparator !== b.comparator) return a.comparator < b.comparator ? -1 : 1;
  return a.line < b.line ? -1 : a.line > b.line ? 1 : 0;
}

/** Resources that exist only in memory in Istio's harness: no file, so no reference. */
const SYNTHETIC = new Set(['MeshConfig istio-system/meshconfig', 'MeshNetworks istio-system/meshnetworks']);

/**
 * The `-o log` lines istioctl would print for these messages: `Level [CODE]` (with
 * `[cluster-X]` in a multi-cluster run) `(origin file:line) text`, sorted and de-duplicated
 * as diag.Messages.SortedDedupedCopy does.
 */
export function goldenLogLines(
  messages: readonly ExpectedLogMessage[],
  templates: Map<string, MessageTemplate>,
  resources: (cluster: string | undefined) => Map<string, LocatedResource[]>,
): string[] {
  const rendered = messages.map((m): Rendered => {
    const t = templates.get(m.code);
    if (!t) throw new Error(`no template for ${m.code}`);
    let ref = '';
    if (!SYNTHETIC.has(m.origin)) {
      const candidates = (resources(m.cluster).get(m.origin) ?? []).filter((r) => m.apiVersion === undefined || r.apiVersion === m.apiVersion);
      if (candidates.length === 0) throw new Error(`${m.code}: no resource ${m.origin}${m.cluster ? ` in ${m.cluster}` : ''}`);
      const kinds = new Set(candidates.map((r) => r.apiVersion));
      if (kinds.size > 1) throw new Error(`${m.code}: ${m.origin} is ambiguous; give its apiVersion`);
      const r = candidates.at(-1) as LocatedResource;
      const line = (m.path !== undefined ? r.fields.get(m.path) : undefined) ?? r.line;
      ref = ` ${r.file}:${line}`;
    }
    const cluster = m.cluster ? ` [cluster-${m.cluster}]` : '';
    const line = `${t.level} [${t.code}]${cluster} (${m.origin}${ref}) ${goSprintfForGolden(t.template, m.args)}`;
    return { line, cluster: m.cluster ?? '', level: LEVEL_ORDER[t.level], code: t.code, comparator: comparator(m.origin) };
  });
  rendered.sort(compareBy);
  const out: string[] = [];
  for (const r of rendered) if (out.at(-1) !== r.line) out.push(r.line);
  return out;
}

// ---------- all cases ----------

export const GOLDEN_DIR = fileURLToPath(new URL('./golden/', import.meta.url));

export interface GoldenCase {
  id: string;
  expected: Array<{ code: string; origin: string }>;
  inputFiles?: string[];
  clusters?: Record<string, string[]>;
}

export function readExpectedMessages(file = join(GOLDEN_DIR, 'expected.yaml')): Map<string, ExpectedLogMessage[]> {
  const parsed = jsyaml.load(readFileSync(file, 'utf8')) as Record<string, ExpectedLogMessage[] | null>;
  return new Map(Object.entries(parsed).map(([id, list]) => [id, (list ?? []).map((m) => ({ ...m, args: m.args ?? [] }))]));
}

/** The golden file text of one case: its lines, each ending with a newline. */
export function goldenLogText(c: GoldenCase, messages: readonly ExpectedLogMessage[], analyzersDir: string, templates: Map<string, MessageTemplate>): string {
  const byCluster = new Map<string, Map<string, LocatedResource[]>>();
  const resources = (cluster: string | undefined) => {
    const key = cluster ?? '';
    let located = byCluster.get(key);
    if (!located) {
      const files = cluster !== undefined ? (c.clusters?.[cluster] ?? []) : (c.inputFiles ?? []);
      byCluster.set(key, (located = locateResources(analyzersDir, files)));
    }
    return located;
  };
  return goldenLogLines(messages, templates, resources)
    .map((l) => `${l}\n`)
    .join('');
}

/** Whether Istio's output for these messages can vary between runs (see `alternatives`). */
export function hasAlternatives(messages: readonly ExpectedLogMessage[]): boolean {
  return messages.some((m) => (m.alternatives ?? []).length > 0);
}

/** Every line Istio may print for each message: its own and those of its alternatives. */
export function goldenLineChoices(
  c: GoldenCase,
  messages: readonly ExpectedLogMessage[],
  analyzersDir: string,
  templates: Map<string, MessageTemplate>,
): string[][] {
  return messages.map((m) =>
    [m, ...(m.alternatives ?? []).map((alt) => ({ ...m, ...alt }))].map((variant) =>
      goldenLogText(c, [{ ...variant, alternatives: [] }], analyzersDir, templates).trimEnd(),
    ),
  );
}

export function goldenFile(id: string): string {
  return join(GOLDEN_DIR, `${id}.txt`);
}
