// Applies an editor's content changes (offset, replaced length, inserted text) to a text.
// All changes of a batch go into a piece list and the result is joined once, so a burst of
// keystrokes into a large file costs one copy of it, not one per keystroke.

/** Replace `length` UTF-16 units at `offset` with `text` (offsets refer to the text as it is when the change applies). */
export interface TextChange {
  offset: number;
  length: number;
  text: string;
}

interface Piece {
  src: string;
  start: number;
  end: number;
}

function isIndex(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0;
}

/**
 * The text after applying `changes` in order, or undefined when a change does not fit the
 * text (a range past its end, a negative or fractional offset, a missing text): the caller's
 * copy and ours are out of step.
 */
export function applyTextChanges(text: string, changes: readonly TextChange[]): string | undefined {
  if (!Array.isArray(changes)) return undefined;
  if (changes.length === 0) return text;
  let pieces: Piece[] = text.length > 0 ? [{ src: text, start: 0, end: text.length }] : [];
  let total = text.length;
  for (const c of changes) {
    if (typeof c !== 'object' || c === null || !isIndex(c.offset) || !isIndex(c.length) || typeof c.text !== 'string') return undefined;
    if (c.offset + c.length > total) return undefined;
    pieces = splice(pieces, c.offset, c.length, c.text);
    total += c.text.length - c.length;
  }
  if (pieces.length === 1) {
    const p = pieces[0] as Piece;
    return p.start === 0 && p.end === p.src.length ? p.src : p.src.slice(p.start, p.end);
  }
  const parts: string[] = [];
  for (const p of pieces) parts.push(p.start === 0 && p.end === p.src.length ? p.src : p.src.slice(p.start, p.end));
  return parts.join('');
}

/** The pieces with [from, from + length) replaced by `text`. */
function splice(pieces: readonly Piece[], from: number, length: number, text: string): Piece[] {
  const to = from + length;
  const before: Piece[] = [];
  const after: Piece[] = [];
  let pos = 0;
  for (const p of pieces) {
    const pStart = pos;
    const pEnd = pos + (p.end - p.start);
    pos = pEnd;
    if (pStart < from) before.push({ src: p.src, start: p.start, end: p.start + (Math.min(pEnd, from) - pStart) });
    if (pEnd > to) after.push({ src: p.src, start: p.start + (Math.max(to, pStart) - pStart), end: p.end });
  }
  if (text.length > 0) before.push({ src: text, start: 0, end: text.length });
  return before.concat(after);
}
