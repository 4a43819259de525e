// The store of the mesh: resources by kind, after Istio's loading rules (kind filter,
// namespace defaulting, ignored namespaces, placeholders, synthetic mesh config), plus the
// pods derived from controllers whose pods the workspace does not hold.
import type { Resource } from '../document/types.ts';
import { KINDS, kindById, IGNORED_NAMESPACES, type KindInfo } from '../document/kinds.ts';
import { stringMap } from '../document/read.ts';
import { listAt, mapAt } from '../document/maps.ts';
import type { MeshConfig, MeshNetworks } from './mesh/meshconfig.ts';
import type { ResourceReader } from './resourceReader.ts';
import type { AddressRange } from './addressRing.ts';
import { DERIVED_POD_INPUTS, DerivedPodCache, derivePods } from './derivedWorkloads.ts';

export interface StoreOptions {
  /**
   * `harness`: Istio's analyzer test harness (namespace-less objects keep an empty
   * namespace; placeholders are loaded after the files). `cli`: istioctl analyze on files
   * (namespace-less objects get `defaultNamespace`; placeholders are loaded first).
   */
  mode: 'harness' | 'cli';
  defaultNamespace: string;
  /** Only keep these kind ids (the harness loads only the analyzer's inputs). */
  kindFilter?: ReadonlySet<string>;
  includePlaceholders: boolean;
  /**
   * Which placeholder gateway (see placeholderResources); default `istio` in the harness,
   * `chart` in `cli` mode. The workspace analyzes with `workbench`.
   */
  placeholderFlavor?: PlaceholderFlavor;
  /** Derive pods from controllers whose pods are absent (not in Istio's test harness). */
  deriveWorkloads?: boolean;
  meshConfig: MeshConfig;
  meshNetworks: MeshNetworks;
  /** The pod CIDR derived pods take their addresses from (default DEFAULT_POD_RANGE, 10.244.0.0/14). */
  podCidr?: AddressRange;
}

function syntheticResource(info: KindInfo, namespace: string, name: string, body: Record<string, unknown>, synthetic: Resource['synthetic']): Resource {
  return {
    key: `${info.id}/${namespace}/${name}`,
    kindId: info.id,
    gvk: { group: info.group, version: info.version, kind: info.kind },
    namespace,
    name,
    labels: stringMap((body.metadata as Record<string, unknown> | undefined)?.labels),
    annotations: stringMap(undefined),
    body,
    synthetic,
  };
}

/**
 * The ingress gateway assumed when the workspace has none. `istio` is the Pod and Service
 * that istioctl's file analysis adds (pkg/config/analysis/local/defaults.go: ports http2 80,
 * https 443, tcp 31400, tls 15443, each to the same target port), what Istio's test harness
 * assumes; `chart` is the gateway as Istio's default ingress chart installs it (Service ports
 * 15021, 80 → 8080 and 443 → 8443), the source of the generated Envoy config of the assumed
 * gateway (see ResourceStore.placeholderSwap); `workbench`, what the workspace analyzes with,
 * is the chart's plus istioctl's tcp 31400 and tls 15443, so that a Gateway on a port either
 * of them offers (Bookinfo's 8080, tcp-echo's 31400) is not reported as missing from a
 * Service nobody wrote (IST0162).
 */
export type PlaceholderFlavor = 'istio' | 'chart' | 'workbench';

