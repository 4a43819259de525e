// `mesh-workbench validate -f FILE…`: istioctl validate (istioctl/pkg/validate/validate.go), on
// files. Each document is decoded on its own; Istio kinds (the 15 of collections.Pilot) go
// through the webhook's rules with their name, namespace, labels and annotations; Services
// and Deployments get istioctl's port-name and telemetry-label checks; other kinds pass.
// Everything is written to stderr, as istioctl does (cobra's OutOrStderr).
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { flagHelp, parseArgs, UsageError, type FlagSpec } from './args.ts';
import type { CliIo } from './analyze.ts';
import { InputTooLargeError, readCapped } from './readCapped.ts';
import { decodeFileBytes } from '../core/document/encoding.ts';
import { splitDocuments } from '../core/document/split.ts';
import { parseSourceDocument, PARSER_CODES } from '../core/document/parse.ts';
import { kindByGroupKind, versionAccepted } from '../core/document/kinds.ts';
import { isObj, type Obj } from '../core/document/read.ts';
import { goQuote } from '../core/go/fmt.ts';
import { validateWebhook, WEBHOOK_VALIDATORS } from '../core/validation/webhook.ts';
import { parseProtocol } from '../core/validation/webhook/common.ts';
import { istioctlDecodeError } from '../core/validation/jsonpb/decode.ts';
import { ISTIO_KINDS, MESSAGES } from '../core/validation/jsonpb/istioProtos.gen.ts';

export const VALIDATE_EXIT_OK = 0;
export const VALIDATE_EXIT_ERROR = 1;
export const VALIDATE_EXIT_USAGE = 64;

/**
 * istioctl's pkg/url links, for the istioctl release we follow (its operator version gives the
 * `v1.30` part).
 */
const DOCS_URL = 'https://istio.io/v1.30/docs/';
const DEPLOYMENT_REQUIREMENTS = `${DOCS_URL}ops/deployment/requirements/`;
const PROTOCOL_SELECTION = `${DOCS_URL}ops/configuration/traffic-management/protocol-selection/`;

const VALID_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
const FILE_EXTENSIONS = ['.json', '.yaml', '.yml'];

const MISSING_FILENAME = `error: you must specify resources by --filename.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'`;

export const VALIDATE_FLAGS: FlagSpec[] = [
  {
    long: 'filename',
    short: 'f',
    kind: 'list',
    arg: 'strings',
    help: 'Files or directories to validate ("-" reads stdin). Repeat the flag or\nseparate names with commas. Directories are walked for .json, .yaml and .yml files.',
  },
  { long: 'namespace', short: 'n', kind: 'string', arg: 'string', help: 'Namespace given to Istio resources that have none (default "default").' },
  {
    long: 'istioNamespace',
    short: 'i',
    kind: 'string',
    arg: 'string',
    help: 'Istio system namespace: its Services and Deployments are not checked (default "istio-system").',
  },
  { long: 'help', short: 'h', kind: 'bool', help: 'Help for validate.' },
  // Accepted for istioctl compatibility; they change nothing offline.
  { long: 'referential', short: 'x', kind: 'bool', help: '', hidden: true },
  { long: 'context', kind: 'string', help: '', hidden: true },
  { long: 'as', kind: 'string', help: '', hidden: true },
  { long: 'as-group', kind: 'list', help: '', hidden: true },
  { long: 'as-uid', kind: 'string', help: '', hidden: true },
  { long: 'kubeclient-timeout', kind: 'string', help: '', hidden: true },
  { long: 'vklog', kind: 'string', help: '', hidden: true },
];

export function validateHelp(): string {
  return `Check Istio resources the way Istio's validating webhook would, offline, like
"istioctl validate -f". Services and Deployments are also checked against Istio's
deployment requirements (port names, app/version labels); other kinds pass.

Usage:
  mesh-workbench validate -f FILENAME [flags]

Aliases:
  validate, v

Examples:
  # Validate one file
  mesh-workbench validate -f samples/bookinfo/networking/bookinfo-gateway.yaml

  # Validate every .yaml, .yml and .json file under a directory
  mesh-workbench validate -f samples/bookinfo/networking

  # Validate what kubectl prints
  kubectl get deployments,services -o yaml | mesh-workbench validate -f -

  # Also see 'mesh-workbench analyze', which checks resources against each other
  mesh-workbench analyze samples/bookinfo/networking/bookinfo-gateway.yaml

Flags:
${flagHelp(VALIDATE_FLAGS)}

Output (all on stderr, as istioctl writes it):
  "FILE" is valid                  a file with no error and no warning
  "FILE" has warnings: ...         a file with webhook warnings, one "* Kind/ns/name: ..." a line
  validation succeed               stdin (-f -) with no error and no warning
  Error: N errors occurred: ...    every error, one "* ..." a line, prefixed with Kind/namespace/name

Exit codes:
  0   no error (warnings do not fail)
  1   an error in some document, or an input that cannot be read
  64  bad command line (unknown flag, or an argument without -f)
`;
}

