// "Did you mean" candidate ranking for quick fixes, by edit distance (document/editDistance.ts).
import { editDistance } from '../../document/editDistance.ts';

export { editDistance };

/** Candidates considered per ranking, so a huge mesh does not make fixes slow. */
export const MAX_CANDIDATES = 5000;

/** Reused one-element list, so single spellings do not allocate. */
const ONE: string[] = [''];

export interface Ranked<T> {
  value: T;
  distance: number;
}

/**
 * The candidates closest to `target` (at most `limit`, best first). `key` gives the
 * spellings a candidate can be written as; the closest one counts. Candidates further away
 * than `maxDistance` (default: about half the length of `target`) are left out.
 */
export function closest<T>(
  target: string,
  candidates: Iterable<T>,
  key: (c: T) => string | string[],
  opts: { limit?: number; maxDistance?: number } = {},
): Array<Ranked<T>> {
  const limit = opts.limit ?? 3;
  // Kept sorted by distance; once full, a candidate must beat the worst kept one, which
  // lets the distance computation give up early on most of a large candidate list.
  const kept: Array<Ranked<T>> = [];
  let seen = 0;
  for (const c of candidates) {
    if (++seen > MAX_CANDIDATES) break;
    const spellings = key(c);
    let best = Number.POSITIVE_INFINITY;
    for (const s of typeof spellings === 'string' ? ((ONE[0] = spellings), ONE) : spellings) {
      if (s === target) continue;
      let cap = opts.maxDistance ?? Math.max(2, Math.ceil(target.length / 2));
      if (kept.length >= limit) cap = Math.min(cap, (kept[kept.length - 1] as Ranked<T>).distance - 1);
      if (best !== Number.POSITIVE_INFINITY) cap = Math.min(cap, best - 1);
      if (cap < 0) continue;
      const d = editDistance(target, s, cap);
      if (d <= cap) best = d;
    }
    if (best === Number.POSITIVE_INFINITY) continue;
    let at = kept.length;
    while (at > 0 && (kept[at - 1] as Ranked<T>).distance > best) at--;
    kept.splice(at, 0, { value: c, distance: best });
    if (kept.length > limit) kept.pop();
  }
  return kept;
}
