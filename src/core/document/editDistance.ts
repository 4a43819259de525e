// Levenshtein edit distance: the one measure of "how close" behind every "did you mean" (quick
// fixes, unknown kinds, unknown Envoy fields).

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