// ---- Go-style errors ------------------------------------------------------------------------

/** hashicorp/go-multierror's default text. */
function multierrorText(errs: readonly string[]): string {
  const points = errs.map((e) => `* ${e}`);
  if (points.length === 1) return `1 error occurred:\n\t${points[0]}\n\n`;
  return `${points.length} errors occurred:\n\t${points.join('\n\t')}\n\n`;
}

/** istioctl's warningToString: each warning on its own `\t* ` line. */
function warningsText(ws: readonly string[]): string {
  return `\n\t${ws.map((w) => `* ${w}`).join('\n\t')}\n`;
}

/** What Go's %T and %v say for a decoded JSON value (unstructured's types). */
function goTypeAndValue(v: unknown): [string, string] {
  if (v === null || v === undefined) return ['<nil>', '<nil>'];
  if (typeof v === 'boolean') return ['bool', String(v)];
  if (typeof v === 'bigint') return ['int64', String(v)];
  if (typeof v === 'number') return Number.isInteger(v) ? ['int64', String(v)] : ['float64', String(v)];
  if (Array.isArray(v)) return ['[]interface {}', `[${v.map((x) => goTypeAndValue(x)[1]).join(' ')}]`];
  if (typeof v === 'object') {
    const entries = Object.entries(v as Obj).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return ['map[string]interface {}', `map[${entries.map(([k, x]) => `${k}:${goTypeAndValue(x)[1]}`).join(' ')}]`];
  }
  return ['string', String(v)];
}

/** unstructured.NestedStringMap: the map, undefined when absent, or the accessor error. */
function nestedStringMap(o: unknown, fields: readonly string[]): { map?: Record<string, string>; error?: string } {
  let cur: unknown = o;
  for (const f of fields) {
    if (!isObj(cur) || !Object.hasOwn(cur, f)) return {};
    cur = cur[f];
  }
  const path = `.${fields.join('.')}`;
  if (cur === null || cur === undefined) return {};
  if (!isObj(cur)) {
    const [t, v] = goTypeAndValue(cur);
    return { error: `${path} accessor error: ${v} is of the type ${t}, expected map[string]interface{}` };
  }
  const out = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(cur)) {
    if (typeof v !== 'string') {
      const [t, val] = goTypeAndValue(v);
      return { error: `${path} accessor error: contains non-string value in the map under key ${goQuote(k)}: ${val} is of the type ${t}, expected string` };
    }
    out[k] = v;
  }
  return { map: out };
}

