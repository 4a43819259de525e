// The `istioctl` analysis mode: what `istioctl analyze --use-kube=false` reads, runs and prints.
// The documents are the document layer's (src/core/document): this is a filter and decoder on top of them,
// following pilot/pkg/config/file/store.go (parseContent, parseChunk, the List handling) and
// pkg/config/analysis/local/istiod_analyze.go at the Istio commit we follow:
//
// - the file reader knows only the kinds of the selected analyzers' inputs
//   (kuberesource.ConvertInputsToSchemas) minus kuberesource.DefaultExcludedSchemas (Service,
//   Namespace, Node, Pod, Secret); a document of any other kind is skipped without a word,
//   and so are the placeholder ingress Pod and Service, which go through the same reader;
// - an analyzer one of whose inputs the reader does not know is skipped (RemoveSkipped);
// - `kind: List` is all or nothing: an item the reader skips skips the whole List;
// - a document istioctl cannot decode is not analyzed, and its error is collected for the
//   "Error(s) adding files" report (a hashicorp multierror per file, inside one for all files).
import type { Diagnostic, Resource } from '../document/types.ts';
import { textFileOf, type ModelDocument, type ModelFile } from '../document/workspaceModel.ts';
import { KINDS, type KindInfo } from '../document/kinds.ts';
import { kindIdOf, makeResource } from '../document/resources.ts';
import { splitApiVersion } from '../document/kinds.ts';
import { PARSER_CODES } from '../document/parse.ts';
import { ALL_ANALYZERS } from './analyzers/index.ts';
import type { AnalysisContext, Analyzer } from './types.ts';
import { KINDS_NOT_READ_FROM_FILES } from './skipped.ts';

import { istioctlDecodeError, istioctlDecodedObject } from '../validation/jsonpb/decode.ts';
import { goJSONSyntaxError } from '../validation/webhook/goJson.ts';
import { goJsonFloat, goJsonValueType } from '../go/format.ts';
import { kindProblems } from '../validation/kindProblems.ts';
import { isObj as isObject } from '../document/read.ts';

/**
 * How Go's encoding/json (sigs.k8s.io/json, case-sensitive) decodes the fields the model checks
 * of the Kubernetes kinds istioctl reads, as typed client-go structs: a tree of struct fields,
 * each a nested struct (with its Go type), a slice, a string (or a named string type), an int32
 * or a map[string]string.
 */
interface GoStruct {
  name: string;
  /** The Go type in an error about the whole struct (`v1.ObjectMeta`). */
  goType: string;
  fields: Readonly<Record<string, GoField>>;
}
type GoField = 'string' | 'map' | 'int32' | { named: string } | GoStruct | { slice: GoStruct | 'string' };

const OBJECT_META: GoStruct = {
  name: 'ObjectMeta',
  goType: 'v1.ObjectMeta',
  fields: { annotations: 'map', generateName: 'string', labels: 'map', name: 'string', namespace: 'string' },
};
const CONTAINER: GoStruct = {
  name: 'Container',
  goType: 'v1.Container',
  fields: {
    image: 'string',
    name: 'string',
    ports: {
      slice: { name: 'ContainerPort', goType: 'v1.ContainerPort', fields: { containerPort: 'int32', name: 'string', protocol: { named: 'v1.Protocol' } } },
    },
  },
};
const POD_SPEC: GoStruct = {
  name: 'PodSpec',
  goType: 'v1.PodSpec',
  fields: { containers: { slice: CONTAINER }, initContainers: { slice: CONTAINER }, nodeSelector: 'map', serviceAccountName: 'string' },
};
const DEPLOYMENT_SPEC: GoStruct = {
  name: 'DeploymentSpec',
  goType: 'v1.DeploymentSpec',
  fields: {
    replicas: 'int32',
    selector: { name: 'LabelSelector', goType: 'v1.LabelSelector', fields: { matchLabels: 'map' } },
    template: { name: 'PodTemplateSpec', goType: 'v1.PodTemplateSpec', fields: { metadata: OBJECT_META, spec: POD_SPEC } },
  },
};
const MUTATING_WEBHOOK: GoStruct = {
  name: 'MutatingWebhook',
  goType: 'v1.MutatingWebhook',
  fields: { admissionReviewVersions: { slice: 'string' }, failurePolicy: { named: 'v1.FailurePolicyType' }, name: 'string' },
};
const KUBE_STRUCTS: Readonly<Record<string, Readonly<Record<string, GoField>>>> = {
  'apps/Deployment': { spec: DEPLOYMENT_SPEC },
  'core/ConfigMap': { data: 'map' },
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': { webhooks: { slice: MUTATING_WEBHOOK } },
};

