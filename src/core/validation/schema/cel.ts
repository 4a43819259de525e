// The CRDs' CEL `x-kubernetes-validations` rules, evaluated with @bufbuild/cel the way the
// API server does: `self` is the field's value typed by its schema (integers as CEL ints,
// numbers as doubles, messages and maps as CEL maps), with Kubernetes' URL library
// (`isURL`, `url(...).getScheme()`, …) added. Each rule is parsed and planned once. The few
// rules every Istio CRD repeats (durations, port ranges, wildcards) also have a native
// evaluation, checked against CEL in the unit tests.
import type { CelResult } from '@bufbuild/cel';
import { cel, celExt } from './celLib.ts';
import type { CelRule, Schema } from '../../config/shape.ts';
import { parseGoDuration } from '../../go/duration.ts';
import { parseRequestUri } from './goUrl.ts';

const URL_MARK = '\u0000url';

function urlValue(s: string): CelResult | ReturnType<typeof cel.celMap> {
  const u = parseRequestUri(s);
  if ('error' in u) throw new Error(`URL parse error during conversion from string: ${u.error}`);
  return cel.celMap(
    new Map([
      [URL_MARK, '1'],
      ['scheme', u.scheme],
      ['host', u.host],
      ['path', u.path],
      ['query', u.query],
    ]),
  );
}

function urlPart(part: string) {
  return function (this: unknown): string {
    if (!cel.isCelMap(this) || this.get(URL_MARK) !== '1') throw new Error('no such overload');
    const v = this.get(part);
    return typeof v === 'string' ? v : '';
  };
}

/** The CEL environment with Kubernetes' URL library, made on the first rule CEL runs. */
let environment: ReturnType<typeof cel.celEnv> | undefined;

function celEnvironment(): ReturnType<typeof cel.celEnv> {
  if (environment) return environment;
  const { celFunc, celMethod, CelScalar, listType, mapType } = cel;
  const URL_TYPE = mapType(CelScalar.STRING, CelScalar.STRING);
  const k8sFuncs = [
    celFunc('isURL', [CelScalar.STRING], CelScalar.BOOL, (s: string) => !('error' in parseRequestUri(s))),
    celFunc('url', [CelScalar.STRING], URL_TYPE, (s: string) => urlValue(s) as never),
    celMethod('getScheme', URL_TYPE, [], CelScalar.STRING, urlPart('scheme')),
    celMethod('getHost', URL_TYPE, [], CelScalar.STRING, urlPart('host')),
    celMethod('getEscapedPath', URL_TYPE, [], CelScalar.STRING, urlPart('path')),
    celMethod('getQuery', URL_TYPE, [], listType(CelScalar.STRING) as never, urlPart('query') as never),
  ];
  return (environment = cel.celEnv({ funcs: [...celExt.strings, ...k8sFuncs] }));
}

type Program = (self: unknown) => CelResult;
const programs = new Map<string, Program | { compileError: string }>();

function program(rule: string): Program | { compileError: string } {
  let p = programs.get(rule);
  if (!p) {
    // The browser worker loads the library on demand (src/worker/celLib.lazy.ts): without it a rule is
    // not judged at all, rather than judged wrongly (and the verdict cached).
    if (cel === undefined) throw new Error('The CEL library is not loaded');
    try {
      const run = cel.plan(celEnvironment(), cel.parse(rule));
      p = (self: unknown) => run({ self } as never);
    } catch (e) {
      p = { compileError: e instanceof Error ? e.message : String(e) };
    }
    programs.set(rule, p);
  }
  return p;
}

/** `self` for CEL: the value typed by its schema. */
export function toCel(v: unknown, s: Schema | undefined): unknown {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map((x) => toCel(x, s?.items));
  if (typeof v === 'object') {
    const m = new Map<string, unknown>();
    const props = s?.properties;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (x === undefined) continue;
      const sub = props ? props[k] : s?.values;
      if (props && !sub && !s?.preserveUnknown) continue; // pruned by the API server
      m.set(k, toCel(x, sub));
    }
    return m;
  }
  if (typeof v === 'number') {
    const integral = s ? s.type === 'integer' || (s.type === 'any' && Number.isInteger(v)) : Number.isInteger(v);
    return integral && Number.isSafeInteger(v) ? BigInt(v) : v;
  }
  return v;
}

