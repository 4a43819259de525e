// Proto messages given as proto JSON (what Envoy dumps) printed the way istioctl prints them:
// golang/protobuf's jsonpb Marshaler (fields in declaration order under their JSON names,
// zero values of fields without presence left out, 64-bit integers quoted, map keys sorted,
// well-known types in their JSON forms, its Indent layout with the extra level for maps,
// lists and Struct), and encoding/json's MarshalIndent for istioctl's `MessageSlice` output.
//
// Input field names may be proto names or JSON names (as protojson accepts); unknown fields
// are dropped (istioctl reads dumps with DiscardUnknown). A type the schema does not know
// (an Istio-specific Any) is written as it came, keys turned to lowerCamel.
import { encodeBase64Std } from '../../pki/base64.ts';
import { decodeBase64Std } from '../../pki/base64.ts';
import { goJsonFloat, goJsonString } from '../../go/format.ts';
import { formatProtoDuration, parseProtoDuration } from '../../go/protoDuration.ts';
import { jsonName, type JsonObject, type JsonValue } from './dump.ts';
import type { ProtoField, ProtoSchema } from './protoSchema.ts';
import { goLess } from './table.ts';
import { isObj } from '../../document/read.ts';

/** A JSON object (not null, not an array). */
const isObject = isObj as (v: unknown) => v is JsonObject;

export interface ProtoJsonOptions {
  /** jsonpb's Indent ('' = compact). */
  indent?: string;
}

const SCALARS = new Set([
  'double',
  'float',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
  'bool',
  'string',
  'bytes',
]);
const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const WRAPPERS = new Set(['BoolValue', 'BytesValue', 'StringValue', 'Int32Value', 'UInt32Value', 'FloatValue', 'Int64Value', 'UInt64Value', 'DoubleValue']);
const GOOGLE = 'google.protobuf.';

/**
 * A value of the wrong type shown as text. A dump is parsed JSON, so an object here is plain
 * data: `String()` would call a `toString` key (and throw on `"toString": 0`), JSON does not.
 */
function asText(v: JsonValue): string {
  return typeof v === 'string' ? v : v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function own(o: JsonObject, k: string): boolean {
  return Object.hasOwn(o, k);
}

function rawField(o: JsonObject, f: ProtoField): JsonValue | undefined {
  if (own(o, f.name)) return o[f.name];
  if (own(o, f.jsonName)) return o[f.jsonName];
  return undefined;
}

function toBigInt(v: JsonValue): bigint | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  if (typeof v === 'string') {
    const s = v.trim();
    if (/^-?\d+$/.test(s)) return BigInt(s);
    if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(s) && Number.isFinite(Number(s))) return BigInt(Math.trunc(Number(s)));
  }
  return undefined;
}

function toFloat(v: JsonValue): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    if (v === 'NaN') return NaN;
    if (v === 'Infinity') return Infinity;
    if (v === '-Infinity') return -Infinity;
    const n = Number(v);
    return v.trim() !== '' && !Number.isNaN(n) ? n : undefined;
  }
  return undefined;
}

/** Standard padded base64 of a proto JSON bytes value (which may be URL-safe or unpadded). */
function normalizeBase64(v: string): string {
  let b64 = v
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .replace(/[\r\n]/g, '');
  if (b64.length % 4 !== 0) b64 += '='.repeat(4 - (b64.length % 4));
  const bytes = decodeBase64Std(b64);
  return bytes ? encodeBase64Std(bytes) : v;
}

function trimFraction(x: string): string {
  if (x.endsWith('000')) x = x.slice(0, -3);
  if (x.endsWith('000')) x = x.slice(0, -3);
  if (x.endsWith('.000')) x = x.slice(0, -4);
  return x;
}

/** jsonpb's Duration text from a proto JSON duration (`"1.5s"`); undefined when unparsable. */
export function formatDuration(v: JsonValue): string | undefined {
  const ns = parseProtoDuration(v);
  return ns === undefined ? undefined : `"${formatProtoDuration(ns)}"`;
}

/** jsonpb's Timestamp text (UTC, 0/3/6/9 fraction digits); undefined when unparsable. */
export function formatTimestamp(v: JsonValue): string | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/.exec(v);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  let offset = 0;
  const z = m[8]!;
  if (z !== 'Z' && z !== 'z') offset = (z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(4, 6)));
  const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, se));
  date.setUTCFullYear(y);
  const t = new Date(date.getTime() - offset * 60000);
  if (Number.isNaN(t.getTime())) return undefined;
  const p2 = (n: number) => String(n).padStart(2, '0');
  const base = `${String(t.getUTCFullYear()).padStart(4, '0')}-${p2(t.getUTCMonth() + 1)}-${p2(t.getUTCDate())}T${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:${p2(t.getUTCSeconds())}`;
  const frac = (m[7] ?? '').padEnd(9, '0');
  return `"${trimFraction(`${base}.${frac}`)}Z"`;
}

