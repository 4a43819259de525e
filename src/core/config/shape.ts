// Typed views of resource bodies. A shape describes the fields of an API type once; reading
// a parsed value through it gives a plain, typed object with Go's semantics: a scalar or
// list field of the wrong type (or absent) has its zero value, a nested message of the wrong
// type is absent, and fields the shape does not name are not copied. So code reading a view
// can use `vs.hosts` or `route.destination?.host` directly, and no input shape can throw.
import { isObj, newStringMap, num, str, type StringMap, stringMap } from '../document/read.ts';

export interface Shape<T> {
  read(v: unknown): T;
  /**
   * What the API accepts at this field: type, enum values, bounds, formats, CEL rules and a
   * one-line help of ours. The schema validator, the editor's JSON schemas, completion and
   * hover read it; typed views ignore it. Every shape built here has one.
   */
  readonly schema?: Schema;
}

/** The JSON type of a field as the CRD's OpenAPI schema names it; `any` is free-form. */
export type SchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'any';

/** A CEL `x-kubernetes-validations` rule of a CRD, with the message the API server prints. */
export interface CelRule {
  readonly rule: string;
  readonly message?: string;
}

/** Facts about a field beyond its type (the OpenAPI keywords a CRD uses, and our help). */
export interface SchemaMeta {
  /** One line of help, written by us. */
  help?: string;
  enum?: readonly (string | number)[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  nullable?: boolean;
  /** Kubernetes IntOrString: an integer or a string. */
  intOrString?: boolean;
  /** `x-kubernetes-preserve-unknown-fields`: fields the schema does not name are kept. */
  preserveUnknown?: boolean;
  /** `x-kubernetes-list-type` (`set`, or `map` keyed by `listMapKeys`). */
  listType?: 'set' | 'map' | 'atomic';
  listMapKeys?: readonly string[];
  rules?: readonly CelRule[];
  /** Field names of which the API accepts at most one (a proto oneof). */
  oneOf?: readonly (readonly string[])[];
  /** Fields that must be written. */
  required?: readonly string[];
  /** The field is deprecated (hover says so). */
  deprecated?: boolean;
}

export interface Schema extends SchemaMeta {
  readonly type: SchemaType;
  /** The fields of a message (looked up lazily: messages can be recursive). */
  readonly properties?: Readonly<Record<string, Schema>>;
  /** The item of a list. */
  readonly items?: Schema;
  /** The value of a map (`additionalProperties`). */
  readonly values?: Schema;
}

export type Infer<S> = S extends Shape<infer T> ? T : never;

export const string: Shape<string> = { read: str, schema: { type: 'string' } };

export const int: Shape<number> = { read: num, schema: { type: 'integer' } };

/** A floating-point field (weights are ints; percentages are doubles). */
export const double: Shape<number> = {
  read: (v) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : 0),
  schema: { type: 'number', format: 'double' },
};

export const bool: Shape<boolean> = { read: (v) => v === true, schema: { type: 'boolean' } };

/** A wrapper (BoolValue, UInt32Value, …) or optional scalar: absent stays undefined. */
export function optional<T>(inner: Shape<T>): Shape<T | undefined> {
  return withSchemaOf({ read: (v) => (v === undefined || v === null ? undefined : inner.read(v)) }, inner);
}

/** Gives `target` the (lazily looked up) schema of `source`. */
function withSchemaOf<S extends object>(target: S, source: Shape<unknown>): S {
  Object.defineProperty(target, 'schema', { get: () => source.schema, enumerable: true });
  return target;
}

/** Kubernetes IntOrString: a number, or a string; anything else is absent. */
export const intOrString: Shape<number | string | undefined> = {
  read: (v) => (typeof v === 'number' ? (Number.isFinite(v) ? Math.trunc(v) : undefined) : typeof v === 'string' ? v : undefined),
  schema: { type: 'any', intOrString: true },
};

