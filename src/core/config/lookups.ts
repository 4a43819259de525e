// Lookups shared by all analyzers of one run. Each is built once, on first use, so no
// analyzer needs to scan every resource for every resource it checks. The index also
// records which kinds each lookup read, so an incremental run keeps the lookups whose
// kinds did not change.
import type { Resource } from '../model/types.ts';
import type { KindInfo } from '../model/kinds.ts';
import type { StoreView } from './store.ts';

interface MemoEntry {
  value: unknown;
  kinds: Set<string>;
  /** Read the whole store (`all()`): invalidated by any change. */
  any: boolean;
}

export class Lookups {
  private memo = new Map<string, MemoEntry>();

  constructor(private readonly store: StoreView) {}

  /**
   * Builds (once) and returns a named lookup. `build` must read resources through the view
   * it is given (that is how its kinds are recorded); state it fills lazily later must
   * name the kinds it depends on in `dependsOn`.
   */
  cached<T>(name: string, build: (store: StoreView) => T, dependsOn: readonly KindInfo[] = []): T {
    const hit = this.memo.get(name);
    if (hit) return hit.value as T;
    const entry: MemoEntry = { value: undefined, kinds: new Set(dependsOn.map((k) => k.id)), any: false };
    const store = this.store;
    const view: StoreView = {
      options: store.options,
      list: (kind) => (entry.kinds.add(kind.id), store.list(kind)),
      find: (kind, ns, n) => (entry.kinds.add(kind.id), store.find(kind, ns, n)),
      all: () => ((entry.any = true), store.all()),
    };
    entry.value = build(view);
    this.memo.set(name, entry);
    return entry.value as T;
  }

  /** Drops the lookups that read any of these kinds. */
  invalidate(kinds: ReadonlySet<string>): void {
    for (const [name, e] of this.memo) {
      if (e.any || [...e.kinds].some((k) => kinds.has(k))) this.memo.delete(name);
    }
  }

  /** Resources of a kind grouped by namespace. */
  byNamespace(kind: KindInfo): Map<string, Resource[]> {
    return this.cached(`byNamespace:${kind.id}`, (s) => {
      const m = new Map<string, Resource[]>();
      for (const r of s.list(kind)) {
        let l = m.get(r.namespace);
        if (!l) m.set(r.namespace, (l = []));
        l.push(r);
      }
      return m;
    });
  }
}
