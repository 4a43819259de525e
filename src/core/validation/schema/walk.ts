// The API server's structural validation of a custom resource against its OpenAPI schema
// (kube-openapi's validator, then the CEL rules), with its error wording: unknown fields
// (strict field validation), types, enums, required fields, bounds, formats, list-type
// duplicates, at-most-one-of groups and `x-kubernetes-validations`.
import type { Schema } from '../../config/shape.ts';
import { evalRule } from './cel.ts';

/** A path in the object, built only when a finding needs it. */
export interface PathNode {
  readonly parent: PathNode | undefined;
  readonly seg: string | number;
  /** A map key (`[key]` in the API server's wording). */
  readonly key?: boolean;
}

/** The API server's rendering: `spec.http[0].route`, map keys as `[key]`. */
export function apiPath(p: PathNode | undefined): string {
  const segs: PathNode[] = [];
  for (let n = p; n; n = n.parent) segs.push(n);
  let out = '';
  for (let i = segs.length - 1; i >= 0; i--) {
    const n = segs[i] as PathNode;
    if (typeof n.seg === 'number' || n.key) out += `[${n.seg}]`;
    else out += out ? `.${n.seg}` : n.seg;
  }
  return out;
}

/** The editor's rendering (see model/locate.ts): map keys as `.key`, or `["key"]` when they hold dots or brackets. */
export function editorPath(p: PathNode | undefined): string {
  const segs: PathNode[] = [];
  for (let n = p; n; n = n.parent) segs.push(n);
  let out = '';
  for (let i = segs.length - 1; i >= 0; i--) {
    const n = segs[i] as PathNode;
    if (typeof n.seg === 'number') out += `[${n.seg}]`;
    else if (/^[^.[\]"']+$/.test(n.seg)) out += out ? `.${n.seg}` : n.seg;
    else out += `["${n.seg}"]`;
  }
  return out;
}

export interface RawFinding {
  message: string;
  path: PathNode | undefined;
}

export interface WalkResult {
  structural: RawFinding[];
  cel: RawFinding[];
}

function child(parent: PathNode | undefined, seg: string | number, key = false): PathNode {
  return key ? { parent, seg, key } : { parent, seg };
}

/** Go's %q-ish quoting of a value as the API server prints it in `Invalid value: …`. */
export function goValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[]interface {}{${v.map(goValue).join(', ')}}`;
  return `map[string]interface {}{${Object.keys(v as object)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${goValue((v as Record<string, unknown>)[k])}`)
    .join(', ')}}`;
}

/** The JSON type go-openapi names for a value. */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v; // string, boolean
}

function typeMatches(v: unknown, s: Schema): boolean {
  switch (s.type) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'array':
      return Array.isArray(v);
    default:
      if (s.intOrString) return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
      return true;
  }
}

const patterns = new Map<string, RegExp | null>();
function pattern(p: string): RegExp | null {
  let re = patterns.get(p);
  if (re === undefined) {
    try {
      re = new RegExp(p, 'u');
    } catch {
      re = null;
    }
    patterns.set(p, re);
  }
  return re;
}

function runeLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => deepEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Validates `v` (present at `path`) against `s`, appending to `out`. */
export function walk(v: unknown, s: Schema, path: PathNode | undefined, out: WalkResult): void {
  if (v === null) {
    if (s.nullable || (s.type === 'any' && !s.intOrString)) return;
  }
  if (!typeMatches(v, s)) {
    const p = apiPath(path);
    const actual = jsonType(v);
    const want = s.intOrString ? 'integer or string' : s.type;
    out.structural.push({ message: `${p}: Invalid value: "${actual}": ${p} in body must be of type ${want}: "${actual}"`, path });
    return;
  }
  const before = out.structural.length;
  switch (s.type) {
    case 'object':
      walkObject(v as Record<string, unknown>, s, path, out);
      break;
    case 'array':
      walkArray(v as unknown[], s, path, out);
      break;
    case 'string':
      checkString(v as string, s, path, out);
      break;
    case 'integer':
    case 'number':
      checkNumber(v as number, s, path, out);
      break;
    default:
      if (typeof v === 'string') checkString(v, s, path, out);
      else if (typeof v === 'number') checkNumber(v, s, path, out);
  }
  if (s.enum && s.type !== 'object' && s.type !== 'array' && !s.enum.includes(v as string | number)) {
    out.structural.push({ message: `${apiPath(path)}: Unsupported value: ${goValue(v)}: supported values: ${s.enum.map((e) => goValue(e)).join(', ')}`, path });
  }
  // The API server runs a node's CEL rules only on values its structural schema accepted.
  if (s.rules && out.structural.length === before) {
    for (const rule of s.rules) {
      const r = evalRule(rule, v, s);
      if (r.ok) continue;
      const p = apiPath(path);
      const msg = rule.message ?? `failed rule: ${rule.rule}`;
      const type = s.type === 'any' ? (typeof v === 'number' ? 'integer' : jsonType(v)) : s.type;
      out.cel.push({ message: r.error ? `${p}: Invalid value: "${type}": ${r.error} evaluating rule: ${msg}` : `${p}: Invalid value: "${type}": ${msg}`, path });
    }
  }
}

function walkObject(o: Record<string, unknown>, s: Schema, path: PathNode | undefined, out: WalkResult): void {
  const props = s.properties;
  const values = s.values;
  let count = 0;
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
    const x = o[k];
    if (x === undefined) continue;
    count++;
    const sub = props ? props[k] : undefined;
    if (sub) walk(x, sub, child(path, k), out);
    else if (values) walk(x, values, child(path, k, true), out);
    else if (props && !s.preserveUnknown) out.structural.push({ message: `unknown field "${apiPath(child(path, k))}"`, path: child(path, k) });
  }
  if (s.required) {
    for (const k of s.required) {
      if (!Object.prototype.hasOwnProperty.call(o, k) || o[k] === undefined) out.structural.push({ message: `${apiPath(child(path, k))}: Required value`, path: child(path, k) });
    }
  }
  if (s.minProperties !== undefined && count < s.minProperties) {
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Invalid value: ${count}: ${p} in body should have at least ${s.minProperties} properties`, path });
  }
  if (s.maxProperties !== undefined && count > s.maxProperties) {
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Too many: ${count}: must have at most ${s.maxProperties} items`, path });
  }
  if (s.oneOf) {
    for (const group of s.oneOf) {
      const set = group.filter((k) => Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined);
      if (set.length > 1) {
        const p = apiPath(path);
        out.structural.push({ message: `${p}: Invalid value: "object": "${p}" must validate one and only one schema (oneOf). Found ${set.length} valid alternatives: only one of ${set.join(', ')} may be set`, path });
      }
    }
  }
}