/** A field kept as parsed (Struct, Any, free-form patches). */
export const raw: Shape<unknown> = { read: (v) => v, schema: { type: 'any', preserveUnknown: true } };

/**
 * A field a view keeps as parsed but whose schema is `shape`'s (a message the view does not
 * need typed, still validated and completed in full).
 */
export function rawAs(shape: Shape<unknown>): Shape<unknown> {
  return withSchemaOf({ read: (v: unknown) => v }, shape);
}

/**
 * `shape` with more facts about it: help, enum values, bounds, CEL rules, … (see SchemaMeta).
 * Reading is unchanged.
 */
export function describe<S extends Shape<unknown>>(shape: S, meta: SchemaMeta): S {
  const out = { ...shape } as S;
  let merged: Schema | undefined;
  Object.defineProperty(out, 'schema', {
    get: () => (merged ??= mergeMeta(shape.schema ?? { type: 'any' }, meta)),
    enumerable: true,
  });
  return out;
}

function mergeMeta(base: Schema, meta: SchemaMeta): Schema {
  const out: Schema = { ...base, ...meta };
  // Rules and oneofs add up; a property getter must survive the copy.
  if (base.rules && meta.rules) (out as { rules?: readonly CelRule[] }).rules = [...base.rules, ...meta.rules];
  if (base.properties) Object.defineProperty(out, 'properties', { get: () => base.properties, enumerable: true });
  return out;
}

/**
 * A repeated field. Items keep their positions (so field paths stay right); an item of the
 * wrong type reads as its zero value (an empty message for a list of messages).
 */
export function list<F extends Fields>(item: MessageShape<F>): Shape<readonly MessageOf<F>[]>;
export function list<T>(item: Shape<T>): Shape<readonly T[]>;
export function list<T>(item: Shape<T> & { readOrEmpty?: (v: unknown) => T }): Shape<readonly T[]> {
  const readItem = item.readOrEmpty ?? item.read;
  return {
    get schema(): Schema {
      return { type: 'array', items: item.schema ?? ANY };
    },
    read: (v) => {
      if (!Array.isArray(v) || v.length === 0) return EMPTY;
      const out = new Array<T>(v.length);
      for (let i = 0; i < v.length; i++) out[i] = readItem(v[i]);
      return out;
    },
  };
}

const EMPTY: readonly never[] = Object.freeze([]);
const ANY: Schema = { type: 'any', preserveUnknown: true };

/** A map<string, string> field, prototype-less. */
export const strings: Shape<StringMap> = { read: stringMap, schema: { type: 'object', values: { type: 'string' } } };

