// Whether analyzing some resources could need a library the worker loads on demand: the
// CEL library (src/worker/celLib.lazy.ts), certificate parsing (credential.lazy.ts) or the
// xDS generator (envoyFilterReach.lazy.ts). The host awaits them before a run whose resources answer yes, so the
// diagnostics are those of eagerly loaded libraries. Saying yes too often only loads a
// library early; saying no wrongly would be an analyzer failure or a wrong verdict, which
// tests/worker/libGates.test.ts guards against over the samples.
//
// CEL: this follows the schema layer's route (validation/schema.ts schemaFindings, then
// schema/walk.ts walk) but answers for a superset of what it evaluates: it ignores the
// structural checks that make walk() skip a node's rules, and it looks at every kind with a
// schema, not only those the validation analyzers check.
import type { Resource } from '../core/document/types.ts';
import type { Schema } from '../core/config/shape.ts';
import { apiKind, ObjectMeta } from '../core/config/api/crd/index.ts';
import { needsCelLibrary } from '../core/validation/schema/cel.ts';
import { KINDS } from '../core/document/kinds.ts';

/** Bodies already found to need no CEL (resources of unchanged documents are the same objects). */
const noCel = new WeakSet<object>();

/** Whether validating `v` against `s` could ask CEL to judge a rule. */
export function valueNeedsCel(v: unknown, s: Schema): boolean {
  // walk() evaluates nothing at or under null: it is either allowed or a type error.
  if (v === null) return false;
  if (s.rules) {
    for (const rule of s.rules) if (needsCelLibrary(rule, v)) return true;
  }
  if (Array.isArray(v)) {
    const item = s.items;
    if (item) for (const x of v) if (valueNeedsCel(x, item)) return true;
    return false;
  }
  if (typeof v === 'object' && v !== undefined) {
    const o = v as Record<string, unknown>;
    const props = s.properties;
    const values = s.values;
    for (const k in o) {
      if (!Object.hasOwn(o, k)) continue;
      const x = o[k];
      if (x === undefined) continue;
      const sub = props ? props[k] : undefined;
      if (sub ? valueNeedsCel(x, sub) : values ? valueNeedsCel(x, values) : false) return true;
    }
  }
  return false;
}

/** Whether the schema layer could need CEL for this resource. */
export function resourceNeedsCel(r: Resource): boolean {
  if (r.synthetic) return false;
  const body = r.body;
  if (noCel.has(body)) return false;
  const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : '';
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const info = apiKind(group, typeof body.kind === 'string' ? body.kind : '');
  // Every version, not only the served ones: a superset costs nothing.
  let needs = false;
  if (info) {
    if (body.metadata !== undefined && valueNeedsCel(body.metadata, ObjectMeta.schema as Schema)) needs = true;
    else if (info.body) needs = valueNeedsCel(body, info.body.schema as Schema);
    else if (info.spec && body.spec !== undefined) needs = valueNeedsCel(body.spec, info.spec.schema as Schema);
  }
  if (!needs) noCel.add(body);
  return needs;
}

/** Whether any of the resources could need CEL. */
export function resourcesNeedCel(resources: readonly Resource[]): boolean {
  for (const r of resources) if (resourceNeedsCel(r)) return true;
  return false;
}

/**
 * Whether the xDS generator could be needed: only envoyfilter.PatchReachAnalyzer generates
 * config during analysis, and only when there is an EnvoyFilter.
 */
export function resourcesNeedXds(resources: readonly Resource[]): boolean {
  const envoyFilter = KINDS.EnvoyFilter.id;
  for (const r of resources) if (r.kindId === envoyFilter) return true;
  return false;
}

/**
 * Whether certificate parsing could be needed: only gateway.SecretAnalyzer parses
 * certificates during analysis, those of a Secret a Gateway names, so any Secret says yes.
 */
export function resourcesNeedPki(resources: readonly Resource[]): boolean {
  const secret = KINDS.Secret.id;
  for (const r of resources) if (r.kindId === secret) return true;
  return false;
}
