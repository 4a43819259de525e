// protoc-gen-validate (PGV) rules: the `(validate.rules)` options of the Envoy protos, which
// Envoy enforces when it loads config (a cluster needs a name, a route a match, a duration
// must be positive...). They are read from the descriptors and applied to the checked JSON.
// Supported: message required/skip, oneof required, numeric const/lt/lte/gt/gte/in/not_in,
// bool const, string const/len/min_len/max_len/len_bytes/min_bytes/max_bytes/pattern/prefix/
// suffix/contains/not_contains/in/not_in and the well-known formats Envoy uses, bytes lengths,
// enum const/defined_only/in/not_in, repeated min/max_items/unique/items, map min/max_pairs/
// keys/values, any required/in/not_in, duration required/const/lt/lte/gt/gte/in/not_in,
// timestamp required, and `ignore_empty`.
import { runeCount, utf8Length } from '../../go/strings.ts';
import type { DescEnum, DescField, DescMessage, DescOneof, ScalarType } from '@bufbuild/protobuf';
import { getOption, hasOption } from '@bufbuild/protobuf';
import type { EnvoyProtos } from './registry.ts';
import { isErr, parseDuration, parseScalar, typeNameOf, type ScalarValue } from './scalars.ts';

/** Where the rules report (check.ts's context), over its path type P. */
export interface RuleSink<P> {
  violation(path: P, message: string, type: string): void;
  at(path: P, key: string | number): P;
}

/** A FieldRules message as @bufbuild/protobuf decodes it (only what we read). */
export interface FieldRules {
  message?: { required?: boolean; skip?: boolean };
  type: { case: string | undefined; value?: Rules };
}
type Rules = Record<string, unknown>;

const rulesCache = new WeakMap<DescField, FieldRules | null>();

export function fieldRulesOf(protos: EnvoyProtos, field: DescField): FieldRules | undefined {
  let r = rulesCache.get(field);
  if (r === undefined) {
    const ext = protos.ext.fieldRules;
    r = ext && hasOption(field, ext) ? (getOption(field, ext) as unknown as FieldRules) : null;
    rulesCache.set(field, r);
  }
  return r ?? undefined;
}

/** `message.skip`: the nested message's own rules are not checked. */
export function skipsNested(protos: EnvoyProtos, field: DescField): boolean {
  return fieldRulesOf(protos, field)?.message?.skip === true;
}

export function oneofRequired(protos: EnvoyProtos, oneof: DescOneof): boolean {
  const ext = protos.ext.oneofRequired;
  return !!ext && hasOption(oneof, ext) && getOption(oneof, ext) === true;
}

export function messageValidationDisabled(protos: EnvoyProtos, desc: DescMessage): boolean {
  const { messageDisabled, messageIgnored } = protos.ext;
  return (
    (!!messageDisabled && hasOption(desc, messageDisabled) && getOption(desc, messageDisabled) === true) ||
    (!!messageIgnored && hasOption(desc, messageIgnored) && getOption(desc, messageIgnored) === true)
  );
}

function has(r: Rules, key: string): boolean {
  return Object.hasOwn(r, key);
}

type Sink = RuleSink<unknown>;

// The field whose rules are being applied, for `fail` (a plain function rather than a closure
// per call: this runs for every ruled field of every message checked).
let failSink: Sink;
let failField: DescField;
// The field's path is made only when needed: FIELD_PATH stands for it until then.
let failParent: unknown;
let failKey: string;
const FIELD_PATH = Symbol('field path');

function resolve(p: unknown): unknown {
  return p === FIELD_PATH ? failSink.at(failParent, failKey) : p;
}

function fail(p: unknown, msg: string): void {
  failSink.violation(resolve(p), `${failField.name}: ${msg}`, failField.parent.typeName);
}

function atItem(p: unknown, key: string | number): unknown {
  return failSink.at(resolve(p), key);
}

/**
 * Applies a field's rules. `present`: the field was in the JSON (not null); `value` its JSON
 * (already known to be of the right form).
 */
