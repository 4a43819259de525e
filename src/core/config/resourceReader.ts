// The smallest read access to resources: what the store, the multi-cluster view and every
// ConfigView provide, and all that lower-level helpers (workload state, derivation) need.
import type { Resource } from '../document/types.ts';
import type { KindInfo } from '../document/kinds.ts';

export interface ResourceReader {
  /** Resources of a kind, in load order. */
  list(kind: KindInfo): readonly Resource[];
  find(kind: KindInfo, namespace: string, name: string): Resource | undefined;
}
