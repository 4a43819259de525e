// Pod lookups for the "gateways" group: pods by label pair (so selector matching never scans
// every pod for every resource), and Istio's "is this pod in the mesh" test
// (analyzers/util PodInMesh / PodInAmbientMode).
import type { Resource } from '../../../model/types.ts';
import { KINDS } from '../../../model/kinds.ts';
import type { AnalysisContext } from '../../types.ts';
import { selectorMatches, type LabelMap } from '../../../config/labels.ts';
import { arr, isObj, str } from '../../../model/read.ts';

export interface GatewaysPodIndex {
  /** Pods in load order. */
  pods: readonly Resource[];
  /** `key\0value` → pods carrying that label, in load order. */
  byPair: Map<string, Resource[]>;
}

export const labelPair = (k: string, v: string) => `${k}\u0000${v}`;

export function gatewaysPodIndex(ctx: AnalysisContext): GatewaysPodIndex {
  return ctx.lookups.cached('gateways.podIndex', (store) => {
    const pods = store.list(KINDS.Pod);
    const byPair = new Map<string, Resource[]>();
    for (const p of pods) {
      for (const [k, v] of Object.entries(p.labels)) {
        const key = labelPair(k, String(v));
        let l = byPair.get(key);
        if (!l) byPair.set(key, (l = []));
        l.push(p);
      }
    }
    return { pods, byPair };
  });
}

/** The smallest candidate list for a selector (every pod when it is empty), in load order. */
function candidates(index: GatewaysPodIndex, selector: LabelMap): readonly Resource[] {
  let best: readonly Resource[] = index.pods;
  for (const [k, v] of Object.entries(selector)) {
    const l = index.byPair.get(labelPair(k, v)) ?? [];
    if (l.length < best.length) best = l;
  }
  return best;
}

/** Pods whose labels satisfy an equality selector, in load order. */
export function podsMatching(index: GatewaysPodIndex, selector: LabelMap): Resource[] {
  return candidates(index, selector).filter((p) => selectorMatches(selector, p.labels));
}

/** The first pod (in load order) matching the selector. */
export function firstPodMatching(index: GatewaysPodIndex, selector: LabelMap): Resource | undefined {
  return candidates(index, selector).find((p) => selectorMatches(selector, p.labels));
}

const SIDECAR_INJECT = 'sidecar.istio.io/inject';
const AMBIENT_REDIRECTION = 'ambient.istio.io/redirection';

/** Istio's PodInAmbientMode: the redirection annotation says `enabled`. */
export function podInAmbientMode(pod: Resource): boolean {
  return pod.annotations[AMBIENT_REDIRECTION] === 'enabled';
}

/**
 * Istio's PodInMesh: an `istio-proxy` container (or init container) with an image; else the
 * pod's inject label, then annotation; else the namespace's `istio-injection` label.
 */
export function podInMesh(ctx: AnalysisContext, pod: Resource): boolean {
  const spec = isObj(pod.body.spec) ? pod.body.spec : {};
  const containers = [...arr(spec.containers), ...arr(spec.initContainers)];
  const proxy = containers.find((c) => isObj(c) && str(c.name) === 'istio-proxy');
  if (isObj(proxy) && str(proxy.image) !== '') return true;
  if (SIDECAR_INJECT in pod.labels) return pod.labels[SIDECAR_INJECT] === 'true';
  if (SIDECAR_INJECT in pod.annotations) return pod.annotations[SIDECAR_INJECT] === 'true';
  const ns = ctx.find(KINDS.Namespace, '', pod.namespace);
  if (ns) return ns.labels['istio-injection'] === 'enabled';
  return false;
}