/** Go's %q of a map[string]string: keys sorted. */
function goQuotedMap(m: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(m ?? {}).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[${keys.map((k) => `${goQuote(k)}:${goQuote((m as Record<string, string>)[k] as string)}`).join(' ')}]`;
}

// ---- unstructured accessors ------------------------------------------------------------------

const strField = (o: unknown, ...path: string[]): string => {
  let cur = o;
  for (const p of path) {
    if (!isObj(cur)) return '';
    cur = cur[p];
  }
  return typeof cur === 'string' ? cur : '';
};

/** un.GroupVersionKind(): group and version from apiVersion (empty when it has several slashes). */
function groupVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (apiVersion === '' || parts.length > 2) return { group: '', version: '' };
  return parts.length === 1 ? { group: '', version: apiVersion } : { group: parts[0] as string, version: parts[1] as string };
}

/** The webhook's kind id for an Istio kind istioctl validates (collections.Pilot), by group, version alias and kind. */
export function pilotKindId(apiVersion: string, kind: string): string | undefined {
  const { group, version } = groupVersion(apiVersion);
  const info = kindByGroupKind(group, kind);
  if (!info || !versionAccepted(info, version) || !WEBHOOK_VALIDATORS[info.id]) return undefined;
  return info.id;
}

/** The proto message of each kind's spec (jsonpb names it in its errors). */
const SPEC_MESSAGES: ReadonlyMap<string, string> = new Map(ISTIO_KINDS.map((k) => [`${k.group}/${k.kind}`, k.spec]));

/**
 * Strict jsonpb's unknown-field check (AllowUnknownFields false): the first key, in jsonpb's
 * visiting order (fields in .proto order, nested messages as they are reached, then the
 * message's own leftover keys), that is no field of its message by proto or JSON name.
 */
function unknownField(message: string, v: unknown, depth = 0): string | undefined {
  const fields = MESSAGES[message];
  if (!fields || !isObj(v) || depth > 100) return undefined;
  const left = new Set(Object.keys(v));
  for (const f of fields) {
    const names = f[1] === 0 ? [f[0]] : [f[0], f[1]];
    for (const name of names) {
      if (!left.has(name)) continue;
      left.delete(name);
      const value = v[name];
      if (f[2] === 'map') {
        if (isObj(value))
          for (const x of Object.values(value)) {
            const r = unknownField(f[4] as string, x, depth + 1);
            if (r) return r;
          }
      } else if (f[2] === 'repeated') {
        if (Array.isArray(value))
          for (const x of value) {
            const r = unknownField(f[3], x, depth + 1);
            if (r) return r;
          }
      } else {
        const r = unknownField(f[3], value, depth + 1);
        if (r) return r;
      }
    }
  }
  // Go ranges over a map here: with several leftovers, istioctl names any one; we the first.
  const [first] = left;
  return first === undefined ? undefined : `unknown field ${goQuote(first)} in ${message}`;
}

/**
 * What istioctl's config.ApplyJSONStrict says of the spec (legacy jsonpb, strict): a type or
 * enum error, as the jsonpb decoder of src/core/validation/jsonpb words it (in istioctl
 * analyze's context, re-worded for a bare spec), else an unknown field; undefined when it decodes.
 */
function specDecodeError(kindId: string, spec: unknown): string | undefined {
  if (spec === undefined || spec === null) return undefined;
  const slash = kindId.indexOf('/');
  const group = kindId.slice(0, slash);
  const kind = kindId.slice(slash + 1);
  const analyzeText = istioctlDecodeError(kind, group, { spec });
  const typeError = analyzeText?.startsWith(ANALYZE_PREFIX)
    ? analyzeText.slice(ANALYZE_PREFIX.length).replace(/ into Go struct field \S+ of type /, ' into Go value of type ')
    : undefined;
  const message = SPEC_MESSAGES.get(kindId);
  const err = typeError ?? (message ? unknownField(message, spec) : undefined);
  return err === undefined ? undefined : `cannot parse proto message: ${err}`;
}

const ANALYZE_PREFIX = 'failed parsing JSON for built-in type: ';

export interface ValidateOptions {
  /** -n: the namespace of Istio resources without one ("default" when empty). */
  defaultNamespace: string;
  /** -i: Services and Deployments there are not checked. */
  istioNamespace: string;
  /** Deployment notices, written as they are found (istioctl prints them at once). */
  notice: (s: string) => void;
}

interface ResourceVerdict {
  errors: string[];
  warnings: string[];
}

/** The Service port checks (validateServicePortPrefix). */
function servicePortErrors(un: Obj, opts: ValidateOptions): string[] {
  const name = strField(un, 'metadata', 'name');
  const ns = strField(un, 'metadata', 'namespace');
  if (ns === opts.istioNamespace) return [];
  const who = goQuote(`${name}/${ns}/:`);
  const errs: string[] = [];
  const spec = isObj(un.spec) ? un.spec : {};
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  for (const port of ports) {
    const p = isObj(port) ? port : {};
    if (typeof p.protocol === 'string' && p.protocol.toUpperCase() === 'UDP') continue;
    if (p.appProtocol !== undefined && p.appProtocol !== null) {
      if (parseProtocol(String(p.appProtocol)) === 'UnsupportedProtocol') {
        errs.push(`service ${who} doesn't follow Istio protocol selection. This is not recommended, See ${PROTOCOL_SELECTION}`);
      }
      continue;
    }
    if (p.name === undefined || p.name === null) {
      errs.push(`service ${who} has an unnamed port. This is not recommended, See ${DEPLOYMENT_REQUIREMENTS}`);
      continue;
    }
    const portName = String(p.name);
    const dash = portName.indexOf('-');
    if (parseProtocol(dash >= 0 ? portName.slice(0, dash) : portName) === 'UnsupportedProtocol') {
      errs.push(`service ${who} port ${goQuote(portName)} does not follow the Istio naming convention. See ${DEPLOYMENT_REQUIREMENTS}`);
    }
  }
  return errs;
}

