// Where a piece of text sits in a fixture, for tests that check editor ranges.
import { expect } from 'vitest';
import type { Diagnostic } from '../../src/core/document/types.ts';

/** 1-based line and column where `needle` starts (searching from the line holding `from`). */
export function pos(text: string, needle: string, from?: string): { line: number; col: number } {
  const rows = text.split('\n');
  const start = from === undefined ? 0 : rows.findIndex((l) => l.includes(from));
  const i = rows.findIndex((l, k) => k >= start && l.includes(needle));
  if (i < 0) throw new Error(`no ${needle}`);
  return { line: i + 1, col: (rows[i] as string).indexOf(needle) + 1 };
}

/** The diagnostic's editor range starts where `needle` starts. */
export function expectAt(d: Diagnostic | undefined, text: string, needle: string, from?: string): void {
  const p = pos(text, needle, from);
  expect({ startLine: d?.range?.startLine, startCol: d?.range?.startCol }).toEqual({ startLine: p.line, startCol: p.col });
}
