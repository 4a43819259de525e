// The arithmetic of a windowed list of fixed-height rows (the Problems list when it is long):
// which rows to render for a scroll position, where to scroll to show a row, and which row a
// navigation key moves to. Pure, so it is tested without a browser.
// Positions are in "row space": 0 is the top of the first row (below the sticky header), and the
// viewport height is the part of the scroll box the rows show in (its height minus the header's).

export interface RowWindowInput {
  /** Pixels scrolled past the first row's top. */
  scrollTop: number;
  /** Height the rows show in. */
  viewportHeight: number;
  rowHeight: number;
  /** Rows rendered beyond each edge of the viewport, so a quick scroll shows no gap. */
  overscan: number;
  /** Rows in the whole list. */
  total: number;
}

/** Rows [start, end) of the whole list to render. */
export interface RowWindow {
  start: number;
  end: number;
}

export function rowWindow({ scrollTop, viewportHeight, rowHeight, overscan, total }: RowWindowInput): RowWindow {
  if (total <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const top = Math.max(0, scrollTop);
  const firstVisible = Math.min(total - 1, Math.floor(top / rowHeight));
  // The row the viewport's bottom edge falls in, exclusive: a row only partly in view counts.
  const pastLastVisible = Math.ceil((top + Math.max(0, viewportHeight)) / rowHeight);
  const start = Math.max(0, firstVisible - overscan);
  const end = Math.min(total, Math.max(firstVisible + 1, pastLastVisible) + overscan);
  return { start, end };
}

/**
 * The scrollTop that brings row `index` wholly into view, moving as little as possible (as
 * scrollIntoView's block "nearest"): unchanged when it is already in view.
 */
export function scrollTopToReveal(index: number, scrollTop: number, viewportHeight: number, rowHeight: number): number {
  const rowTop = index * rowHeight;
  const rowBottom = rowTop + rowHeight;
  if (rowTop < scrollTop) return rowTop;
  // Below: its bottom to the bottom edge, or its top to the top edge when the viewport is
  // shorter than a row (a panel dragged nearly shut), so the row's start is what shows.
  if (rowBottom > scrollTop + viewportHeight) return Math.max(0, Math.min(rowTop, rowBottom - viewportHeight));
  return scrollTop;
}

/** Whole rows that fit in the viewport: how far Page Up and Page Down move (at least one). */
export function rowsPerPage(viewportHeight: number, rowHeight: number): number {
  return rowHeight > 0 ? Math.max(1, Math.floor(viewportHeight / rowHeight)) : 1;
}

/**
 * The row a key moves to from row `index` in a list of `total` rows, or undefined for a key
 * that does not move (the caller then leaves the event alone).
 */
export function rowForKey(key: string, index: number, total: number, pageRows: number): number | undefined {
  if (total <= 0) return undefined;
  const last = total - 1;
  const clamp = (i: number) => Math.min(last, Math.max(0, i));
  switch (key) {
    case 'ArrowDown':
      return clamp(index + 1);
    case 'ArrowUp':
      return clamp(index - 1);
    case 'PageDown':
      return clamp(index + pageRows);
    case 'PageUp':
      return clamp(index - pageRows);
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return undefined;
  }
}
