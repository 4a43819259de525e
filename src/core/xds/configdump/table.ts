// A rendered `istioctl proxy-config` table: the structured rows (for the UI) and the cells
// istioctl prints, with the tabwriter padding that table uses.
import { tabwriteRows } from './tabwriter.ts';
import { parseInt10 } from '../../go/strconv.ts';

export interface Table<R> {
  columns: string[];
  /** One record per printed row, in print order. */
  rows: R[];
  /** The printed cells of each row (same order as `rows`). */
  cells: string[][];
  /** Go tabwriter padding of this table. */
  padding: number;
}

/** The table as istioctl prints it: header, rows, tabwriter alignment. */
export function tableText(t: Table<unknown>): string {
  return tabwriteRows([t.columns, ...t.cells], { padding: t.padding });
}

/** Options shared by the summaries. */
export interface SummaryOptions {
  /** `proxy-config all`: names get a `cluster/`, `listener/`, … prefix (istioctl's includeConfigType). */
  includeConfigType?: boolean;
}

/** Go's strconv.Atoi (int64), undefined on an error. */
export function goAtoi(s: string): bigint | undefined {
  const v = parseInt10(s, 64);
  return typeof v === 'bigint' ? v : undefined;
}

/** Go's `<` on strings: byte order of the UTF-8 encodings (not UTF-16 code units). */
export function goLess(a: string, b: string): boolean {
  if (a === b) return false;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length < b.length;
  let x = a.charCodeAt(i);
  let y = b.charCodeAt(i);
  // Code points from U+10000 (surrogates in UTF-16) come after every BMP character in UTF-8.
  if (x >= 0xd800 && x <= 0xdfff) x += 0x10000;
  if (y >= 0xd800 && y <= 0xdfff) y += 0x10000;
  return x < y;
}