export function applyFieldRules<P>(field: DescField, rules: FieldRules, present: boolean, value: unknown, parent: P, key: string, sinkIn: RuleSink<P>): void {
  const sink = sinkIn as Sink;
  failSink = sink;
  failField = field;
  failParent = parent;
  failKey = key;
  const path = FIELD_PATH;
  const kind = rules.type.case;
  const r = rules.type.value ?? {};

  switch (field.fieldKind) {
    case 'message': {
      if (!present) {
        if (rules.message?.required || ((kind === 'any' || kind === 'duration' || kind === 'timestamp') && r.required === true)) fail(path, 'is required');
        return;
      }
      applyToMessageValue(field.message, kind, r, value, path, fail);
      return;
    }
    case 'scalar':
    case 'enum': {
      if (!present && field.presence === 1 /* EXPLICIT: proto3 optional */) return;
      const v = present ? value : field.fieldKind === 'enum' ? 0 : zeroOf(field.scalar);
      applyToSingular(field.fieldKind === 'enum' ? field.enum : field.scalar, kind, r, v, path, fail, sink);
      return;
    }
    case 'list': {
      if (kind !== 'repeated') return;
      const items = present && Array.isArray(value) ? value : [];
      if (r.ignoreEmpty === true && items.length === 0) return;
      if (has(r, 'minItems') && BigInt(items.length) < (r.minItems as bigint))
        fail(path, `needs at least ${r.minItems} item${r.minItems === 1n ? '' : 's'}, has ${items.length}`);
      if (has(r, 'maxItems') && BigInt(items.length) > (r.maxItems as bigint)) fail(path, `allows at most ${r.maxItems} items, has ${items.length}`);
      if (r.unique === true) {
        const keys = new Set<string>();
        items.forEach((e, i) => {
          const k = JSON.stringify(e);
          if (keys.has(k)) fail(atItem(path, i), `items must be unique; ${k} repeats`);
          keys.add(k);
        });
      }
      const itemRules = r.items as FieldRules | undefined;
      if (itemRules) {
        const elem = field.listKind === 'message' ? field.message : field.listKind === 'enum' ? field.enum : field.scalar;
        items.forEach((e, i) => applyToElement(elem, itemRules, e, atItem(path, i), fail, sink));
      }
      return;
    }
    case 'map': {
      if (kind !== 'map') return;
      const obj = present && value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
      const keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
      if (r.ignoreEmpty === true && keys.length === 0) return;
      if (has(r, 'minPairs') && BigInt(keys.length) < (r.minPairs as bigint))
        fail(path, `needs at least ${r.minPairs} entr${r.minPairs === 1n ? 'y' : 'ies'}, has ${keys.length}`);
      if (has(r, 'maxPairs') && BigInt(keys.length) > (r.maxPairs as bigint)) fail(path, `allows at most ${r.maxPairs} entries, has ${keys.length}`);
      const keyRules = r.keys as FieldRules | undefined;
      const valueRules = r.values as FieldRules | undefined;
      for (const k of keys) {
        const kp = atItem(path, k);
        if (keyRules) applyToElement(field.mapKey, keyRules, mapKeyValue(field.mapKey, k), kp, (p, m) => fail(p, `key ${m}`), sink);
        if (valueRules) {
          const elem = field.mapKind === 'message' ? field.message : field.mapKind === 'enum' ? field.enum : field.scalar;
          applyToElement(elem, valueRules, obj[k], kp, fail, sink);
        }
      }
      return;
    }
  }
}

function zeroOf(t: ScalarType): unknown {
  switch (t) {
    case 9 /* STRING */:
    case 12 /* BYTES */:
      return '';
    case 8 /* BOOL */:
      return false;
    default:
      return 0;
  }
}

function mapKeyValue(t: ScalarType, k: string): unknown {
  return t === 9 ? k : t === 8 ? k === 'true' : k;
}

function applyToElement(
  elem: DescMessage | DescEnum | ScalarType,
  rules: FieldRules,
  v: unknown,
  path: unknown,
  fail: (p: unknown, m: string) => void,
  sink: Sink,
): void {
  const kind = rules.type.case;
  const r = rules.type.value ?? {};
  if (typeof elem === 'object' && elem.kind === 'message') {
    if (v === null || v === undefined) return;
    applyToMessageValue(elem, kind, r, v, path, fail);
    return;
  }
  applyToSingular(elem, kind, r, v, path, fail, sink);
}

const WRAPPED: Record<string, ScalarType> = {
  'google.protobuf.DoubleValue': 1,
  'google.protobuf.FloatValue': 2,
  'google.protobuf.Int64Value': 3,
  'google.protobuf.UInt64Value': 4,
  'google.protobuf.Int32Value': 5,
  'google.protobuf.BoolValue': 8,
  'google.protobuf.StringValue': 9,
  'google.protobuf.BytesValue': 12,
  'google.protobuf.UInt32Value': 13,
};

