// How many of a file's diagnostics become editor markers. Like VS Code, which shows at most
// 1,000 of an extension's diagnostics per file: beyond that, errors first, then warnings,
// then the rest, each level in file order, and one more marker saying how many are not shown.
// Tens of thousands of markers (a whole-cluster dump) would hold the page for seconds in the
// editor's decorations; the Problems list still shows every one.
import type { Diagnostic, Level } from '../../core/document/types.ts';

export const MAX_MARKERS_PER_FILE = 1000;

const ORDER: readonly Level[] = ['Error', 'Warning', 'Info'];

/** The diagnostics shown as markers, and how many are left out. */
export function cappedMarkers(list: readonly Diagnostic[], max: number = MAX_MARKERS_PER_FILE): { shown: Diagnostic[]; omitted: number } {
  if (list.length <= max) return { shown: [...list], omitted: 0 };
  const shown: Diagnostic[] = [];
  for (const level of ORDER) {
    for (const d of list) {
      if (d.level !== level) continue;
      shown.push(d);
      if (shown.length === max) return { shown, omitted: list.length - max };
    }
  }
  return { shown, omitted: list.length - shown.length };
}

/** The words of the marker that stands for the ones left out. */
export function omittedMarkersMessage(omitted: number): string {
  return `Not showing ${omitted.toLocaleString('en-US')} further problems in this file; the Problems panel lists them all.`;
}
