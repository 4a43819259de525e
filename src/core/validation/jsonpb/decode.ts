// How `istioctl analyze --use-kube=false` decodes one Istio resource, as a pure function.
//
// istioctl's file reader (pilot/pkg/config/file/store.go, parseChunk) turns the YAML document
// into JSON with sigs.k8s.io/yaml (json.Marshal of a Go map: keys sorted), then decodes it into
// the typed client-go object with the UniversalDeserializer of k8s.io/apimachinery (non-strict:
// sigs.k8s.io/json's case-sensitive fork of encoding/json). `metadata` is Kubernetes'
// ObjectMeta; `spec` and `status` are istio.io/api messages whose UnmarshalJSON
// (*_json.gen.go) is golang/protobuf's legacy jsonpb with AllowUnknownFields
// (github.com/golang/protobuf@v1.5.4/jsonpb/decode.go). The rules below follow those sources:
//
// - jsonpb visits a message's fields in .proto declaration order; for each it takes the value
//   under the proto name, then the one under the json name (which wins when both are there);
//   null skips a field (except a singular google.protobuf.Value); other keys are ignored.
// - Scalars go through encoding/json's Unmarshal: integers and floats after stripping one pair
//   of surrounding quotes from the raw JSON (trimQuote), bool, string and bytes as they are.
//   An enum takes a quoted name (which must exist) or any int32 number.
// - An *json.UnmarshalTypeError from inside spec/status is given the outer decoder's context,
//   "Go struct field <Kind>.spec"; other errors pass through as they are. The outer decoder
//   stops at an error from spec/status (their UnmarshalJSON), but only records the first type
//   error elsewhere (metadata) and goes on.

import { goJSONSyntaxError } from '../webhook/goJson.ts';
import { ENUMS, ISTIO_KINDS, MESSAGES, type ProtoField } from './istioProtos.gen.ts';
import { goBase64Error } from '../../go/base64.ts';
import { goDurationError } from '../../go/duration.ts';
import { goQuote } from '../../go/fmt.ts';
import { goJsonFloat, goJsonString } from '../../go/format.ts';
import { goParseRFC3339Error } from '../../go/time.ts';

/** A Go error: an encoding/json UnmarshalTypeError (which gets context), or any other text. */
type GoError = { value: string; goType: string; field?: string; struct?: string } | { text: string };

class Fail {
  constructor(readonly err: GoError) {}
}

function errorText(e: GoError): string {
  if ('text' in e) return e.text;
  if (e.struct !== undefined || e.field !== undefined) {
    return `json: cannot unmarshal ${e.value} into Go struct field ${e.struct ?? ''}.${e.field ?? ''} of type ${e.goType}`;
  }
  return `json: cannot unmarshal ${e.value} into Go value of type ${e.goType}`;
}

const typeError = (value: string, goType: string): Fail => new Fail({ value, goType });
const textError = (text: string): Fail => new Fail({ text });

// ---------------------------------------------------------------- JSON values as Go sees them

type JSONKind = 'null' | 'bool' | 'number' | 'string' | 'array' | 'object';

function kindOf(v: unknown): JSONKind {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return kindOf(v) === 'object';
}

/** The raw JSON text of a scalar, as sigs.k8s.io/yaml's json.Marshal writes it. */
function rawScalar(v: unknown): string {
  switch (kindOf(v)) {
    case 'null':
      return 'null';
    case 'bool':
      return v ? 'true' : 'false';
    case 'number':
      return typeof v === 'bigint' ? v.toString() : goJsonFloat(v as number);
    case 'string':
      return goJsonString(v as string);
    default:
      return '';
  }
}

/** A decoded JSON value: its kind, the JS value and, for numbers, the literal. */
interface Lit {
  kind: JSONKind;
  value: unknown;
  literal: string;
}

function litOf(v: unknown): Lit {
  const kind = kindOf(v);
  return { kind, value: v, literal: kind === 'number' ? rawScalar(v) : '' };
}

/** Parse raw JSON text the way json.Unmarshal starts: syntax check, then the top value. */
function litOfText(text: string): Lit {
  const syntax = goJSONSyntaxError(text);
  if (syntax !== undefined) throw textError(syntax);
  const t = text.trim();
  const c = t[0];
  if (c === 'n') return { kind: 'null', value: null, literal: '' };
  if (c === 't' || c === 'f') return { kind: 'bool', value: c === 't', literal: '' };
  if (c === '"') return { kind: 'string', value: JSON.parse(t), literal: '' };
  if (c === '{') return { kind: 'object', value: JSON.parse(t), literal: '' };
  if (c === '[') return { kind: 'array', value: JSON.parse(t), literal: '' };
  return { kind: 'number', value: Number(t), literal: t };
}

