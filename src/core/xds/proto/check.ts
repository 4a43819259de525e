// Strict proto3-JSON check of Envoy resources against the Envoy v3 descriptors.
//
// We walk the JSON ourselves over the descriptors (rather than calling @bufbuild/protobuf's
// fromJson, which stops at the first error and says little about where) so that every problem is
// reported, each with its JSON path. The rules are the proto3 JSON mapping's, as the strict
// parsers (protobuf-es, Go protojson with DiscardUnknown false) apply them:
//   - a key must be a field's JSON name or its proto name, at most once per field;
//   - at most one member of a oneof may be set; null means "not set";
//   - ints as JSON numbers or decimal strings within range; 64-bit ones may be strings;
//     floats as numbers or "NaN"/"Infinity"/"-Infinity"; bools as true/false; bytes as base64;
//   - enums by value name (or number of a defined value);
//   - well-known types in their special forms (Duration "1.5s", Timestamp RFC 3339, wrappers as
//     their primitive, Struct/Value/ListValue as any JSON, FieldMask as a string);
//   - Any by `@type`: resolved in the registry; a type outside it must be on the Istio allow-list;
//     TypedStruct payloads are resolved by their `type_url` the same way.
// On top of the JSON mapping, the constraints Envoy enforces when it loads config are checked
// (protoc-gen-validate rules in the protos, see validate.ts), and deprecated or
// disallowed-by-default fields are reported.
import { getOption, hasOption, ScalarType, type DescEnum, type DescField, type DescMessage, type DescOneof } from '@bufbuild/protobuf';
import { envoyProtos, type EnvoyProtos } from './registry.ts';
import { allowedTypedConfig } from './istioSchemas.ts';
import { describe, isErr, isPlainObject, parseDuration, parseScalar, SCALAR_NAME, timestampError, typeNameOf, type JsonObject } from './scalars.ts';
import { applyFieldRules, fieldRulesOf, messageValidationDisabled, oneofRequired, skipsNested, type FieldRules, type RuleSink } from './validate.ts';
import { editDistance } from '../../document/editDistance.ts';

export type ProtoProblemCode =
  /** A key that is no field of the message. */
  | 'unknown-field'
  /** A value of the wrong JSON type for its field (string for a message, number for a bool...). */
  | 'wrong-type'
  /** Right JSON type, invalid value: int out of range, bad duration, bad base64, bad type URL... */
  | 'bad-value'
  /** An enum value name (or number) the enum does not define. */
  | 'bad-enum'
  /** An Any `@type` or TypedStruct `type_url` that is neither in the Envoy protos nor allow-listed. */
  | 'unknown-type'
  /** An Any with fields but no `@type`, or a TypedStruct without `type_url`, or no type at the top. */
  | 'missing-type'
  /** The same field twice (by its JSON name and its proto name). */
  | 'duplicate-field'
  /** Two members of one oneof set. */
  | 'oneof-conflict'
  /** A protoc-gen-validate rule of the protos that the value breaks (Envoy rejects such config). */
  | 'constraint'
  /** A field or enum value that Envoy rejects unless a runtime override allows it. */
  | 'disallowed'
  /** A deprecated field or enum value (a warning: Envoy still accepts it). */
  | 'deprecated';

export interface ProtoProblem {
  /** JSON path of the offending value, `$` being the checked object: `$.filterChains[0].filters[1].typedConfig.statPrefix`. */
  path: string;
  code: ProtoProblemCode;
  message: string;
  severity: 'error' | 'warning';
  /** Full name of the message that holds the offending value. */
  type?: string;
  /** The (outermost) xDS resource it is in, when known: `Cluster outbound|9080||reviews.default.svc.cluster.local`. */
  resource?: string;
}

export interface CheckOptions {
  /** Check protoc-gen-validate constraints (default true). */
  constraints?: boolean;
  /** Report deprecated fields and enum values as warnings (default true). */
  deprecations?: boolean;
  /** Stop after this many problems (default 1000). */
  maxProblems?: number;
}

export const TYPE_URL_PREFIX = 'type.googleapis.com/';

// --- Paths ----------------------------------------------------------------------------------

interface Path {
  readonly up: Path | undefined;
  readonly key: string | number;
}

const ROOT: Path = { up: undefined, key: '$' };
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function at(up: Path, key: string | number): Path {
  return { up, key };
}

