// Reading an Envoy admin `/config_dump` (or what `istioctl proxy-config all -o json|yaml`
// prints, which is the same document) defensively: any text gives either a ConfigDump or one
// clear message, never an exception. Sections keep their JSON as it came; the renderers read
// fields through the accessors below, which accept proto field names (`dynamic_active_clusters`,
// what Envoy writes) and lowerCamel JSON names (`dynamicActiveClusters`) alike, as protojson does.
import { parse as parseYaml } from 'yaml';
import { isObj } from '../../document/read.ts';

/** A JSON object (not null, not an array). */
const isObject = isObj as (v: unknown) => v is JsonObject;

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

const PREFIX = 'type.googleapis.com/';

/** Config dump section type URLs (istioctl/pkg/util/configdump/util.go). */
export const SECTION = {
  bootstrap: `${PREFIX}envoy.admin.v3.BootstrapConfigDump`,
  listeners: `${PREFIX}envoy.admin.v3.ListenersConfigDump`,
  endpoints: `${PREFIX}envoy.admin.v3.EndpointsConfigDump`,
  clusters: `${PREFIX}envoy.admin.v3.ClustersConfigDump`,
  routes: `${PREFIX}envoy.admin.v3.RoutesConfigDump`,
  secrets: `${PREFIX}envoy.admin.v3.SecretsConfigDump`,
  ecds: `${PREFIX}envoy.admin.v3.EcdsConfigDump`,
} as const;

/** Largest text we read (a real dump of a big mesh is tens of MB). */
export const MAX_DUMP_BYTES = 256 * 1024 * 1024;
/** Deepest nesting we accept; Envoy's own dumps stay far below. */
export const MAX_DEPTH = 512;

/** What istioctl prefixes to a dump it cannot read (configdump.go Prime). */
export const UNMARSHAL_PREFIX = 'error unmarshalling config dump response from Envoy: ';

export interface DumpSection {
  /** The section's `@type`. */
  typeUrl: string;
  value: JsonObject;
  /** Position in `configs`. */
  index: number;
}

/** An error istioctl reports as it is (e.g. `config dump has no configuration type …`). */
export class ConfigDumpError extends Error {}

export class ConfigDump {
  constructor(
    readonly configs: readonly DumpSection[],
    /** Things skipped while reading (entries without `@type`, …). */
    readonly warnings: readonly string[] = [],
  ) {}

  /** The last section of a type, as istioctl's getSection (it keeps the last match); throws istioctl's error when absent. */
  section(typeUrl: string): JsonObject {
    const s = this.optionalSection(typeUrl);
    if (!s) throw new ConfigDumpError(`config dump has no configuration type ${typeUrl}`);
    return s;
  }

  optionalSection(typeUrl: string): JsonObject | undefined {
    let found: JsonObject | undefined;
    for (const c of this.configs) if (c.typeUrl === typeUrl) found = c.value;
    return found;
  }

  /** Every section of a type (ECDS may come in several). */
  sections(typeUrl: string): JsonObject[] {
    return this.configs.filter((c) => c.typeUrl === typeUrl).map((c) => c.value);
  }

  /** The document as JSON value (`{configs: […]}`), for tests and re-serialisation. */
  toJson(): JsonObject {
    return { configs: this.configs.map((c) => c.value) };
  }
}

export type ReadResult = { ok: true; dump: ConfigDump } | { ok: false; error: string };

function lineCol(text: string, pos: number): string {
  let line = 1;
  let col = 1;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      col = 1;
    } else col++;
  }
  return `line ${line}, column ${col}`;
}

function describeJsonError(text: string, e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const m = /at position (\d+)/.exec(msg);
  const core = msg
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/,? ?"(?:[^"\\]|\\.)*"(?:\.\.\.)? is not valid JSON/, '')
    .replace(/ in JSON at position \d+/, '');
  return m ? `invalid JSON at ${lineCol(text, Number(m[1]))}: ${core}` : `invalid JSON: ${core}`;
}

/** Deepest nesting of a parsed value, counted without recursion. */
export function nestingDepth(value: unknown, limit = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
    }
  }
  return max;
}

/** Parses dump text: JSON (Envoy's admin output), or YAML (`istioctl proxy-config all -o yaml`). */
export function parseDumpText(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.length > MAX_DUMP_BYTES) return { ok: false, error: `input is ${text.length} bytes; the limit is ${MAX_DUMP_BYTES}` };
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = /\S/.exec(body);
  if (!first) return { ok: false, error: 'the input is empty' };
  let value: unknown;
  if (first[0] === '{' || first[0] === '[') {
    try {
      value = JSON.parse(body);
    } catch (e) {
      return { ok: false, error: describeJsonError(body, e) };
    }
  } else {
    if (/[\0-\x08\x0e-\x1f]/.test(body.slice(0, 4096))) return { ok: false, error: 'the input is binary, not JSON or YAML' };
    try {
      value = parseYaml(body, { maxAliasCount: 100, uniqueKeys: false, version: '1.2' });
    } catch (e) {
      return { ok: false, error: `neither JSON nor YAML: ${(e as Error)?.message ?? String(e)}` };
    }
  }
  if (nestingDepth(value, MAX_DEPTH) > MAX_DEPTH) return { ok: false, error: `the document nests deeper than ${MAX_DEPTH} levels` };
  return { ok: true, value };
}

