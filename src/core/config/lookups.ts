// Derived facts about one version of the mesh (indexes, registries), each built once, on
// first use, and shared by every reader. Each lookup records which kinds it read, directly
// or through other lookups and ConfigView reads made while it was being built, so an
// incremental run keeps exactly the lookups whose kinds did not change.
import type { Resource } from '../document/types.ts';
import type { KindInfo } from '../document/kinds.ts';
import type { StoreView } from './store.ts';
import { listAt } from '../document/maps.ts';

interface MemoEntry {
  value: unknown;
  kinds: Set<string>;
  /** Read the whole store (`all()`): invalidated by any change. */
  any: boolean;
}

export class Lookups {
  private memo = new Map<string, MemoEntry>();
  /** Lookups being built, innermost last: a read is a dependency of all of them. */
  private building: MemoEntry[] = [];

  constructor(private readonly store: StoreView) {}

  /** Records a read of `kind` by whatever lookups are being built (called by ConfigView reads). */
  noteRead(kindId: string): void {
    for (let i = 0; i < this.building.length; i++) (this.building[i] as MemoEntry).kinds.add(kindId);
  }

  private inherit(from: MemoEntry): void {
    for (const parent of this.building) {
      if (from.any) parent.any = true;
      for (const k of from.kinds) parent.kinds.add(k);
    }
  }

  /**
   * Builds (once) and returns a named lookup. Reads through the store view given to `build`,
   * through a ConfigView, or through other lookups are recorded; state filled lazily later
   * must name the kinds it depends on in `dependsOn`.
   */
  cached<T>(name: string, build: (store: StoreView) => T, dependsOn: readonly KindInfo[] = []): T {
    const hit = this.memo.get(name);
    if (hit) {
      if (this.building.length > 0) this.inherit(hit);
      return hit.value as T;
    }
    const entry: MemoEntry = { value: undefined, kinds: new Set(dependsOn.map((k) => k.id)), any: false };
    const store = this.store;
    const view: StoreView = {
      options: store.options,
      list: (kind) => (entry.kinds.add(kind.id), store.list(kind)),
      find: (kind, ns, n) => (entry.kinds.add(kind.id), store.find(kind, ns, n)),
      all: () => ((entry.any = true), store.all()),
    };
    this.building.push(entry);
    try {
      entry.value = build(view);
    } finally {
      this.building.pop();
    }
    this.inherit(entry);
    this.memo.set(name, entry);
    return entry.value as T;
  }

  /** Drops the lookups that read any of these kinds. */
  invalidate(kinds: ReadonlySet<string>): void {
    for (const [name, e] of this.memo) {
      if (e.any || [...e.kinds].some((k) => kinds.has(k))) this.memo.delete(name);
    }
  }

  /**
   * Lookups over `store`, a view that differs from this one's only in `kinds` (see
   * placeholderOverlay): it starts with this one's lookups that read none of them.
   */
  fork(store: StoreView, kinds: ReadonlySet<string>): Lookups {
    const l = new Lookups(store);
    for (const [name, e] of this.memo) {
      if (!e.any && ![...e.kinds].some((k) => kinds.has(k))) l.memo.set(name, e);
    }
    return l;
  }

  /** Resources of a kind grouped by namespace. */
  byNamespace(kind: KindInfo): Map<string, Resource[]> {
    return this.cached(`byNamespace:${kind.id}`, (s) => {
      const m = new Map<string, Resource[]>();
      for (const r of s.list(kind)) {
        listAt(m, r.namespace).push(r);
      }
      return m;
    });
  }
}