export function pathString(p: Path): string {
  const parts: (string | number)[] = [];
  for (let q: Path | undefined = p; q; q = q.up) parts.push(q.key);
  let s = '';
  for (let i = parts.length - 1; i >= 0; i--) {
    const k = parts[i]!;
    if (i === parts.length - 1) s = String(k);
    else if (typeof k === 'number') s += `[${k}]`;
    else if (IDENT.test(k)) s += `.${k}`;
    else s += `[${JSON.stringify(k)}]`;
  }
  return s;
}

// --- Context --------------------------------------------------------------------------------

class StopChecking extends Error {}

interface Ctx extends RuleSink<Path> {
  readonly protos: EnvoyProtos;
  readonly problems: ProtoProblem[];
  readonly constraints: boolean;
  readonly deprecations: boolean;
  readonly maxProblems: number;
  /** Current xDS resource label. */
  resource: string | undefined;
  /** Depth of messages whose PGV rules are skipped (`message.skip`, `validate.disabled`). */
  skipRules: number;
}

function report(ctx: Ctx, path: Path, code: ProtoProblemCode, message: string, type?: string, severity: 'error' | 'warning' = 'error'): void {
  const p: ProtoProblem = { path: pathString(path), code, message, severity };
  if (type !== undefined) p.type = type;
  if (ctx.resource !== undefined) p.resource = ctx.resource;
  ctx.problems.push(p);
  if (ctx.problems.length >= ctx.maxProblems) throw new StopChecking();
}

// --- JSON helpers ---------------------------------------------------------------------------

/** Keys of a JSON object whose value is not undefined (JSON.stringify drops those). */
function keysOf(o: JsonObject): string[] {
  const out: string[] = [];
  for (const k of Object.keys(o)) if (o[k] !== undefined) out.push(k);
  return out;
}

/** Any JSON value (Struct, Value, opaque payloads): only JS values that JSON cannot carry are flagged. */
function checkJson(v: unknown, path: Path, ctx: Ctx, type: string): void {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) report(ctx, path, 'bad-value', `${v} is not representable in JSON`, type);
    return;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      if (v[i] === undefined) report(ctx, at(path, i), 'wrong-type', 'undefined is not a JSON value', type);
      else checkJson(v[i], at(path, i), ctx, type);
    }
    return;
  }
  if (isPlainObject(v)) {
    for (const k of keysOf(v)) checkJson(v[k], at(path, k), ctx, type);
    return;
  }
  report(ctx, path, 'wrong-type', `${describe(v)} is not a JSON value`, type);
}

// --- Descriptor caches ----------------------------------------------------------------------

/** What the walk needs of a message, computed once per message type. */
interface MessagePlan {
  /** Fields by JSON name and by proto name. */
  byKey: Map<string, DescField>;
  /** Fields with protoc-gen-validate rules. */
  ruled: [DescField, FieldRules][];
  /** Fields whose nested message rules are skipped (`message.skip`). */
  skipNested: Set<DescField>;
  /** Fields disallowed by default (envoy.annotations.disallowed_by_default). */
  disallowed: Set<DescField>;
  /** Oneofs with (validate.required). */
  requiredOneofs: DescOneof[];
  /** The message's rules are off (validate.disabled). */
  disabled: boolean;
  /** The field that names it, for an xDS resource (problems are labelled with the name). */
  resourceKey: string | undefined;
  /** udpa/xds TypedStruct: its payload is checked as the message its type_url names. */
  typedStruct: boolean;
}

const plans = new WeakMap<DescMessage, MessagePlan>();

function planOf(protos: EnvoyProtos, desc: DescMessage): MessagePlan {
  let plan = plans.get(desc);
  if (plan) return plan;
  const byKey = new Map<string, DescField>();
  const ruled: [DescField, FieldRules][] = [];
  const skipNested = new Set<DescField>();
  const disallowed = new Set<DescField>();
  const ext = protos.ext.disallowedByDefault;
  for (const f of desc.fields) {
    byKey.set(f.name, f);
    byKey.set(f.jsonName, f);
    const rules = fieldRulesOf(protos, f);
    if (rules) ruled.push([f, rules]);
    if (skipsNested(protos, f)) skipNested.add(f);
    if (ext && hasOption(f, ext) && getOption(f, ext)) disallowed.add(f);
  }
  plan = {
    byKey,
    ruled,
    skipNested,
    disallowed,
    requiredOneofs: desc.oneofs.filter((o) => oneofRequired(protos, o)),
    disabled: messageValidationDisabled(protos, desc),
    resourceKey: RESOURCE_NAME[desc.typeName],
    typedStruct: TYPED_STRUCTS.has(desc.typeName),
  };
  plans.set(desc, plan);
  return plan;
}