type GoScalar = 'bool' | 'string' | 'int32' | 'int64' | 'uint32' | 'uint64' | 'float32' | 'float64' | 'protoreflect.EnumNumber' | '[]uint8' | 'uint8';

const INT_RANGE: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  'protoreflect.EnumNumber': [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  uint8: [0n, 255n],
};

/** json.Unmarshal of one literal into a Go scalar: throws on error. */
function storeScalar(lit: Lit, target: GoScalar): void {
  switch (lit.kind) {
    case 'null':
      return;
    case 'bool':
      if (target === 'bool') return;
      throw typeError('bool', target);
    case 'string':
      if (target === 'string') return;
      if (target === '[]uint8') {
        const err = goBase64Error(lit.value as string);
        if (err !== undefined) throw textError(err);
        return;
      }
      throw typeError('string', target);
    case 'number': {
      const range = INT_RANGE[target];
      if (range) {
        // strconv.ParseInt / ParseUint of the literal, then the target's range.
        if (!/^-?[0-9]+$/.test(lit.literal)) throw typeError('number ' + lit.literal, target);
        const n = BigInt(lit.literal);
        if (n < range[0] || n > range[1] || (target.startsWith('uint') && lit.literal.startsWith('-'))) {
          throw typeError('number ' + lit.literal, target);
        }
        return;
      }
      if (target === 'float64' || target === 'float32') {
        const f = Number(lit.literal);
        if (!Number.isFinite(f) || (target === 'float32' && !Number.isFinite(Math.fround(f)))) {
          throw typeError('number ' + lit.literal, target);
        }
        return;
      }
      throw typeError('number', target);
    }
    case 'object':
      throw typeError('object', target);
    case 'array':
      if (target === '[]uint8') {
        // a JSON array of numbers fills a []byte element by element
        for (const e of lit.value as unknown[]) storeScalar(litOf(e), 'uint8');
        return;
      }
      throw typeError('array', target);
  }
}

/** legacy jsonpb's trimQuote: strip one pair of surrounding quotes from the raw JSON. */
function trimQuote(raw: string): string {
  return raw.length >= 2 && raw[0] === '"' && raw[raw.length - 1] === '"' ? raw.slice(1, -1) : raw;
}

/** json.Unmarshal(trimQuote(raw), target) for a number field. */
function storeTrimmed(v: unknown, target: GoScalar): void {
  const kind = kindOf(v);
  if (kind === 'string') {
    storeScalar(litOfText(trimQuote(rawScalar(v))), target);
    return;
  }
  storeScalar(litOf(v), target);
}

const RAW_MAP = 'map[string]json.RawMessage';
const RAW_LIST = '[]json.RawMessage';

/** json.Unmarshal(in, &map[string]json.RawMessage) or &[]json.RawMessage. */
function expectContainer(v: unknown, want: 'object' | 'array'): void {
  const kind = kindOf(v);
  if (kind === want || kind === 'null') return;
  throw typeError(kind === 'number' ? 'number' : kind, want === 'object' ? RAW_MAP : RAW_LIST);
}

// ---------------------------------------------------------------- legacy jsonpb

/** The wrapper messages: their one `value` field's proto scalar type. */
const WRAPPERS: Record<string, string> = {
  'google.protobuf.BoolValue': 'bool',
  'google.protobuf.BytesValue': 'bytes',
  'google.protobuf.StringValue': 'string',
  'google.protobuf.Int32Value': 'int32',
  'google.protobuf.UInt32Value': 'uint32',
  'google.protobuf.FloatValue': 'float',
  'google.protobuf.Int64Value': 'int64',
  'google.protobuf.UInt64Value': 'uint64',
  'google.protobuf.DoubleValue': 'double',
};

const NON_FINITE = new Set(['"NaN"', '"Infinity"', '"-Infinity"']);

