// Defensive accessors for resource bodies (files can hold any shape).
import type { Resource } from '../../../model/types.ts';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function specOf(r: Resource): Obj {
  const s = r.body.spec;
  return isObj(s) ? s : {};
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function objOrUndefined(v: unknown): Obj | undefined {
  return isObj(v) ? v : undefined;
}

/** Go's zero-value string of a scalar field. */
export function str(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return '';
  return String(v);
}

/** Go's zero-value number of a numeric field (strings of digits are accepted, as the JSON decoder would not, but YAML users write them). */
export function num(v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number(v);
  return 0;
}

export function strList(v: unknown): string[] {
  return arr(v).map(str);
}
