// Edit distance and "did you mean" candidate ranking for quick fixes.

/** Levenshtein distance, or `max + 1` as soon as it is known to exceed `max`. */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
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
    [prev, cur] = [cur, prev];
  }
  return prev[b.length] as number;
}

/** Candidates considered per ranking, so a huge mesh does not make fixes slow. */
export const MAX_CANDIDATES = 5000;

export interface Ranked<T> {
  value: T;
  distance: number;
}

/**
 * The candidates closest to `target` (at most `limit`, best first). `key` gives the
 * spellings a candidate can be written as; the closest one counts. Candidates further away
 * than `maxDistance` (default: about half the length) are left out.
 */
export function closest<T>(target: string, candidates: Iterable<T>, key: (c: T) => string | string[], opts: { limit?: number; maxDistance?: number } = {}): Array<Ranked<T>> {
  const limit = opts.limit ?? 3;
  const ranked: Array<Ranked<T>> = [];
  let seen = 0;
  for (const c of candidates) {
    if (++seen > MAX_CANDIDATES) break;
    const spellings = key(c);
    let best = Number.POSITIVE_INFINITY;
    for (const s of Array.isArray(spellings) ? spellings : [spellings]) {
      if (s === target) continue;
      const cap = opts.maxDistance ?? Math.max(2, Math.ceil(Math.max(s.length, target.length) / 2));
      const d = editDistance(target, s, cap);
      if (d <= cap && d < best) best = d;
    }
    if (best !== Number.POSITIVE_INFINITY) ranked.push({ value: c, distance: best });
  }
  ranked.sort((a, b) => a.distance - b.distance);
  return ranked.slice(0, limit);
}