const NAME_LABELS = ['service.istio.io/canonical-name', 'app.kubernetes.io/name', 'app'];
const REVISION_LABELS = ['service.istio.io/canonical-revision', 'app.kubernetes.io/version', 'version'];

/** The Deployment label check (validateDeploymentLabel): a notice, or the labels' accessor error. */
function deploymentLabelErrors(un: Obj, opts: ValidateOptions): string[] {
  const name = strField(un, 'metadata', 'name');
  const ns = strField(un, 'metadata', 'namespace');
  if (ns === opts.istioNamespace) return [];
  let labels: Record<string, string> | undefined;
  const spec = un.spec;
  if (isObj(spec) && isObj(spec.template)) {
    const r = nestedStringMap(spec.template, ['metadata', 'labels']);
    if (r.error) return [r.error];
    labels = r.map;
  }
  const hasAny = (keys: string[]) => keys.some((k) => labels !== undefined && Object.hasOwn(labels, k));
  if (!hasAny(NAME_LABELS) || !hasAny(REVISION_LABELS)) {
    opts.notice(
      `deployment ${goQuote(`${name}/${ns}:`)} may not provide Istio metrics and telemetry labels: ${goQuotedMap(labels)}. See ${DEPLOYMENT_REQUIREMENTS}\n`,
    );
  }
  return [];
}

/** validateResource: one decoded document's errors and warnings (without the Kind/ns/name prefix). */
export function validateObject(un: Obj, opts: ValidateOptions): ResourceVerdict {
  const apiVersion = strField(un, 'apiVersion');
  const kind = strField(un, 'kind');
  const kindId = pilotKindId(apiVersion, kind);
  if (kindId) {
    // istioctl decodes the spec with the legacy jsonpb decoder first ("cannot parse proto
    // message: ...") and stops there.
    const decodeError = specDecodeError(kindId, un.spec);
    if (decodeError) return { errors: [decodeError], warnings: [] };
    const unknown = Object.keys(un).filter((k) => !VALID_FIELDS.has(k));
    if (unknown.length > 0) return { errors: unknown.map((k) => `unknown field ${goQuote(k)}`), warnings: [] };
    const meta = isObj(un.metadata) ? un.metadata : {};
    const labels = nestedStringMap(meta, ['labels']).map;
    const annotations = nestedStringMap(meta, ['annotations']).map;
    const findings = validateWebhook({
      kindId,
      name: strField(meta, 'name'),
      namespace: strField(meta, 'namespace') || opts.defaultNamespace || 'default',
      ...(labels ? { labels } : {}),
      ...(annotations ? { annotations } : {}),
      spec: un.spec,
    });
    return {
      errors: findings.filter((f) => f.level === 'error').map((f) => f.message),
      warnings: findings.filter((f) => f.level === 'warning').map((f) => f.message),
    };
  }
  // A List (any kind with an `items` array): its Services and Deployments.
  if (Array.isArray(un.items)) {
    const errs: string[] = [];
    for (const item of un.items) {
      // EachListItem stops at the first item that is not an object.
      if (!isObj(item)) break;
      const k = strField(item, 'kind');
      if (k === 'Service') errs.push(...servicePortErrors(item, opts));
      if (k === 'Deployment') errs.push(...deploymentLabelErrors(item, opts));
    }
    if (errs.length > 0) return { errors: errs, warnings: [] };
  }
  if (kind === 'Service') return { errors: servicePortErrors(un, opts), warnings: [] };
  if (kind === 'Deployment') return { errors: deploymentLabelErrors(un, opts), warnings: [] };
  // IstioOperator: istioctl checks its top-level fields, then the operator's own validation
  // (not reproduced here).
  if (apiVersion === 'install.istio.io/v1alpha1' && kind === 'IstioOperator') {
    const unknown = Object.keys(un).filter((k) => !VALID_FIELDS.has(k));
    if (unknown.length > 0) return { errors: unknown.map((k) => `unknown field ${goQuote(k)}`), warnings: [] };
  }
  // Non-Istio Kubernetes YAML: nothing to say.
  return { errors: [], warnings: [] };
}

/** The JS type name Go's JSON decoder would give a document that is not a mapping. */
function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return 'number';
}

interface DocLines {
  text: string;
  startLine: number;
  separatorInChunk?: boolean;
}

