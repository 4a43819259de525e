// Istio's host.Name rules as the Gateway API conversion uses them (pkg/config/host/name.go):
// a leading `*` is a wildcard suffix match; Matches is symmetric, SubsetOf is not.

export function isWildcarded(h: string): boolean {
  return h.length > 0 && h[0] === '*';
}

/** host.Name.Matches: either side may be a wildcard. */
export function hostMatches(n: string, o: string): boolean {
  const nw = isWildcarded(n);
  const ow = isWildcarded(o);
  if (nw) {
    if (ow) return n.length < o.length ? o.slice(1).endsWith(n.slice(1)) : n.slice(1).endsWith(o.slice(1));
    return o.endsWith(n.slice(1));
  }
  if (ow) return n.endsWith(o.slice(1));
  return n === o;
}

/** host.Name.SubsetOf: every host `n` matches is also matched by `o`. */
export function hostSubsetOf(n: string, o: string): boolean {
  const nw = isWildcarded(n);
  const ow = isWildcarded(o);
  if (nw) return ow ? n.slice(1).endsWith(o.slice(1)) : false;
  if (ow) return n.endsWith(o.slice(1));
  return n === o;
}

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
