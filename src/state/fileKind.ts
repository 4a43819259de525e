// How the UI treats a file's text: editable, binary, or too large for the editor.
/** Files above this are not opened in the editor (the core reports a diagnostic for them). */
export const MAX_EDITOR_BYTES = 32 * 1024 * 1024;
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