/** A line of the document as go-yaml counts it in istioctl's chunk (which may begin with the separator). */
const chunkLine = (doc: DocLines, docLine: number): number => docLine + (doc.separatorInChunk ? 1 : 0);

/** The 1-based line of an offset in the document text. */
function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * sigs.k8s.io/yaml.UnmarshalStrict's error for repeated keys: go-yaml's `line N: key "k"
 * already set in map`, one line per repeat, N the line of the later value in the chunk.
 */
function duplicateKeysText(doc: DocLines, dups: readonly { message: string; start: number }[]): string {
  const lines = dups.map((d) => {
    const m = /line (\d+): (key .* already set in map)$/.exec(d.message);
    if (m) return `\n  line ${chunkLine(doc, Number(m[1]))}: ${m[2]}`;
    // A JSON document's duplicate names a field path, not a line: the earlier key's line.
    const field = /duplicate field "(?:.*\.)?([^".[\]]*)(?:\[\d+\])*"$/.exec(d.message)?.[1] ?? '';
    return `\n  line ${chunkLine(doc, lineAt(doc.text, d.start))}: key ${goQuote(field)} already set in map`;
  });
  return `error converting YAML to JSON: yaml: unmarshal errors:${lines.join('')}`;
}

/** go-yaml's text for a document our parser rejected (the reason is our parser's words). */
function decodeErrorText(doc: DocLines, problems: readonly { code: string; message: string; line?: number }[]): string {
  const dups = problems.filter((p) => p.code === PARSER_CODES.duplicateKey);
  if (dups.length > 0) {
    const lines = dups.map((p) => {
      const key = /^Duplicate key (.*?): the later value wins/.exec(p.message)?.[1] ?? p.message;
      return `\n  line ${chunkLine(doc, (p.line ?? doc.startLine) - doc.startLine + 1)}: key ${goQuote(key)} already set in map`;
    });
    return `error converting YAML to JSON: yaml: unmarshal errors:${lines.join('')}`;
  }
  const first = problems[0] as { message: string; line?: number };
  return `error converting YAML to JSON: yaml: line ${chunkLine(doc, (first.line ?? doc.startLine) - doc.startLine + 1)}: ${first.message.replace(/^YAML syntax error( \(as kubectl reads YAML\))?: /, '')}`;
}

export interface FileVerdict {
  errors: string[];
  warnings: string[];
}

/** validateFile: every document of one input, in order; a document that cannot be decoded ends the file. */
export function validateText(path: string, text: string, opts: ValidateOptions): FileVerdict {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const doc of splitDocuments(path, text)) {
    if (doc.text.length === 0) continue;
    const parsed = parseSourceDocument(doc);
    const problems = parsed.problems.filter((p) => p.code !== PARSER_CODES.largeFile);
    if (problems.length > 0) {
      errors.push(`failed to decode file ${path}:  ${decodeErrorText(doc, problems)}`);
      break;
    }
    // Repeated keys: the parser keeps the later value, istioctl's strict reader refuses the document.
    const dups = (parsed as { duplicateKeys?: readonly { message: string; start: number }[] }).duplicateKeys;
    if (dups && dups.length > 0) {
      errors.push(`failed to decode file ${path}:  ${duplicateKeysText(doc, dups)}`);
      break;
    }
    const value = parsed.value;
    if (value === null || value === undefined) continue;
    if (!isObj(value)) {
      errors.push(
        `failed to decode file ${path}:  error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${jsonTypeName(value)} into Go value of type map[string]interface {}`,
      );
      break;
    }
    const v = validateObject(value, opts);
    const prefix = `${strField(value, 'kind')}/${strField(value, 'metadata', 'namespace')}/${strField(value, 'metadata', 'name')}:`;
    for (const e of v.errors) errors.push(`${prefix} ${e}`);
    for (const w of v.warnings) warnings.push(`${prefix} ${w}`);
  }
  return { errors, warnings };
}

// ---- the command ---------------------------------------------------------------------------

function errnoText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'ENOENT') return 'no such file or directory';
  if (err.code === 'EACCES') return 'permission denied';
  if (err.code === 'EISDIR') return 'is a directory';
  if (err.code === 'ENOTDIR') return 'not a directory';
  return err.message ?? String(e);
}

const extOf = (p: string): string => {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
};

