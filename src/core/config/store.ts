// The analysis store: resources by kind, after Istio's loading rules (kind filter,
// namespace defaulting, ignored namespaces, placeholders, synthetic mesh config).
import type { Resource } from '../model/types.ts';
import { KINDS, kindById, IGNORED_NAMESPACES, type KindInfo } from '../model/kinds.ts';
import type { MeshConfig, MeshNetworks } from './mesh/meshconfig.ts';

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
  meshConfig: MeshConfig;
  meshNetworks: MeshNetworks;
}

function syntheticResource(info: KindInfo, namespace: string, name: string, body: Record<string, unknown>, synthetic: Resource['synthetic']): Resource {
  return {
    key: `${info.id}/${namespace}/${name}`,
    kindId: info.id,
    gvk: { group: info.group, version: info.version, kind: info.kind },
    namespace,
    name,
    labels: (((body.metadata as Record<string, unknown> | undefined)?.labels ?? {}) as Record<string, string>),
    annotations: {},
    body,
    synthetic,
  };
}

/** Istio's placeholder ingress-gateway Pod and Service (istioctl --use-kube=false). */
export function placeholderResources(mesh: MeshConfig): Resource[] {
  const svc = mesh.ingressService || 'istio-ingressgateway';
  const ns = 'istio-system';
  const pod = syntheticResource(KINDS.Pod, ns, `${svc}-dummypod`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${svc}-dummypod`, namespace: ns, labels: { istio: 'ingressgateway' } },
    spec: { containers: [{ name: 'istio-proxy', args: null }] },
  }, 'placeholder');
  const port = (name: string, p: number, nodePort: number) => ({ name, nodePort, port: p, protocol: 'TCP', targetPort: p });
  const service = syntheticResource(KINDS.Service, ns, svc, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: svc, namespace: ns },
    spec: {
      ports: [port('http2', 80, 31380), port('https', 443, 31390), port('tcp', 31400, 31400), port('tls', 15443, 31447)],
      selector: { istio: 'ingressgateway' },
    },
  }, 'placeholder');
  return [pod, service];
}

export function meshConfigResource(mesh: MeshConfig): Resource {
  return syntheticResource(KINDS.MeshConfig, 'istio-system', 'meshconfig', { spec: mesh } as Record<string, unknown>, 'meshconfig');
}

export function meshNetworksResource(networks: MeshNetworks): Resource {
  return syntheticResource(KINDS.MeshNetworks, 'istio-system', 'meshnetworks', { spec: networks } as Record<string, unknown>, 'meshnetworks');
}

/** Read access to a store (what analyzers and index builders see). */
export interface StoreView {
  readonly options: StoreOptions;
  list(kind: KindInfo): readonly Resource[];
  find(kind: KindInfo, namespace: string, name: string): Resource | undefined;
  all(): Resource[];
}

export class ResourceStore implements StoreView {
  private byKind = new Map<string, Resource[]>();
  private byKey = new Map<string, Resource>();
  /** Namespace-defaulted copies, kept so a resource keeps its identity across refreshes. */
  private normalized = new WeakMap<Resource, Resource>();
  private readonly placeholders: Resource[];

  constructor(resources: Iterable<Resource>, readonly options: StoreOptions) {
    this.placeholders = options.includePlaceholders && options.meshConfig.ingressControllerMode !== 'OFF' ? placeholderResources(options.meshConfig) : [];
    if (options.mode === 'cli') for (const p of this.placeholders) this.add(p);
    for (const r of resources) this.add(this.normalize(r));
    if (options.mode === 'harness') for (const p of this.placeholders) this.add(p);
    this.add(meshConfigResource(options.meshConfig));
    this.add(meshNetworksResource(options.meshNetworks));
  }

  /**
   * Reloads the given kinds from `resources` (the whole workspace, in load order), leaving
   * every other kind as it is. The result equals a store built from scratch.
   */
  refreshKinds(resources: readonly Resource[], kinds: ReadonlySet<string>): void {
    const touched = [...kinds].filter((k) => {
      const info = kindById(k);
      return info !== undefined && !info.synthetic;
    });
    if (touched.length === 0) return;
    const set = new Set(touched);
    for (const k of touched) {
      for (const r of this.byKind.get(k) ?? []) this.byKey.delete(r.key);
      this.byKind.delete(k);
    }
    const placeholders = this.placeholders.filter((p) => set.has(p.kindId));
    if (this.options.mode === 'cli') for (const p of placeholders) this.add(p);
    for (const r of resources) if (set.has(r.kindId)) this.add(this.normalize(r));
    if (this.options.mode === 'harness') for (const p of placeholders) this.add(p);
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
    if (IGNORED_NAMESPACES.has(r.namespace)) return;
    if (r.kindId === KINDS.Namespace.id && IGNORED_NAMESPACES.has(r.name)) return;
    const prev = this.byKey.get(r.key);
    let list = this.byKind.get(r.kindId);
    if (!list) this.byKind.set(r.kindId, (list = []));
    if (prev) list[list.indexOf(prev)] = r;
    else list.push(r);
    this.byKey.set(r.key, r);
  }

  list(kind: KindInfo): readonly Resource[] {
    return this.byKind.get(kind.id) ?? [];
  }

  find(kind: KindInfo, namespace: string, name: string): Resource | undefined {
    return this.byKey.get(`${kind.id}/${namespace}/${name}`);
  }

  all(): Resource[] {
    return [...this.byKey.values()];
  }

  get size(): number {
    return this.byKey.size;
  }
}
