// Offset → line/column conversion with a cached line-start table per text.

export interface LineIndex {
  /** 1-based line and column of an offset. */
  position(offset: number): { line: number; col: number };
  lineCount: number;
}

const cache = new Map<string, LineIndex>();
const CACHE_LIMIT = 256;

export function lineIndex(text: string): LineIndex {
  const hit = cache.get(text);
  if (hit) return hit;
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const idx: LineIndex = {
    lineCount: starts.length,
    position(offset: number) {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((starts[mid] as number) <= offset) lo = mid;
        else hi = mid - 1;
      }
      return { line: lo + 1, col: offset - (starts[lo] as number) + 1 };
    },
  };
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(text, idx);
  return idx;
}

/** Forgets cached line tables (keys are document texts, which pin their files). */
export function clearLineIndexCache(): void {
  cache.clear();
}
