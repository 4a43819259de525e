// Deep equality of parsed values, strict about types: -0 is not 0, NaN equals NaN, arrays
// are not objects, prototypes and key order must match, and own `__proto__` keys count.
// Shared and cyclic objects (YAML aliases) are compared once per pair.

export function sameValue(a: unknown, b: unknown): boolean {
  return compare(a, b, new Map());
}

function compare(a: unknown, b: unknown, seen: Map<object, object>): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string;
    if (k !== kb[i]) return false;
    const va = Object.getOwnPropertyDescriptor(a, k)?.value;
    const vb = Object.getOwnPropertyDescriptor(b, k)?.value;
    if (!compare(va, vb, seen)) return false;
  }
  return true;
}

/** A short, JSON-like rendering of a value for failure messages (types visible). */
export function show(v: unknown, depth = 0): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (depth > 6) return '…';
  if (Array.isArray(v)) return `[${v.map((x) => show(x, depth + 1)).join(', ')}]`;
  return `{${Object.keys(v)
    .map((k) => `${JSON.stringify(k)}: ${show(Object.getOwnPropertyDescriptor(v, k)?.value, depth + 1)}`)
    .join(', ')}}`;
}
