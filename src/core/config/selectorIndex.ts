// Objects that select workloads by labels (Services, policies), found from a workload's side.
// A whole-cluster dump has thousands of selectors per namespace and a pod per few of them:
// testing every selector against every pod grows with their product. Here each selector is
// filed under one of its labels, and a pod tests only the selectors filed under a label it has.
import { selectorMatches, type LabelMap } from './labels.ts';

interface NamespaceEntries {
  /** Positions of the empty selectors (they select every workload of the namespace). */
  any: number[];
  /** Positions of the other selectors, by their first label's key and value. */
  byLabel: Map<string, Map<string, number[]>>;
}

export class SelectorIndex<T> {
  private readonly items: T[] = [];
  private readonly selectors: LabelMap[] = [];
  private readonly namespaces = new Map<string, NamespaceEntries>();

  /** Files `item`, which selects with `selector` in `namespace`. */
  add(namespace: string, selector: LabelMap, item: T): void {
    const at = this.items.length;
    this.items.push(item);
    this.selectors.push(selector);
    let ns = this.namespaces.get(namespace);
    if (ns === undefined) this.namespaces.set(namespace, (ns = { any: [], byLabel: new Map() }));
    for (const key in selector) {
      let byValue = ns.byLabel.get(key);
      if (byValue === undefined) ns.byLabel.set(key, (byValue = new Map()));
      const value = selector[key] as string;
      const list = byValue.get(value);
      if (list === undefined) byValue.set(value, [at]);
      else list.push(at);
      return;
    }
    ns.any.push(at);
  }

  /** The items of `namespace` whose selector matches `labels`, in the order they were added. */
  matching(namespace: string, labels: LabelMap): T[] {
    const ns = this.namespaces.get(namespace);
    if (ns === undefined) return [];
    let candidates: number[] = ns.any;
    let merged = false;
    for (const key in labels) {
      const list = ns.byLabel.get(key)?.get(labels[key] as string);
      if (list === undefined) continue;
      if (candidates.length === 0) candidates = list;
      else {
        if (!merged) candidates = candidates.slice();
        merged = true;
        for (const at of list) candidates.push(at);
      }
    }
    // Each selector is filed once, so the lists are disjoint: sorting restores the order added.
    if (merged) candidates.sort((a, b) => a - b);
    const out: T[] = [];
    for (const at of candidates) if (selectorMatches(this.selectors[at] as LabelMap, labels)) out.push(this.items[at] as T);
    return out;
  }
}
