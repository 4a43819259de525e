// Applies text edits (1-based line/column ranges, end exclusive) to a text. Pure, so the
// UI (files without an editor model) and the tests share it.
import type { SourceRange } from '../../document/types.ts';

export interface RangeEdit {
  range: SourceRange;
  text: string;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function offsetOf(starts: readonly number[], text: string, line: number, col: number): number {
  const l = Math.min(Math.max(line, 1), starts.length);
  const start = starts[l - 1] as number;
  const next = l < starts.length ? (starts[l] as number) - 1 : text.length;
  return Math.min(start + Math.max(col, 1) - 1, next);
}

/** The text with every edit applied; edits refer to the original text and must not overlap. */
export function applyTextEdits(text: string, edits: readonly RangeEdit[]): string {
  const starts = lineStarts(text);
  const located = edits.map((e, i) => ({
    start: offsetOf(starts, text, e.range.startLine, e.range.startCol),
    end: offsetOf(starts, text, e.range.endLine, e.range.endCol),
    text: e.text,
    i,
  }));
  // Back to front, so earlier offsets stay valid; insertions at one place keep their order.
  located.sort((a, b) => b.start - a.start || b.i - a.i);
  let out = text;
  for (const e of located) out = out.slice(0, e.start) + e.text + out.slice(Math.max(e.end, e.start));
  return out;
}