/** Enum values that are deprecated or disallowed by default, by number (empty for most enums). */
const enumNotes = new WeakMap<DescEnum, Map<number, 'deprecated' | 'disallowed'>>();

function enumNotesOf(protos: EnvoyProtos, e: DescEnum): Map<number, 'deprecated' | 'disallowed'> {
  let m = enumNotes.get(e);
  if (!m) {
    m = new Map();
    const ext = protos.ext.disallowedByDefaultEnum;
    for (const v of e.values) {
      if (v.number === 0) continue;
      if (ext && hasOption(v, ext) && getOption(v, ext)) m.set(v.number, 'disallowed');
      else if (v.deprecated) m.set(v.number, 'deprecated');
    }
    enumNotes.set(e, m);
  }
  return m;
}

const enumMaps = new WeakMap<DescEnum, Map<string, number>>();

function enumByName(e: DescEnum): Map<string, number> {
  let m = enumMaps.get(e);
  if (!m) {
    m = new Map(e.values.map((v) => [v.name, v.number]));
    enumMaps.set(e, m);
  }
  return m;
}

/** xDS resources we label problems with, and the field that names them. */
const RESOURCE_NAME: Record<string, string> = {
  'envoy.config.cluster.v3.Cluster': 'name',
  'envoy.config.listener.v3.Listener': 'name',
  'envoy.config.route.v3.RouteConfiguration': 'name',
  'envoy.config.route.v3.ScopedRouteConfiguration': 'name',
  'envoy.config.endpoint.v3.ClusterLoadAssignment': 'cluster_name',
  'envoy.extensions.transport_sockets.tls.v3.Secret': 'name',
  'envoy.config.core.v3.TypedExtensionConfig': 'name',
};

function resourceLabel(plan: MessagePlan, desc: DescMessage, o: JsonObject): string | undefined {
  const key = plan.resourceKey;
  if (key === undefined) return undefined;
  const f = plan.byKey.get(key)!;
  const name = o[f.jsonName] ?? o[f.name];
  return `${desc.name} ${typeof name === 'string' ? name : '(unnamed)'}`;
}

function suggestion(desc: DescMessage, key: string): string {
  const norm = (s: string) => s.replace(/_/g, '').toLowerCase();
  const k = norm(key);
  let best: DescField | undefined;
  let bestD = Infinity;
  for (const f of desc.fields) {
    const d = nearDistance(k, norm(f.name));
    if (d < bestD) {
      bestD = d;
      best = f;
    }
  }
  return best && bestD <= Math.max(1, Math.floor(k.length / 4)) ? ` (did you mean "${best.jsonName}"?)` : '';
}

/** Edit distance, or 99 when the lengths alone differ by more than 3. */
function nearDistance(a: string, b: string): number {
  return Math.abs(a.length - b.length) > 3 ? 99 : editDistance(a, b);
}

// --- Scalars --------------------------------------------------------------------------------

// --- Well-known types -----------------------------------------------------------------------

const WRAPPERS: Record<string, ScalarType> = {
  'google.protobuf.DoubleValue': ScalarType.DOUBLE,
  'google.protobuf.FloatValue': ScalarType.FLOAT,
  'google.protobuf.Int64Value': ScalarType.INT64,
  'google.protobuf.UInt64Value': ScalarType.UINT64,
  'google.protobuf.Int32Value': ScalarType.INT32,
  'google.protobuf.UInt32Value': ScalarType.UINT32,
  'google.protobuf.BoolValue': ScalarType.BOOL,
  'google.protobuf.StringValue': ScalarType.STRING,
  'google.protobuf.BytesValue': ScalarType.BYTES,
};

/** Well-known types whose JSON is not an object of their fields. */
const SPECIAL_JSON = new Set([
  'google.protobuf.Any',
  'google.protobuf.Duration',
  'google.protobuf.Timestamp',
  'google.protobuf.FieldMask',
  'google.protobuf.Struct',
  'google.protobuf.Value',
  'google.protobuf.ListValue',
  ...Object.keys(WRAPPERS),
]);

