// The windowed Problems list's arithmetic (src/ui/problems/virtualRows.ts): which rows are
// rendered for a scroll position, where to scroll to show a row, and where the keys move.
// Every expected value is worked out by hand from the definitions (rows of 28 px here).
import { describe, expect, it } from 'vitest';
import { rowForKey, rowsPerPage, rowWindow, scrollTopToReveal } from '../../../src/ui/problems/virtualRows.ts';

const base = { rowHeight: 28, overscan: 20, total: 3000 };

describe('rowWindow', () => {
  it('at the top: the rows in view and the overscan below, none above', () => {
    // 280 px show rows 0..9 (10 × 28 = 280); 20 more below → [0, 30).
    expect(rowWindow({ ...base, scrollTop: 0, viewportHeight: 280 })).toEqual({ start: 0, end: 30 });
  });

  it('in the middle: the overscan on both sides, a row cut by either edge counts as in view', () => {
    // scrollTop 1000: first row in view is floor(1000 / 28) = 35 (it starts at 980). The bottom
    // edge is at 1280, inside row 45 (1260..1288), so rows 35..45 are in view: ceil(1280 / 28) = 46.
    // With 20 each side: [15, 66).
    expect(rowWindow({ ...base, scrollTop: 1000, viewportHeight: 280 })).toEqual({ start: 15, end: 66 });
  });

  it('at the bottom: clamped to the list', () => {
    // The last row (2999) ends at 84000; scrolled to the end, 84000 - 280 = 83720 → first row in
    // view 2990 (83720 / 28 = 2990 exactly), end ceil(84000 / 28) = 3000 + 20, clamped to 3000.
    expect(rowWindow({ ...base, scrollTop: 83720, viewportHeight: 280 })).toEqual({ start: 2970, end: 3000 });
  });

  it('a scroll position past the end (the list just got shorter) still renders its last rows', () => {
    // 100 rows, scrollTop far beyond: the first row "in view" is clamped to 99 → [79, 100).
    expect(rowWindow({ ...base, total: 100, scrollTop: 50_000, viewportHeight: 280 })).toEqual({ start: 79, end: 100 });
  });

  it('a short list renders all of it; an empty one nothing', () => {
    expect(rowWindow({ ...base, total: 5, scrollTop: 0, viewportHeight: 280 })).toEqual({ start: 0, end: 5 });
    expect(rowWindow({ ...base, total: 0, scrollTop: 0, viewportHeight: 280 })).toEqual({ start: 0, end: 0 });
  });

  it('a viewport not measured yet (0 px) still renders the first row and the overscan', () => {
    expect(rowWindow({ ...base, scrollTop: 0, viewportHeight: 0 })).toEqual({ start: 0, end: 21 });
  });

  it('no overscan: exactly the rows in view', () => {
    // scrollTop 56 → row 2 at the top; bottom edge 56 + 84 = 140 = end of row 4 → [2, 5).
    expect(rowWindow({ ...base, overscan: 0, scrollTop: 56, viewportHeight: 84 })).toEqual({ start: 2, end: 5 });
  });
});

describe('scrollTopToReveal', () => {
  // Viewport of 280 px scrolled to 1400: rows 50..59 are wholly in view.
  it('leaves a row already wholly in view where it is', () => {
    expect(scrollTopToReveal(50, 1400, 280, 28)).toBe(1400);
    expect(scrollTopToReveal(59, 1400, 280, 28)).toBe(1400);
  });

  it('a row above comes to the top edge', () => {
    // Row 49 starts at 1372.
    expect(scrollTopToReveal(49, 1400, 280, 28)).toBe(1372);
    expect(scrollTopToReveal(0, 1400, 280, 28)).toBe(0);
  });

  it('a row below comes to the bottom edge', () => {
    // Row 60 ends at 61 × 28 = 1708; 1708 - 280 = 1428.
    expect(scrollTopToReveal(60, 1400, 280, 28)).toBe(1428);
    // The last of 3000 rows ends at 84000 → 83720.
    expect(scrollTopToReveal(2999, 0, 280, 28)).toBe(83720);
  });

  it('a viewport shorter than a row shows the row from its top', () => {
    // Row 3 spans 84..112; a 10 px viewport cannot hold it, so its top goes to the top edge.
    expect(scrollTopToReveal(3, 0, 10, 28)).toBe(84);
  });
});

describe('rowsPerPage', () => {
  it('whole rows that fit, at least one', () => {
    expect(rowsPerPage(280, 28)).toBe(10);
    expect(rowsPerPage(300, 28)).toBe(10);
    expect(rowsPerPage(20, 28)).toBe(1);
    expect(rowsPerPage(0, 28)).toBe(1);
  });
});

describe('rowForKey', () => {
  it('arrows move one row, stopping at the ends', () => {
    expect(rowForKey('ArrowDown', 10, 3000, 10)).toBe(11);
    expect(rowForKey('ArrowUp', 10, 3000, 10)).toBe(9);
    expect(rowForKey('ArrowDown', 2999, 3000, 10)).toBe(2999);
    expect(rowForKey('ArrowUp', 0, 3000, 10)).toBe(0);
  });

  it('Page Down and Page Up move a page of rows, stopping at the ends', () => {
    expect(rowForKey('PageDown', 10, 3000, 10)).toBe(20);
    expect(rowForKey('PageUp', 25, 3000, 10)).toBe(15);
    expect(rowForKey('PageDown', 2995, 3000, 10)).toBe(2999);
    expect(rowForKey('PageUp', 4, 3000, 10)).toBe(0);
  });

  it('Home and End go to the first and the last row of the whole list', () => {
    expect(rowForKey('Home', 1234, 3000, 10)).toBe(0);
    expect(rowForKey('End', 5, 3000, 10)).toBe(2999);
  });

  it('other keys, and an empty list, move nowhere', () => {
    expect(rowForKey('Enter', 5, 3000, 10)).toBeUndefined();
    expect(rowForKey('a', 5, 3000, 10)).toBeUndefined();
    expect(rowForKey('ArrowDown', 0, 0, 10)).toBeUndefined();
  });
});
