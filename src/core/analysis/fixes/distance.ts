// Edit distance and "did you mean" candidate ranking for quick fixes.

/** Levenshtein distance, or `max + 1` as soon as it is known to exceed `max`. */
let rowA = new Uint32Array(64);
let rowB = new Uint32Array(64);

export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  // Shared prefixes and suffixes cost nothing (hosts share domains, names share stems).
  let p = 0;
  while (p < a.length && p < b.length && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let q = 0;
  while (q < a.length - p && q < b.length - p && a.charCodeAt(a.length - 1 - q) === b.charCodeAt(b.length - 1 - q)) q++;
  if (p > 0 || q > 0) {
    a = a.slice(p, a.length - q);
    b = b.slice(p, b.length - q);
  }
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  if (rowA.length <= b.length) {
    rowA = new Uint32Array(b.length + 1);
    rowB = new Uint32Array(b.length + 1);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[b.length] as number;
}

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
export function closest<T>(target: string, candidates: Iterable<T>, key: (c: T) => string | string[], opts: { limit?: number; maxDistance?: number } = {}): Array<Ranked<T>> {
  const limit = opts.limit ?? 3;
  // Kept sorted by distance; once full, a candidate must beat the worst kept one, which
  // lets the distance computation give up early on most of a large candidate list.
  const kept: Array<Ranked<T>> = [];
  let seen = 0;
  for (const c of candidates) {
    if (++seen > MAX_CANDIDATES) break;
    const spellings = key(c);
    let best = Number.POSITIVE_INFINITY;
    for (const s of typeof spellings === 'string' ? (ONE[0] = spellings, ONE) : spellings) {
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
