// How the UI treats a file's text: editable, binary, or too large for the editor.
import { LARGE_FILE_CHARS, tabFileLimit, type FileLimit } from '../core/document/inputLimits.ts';

/**
 * The longest file this tab analyzes: from the heap Chrome says it has (a page's and a
 * worker's are the same size), or the default where the browser does not say.
 */
export function pageFileLimit(): FileLimit {
  const heap = (globalThis.performance as { memory?: { jsHeapSizeLimit?: number } } | undefined)?.memory?.jsHeapSizeLimit;
  return tabFileLimit(typeof heap === 'number' && heap > 0 ? heap : undefined);
}

/** Files above this are not opened in the editor (the worker does not analyze them either; it reports why). */
export const MAX_EDITOR_BYTES = pageFileLimit().chars;
/** Files above this open in the editor's large-file mode (no highlighting, folding or suggestions), as VS Code does. */
export const LARGE_EDITOR_CHARS = LARGE_FILE_CHARS;
/** Files above this are kept in memory but not persisted to localStorage. */
export const MAX_PERSIST_BYTES = 5 * 1024 * 1024;

export type FileKind = 'text' | 'binary' | 'too-large';

/** Binary: contains NUL, or the first 8 KiB are mostly control/replacement characters. */
export function looksBinary(text: string): boolean {
  if (text.indexOf('\u0000') !== -1) return true;
  const sample = text.slice(0, 8192);
  if (sample.length === 0) return false;
  let odd = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0xfffd || (c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 0x7f) odd++;
  }
  return odd / sample.length > 0.1;
}

export function classify(text: string, bytes: number): FileKind {
  if (bytes > MAX_EDITOR_BYTES) return 'too-large';
  if (looksBinary(text)) return 'binary';
  return 'text';
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
