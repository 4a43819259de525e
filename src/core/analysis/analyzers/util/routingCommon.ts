// Helpers shared by the routing analyzers: Istio's host → (namespace, name) parsing and a
// label index over pods for "does any pod match this selector" questions.
import type { Resource } from '../../../model/types.ts';
import type { LabelMap } from '../../../config/labels.ts';

const FQDN_RE = /^(.+)\.(.+)\.svc\.cluster\.local$/;

/**
 * Istio's GetResourceNameFromHost: a cluster FQDN (`name.ns.svc.cluster.local`, greedy on
 * the name) gives its namespace and name; anything else is a name in `defaultNamespace`.
 */
export function resourceNameFromHost(defaultNamespace: string, host: string): { namespace: string; name: string } {
  const m = FQDN_RE.exec(host);
  if (m && m[1] !== undefined && m[2] !== undefined) return { namespace: m[2], name: m[1] };
  return { namespace: defaultNamespace, name: host };
}

/**
 * Label sets indexed by `key=value`, so that a selector only looks at the entries carrying
 * its rarest pair instead of at every entry.
 */
export class LabelIndex<T> {
  private readonly entries: Array<{ item: T; labels: LabelMap }> = [];
  private readonly byPair = new Map<string, number[]>();

  add(item: T, labels: LabelMap): void {
    const idx = this.entries.length;
    this.entries.push({ item, labels });
    for (const k in labels) {
      const pair = `${k}\u0000${labels[k]}`;
      let l = this.byPair.get(pair);
      if (!l) this.byPair.set(pair, (l = []));
      l.push(idx);
    }
  }

  get size(): number {
    return this.entries.length;
  }

  /** Candidate entry indices (in insertion order) for a selector; all entries for an empty one. */
  private candidates(selector: LabelMap): number[] | undefined {
    let best: number[] | undefined;
    for (const k in selector) {
      const l = this.byPair.get(`${k}\u0000${selector[k]}`);
      if (!l) return [];
      if (!best || l.length < best.length) best = l;
    }
    return best;
  }

  private matches(selector: LabelMap, labels: LabelMap): boolean {
    for (const k in selector) if (labels[k] !== selector[k]) return false;
    return true;
  }

  /** Items whose labels carry every pair of the selector, in insertion order. */
  select(selector: LabelMap): T[] {
    const c = this.candidates(selector);
    if (c === undefined) return this.entries.map((e) => e.item);
    const out: T[] = [];
    for (const i of c) {
      const e = this.entries[i];
      if (e && this.matches(selector, e.labels)) out.push(e.item);
    }
    return out;
  }

  /** True when some item matches the selector. */
  any(selector: LabelMap): boolean {
    const c = this.candidates(selector);
    if (c === undefined) return this.entries.length > 0;
    for (const i of c) {
      const e = this.entries[i];
      if (e && this.matches(selector, e.labels)) return true;
    }
    return false;
  }
}

/** Pods indexed by their own labels (built once per run by the caller's cache). */
export function podLabelIndex(pods: readonly Resource[]): LabelIndex<Resource> {
  const idx = new LabelIndex<Resource>();
  for (const p of pods) idx.add(p, p.labels);
  return idx;
}