/** A map<string, T> field, prototype-less. */
export function map<T>(value: Shape<T>): Shape<Readonly<Record<string, T>>> {
  return {
    get schema(): Schema {
      return { type: 'object', values: value.schema ?? ANY };
    },
    read: (v) => {
      const out = newStringMap<T>();
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
export interface MessageOptions extends SchemaMeta {
  proto?: boolean;
  /**
   * Fields the API has that the typed view does not read: they are in the schema (validated,
   * completed, hovered) but not copied into the view.
   */
  more?: Fields;
}

export function message<F extends Fields>(fields: F, opts: MessageOptions = {}): MessageShape<F> {
  const names = Object.keys(fields);
  const aliases = opts.proto ? names.map((n) => snakeCase(n)).map((s, i) => (s === names[i] ? undefined : s)) : undefined;
  const shapes = names.map((n) => fields[n] as Shape<unknown>);
  // Every view of this message starts as a copy of one object that has all its fields at their
  // zero values: the copies share one hidden class, and filling them in never changes it.
  // Only the fields written in the input are then read (most of a message's fields are not
  // written). A field whose zero value is a new mutable object each time (not a primitive, nor
  // a shared frozen value) is read every time instead, so no two views share a mutable value.
  let zero: Record<string, unknown> | undefined;
  /** Indices of the fields read every time. */
  const readAlways: number[] = [];
  /**
   * The fields a written key fills, the others: the index, negative (-1 - index) when the key is
   * the field's proto name.
   */
  const targets = new Map<string, number[]>();
  // Built on the first view, not with the shape: a lazy (recursive) field's shape is not known yet.
  const prepare = (): Record<string, unknown> => {
    const z: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      const v = (shapes[i] as Shape<unknown>).read(undefined);
      if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
        readAlways.push(i);
        z[name] = undefined;
        continue;
      }
      z[name] = v;
      const alias = aliases?.[i];
      for (const [k, t] of alias === undefined ? [[name, i] as const] : [[name, i] as const, [alias, -1 - i] as const]) {
        const l = targets.get(k);
        if (l) l.push(t);
        else targets.set(k, [t]);
      }
    }
    return z;
  };
  /** The value a field reads from: its own name, else (when that is absent) its proto name. */
  const written = (o: Record<string, unknown>, i: number): unknown => {
    const name = names[i] as string;
    const v = Object.hasOwn(o, name) ? o[name] : undefined;
    const alias = aliases?.[i];
    return v === undefined && alias !== undefined && Object.hasOwn(o, alias) ? o[alias] : v;
  };
  const build = (o: Record<string, unknown>): MessageOf<F> => {
    zero ??= prepare();
    const out: Record<string, unknown> = { ...zero };
    for (const i of readAlways) out[names[i] as string] = (shapes[i] as Shape<unknown>).read(written(o, i));
    for (const key in o) {
      if (!Object.hasOwn(o, key)) continue;
      const l = targets.get(key);
      if (l === undefined) continue;
      for (const t of l) {
        const i = t < 0 ? -1 - t : t;
        const name = names[i] as string;
        // A proto name counts only when the field's own name gives nothing.
        if (t < 0 && Object.hasOwn(o, name) && o[name] !== undefined) continue;
        out[name] = (shapes[i] as Shape<unknown>).read(o[key]);
      }
    }
    return out as MessageOf<F>;
  };
  const empty: Record<string, unknown> = Object.create(null);
  const { proto: _proto, more, ...meta } = opts;
  let schema: Schema | undefined;
  return {
    fields,
    get schema(): Schema {
      if (!schema) {
        let props: Record<string, Schema> | undefined;
        const all = more ? { ...fields, ...more } : fields;
        schema = {
          ...meta,
          type: 'object',
          get properties(): Readonly<Record<string, Schema>> {
            if (!props) {
              props = Object.create(null) as Record<string, Schema>;
              for (const k of Object.keys(all)) props[k] = (all[k] as Shape<unknown>).schema ?? ANY;
            }
            return props;
          },
        };
      }
      return schema;
    },
    read: (v) => (isObj(v) ? build(v) : undefined),
    readOrEmpty: (v) => build(isObj(v) ? v : empty),
  };
}

/** A string enum: the value as written when it is one of `values`, else the first (Go's zero). */
export function enumOf<const V extends readonly string[]>(values: V): Shape<V[number]> {
  const known = new Set<string>(values);
  return { read: (v) => (typeof v === 'string' && known.has(v) ? v : values[0]) as V[number], schema: { type: 'string', enum: values } };
}

/**
 * A proto enum: its name when written as a known name or as its number (protobuf JSON
 * accepts both), else the first name (Go's zero value).
 */
export function protoEnum<const V extends readonly string[]>(values: V): Shape<V[number]> {
  const known = new Set<string>(values);
  return {
    schema: { type: 'string', enum: values },
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
  return withSchemaOf({ read: (v: unknown) => (v === null || v === undefined ? null : item.readOrEmpty(v)) }, item);
}

/** A shape that can refer to itself (recursive messages). */
export function lazy<T>(get: () => Shape<T>): Shape<T> {
  let s: Shape<T> | undefined;
  return {
    read: (v) => (s ??= get()).read(v),
    get schema() {
      return (s ??= get()).schema;
    },
  };
}