function walkArray(a: unknown[], s: Schema, path: PathNode | undefined, out: WalkResult): void {
  const item = s.items;
  if (item) for (let i = 0; i < a.length; i++) walk(a[i], item, child(path, i), out);
  // The path is rendered only for a finding (most lists have none).
  if (s.maxItems !== undefined && a.length > s.maxItems) out.structural.push({ message: `${apiPath(path)}: Too many: ${a.length}: must have at most ${s.maxItems} items`, path });
  if (s.minItems !== undefined && a.length < s.minItems) {
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Invalid value: ${a.length}: ${p} in body should have at least ${s.minItems} items`, path });
  }
  if (s.listType === 'set') {
    for (let i = 1; i < a.length; i++) {
      for (let j = 0; j < i; j++) {
        if (deepEqual(a[i], a[j])) {
          out.structural.push({ message: `${apiPath(child(path, i))}: Duplicate value: ${goValue(a[i])}`, path: child(path, i) });
          break;
        }
      }
    }
  } else if (s.listType === 'map' && s.listMapKeys) {
    const keys = s.listMapKeys;
    const seen = new Set<string>();
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      if (typeof x !== 'object' || x === null) continue;
      const kv: Record<string, unknown> = {};
      for (const k of keys) kv[k] = (x as Record<string, unknown>)[k];
      const sig = JSON.stringify(keys.map((k) => kv[k] ?? null));
      if (seen.has(sig)) out.structural.push({ message: `${apiPath(child(path, i))}: Duplicate value: ${goValue(kv)}`, path: child(path, i) });
      seen.add(sig);
    }
  }
}

function checkString(v: string, s: Schema, path: PathNode | undefined, out: WalkResult): void {
  if (s.minLength !== undefined || s.maxLength !== undefined) {
    const n = runeLength(v);
    if (s.minLength !== undefined && n < s.minLength) {
      const p = apiPath(path);
      out.structural.push({ message: `${p}: Invalid value: ${goValue(v)}: ${p} in body should be at least ${s.minLength} chars long`, path });
    }
    if (s.maxLength !== undefined && n > s.maxLength) out.structural.push({ message: `${apiPath(path)}: Too long: may not be more than ${s.maxLength} bytes`, path });
  }
  if (s.pattern !== undefined) {
    const re = pattern(s.pattern);
    if (re && !re.test(v)) {
      const p = apiPath(path);
      out.structural.push({ message: `${p}: Invalid value: ${goValue(v)}: ${p} in body should match '${s.pattern}'`, path });
    }
  }
  if (s.format === 'date-time' && !DATE_TIME.test(v)) {
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Invalid value: ${goValue(v)}: ${p} in body must be of type date-time: ${goValue(v)}`, path });
  } else if (s.format === 'byte' && !BASE64.test(v)) {
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Invalid value: ${goValue(v)}: ${p} in body must be of type byte: ${goValue(v)}`, path });
  }
}

function checkNumber(v: number, s: Schema, path: PathNode | undefined, out: WalkResult): void {
  if (s.minimum !== undefined && v < s.minimum) {
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Invalid value: ${v}: ${p} in body should be greater than or equal to ${s.minimum}`, path });
  }
  if (s.maximum !== undefined && v > s.maximum) {
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Invalid value: ${v}: ${p} in body should be less than or equal to ${s.maximum}`, path });
  }
}
