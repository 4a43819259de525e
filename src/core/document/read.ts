// Safe readers for values parsed from user files. Any shape can arrive where a field is
// expected; a value of the wrong type reads as absent (Go's zero value), and nothing here
// converts an object to a string (a `toString` key would make `String(obj)` throw).

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A scalar as Go's zero-value string: numbers and booleans print, anything else is ''. */
export function str(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return '';
}

/** True for a value that `str` turns into text (as opposed to reading it as absent). */
export function isScalar(v: unknown): v is string | number | boolean | bigint {
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean' || t === 'bigint';
}

/** An integer field: a finite number (truncated) or a string of digits; otherwise 0. */
export function num(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : 0;
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return Number(v);
  return 0;
}

export function bool(v: unknown): boolean {
  return v === true;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function strList(v: unknown): string[] {
  return Array.isArray(v) ? v.map(str) : [];
}

export function objOrUndefined(v: unknown): Obj | undefined {
  return isObj(v) ? v : undefined;
}

/** A string map without Object's members, so lookups by user-chosen keys never hit them. */
export type StringMap = Readonly<Record<string, string>>;

/**
 * The prototype of string maps: an empty object that itself has none. `Object.create(null)`
 * would do as well, but V8 keeps such objects as hash tables, several times larger and slower
 * to fill than objects of a prototype; tens of thousands of label maps in a large mesh made
 * that a tenth of the work the garbage collector did. A key named `__proto__` is an own key
 * here too (the accessor that would catch it lives on Object.prototype).
 */
export const STRING_MAP_PROTOTYPE: object = Object.freeze(Object.create(null) as object);

/** A new, empty string map (see STRING_MAP_PROTOTYPE). */
export function newStringMap<T = string>(): Record<string, T> {
  return Object.create(STRING_MAP_PROTOTYPE) as Record<string, T>;
}

export const EMPTY_STRING_MAP: StringMap = Object.freeze(newStringMap());

/**
 * A map of strings (labels, annotations, selectors): scalar values become text, other values
 * read as ''. Keys are copied onto a prototype-less object.
 */
export function stringMap(v: unknown): StringMap {
  if (!isObj(v)) return EMPTY_STRING_MAP;
  const keys = Object.keys(v);
  if (keys.length === 0) return EMPTY_STRING_MAP;
  const out = newStringMap();
  for (const k of keys) out[k] = str(v[k]);
  return out;
}

/** Own-property lookup, safe for any key on any object. */
export function has(o: object, key: string): boolean {
  return Object.hasOwn(o, key);
}

/** The raw `spec` mapping of a resource ({} when absent). Prefer the typed views in config/api. */
export function specOf(r: { body: Obj }): Obj {
  const s = r.body.spec;
  return isObj(s) ? s : {};
}

/** A field path segment for a map key: dotted keys are bracketed so the path stays unambiguous. */
export function keySegment(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** What a parsed value holds under a path of own mapping keys (undefined where one is missing). */
export function valueAt(o: Obj, path: readonly string[]): unknown {
  let cur: unknown = o;
  for (const k of path) {
    if (!isObj(cur) || !Object.hasOwn(cur, k)) return undefined;
    cur = cur[k];
  }
  return cur;
}
