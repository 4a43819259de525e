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

/** The editor's rendering (see document/locate.ts): map keys as `.key`, or `["key"]` when they hold dots or brackets. */
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

// The path of the node being walked, as a stack of segments below `base`: a PathNode is made
// only for a finding (a resource has dozens of fields and usually no finding).
let base: PathNode | undefined;
let depth = 0;
const segs: Array<string | number> = [];
const segIsKey: boolean[] = [];

function push(seg: string | number, key: boolean): void {
  segs[depth] = seg;
  segIsKey[depth] = key;
  depth++;
}

/** The path of the node being walked. */
function here(): PathNode | undefined {
  let p = base;
  for (let i = 0; i < depth; i++) p = child(p, segs[i] as string | number, segIsKey[i]);
  return p;
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
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A schema node with every keyword the walk reads copied into one class: schemas are built
 * by spreads and getters (see config/shape.ts), so reading their keywords directly costs a
 * lookup on many object layouts and a getter call for `properties`, for each field of each
 * resource. Schemas are never changed once made, so a node's copy is made once.
 */
class Node {
  readonly type: Schema['type'];
  readonly nullable: boolean;
  readonly intOrString: boolean;
  readonly preserveUnknown: boolean;
  readonly enum: Schema['enum'];
  readonly rules: Schema['rules'];
  readonly required: Schema['required'];
  readonly minProperties: number | undefined;
  readonly maxProperties: number | undefined;
  readonly oneOf: Schema['oneOf'];
  readonly minItems: number | undefined;
  readonly maxItems: number | undefined;
  readonly listType: Schema['listType'];
  readonly listMapKeys: Schema['listMapKeys'];
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly pattern: string | undefined;
  readonly format: string | undefined;
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
  /** `properties` as read once (a getter on message schemas). */
  readonly props: Readonly<Record<string, Schema>> | undefined;
  /** Nodes of the properties met so far (null: `props` has none of that name). */
  private readonly propNodes = new Map<string, Node | null>();
  private itemsNode: Node | undefined;
  private valuesNode: Node | undefined;

  constructor(readonly schema: Schema) {
    this.type = schema.type;
    this.nullable = !!schema.nullable;
    this.intOrString = !!schema.intOrString;
    this.preserveUnknown = !!schema.preserveUnknown;
    this.enum = schema.enum;
    this.rules = schema.rules;
    this.required = schema.required;
    this.minProperties = schema.minProperties;
    this.maxProperties = schema.maxProperties;
    this.oneOf = schema.oneOf;
    this.minItems = schema.minItems;
    this.maxItems = schema.maxItems;
    this.listType = schema.listType;
    this.listMapKeys = schema.listMapKeys;
    this.minLength = schema.minLength;
    this.maxLength = schema.maxLength;
    this.pattern = schema.pattern;
    this.format = schema.format;
    this.minimum = schema.minimum;
    this.maximum = schema.maximum;
    this.props = schema.properties;
  }

  /** The node of property `k` (of what `properties[k]` holds), or null. */
  prop(k: string): Node | null {
    let n = this.propNodes.get(k);
    if (n === undefined) {
      const sub = (this.props as Record<string, Schema>)[k];
      n = sub ? nodeOf(sub) : null;
      this.propNodes.set(k, n);
    }
    return n;
  }

  values(): Node | undefined {
    if (this.valuesNode === undefined && this.schema.values) this.valuesNode = nodeOf(this.schema.values);
    return this.valuesNode;
  }

  items(): Node | undefined {
    if (this.itemsNode === undefined && this.schema.items) this.itemsNode = nodeOf(this.schema.items);
    return this.itemsNode;
  }
}

const nodes = new WeakMap<Schema, Node>();

function nodeOf(s: Schema): Node {
  let n = nodes.get(s);
  if (n === undefined) nodes.set(s, (n = new Node(s)));
  return n;
}

function typeMatches(v: unknown, s: Node): boolean {
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

/** Validates `v` (present at `path`) against `s`, appending to `out`. */
export function walk(v: unknown, s: Schema, path: PathNode | undefined, out: WalkResult): void {
  const outerBase = base;
  const outerDepth = depth;
  base = path;
  depth = 0;
  try {
    walkNode(v, nodeOf(s), out);
  } finally {
    base = outerBase;
    depth = outerDepth;
  }
}

function walkNode(v: unknown, s: Node, out: WalkResult): void {
  if (v === null) {
    if (s.nullable || (s.type === 'any' && !s.intOrString)) return;
  }
  if (!typeMatches(v, s)) {
    const path = here();
    const p = apiPath(path);
    const actual = jsonType(v);
    const want = s.intOrString ? 'integer or string' : s.type;
    out.structural.push({ message: `${p}: Invalid value: "${actual}": ${p} in body must be of type ${want}: "${actual}"`, path });
    return;
  }
  const before = out.structural.length;
  switch (s.type) {
    case 'object':
      walkObject(v as Record<string, unknown>, s, out);
      break;
    case 'array':
      walkArray(v as unknown[], s, out);
      break;
    case 'string':
      checkString(v as string, s, out);
      break;
    case 'integer':
    case 'number':
      checkNumber(v as number, s, out);
      break;
    default:
      if (typeof v === 'string') checkString(v, s, out);
      else if (typeof v === 'number') checkNumber(v, s, out);
  }
  if (s.enum && s.type !== 'object' && s.type !== 'array' && !s.enum.includes(v as string | number)) {
    const path = here();
    out.structural.push({ message: `${apiPath(path)}: Unsupported value: ${goValue(v)}: supported values: ${s.enum.map((e) => goValue(e)).join(', ')}`, path });
  }
  // The API server runs a node's CEL rules only on values its structural schema accepted.
  if (s.rules && out.structural.length === before) {
    for (const rule of s.rules) {
      const r = evalRule(rule, v, s.schema);
      if (r.ok) continue;
      const path = here();
      const p = apiPath(path);
      const msg = rule.message ?? `failed rule: ${rule.rule}`;
      const type = s.type === 'any' ? (typeof v === 'number' ? 'integer' : jsonType(v)) : s.type;
      out.cel.push({
        message: r.error ? `${p}: Invalid value: "${type}": ${r.error} evaluating rule: ${msg}` : `${p}: Invalid value: "${type}": ${msg}`,
        path,
      });
    }
  }
}

function walkObject(o: Record<string, unknown>, s: Node, out: WalkResult): void {
  const props = s.props;
  const values = s.values();
  let count = 0;
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    const x = o[k];
    if (x === undefined) continue;
    count++;
    const sub = props ? s.prop(k) : null;
    if (sub || values) {
      push(k, !sub);
      walkNode(x, sub ?? (values as Node), out);
      depth--;
    } else if (props && !s.preserveUnknown) {
      const path = child(here(), k);
      out.structural.push({ message: `unknown field "${apiPath(path)}"`, path });
    }
  }
  if (s.required) {
    for (const k of s.required) {
      if (!Object.hasOwn(o, k) || o[k] === undefined) {
        const path = child(here(), k);
        out.structural.push({ message: `${apiPath(path)}: Required value`, path });
      }
    }
  }
  if (s.minProperties !== undefined && count < s.minProperties) {
    const path = here();
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Invalid value: ${count}: ${p} in body should have at least ${s.minProperties} properties`, path });
  }
  if (s.maxProperties !== undefined && count > s.maxProperties) {
    const path = here();
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Too many: ${count}: must have at most ${s.maxProperties} items`, path });
  }
  if (s.oneOf) {
    for (const group of s.oneOf) {
      const set = group.filter((k) => Object.hasOwn(o, k) && o[k] !== undefined);
      if (set.length > 1) {
        const path = here();
        const p = apiPath(path);
        out.structural.push({
          message: `${p}: Invalid value: "object": "${p}" must validate one and only one schema (oneOf). Found ${set.length} valid alternatives: only one of ${set.join(', ')} may be set`,
          path,
        });
      }
    }
  }
}