/** proto JSON key turned to lowerCamel when it looks like a proto field name (for types we do not know). */
function guessJsonKey(k: string): string {
  return /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(k) ? jsonName(k) : k;
}

class Writer {
  private out = '';

  constructor(
    private readonly schema: ProtoSchema,
    private readonly ind: string,
  ) {}

  text(): string {
    return this.out;
  }

  private w(s: string): void {
    this.out += s;
  }

  private comma(): void {
    this.w(this.ind ? ',\n' : ',');
  }

  message(json: JsonValue, typeName: string, indent: string, typeURL = ''): void {
    if (typeName.startsWith(GOOGLE)) {
      const short = typeName.slice(GOOGLE.length);
      if (short === 'Any') return this.any(json, indent);
      // Proto JSON writes a wrapper as its bare value; `{"value": …}` is read too.
      if (WRAPPERS.has(short)) return this.singular(this.schema.message(typeName)![0]!, isObject(json) && own(json, 'value') ? json.value! : json, indent);
      if (short === 'Duration') return this.w(formatDuration(json) ?? goJsonString(asText(json)));
      if (short === 'Timestamp') return this.w(formatTimestamp(json) ?? goJsonString(asText(json)));
      if (short === 'Value') return this.structValue(json, indent);
      if (short === 'Struct') return this.map({ keyType: 'string', type: `${GOOGLE}Value` }, isObject(json) ? json : {}, indent);
      if (short === 'ListValue') return this.list(`${GOOGLE}Value`, Array.isArray(json) ? json : [], indent);
    }
    const fields = this.schema.message(typeName);
    if (!fields || !isObject(json)) return this.generic(json, indent, typeURL);
    this.w('{');
    if (this.ind) this.w('\n');
    let first = true;
    if (typeURL !== '') {
      this.typeUrl(indent, typeURL);
      first = false;
    }
    const doneOneofs = new Set<string>();
    for (const f of fields) {
      let chosen: ProtoField | undefined = f;
      let raw: JsonValue | undefined;
      if (f.oneof) {
        if (doneOneofs.has(f.oneof)) continue;
        doneOneofs.add(f.oneof);
        chosen = undefined;
        for (const g of fields) {
          if (g.oneof !== f.oneof) continue;
          const r = rawField(json, g);
          if (r !== undefined && (r !== null || g.type === `${GOOGLE}Value`)) {
            chosen = g;
            raw = r;
          }
        }
        if (!chosen) continue;
      } else {
        raw = rawField(json, f);
        if (!this.has(f, raw)) continue;
      }
      if (!first) this.comma();
      this.field(chosen, raw as JsonValue, indent);
      first = false;
    }
    if (this.ind) this.w(`\n${indent}`);
    this.w('}');
  }

  private has(f: ProtoField, raw: JsonValue | undefined): boolean {
    if (raw === undefined) return false;
    if (raw === null) return f.type === `${GOOGLE}Value` && !f.repeated && !f.map;
    if (f.map) return isObject(raw) && Object.keys(raw).length > 0;
    if (f.repeated) return Array.isArray(raw) && raw.length > 0;
    if (f.optional) return true;
    if (!SCALARS.has(f.type)) {
      const values = this.schema.enumValues(f.type);
      if (!values) return true; // a message
      if (typeof raw === 'number') return raw !== 0;
      if (typeof raw === 'string') return !values.some(([n, v]) => n === raw && v === 0);
      return true;
    }
    switch (f.type) {
      case 'string':
      case 'bytes':
        return raw !== '';
      case 'bool':
        return raw !== false;
      default: {
        if (f.type === 'double' || f.type === 'float') {
          const n = toFloat(raw);
          return n === undefined || n !== 0 || Object.is(n, -0);
        }
        const n = toBigInt(raw);
        return n === undefined || n !== 0n;
      }
    }
  }

  private typeUrl(indent: string, url: string): void {
    if (this.ind) this.w(indent + this.ind);
    this.w('"@type":');
    if (this.ind) this.w(' ');
    this.w(goJsonString(url));
  }

  private field(f: ProtoField, v: JsonValue, indent: string): void {
    if (this.ind) this.w(indent + this.ind);
    this.w(`"${f.jsonName}":`);
    if (this.ind) this.w(' ');
    if (f.map) this.map({ keyType: f.keyType ?? 'string', type: f.type }, isObject(v) ? v : {}, indent);
    else if (f.repeated) this.list(f.type, Array.isArray(v) ? v : [v], indent);
    else this.singular(f, v, indent);
  }