/** Field types by proto scalar name: what jsonpb unmarshals into. */
function unmarshalScalarField(type: string, v: unknown): void {
  switch (type) {
    case 'bool':
      return storeScalar(litOf(v), 'bool');
    case 'string':
      return storeScalar(litOf(v), 'string');
    case 'bytes':
      return storeScalar(litOf(v), '[]uint8');
    case 'int32':
    case 'sint32':
    case 'sfixed32':
      return storeTrimmed(v, 'int32');
    case 'int64':
    case 'sint64':
    case 'sfixed64':
      return storeTrimmed(v, 'int64');
    case 'uint32':
    case 'fixed32':
      return storeTrimmed(v, 'uint32');
    case 'uint64':
    case 'fixed64':
      return storeTrimmed(v, 'uint64');
    case 'float':
    case 'double':
      if (kindOf(v) === 'string' && NON_FINITE.has(rawScalar(v))) return;
      return storeTrimmed(v, type === 'float' ? 'float32' : 'float64');
    default:
      throw new Error(`jsonpb: unknown scalar ${type}`);
  }
}

function unmarshalSingular(type: string, v: unknown): void {
  if (type.startsWith('enum:')) {
    const full = type.slice(5);
    if (kindOf(v) === 'string') {
      const raw = rawScalar(v);
      const name = trimQuote(raw);
      if (!Object.hasOwn(ENUMS[full] ?? {}, name)) {
        throw textError(`unknown value ${goQuote(raw)} for enum ${full}`);
      }
      return;
    }
    return storeScalar(litOf(v), 'protoreflect.EnumNumber');
  }
  if (MESSAGES[type] !== undefined || type.startsWith('google.protobuf.')) return unmarshalMessage(type, v);
  return unmarshalScalarField(type, v);
}

function isSingularWellKnownValue(f: ProtoField): boolean {
  if (f[2] === 'repeated' || f[2] === 'map') return false;
  return f[3] === 'google.protobuf.Value' || f[3] === 'enum:google.protobuf.NullValue';
}

/** A map key of a non-string type: jsonpb unmarshals the bare key text as that type's JSON. */
function unmarshalMapKey(type: string, key: string): void {
  const go = KEY_TYPES[type];
  if (go === undefined) throw new Error(`jsonpb: map key type ${type}`);
  storeScalar(litOfText(go === 'bool' ? key : trimQuote(key)), go);
}

const KEY_TYPES: Record<string, GoScalar> = {
  bool: 'bool',
  int32: 'int32',
  sint32: 'int32',
  sfixed32: 'int32',
  int64: 'int64',
  sint64: 'int64',
  sfixed64: 'int64',
  uint32: 'uint32',
  fixed32: 'uint32',
  uint64: 'uint64',
  fixed64: 'uint64',
};

function unmarshalField(f: ProtoField, v: unknown): void {
  if (f[2] === 'repeated') {
    expectContainer(v, 'array');
    for (const e of v as unknown[]) unmarshalSingular(f[3], e);
    return;
  }
  if (f[2] === 'map') {
    expectContainer(v, 'object');
    const keyType = f[3];
    for (const [key, e] of Object.entries(v as Record<string, unknown>)) {
      if (keyType !== 'string') unmarshalMapKey(keyType, key);
      unmarshalSingular(f[4] as string, e);
    }
    return;
  }
  unmarshalSingular(f[3], v);
}

function unmarshalWellKnown(name: string, v: unknown): boolean {
  const wrapper = WRAPPERS[name];
  if (wrapper !== undefined) {
    unmarshalScalarField(wrapper, v);
    return true;
  }
  switch (name) {
    case 'google.protobuf.Duration': {
      storeScalar(litOf(v), 'string'); // unquoteString: json.Unmarshal(in, &string)
      const err = goDurationError(v as string);
      if (err !== undefined) throw textError(`bad Duration: ${err}`);
      return true;
    }
    case 'google.protobuf.Timestamp': {
      storeScalar(litOf(v), 'string');
      const err = goParseRFC3339Error(v as string, true);
      if (err !== undefined) throw textError(`bad Timestamp: ${err}`);
      return true;
    }
    case 'google.protobuf.Value':
      unmarshalValueWKT(v);
      return true;
    case 'google.protobuf.ListValue':
      if (kindOf(v) !== 'array') throw textError(`bad ListValue: ${errorText(typeError(kindOf(v), RAW_LIST).err)}`);
      for (const e of v as unknown[]) unmarshalValueWKT(e);
      return true;
    case 'google.protobuf.Struct':
      if (kindOf(v) !== 'object') throw textError(`bad StructValue: ${errorText(typeError(kindOf(v), RAW_MAP).err)}`);
      for (const [key, e] of Object.entries(v as Record<string, unknown>)) {
        try {
          unmarshalValueWKT(e);
        } catch (x) {
          if (x instanceof Fail) throw textError(`bad value in StructValue for key ${goQuote(key)}: ${errorText(x.err)}`);
          throw x;
        }
      }
      return true;
    case 'google.protobuf.Any':
      unmarshalAny(v);
      return true;
    case 'google.protobuf.Empty':
      expectContainer(v, 'object');
      return true;
    default:
      return false;
  }
}

