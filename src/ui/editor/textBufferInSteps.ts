// A large text into an editor model without holding the page: Monaco's text buffer is built a
// piece at a time (its builder finds each piece's line starts), a few pieces per task, and the
// model is then made from the finished buffer in one short step. Creating a model from a
// 60 MB string at once scans it in one task of several hundred milliseconds.
import { PieceTreeTextBufferBuilder } from 'monaco-editor/editor/common/model/pieceTreeTextBuffer/pieceTreeTextBufferBuilder';
import { nextTask } from '../../core/nextTask.ts';

/** Texts from this length on are built in steps. */
export const BUILD_IN_STEPS_CHARS = 4 * 1024 * 1024;
/** Characters per piece: scanning one takes a few milliseconds. */
const PIECE_CHARS = 512 * 1024;
/** Longest stretch of building per task. */
const SLICE_MS = 30;

/** What Monaco's createModel accepts besides a string (a text buffer factory). */
export type TextBufferSource = object;

/**
 * The buffer for `text`, built across tasks; undefined when `stale()` turned true meanwhile
 * (the file changed or went away).
 */
export async function buildTextBufferInSteps(text: string, stale: () => boolean): Promise<TextBufferSource | undefined> {
  const builder = new PieceTreeTextBufferBuilder();
  let at = 0;
  while (at < text.length) {
    const t0 = performance.now();
    while (at < text.length && performance.now() - t0 < SLICE_MS) {
      builder.acceptChunk(text.slice(at, at + PIECE_CHARS));
      at += PIECE_CHARS;
    }
    await nextTask();
    if (stale()) return undefined;
  }
  return builder.finish();
}
