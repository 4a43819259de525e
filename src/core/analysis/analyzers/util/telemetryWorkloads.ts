// Helpers of the telemetry group: which pods a workload selector picks in a namespace
// (indexed, so checking many selectors stays linear in practice), and Istio's ambient-mode
// tests for pods and namespaces (analyzers/util/in_mesh.go).
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext } from '../../types.ts';
import type { StoreView } from '../../../config/store.ts';
import { selectorMatches, type LabelMap } from '../../../config/labels.ts';

/** Pod annotation ztunnel sets on pods whose traffic it redirects. */
export const AMBIENT_REDIRECTION_ANNOTATION = 'ambient.istio.io/redirection';
export const AMBIENT_REDIRECTION_ENABLED = 'enabled';
/** Namespace label that enrolls a namespace in ambient mode. */
export const DATAPLANE_MODE_LABEL = 'istio.io/dataplane-mode';
export const DATAPLANE_MODE_AMBIENT = 'ambient';
export const INJECTION_LABEL = 'istio-injection';
export const INJECTION_ENABLED = 'enabled';
export const REVISION_LABEL = 'istio.io/rev';

/** True for a pod whose traffic ztunnel captures (Istio's PodInAmbientMode). */
export function podInAmbientMode(pod: Resource | undefined): boolean {
  return pod !== undefined && pod.annotations[AMBIENT_REDIRECTION_ANNOTATION] === AMBIENT_REDIRECTION_ENABLED;
}

/**
 * True for a Namespace labelled for ambient mode and not for sidecar injection (an
 * `istio-injection=enabled` or non-empty `istio.io/rev` label wins). Istio's NamespaceInAmbientMode.
 */
export function namespaceInAmbientMode(ns: Resource | undefined): boolean {
  if (!ns) return false;
  if (ns.labels[INJECTION_LABEL] === INJECTION_ENABLED) return false;
  const rev = ns.labels[REVISION_LABEL];
  if (rev !== undefined && rev !== '') return false;
  return ns.labels[DATAPLANE_MODE_LABEL] === DATAPLANE_MODE_AMBIENT;
}

interface NamespacePods {
  all: Resource[];
  /** `key\0value` → pods of the namespace carrying that label. */
  byPair: Map<string, Resource[]>;
}

const pair = (k: string, v: string) => `${k}\u0000${v}`;

function buildPodIndex(store: StoreView): Map<string, NamespacePods> {
  const m = new Map<string, NamespacePods>();
  for (const p of store.list(KINDS.Pod)) {
    let ns = m.get(p.namespace);
    if (!ns) m.set(p.namespace, (ns = { all: [], byPair: new Map() }));
    ns.all.push(p);
    for (const [k, v] of Object.entries(p.labels)) {
      const key = pair(k, v);
      let l = ns.byPair.get(key);
      if (!l) ns.byPair.set(key, (l = []));
      l.push(p);
    }
  }
  return m;
}

/**
 * Pods of `namespace` whose labels satisfy the (equality) selector, in load order. The
 * candidates are the pods carrying the selector's rarest key/value pair.
 */
export function podsSelectedInNamespace(ctx: AnalysisContext, namespace: string, selector: LabelMap): Resource[] {
  const index = ctx.lookups.cached('telemetry.podsByNamespaceAndLabel', buildPodIndex);
  const ns = index.get(namespace);
  if (!ns) return [];
  let candidates: readonly Resource[] = ns.all;
  for (const [k, v] of Object.entries(selector)) {
    const l = ns.byPair.get(pair(k, v));
    if (!l) return [];
    if (l.length < candidates.length) candidates = l;
  }
  return candidates.filter((p) => selectorMatches(selector, p.labels));
}