  private list(type: string, items: JsonValue[], indent: string): void {
    const f = { type } as ProtoField;
    this.w('[');
    let comma = '';
    for (const item of items) {
      this.w(comma);
      if (this.ind) this.w(`\n${indent}${this.ind}${this.ind}`);
      this.singular(f, item, indent + this.ind);
      comma = ',';
    }
    if (this.ind) this.w(`\n${indent}${this.ind}`);
    this.w(']');
  }

  private map(f: { keyType: string; type: string }, obj: JsonObject, indent: string): void {
    const keys = Object.keys(obj);
    if (f.keyType === 'bool') keys.sort((a, b) => (a === b ? 0 : a === 'false' ? -1 : 1));
    else if (f.keyType !== 'string') {
      keys.sort((a, b) => {
        const x = toBigInt(a) ?? 0n;
        const y = toBigInt(b) ?? 0n;
        return x < y ? -1 : x > y ? 1 : 0;
      });
    } else keys.sort((a, b) => (goLess(a, b) ? -1 : goLess(b, a) ? 1 : 0));
    const vf = { type: f.type } as ProtoField;
    this.w('{');
    let comma = '';
    for (const k of keys) {
      this.w(comma);
      if (this.ind) this.w(`\n${indent}${this.ind}${this.ind}`);
      const keyText = f.keyType === 'string' || f.keyType === 'bool' ? k : (toBigInt(k) ?? k).toString();
      this.w(goJsonString(keyText));
      this.w(':');
      if (this.ind) this.w(' ');
      this.singular(vf, obj[k]!, indent + this.ind);
      comma = ',';
    }
    if (this.ind) this.w(`\n${indent}${this.ind}`);
    this.w('}');
  }

  private singular(f: Pick<ProtoField, 'type'>, v: JsonValue, indent: string): void {
    const t = f.type;
    if (!SCALARS.has(t)) {
      const values = this.schema.enumValues(t);
      if (values) return this.enumValue(t, values, v);
      return this.message(v, t, indent + this.ind);
    }
    if (t === 'string') return this.w(goJsonString(asText(v)));
    if (t === 'bool') return this.w(v === true || v === 'true' ? 'true' : 'false');
    if (t === 'bytes') return this.w(goJsonString(typeof v === 'string' ? normalizeBase64(v) : ''));
    if (t === 'double' || t === 'float') {
      const n = toFloat(v);
      if (n === undefined) return this.w(goJsonString(asText(v)));
      if (Number.isNaN(n)) return this.w('"NaN"');
      if (n === Infinity) return this.w('"Infinity"');
      if (n === -Infinity) return this.w('"-Infinity"');
      return this.w(goJsonFloat(n, t === 'float' ? 32 : 64));
    }
    const n = toBigInt(v);
    if (n === undefined) return this.w(goJsonString(asText(v)));
    this.w(INT64.has(t) ? `"${n}"` : n.toString());
  }

  private enumValue(type: string, values: readonly (readonly [string, number])[], v: JsonValue): void {
    if (type === `${GOOGLE}NullValue`) return this.w('null');
    let num: number | undefined;
    if (typeof v === 'number') num = v;
    else if (typeof v === 'string') num = values.find(([n]) => n === v)?.[1];
    if (num === undefined) return this.w(goJsonString(asText(v)));
    const name = values.find(([, x]) => x === num)?.[0];
    this.w(name !== undefined ? `"${name}"` : String(num));
  }

  /** google.protobuf.Value from its JSON form. */
  private structValue(v: JsonValue, indent: string): void {
    if (v === null) return this.w('null');
    if (typeof v === 'boolean') return this.w(v ? 'true' : 'false');
    if (typeof v === 'number') return this.singular({ type: 'double' }, v, indent);
    if (typeof v === 'string') return this.w(goJsonString(v));
    if (Array.isArray(v)) return this.message(v, `${GOOGLE}ListValue`, indent + this.ind);
    return this.message(v, `${GOOGLE}Struct`, indent + this.ind);
  }

