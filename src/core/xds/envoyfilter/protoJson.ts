// Proto semantics over proto3 JSON, as istiod applies EnvoyFilter patch values:
//   - a patch value is read as the message its applyTo names, the way protojson's non-strict
//     unmarshal reads it (either field spelling; unknown fields dropped; a JSON type that does
//     not fit the field fails the whole value), and we keep it in canonical proto3 JSON
//     (lowerCamelCase keys, enum names, implicit-presence zero values left out, since Go's
//     proto merge never sees them);
//   - MERGE is istio's pkg/proto/merge: scalars replace, repeated fields append (or are
//     replaced for MERGE_AND_REPLACE_LIST), map entries replace per key, messages merge field
//     by field, setting a oneof member clears its siblings, Duration replaces whole;
//   - MergeAnyWithAny merges two Any payloads of the same type as their messages.
// Types the descriptors lack are kept opaque: their JSON is merged without a schema (objects
// recurse, arrays append, the rest replaces) and the caller is told.
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { envoyMessage } from './schemaSource.ts';
import type { Obj } from '../../document/read.ts';

/** An untyped JSON object: the one such type (document/read.ts Obj), under the name this module has always used. */
export type Json = Obj;

function isPlain(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function cloneJson<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** The message a type URL names, if the descriptors have it. */
export function messageForTypeUrl(typeUrl: string): DescMessage | undefined {
  const slash = typeUrl.lastIndexOf('/');
  return envoyMessage(slash >= 0 ? typeUrl.slice(slash + 1) : typeUrl);
}

export function messageNamed(typeName: string): DescMessage | undefined {
  return envoyMessage(typeName);
}

// Well-known types whose JSON form is not an object of their fields.
const SPECIAL_JSON = new Set([
  'google.protobuf.Duration',
  'google.protobuf.Timestamp',
  'google.protobuf.FieldMask',
  'google.protobuf.Struct',
  'google.protobuf.Value',
  'google.protobuf.ListValue',
  'google.protobuf.DoubleValue',
  'google.protobuf.FloatValue',
  'google.protobuf.Int64Value',
  'google.protobuf.UInt64Value',
  'google.protobuf.Int32Value',
  'google.protobuf.UInt32Value',
  'google.protobuf.BoolValue',
  'google.protobuf.StringValue',
  'google.protobuf.BytesValue',
]);
const ANY = 'google.protobuf.Any';
const DISCARDED = Symbol('discarded');
const KNOWN_PACKAGES = ['envoy.', 'xds.', 'udpa.', 'istio.', 'google.', 'io.prometheus.', 'opencensus.', 'opentelemetry.', 'validate.'];

interface Plan {
  byKey: Map<string, DescField>;
  order: Map<string, number>;
}
const plans = new WeakMap<DescMessage, Plan>();

function planOf(desc: DescMessage): Plan {
  let p = plans.get(desc);
  if (p) return p;
  const byKey = new Map<string, DescField>();
  const order = new Map<string, number>();
  desc.fields.forEach((f, i) => {
    byKey.set(f.name, f);
    byKey.set(f.jsonName, f);
    order.set(f.jsonName, i);
  });
  p = { byKey, order };
  plans.set(desc, p);
  return p;
}

/** Why a patch value could not be read (protojson would have refused it). */
export class ValueError extends Error {}

export interface ReadResult {
  value: Json;
  /** Any payloads whose type the descriptors lack (kept as written). */
  opaqueTypes: string[];
}

/** Reads `raw` as the message `typeName` (protojson, DiscardUnknown). Throws ValueError. */
export function readMessage(raw: unknown, typeName: string): ReadResult {
  const desc = messageNamed(typeName);
  if (!desc) throw new ValueError(`no descriptor for ${typeName}`);
  const opaque: string[] = [];
  const value = readMsg(raw, desc, '$', opaque);
  return { value, opaqueTypes: opaque };
}

function readMsg(raw: unknown, desc: DescMessage, path: string, opaque: string[]): Json {
  if (desc.typeName === ANY) return readAny(raw, path, opaque);
  if (!isPlain(raw)) throw new ValueError(`${path}: ${desc.typeName} must be an object`);
  const plan = planOf(desc);
  const out: Json = {};
  for (const [k, v] of Object.entries(raw)) {
    const f = plan.byKey.get(k);
    if (!f) continue; // unknown fields are discarded, as the non-strict unmarshal does
    if (v === null) continue; // null means "not set"
    const read = readField(v, f, `${path}.${k}`, opaque);
    if (read !== undefined) out[f.jsonName] = read;
  }
  return ordered(out, desc);
}

function readAny(raw: unknown, path: string, opaque: string[]): Json {
  if (!isPlain(raw)) throw new ValueError(`${path}: Any must be an object`);
  const t = raw['@type'];
  if (typeof t !== 'string' || t === '') {
    if (Object.keys(raw).length === 0) return {};
    throw new ValueError(`${path}: Any without @type`);
  }
  const inner = messageForTypeUrl(t);
  if (!inner) {
    // istiod resolves every Envoy, xDS and Istio type; our descriptors hold fewer. A type from
    // those packages is taken as written; any other cannot be resolved by istiod either.
    const name = t.slice(t.lastIndexOf('/') + 1);
    if (!KNOWN_PACKAGES.some((p) => name.startsWith(p))) throw new ValueError(`${path}: unable to resolve ${t}`);
    opaque.push(t);
    return cloneJson(raw);
  }
  if (SPECIAL_JSON.has(inner.typeName)) return cloneJson(raw);
  const rest: Json = {};
  for (const [k, v] of Object.entries(raw)) if (k !== '@type') rest[k] = v;
  return { '@type': t, ...readMsg(rest, inner, path, opaque) };
}

function isZeroScalar(v: unknown): boolean {
  return v === '' || v === 0 || v === false || v === '0';
}

function readField(v: unknown, f: DescField, path: string, opaque: string[]): unknown {
  // Fields with implicit presence that hold their zero value are not set at all.
  const implicit = f.presence === 2 && f.oneof === undefined;
  switch (f.fieldKind) {
    case 'scalar': {
      const x = readScalar(v, f.scalar, path);
      if (implicit && isZeroScalar(x)) return undefined;
      return x;
    }
    case 'enum': {
      if (typeof v === 'number') {
        if (!Number.isInteger(v)) throw new ValueError(`${path}: ${v} is not an enum number`);
        // Numbers outside the enum are kept (proto3 enums are open), as numbers.
        const byNumber = f.enum.values.find((e) => e.number === v);
        if (implicit && v === 0) return undefined;
        return byNumber ? byNumber.name : v;
      }
      if (typeof v !== 'string') throw new ValueError(`${path}: ${JSON.stringify(v)} is not a ${f.enum.typeName} value`);
      const val = f.enum.values.find((e) => e.name === v);
      // An unknown name is discarded, like an unknown field.
      if (!val || (implicit && val.number === 0)) return undefined;
      return val.name;
    }
    case 'message':
      return readMsgValue(v, f.message, path, opaque);
    case 'list': {
      if (!Array.isArray(v)) throw new ValueError(`${path}: expected a list`);
      const items = v
        .map((item, i) => {
          if (f.listKind === 'message') return readMsgValue(item, f.message, `${path}[${i}]`, opaque);
          if (f.listKind === 'enum') {
            const val = typeof item === 'number' ? f.enum.values.find((e) => e.number === item) : f.enum.values.find((e) => e.name === item);
            if (typeof item !== 'number' && typeof item !== 'string')
              throw new ValueError(`${path}[${i}]: ${JSON.stringify(item)} is not a ${f.enum.typeName} value`);
            // Unknown names are discarded (marked here, dropped below); unknown numbers are kept.
            return val ? val.name : typeof item === 'number' ? item : DISCARDED;
          }
          return readScalar(item, f.scalar, `${path}[${i}]`);
        })
        .filter((x) => x !== DISCARDED);
      return items.length === 0 ? undefined : items;
    }
    case 'map': {
      if (!isPlain(v)) throw new ValueError(`${path}: expected a map`);
      const out: Json = {};
      for (const [k, item] of Object.entries(v)) {
        if (f.mapKind === 'message') out[k] = readMsgValue(item, f.message, `${path}.${k}`, opaque);
        else out[k] = item;
      }
      return Object.keys(out).length === 0 ? undefined : out;
    }
  }
}

const NUMBER_WRAPPERS: Record<string, ScalarType> = {
  'google.protobuf.DoubleValue': ScalarType.DOUBLE,
  'google.protobuf.FloatValue': ScalarType.FLOAT,
  'google.protobuf.Int32Value': ScalarType.INT32,
  'google.protobuf.UInt32Value': ScalarType.UINT32,
  'google.protobuf.Int64Value': ScalarType.INT64,
  'google.protobuf.UInt64Value': ScalarType.UINT64,
};

// 32-bit integers and floats are JSON numbers; 64-bit integers are decimal strings (the form
// Go's marshaller writes); protojson accepts either spelling on input.
const NUMBER_SCALARS = new Set([
  ScalarType.DOUBLE,
  ScalarType.FLOAT,
  ScalarType.INT32,
  ScalarType.UINT32,
  ScalarType.SINT32,
  ScalarType.FIXED32,
  ScalarType.SFIXED32,
]);
const LONG_SCALARS = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

const INT_SCALARS = new Set([ScalarType.INT32, ScalarType.UINT32, ScalarType.SINT32, ScalarType.FIXED32, ScalarType.SFIXED32]);

/** A scalar as protojson reads it: the JSON type must fit the field, else the value is refused. */
function readScalar(v: unknown, t: ScalarType, path: string): unknown {
  const bad = (what: string) => new ValueError(`${path}: ${JSON.stringify(v)} is not ${what}`);
  if (t === ScalarType.BOOL) {
    if (typeof v !== 'boolean') throw bad('a bool');
    return v;
  }
  if (t === ScalarType.STRING || t === ScalarType.BYTES) {
    if (typeof v !== 'string') throw bad('a string');
    return v;
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (NUMBER_SCALARS.has(t)) {
    if (typeof v === 'string' && (v === 'NaN' || v === 'Infinity' || v === '-Infinity') && !INT_SCALARS.has(t)) return v;
    if (!Number.isFinite(n) || (INT_SCALARS.has(t) && !Number.isInteger(n))) throw bad('a number of this field');
    return n;
  }
  if (LONG_SCALARS.has(t)) {
    if (typeof v === 'number' && Number.isInteger(v)) return String(v);
    if (typeof v === 'string' && /^-?\d+$/.test(v)) return v;
    throw bad('a 64-bit integer');
  }
  return v;
}

function readMsgValue(v: unknown, desc: DescMessage, path: string, opaque: string[]): unknown {
  const wrapped = NUMBER_WRAPPERS[desc.typeName];
  if (wrapped !== undefined) return readScalar(v, wrapped, path);
  if (SPECIAL_JSON.has(desc.typeName)) return cloneJson(v);
  return readMsg(v, desc, path, opaque);
}

/** Puts a message's keys in declaration order (`@type` first), as Go's marshaller writes them. */
function ordered(o: Json, desc: DescMessage): Json {
  const { order } = planOf(desc);
  const keys = Object.keys(o);
  const sorted = [...keys].sort((a, b) => rank(a, order) - rank(b, order));
  if (sorted.every((k, i) => k === keys[i])) return o;
  const out: Json = {};
  for (const k of sorted) out[k] = o[k];
  return out;
}

function rank(k: string, order: Map<string, number>): number {
  if (k === '@type') return -1;
  return order.get(k) ?? 1e6;
}

// ---- merge ---------------------------------------------------------------------------

export interface MergeOptions {
  /** MERGE_AND_REPLACE_LIST: a list the patch sets replaces the existing one. */
  replaceList?: boolean;
  /** Set when a part was merged without a schema (an opaque Any). */
  schemaless?: string[];
}

/**
 * proto.Merge(dst, src) for message `typeName`: returns the merged message (a new object;
 * `dst` is not modified). `src` is a value read by readMessage.
 */
export function mergeMessage(dst: Json, src: Json, typeName: string, opts: MergeOptions = {}): Json {
  const desc = messageNamed(typeName);
  if (!desc) {
    opts.schemaless?.push(typeName);
    return mergeSchemaless(dst, src);
  }
  return mergeMsg(dst, src, desc, opts);
}

function mergeMsg(dst: Json, src: Json, desc: DescMessage, opts: MergeOptions): Json {
  if (desc.typeName === ANY) return mergeAnyField(dst, src);
  const plan = planOf(desc);
  const out: Json = { ...dst };
  for (const [k, sv] of Object.entries(src)) {
    const f = plan.byKey.get(k);
    if (!f) {
      out[k] = cloneJson(sv);
      continue;
    }
    const key = f.jsonName;
    const existing = out[key] !== undefined ? out[key] : out[f.name];
    if (f.name !== key) delete out[f.name];
    // Setting one member of a oneof clears the others.
    if (f.oneof) {
      for (const sib of f.oneof.fields) {
        if (sib === f) continue;
        delete out[sib.jsonName];
        delete out[sib.name];
      }
    }
    out[key] = mergeField(existing, sv, f, opts);
  }
  return ordered(out, desc);
}

function mergeField(dv: unknown, sv: unknown, f: DescField, opts: MergeOptions): unknown {
  switch (f.fieldKind) {
    case 'list': {
      const add = cloneJson(sv as unknown[]);
      if (opts.replaceList || !Array.isArray(dv)) return add;
      return [...dv, ...add];
    }
    case 'map':
      return { ...(isPlain(dv) ? dv : {}), ...cloneJson(sv as Json) };
    case 'message':
      return mergeMessageValue(dv, sv, f.message, opts);
    default:
      return cloneJson(sv);
  }
}

function mergeMessageValue(dv: unknown, sv: unknown, desc: DescMessage, opts: MergeOptions): unknown {
  switch (desc.typeName) {
    case 'google.protobuf.Struct':
      // A map of Values: entries replace per key.
      return { ...(isPlain(dv) ? dv : {}), ...cloneJson(sv as Json) };
    case 'google.protobuf.ListValue':
      return [...(Array.isArray(dv) ? dv : []), ...cloneJson(sv as unknown[])];
    case 'google.protobuf.Value':
      if (isPlain(dv) && isPlain(sv)) return { ...dv, ...cloneJson(sv) };
      if (Array.isArray(dv) && Array.isArray(sv)) return [...dv, ...cloneJson(sv)];
      return cloneJson(sv);
    case 'google.protobuf.FieldMask': {
      const d = typeof dv === 'string' && dv !== '' ? [dv] : [];
      return [...d, String(sv)].join(',');
    }
    case ANY:
      return mergeAnyField(dv, sv);
  }
  // Duration (istio's merge replaces it whole), Timestamp and the wrappers: their JSON is
  // their whole value.
  if (SPECIAL_JSON.has(desc.typeName)) return cloneJson(sv);
  return mergeMsg(isPlain(dv) ? dv : {}, sv as Json, desc, opts);
}

/**
 * Proto merge of two Any fields: type_url and the serialized bytes are scalars, so the patch's
 * payload replaces the existing one, unless it is empty (empty bytes are not set), when only
 * the type URL changes.
 */
function mergeAnyField(dv: unknown, sv: unknown): Json {
  const s = sv as Json;
  const sBody = Object.keys(s).filter((k) => k !== '@type');
  if (sBody.length > 0 || !isPlain(dv)) return cloneJson(s);
  const out: Json = { ...dv };
  if (typeof s['@type'] === 'string' && s['@type'] !== '') {
    delete out['@type'];
    return { '@type': s['@type'], ...out };
  }
  return out;
}

function mergeSchemaless(dst: Json, src: Json): Json {
  const out: Json = { ...dst };
  for (const [k, sv] of Object.entries(src)) {
    const dv = out[k];
    if (isPlain(dv) && isPlain(sv)) out[k] = mergeSchemaless(dv, sv);
    else if (Array.isArray(dv) && Array.isArray(sv)) out[k] = [...dv, ...cloneJson(sv)];
    else out[k] = cloneJson(sv);
  }
  return out;
}

export type AnyMergeResult = { ok: true; value: Json } | { ok: false; reason: string /** Payload types differ: istiod's merge panics. */; panics: boolean };

/**
 * util.MergeAnyWithAny: both payloads unpacked as their messages, merged, packed again.
 * Payloads of different types make istiod's merge panic; the caller keeps the original then.
 */
export function mergeAnyWithAny(dst: Json, src: Json, opts: MergeOptions = {}): AnyMergeResult {
  const dt = dst['@type'];
  const st = src['@type'];
  if (typeof dt !== 'string' || typeof st !== 'string') return { ok: false, reason: 'Any without @type', panics: false };
  // Both are unpacked by the message name their URL ends with, so only that has to agree.
  const name = (u: string) => u.slice(u.lastIndexOf('/') + 1);
  if (name(dt) !== name(st)) return { ok: false, reason: `cannot merge ${st} into ${dt}`, panics: true };
  const desc = messageForTypeUrl(dt);
  const strip = (o: Json): Json => {
    const r: Json = {};
    for (const [k, v] of Object.entries(o)) if (k !== '@type') r[k] = v;
    return r;
  };
  if (!desc || SPECIAL_JSON.has(desc.typeName)) {
    opts.schemaless?.push(dt);
    return { ok: true, value: { '@type': dt, ...mergeSchemaless(strip(dst), strip(src)) } };
  }
  return { ok: true, value: { '@type': dt, ...mergeMsg(strip(dst), strip(src), desc, { ...opts, replaceList: false }) } };
}
