// proto3 JSON forms of scalars and of the well-known types with a string form, shared by the
// structural check (check.ts) and the protoc-gen-validate rules (validate.ts).
import { ScalarType } from '@bufbuild/protobuf';
import { MAX_PROTO_DURATION_SECONDS, splitProtoDuration } from '../../go/protoDuration.ts';
import { STRING_MAP_PROTOTYPE } from '../../document/read.ts';

export type JsonObject = Record<string, unknown>;

export function isPlainObject(v: unknown): v is JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || proto === STRING_MAP_PROTOTYPE;
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return isPlainObject(v) ? 'an object' : `a ${(v as object).constructor?.name ?? 'non-plain'} object`;
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'boolean') return `${v}`;
  return `a ${typeof v}`;
}

const INT32 = [-2147483648, 2147483647] as const;
const UINT32 = [0, 4294967295] as const;
const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const UINT64 = [0n, 2n ** 64n - 1n] as const;
const FLOAT_MAX = 3.4028234663852886e38;
const NUMERIC_STRING = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export const SCALAR_NAME: Record<number, string> = {
  [ScalarType.DOUBLE]: 'double',
  [ScalarType.FLOAT]: 'float',
  [ScalarType.INT64]: 'int64',
  [ScalarType.UINT64]: 'uint64',
  [ScalarType.INT32]: 'int32',
  [ScalarType.FIXED64]: 'fixed64',
  [ScalarType.FIXED32]: 'fixed32',
  [ScalarType.BOOL]: 'bool',
  [ScalarType.STRING]: 'string',
  [ScalarType.BYTES]: 'bytes',
  [ScalarType.UINT32]: 'uint32',
  [ScalarType.SFIXED32]: 'sfixed32',
  [ScalarType.SFIXED64]: 'sfixed64',
  [ScalarType.SINT32]: 'sint32',
  [ScalarType.SINT64]: 'sint64',
};

/** A checked scalar: number (32-bit ints, floats), bigint (64-bit ints), string, boolean, or bytes length. */
export type ScalarValue = number | bigint | string | boolean | { bytes: number };

/** Parses a scalar's JSON form; returns the value, or an error text. */
export function parseScalar(t: ScalarType, v: unknown): ScalarValue | { error: string; code: 'wrong-type' | 'bad-value' } {
  const name = SCALAR_NAME[t];
  switch (t) {
    case ScalarType.STRING:
      return typeof v === 'string' ? v : { error: `expected a string, got ${describe(v)}`, code: 'wrong-type' };
    case ScalarType.BOOL:
      return typeof v === 'boolean' ? v : { error: `expected true or false, got ${describe(v)}`, code: 'wrong-type' };
    case ScalarType.BYTES: {
      if (typeof v !== 'string') return { error: `expected a base64 string (bytes), got ${describe(v)}`, code: 'wrong-type' };
      const unpadded = v.replace(/=+$/, '');
      if (!(BASE64.test(v) || BASE64URL.test(unpadded)) || unpadded.length % 4 === 1) return { error: `${describe(v)} is not valid base64`, code: 'bad-value' };
      return { bytes: Math.floor((unpadded.length * 3) / 4) };
    }
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT: {
      let n: number;
      if (typeof v === 'number') {
        if (!Number.isFinite(v)) return { error: `${v} is not representable in JSON (use the string "NaN", "Infinity" or "-Infinity")`, code: 'bad-value' };
        n = v;
      } else if (typeof v === 'string') {
        if (v === 'NaN') return NaN;
        if (v === 'Infinity') return Infinity;
        if (v === '-Infinity') return -Infinity;
        if (!NUMERIC_STRING.test(v)) return { error: `${describe(v)} is not a number`, code: 'bad-value' };
        n = Number(v);
      } else return { error: `expected a number (${name}), got ${describe(v)}`, code: 'wrong-type' };
      if (t === ScalarType.FLOAT && Math.abs(n) > FLOAT_MAX) return { error: `${n} is out of range for float`, code: 'bad-value' };
      return n;
    }
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
    case ScalarType.UINT32:
    case ScalarType.FIXED32: {
      let n: number;
      if (typeof v === 'number') n = v;
      else if (typeof v === 'string' && NUMERIC_STRING.test(v)) n = Number(v);
      else return { error: `expected an integer (${name}), got ${describe(v)}`, code: typeof v === 'string' ? 'bad-value' : 'wrong-type' };
      if (!Number.isInteger(n)) return { error: `${describe(v)} is not an integer (${name})`, code: 'bad-value' };
      const [lo, hi] = t === ScalarType.UINT32 || t === ScalarType.FIXED32 ? UINT32 : INT32;
      if (n < lo || n > hi) return { error: `${n} is out of range for ${name}`, code: 'bad-value' };
      return n;
    }
    default: {
      // 64-bit integers.
      let b: bigint;
      if (typeof v === 'number') {
        if (!Number.isInteger(v)) return { error: `${describe(v)} is not an integer (${name})`, code: 'bad-value' };
        b = BigInt(v);
      } else if (typeof v === 'string') {
        // Decimal digits only, as @bufbuild/protobuf reads 64-bit strings.
        if (/^-?\d+$/.test(v)) b = BigInt(v);
        else return { error: `${describe(v)} is not an integer (${name})`, code: 'bad-value' };
      } else return { error: `expected an integer (${name}) as a number or string, got ${describe(v)}`, code: 'wrong-type' };
      const [lo, hi] = t === ScalarType.UINT64 || t === ScalarType.FIXED64 ? UINT64 : INT64;
      if (b < lo || b > hi) return { error: `${b} is out of range for ${name}`, code: 'bad-value' };
      return b;
    }
  }
}

export function isErr(v: unknown): v is { error: string; code: 'wrong-type' | 'bad-value' } {
  return typeof v === 'object' && v !== null && 'error' in v;
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** Duration in nanoseconds, or an error text. */
export function parseDuration(v: unknown): bigint | string {
  if (typeof v !== 'string') return `expected a duration string such as "1.5s", got ${describe(v)}`;
  const parts = splitProtoDuration(v);
  if (!parts) return `${describe(v)} is not a duration (seconds with up to 9 decimals and an "s" suffix, e.g. "0.250s")`;
  if (parts.seconds > MAX_PROTO_DURATION_SECONDS || parts.seconds < -MAX_PROTO_DURATION_SECONDS) return `${describe(v)} is out of range for a duration`;
  return parts.seconds * 1_000_000_000n + parts.nanos;
}

export function timestampError(v: unknown): string | undefined {
  if (typeof v !== 'string') return `expected an RFC 3339 timestamp string, got ${describe(v)}`;
  const m = TIMESTAMP.exec(v);
  if (!m) return `${describe(v)} is not an RFC 3339 timestamp`;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days || h > 23 || mi > 59 || s > 59) return `${describe(v)} is not a valid date and time`;
  return undefined;
}

/** Message name from a type URL (the part after the last `/`), or undefined when there is no `/`. */
export function typeNameOf(typeUrl: string): string | undefined {
  const i = typeUrl.lastIndexOf('/');
  return i < 0 ? undefined : typeUrl.slice(i + 1);
}