/** google.protobuf.Value: judged on the raw JSON's first and last characters. */
function unmarshalValueWKT(v: unknown): void {
  switch (kindOf(v)) {
    case 'null':
    case 'bool':
    case 'string':
      return;
    case 'array':
      for (const e of v as unknown[]) unmarshalValueWKT(e);
      return;
    case 'object':
      for (const e of Object.values(v as Record<string, unknown>)) unmarshalValueWKT(e);
      return;
    case 'number': {
      const raw = rawScalar(v);
      if (!Number.isFinite(Number(raw))) throw textError(`unrecognized type for Value ${goQuote(raw)}`);
      return;
    }
  }
}

/**
 * google.protobuf.Any. No Istio CRD field has this type; istioctl resolves the type URL in
 * the global registry of everything it links in, which this approximates with the Istio
 * messages and the well-known types.
 */
function unmarshalAny(v: unknown): void {
  expectContainer(v, 'object');
  if (v === null) return;
  const obj = v as Record<string, unknown>;
  if (!Object.hasOwn(obj, '@type')) throw textError("Any JSON doesn't have '@type'");
  const t = obj['@type'];
  if (typeof t !== 'string') throw textError(`can't unmarshal Any's '@type': ${goQuote(rawScalar(t))}`);
  const name = t.slice(t.lastIndexOf('/') + 1);
  const known = MESSAGES[name] !== undefined || WRAPPERS[name] !== undefined || name.startsWith('google.protobuf.');
  if (!known) throw textError(`could not resolve Any message type: ${t}`);
  const wellKnown = name.startsWith('google.protobuf.') && name !== 'google.protobuf.Empty';
  if (wellKnown && !Object.hasOwn(obj, 'value')) throw textError("Any JSON doesn't have 'value'");
  try {
    if (wellKnown) {
      unmarshalMessage(name, obj.value);
    } else {
      const rest = { ...obj };
      delete rest['@type'];
      unmarshalMessage(name, rest);
    }
  } catch (x) {
    if (x instanceof Fail) throw textError(`can't unmarshal Any nested proto ${t}: ${errorText(x.err)}`);
    throw x;
  }
}

function unmarshalMessage(name: string, v: unknown): void {
  if (kindOf(v) === 'null' && name !== 'google.protobuf.Value') return;
  if (name.startsWith('google.protobuf.') && unmarshalWellKnown(name, v)) return;
  const fields = MESSAGES[name];
  if (fields === undefined) throw new Error(`jsonpb: no message ${name}`);
  expectContainer(v, 'object');
  const obj = v as Record<string, unknown>;
  const has = (k: string) => Object.hasOwn(obj, k);
  for (const f of fields) {
    let raw: unknown;
    let found = false;
    if (has(f[0])) {
      raw = obj[f[0]];
      found = true;
    }
    const json = f[1] === 0 ? f[0] : f[1];
    if (has(json)) {
      raw = obj[json];
      found = true;
    }
    if (!found || (kindOf(raw) === 'null' && !isSingularWellKnownValue(f))) continue;
    unmarshalField(f, raw);
  }
}

// ---------------------------------------------------------------- Kubernetes ObjectMeta

type GoType =
  | { t: 'scalar'; go: GoScalar; name?: string }
  | { t: 'map'; name: string; elem: GoType }
  | { t: 'slice'; name: string; elem: GoType }
  | { t: 'struct'; name: string; fields: Record<string, GoType> }
  | { t: 'time' }
  | { t: 'rawJSON' };