// --- The walk -------------------------------------------------------------------------------

/**
 * Checks a value for a singular message field. Returns whether the JSON form was valid (so that
 * constraints can be evaluated on it).
 */
function checkMessageValue(desc: DescMessage, v: unknown, path: Path, ctx: Ctx): boolean {
  const tn = desc.typeName;
  if (SPECIAL_JSON.has(tn)) return checkSpecial(desc, v, path, ctx);
  if (!isPlainObject(v)) {
    report(ctx, path, 'wrong-type', `expected an object (${tn}), got ${describe(v)}`, tn);
    return false;
  }
  checkObject(desc, v, path, ctx, false);
  return true;
}

function checkSpecial(desc: DescMessage, v: unknown, path: Path, ctx: Ctx): boolean {
  const tn = desc.typeName;
  const wrapped = WRAPPERS[tn];
  if (wrapped !== undefined) {
    const r = parseScalar(wrapped, v);
    if (isErr(r)) {
      report(ctx, path, r.code, `${r.error} (${tn})`, tn);
      return false;
    }
    return true;
  }
  switch (tn) {
    case 'google.protobuf.Any':
      return checkAny(v, path, ctx);
    case 'google.protobuf.Duration': {
      const d = parseDuration(v);
      if (typeof d === 'string') {
        report(ctx, path, typeof v === 'string' ? 'bad-value' : 'wrong-type', d, tn);
        return false;
      }
      return true;
    }
    case 'google.protobuf.Timestamp': {
      const e = timestampError(v);
      if (e !== undefined) {
        report(ctx, path, typeof v === 'string' ? 'bad-value' : 'wrong-type', e, tn);
        return false;
      }
      return true;
    }
    case 'google.protobuf.FieldMask':
      if (typeof v !== 'string') {
        report(ctx, path, 'wrong-type', `expected a field mask string ("a.b,c"), got ${describe(v)}`, tn);
        return false;
      }
      if (v !== '' && !/^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)*(,[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)*)*$/.test(v)) {
        report(ctx, path, 'bad-value', `${describe(v)} is not a field mask (comma-separated lowerCamel paths)`, tn);
        return false;
      }
      return true;
    case 'google.protobuf.Struct':
      if (!isPlainObject(v)) {
        report(ctx, path, 'wrong-type', `expected an object (google.protobuf.Struct), got ${describe(v)}`, tn);
        return false;
      }
      checkJson(v, path, ctx, tn);
      return true;
    case 'google.protobuf.ListValue':
      if (!Array.isArray(v)) {
        report(ctx, path, 'wrong-type', `expected an array (google.protobuf.ListValue), got ${describe(v)}`, tn);
        return false;
      }
      checkJson(v, path, ctx, tn);
      return true;
    default:
      // google.protobuf.Value: any JSON.
      checkJson(v, path, ctx, tn);
      return true;
  }
}

function checkAny(v: unknown, path: Path, ctx: Ctx): boolean {
  const tn = 'google.protobuf.Any';
  if (!isPlainObject(v)) {
    report(ctx, path, 'wrong-type', `expected an object with "@type" (google.protobuf.Any), got ${describe(v)}`, tn);
    return false;
  }
  const typeUrl = v['@type'];
  if (typeUrl === undefined) {
    if (keysOf(v).length === 0) return true; // the empty Any
    report(ctx, path, 'missing-type', 'an Any with fields needs "@type"', tn);
    return false;
  }
  const typePath = at(path, '@type');
  if (typeof typeUrl !== 'string') {
    report(ctx, typePath, 'wrong-type', `"@type" must be a type URL string, got ${describe(typeUrl)}`, tn);
    return false;
  }
  const typeName = typeNameOf(typeUrl);
  if (!typeName) {
    report(ctx, typePath, 'bad-value', `${describe(typeUrl)} is not a type URL (expected "${TYPE_URL_PREFIX}<message>")`, tn);
    return false;
  }
  const desc = ctx.protos.message(typeName);
  if (!desc) {
    const allowed = allowedTypedConfig(typeName);
    if (allowed) {
      for (const k of keysOf(v)) if (k !== '@type') checkJson(v[k], at(path, k), ctx, typeName);
      return true;
    }
    report(ctx, typePath, 'unknown-type', unknownTypeText(typeUrl), tn);
    return false;
  }
  if (SPECIAL_JSON.has(desc.typeName)) {
    let ok = true;
    for (const k of keysOf(v)) {
      if (k !== '@type' && k !== 'value') {
        report(ctx, at(path, k), 'unknown-field', `an Any holding ${desc.typeName} has only "@type" and "value"`, tn);
        ok = false;
      }
    }
    if (v.value === undefined) {
      report(ctx, path, 'bad-value', `an Any holding ${desc.typeName} needs "value"`, tn);
      return false;
    }
    return checkSpecial(desc, v.value, at(path, 'value'), ctx) && ok;
  }
  checkObject(desc, v, path, ctx, true);
  return true;
}

