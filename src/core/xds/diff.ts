// "What changes": generated config before and after an edit, resource by resource. Listeners,
// route configurations, clusters and endpoint sets are matched by name; a changed one lists
// the leaf fields that differ (objects in lists are matched by `name` where they have one, so a
// virtual host or filter reads by name rather than by position).
import type { Json } from './types.ts';
import { isObj } from '../document/read.ts';

export type ChangeKind = 'added' | 'removed' | 'changed';
export type ResourceType = 'listener' | 'route' | 'cluster' | 'endpoints';

export interface FieldChange {
  path: string;
  before?: string;
  after?: string;
}

export interface ConfigChange {
  type: ResourceType;
  name: string;
  change: ChangeKind;
  /** Changed resources: the fields that differ (at most MAX_FIELDS). */
  fields: FieldChange[];
  /** More field differences than listed. */
  moreFields: number;
}

export interface ResourceSet {
  listeners: readonly Json[];
  routes: readonly Json[];
  clusters: readonly Json[];
  endpoints: readonly Json[];
}

const MAX_FIELDS = 20;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function own(o: Record<string, unknown>, k: string): unknown {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

function keyOf(v: unknown, i: number): string {
  if (isObj(v)) {
    if (typeof v.name === 'string' && v.name !== '') return v.name;
    if (typeof v.clusterName === 'string') return v.clusterName;
  }
  return String(i);
}

function named(list: readonly unknown[]): boolean {
  const keys = list.map((v, i) => keyOf(v, i));
  return list.length > 0 && list.every((v) => isObj(v) && typeof v.name === 'string' && v.name !== '') && new Set(keys).size === keys.length;
}

function walk(a: unknown, b: unknown, path: string, out: FieldChange[], count: { n: number }): void {
  if (a === b) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (named(a) && named(b)) {
      const am = new Map(a.map((v, i) => [keyOf(v, i), v] as const));
      const bm = new Map(b.map((v, i) => [keyOf(v, i), v] as const));
      for (const [k, v] of am) walk(v, bm.get(k), `${path}[${k}]`, out, count);
      for (const [k, v] of bm) if (!am.has(k)) walk(undefined, v, `${path}[${k}]`, out, count);
      return;
    }
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) walk(a[i], b[i], `${path}[${i}]`, out, count);
    return;
  }
  if (isObj(a) && isObj(b)) {
    // Own keys only: a key such as `toString` must not read Object.prototype's.
    for (const k of Object.keys(a)) walk(a[k], own(b, k), path ? `${path}.${k}` : k, out, count);
    for (const k of Object.keys(b)) if (!Object.hasOwn(a, k)) walk(undefined, b[k], path ? `${path}.${k}` : k, out, count);
    return;
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  count.n++;
  if (out.length < MAX_FIELDS)
    out.push({ path: path || '(whole)', ...(a !== undefined ? { before: show(a) } : {}), ...(b !== undefined ? { after: show(b) } : {}) });
}

function diffList(type: ResourceType, before: readonly Json[], after: readonly Json[], out: ConfigChange[]): void {
  const name = (r: Json) => String(r.name ?? r.clusterName ?? '');
  const bm = new Map(before.map((r) => [name(r), r] as const));
  const am = new Map(after.map((r) => [name(r), r] as const));
  for (const [n, r] of bm) {
    const a = am.get(n);
    if (!a) {
      out.push({ type, name: n, change: 'removed', fields: [], moreFields: 0 });
      continue;
    }
    const fields: FieldChange[] = [];
    const count = { n: 0 };
    walk(r, a, '', fields, count);
    if (count.n > 0) out.push({ type, name: n, change: 'changed', fields, moreFields: count.n - fields.length });
  }
  for (const n of am.keys()) if (!bm.has(n)) out.push({ type, name: n, change: 'added', fields: [], moreFields: 0 });
}

/** Listeners, routes, clusters and endpoints added, removed or changed from `before` to `after`. */
export function diffResources(before: ResourceSet, after: ResourceSet): ConfigChange[] {
  const out: ConfigChange[] = [];
  diffList('listener', before.listeners, after.listeners, out);
  diffList('route', before.routes, after.routes, out);
  diffList('cluster', before.clusters, after.clusters, out);
  diffList('endpoints', before.endpoints, after.endpoints, out);
  return out;
}

/** The dynamic resources of a config dump (`{configs: [...]}`), as generated or imported. */
export function resourcesOfDump(dump: unknown): ResourceSet {
  const out = { listeners: [] as Json[], routes: [] as Json[], clusters: [] as Json[], endpoints: [] as Json[] };
  const strip = (v: unknown): Json | undefined => {
    if (!isObj(v)) return undefined;
    const { '@type': _t, ...rest } = v;
    return rest;
  };
  for (const c of arr(isObj(dump) ? dump.configs : undefined)) {
    if (!isObj(c)) continue;
    const t = String(c['@type'] ?? '');
    if (t.endsWith('ListenersConfigDump'))
      for (const l of arr(c.dynamicListeners)) {
        const x = isObj(l) && isObj(l.activeState) ? strip(l.activeState.listener) : undefined;
        if (x) out.listeners.push(x);
      }
    else if (t.endsWith('RoutesConfigDump'))
      for (const r of arr(c.dynamicRouteConfigs)) {
        const x = isObj(r) ? strip(r.routeConfig) : undefined;
        if (x) out.routes.push(x);
      }
    else if (t.endsWith('ClustersConfigDump'))
      for (const r of arr(c.dynamicActiveClusters)) {
        const x = isObj(r) ? strip(r.cluster) : undefined;
        if (x) out.clusters.push(x);
      }
    else if (t.endsWith('EndpointsConfigDump'))
      for (const r of arr(c.dynamicEndpointConfigs)) {
        const x = isObj(r) ? strip(r.endpointConfig) : undefined;
        if (x) out.endpoints.push(x);
      }
  }
  return out;
}
