// Reading a resource as Istio's webhook sees it after protobuf JSON decoding. Unlike the
// typed views (config/shape.ts), these readers keep what the webhook's rules tell apart: a
// message or list that is absent (Go's nil) from one written empty, and a null list item
// (a nil pointer). Fields are found under their JSON (camelCase) or proto (snake_case) name;
// a value of the wrong type reads as its zero value (the schema layer reports the type).
import { isObj, num } from '../../document/read.ts';

export type Obj = Record<string, unknown>;

const snakeCache = new Map<string, string>();

function snake(name: string): string {
  let s = snakeCache.get(name);
  if (s === undefined) {
    s = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    snakeCache.set(name, s);
  }
  return s;
}

const hasOwn = (o: object, k: string): boolean => Object.hasOwn(o, k);
const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));
/**
 * Whether a field is written. Decoded JSON and YAML hold no `undefined` values, so a value
 * that is not undefined under a key no prototype has is an own one: most reads are of fields
 * not written, and a property read answers them without hasOwnProperty's slower lookup.
 */
const own = (o: object, k: string): boolean => (PROTOTYPE_KEYS.has(k) ? hasOwn(o, k) : (o as Obj)[k] !== undefined);

/** The key a field is written under (camelCase, else its snake_case alias), or the camelCase name. */
export function keyOf(o: Obj | undefined, k: string): string {
  if (!o || own(o, k)) return k;
  const s = snake(k);
  return s !== k && own(o, s) ? s : k;
}

/** The raw value of a field (camelCase or snake_case). */
export function get(o: Obj | undefined, k: string): unknown {
  if (!o) return undefined;
  if (own(o, k)) return o[k];
  const s = snake(k);
  return s !== k && own(o, s) ? o[s] : undefined;
}

/** Written and not null (a set message, list, or scalar). */
export function has(o: Obj | undefined, k: string): boolean {
  const v = get(o, k);
  return v !== undefined && v !== null;
}

/** A nested message: undefined when absent or null (Go's nil); a mapping otherwise. */
export function msg(o: Obj | undefined, k: string): Obj | undefined {
  const v = get(o, k);
  if (v === undefined || v === null) return undefined;
  return isObj(v) ? v : {};
}

/** A string field (zero value ''). */
export function s(o: Obj | undefined, k: string): string {
  const v = get(o, k);
  return typeof v === 'string' ? v : '';
}

/** An integer field (zero value 0); numeric strings are accepted as protobuf JSON does. */
export function n(o: Obj | undefined, k: string): number {
  return num(get(o, k));
}

/** A double field. */
export function f(o: Obj | undefined, k: string): number {
  const v = get(o, k);
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return 0;
}

export function b(o: Obj | undefined, k: string): boolean {
  return get(o, k) === true;
}

/** A repeated field: undefined when absent or null (nil), the items otherwise. */
export function list(o: Obj | undefined, k: string): unknown[] | undefined {
  const v = get(o, k);
  if (v === undefined || v === null) return undefined;
  return Array.isArray(v) ? v : [];
}

// Absent lists read as one shared, frozen empty list: validation asks for many fields that
// are not written, and a fresh [] for each would be garbage by the thousand.
const NO_ITEMS: readonly (Obj | null)[] = Object.freeze([]);
const NO_STRINGS: readonly string[] = Object.freeze([]);

/** Items of a repeated message field: null stays null (a nil pointer); other non-mappings read as empty messages. */
export function items(o: Obj | undefined, k: string): readonly (Obj | null)[] {
  const l = list(o, k);
  if (!l || l.length === 0) return NO_ITEMS;
  // Most lists hold only mappings: then the list itself is the answer (read-only to callers),
  // and validating a large file makes no copy of each.
  if (l.every(isObj)) return l as Obj[];
  return l.map((x) => (x === null || x === undefined ? null : isObj(x) ? x : {}));
}

/** A repeated string field (non-strings read as ''). */
export function strs(o: Obj | undefined, k: string): readonly string[] {
  const l = list(o, k);
  if (!l || l.length === 0) return NO_STRINGS;
  if (l.every((x) => typeof x === 'string')) return l as string[];
  return l.map((x) => (typeof x === 'string' ? x : ''));
}

/** A map field as entries (in written order); undefined when absent or null. */
export function entries(o: Obj | undefined, k: string): [string, unknown][] | undefined {
  const v = get(o, k);
  if (v === undefined || v === null) return undefined;
  return isObj(v) ? Object.entries(v) : [];
}

/** A map<string, string> field as entries. */
export function strEntries(o: Obj | undefined, k: string): [string, string][] {
  return (entries(o, k) ?? []).map(([key, v]) => [key, typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '']);
}

/** A map<string, Message> field as entries; a null value stays null (nil). */
export function msgEntries(o: Obj | undefined, k: string): [string, Obj | null][] {
  return (entries(o, k) ?? []).map(([key, v]) => [key, v === null || v === undefined ? null : isObj(v) ? v : {}]);
}

/**
 * A proto enum field: its name when written as a known name or as its number, the first
 * name (zero) when absent; an unknown number reads as the number (Go prints it that way).
 */
export function enumv<const N extends readonly string[]>(o: Obj | undefined, k: string, names: N): N[number] | string {
  const v = get(o, k);
  if (typeof v === 'string') return names.includes(v) ? v : (names[0] as string);
  if (typeof v === 'number' && Number.isInteger(v)) return v >= 0 && v < names.length ? (names[v] as string) : String(v);
  return names[0] as string;
}

/** A wrapper (UInt32Value, DoubleValue, BoolValue, …) is written as its plain value; undefined when unset. */
export function wrapped(o: Obj | undefined, k: string): unknown {
  const v = get(o, k);
  if (v === undefined || v === null) return undefined;
  // The long form {value: x} is also accepted by some decoders.
  if (isObj(v) && own(v, 'value')) return v.value;
  return v;
}

export function wrappedNum(o: Obj | undefined, k: string): number | undefined {
  const v = wrapped(o, k);
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return 0;
}

export function wrappedBool(o: Obj | undefined, k: string): boolean | undefined {
  const v = wrapped(o, k);
  if (v === undefined) return undefined;
  return v === true;
}

/** A child path: `base.key` (key as written), or `base[i]`. */
export function at(base: string, o: Obj | undefined, k: string): string {
  return `${base}.${keyOf(o, k)}`;
}

export function idx(base: string, i: number): string {
  return `${base}[${i}]`;
}