/** The JSON number sigs.k8s.io/yaml writes (json.Marshal), as an UnmarshalTypeError quotes it. */
function int32Problem(v: unknown): string | undefined {
  if (typeof v !== 'number') return goJsonValueType(v);
  if (Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31) return undefined;
  return `number ${goJsonFloat(v)}`;
}

/**
 * encoding/json's first UnmarshalTypeError on those fields (it visits keys in the order
 * sigs.k8s.io/yaml wrote them, sorted, and keeps the first type error), as istioctl prints it.
 */
export function kubeDecodeError(kind: string, group: string, object: unknown): string | undefined {
  if (!isObject(object)) return undefined;
  const root: GoStruct = { name: kind, goType: kind, fields: { metadata: OBJECT_META, ...(KUBE_STRUCTS[`${group || 'core'}/${kind}`] ?? {}) } };
  const fail = (what: string, struct: string, path: readonly string[], goType: string) =>
    `failed parsing JSON for built-in type: json: cannot unmarshal ${what} into Go struct field ${struct}.${path.join('.')} of type ${goType}`;
  // One value of a field (`struct` is the struct decoding it, `path` the field path so far).
  const value = (field: GoField, v: unknown, struct: string, at: readonly string[]): string | undefined => {
    if (v === null || v === undefined) return undefined;
    if (field === 'string') return typeof v === 'string' ? undefined : fail(goJsonValueType(v), struct, at, 'string');
    if (field === 'int32') {
      const problem = int32Problem(v);
      return problem === undefined ? undefined : fail(problem, struct, at, 'int32');
    }
    if (field === 'map') {
      if (!isObject(v)) return fail(goJsonValueType(v), struct, at, 'map[string]string');
      for (const k of Object.keys(v).sort()) {
        const x = v[k];
        if (x !== null && typeof x !== 'string') return fail(goJsonValueType(x), struct, at, 'string');
      }
      return undefined;
    }
    if ('named' in field) return typeof v === 'string' ? undefined : fail(goJsonValueType(v), struct, at, field.named);
    if ('slice' in field) {
      const elem = field.slice;
      const elemType = elem === 'string' ? 'string' : elem.goType;
      if (!Array.isArray(v)) return fail(goJsonValueType(v), struct, at, `[]${elemType}`);
      for (const e of v) {
        const inner = value(elem, e, struct, at);
        if (inner !== undefined) return inner;
      }
      return undefined;
    }
    if (!isObject(v)) return fail(goJsonValueType(v), struct, at, field.goType);
    return visit(v, field, at);
  };
  const visit = (obj: Record<string, unknown>, struct: GoStruct, path: readonly string[]): string | undefined => {
    for (const key of Object.keys(obj).sort()) {
      // Own fields only: a key named `constructor` or `__proto__` is no field of the struct.
      const field = Object.hasOwn(struct.fields, key) ? struct.fields[key] : undefined;
      if (field === undefined) continue;
      const problem = value(field, obj[key], struct.name, [...path, key]);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
  return visit(object, root, []);
}

/** istioctl's decoding of a document of a kind it reads: Istio's kinds (legacy jsonpb; validation/jsonpb/decode.ts), then Kubernetes'. */
const ISTIOCTL_DECODER: IstioctlDecoder = (kind, group, object) => istioctlDecodeError(kind, group, object) ?? kubeDecodeError(kind, group, object);

/**
 * istioctl's decoding of a document of a kind it reads: the error it prints after
 * `error processing <file>[<n>]: `, or undefined when the document decodes.
 */
export type IstioctlDecoder = (kind: string, group: string, object: unknown) => string | undefined;

/** Kinds every analyzer may read that come from istioctl's internal store, not from files. */
const INTERNAL_KINDS: readonly KindInfo[] = [KINDS.MeshConfig, KINDS.MeshNetworks];

/**
 * Where our analyzer declares an input Istio's does not: virtualservice.GatewayAnalyzer also
 * reads Gateway API Gateways (to not call a VirtualService's gateway missing); Istio's reads
 * only Istio Gateways and VirtualServices (pkg/config/analysis/analyzers/virtualservice/gateways.go).
 */
const ISTIO_INPUTS: Readonly<Record<string, readonly KindInfo[]>> = {
  'virtualservice.GatewayAnalyzer': [KINDS.Gateway, KINDS.VirtualService],
};

export function istioInputs(a: Analyzer): readonly KindInfo[] {
  return ISTIO_INPUTS[a.metadata.name] ?? a.metadata.inputs;
}

/** A context in which the kinds `hidden` hold nothing. */
function hiding(ctx: AnalysisContext, hidden: ReadonlySet<string>): AnalysisContext {
  const view = Object.create(ctx) as AnalysisContext;
  view.find = (k, ns, name) => (hidden.has(k.id) ? undefined : ctx.find(k, ns, name));
  view.list = (k) => (hidden.has(k.id) ? [] : ctx.list(k));
  view.exists = (k, ns, name) => (hidden.has(k.id) ? false : ctx.exists(k, ns, name));
  return view;
}

/** The analyzer as Istio's: it sees nothing of the inputs Istio's does not declare. */
function asIstios(a: Analyzer): Analyzer {
  const own = ISTIO_INPUTS[a.metadata.name];
  if (!own) return a;
  const hidden = new Set(a.metadata.inputs.filter((k) => !own.includes(k)).map((k) => k.id));
  const views = new WeakMap<AnalysisContext, AnalysisContext>();
  const hide = (ctx: AnalysisContext) => {
    let v = views.get(ctx);
    if (!v) views.set(ctx, (v = hiding(ctx, hidden)));
    return v;
  };
  const parts = a.perResource;
  return {
    metadata: { ...a.metadata, inputs: [...own] },
    analyze: (ctx) => a.analyze(hide(ctx)),
    ...(parts
      ? {
          perResource: {
            kind: parts.kind,
            check: (ctx: AnalysisContext, r: Resource) => parts.check(hide(ctx), r),
            ...(parts.global ? { global: (ctx: AnalysisContext) => parts.global?.(hide(ctx)) } : {}),
          },
        }
      : {}),
  };
}

/** All() as istioctl runs it. */
const ISTIOCTL_ALL: readonly Analyzer[] = ALL_ANALYZERS.map(asIstios);

/** analyzers.NamedCombined: the named analyzers of All(), in All()'s order; all when none match. */
export function istioctlAnalyzers(names: readonly string[]): Analyzer[] {
  const wanted = new Set(names);
  const picked = ISTIOCTL_ALL.filter((a) => wanted.has(a.metadata.name));
  return picked.length > 0 ? picked : [...ISTIOCTL_ALL];
}

/** The kind ids istioctl's file reader knows for these analyzers. */
export function istioctlReadKinds(analyzers: readonly Analyzer[]): Set<string> {
  const excluded = new Set(KINDS_NOT_READ_FROM_FILES.map((k) => k.id));
  const out = new Set<string>();
  for (const a of analyzers) for (const k of istioInputs(a)) if (!k.synthetic && !excluded.has(k.id)) out.add(k.id);
  return out;
}

/** RemoveSkipped: the analyzers to run, and those with an input the reader does not know. */
export function istioctlPartition(
  analyzers: readonly Analyzer[],
  readKinds: ReadonlySet<string>,
): { run: Analyzer[]; skipped: Array<{ analyzer: string; missing: string[] }> } {
  const known = new Set([...readKinds, ...INTERNAL_KINDS.map((k) => k.id)]);
  const run: Analyzer[] = [];
  const skipped: Array<{ analyzer: string; missing: string[] }> = [];
  for (const a of analyzers) {
    const missing = istioInputs(a).filter((k) => !known.has(k.id));
    if (missing.length === 0) run.push(a);
    else skipped.push({ analyzer: a.metadata.name, missing: [...new Set(missing.map((k) => k.kind))] });
  }
  return { run, skipped };
}

/** One document istioctl could not add: its chunk index, the error text and where it is. */
export interface IstioctlReadError {
  file: string;
  /** istioctl's chunk index (`<file>[<n>]`), which counts empty chunks too. */
  chunk: number;
  /** The whole error: `error processing <file>[<n>]: …`. */
  text: string;
  /** The document's line, for the editor. */
  line: number;
}

export interface IstioctlRead {
  resources: Resource[];
  /** Per file, in the order istioctl reads them. */
  errors: IstioctlReadError[];
}

/** Offsets [start, end) of the chunks istioctl's YAML reader (kubeyaml.YAMLReader) returns. */
export function istioctlChunks(text: string): Array<{ start: number; end: number }> {
  const chunks: Array<{ start: number; end: number }> = [];
  let bufStart = -1;
  let pos = 0;
  while (pos < text.length) {
    let eol = text.indexOf('\n', pos);
    const next = eol < 0 ? text.length : eol + 1;
    if (eol < 0) eol = text.length;
    const sep = text.startsWith('---', pos) && /^\s*$/.test(text.slice(pos + 3, eol));
    if (sep && bufStart >= 0) {
      chunks.push({ start: bufStart, end: pos });
      bufStart = -1;
    } else if (bufStart < 0) {
      // A separator with nothing before it is written into the chunk (it then reads as null).
      bufStart = pos;
    }
    pos = next;
  }
  if (bufStart >= 0) chunks.push({ start: bufStart, end: text.length });
  return chunks;
}

const TYPE_META = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** The TypeMeta field encoding/json sets for a key: an exact name, else one equal under its case folding. */
function typeMetaField(key: string): 'apiVersion' | 'kind' | undefined {
  if (key === 'apiVersion' || key === 'kind') return key;
  // ASCII folding plus the two non-ASCII letters that fold to ASCII (U+017F ſ, U+212A K).
  const folded = key
    .replace(/\u017f/g, 's')
    .replace(/\u212a/g, 'k')
    .toLowerCase();
  if (folded === 'apiversion' && /^[\x00-\x7f\u017f\u212a]*$/.test(key)) return 'apiVersion';
  if (folded === 'kind' && /^[\x00-\x7f\u017f\u212a]*$/.test(key)) return 'kind';
  return undefined;
}

/**
 * kubeJson.DefaultMetaFactory.Interpret's error, or the apiVersion and kind it reads.
 * encoding/json meets the keys in the order of the JSON: sorted when sigs.k8s.io/yaml wrote
 * it from YAML, as written for a chunk read as JSON. It keeps the first type error, and a
 * later key of a field overrides an earlier one.
 */
function interpret(value: unknown, sorted = true): { error: string } | { apiVersion: string; kind: string; group: string; version: string } {
  const fail = (what: string) => ({ error: `failed interpreting jsonChunk: couldn't get version/kind; json parse error: json: cannot unmarshal ${what}` });
  if (!isObject(value)) return fail(`${goJsonValueType(value)} into Go value of type ${TYPE_META}`);
  const out = { apiVersion: '', kind: '' };
  const keys = sorted ? Object.keys(value).sort() : Object.keys(value);
  let firstError: { error: string } | undefined;
  for (const key of keys) {
    const field = typeMetaField(key);
    if (field === undefined) continue;
    const v = value[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') firstError ??= fail(`${goJsonValueType(v)} into Go struct field .${field} of type string`);
    else out[field] = v;
  }
  if (firstError) return firstError;
  // schema.ParseGroupVersion.
  const gv = out.apiVersion;
  let group = '';
  let version = '';
  if (gv !== '' && gv !== '/') {
    const slashes = gv.split('/').length - 1;
    if (slashes > 1) return { error: `failed interpreting jsonChunk: unexpected GroupVersion string: ${gv}` };
    if (slashes === 0) version = gv;
    else [group, version] = gv.split('/') as [string, string];
  }
  return { ...out, group, version };
}

type ChunkOutcome = { keep: Resource[] } | { unknown: true } | { error: string };

type ListItems = Array<{ value: unknown; resource: () => Resource | undefined; nested: (body: Record<string, unknown>) => Resource }>;

/** extractResourceChunksFromListYamlChunk: the items, when `items` is a list of mappings. */
function listItems(list: Record<string, unknown>): unknown[] | undefined {
  const items = list.items;
  return Array.isArray(items) && items.every(isObject) ? items : undefined;
}

function nestedItems(list: Record<string, unknown>, make: (body: Record<string, unknown>) => Resource): ListItems | undefined {
  return listItems(list)?.map((value) => ({ value, resource: () => make(value as Record<string, unknown>), nested: make }));
}

const UNPARSED = new Set<string>([PARSER_CODES.syntax, PARSER_CODES.json, PARSER_CODES.aliasLimit]);

/**
 * parseChunk on one object (a document's value or a List item): what istioctl keeps, skips as
 * an unknown schema, or fails with. `resources` gives the model's resource for the object.
 */
function parseObject(
  value: unknown,
  readKinds: ReadonlySet<string>,
  decode: IstioctlDecoder | undefined,
  resourceFor: () => Resource | undefined,
  fallback: () => string | undefined,
  itemsOf: (list: Record<string, unknown>) => ListItems | undefined,
  sorted = true,
): ChunkOutcome {
  if (value === undefined || value === null) return { keep: [] };
  const gvk = interpret(value, sorted);
  if ('error' in gvk) return gvk;
  const obj = value as Record<string, unknown>;
  if (gvk.kind === 'List') {
    const items = itemsOf(obj);
    if (!items) return { error: 'failed extracting resource chunks from list yaml chunk: failed parsing yamlChunk: malformed items field' };
    const keep: Resource[] = [];
    for (const item of items) {
      // A List inside a List: the model expands one level only; its items are made here.
      const out = parseObject(item.value, readKinds, decode, item.resource, fallback, (inner) => nestedItems(inner, item.nested));
      if ('error' in out) return { error: `failed parsing resource chunk: ${out.error}` };
      if ('unknown' in out) return out;
      keep.push(...out.keep);
    }
    return { keep };
  }
  if (!gvk.group && !gvk.version && !gvk.kind) return { error: 'unable to parse resource with no group, version and kind' };
  const { kindId, known } = kindIdOf(gvk.apiVersion, gvk.kind);
  if (!known || !readKinds.has(kindId)) return { unknown: true };
  const problem = decode?.(gvk.kind, splitApiVersion(gvk.apiVersion).group, value);
  if (problem !== undefined) return { error: problem };
  const r = resourceFor();
  if (r) {
    const decoded = istioctlDecodedObject(gvk.kind, gvk.group, r.body);
    return { keep: [decoded ? { ...r, body: decoded } : r] };
  }
  // The model refused the object (a name or label that is not a string): istioctl's decoder does too.
  return { error: `failed parsing JSON for built-in type: ${fallback() ?? 'the object could not be decoded'}` };
}

/** Line of offset `at` in `text` (1-based). */
function lineAt(text: string, at: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * go-yaml v2's words for a document it cannot read, from our parser's problem (`yaml: line N:
 * …`, N counted from the chunk's first line after trimming). Settled against istioctl for
 * the common mistakes; others keep our reason.
 */
function goYamlError(md: ModelDocument, fileText: string, chunkStart: number, chunkEnd: number): string {
  const p = md.problems.find((d) => UNPARSED.has(d.code));
  let first = chunkStart;
  while (first < chunkEnd && /\s/.test(fileText[first] ?? '')) first++;
  let last = chunkEnd;
  while (last > first && /\s/.test(fileText[last - 1] ?? '')) last--;
  const firstLine = lineAt(fileText, first);
  const rel = (fileLine: number) => Math.max(1, fileLine - firstLine + 1);
  const reason = (p?.message ?? '').replace(/^YAML syntax error( \(as kubectl reads YAML\))?: /, '').replace(/^JSON syntax error: /, '');
  const at = p?.range?.startLine ?? p?.line ?? firstLine;
  let words: string;
  let line = rel(at);
  // go-yaml prints a parser error's line 0-based (a scanner error's 1-based): the line before the
  // token it stopped at, or, at the end of the text, the last line (the scanner ends the stream
  // on a new line).
  const lines = fileText.split('\n');
  const offset = lines.slice(0, at - 1).reduce((n, l) => n + l.length + 1, 0) + (p?.range?.startCol ?? 1) - 1;
  // The token go-yaml's parser stopped at: the first one from our problem's place on.
  const rest = fileText.slice(offset, chunkEnd);
  const next = rest.search(/\S/);
  const tokenAtEnd = next < 0 || offset + next >= last - 1;
  const parserLine = tokenAtEnd ? rel(lineAt(fileText, last)) : rel(lineAt(fileText, offset + next)) - 1;
  const problemLine = lines[at - 1] ?? '';
  if (/Missing closing .?quote|unexpected end of the stream within a (double|single) quoted scalar/i.test(reason)) {
    words = 'found unexpected end of stream';
    line = rel(lineAt(fileText, last));
  } else if (/flow sequence|end with a \]|did not find expected ',' or '\]'/i.test(reason)) {
    words = "did not find expected ',' or ']'";
    line = parserLine;
  } else if (/flow map|flow mapping|end with a \}|did not find expected ',' or '\}'/i.test(reason)) {
    words = "did not find expected ',' or '}'";
    line = parserLine;
  } else if (
    /Implicit map keys need to be followed by map values/i.test(reason) ||
    (/Implicit keys need to be on a single line/i.test(reason) && /^\s*[\w.-]+\s*$/.test(problemLine))
  ) {
    // A key without its ':' (a plain word on its own line): go-yaml's scanner says so on the next line.
    words = "could not find expected ':'";
    line = rel(at) + 1;
  } else if (/Nested mappings are not allowed|Implicit keys need to be|bad indentation of a mapping entry|mapping values are not allowed/i.test(reason)) {
    // go-yaml stops at the value indicator, on the first line from the problem on with one.
    words = 'mapping values are not allowed in this context';
    let l = at;
    while (l < lines.length && !/:(\s|$)/.test(lines[l - 1]?.slice(l === at ? (p?.range?.startCol ?? 1) - 1 : 0) ?? '')) l++;
    line = rel(l);
  } else if (
    /All mapping items must start at the same column|A block sequence may not be used as an implicit map key|Sequence item without - indicator|All sequence items must start at the same column/i.test(
      reason,
    )
  ) {
    // go-yaml's parser is in a block sequence or a block mapping at the token it stopped at:
    // the collection of the nearest line above at that token's indentation or less.
    const tokenLine = next < 0 ? at : lineAt(fileText, offset + next);
    const indent = (l: string) => l.length - l.trimStart().length;
    const own = indent(lines[tokenLine - 1] ?? '');
    let above = '';
    for (let l = tokenLine - 1; l >= firstLine; l--) {
      const t = lines[l - 1] ?? '';
      if (!/\S/.test(t) || t.trimStart().startsWith('#') || indent(t) > own) continue;
      above = t;
      break;
    }
    // A `- ` line whose item content starts right of the token: the sequence is what is open.
    words = /^\s*- /.test(above) && indent(above) + 2 > own ? "did not find expected '-' indicator" : 'did not find expected key';
    line = parserLine;
  } else if (/Missing directives-end/i.test(reason)) {
    words = 'did not find expected <document start>';
    line = parserLine;
  } else if (/tab|Plain value cannot start with (directive indicator|reserved) character/i.test(reason)) {
    words = 'found character that cannot start any token';
  } else {
    words = reason.replace(/\s*\(\d+:\d+\)$/, '');
  }
  return `failed converting YAML to JSON: yaml: line ${line}: ${words}`;
}

/**
 * A `%` line after the first content of a chunk (go-yaml scans a directive at column 0 there):
 * where it starts, its line as go-yaml counts it in the chunk, and go-yaml's scanner error
 * for it, if any (scan_directive: only YAML and TAG are known).
 */
function midDirective(text: string, start: number, end: number): { lineStart: number; line: number; error?: string } | undefined {
  let content = false;
  let firstLine = 0;
  let line = lineAt(text, start);
  for (let pos = start; pos < end; line++) {
    let eol = text.indexOf('\n', pos);
    if (eol < 0 || eol > end) eol = end;
    const l = text.slice(pos, eol);
    if (content && l.startsWith('%')) {
      const rel = line - firstLine + 1;
      const m = /^%([0-9A-Za-z_-]*)(.*)$/.exec(l.replace(/\r$/, '')) as RegExpExecArray;
      const name = m[1] as string;
      const rest = m[2] as string;
      let error: string | undefined;
      if (name === '') error = 'could not find expected directive name';
      else if (rest !== '' && !/^[ \t]/.test(rest)) error = 'found unexpected non-alphabetical character';
      else if (name === 'YAML') {
        const v = /^[ \t]*([0-9]*)(\.?)([0-9]*)(.*)$/.exec(rest) as RegExpExecArray;
        if (v[1] === '' || (v[1] as string).length > 9) error = 'did not find expected version number';
        else if (v[2] === '') error = "did not find expected digit or '.' character";
        else if (v[3] === '' || (v[3] as string).length > 9) error = 'did not find expected version number';
        else if (!/^[ \t]*(#.*)?$/.test(v[4] as string)) error = 'did not find expected comment or line break';
      } else if (name !== 'TAG') error = 'found unknown directive name';
      return error === undefined ? { lineStart: pos, line: rel } : { lineStart: pos, line: rel, error };
    }
    if (!content && /\S/.test(l) && !/^\s*#/.test(l) && !l.startsWith('%')) {
      content = true;
    }
    if (firstLine === 0 && /\S/.test(l)) firstLine = line;
    pos = eol + 1;
  }
  return undefined;
}

/** Characters go-yaml's reader does not allow (readerc.go yaml_parser_update_buffer); surrogates are of pairs here. */
const GO_YAML_DISALLOWED = /[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ud800-\udfff\ue000-\ufffd]/;

/** The line breaks of YAML 1.1 (go-yaml) that are no line breaks to kubeyaml's line reader or to JSON. */
const YAML_ONLY_BREAKS = /[\u0085\u2028\u2029]/;
const YAML_ONLY_BREAKS_ALL = /[\u0085\u2028\u2029]/g;

/** Go's unicode.IsSpace. */
function isGoSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Go's bytes.TrimSpace. */
function goTrimSpace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isGoSpace(s.charCodeAt(a))) a++;
  while (b > a && isGoSpace(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/**
 * The first NaN or ±Inf json.Marshal meets in a value (map keys sorted), as its
 * UnsupportedValueError names it (strconv.FormatFloat 'g').
 */
function firstNonFinite(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
  if (Array.isArray(v)) {
    for (const e of v) {
      const r = firstNonFinite(e);
      if (r !== undefined) return r;
    }
  } else if (isObject(v)) {
    for (const k of Object.keys(v).sort()) {
      const r = firstNonFinite(v[k]);
      if (r !== undefined) return r;
    }
  }
  return undefined;
}

/**
 * What istioctl's file reader takes from the files (in the model's file order, which is the
 * order the files were given): the resources it keeps and the errors of the documents it
 * cannot add.
 */
export function readAsIstioctl(files: readonly ModelFile[], readKinds: ReadonlySet<string>, decode?: IstioctlDecoder): IstioctlRead {
  const resources: Resource[] = [];
  const errors: IstioctlReadError[] = [];
  for (const given of files) {
    const name = given.path;
    // A file the model calls binary: istioctl reads it as text (go-yaml and encoding/json then refuse its control characters).
    const read = given.documents.length === 0 && given.binaryText !== undefined ? textFileOf(name, given.binaryText, kindProblems) : given;
    // go-yaml breaks lines at U+0085, U+2028 and U+2029 too (is_break): the YAML is read with
    // them as line ends; JSON chunks keep the text as it is (`original`).
    const original = read.text;
    const rewritten = YAML_ONLY_BREAKS.test(original);
    const f = rewritten ? textFileOf(name, original.replace(YAML_ONLY_BREAKS_ALL, '\n'), kindProblems) : read;
    if (f.documents.length === 0) {
      // A file the model refused whole (binary, too large, misread UTF-16).
      const p = f.problems.find((d) => d.level === 'Error');
      if (p) errors.push({ file: name, chunk: 0, text: `error processing ${name}[0]: ${p.message}`, line: 1 });
      continue;
    }
    const chunks = istioctlChunks(original);
    let previous = -1;
    for (const md of f.documents) {
      const doc = md.doc;
      const lead = doc.text.search(/\S/);
      const at = doc.startOffset + Math.max(lead, 0);
      let chunk = chunks.findIndex((c) => c.start <= at && at < c.end);
      if (chunk < 0) chunk = doc.index;
      // A `---` after such a line break starts a second document inside the chunk: go-yaml's
      // Unmarshal reads only the first.
      if (rewritten && chunk === previous) continue;
      previous = chunk;
      const c = chunks[chunk] ?? { start: doc.startOffset, end: doc.startOffset + doc.text.length };
      const fail = (e: string) => errors.push({ file: name, chunk, text: `error processing ${name}[${chunk}]: ${e}`, line: doc.referenceLine });
      // yaml.ToJSON: a chunk that starts with '{' is taken as JSON as it is (encoding/json's
      // errors, from Interpret); any other goes through sigs.k8s.io/yaml (go-yaml, json.Marshal).
      // kubeyaml's LineReader ends every line with a bare '\n' (bufio ReadLine drops "\r\n").
      const chunkText = goTrimSpace(original.slice(c.start, c.end).replace(/\r\n/g, '\n'));
      let value = md.value;
      let used: ModelDocument | undefined = md;
      let jsonResource: (() => Resource | undefined) | undefined;
      const asJson = chunkText.startsWith('{');
      if (asJson) {
        const syntax = goJSONSyntaxError(chunkText);
        if (syntax !== undefined) {
          fail(`failed interpreting jsonChunk: couldn't get version/kind; json parse error: ${syntax}`);
          continue;
        }
        if (value === undefined || rewritten) {
          // Valid JSON our YAML reader refused (or read with other line ends): the JSON's own value.
          const parsed: unknown = JSON.parse(chunkText);
          value = parsed;
          jsonResource = () => (isObject(parsed) ? makeResource(parsed, doc) : undefined);
        }
      } else {
        if (GO_YAML_DISALLOWED.test(chunkText)) {
          // go-yaml's reader refuses these characters (readerc.go), with no line.
          fail('failed converting YAML to JSON: yaml: control characters are not allowed');
          continue;
        }
        // go-yaml ends the document at a directive line; its Unmarshal reads only that first
        // document (the directive is still scanned). The text before it, on the same lines
        // (when that text does not parse, the `%` may be inside a flow collection: no directive).
        const cut = midDirective(f.text, c.start, c.end);
        const before = cut && textFileOf(name, f.text.slice(0, c.start).replace(/[^\n]/g, ' ') + f.text.slice(c.start, cut.lineStart), kindProblems);
        const first = before?.documents[before.documents.length - 1];
        if (cut && first && !first.problems.some((d) => UNPARSED.has(d.code))) {
          if (cut.error !== undefined) {
            fail(`failed converting YAML to JSON: yaml: line ${cut.line}: ${cut.error}`);
            continue;
          }
          used = undefined;
          value = first.value;
          const v = value;
          jsonResource = () => (isObject(v) ? makeResource(v, doc) : undefined);
        } else if (value === undefined && md.problems.some((d) => UNPARSED.has(d.code))) {
          fail(goYamlError(md, f.text, c.start, c.end));
          continue;
        }
        const nonFinite = firstNonFinite(value);
        if (nonFinite !== undefined) {
          fail(`failed converting YAML to JSON: json: unsupported value: ${nonFinite}`);
          continue;
        }
      }
      const firstError = () => used?.problems.find((d) => d.level === 'Error')?.message;
      const outcome = parseObject(
        value,
        readKinds,
        decode,
        jsonResource ?? (() => used?.resources.find((r) => r.source?.itemIndex === undefined)),
        firstError,
        (list) => {
          const nested = (body: Record<string, unknown>) => makeResource(body, doc);
          return listItems(list)?.map((value, i) => ({
            value,
            resource: () => (used ? used.resources.find((r) => r.source?.itemIndex === i) : makeResource(value as Record<string, unknown>, doc, i)),
            nested,
          }));
        },
        !asJson,
      );
      if ('error' in outcome) fail(outcome.error);
      else if ('keep' in outcome) resources.push(...outcome.keep);
    }
  }
  return { resources, errors };
}

/** hashicorp/go-multierror's ListFormatFunc. */
export function multierrorText(errors: readonly string[]): string {
  if (errors.length === 1) return `1 error occurred:\n\t* ${errors[0]}\n\n`;
  return `${errors.length} errors occurred:\n\t${errors.map((e) => `* ${e}`).join('\n\t')}\n\n`;
}

/** Go's %q of a file name (strconv.Quote; JSON's escaping agrees for printable text). */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

/**
 * The error istioctl prints after "Error(s) adding files: ": one multierror over the files,
 * each `errors parsing content "<file>": ` and a multierror over its documents.
 * Undefined when every document was added.
 */
export function addingFilesError(errors: readonly IstioctlReadError[]): string | undefined {
  if (errors.length === 0) return undefined;
  const byFile = new Map<string, string[]>();
  for (const e of errors) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e.text]);
  return multierrorText([...byFile].map(([file, errs]) => `errors parsing content ${goQuote(file)}: ${multierrorText(errs)}`));
}

/** istio's log time stamp: `2006-01-02T15:04:05.000000Z` (UTC, microseconds). */
export function istioLogTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** The warning istioctl logs (on stdout) for a document it skips. */
export function skipWarning(e: IstioctlReadError, now: Date): string {
  return `${istioLogTime(now)}\twarn\tfile\t${e.text} - skipping\n`;
}

/** What the CLI prints in istioctl mode besides the messages. */
export interface IstioctlReport {
  /** The selected analyzers in istioctl's order (its "Executed analyzers:" list names them all). */
  selected: string[];
  /** Those RemoveSkipped removed ("Skipped analyzers:"). */
  skipped: string[];
  errors: IstioctlReadError[];
}

/** Diagnostic code of a document istioctl could not add (shown in the app's Problems list). */
export const ISTIOCTL_READ_ERROR = 'MWB-ISTIOCTL-READ';

/** Everything the workspace needs for an istioctl-mode run. */
export function istioctlRun(files: readonly ModelFile[], analyzerNames: readonly string[], decode: IstioctlDecoder | undefined = ISTIOCTL_DECODER) {
  const selected = istioctlAnalyzers(analyzerNames);
  const readKinds = istioctlReadKinds(selected);
  const read = readAsIstioctl(files, readKinds, decode);
  const partition = istioctlPartition(selected, readKinds);
  const problems: Diagnostic[] = read.errors.map((e) => ({
    level: 'Error',
    code: ISTIOCTL_READ_ERROR,
    message: `istioctl skips this document: ${e.text}`,
    file: e.file,
    line: e.line,
    range: { startLine: e.line, startCol: 1, endLine: e.line, endCol: 200 },
    source: 'parser',
  }));
  const report: IstioctlReport = { selected: selected.map((a) => a.metadata.name), skipped: partition.skipped.map((s) => s.analyzer), errors: read.errors };
  return { resources: read.resources, partition, problems, report };
}

/**
 * istioctl links the documentation of its own release (pkg/url: `https://istio.io/v<minor>/docs/`,
 * from operator/version's OperatorCodeBaseVersion, "1.30.0" at the commit we follow); the
 * workbench links /latest/.
 */
export const ISTIOCTL_DOCS_URL = 'https://istio.io/v1.30/docs/';

/** Our output with istioctl's documentation links. */
export function withIstioctlDocs(text: string): string {
  return text.replaceAll('https://istio.io/latest/docs/', ISTIOCTL_DOCS_URL);
}

/**
 * What istioctl logs (on stdout) when it reads a mesh config file whose validation warns
 * (mesh.ApplyMeshConfig → agent.ValidateMeshConfig). Only the one warning settled against
 * istioctl: a proxyMetadata ISTIO_META_DNS_AUTO_ALLOCATE.
 */
export function meshValidationLog(meshConfig: { defaultConfig: Record<string, unknown> }, now: Date): string {
  const metadata = meshConfig.defaultConfig.proxyMetadata;
  const warnings: string[] = [];
  if (isObject(metadata) && 'ISTIO_META_DNS_AUTO_ALLOCATE' in metadata) {
    warnings.push(
      "'ISTIO_META_DNS_AUTO_ALLOCATE' is deprecated; review https://istio.io/latest/docs/ops/configuration/traffic-management/dns-proxy/#dns-auto-allocation-v2 for information about replacement functionality",
    );
  }
  return warnings.length === 0 ? '' : `${istioLogTime(now)}\twarn\twarnings occurred during mesh validation: ${multierrorText(warnings)}\n`;
}

/** istioctl prints only its own message codes. */
export function isIstioCode(code: string): boolean {
  return /^IST\d{4}$/.test(code);
}
