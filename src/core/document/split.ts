// Cuts a file into YAML documents the way istioctl's file reader does, so that reference
// lines (`file:line`) match istioctl byte for byte: a separator is a line starting with
// `---` followed only by whitespace (Go's: NBSP and the other Unicode spaces count), and a
// chunk's line is its first line that is neither empty nor a separator. istioctl reads
// .json files the same way, through its YAML reader.
import type { SourceDocument } from './types.ts';

export function isJsonPath(path: string): boolean {
  return path.toLowerCase().endsWith('.json');
}

/** Go's unicode.IsSpace, which istioctl's reader applies to what follows `---`. */
function isGoSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0x85) return false;
  return (
    c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

function isSeparatorLine(text: string, start: number, end: number): boolean {
  if (end - start < 3 || text.charCodeAt(start) !== 45 || text.charCodeAt(start + 1) !== 45 || text.charCodeAt(start + 2) !== 45) return false;
  for (let i = start + 3; i < end; i++) if (!isGoSpace(text.charCodeAt(i))) return false;
  return true;
}

/** Start offset of the line that ends at `lineEnd` (the offset of its newline, or the text's end). */
function lineStartBefore(text: string, lineEnd: number): number {
  return text.lastIndexOf('\n', lineEnd - 1) + 1;
}

/**
 * How istioctl's reader takes the separator line just above a document starting at
 * `docStart`: 'no' when the separator ends the previous chunk (the usual case), 'exact' or
 * 'other' when it goes into this document's chunk instead. Its reader ends a chunk at a
 * separator only when something was read since the last one ended; otherwise the separator
 * is kept as the chunk's first line. So in a run of separator lines, they alternately end a
 * chunk and are kept, starting with kept at the file's start and with ending after any other
 * line (a blank one too). A kept `---` (exactly that, after the CR of a CRLF) is not the
 * chunk's first line for the reference line; one with other trailing whitespace is.
 */
export function separatorKept(text: string, docStart: number): 'no' | 'exact' | 'other' {
  if (docStart === 0) return 'no';
  const sepEnd = docStart - 1; // the separator's newline
  const sepStart = lineStartBefore(text, sepEnd);
  let run = 1;
  let runStart = sepStart;
  while (runStart > 0) {
    const prevStart = lineStartBefore(text, runStart - 1);
    if (!isSeparatorLine(text, prevStart, runStart - 1)) break;
    run++;
    runStart = prevStart;
  }
  const kept = runStart === 0 ? run % 2 === 1 : run % 2 === 0;
  if (!kept) return 'no';
  let end = sepEnd;
  if (end > sepStart && text.charCodeAt(end - 1) === 13) end--;
  return end - sepStart === 3 ? 'exact' : 'other';
}

/**
 * Splits a YAML or JSON file into documents with their file offsets and lines. With
 * `range`, only text[start, end) is split; `start` must be the start of a document (just
 * after a separator line, or 0) and `startLine` its file line. Document indices then start
 * at 0 and are renumbered by the caller.
 */
export function splitDocuments(file: string, text: string, range?: { start: number; end: number; startLine: number }): SourceDocument[] {
  const isJson = isJsonPath(file);
  const docs: SourceDocument[] = [];
  let docStart = range?.start ?? 0; // offset of the chunk's first line
  let docStartLine = range?.startLine ?? 1;
  let referenceLine = 0; // 0 = not found yet
  let line = docStartLine;
  let pos = docStart;
  const len = range?.end ?? text.length;
  const pushDoc = (endOffset: number) => {
    const chunk = text.slice(docStart, endOffset);
    if (chunk.trim().length > 0) {
      const kept = separatorKept(text, docStart);
      docs.push({
        file,
        index: docs.length,
        text: chunk,
        startOffset: docStart,
        startLine: docStartLine,
        // A kept separator with trailing whitespace is the chunk's first line for istioctl.
        referenceLine: kept === 'other' ? docStartLine - 1 : referenceLine || docStartLine,
        isJson,
        separatorInChunk: kept !== 'no',
      });
    }
  };
  while (pos < len) {
    let eol = text.indexOf('\n', pos);
    if (eol < 0 || eol > len) eol = len;
    if (isSeparatorLine(text, pos, eol)) {
      pushDoc(pos);
      docStart = eol + 1;
      docStartLine = line + 1;
      referenceLine = 0;
    } else if (referenceLine === 0 && eol > pos && !(eol === pos + 1 && text.charCodeAt(pos) === 13)) {
      referenceLine = line;
    }
    pos = eol + 1;
    line++;
  }
  if (docStart < len) pushDoc(len);
  return docs;
}

/** Counts `\n` in text[start, end). */
export function countNewlines(text: string, start = 0, end = text.length): number {
  let n = 0;
  for (let i = text.indexOf('\n', start); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Length of the common prefix of two strings (compared in blocks, then by character). */
export function commonPrefixLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  const BLOCK = 4096;
  let i = 0;
  while (i + BLOCK <= max && a.slice(i, i + BLOCK) === b.slice(i, i + BLOCK)) i += BLOCK;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Length of the common suffix of two strings, at most `max` characters. */
export function commonSuffixLength(a: string, b: string, max: number): number {
  const BLOCK = 4096;
  let i = 0;
  while (i + BLOCK <= max && a.slice(a.length - i - BLOCK, a.length - i) === b.slice(b.length - i - BLOCK, b.length - i)) i += BLOCK;
  while (i < max && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}