export type RuleOutcome = { ok: true } | { ok: false; error?: string };

/** Native evaluation of the rules repeated across Istio's CRDs (undefined: not one of them). */
function native(rule: string, v: unknown): boolean | undefined {
  switch (rule) {
    case "duration(self) >= duration('1ms')": {
      if (typeof v !== 'string') return undefined;
      const ns = parseGoDuration(v);
      return ns === undefined ? undefined : ns >= 1_000_000n;
    }
    case '0 < self && self <= 65535':
      return typeof v === 'number' && Number.isInteger(v) ? 0 < v && v <= 65535 : undefined;
    case '!self.contains("*")':
      return typeof v === 'string' ? !v.includes('*') : undefined;
    case 'self.all(key, !key.contains("*"))':
      return v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v).every((k) => !k.includes('*')) : undefined;
    case 'self.all(key, key.size() != 0)':
      return v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v).every((k) => k.length !== 0) : undefined;
    case 'self.size() == 0':
      return typeof v === 'string' ? v.length === 0 : undefined;
    default:
      return presenceRule(rule)?.(v);
  }
}

/** `has(self.x)` as CEL sees our values: the key is there (toCel drops undefined). */
function has(o: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(o, key) && o[key] !== undefined;
}

function asObject(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * The field-presence rules of Istio's CRDs (at most one of a set; some fields exclude
 * others), written in several line layouts: they run on every AuthorizationPolicy rule and
 * source, and CEL takes about 25 µs a time where this takes well under one.
 */
const PRESENCE_RULES = new Map<string, (v: unknown) => boolean | undefined>([
  [
    '(has(self.serviceAccounts) || has(self.notServiceAccounts)) ? (!has(self.principals) && !has(self.notPrincipals) && !has(self.namespaces) && !has(self.notNamespaces)) : true',
    (v) => {
      const o = asObject(v);
      if (!o) return undefined;
      if (!has(o, 'serviceAccounts') && !has(o, 'notServiceAccounts')) return true;
      return !has(o, 'principals') && !has(o, 'notPrincipals') && !has(o, 'namespaces') && !has(o, 'notNamespaces');
    },
  ],
]);

/**
 * The object, unless one of the fields holds null: CEL's `has()` is false for a null field
 * here, unlike has() above, so the rules below leave such values to CEL.
 */
function withoutNulls(v: unknown, ...keys: string[]): Record<string, unknown> | undefined {
  const o = asObject(v);
  return o && keys.every((k) => o[k] !== null) ? o : undefined;
}

/** A field's value as CEL's `has(self.f) ? self.f : fallback` reads it, when it is a string. */
function stringOr(o: Record<string, unknown>, key: string, fallback: string): string | undefined {
  if (!has(o, key)) return fallback;
  const v = o[key];
  return typeof v === 'string' ? v : undefined;
}

const PORT_NAME = /^[a-zA-Z0-9](?:[-a-zA-Z0-9]*[a-zA-Z0-9])?$/;

/**
 * The other rules on fields most workspaces set (every PeerAuthentication, ServiceEntry and
 * its endpoints, EnvoyFilter patch, WorkloadEntry), so that a run seldom needs CEL at all:
 * the browser worker then does not load the library before the first diagnostics. Each
 * answers only for the value shapes it is sure of (undefined hands the rule to CEL), and
 * tests/validation/celNatives.test.ts checks each against CEL.
 */