const str: GoType = { t: 'scalar', go: 'string' };
const named = (name: string): GoType => ({ t: 'scalar', go: 'string', name });
const stringMap: GoType = { t: 'map', name: 'map[string]string', elem: str };
const OWNER_REFERENCE: GoType = {
  t: 'struct',
  name: 'v1.OwnerReference',
  fields: {
    apiVersion: str,
    kind: str,
    name: str,
    uid: named('types.UID'),
    controller: { t: 'scalar', go: 'bool' },
    blockOwnerDeletion: { t: 'scalar', go: 'bool' },
  },
};
const MANAGED_FIELDS_ENTRY: GoType = {
  t: 'struct',
  name: 'v1.ManagedFieldsEntry',
  fields: {
    manager: str,
    operation: named('v1.ManagedFieldsOperationType'),
    apiVersion: str,
    time: { t: 'time' },
    fieldsType: str,
    fieldsV1: { t: 'rawJSON' },
    subresource: str,
  },
};
const OBJECT_META: GoType = {
  t: 'struct',
  name: 'v1.ObjectMeta',
  fields: {
    name: str,
    generateName: str,
    namespace: str,
    selfLink: str,
    uid: named('types.UID'),
    resourceVersion: str,
    generation: { t: 'scalar', go: 'int64' },
    creationTimestamp: { t: 'time' },
    deletionTimestamp: { t: 'time' },
    deletionGracePeriodSeconds: { t: 'scalar', go: 'int64' },
    labels: stringMap,
    annotations: stringMap,
    ownerReferences: { t: 'slice', name: '[]v1.OwnerReference', elem: OWNER_REFERENCE },
    finalizers: { t: 'slice', name: '[]string', elem: str },
    managedFields: { t: 'slice', name: '[]v1.ManagedFieldsEntry', elem: MANAGED_FIELDS_ENTRY },
  },
};

/** The outer decoder (sigs.k8s.io/json, case-sensitive) over Go types. */
class OuterDecoder {
  saved: GoError | undefined;
  struct = '';
  stack: string[] = [];

  /** encoding/json's addErrorContext. */
  withContext(e: GoError): GoError {
    if ('text' in e || (this.struct === '' && this.stack.length === 0)) return e;
    return { ...e, struct: this.struct, field: this.stack.join('.') };
  }

  save(e: GoError): void {
    if (this.saved === undefined) this.saved = this.withContext(e);
  }

  /** Soft errors are saved; errors from an UnmarshalJSON method are thrown (with context). */
  value(type: GoType, v: unknown): void {
    const kind = kindOf(v);
    switch (type.t) {
      case 'scalar':
        try {
          storeScalar(litOf(v), type.go);
        } catch (x) {
          if (!(x instanceof Fail)) throw x;
          const e = x.err;
          this.save('text' in e ? e : { ...e, goType: type.name ?? e.goType });
        }
        return;
      case 'rawJSON':
        return;
      case 'time': {
        if (kind === 'null') return;
        if (kind !== 'string') throw new Fail(this.withContext({ value: kind, goType: 'string' }));
        const err = goParseRFC3339Error(v as string, false);
        if (err !== undefined) throw textError(err);
        return;
      }
      case 'map':
      case 'slice': {
        if (kind === 'null') return;
        const want = type.t === 'map' ? 'object' : 'array';
        if (kind !== want) {
          this.save({ value: kind, goType: type.name });
          return;
        }
        const values = type.t === 'map' ? Object.values(v as Record<string, unknown>) : (v as unknown[]);
        for (const e of values) this.value(type.elem, e);
        return;
      }
      case 'struct': {
        if (kind === 'null') return;
        if (kind !== 'object') {
          this.save({ value: kind, goType: type.name });
          return;
        }
        const outerStruct = this.struct;
        const depth = this.stack.length;
        for (const key of Object.keys(v as object).sort()) {
          const ft = type.fields[key];
          if (ft === undefined) continue;
          this.struct = type.name.slice(type.name.indexOf('.') + 1);
          this.stack.push(key);
          this.value(ft, (v as Record<string, unknown>)[key]);
          this.stack.length = depth;
          this.struct = outerStruct;
        }
        return;
      }
    }
  }
}

function hasNonFinite(v: unknown): string | undefined {
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
  if (Array.isArray(v)) {
    for (const e of v) {
      const r = hasNonFinite(e);
      if (r) return r;
    }
  } else if (isObject(v)) {
    for (const e of Object.values(v)) {
      const r = hasNonFinite(e);
      if (r) return r;
    }
  }
  return undefined;
}