function walkArray(a: unknown[], s: Node, out: WalkResult): void {
  const item = s.items();
  if (item) {
    for (let i = 0; i < a.length; i++) {
      push(i, false);
      walkNode(a[i], item, out);
      depth--;
    }
  }
  if (s.maxItems !== undefined && a.length > s.maxItems) {
    const path = here();
    out.structural.push({ message: `${apiPath(path)}: Too many: ${a.length}: must have at most ${s.maxItems} items`, path });
  }
  if (s.minItems !== undefined && a.length < s.minItems) {
    const path = here();
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Invalid value: ${a.length}: ${p} in body should have at least ${s.minItems} items`, path });
  }
  if (s.listType === 'set') {
    for (let i = 1; i < a.length; i++) {
      for (let j = 0; j < i; j++) {
        if (deepEqual(a[i], a[j])) {
          const path = child(here(), i);
          out.structural.push({ message: `${apiPath(path)}: Duplicate value: ${goValue(a[i])}`, path });
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
      if (seen.has(sig)) {
        const path = child(here(), i);
        out.structural.push({ message: `${apiPath(path)}: Duplicate value: ${goValue(kv)}`, path });
      }
      seen.add(sig);
    }
  }
}

function checkString(v: string, s: Node, out: WalkResult): void {
  if (s.minLength !== undefined || s.maxLength !== undefined) {
    const n = runeLength(v);
    if (s.minLength !== undefined && n < s.minLength) {
      const path = here();
      const p = apiPath(path);
      out.structural.push({ message: `${p}: Invalid value: ${goValue(v)}: ${p} in body should be at least ${s.minLength} chars long`, path });
    }
    if (s.maxLength !== undefined && n > s.maxLength) {
      const path = here();
      out.structural.push({ message: `${apiPath(path)}: Too long: may not be more than ${s.maxLength} bytes`, path });
    }
  }
  if (s.pattern !== undefined) {
    const re = pattern(s.pattern);
    if (re && !re.test(v)) {
      const path = here();
      const p = apiPath(path);
      out.structural.push({ message: `${p}: Invalid value: ${goValue(v)}: ${p} in body should match '${s.pattern}'`, path });
    }
  }
  if (s.format === 'date-time' && !DATE_TIME.test(v)) {
    const path = here();
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Invalid value: ${goValue(v)}: ${p} in body must be of type date-time: ${goValue(v)}`, path });
  } else if (s.format === 'byte' && !BASE64.test(v)) {
    const path = here();
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Invalid value: ${goValue(v)}: ${p} in body must be of type byte: ${goValue(v)}`, path });
  }
}

function checkNumber(v: number, s: Node, out: WalkResult): void {
  if (s.minimum !== undefined && v < s.minimum) {
    const path = here();
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Invalid value: ${v}: ${p} in body should be greater than or equal to ${s.minimum}`, path });
  }
  if (s.maximum !== undefined && v > s.maximum) {
    const path = here();
    const p = apiPath(path);
    out.structural.push({ message: `${p}: Invalid value: ${v}: ${p} in body should be less than or equal to ${s.maximum}`, path });
  }
}