const SHAPE_RULES = new Map<string, (v: unknown) => boolean | undefined>([
  [
    'has(self.portLevelMtls) ? (((has(self.selector) && has(self.selector.matchLabels)) ? self.selector.matchLabels : {}).size() > 0) : true',
    (v) => {
      const o = withoutNulls(v, 'portLevelMtls', 'selector');
      if (!o) return undefined;
      if (!has(o, 'portLevelMtls')) return true;
      if (!has(o, 'selector')) return false;
      const sel = withoutNulls(o.selector, 'matchLabels');
      if (!sel) return undefined;
      if (!has(sel, 'matchLabels')) return false;
      const labels = withoutNulls(sel.matchLabels, ...Object.keys(asObject(sel.matchLabels) ?? {}));
      return labels ? Object.keys(labels).some((k) => labels[k] !== undefined) : undefined;
    },
  ],
  ['self != "*"', (v) => (typeof v === 'string' ? v !== '*' : undefined)],
  [
    'self.all(l1, self.exists_one(l2, l1.number == l2.number))',
    (v) => {
      if (!Array.isArray(v)) return undefined;
      const seen = new Set<number>();
      let unique = true;
      for (const x of v) {
        const n = asObject(x)?.number;
        if (typeof n !== 'number' || !Number.isSafeInteger(n)) return undefined;
        if (seen.has(n)) unique = false;
        seen.add(n);
      }
      return unique;
    },
  ],
  [
    '!((has(self.addresses) ? self.addresses : []).exists(k, k.contains("/")) && !((has(self.resolution) ? self.resolution : "NONE") in ["STATIC", "NONE"]))',
    (v) => {
      const o = withoutNulls(v, 'addresses', 'resolution');
      if (!o) return undefined;
      const addresses = has(o, 'addresses') ? o.addresses : [];
      if (!Array.isArray(addresses) || !addresses.every((a) => typeof a === 'string')) return undefined;
      const resolution = stringOr(o, 'resolution', 'NONE');
      if (resolution === undefined) return undefined;
      return !(addresses.some((a: string) => a.includes('/')) && !(resolution === 'STATIC' || resolution === 'NONE'));
    },
  ],
  [
    '((has(self.resolution) ? self.resolution : "NONE") == "NONE") ? !has(self.endpoints) : true',
    absentWhen('resolution', 'NONE', (r) => r === 'NONE', 'endpoints'),
  ],
  [
    '((has(self.resolution) ? self.resolution : "") == "DNS_ROUND_ROBIN") ? ((has(self.endpoints) ? self.endpoints : []).size() <= 1) : true',
    (v) => {
      const o = withoutNulls(v, 'resolution', 'endpoints');
      const resolution = o && stringOr(o, 'resolution', '');
      if (!o || resolution === undefined) return undefined;
      if (resolution !== 'DNS_ROUND_ROBIN') return true;
      const endpoints = has(o, 'endpoints') ? o.endpoints : [];
      return Array.isArray(endpoints) ? endpoints.length <= 1 : undefined;
    },
  ],
  [
    'has(self.context) ? ((self.context == "WAYPOINT") ? has(self.waypoint) : !has(self.waypoint)) : !has(self.waypoint)',
    (v) => {
      const o = withoutNulls(v, 'context', 'waypoint');
      if (!o) return undefined;
      if (!has(o, 'context')) return !has(o, 'waypoint');
      if (typeof o.context !== 'string') return undefined;
      return o.context === 'WAYPOINT' ? has(o, 'waypoint') : !has(o, 'waypoint');
    },
  ],
  ['self.startsWith("unix://") ? !self.endsWith("/") : true', (v) => (typeof v === 'string' ? !v.startsWith('unix://') || !v.endsWith('/') : undefined)],
  [
    'self.startsWith("unix://") ? (self.substring(7, 8) == "/" || self.substring(7, 8) == "@") : true',
    (v) => {
      if (typeof v !== 'string') return undefined;
      if (!v.startsWith('unix://')) return true;
      // substring(7, 8) of "unix://" alone is out of range: CEL's error, not ours to word.
      const c = [...v][7];
      return c === undefined ? undefined : c === '/' || c === '@';
    },
  ],
  [
    'has(self.address) || has(self.network)',
    (v) => {
      const o = withoutNulls(v, 'address', 'network');
      return o ? has(o, 'address') || has(o, 'network') : undefined;
    },
  ],
  [
    '(has(self.address) ? self.address : "").startsWith("unix://") ? !has(self.ports) : true',
    absentWhen('address', '', (a) => a.startsWith('unix://'), 'ports'),
  ],
  [
    'self.all(key, size(key) < 63 && key.matches("^[a-zA-Z0-9](?:[-a-zA-Z0-9]*[a-zA-Z0-9])?$"))',
    (v) => {
      const o = withoutNulls(v, ...Object.keys(asObject(v) ?? {}));
      // CEL's size() counts code points.
      return o ? Object.keys(o).every((k) => o[k] === undefined || ([...k].length < 63 && PORT_NAME.test(k))) : undefined;
    },
  ],
  ['((has(self.operation) ? self.operation : "") == "REMOVE") ? !has(self.value) : true', absentWhen('operation', '', (op) => op === 'REMOVE', 'value')],
  [
    'has(self.wasm) != has(self.lua)',
    (v) => {
      const o = withoutNulls(v, 'wasm', 'lua');
      return o ? has(o, 'wasm') !== has(o, 'lua') : undefined;
    },
  ],
]);

