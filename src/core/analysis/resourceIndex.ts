// Lookups shared by all analyzers of one run. Each is built once, on first use, so no
// analyzer needs to scan every resource for every resource it checks.
import type { Resource } from '../model/types.ts';
import type { KindInfo } from '../model/kinds.ts';
import type { ResourceStore } from './store.ts';

export class ResourceIndex {
  private memo = new Map<string, unknown>();

  constructor(private readonly store: ResourceStore) {}

  /** Builds (once per run) and returns a named lookup. */
  cached<T>(name: string, build: (store: ResourceStore) => T): T {
    if (this.memo.has(name)) return this.memo.get(name) as T;
    const value = build(this.store);
    this.memo.set(name, value);
    return value;
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
