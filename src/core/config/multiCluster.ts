// A read-only view over several clusters' stores, for multi-cluster analyzers (Istio's
// AllMultiCluster()). Each cluster keeps its own ResourceStore (so same-named resources of
// different clusters do not replace each other); resources carry their `cluster`. Synthetic
// kinds (mesh config and networks) come from the separate default store only.
import type { Resource } from '../document/types.ts';
import type { KindInfo } from '../document/kinds.ts';
import type { StoreView } from './store.ts';

export interface ClusterStore {
  cluster: string;
  store: StoreView;
}

export class MultiClusterStoreView implements StoreView {
  readonly options: StoreView['options'];
  private readonly lists = new Map<string, Resource[]>();

  constructor(
    private readonly defaultStore: StoreView,
    private readonly clusters: readonly ClusterStore[],
  ) {
    this.options = defaultStore.options;
  }

  list(kind: KindInfo): readonly Resource[] {
    if (kind.synthetic) return this.defaultStore.list(kind);
    let l = this.lists.get(kind.id);
    if (!l) {
      l = [...this.defaultStore.list(kind)];
      for (const c of this.clusters) l.push(...c.store.list(kind));
      this.lists.set(kind.id, l);
    }
    return l;
  }

  /** The first match: the default store, then the clusters in order. */
  find(kind: KindInfo, namespace: string, name: string): Resource | undefined {
    if (kind.synthetic) return this.defaultStore.find(kind, namespace, name);
    const hit = this.defaultStore.find(kind, namespace, name);
    if (hit) return hit;
    for (const c of this.clusters) {
      const r = c.store.find(kind, namespace, name);
      if (r) return r;
    }
    return undefined;
  }

  all(): Resource[] {
    const out = this.defaultStore.all();
    for (const c of this.clusters) out.push(...c.store.all().filter((r) => !r.synthetic));
    return out;
  }
}