/** `when(has(self.field) ? self.field : fallback) ? !has(self.absent) : true`, natively. */
function absentWhen(field: string, fallback: string, when: (value: string) => boolean, absent: string): (v: unknown) => boolean | undefined {
  return (v) => {
    const o = withoutNulls(v, field, absent);
    const value = o && stringOr(o, field, fallback);
    if (!o || value === undefined) return undefined;
    return when(value) ? !has(o, absent) : true;
  };
}

/** `(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) <= 1`, for any fields a, b, …. */
function atMostOneOf(text: string): ((v: unknown) => boolean | undefined) | undefined {
  if (!/^\(has\(self\.\w+\) \? 1 : 0\)( \+ \(has\(self\.\w+\) \? 1 : 0\))+ <= 1$/.test(text)) return undefined;
  const fields = [...text.matchAll(/has\(self\.(\w+)\)/g)].map((m) => m[1] as string);
  return (v) => {
    const o = asObject(v);
    if (!o) return undefined;
    let n = 0;
    for (const f of fields) if (has(o, f)) n++;
    return n <= 1;
  };
}

const presenceByRule = new Map<string, ((v: unknown) => boolean | undefined) | null>();

function presenceRule(rule: string): ((v: unknown) => boolean | undefined) | undefined {
  let fn = presenceByRule.get(rule);
  if (fn === undefined) {
    const text = rule.replace(/\s+/g, ' ').trim();
    fn = PRESENCE_RULES.get(text) ?? SHAPE_RULES.get(text) ?? atMostOneOf(text) ?? null;
    presenceByRule.set(rule, fn);
  }
  return fn ?? undefined;
}

/** Whether evalRule needs the CEL library for this rule and value (no native evaluation decides it). */
export function needsCelLibrary(rule: CelRule, v: unknown): boolean {
  return native(rule.rule, v) === undefined;
}

/** Runs one rule on a value; `useNative: false` forces CEL (for tests). */
export function evalRule(rule: CelRule, v: unknown, s: Schema, useNative = true): RuleOutcome {
  if (useNative) {
    const n = native(rule.rule, v);
    if (n !== undefined) return n ? { ok: true } : { ok: false };
  }
  const p = program(rule.rule);
  if ('compileError' in p) return { ok: true }; // a rule we cannot compile judges nothing
  let r: CelResult;
  try {
    r = p(toCel(v, s));
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  if (cel.isCelError(r)) return { ok: false, error: celErrorText(r, rule.rule, v) };
  return r === true ? { ok: true } : { ok: false };
}

function celErrorText(r: { message: string }, rule: string, v: unknown): string {
  const m = r.message;
  // cel-go's wording for the errors the API server prints.
  if (/duration/i.test(m) && rule.includes('duration(')) return "type conversion error from 'string' to 'google.protobuf.Duration'";
  const key = /(?:no such key|field not found):?\s*(\S+)?/i.exec(m);
  if (key) return `no such key: ${key[1] ?? ''}`.trim();
  void v;
  return m;
}

/** The duration error text for a string the native check could not parse. */
export function durationError(): string {
  return "type conversion error from 'string' to 'google.protobuf.Duration'";
}