function unknownTypeText(typeUrl: string): string {
  return `${JSON.stringify(typeUrl)} is not a message of the Envoy v3 protos nor on the Istio allow-list (src/core/xds/proto/istioSchemas.ts)`;
}

const TYPED_STRUCTS = new Set(['udpa.type.v1.TypedStruct', 'xds.type.v3.TypedStruct']);

/** A message given as a JSON object (its own fields; `@type` too when it is an Any's content). */
/** A field found in the object: under which key, its value (null when given as null), whether its JSON form was valid. */
interface Seen {
  key: string;
  value: unknown;
  valid: boolean;
}

function checkObject(desc: DescMessage, o: JsonObject, path: Path, ctx: Ctx, inAny: boolean): void {
  const tn = desc.typeName;
  const plan = planOf(ctx.protos, desc);
  const outerResource = ctx.resource;
  // The outermost resource names the problems (a route configuration inline in a listener's
  // HTTP connection manager belongs to the listener).
  if (plan.resourceKey !== undefined && outerResource === undefined) ctx.resource = resourceLabel(plan, desc, o);
  const disabled = ctx.constraints && plan.disabled;
  if (disabled) ctx.skipRules++;
  try {
    const byKey = plan.byKey;
    const seen = new Map<DescField, Seen>();
    for (const key of keysOf(o)) {
      if (inAny && key === '@type') continue;
      const field = byKey.get(key);
      if (!field) {
        report(ctx, at(path, key), 'unknown-field', `${JSON.stringify(key)} is not a field of ${tn}${suggestion(desc, key)}`, tn);
        continue;
      }
      const value = o[key];
      const before = seen.get(field);
      if (before) {
        report(ctx, at(path, key), 'duplicate-field', `field ${field.name} is given twice (as ${JSON.stringify(before.key)} and ${JSON.stringify(key)})`, tn);
        continue;
      }
      // null is "not set", except for google.protobuf.Value (null_value) and NullValue fields.
      if (value === null && !nullIsValue(field)) {
        seen.set(field, { key, value: null, valid: false });
        continue;
      }
      const kp = at(path, key);
      if (field.oneof) {
        const other = field.oneof.fields.find((f) => f !== field && seen.get(f)?.value != null);
        if (other) {
          report(ctx, kp, 'oneof-conflict', `${field.name} and ${other.name} are both set, but only one member of oneof ${field.oneof.name} may be`, tn);
          continue;
        }
      }
      const entry: Seen = { key, value, valid: false };
      seen.set(field, entry);
      if (ctx.constraints && plan.skipNested.has(field)) {
        ctx.skipRules++;
        try {
          entry.valid = checkField(field, value, kp, ctx);
        } finally {
          ctx.skipRules--;
        }
      } else entry.valid = checkField(field, value, kp, ctx);
      if (plan.disallowed.has(field))
        report(ctx, kp, 'disallowed', `${field.name} is deprecated and disallowed by default (Envoy rejects it unless a runtime override allows it)`, tn);
      else if (ctx.deprecations && field.deprecated && !isDefault(field, value)) report(ctx, kp, 'deprecated', `${field.name} is deprecated`, tn, 'warning');
      if (field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum')) enumValueNotes(field, value, kp, ctx);
    }
    if (plan.typedStruct) checkTypedStruct(tn, o, byKey, path, ctx);
    if (ctx.constraints && ctx.skipRules === 0 && (plan.ruled.length > 0 || plan.requiredOneofs.length > 0)) checkRules(desc, plan, seen, path, ctx);
  } finally {
    if (disabled) ctx.skipRules--;
    ctx.resource = outerResource;
  }
}

function nullIsValue(field: DescField): boolean {
  return (
    (field.fieldKind === 'message' && field.message.typeName === 'google.protobuf.Value') ||
    (field.fieldKind === 'enum' && field.enum.typeName === 'google.protobuf.NullValue')
  );
}

/** Deprecated and disallowed-by-default enum values. */
function enumValueNotes(field: DescField, value: unknown, path: Path, ctx: Ctx): void {
  const e = field.enum!;
  const notes = enumNotesOf(ctx.protos, e);
  if (notes.size === 0) return;
  const values = field.fieldKind === 'list' ? (Array.isArray(value) ? value : []) : [value];
  values.forEach((v, i) => {
    const n = typeof v === 'string' ? enumByName(e).get(v) : typeof v === 'number' ? v : undefined;
    const note = n === undefined ? undefined : notes.get(n);
    if (!note) return;
    const p = field.fieldKind === 'list' ? at(path, i) : path;
    const name = `${e.typeName}.${e.value[n!]!.name}`;
    if (note === 'disallowed') report(ctx, p, 'disallowed', `${name} is deprecated and disallowed by default`, field.parent.typeName);
    else if (ctx.deprecations) report(ctx, p, 'deprecated', `${name} is deprecated`, field.parent.typeName, 'warning');
  });
}

function isDefault(field: DescField, v: unknown): boolean {
  switch (field.fieldKind) {
    case 'scalar':
      return v === '' || v === 0 || v === '0' || v === false;
    case 'enum':
      return v === 0 || (typeof v === 'string' && field.enum.values[0]?.name === v && field.enum.values[0].number === 0);
    case 'list':
      return Array.isArray(v) && v.length === 0;
    case 'map':
      return isPlainObject(v) && keysOf(v).length === 0;
    default:
      return false;
  }
}

/** Checks a field's (non-null) value; returns whether its JSON form was valid. */
function checkField(field: DescField, v: unknown, path: Path, ctx: Ctx): boolean {
  switch (field.fieldKind) {
    case 'scalar':
      return checkScalar(field.scalar, v, path, ctx, field.parent.typeName);
    case 'enum':
      return checkEnum(field.enum, v, path, ctx, field.parent.typeName);
    case 'message':
      return checkMessageValue(field.message, v, path, ctx);
    case 'list': {
      if (!Array.isArray(v)) {
        report(ctx, path, 'wrong-type', `expected an array (repeated ${elementName(field)}), got ${describe(v)}`, field.parent.typeName);
        return false;
      }
      let ok = true;
      for (let i = 0; i < v.length; i++) {
        const e = v[i];
        const ep = at(path, i);
        if (e === null || e === undefined) {
          // null is a valid google.protobuf.Value element, nothing else.
          if (field.listKind === 'message' && field.message.typeName === 'google.protobuf.Value' && e === null) continue;
          report(ctx, ep, 'wrong-type', `a repeated field's element cannot be ${e === null ? 'null' : 'undefined'}`, field.parent.typeName);
          ok = false;
          continue;
        }
        const r =
          field.listKind === 'scalar'
            ? checkScalar(field.scalar, e, ep, ctx, field.parent.typeName)
            : field.listKind === 'enum'
              ? checkEnum(field.enum, e, ep, ctx, field.parent.typeName)
              : checkMessageValue(field.message, e, ep, ctx);
        ok = r && ok;
      }
      return ok;
    }
    case 'map': {
      if (!isPlainObject(v)) {
        report(
          ctx,
          path,
          'wrong-type',
          `expected an object (map<${SCALAR_NAME[field.mapKey]}, ${mapValueName(field)}>), got ${describe(v)}`,
          field.parent.typeName,
        );
        return false;
      }
      let ok = true;
      for (const k of keysOf(v)) {
        const kp = at(path, k);
        const keyErr = mapKeyError(field.mapKey, k);
        if (keyErr) {
          report(ctx, kp, 'bad-value', keyErr, field.parent.typeName);
          ok = false;
        }
        const e = v[k];
        if (e === null) {
          if (field.mapKind === 'message' && field.message.typeName === 'google.protobuf.Value') continue;
          report(ctx, kp, 'wrong-type', "a map's value cannot be null", field.parent.typeName);
          ok = false;
          continue;
        }
        const r =
          field.mapKind === 'scalar'
            ? checkScalar(field.scalar, e, kp, ctx, field.parent.typeName)
            : field.mapKind === 'enum'
              ? checkEnum(field.enum, e, kp, ctx, field.parent.typeName)
              : checkMessageValue(field.message, e, kp, ctx);
        ok = r && ok;
      }
      return ok;
    }
  }
}

function elementName(field: DescField & { fieldKind: 'list' }): string {
  return field.listKind === 'scalar' ? SCALAR_NAME[field.scalar]! : field.listKind === 'enum' ? field.enum.typeName : field.message.typeName;
}

function mapValueName(field: DescField & { fieldKind: 'map' }): string {
  return field.mapKind === 'scalar' ? SCALAR_NAME[field.scalar]! : field.mapKind === 'enum' ? field.enum.typeName : field.message.typeName;
}

function mapKeyError(t: ScalarType, k: string): string | undefined {
  if (t === ScalarType.STRING) return undefined;
  if (t === ScalarType.BOOL) return k === 'true' || k === 'false' ? undefined : `map key ${JSON.stringify(k)} is not "true" or "false"`;
  if (!/^-?\d+$/.test(k)) return `map key ${JSON.stringify(k)} is not an integer (${SCALAR_NAME[t]})`;
  const r = parseScalar(t, k);
  return isErr(r) ? `map key: ${r.error}` : undefined;
}

function checkScalar(t: ScalarType, v: unknown, path: Path, ctx: Ctx, type: string): boolean {
  const r = parseScalar(t, v);
  if (isErr(r)) {
    report(ctx, path, r.code, r.error, type);
    return false;
  }
  return true;
}

function checkEnum(e: DescEnum, v: unknown, path: Path, ctx: Ctx, type: string): boolean {
  if (e.typeName === 'google.protobuf.NullValue') {
    if (v === null || v === 'NULL_VALUE' || v === 0) return true;
    report(ctx, path, 'wrong-type', `expected null (google.protobuf.NullValue), got ${describe(v)}`, type);
    return false;
  }
  if (typeof v === 'string') {
    if (enumByName(e).has(v)) return true;
    const names = e.values.map((x) => x.name);
    const shown = names.length <= 12 ? names.join(', ') : `${names.slice(0, 12).join(', ')}, …`;
    report(ctx, path, 'bad-enum', `${JSON.stringify(v)} is not a value of ${e.typeName} (${shown})`, type);
    return false;
  }
  if (typeof v === 'number') {
    if (Number.isInteger(v) && e.value[v] !== undefined) return true;
    report(ctx, path, 'bad-enum', `${v} is not a number of a value of ${e.typeName}`, type);
    return false;
  }
  report(ctx, path, 'wrong-type', `expected an enum value name (${e.typeName}), got ${describe(v)}`, type);
  return false;
}

/** A TypedStruct's payload, checked as the message its `type_url` names. */
function checkTypedStruct(tn: string, o: JsonObject, byKey: Map<string, DescField>, path: Path, ctx: Ctx): void {
  const urlField = byKey.get('type_url')!;
  const valueField = byKey.get('value')!;
  const urlKey = o[urlField.jsonName] !== undefined ? urlField.jsonName : urlField.name;
  const valueKey = o[valueField.jsonName] !== undefined ? valueField.jsonName : valueField.name;
  const typeUrl = o[urlKey];
  if (typeof typeUrl !== 'string') return; // reported as a type error already
  const up = at(path, urlKey);
  if (typeUrl === '') {
    report(ctx, up, 'missing-type', 'a TypedStruct needs type_url', tn);
    return;
  }
  const typeName = typeNameOf(typeUrl);
  if (!typeName) {
    report(ctx, up, 'bad-value', `${describe(typeUrl)} is not a type URL (expected "${TYPE_URL_PREFIX}<message>")`, tn);
    return;
  }
  const desc = ctx.protos.message(typeName);
  const value = o[valueKey] ?? {};
  if (!desc) {
    if (!allowedTypedConfig(typeName)) report(ctx, up, 'unknown-type', unknownTypeText(typeUrl), tn);
    return;
  }
  if (!isPlainObject(value)) return; // a Struct that is no object was reported already
  if (SPECIAL_JSON.has(desc.typeName)) {
    report(ctx, up, 'bad-value', `a TypedStruct cannot carry ${desc.typeName}`, tn);
    return;
  }
  checkObject(desc, value, at(path, valueKey), ctx, false);
}

function checkRules(desc: DescMessage, plan: MessagePlan, seen: Map<DescField, Seen>, path: Path, ctx: Ctx): void {
  for (const [field, rules] of plan.ruled) {
    const entry = seen.get(field);
    const present = entry !== undefined && entry.value !== null;
    if (present && !entry.valid) continue; // its type problem is reported already
    if (!present && field.oneof) continue;
    applyFieldRules(field, rules, present, present ? entry.value : undefined, path, entry?.key ?? field.jsonName, ctx);
  }
  for (const oneof of plan.requiredOneofs) {
    if (!oneof.fields.some((f) => seen.get(f)?.value != null)) {
      report(ctx, path, 'constraint', `one of ${oneof.fields.map((f) => f.jsonName).join(', ')} is required (oneof ${oneof.name})`, desc.typeName);
    }
  }
}

// --- Entry points ---------------------------------------------------------------------------

function newCtx(options: CheckOptions): Ctx {
  const ctx: Ctx = {
    protos: envoyProtos(),
    problems: [],
    constraints: options.constraints ?? true,
    deprecations: options.deprecations ?? true,
    maxProblems: options.maxProblems ?? 1000,
    resource: undefined,
    skipRules: 0,
    violation(path: Path, message: string, type: string) {
      report(ctx, path, 'constraint', message, type);
    },
    at,
  };
  return ctx;
}

/**
 * Checks one Envoy resource in proto3 JSON form. With `typeUrl` (a type URL or a full message
 * name), `json` is that message (an `@type` in it must agree); without, `json` must carry `@type`
 * (as the resources of a config dump and every typed_config do). Returns every problem found.
 */
export function checkEnvoyResource(json: unknown, typeUrl?: string, options: CheckOptions = {}): ProtoProblem[] {
  const ctx = newCtx(options);
  try {
    if (typeUrl !== undefined) {
      const typeName = typeNameOf(typeUrl) ?? typeUrl;
      const desc = ctx.protos.message(typeName);
      if (!desc) {
        if (!allowedTypedConfig(typeName)) report(ctx, ROOT, 'unknown-type', unknownTypeText(typeUrl));
        else checkJson(json, ROOT, ctx, typeName);
        return ctx.problems;
      }
      if (isPlainObject(json) && json['@type'] !== undefined && !SPECIAL_JSON.has(desc.typeName)) {
        const given = typeof json['@type'] === 'string' ? typeNameOf(json['@type']) : undefined;
        if (given !== desc.typeName) {
          report(
            ctx,
            at(ROOT, '@type'),
            'bad-value',
            `"@type" is ${JSON.stringify(json['@type'])}, expected ${TYPE_URL_PREFIX}${desc.typeName}`,
            desc.typeName,
          );
          return ctx.problems;
        }
        checkObject(desc, json, ROOT, ctx, true);
      } else checkMessageValue(desc, json, ROOT, ctx);
    } else if (isPlainObject(json) && json['@type'] !== undefined) {
      checkAny(json, ROOT, ctx);
    } else {
      report(ctx, ROOT, 'missing-type', 'no "@type" in the object and no type URL given: cannot tell which message it is');
    }
  } catch (e) {
    if (!(e instanceof StopChecking)) throw e;
  }
  return ctx.problems;
}

/**
 * Checks a whole Envoy `/config_dump` (or `istioctl proxy-config all -o json`): the
 * envoy.admin.v3.ConfigDump and every resource in it, through every Any.
 */
export function checkConfigDump(dump: unknown, options: CheckOptions = {}): ProtoProblem[] {
  return checkEnvoyResource(dump, `${TYPE_URL_PREFIX}envoy.admin.v3.ConfigDump`, options);
}

/** One line per problem: `error $.path: message [code] (resource)`. */
export function formatProblems(problems: readonly ProtoProblem[]): string {
  return problems.map((p) => `${p.severity} ${p.path}: ${p.message} [${p.code}]${p.resource ? ` (${p.resource})` : ''}`).join('\n');
}