const KINDS = new Map(ISTIO_KINDS.map((k) => [`${k.group}/${k.kind}`, k]));

/**
 * undefined when istioctl decodes `object` (a whole parsed document of `kind` in `group`),
 * else the text istioctl prints after `error processing <file>[<n>]: `. Kinds whose spec is
 * not an istio.io/api message give undefined.
 */
export function istioctlDecodeError(kind: string, group: string, object: unknown): string | undefined {
  const info = KINDS.get(`${group}/${kind}`);
  if (info === undefined || !isObject(object)) return undefined;
  const nonFinite = hasNonFinite(object);
  if (nonFinite !== undefined) return `failed converting YAML to JSON: json: unsupported value: ${nonFinite}`;

  const outer = new OuterDecoder();
  try {
    // json.Marshal sorted the document's keys; the decoder meets them in that order.
    for (const key of Object.keys(object).sort()) {
      const v = object[key];
      outer.struct = kind;
      outer.stack = [key];
      if (key === 'metadata') outer.value(OBJECT_META, v);
      else if (key === 'apiVersion' || key === 'kind') outer.value(str, v);
      else if (key === 'spec' || (key === 'status' && info.status !== undefined)) {
        const message = key === 'spec' ? info.spec : (info.status as string);
        try {
          unmarshalMessage(message, v);
        } catch (x) {
          if (x instanceof Fail) throw new Fail(outer.withContext(x.err));
          throw x;
        }
      }
    }
  } catch (x) {
    if (x instanceof Fail) return `failed parsing JSON for built-in type: ${errorText(x.err)}`;
    throw x;
  }
  return outer.saved === undefined ? undefined : `failed parsing JSON for built-in type: ${errorText(outer.saved)}`;
}

/** A message legacy jsonpb decodes field by field (not a well-known type). */
function isPlainMessage(type: string): boolean {
  return !type.startsWith('google.protobuf.') && MESSAGES[type] !== undefined;
}

/** `v` (a `name` message) with every null element of a repeated message field as `{}`; `v` itself when it has none. */
function emptyNullElements(name: string, v: unknown): unknown {
  const fields = MESSAGES[name];
  if (fields === undefined || !isObject(v)) return v;
  let out: Record<string, unknown> | undefined;
  for (const f of fields) {
    const type = f[2] === 'map' ? (f[4] as string) : f[3];
    if (!isPlainMessage(type)) continue;
    for (const key of new Set([f[0], f[1] === 0 ? f[0] : f[1]])) {
      if (!Object.hasOwn(v, key)) continue;
      const raw = v[key];
      let fixed: unknown = raw;
      if (f[2] === 'repeated' && Array.isArray(raw)) {
        const elems = raw.map((e) => (e === null ? {} : emptyNullElements(type, e)));
        if (elems.some((e, i) => e !== raw[i])) fixed = elems;
      } else if (f[2] === 'map' && isObject(raw)) {
        let changed = false;
        const entries = Object.entries(raw).map(([k, e]) => {
          const x = emptyNullElements(type, e);
          if (x !== e) changed = true;
          return [k, x] as const;
        });
        if (changed) fixed = Object.fromEntries(entries);
      } else if (f[2] !== 'repeated' && f[2] !== 'map') {
        fixed = emptyNullElements(type, raw);
      }
      if (fixed !== raw) (out ??= { ...v })[key] = fixed;
    }
  }
  return out ?? v;
}

/**
 * The object as istioctl hands it to its analyzers: legacy jsonpb decodes a null element of a
 * repeated message field (`subsets: [null]`) as an empty message, where the webhook's decoder
 * keeps nil. Undefined when the object has no such element (or is no Istio kind).
 */
export function istioctlDecodedObject(kind: string, group: string, object: unknown): Record<string, unknown> | undefined {
  const info = KINDS.get(`${group}/${kind}`);
  if (info === undefined || !isObject(object)) return undefined;
  let out: Record<string, unknown> | undefined;
  for (const [key, message] of [
    ['spec', info.spec],
    ['status', info.status],
  ] as const) {
    if (message === undefined || !Object.hasOwn(object, key)) continue;
    const fixed = emptyNullElements(message, object[key]);
    if (fixed !== object[key]) (out ??= { ...object })[key] = fixed;
  }
  return out;
}