/**
 * A config dump from a parsed value: `{configs: [...]}` as Envoy writes it; also a bare list
 * of sections, or a single section (`{"@type": "…ConfigDump", …}`), as people paste them.
 */
export function configDumpFromValue(value: unknown): ReadResult {
  let configs: unknown;
  if (isObject(value) && 'configs' in value) configs = value.configs;
  else if (Array.isArray(value)) configs = value;
  else if (isObject(value) && typeof value['@type'] === 'string') configs = [value];
  else if (isObject(value))
    return {
      ok: false,
      error: 'not an Envoy config dump: the object has no "configs" list (expected the output of /config_dump or istioctl proxy-config all -o json)',
    };
  else return { ok: false, error: `not an Envoy config dump: the document is ${value === null ? 'null' : typeof value}, not an object` };
  if (configs === null || configs === undefined) configs = [];
  if (!Array.isArray(configs)) return { ok: false, error: `not an Envoy config dump: "configs" is ${typeof configs}, not a list` };
  const sections: DumpSection[] = [];
  const warnings: string[] = [];
  configs.forEach((c, index) => {
    if (!isObject(c)) {
      warnings.push(`configs[${index}] is not an object; skipped`);
      return;
    }
    const t = c['@type'];
    if (typeof t !== 'string' || t === '') {
      warnings.push(`configs[${index}] has no "@type"; skipped`);
      return;
    }
    sections.push({ typeUrl: t, value: c, index });
  });
  return { ok: true, dump: new ConfigDump(sections, warnings) };
}

/** Reads dump text; the error of a failed read reads like istioctl's. */
export function readConfigDump(text: string): ReadResult {
  const parsed = parseDumpText(text);
  if (!parsed.ok) return { ok: false, error: UNMARSHAL_PREFIX + parsed.error };
  const r = configDumpFromValue(parsed.value);
  return r.ok ? r : { ok: false, error: UNMARSHAL_PREFIX + r.error };
}

// ---- field access -------------------------------------------------------------------------

const jsonNames = new Map<string, string>();

/** lowerCamel JSON name of a proto field name (protoc's default json_name). */
export function jsonName(protoName: string): string {
  let j = jsonNames.get(protoName);
  if (j === undefined) {
    j = protoName.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/_/g, '');
    if (jsonNames.size < 10000) jsonNames.set(protoName, j);
  }
  return j;
}

/** A field by its proto name, also found under its JSON name. */
export function field(o: unknown, protoName: string): JsonValue | undefined {
  if (!isObject(o)) return undefined;
  if (Object.hasOwn(o, protoName)) return o[protoName];
  const j = jsonName(protoName);
  return j !== protoName && Object.hasOwn(o, j) ? o[j] : undefined;
}

export function asObject(v: unknown): JsonObject | undefined {
  return isObject(v) ? v : undefined;
}

/** The object at a path of proto field names, or undefined. */
export function objAt(o: unknown, ...path: string[]): JsonObject | undefined {
  let cur: unknown = o;
  for (const p of path) cur = field(cur, p);
  return asObject(cur);
}

/** A list field (empty when absent or not a list, as Go's getters give nil). */
export function list(o: unknown, protoName: string): JsonValue[] {
  const v = field(o, protoName);
  return Array.isArray(v) ? v : [];
}

/** A string field ('' when absent or not a string). */
export function str(o: unknown, protoName: string): string {
  const v = field(o, protoName);
  return typeof v === 'string' ? v : '';
}

/** A numeric field (proto JSON may write 64-bit numbers as strings); 0 when absent. */
export function num(o: unknown, protoName: string): number {
  return toNumber(field(o, protoName));
}

export function toNumber(v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v.trim())) return Number(v);
  return 0;
}

/** A wrapper (`google.protobuf.UInt32Value` …): JSON writes the bare value. */
export function wrapped(o: unknown, protoName: string): number | undefined {
  const v = field(o, protoName);
  if (v === undefined || v === null) return undefined;
  if (isObject(v)) return toNumber(v.value);
  return toNumber(v);
}

/** The `@type` of an Any ('' when absent). */
export function typeUrlOf(any: unknown): string {
  return isObject(any) && typeof any['@type'] === 'string' ? any['@type'] : '';
}
