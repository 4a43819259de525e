// The host table the VirtualService analyzers resolve destinations against: every
// ServiceEntry host and every Kubernetes Service FQDN, keyed by the namespace scope that can
// see it (Istio's InitServiceEntryHostMap / GetDestinationHost). Built once per run.
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import type { ConfigView } from './configView.ts';
import { EXPORT_TO_ALL, EXPORT_TO_LOCAL, scopedFqdn } from './hosts.ts';
import { serviceEntry } from './api/networking.ts';
import { serviceSpec } from './api/kube.ts';
import { EXPORT_TO_ANNOTATION } from './wellKnown.ts';
import { listAt } from '../document/maps.ts';

export { EXPORT_TO_ANNOTATION };

/** What a destination resolved to: the owning resource and its port numbers. */
export interface HostTarget {
  resource: Resource;
  ports: number[];
}

export interface HostTable {
  /** `scope/fqdn` → target; a later definition of the same key replaces an earlier one. */
  byKey: Map<string, HostTarget>;
  /** Wildcard entries by the part after `*` (e.g. `.eu.example.com`; `` for `*`). */
  wildcardsBySuffix: Map<string, Array<{ scope: string; target: HostTarget }>>;
  /** The lengths of those suffixes, longest first: a lookup tries only these. */
  wildcardSuffixLengths: number[];
}

function buildHostTable(list: (k: typeof KINDS.ServiceEntry) => readonly Resource[]): HostTable {
  const byKey = new Map<string, HostTarget>();
  for (const r of list(KINDS.ServiceEntry)) {
    const spec = serviceEntry(r);
    const target: HostTarget = { resource: r, ports: spec.ports.map((p) => p.number) };
    const exportTo = spec.exportTo;
    let toAll = false;
    for (const h of spec.hosts) {
      if (exportTo.length === 0 || toAll) {
        byKey.set(scopedFqdn(EXPORT_TO_ALL, r.namespace, h), target);
        continue;
      }
      for (const ns of exportTo) {
        if (ns === EXPORT_TO_ALL) {
          byKey.set(scopedFqdn(EXPORT_TO_ALL, r.namespace, h), target);
          toAll = true;
        } else if (ns === EXPORT_TO_LOCAL) {
          byKey.set(scopedFqdn(r.namespace, r.namespace, h), target);
        } else {
          byKey.set(scopedFqdn(ns, r.namespace, h), target);
        }
        if (toAll) break;
      }
    }
  }
  // Kubernetes Services count as service entries for their cluster FQDN.
  for (const r of list(KINDS.Service)) {
    const target: HostTarget = { resource: r, ports: serviceSpec(r).ports.map((p) => p.port) };
    const anno = r.annotations[EXPORT_TO_ANNOTATION] ?? '';
    const scopes = anno === '' ? [EXPORT_TO_ALL] : anno.split(',').map((ns) => (ns === EXPORT_TO_LOCAL ? r.namespace : ns));
    for (const scope of scopes) byKey.set(scopedFqdn(scope, r.namespace, r.name), target);
  }
  const wildcardsBySuffix = new Map<string, Array<{ scope: string; target: HostTarget }>>();
  for (const [key, target] of byKey) {
    const slash = key.indexOf('/');
    const scope = key.slice(0, slash);
    const host = key.slice(slash + 1);
    if (!host.startsWith('*')) continue;
    const suffix = host.slice(1);
    listAt(wildcardsBySuffix, suffix).push({ scope, target });
  }
  const wildcardSuffixLengths = [...new Set([...wildcardsBySuffix.keys()].map((k) => k.length))].sort((a, b) => b - a);
  return { byKey, wildcardsBySuffix, wildcardSuffixLengths };
}

export function hostTable(ctx: ConfigView): HostTable {
  return ctx.lookups.cached('util.serviceEntryHostTable', (store) => buildHostTable((k) => store.list(k)));
}

/**
 * Resolves a destination host seen from `sourceNs` (with the VirtualService's exportTo) the
 * way Istio does: exact visible-to-all entry, then entries scoped to the exportTo namespaces
 * (or the source namespace), then wildcard entries visible to all or to the source namespace
 * whose suffix ends the host.
 */
export function resolveDestinationHost(table: HostTable, sourceNs: string, exportTo: readonly string[], host: string): HostTarget | undefined {
  const all = table.byKey.get(scopedFqdn(EXPORT_TO_ALL, sourceNs, host));
  if (all) return all;
  if (exportTo.length === 0) {
    const local = table.byKey.get(scopedFqdn(sourceNs, sourceNs, host));
    if (local) return local;
  } else {
    for (let e of exportTo) {
      if (e === EXPORT_TO_LOCAL) e = sourceNs;
      const hit = table.byKey.get(scopedFqdn(e, sourceNs, host));
      if (hit) return hit;
    }
  }
  if (table.wildcardsBySuffix.size === 0) return undefined;
  // A wildcard entry `*<suffix>` covers the host when the host (without its own `*`) ends
  // with <suffix>. Try the host's suffixes of the lengths some entry has, longest first (the
  // order of trying every suffix from the host's start), so the check stays linear.
  const bare = host.startsWith('*') ? host.slice(1) : host;
  for (const length of table.wildcardSuffixLengths) {
    if (length > bare.length) continue;
    const entries = table.wildcardsBySuffix.get(bare.slice(bare.length - length));
    if (!entries) continue;
    for (const e of entries) {
      if (e.scope === EXPORT_TO_ALL || e.scope === sourceNs) return e.target;
    }
  }
  return undefined;
}