/** pflag's StringSlice: each value is a CSV record (commas separate, quotes group). */
function splitCsv(v: string): string[] {
  if (v === '') return [];
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i] as string;
    if (quoted) {
      if (c === '"' && v[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"' && cur === '') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

export async function runValidate(argv: readonly string[], io: CliIo): Promise<number> {
  let filenames: string[];
  let opts: ValidateOptions;
  try {
    const parsed = parseArgs(argv, VALIDATE_FLAGS);
    if (parsed.values.get('help') === true) {
      io.stdout(validateHelp());
      return VALIDATE_EXIT_OK;
    }
    if (parsed.positionals.length > 0) throw new UsageError(`unknown command ${goQuote(parsed.positionals[0] as string)} for "mesh-workbench validate"`);
    filenames = ((parsed.values.get('filename') as string[] | undefined) ?? []).flatMap(splitCsv);
    opts = {
      defaultNamespace: (parsed.values.get('namespace') as string | undefined) ?? '',
      istioNamespace: (parsed.values.get('istioNamespace') as string | undefined) || 'istio-system',
      notice: (s) => io.stderr(s),
    };
  } catch (e) {
    if (e instanceof UsageError) {
      // istioctl prints the error alone and exits 64.
      io.stderr(`Error: ${e.message}\n`);
      return VALIDATE_EXIT_USAGE;
    }
    throw e;
  }
  if (filenames.length === 0) {
    io.stderr(`Error: ${MISSING_FILENAME}\n`);
    return VALIDATE_EXIT_ERROR;
  }

  const errs: string[] = [];
  const warningsByFile = new Map<string, string[]>();
  // Names in the order first processed (istioctl keeps a Go map, so its order varies).
  const processed = new Set<string>();
  let stdinUsed = false;

  const processFile = async (path: string): Promise<void> => {
    let text: string;
    if (path === '-') {
      // A second `-` finds stdin at its end.
      try {
        text = stdinUsed ? '' : await io.stdin();
      } catch (e) {
        if (!(e instanceof InputTooLargeError)) throw e;
        errs.push(`cannot read file "-": ${e.detail}`);
        return;
      } finally {
        stdinUsed = true;
      }
    } else {
      try {
        text = decodeFileBytes(await readCapped(resolve(io.cwd, path), path));
      } catch (e) {
        if (e instanceof InputTooLargeError) errs.push(`cannot read file ${goQuote(path)}: ${e.detail}`);
        else errs.push(`cannot read file ${goQuote(path)}: open ${path}: ${errnoText(e)}`);
        return;
      }
    }
    const v = validateText(path, text, opts);
    errs.push(...v.errors);
    warningsByFile.set(path, v.warnings);
  };

  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(resolve(io.cwd, dir), { withFileTypes: true });
    } catch (e) {
      errs.push(`open ${dir}: ${errnoText(e)}`);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const ent of entries) {
      const p = join(dir, ent.name);
      if (ent.isDirectory()) await walk(p);
      else if (FILE_EXTENSIONS.includes(extOf(p))) {
        await processFile(p);
        processed.add(p);
      }
    }
  };

  for (const filename of filenames) {
    let isDir = false;
    if (filename !== '-') {
      try {
        isDir = (await stat(resolve(io.cwd, filename))).isDirectory();
      } catch (e) {
        errs.push(`cannot stat file ${goQuote(filename)}: stat ${filename}: ${errnoText(e)}`);
        continue;
      }
    }
    if (!isDir) {
      await processFile(filename);
      processed.add(filename);
      continue;
    }
    await walk(filename);
  }

  const warningLine = (fname: string, ws: string[]): string => (fname === '-' ? warningsText(ws) : `${goQuote(fname)} has warnings: ${warningsText(ws)}\n`);
  if (errs.length > 0) {
    // The warnings found, then the errors.
    for (const fname of processed) {
      const ws = warningsByFile.get(fname);
      if (ws && ws.length > 0) {
        io.stderr(warningLine(fname, ws));
        if (fname === '-') break;
      }
    }
    io.stderr(`Error: ${multierrorText(errs)}\n`);
    return VALIDATE_EXIT_ERROR;
  }
  for (const fname of processed) {
    const ws = warningsByFile.get(fname) ?? [];
    if (fname === '-') {
      // istioctl stops listing at stdin.
      io.stderr(ws.length > 0 ? warningsText(ws) : 'validation succeed\n');
      break;
    }
    io.stderr(ws.length > 0 ? warningLine(fname, ws) : `${goQuote(fname)} is valid\n`);
  }
  return VALIDATE_EXIT_OK;
}
