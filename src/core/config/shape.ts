// Typed views of resource bodies. A shape describes the fields of an API type once; reading
// a parsed value through it gives a plain, typed object with Go's semantics: a scalar or
// list field of the wrong type (or absent) has its zero value, a nested message of the wrong
// type is absent, and fields the shape does not name are not copied. So code reading a view
// can use `vs.hosts` or `route.destination?.host` directly, and no input shape can throw.
import { isObj, num, str, type StringMap, stringMap } from '../model/read.ts';

export interface Shape<T> {
  read(v: unknown): T;
}

export type Infer<S> = S extends Shape<infer T> ? T : never;

export const string: Shape<string> = { read: str };

export const int: Shape<number> = { read: num };

/** A floating-point field (weights are ints; percentages are doubles). */
export const double: Shape<number> = {
  read: (v) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : 0),
};

export const bool: Shape<boolean> = { read: (v) => v === true };

/** A wrapper (BoolValue, UInt32Value, …) or optional scalar: absent stays undefined. */
export function optional<T>(inner: Shape<T>): Shape<T | undefined> {
  return { read: (v) => (v === undefined || v === null ? undefined : inner.read(v)) };
}

/** Kubernetes IntOrString: a number, or a string; anything else is absent. */
export const intOrString: Shape<number | string | undefined> = {
  read: (v) => (typeof v === 'number' ? (Number.isFinite(v) ? Math.trunc(v) : undefined) : typeof v === 'string' ? v : undefined),
};

/** A field kept as parsed (Struct, Any, free-form patches). */
export const raw: Shape<unknown> = { read: (v) => v };

/**
 * A repeated field. Items keep their positions (so field paths stay right); an item of the
 * wrong type reads as its zero value (an empty message for a list of messages).
 */
export function list<F extends Fields>(item: MessageShape<F>): Shape<readonly MessageOf<F>[]>;
export function list<T>(item: Shape<T>): Shape<readonly T[]>;
export function list<T>(item: Shape<T> & { readOrEmpty?: (v: unknown) => T }): Shape<readonly T[]> {
  const readItem = item.readOrEmpty ?? item.read;
  return {
    read: (v) => {
      if (!Array.isArray(v) || v.length === 0) return EMPTY;
      const out = new Array<T>(v.length);
      for (let i = 0; i < v.length; i++) out[i] = readItem(v[i]);
      return out;
    },
  };
}

const EMPTY: readonly never[] = Object.freeze([]);

/** A map<string, string> field, prototype-less. */
export const strings: Shape<StringMap> = { read: stringMap };

/** A map<string, T> field, prototype-less. */
export function map<T>(value: Shape<T>): Shape<Readonly<Record<string, T>>> {
  return {
    read: (v) => {
      const out = Object.create(null) as Record<string, T>;
      if (isObj(v)) for (const k of Object.keys(v)) out[k] = value.read(v[k]);
      return out;
    },
  };
}

export type Fields = Record<string, Shape<unknown>>;
export type MessageOf<F extends Fields> = { readonly [K in keyof F]: Infer<F[K]> };

export interface MessageShape<F extends Fields> extends Shape<MessageOf<F> | undefined> {
  readonly fields: F;
  /** The message read from `v`, or the message with every field at its zero value. */
  readOrEmpty(v: unknown): MessageOf<F>;
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A nested message. `proto` messages also accept each field under its proto (snake_case)
 * name, as Istio's JSON decoding does for its CRDs.
 */
export function message<F extends Fields>(fields: F, opts: { proto?: boolean } = {}): MessageShape<F> {
  const names = Object.keys(fields);
  const aliases = opts.proto ? names.map((n) => snakeCase(n)).map((s, i) => (s === names[i] ? undefined : s)) : undefined;
  const shapes = names.map((n) => fields[n] as Shape<unknown>);
  const build = (o: Record<string, unknown>): MessageOf<F> => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      let v = Object.prototype.hasOwnProperty.call(o, name) ? o[name] : undefined;
      const alias = aliases?.[i];
      if (v === undefined && alias !== undefined && Object.prototype.hasOwnProperty.call(o, alias)) v = o[alias];
      out[name] = (shapes[i] as Shape<unknown>).read(v);
    }
    return out as MessageOf<F>;
  };
  const empty: Record<string, unknown> = Object.create(null);
  return {
    fields,
    read: (v) => (isObj(v) ? build(v) : undefined),
    readOrEmpty: (v) => build(isObj(v) ? v : empty),
  };
}

/** A string enum: the value as written when it is one of `values`, else the first (Go's zero). */
export function enumOf<const V extends readonly string[]>(values: V): Shape<V[number]> {
  const known = new Set<string>(values);
  return { read: (v) => (typeof v === 'string' && known.has(v) ? v : values[0]) as V[number] };
}

/**
 * A proto enum: its name when written as a known name or as its number (protobuf JSON
 * accepts both), else the first name (Go's zero value).
 */
export function protoEnum<const V extends readonly string[]>(values: V): Shape<V[number]> {
  const known = new Set<string>(values);
  return {
    read: (v) => {
      if (typeof v === 'string') return (known.has(v) ? v : values[0]) as V[number];
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < values.length) return values[v] as V[number];
      return values[0] as V[number];
    },
  };
}

/**
 * A list item that keeps Go's nil: `null` reads as null (a nil pointer in a `[]*Message`),
 * anything else as the item shape reads it. Only for the few checks where Istio tells nil
 * items apart; plain `list(message)` reads them as empty messages.
 */
export function nullable<F extends Fields>(item: MessageShape<F>): Shape<MessageOf<F> | null> {
  return { read: (v) => (v === null || v === undefined ? null : item.readOrEmpty(v)) };
}

/** A shape that can refer to itself (recursive messages). */
export function lazy<T>(get: () => Shape<T>): Shape<T> {
  let s: Shape<T> | undefined;
  return { read: (v) => (s ??= get()).read(v) };
}