function applyToMessageValue(
  desc: DescMessage,
  kind: string | undefined,
  r: Rules,
  value: unknown,
  path: unknown,
  fail: (p: unknown, m: string) => void,
): void {
  if (kind === undefined) return;
  const wrapped = WRAPPED[desc.typeName];
  if (wrapped !== undefined) {
    scalarRules(wrapped, kind, r, value, path, fail);
    return;
  }
  if (kind === 'duration' && desc.typeName === 'google.protobuf.Duration') {
    const d = parseDuration(value);
    if (typeof d === 'string') return;
    const lim = (key: string) => (has(r, key) ? durationNanos(r[key] as { seconds: bigint; nanos: number }) : undefined);
    rangeRules(d, { const: lim('const'), lt: lim('lt'), lte: lim('lte'), gt: lim('gt'), gte: lim('gte') }, path, fail, formatNanos);
    const inList = (r.in as { seconds: bigint; nanos: number }[] | undefined) ?? [];
    if (inList.length && !inList.some((x) => durationNanos(x) === d))
      fail(path, `must be one of ${inList.map((x) => formatNanos(durationNanos(x))).join(', ')}`);
    const notIn = (r.notIn as { seconds: bigint; nanos: number }[] | undefined) ?? [];
    if (notIn.some((x) => durationNanos(x) === d)) fail(path, `must not be ${formatNanos(d)}`);
    return;
  }
  if (kind === 'any' && desc.typeName === 'google.protobuf.Any') {
    const url = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['@type'] : undefined;
    if (typeof url !== 'string') return;
    const inList = (r.in as string[] | undefined) ?? [];
    if (inList.length && !inList.includes(url) && !inList.some((u) => typeNameOf(u) === typeNameOf(url)))
      fail(path, `@type must be one of ${inList.join(', ')}`);
    const notIn = (r.notIn as string[] | undefined) ?? [];
    if (notIn.includes(url)) fail(path, `@type must not be ${url}`);
  }
}

function durationNanos(d: { seconds: bigint; nanos: number }): bigint {
  return BigInt(d.seconds) * 1000000000n + BigInt(d.nanos);
}

