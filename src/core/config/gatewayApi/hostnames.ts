// Istio's host.Names helpers the Gateway API conversion uses (pkg/config/host/names.go), over
// the single-name rules in ../hosts.ts.
import { hostSubsetOf } from '../hosts.ts';

/** host.Names.Intersection: the narrower of each overlapping pair, in `a`'s order, without repeats. */
export function hostIntersection(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  for (const h of a) {
    for (const o of b) {
      if (hostSubsetOf(h, o)) {
        if (!out.includes(h)) out.push(h);
      } else if (hostSubsetOf(o, h)) {
        if (!out.includes(o)) out.push(o);
      }
    }
  }
  return out;
}
