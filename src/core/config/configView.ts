// Read access to one version of the mesh: what every feature (analyzers, xDS, ambient,
// certificates, queries) reads, and what every lookup in config/ is computed from.
import type { ResourceReader } from './resourceReader.ts';
import type { MeshConfig, MeshNetworks } from './mesh/meshconfig.ts';
import { Lookups } from './lookups.ts';
import type { StoreView } from './store.ts';
import type { KindInfo } from '../document/kinds.ts';
import type { Resource } from '../document/types.ts';
import type { AddressRange } from './addressRing.ts';

export interface ConfigView extends ResourceReader {
  readonly meshConfig: MeshConfig;
  readonly meshNetworks: MeshNetworks;
  /** The pod CIDR assumed pods take addresses from (undefined: DEFAULT_POD_RANGE). */
  readonly podCidr?: AddressRange;
  /** Derived facts (indexes, registries), each built once per version, on first use. */
  readonly lookups: Lookups;
  /** Resources of a kind in Kubernetes' own namespaces, which the analysis drops (see StoreView.setAside). */
  setAside?(kind: KindInfo): readonly Resource[];
}

/** A ConfigView over a store (with fresh lookups unless given). */
export function configView(store: StoreView, lookups: Lookups = new Lookups(store)): ConfigView {
  return {
    meshConfig: store.options.meshConfig,
    meshNetworks: store.options.meshNetworks,
    podCidr: store.options.podCidr,
    // Reads made while a lookup is being built are its dependencies.
    list: (kind) => (lookups.noteRead(kind.id), store.list(kind)),
    find: (kind, ns, name) => (lookups.noteRead(kind.id), store.find(kind, ns, name)),
    setAside: (kind) => (lookups.noteRead(kind.id), store.setAside?.(kind) ?? []),
    lookups,
  };
}