export function placeholderResources(mesh: MeshConfig, flavor: PlaceholderFlavor = 'chart'): Resource[] {
  const chartLike = flavor !== 'istio';
  const svc = mesh.ingressService || 'istio-ingressgateway';
  const ns = 'istio-system';
  const labels: Record<string, string> = chartLike ? { app: 'istio-ingressgateway', istio: 'ingressgateway' } : { istio: 'ingressgateway' };
  const pod = syntheticResource(
    KINDS.Pod,
    ns,
    `${svc}-dummypod`,
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${svc}-dummypod`, namespace: ns, labels },
      spec: { containers: [{ name: 'istio-proxy', args: null }] },
    },
    'placeholder',
  );
  const port = (name: string, p: number, target: number, nodePort?: number) => ({
    name,
    ...(nodePort ? { nodePort } : {}),
    port: p,
    protocol: 'TCP',
    targetPort: target,
  });
  const chartPorts = [port('status-port', 15021, 15021), port('http2', 80, 8080), port('https', 443, 8443)];
  const ports =
    flavor === 'chart'
      ? chartPorts
      : flavor === 'workbench'
        ? [...chartPorts, port('tcp', 31400, 31400), port('tls', 15443, 15443)]
        : [port('http2', 80, 80, 31380), port('https', 443, 443, 31390), port('tcp', 31400, 31400, 31400), port('tls', 15443, 15443, 31447)];
  const service = syntheticResource(
    KINDS.Service,
    ns,
    svc,
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: svc, namespace: ns, ...(chartLike ? { labels } : {}) },
      spec: { ports, selector: chartLike ? labels : { istio: 'ingressgateway' } },
    },
    'placeholder',
  );
  return [pod, service];
}

export function meshConfigResource(mesh: MeshConfig): Resource {
  return syntheticResource(KINDS.MeshConfig, 'istio-system', 'meshconfig', { spec: mesh } as Record<string, unknown>, 'meshconfig');
}

export function meshNetworksResource(networks: MeshNetworks): Resource {
  return syntheticResource(KINDS.MeshNetworks, 'istio-system', 'meshnetworks', { spec: networks } as Record<string, unknown>, 'meshnetworks');
}

/** Read access to a store (what analyzers and index builders see). */
export interface StoreView extends ResourceReader {
  readonly options: StoreOptions;
  all(): Resource[];
  /**
   * Resources of a kind that Istio's analysis drops because they live in Kubernetes' own
   * namespaces (`kube-system`, …), in load order. The data-plane view still shows them.
   */
  setAside?(kind: KindInfo): readonly Resource[];
}

export class ResourceStore implements StoreView {
  private byKind = new Map<string, Resource[]>();
  private byKey = new Map<string, Resource>();
  /**
   * byKey again, by kind id, namespace and name: find() is asked hundreds of thousands of
   * times in a large mesh, and building and hashing a key text each time costs more.
   */
  private byName = new Map<string, Map<string, Map<string, Resource>>>();
  /** Namespace-defaulted copies, kept so a resource keeps its identity across refreshes. */
  private normalized = new WeakMap<Resource, Resource>();
  private readonly placeholders: Resource[];
  private readonly derivedCache = new DerivedPodCache();
  private derived: Resource[] = [];
  private readonly asideByKind = new Map<string, Resource[]>();
  /** Each kind's resources as last loaded (normalized, in load order, before duplicates and set-asides). */
  private loadedByKind = new Map<string, Resource[]>();
  /** The workspace's resources as of the last build or refresh. */
  private lastInput: readonly Resource[] | undefined;

  constructor(
    resources: Iterable<Resource>,
    readonly options: StoreOptions,
  ) {
    this.placeholders =
      options.includePlaceholders && options.meshConfig.ingressControllerMode !== 'OFF' ? placeholderResources(options.meshConfig, this.placeholderFlavor) : [];
    if (options.mode === 'cli') for (const p of this.placeholders) this.add(p);
    const input = [...resources];
    this.lastInput = input;
    for (const r of input) this.load(this.normalize(r));
    if (options.mode === 'harness') for (const p of this.placeholders) this.add(p);
    this.add(meshConfigResource(options.meshConfig));
    this.add(meshNetworksResource(options.meshNetworks));
    this.addDerivedPods();
  }

  private get placeholderFlavor(): PlaceholderFlavor {
    return this.options.placeholderFlavor ?? (this.options.mode === 'harness' ? 'istio' : 'chart');
  }

  /**
   * The placeholders of another flavor, keyed by the ones this store holds (same keys), for
   * a view that shows `flavor` instead (see placeholderOverlay). Empty when the store has
   * that flavor or no placeholders; a placeholder replaced by a file's object is not in it.
   */
  placeholderSwap(flavor: PlaceholderFlavor): Map<Resource, Resource> {
    const swap = new Map<Resource, Resource>();
    if (this.placeholders.length === 0 || flavor === this.placeholderFlavor) return swap;
    const other = placeholderResources(this.options.meshConfig, flavor);
    this.placeholders.forEach((p, i) => {
      const o = other[i];
      if (o && o.key === p.key && this.byKey.get(p.key) === p) swap.set(p, o);
    });
    return swap;
  }

  /** Pods derived from controllers (see derivedWorkloads.ts), in derivation order. */
  derivedPods(): readonly Resource[] {
    return this.derived;
  }

  private addDerivedPods(): void {
    if (!this.options.deriveWorkloads) return;
    if (this.options.kindFilter && !this.options.kindFilter.has(KINDS.Pod.id)) return;
    const pods = (this.byKind.get(KINDS.Pod.id) ?? []).filter((p) => !p.synthetic);
    this.derived = derivePods({ view: this, pods, nodes: this.list(KINDS.Node), podRange: this.options.podCidr }, this.derivedCache).filter(
      (p) => !this.byKey.has(p.key),
    );
    for (const p of this.derived) this.add(p);
  }

  /**
   * Reloads the given kinds from `resources` (the whole workspace, in load order), leaving
   * every other kind as it is. The result equals a store built from scratch. Returns the
   * kinds that were reloaded: the given ones, plus Pod when the derived pods may change.
   */
  refreshKinds(resources: readonly Resource[], kinds: ReadonlySet<string>): ReadonlySet<string> {
    const touched = [...kinds].filter((k) => {
      const info = kindById(k);
      return info !== undefined && !info.synthetic;
    });
    if (this.options.deriveWorkloads && touched.some((k) => DERIVED_POD_INPUTS.some((i) => i.id === k)) && !touched.includes(KINDS.Pod.id))
      touched.push(KINDS.Pod.id);
    if (touched.length === 0) return new Set();
    const set = new Set(touched);
    const lastInput = this.lastInput;
    this.lastInput = resources;
    if (lastInput && this.swapChanged(lastInput, resources, set)) return set;
    const incoming = new Map<string, Resource[]>(touched.map((k) => [k, []]));
    for (const r of resources) {
      const list = incoming.get(r.kindId);
      if (!list) continue;
      const n = this.normalize(r);
      if (n) list.push(n);
    }
    // An edit inside a document usually leaves every kind with the same resources under the
    // same keys in the same order, only some as new objects: swap those in place instead of
    // rebuilding the kind (a keystroke in a 5,000-service mesh reloaded 5,000 resources).
    const rebuild = touched.filter((k) => !this.replaceInPlace(k, incoming.get(k)!));
    if (rebuild.length === 0) return set;
    const again = new Set(rebuild);
    for (const k of rebuild) {
      for (const r of this.byKind.get(k) ?? []) this.byKey.delete(r.key);
      this.byName.delete(k);
      this.byKind.delete(k);
      this.asideByKind.delete(k);
    }
    const placeholders = this.placeholders.filter((p) => again.has(p.kindId));
    if (this.options.mode === 'cli') for (const p of placeholders) this.add(p);
    for (const k of rebuild) {
      this.loadedByKind.delete(k);
      for (const r of incoming.get(k)!) this.load(r);
    }
    if (this.options.mode === 'harness') for (const p of placeholders) this.add(p);
    if (again.has(KINDS.Pod.id)) this.addDerivedPods();
    return set;
  }

  /**
   * The cheapest refresh: when the workspace list has the same length as last time and the
   * few slots that differ hold a new object under the same key (an edit inside a document),
   * those objects are swapped in. Slots are compared by identity, so the thousands of
   * unchanged resources are not even read. False when anything else changed.
   */
  private swapChanged(before: readonly Resource[], after: readonly Resource[], kinds: ReadonlySet<string>): boolean {
    if (before.length !== after.length || kinds.has(KINDS.Pod.id)) return false;
    const pairs: Array<[Resource, Resource]> = [];
    for (let i = 0; i < after.length; i++) {
      if (before[i] === after[i]) continue;
      if (pairs.length === 64) return false;
      const o = this.normalize(before[i]!);
      const n = this.normalize(after[i]!);
      if (!o || !n || o.key !== n.key || !kinds.has(n.kindId) || this.placeholders.some((p) => p.kindId === n.kindId)) return false;
      pairs.push([o, n]);
    }
    for (const [o, n] of pairs) if (!this.loadedByKind.get(n.kindId)?.includes(o)) return false;
    for (const [o, n] of pairs) {
      const loaded = this.loadedByKind.get(n.kindId)!;
      loaded[loaded.indexOf(o)] = n;
      this.swapLoaded(n.kindId, o, n);
    }
    return true;
  }

  /** Puts `r` where the store holds `old` (same kind and key), as a reload would. */
  private swapLoaded(kindId: string, old: Resource, r: Resource): void {
    if (this.options.kindFilter && !this.options.kindFilter.has(kindId)) return;
    const aside = this.asideByKind.get(kindId);
    const at = aside ? aside.indexOf(old) : -1;
    if (aside && at >= 0) {
      aside[at] = r;
      return;
    }
    // With duplicate keys the store holds the last one; an earlier duplicate is not in it.
    if (this.byKey.get(r.key) !== old) return;
    this.byKey.set(r.key, r);
    this.indexName(r);
    const list = this.byKind.get(kindId);
    if (list) list[list.indexOf(old)] = r;
  }

  /**
   * When `next` holds the same keys in the same order as the kind's last load, puts its
   * objects where the old ones were and returns true; the store then equals one built from
   * scratch. Kinds with placeholders or derived pods are always rebuilt.
   */
  private replaceInPlace(kindId: string, next: readonly Resource[]): boolean {
    const prev = this.loadedByKind.get(kindId);
    if (!prev || prev.length !== next.length || kindId === KINDS.Pod.id || this.placeholders.some((p) => p.kindId === kindId)) return false;
    for (let i = 0; i < next.length; i++) if (prev[i]!.key !== next[i]!.key) return false;
    for (let i = 0; i < next.length; i++) {
      const old = prev[i]!;
      const r = next[i]!;
      if (old === r) continue;
      prev[i] = r;
      this.swapLoaded(kindId, old, r);
    }
    return true;
  }

  /** Adds a resource of the workspace (not a placeholder or derived pod), remembering it for refreshKinds. */
  private load(r: Resource | undefined): void {
    if (!r) return;
    listAt(this.loadedByKind, r.kindId).push(r);
    this.add(r);
  }

  /** Applies namespace rules; returns undefined for resources the store drops. */
  private normalize(r: Resource): Resource | undefined {
    const info = kindById(r.kindId);
    if (!info || info.synthetic) return undefined;
    let namespace = r.namespace;
    if (info.clusterScoped) namespace = '';
    else if (!namespace) namespace = this.options.defaultNamespace;
    if (namespace === r.namespace) return r;
    const known = this.normalized.get(r);
    if (known && known.namespace === namespace) return known;
    const copy = { ...r, namespace, key: [r.kindId, namespace, r.name].join('/') };
    this.normalized.set(r, copy);
    return copy;
  }

  private add(r: Resource | undefined): void {
    if (!r) return;
    if (this.options.kindFilter && !this.options.kindFilter.has(r.kindId)) return;
    if (IGNORED_NAMESPACES.has(r.namespace) || (r.kindId === KINDS.Namespace.id && IGNORED_NAMESPACES.has(r.name))) {
      listAt(this.asideByKind, r.kindId).push(r);
      return;
    }
    const prev = this.byKey.get(r.key);
    const list = listAt(this.byKind, r.kindId);
    if (prev) list[list.indexOf(prev)] = r;
    else list.push(r);
    this.byKey.set(r.key, r);
    this.indexName(r);
  }

  private indexName(r: Resource): void {
    mapAt(mapAt(this.byName, r.kindId), r.namespace).set(r.name, r);
  }

  list(kind: KindInfo): readonly Resource[] {
    return this.byKind.get(kind.id) ?? [];
  }

  find(kind: KindInfo, namespace: string, name: string): Resource | undefined {
    return this.byName.get(kind.id)?.get(namespace)?.get(name);
  }

  all(): Resource[] {
    return [...this.byKey.values()];
  }

  setAside(kind: KindInfo): readonly Resource[] {
    return this.asideByKind.get(kind.id) ?? [];
  }

  get size(): number {
    return this.byKey.size;
  }
}

/**
 * `base` with some of its objects shown as others (the placeholder gateway of another flavor,
 * see ResourceStore.placeholderSwap): same kinds, keys and order.
 */
export function placeholderOverlay(base: StoreView, swap: ReadonlyMap<Resource, Resource>): StoreView {
  if (swap.size === 0) return base;
  const kinds = new Set([...swap.keys()].map((r) => r.kindId));
  const lists = new WeakMap<readonly Resource[], readonly Resource[]>();
  const swapped = (list: readonly Resource[]): readonly Resource[] => {
    let out = lists.get(list);
    if (!out) {
      out = list.map((r) => swap.get(r) ?? r);
      lists.set(list, out);
    }
    return out;
  };
  return {
    options: base.options,
    list: (kind) => (kinds.has(kind.id) ? swapped(base.list(kind)) : base.list(kind)),
    find: (kind, ns, name) => {
      const r = base.find(kind, ns, name);
      return r ? (swap.get(r) ?? r) : r;
    },
    all: () => base.all().map((r) => swap.get(r) ?? r),
    setAside: (kind) => base.setAside?.(kind) ?? [],
  };
}