  private any(json: JsonValue, indent: string): void {
    const url = isObject(json) && typeof json['@type'] === 'string' ? json['@type'] : '';
    if (!isObject(json) || url === '') {
      this.w('{}');
      return;
    }
    const name = url.slice(url.lastIndexOf('/') + 1);
    const short = name.startsWith(GOOGLE) ? name.slice(GOOGLE.length) : '';
    const wellKnown = short !== '' && (WRAPPERS.has(short) || ['Empty', 'Any', 'Duration', 'Timestamp', 'Struct', 'Value', 'ListValue'].includes(short));
    if (!wellKnown) return this.message(json, name, indent, url);
    this.w('{');
    if (this.ind) this.w('\n');
    this.typeUrl(indent, url);
    this.comma();
    this.w(this.ind ? `${indent}${this.ind}"value": ` : '"value":');
    const value = short === 'Empty' ? {} : (json.value ?? null);
    this.message(value, name, indent + this.ind);
    if (this.ind) this.w(`\n${indent}`);
    this.w('}');
  }

  /** A value of a type the schema does not know, written as it came (object keys to lowerCamel). */
  private generic(v: JsonValue, indent: string, typeURL = ''): void {
    if (isObject(v)) {
      this.w('{');
      if (this.ind) this.w('\n');
      let first = true;
      if (typeURL !== '') {
        this.typeUrl(indent, typeURL);
        first = false;
      }
      for (const [k, x] of Object.entries(v)) {
        if (k === '@type' && typeURL !== '') continue;
        if (!first) this.comma();
        if (this.ind) this.w(indent + this.ind);
        this.w(`${goJsonString(k === '@type' ? k : guessJsonKey(k))}:`);
        if (this.ind) this.w(' ');
        if (Array.isArray(x)) {
          this.w('[');
          let comma = '';
          for (const item of x) {
            this.w(comma);
            if (this.ind) this.w(`\n${indent}${this.ind}${this.ind}`);
            this.genericScalarOr(item, indent + this.ind + this.ind);
            comma = ',';
          }
          if (this.ind) this.w(`\n${indent}${this.ind}`);
          this.w(']');
        } else this.genericScalarOr(x, indent + this.ind);
        first = false;
      }
      if (this.ind) this.w(`\n${indent}`);
      this.w('}');
      return;
    }
    this.genericScalarOr(v, indent);
  }

  private genericScalarOr(v: JsonValue, indent: string): void {
    if (isObject(v)) {
      if (typeof v['@type'] === 'string') return this.any(v, indent);
      return this.generic(v, indent);
    }
    if (Array.isArray(v)) return this.generic({ values: v }, indent);
    if (v === null) return this.w('null');
    if (typeof v === 'number') return this.w(Number.isInteger(v) && Math.abs(v) < 2 ** 53 ? String(v) : goJsonFloat(v));
    if (typeof v === 'boolean') return this.w(String(v));
    this.w(goJsonString(v));
  }
}

/**
 * jsonpb (golang/protobuf) text of a message given as proto JSON. `typeName` is the message's
 * full name (`envoy.config.cluster.v3.Cluster`), or `google.protobuf.Any` for a value that
 * carries its `@type`.
 */
export function marshalJsonpb(json: JsonValue, typeName: string, schema: ProtoSchema, opts: ProtoJsonOptions = {}): string {
  const w = new Writer(schema, opts.indent ?? '');
  w.message(json, typeName, '');
  return w.text();
}

/**
 * encoding/json's Indent of compact JSON (what json.MarshalIndent does to a RawMessage):
 * one element per line, `": "` after keys, `[]` and `{}` kept empty.
 */
export function goJsonIndent(compact: string, indent = '    ', prefix = ''): string {
  let out = '';
  let depth = 0;
  let needIndent = false;
  const newline = () => {
    out += '\n' + prefix + indent.repeat(depth);
  };
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (needIndent && c !== ']' && c !== '}') {
      needIndent = false;
      depth++;
      newline();
    }
    if (c === '"') {
      let j = i + 1;
      while (j < compact.length && compact[j] !== '"') j += compact[j] === '\\' ? 2 : 1;
      out += compact.slice(i, j + 1);
      i = j;
      continue;
    }
    if (c === '{' || c === '[') {
      out += c;
      needIndent = true;
    } else if (c === ',') {
      out += c;
      newline();
    } else if (c === ':') {
      out += ': ';
    } else if (c === '}' || c === ']') {
      if (needIndent) needIndent = false;
      else {
        depth--;
        newline();
      }
      out += c;
    } else out += c;
  }
  return out;
}

/** istioctl's MessageSlice under json.MarshalIndent(…, "", "    "): `[` messages `]`, 4-space indent. */
export function messageSliceJson(items: readonly { json: JsonValue; typeName: string }[], schema: ProtoSchema): string {
  const compact = `[${items.map((i) => marshalJsonpb(i.json, i.typeName, schema)).join(',')}]`;
  return goJsonIndent(compact);
}
