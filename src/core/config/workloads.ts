// The workloads of the mesh (pods, real or derived from controllers) and which of them a
// label selector picks. One index serves every question "which pods match this selector",
// built once per mesh version: pods by namespace and by `key=value` label pair, so a
// selector only looks at the pods carrying its rarest pair.
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import type { ConfigView } from './configView.ts';
import { EMPTY_STRING_MAP } from '../document/read.ts';
import { listAt, mapAt } from '../document/maps.ts';
import { podSpec, podStatus, type Container, type PodTemplate } from './api/kube.ts';
import { selectorMatches, type LabelMap } from './labels.ts';
import type { WorkloadShape } from './workloadState.ts';
import { fnv32a } from './fnv.ts';
import { addressRange, AddressRing, type AddressRange } from './addressRing.ts';

export interface PodIndex {
  /** Every pod, in load order (derived pods after the workspace's own). */
  readonly all: readonly Resource[];
  readonly byNamespace: ReadonlyMap<string, readonly Resource[]>;
  /**
   * Label key → value → pods with that label, in load order. Two lookups with the label's
   * own strings: a mesh's pods carry tens of thousands of labels, and a `key=value` text for
   * each would be built and hashed on every question.
   */
  readonly byLabel: ReadonlyMap<string, ReadonlyMap<string, readonly Resource[]>>;
}

export function podIndex(view: ConfigView): PodIndex {
  return view.lookups.cached('config.podIndex', (store) => {
    const all = store.list(KINDS.Pod);
    const byNamespace = new Map<string, Resource[]>();
    const byLabel = new Map<string, Map<string, Resource[]>>();
    for (const p of all) {
      listAt(byNamespace, p.namespace).push(p);
      for (const k of Object.keys(p.labels)) listAt(mapAt(byLabel, k), p.labels[k] as string).push(p);
    }
    return { all, byNamespace, byLabel };
  });
}

/** The pods to test against a selector: those with its rarest pair (all pods, or the namespace's, for an empty one). */
function candidates(index: PodIndex, selector: LabelMap, namespace: string | undefined): readonly Resource[] {
  let best: readonly Resource[] = namespace === undefined ? index.all : (index.byNamespace.get(namespace) ?? []);
  for (const k of Object.keys(selector)) {
    const l = index.byLabel.get(k)?.get(selector[k] as string);
    if (!l) return [];
    if (l.length < best.length) best = l;
  }
  return best;
}

/**
 * Pods whose labels hold every pair of an equality selector (an empty selector selects
 * all), in load order; only those of `namespace` when it is given.
 */
export function podsSelectedBy(view: ConfigView, selector: LabelMap, namespace?: string): Resource[] {
  const out: Resource[] = [];
  for (const p of candidates(podIndex(view), selector, namespace)) {
    if ((namespace === undefined || p.namespace === namespace) && selectorMatches(selector, p.labels)) out.push(p);
  }
  return out;
}

/** The first pod (in load order) a selector picks, if any. */
export function firstPodSelectedBy(view: ConfigView, selector: LabelMap, namespace?: string): Resource | undefined {
  for (const p of candidates(podIndex(view), selector, namespace)) {
    if ((namespace === undefined || p.namespace === namespace) && selectorMatches(selector, p.labels)) return p;
  }
  return undefined;
}

/** The pods of a namespace, in load order. */
export function podsInNamespace(view: ConfigView, namespace: string): readonly Resource[] {
  return podIndex(view).byNamespace.get(namespace) ?? [];
}

/** What the workload-state predicates need of a pod. */
export function podShape(pod: Resource): WorkloadShape {
  const spec = podSpec(pod);
  return {
    namespace: pod.namespace,
    labels: pod.labels,
    annotations: pod.annotations,
    containers: spec.containers,
    initContainers: spec.initContainers,
    hostNetwork: spec.hostNetwork,
  };
}

/**
 * What the workload-state predicates need of a controller's pod template (a Deployment's
 * `spec.template`), in the controller's namespace; an absent template reads as empty.
 */
export function templateShape(namespace: string, template: PodTemplate | undefined): WorkloadShape {
  const meta = template?.metadata;
  const spec = template?.spec;
  return {
    namespace,
    labels: meta?.labels ?? EMPTY_STRING_MAP,
    annotations: meta?.annotations ?? EMPTY_STRING_MAP,
    containers: spec?.containers ?? [],
    initContainers: spec?.initContainers ?? [],
    hostNetwork: spec?.hostNetwork ?? false,
  };
}

/** The pod's IP (status.podIP), or '' when it has none. */
export function podIp(pod: Resource): string {
  return podStatus(pod).podIP;
}

/**
 * Where synthetic addresses of pods without `status.podIP` come from: 10.245.0.0/16, which the
 * derived pods of the default pod CIDR reach only once its first /16, 10.244.0.0/16, is full
 * (and then the addresses they hold are skipped).
 */
const SYNTHETIC_POD_RANGE: AddressRange = addressRange('10.245.0.0/16');

/**
 * The address of every pod: its `status.podIP`, or for a pod of the workspace that has none, a
 * deterministic synthetic IP in 10.245.0.0/16 (from a hash of its namespace and name, skipping
 * taken ones). `synthetic` says which (the UI says so).
 */
export function podAddresses(view: ConfigView): ReadonlyMap<Resource, { ip: string; synthetic: boolean }> {
  return view.lookups.cached('config.podAddresses', () => {
    const out = new Map<Resource, { ip: string; synthetic: boolean }>();
    const missing: Resource[] = [];
    for (const p of podIndex(view).all) {
      const ip = podIp(p);
      if (ip !== '') out.set(p, { ip, synthetic: false });
      else missing.push(p);
    }
    if (missing.length === 0) return out;
    const ring = new AddressRing(SYNTHETIC_POD_RANGE);
    for (const { ip } of out.values()) ring.reserveAddress(ip);
    for (const p of missing) out.set(p, { ip: ring.take(fnv32a(`${p.namespace}/${p.name}`)), synthetic: true });
    return out;
  });
}

/** A pod's address: `status.podIP`, or its synthetic one (see podAddresses). */
export function podAddress(view: ConfigView, pod: Resource): string {
  return podAddresses(view).get(pod)?.ip ?? podIp(pod);
}

/** Kubernetes' service account of a pod: `serviceAccountName`, else the deprecated `serviceAccount`, else `default`. */
export function podServiceAccount(pod: Resource): string {
  const spec = podSpec(pod);
  return spec.serviceAccountName || spec.serviceAccount || 'default';
}

/** A pod's containers, optionally followed by its init containers. */
export function podContainers(pod: Resource, withInit = false): readonly Container[] {
  const spec = podSpec(pod);
  return withInit ? [...spec.containers, ...spec.initContainers] : spec.containers;
}