function formatNanos(n: bigint): string {
  const neg = n < 0n;
  const a = neg ? -n : n;
  const s = a / 1000000000n;
  const frac = (a % 1000000000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${s}${frac ? `.${frac}` : ''}s`;
}

function applyToSingular(
  elem: DescEnum | ScalarType,
  kind: string | undefined,
  r: Rules,
  v: unknown,
  path: unknown,
  fail: (p: unknown, m: string) => void,
  _sink: Sink,
): void {
  if (kind === undefined) return;
  if (typeof elem === 'object') {
    if (kind !== 'enum') return;
    const n = typeof v === 'number' ? v : typeof v === 'string' ? elem.values.find((x) => x.name === v)?.number : undefined;
    if (n === undefined) return;
    const name = elem.value[n]?.name ?? String(n);
    if (has(r, 'const') && n !== r.const) fail(path, `must be ${elem.value[r.const as number]?.name ?? r.const}`);
    if (r.definedOnly === true && elem.value[n] === undefined) fail(path, `${n} is not a defined value of ${elem.typeName}`);
    const inList = (r.in as number[] | undefined) ?? [];
    if (inList.length && !inList.includes(n)) fail(path, `must be one of ${inList.map((x) => elem.value[x]?.name ?? x).join(', ')}`);
    const notIn = (r.notIn as number[] | undefined) ?? [];
    if (notIn.includes(n)) fail(path, `must not be ${name}`);
    return;
  }
  scalarRules(elem, kind, r, v, path, fail);
}

const NUMERIC_CASES = new Set(['float', 'double', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'fixed32', 'fixed64', 'sfixed32', 'sfixed64']);

function scalarRules(t: ScalarType, kind: string, r: Rules, v: unknown, path: unknown, fail: (p: unknown, m: string) => void): void {
  const p = parseScalar(t, v);
  if (isErr(p)) return;
  const parsed: ScalarValue = p;
  if (NUMERIC_CASES.has(kind)) {
    if (typeof parsed !== 'number' && typeof parsed !== 'bigint') return;
    if (r.ignoreEmpty === true && (parsed === 0 || parsed === 0n)) return;
    const lim = (key: string) => (has(r, key) ? (r[key] as number | bigint) : undefined);
    rangeRules(parsed, { const: lim('const'), lt: lim('lt'), lte: lim('lte'), gt: lim('gt'), gte: lim('gte') }, path, fail, String);
    const inList = (r.in as (number | bigint)[] | undefined) ?? [];
    if (inList.length && !inList.some((x) => cmp(parsed, x) === 0)) fail(path, `must be one of ${inList.join(', ')}`);
    const notIn = (r.notIn as (number | bigint)[] | undefined) ?? [];
    if (notIn.some((x) => cmp(parsed, x) === 0)) fail(path, `must not be ${parsed}`);
    return;
  }
  if (kind === 'bool') {
    if (has(r, 'const') && parsed !== r.const) fail(path, `must be ${r.const}`);
    return;
  }
  if (kind === 'string' && typeof parsed === 'string') {
    stringRules(parsed, r, path, fail);
    return;
  }
  if (kind === 'bytes' && typeof parsed === 'object') {
    const n = BigInt(parsed.bytes);
    if (r.ignoreEmpty === true && n === 0n) return;
    if (has(r, 'len') && n !== r.len) fail(path, `must be exactly ${r.len} bytes`);
    if (has(r, 'minLen') && n < (r.minLen as bigint)) fail(path, `must be at least ${r.minLen} bytes`);
    if (has(r, 'maxLen') && n > (r.maxLen as bigint)) fail(path, `must be at most ${r.maxLen} bytes`);
  }
}

function cmp(a: number | bigint, b: number | bigint): number {
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    if ((typeof a === 'number' && !Number.isInteger(a)) || (typeof b === 'number' && !Number.isInteger(b)))
      return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** PGV's const/lt/lte/gt/gte, including its exclusive ranges (gt > lt: outside the range). */
function rangeRules<T extends number | bigint>(
  v: T,
  lim: { const?: T | undefined; lt?: T | undefined; lte?: T | undefined; gt?: T | undefined; gte?: T | undefined },
  path: unknown,
  fail: (p: unknown, m: string) => void,
  show: (x: T) => string,
): void {
  if (lim.const !== undefined && cmp(v, lim.const) !== 0) fail(path, `must be ${show(lim.const)}`);
  const upper = lim.lt !== undefined ? lim.lt : lim.lte;
  const upperIncl = lim.lt === undefined;
  const lower = lim.gt !== undefined ? lim.gt : lim.gte;
  const lowerIncl = lim.gt === undefined;
  if (upper === undefined && lower === undefined) return;
  const belowUpper = upper === undefined || (upperIncl ? cmp(v, upper) <= 0 : cmp(v, upper) < 0);
  const aboveLower = lower === undefined || (lowerIncl ? cmp(v, lower) >= 0 : cmp(v, lower) > 0);
  const exclusive = upper !== undefined && lower !== undefined && cmp(upper, lower) < 0;
  if (exclusive ? belowUpper || aboveLower : belowUpper && aboveLower) return;
  const up = upper !== undefined ? `${upperIncl ? '<=' : '<'} ${show(upper)}` : '';
  const lo = lower !== undefined ? `${lowerIncl ? '>=' : '>'} ${show(lower)}` : '';
  fail(path, exclusive ? `must be ${up} or ${lo}, is ${show(v)}` : `must be ${[lo, up].filter(Boolean).join(' and ')}, is ${show(v)}`);
}

const HEADER_NAME_STRICT = /^:?[0-9a-zA-Z!#$%&'*+\-.^_|~`]+$/;
const HEADER_VALUE_STRICT = /^[^\u0000-\u0008\u000A-\u001F\u007F]*$/;
const HEADER_LOOSE = /^[^\u0000\u000A\u000D]*$/;
const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const patternCache = new Map<string, RegExp | null>();

function isIpv6(s: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(s) || s.split('::').length > 2) return false;
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const parts = (x: string | undefined) => (x ? x.split(':') : []);
  const groups = [...parts(head), ...parts(tail)];
  const last = groups[groups.length - 1];
  const v4 = last !== undefined && last.includes('.');
  if (v4 && !IPV4.test(last)) return false;
  const n = groups.length + (v4 ? 1 : 0);
  if (!groups.slice(0, v4 ? -1 : undefined).every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g))) return false;
  return tail === undefined ? n === 8 : n < 8;
}

const STRING_RULE_KEYS = ['const', 'len', 'minLen', 'maxLen', 'lenBytes', 'minBytes', 'maxBytes', 'prefix', 'suffix', 'contains', 'notContains', 'pattern'];

/** Whether a StringRules has anything to check (besides an empty in/not_in). */
function hasAnyStringRule(r: Rules): boolean {
  if ((r.in as unknown[] | undefined)?.length || (r.notIn as unknown[] | undefined)?.length) return true;
  if ((r.wellKnown as { case?: string } | undefined)?.case !== undefined) return true;
  return STRING_RULE_KEYS.some((k) => has(r, k));
}

