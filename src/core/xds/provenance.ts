// Provenance of generated config: which resource (and field) produced each listener, filter
// chain, cluster, route configuration, virtual host and route. Builders mark the objects they
// create; the config dump gathers the marks into a side table keyed by resource name, so the
// JSON itself stays exactly what Envoy would receive.
import type { ProvenanceRef } from './types.ts';

const marks = new WeakMap<object, ProvenanceRef[]>();

/** Records that `obj` was produced by `refs` (appends to earlier marks). */
export function mark<T extends object>(obj: T, ...refs: (ProvenanceRef | undefined)[]): T {
  if (refs.length === 1) {
    const r = refs[0];
    if (r === undefined) return obj;
    const cur = marks.get(obj);
    if (!cur) {
      marks.set(obj, [r]);
      return obj;
    }
  }
  const good = refs.filter((r): r is ProvenanceRef => r !== undefined);
  if (good.length === 0) return obj;
  const cur = marks.get(obj);
  if (cur) {
    for (const r of good) if (!cur.some((c) => c.resourceKey === r.resourceKey && c.fieldPath === r.fieldPath && c.note === r.note)) cur.push(r);
  } else marks.set(obj, [...good]);
  return obj;
}

export function marksOf(obj: object): readonly ProvenanceRef[] {
  return marks.get(obj) ?? [];
}

const plainRefs = new Map<string, ProvenanceRef>();

/** A reference to a field of a resource (references to a whole resource are shared; treat refs as read-only). */
export function ref(resourceKey: string, fieldPath?: string): ProvenanceRef {
  if (fieldPath !== undefined) return { resourceKey, fieldPath };
  let r = plainRefs.get(resourceKey);
  if (!r) {
    r = { resourceKey };
    if (plainRefs.size > 100000) plainRefs.clear();
    plainRefs.set(resourceKey, r);
  }
  return r;
}

/** A reference to something built in (a default of Istio's, not from any resource). */
export function builtin(note: string): ProvenanceRef {
  return { resourceKey: '', note };
}

/** The side table of a config dump. */
export interface ProvenanceTable {
  listeners: Record<string, ProvenanceRef[]>;
  /** `<listener>/<chain index>` (the default chain is `<listener>/default`). */
  filterChains: Record<string, ProvenanceRef[]>;
  clusters: Record<string, ProvenanceRef[]>;
  routeConfigs: Record<string, ProvenanceRef[]>;
  /** `<route config>/<virtual host>`. */
  virtualHosts: Record<string, ProvenanceRef[]>;
  /** `<route config>/<virtual host>/<route index>`. */
  routes: Record<string, ProvenanceRef[]>;
  /** Cluster name → the workloads and entries behind its endpoints. */
  endpoints: Record<string, ProvenanceRef[]>;
}

export function emptyProvenance(): ProvenanceTable {
  return { listeners: {}, filterChains: {}, clusters: {}, routeConfigs: {}, virtualHosts: {}, routes: {}, endpoints: {} };
}

/** What an EnvoyFilter patch did to a generated object. */
export type PatchAction = 'added' | 'merged' | 'replaced' | 'inserted' | 'removed';

/** A reference to patch `index` of an EnvoyFilter (`fullName` is `namespace/name`), saying what it did. */
export function patchRef(resourceKey: string, fullName: string, index: number, action: PatchAction, what?: string): ProvenanceRef {
  return { resourceKey, fieldPath: `spec.configPatches[${index}]`, note: `${what ? `${what} ` : ''}${action} by EnvoyFilter ${fullName}, patch ${index}` };
}

/** Gives `to` the marks of `from` (a copy of a generated object keeps its provenance). */
export function copyMarks(from: object, to: object): void {
  const cur = marks.get(from);
  if (cur) mark(to, ...cur);
}
