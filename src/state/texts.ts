// Where the page keeps file texts. A file open in the editor has its text in its Monaco model
// and nowhere else on the page; the others keep it in their workspace store entry. This module
// knows the models (registered by the editor) and carries the editor's content changes to
// whoever needs them (the sync engine sends them to the worker; persistence saves later),
// so no one rebuilds a whole text per keystroke.
import type { TextChange } from '../worker/textChanges.ts';

/** What the page needs of a Monaco text model. */
export interface TextModelLike {
  getValue(): string;
  getValueLength(): number;
  /**
   * The text as it is now, read a piece at a time (Monaco's ITextSnapshot): later edits do not
   * change what it reads. Saving a large file reads it across tasks instead of building the
   * whole string at once.
   */
  createSnapshot?(): { read(): string | null };
  /** One line (1-based) and the number of lines, without building the whole text (Monaco's). */
  getLineContent?(lineNumber: number): string;
  getLineCount?(): number;
}

/** The editor's changes to one file, in order (offsets into the text as each change applies). */
export interface TextEdited {
  path: string;
  changes: TextChange[];
  /** The text's length after the changes. */
  length: number;
}

const models = new Map<string, TextModelLike>();
const listeners = new Set<(e: TextEdited) => void>();
/** Edits per path, ever (never reset, so with the file's rev it names one text). */
const editCounts = new Map<string, number>();

export function registerTextModel(path: string, model: TextModelLike): void {
  models.set(path, model);
}

/** Forgets a path's model (only if it is still `model`, when given). */
export function unregisterTextModel(path: string, model?: TextModelLike): void {
  if (model === undefined || models.get(path) === model) models.delete(path);
}

export function textModel(path: string): TextModelLike | undefined {
  return models.get(path);
}

/** Called by the editor for every change a person (or a quick fix, or undo) makes. */
export function emitTextEdited(e: TextEdited): void {
  editCounts.set(e.path, (editCounts.get(e.path) ?? 0) + 1);
  for (const l of listeners) {
    try {
      l(e);
    } catch (err) {
      // One failing listener must not keep the edit from the others.
      console.error(err);
    }
  }
}

export function onTextEdited(listener: (e: TextEdited) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function editCount(path: string): number {
  return editCounts.get(path) ?? 0;
}