function stringRules(s: string, r: Rules, path: unknown, fail: (p: unknown, m: string) => void): void {
  if (r.ignoreEmpty === true && s === '') return;
  if (!hasAnyStringRule(r)) return;
  const show = JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);
  if (has(r, 'const') && s !== r.const) fail(path, `must be ${JSON.stringify(r.const)}`);
  if (has(r, 'len') || has(r, 'minLen') || has(r, 'maxLen')) {
    const chars = BigInt(runeCount(s));
    if (has(r, 'len') && chars !== r.len) fail(path, `must be exactly ${r.len} characters`);
    if (has(r, 'minLen') && chars < (r.minLen as bigint))
      fail(path, r.minLen === 1n ? 'must not be empty' : `must be at least ${r.minLen} characters, is ${chars}`);
    if (has(r, 'maxLen') && chars > (r.maxLen as bigint)) fail(path, `must be at most ${r.maxLen} characters, is ${chars}`);
  }
  if (has(r, 'lenBytes') || has(r, 'minBytes') || has(r, 'maxBytes')) {
    const bytes = BigInt(utf8Length(s));
    if (has(r, 'lenBytes') && bytes !== r.lenBytes) fail(path, `must be exactly ${r.lenBytes} bytes`);
    if (has(r, 'minBytes') && bytes < (r.minBytes as bigint)) fail(path, `must be at least ${r.minBytes} bytes`);
    if (has(r, 'maxBytes') && bytes > (r.maxBytes as bigint)) fail(path, `must be at most ${r.maxBytes} bytes, is ${bytes}`);
  }
  if (has(r, 'prefix') && !s.startsWith(r.prefix as string)) fail(path, `must start with ${JSON.stringify(r.prefix)}`);
  if (has(r, 'suffix') && !s.endsWith(r.suffix as string)) fail(path, `must end with ${JSON.stringify(r.suffix)}`);
  if (has(r, 'contains') && !s.includes(r.contains as string)) fail(path, `must contain ${JSON.stringify(r.contains)}`);
  if (has(r, 'notContains') && s.includes(r.notContains as string)) fail(path, `must not contain ${JSON.stringify(r.notContains)}`);
  const inList = (r.in as string[] | undefined) ?? [];
  if (inList.length && !inList.includes(s)) fail(path, `must be one of ${inList.map((x) => JSON.stringify(x)).join(', ')}`);
  const notIn = (r.notIn as string[] | undefined) ?? [];
  if (notIn.includes(s)) fail(path, `must not be ${show}`);
  if (has(r, 'pattern')) {
    const src = r.pattern as string;
    let re = patternCache.get(src);
    if (re === undefined) {
      try {
        // RE2 and JavaScript agree on the patterns in the Envoy protos; one JavaScript cannot
        // compile is skipped rather than guessed.
        re = new RegExp(src, 'u');
      } catch {
        re = null;
      }
      patternCache.set(src, re);
    }
    if (re && !re.test(s)) fail(path, `${show} does not match ${src}`);
  }
  const wk = r.wellKnown as { case?: string; value?: unknown } | undefined;
  switch (wk?.case) {
    case 'wellKnownRegex': {
      const strict = r.strict !== false;
      if (wk.value === 1 && !(strict ? HEADER_NAME_STRICT : HEADER_LOOSE).test(s)) fail(path, `${show} is not a valid HTTP header name`);
      if (wk.value === 2 && !(strict ? HEADER_VALUE_STRICT : HEADER_LOOSE).test(s)) fail(path, `${show} is not a valid HTTP header value`);
      break;
    }
    case 'hostname':
      if (wk.value && !HOSTNAME.test(s)) fail(path, `${show} is not a hostname`);
      break;
    case 'ip':
      if (wk.value && !IPV4.test(s) && !isIpv6(s)) fail(path, `${show} is not an IP address`);
      break;
    case 'ipv4':
      if (wk.value && !IPV4.test(s)) fail(path, `${show} is not an IPv4 address`);
      break;
    case 'ipv6':
      if (wk.value && !isIpv6(s)) fail(path, `${show} is not an IPv6 address`);
      break;
    case 'address':
      if (wk.value && !IPV4.test(s) && !isIpv6(s) && !HOSTNAME.test(s)) fail(path, `${show} is not a hostname or IP address`);
      break;
    case 'uuid':
      if (wk.value && !UUID.test(s)) fail(path, `${show} is not a UUID`);
      break;
    case 'uri':
      if (wk.value && !/^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/.test(s)) fail(path, `${show} is not an absolute URI`);
      break;
    case 'email':
      if (wk.value && !/^[^@\s]+@[^@\s]+$/.test(s)) fail(path, `${show} is not an email address`);
      break;
    default:
      break;
  }
}
