// istioctl's `-o yaml` format. istioctl uses sigs.k8s.io/yaml.Marshal: the JSON of the
// messages is re-read and written by go-yaml v2. What matters for the bytes:
//   - a top-level block sequence with no indent (`- code: …`), keys sorted, and an empty
//     list written as `[]`;
//   - each string is written plain when it would read back as the same string, otherwise
//     single-quoted, otherwise double-quoted; strings with a newline prefer the literal
//     block style (`|-`);
//   - go-yaml v2 folds long plain and quoted scalars at the first single space after
//     column 80, continuing on a line indented by 4 (the value's indent);
//   - istioctl prints the result with Fprintln, so the output ends with an empty line.
// This file re-implements that logic for string values (the only kind we emit).
// Pure: no Node APIs.
import type { Diagnostic } from '../../document/types.ts';
import { messageFields } from './json.ts';

const BEST_WIDTH = 80;
const BEST_INDENT = 2;

// ---------- character classes (go-yaml's yamlprivateh.go, by code point) ----------

const isSpace = (c: number | undefined) => c === 0x20;
const isBlank = (c: number | undefined) => c === 0x20 || c === 0x09;
const isBreak = (c: number | undefined) => c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
const isBlankOrBreak = (c: number | undefined) => c === undefined || isBlank(c) || isBreak(c);

/** go-yaml v2's is_printable: LF, 0x20-0x7E, 0xA0-0xD7FF, 0xE000-0xFFFD except the BOM. */
function isPrintable(c: number): boolean {
  return c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);
}

// ---------- would a plain scalar read back as a string? (go-yaml v2 resolve) ----------

const NON_STRING_WORDS = new Set([
  '',
  '~',
  'null',
  'Null',
  'NULL',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
  '.nan',
  '.NaN',
  '.NAN',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '+.Inf',
  '+.INF',
  '-.inf',
  '-.Inf',
  '-.INF',
  '<<',
]);
const INT_RE = /^[-+]?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const TIMESTAMP_RE = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]| +)[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]*)?(?: *(?:Z|[-+][0-9]{1,2}(?::?[0-9]{2})?))?)?$/;
const BASE60_RE = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** True when go-yaml would write the string plain (it resolves to !!str unquoted). */
export function canBePlain(s: string): boolean {
  if (NON_STRING_WORDS.has(s)) return false;
  const first = s.charAt(0);
  if ('+-.0123456789'.includes(first)) {
    const plain = s.replace(/_/g, '');
    if (/^[0-9]/.test(s) && TIMESTAMP_RE.test(s)) return false;
    if (INT_RE.test(plain) || FLOAT_RE.test(plain)) return false;
    if (/^[-+]?0[bB][01]+$/.test(plain)) return false;
    if (BASE60_RE.test(s)) return false;
  }
  return true;
}

// ---------- scalar analysis (go-yaml v2 yaml_emitter_analyze_scalar) ----------

interface ScalarAnalysis {
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

function analyzeScalar(cps: number[]): ScalarAnalysis {
  if (cps.length === 0) return { blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  let blockIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false,
    leadingBreak = false,
    trailingSpace = false,
    trailingBreak = false;
  let breakSpace = false,
    spaceBreak = false;
  let prevSpace = false,
    prevBreak = false;
  const starts3 = (ch: number) => cps.length >= 3 && cps[0] === ch && cps[1] === ch && cps[2] === ch;
  if (starts3(0x2d) || starts3(0x2e)) blockIndicators = true;
  let precededByWs = true;
  const n = cps.length;
  for (let i = 0; i < n; i++) {
    const c = cps[i]!;
    const followedByWs = i + 1 >= n || isBlank(cps[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(String.fromCodePoint(c))) blockIndicators = true;
      else if ((c === 0x3f || c === 0x3a) && followedByWs) blockIndicators = true;
      else if (c === 0x2d && followedByWs) blockIndicators = true;
    } else if (c === 0x3a && followedByWs) blockIndicators = true;
    else if (c === 0x23 && precededByWs) blockIndicators = true;
    if (!isPrintable(c)) special = true;
    if (isSpace(c)) {
      if (i === 0) leadingSpace = true;
      if (i === n - 1) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === n - 1) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      prevSpace = false;
      prevBreak = true;
    } else {
      prevSpace = false;
      prevBreak = false;
    }
    precededByWs = isBlankOrBreak(c);
  }
  let blockPlainAllowed = true,
    singleQuotedAllowed = true,
    blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) blockPlainAllowed = singleQuotedAllowed = false;
  if (spaceBreak || special) blockPlainAllowed = singleQuotedAllowed = blockAllowed = false;
  if (lineBreaks) blockPlainAllowed = false;
  if (blockIndicators) blockPlainAllowed = false;
  return { blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

type Style = 'plain' | 'single' | 'double' | 'literal';

/** go-yaml v2's choice of style for a string mapping value in block context. */
export function scalarStyle(s: string): Style {
  const a = analyzeScalar([...s].map((ch) => ch.codePointAt(0)!));
  let style: Style = s.includes('\n') ? 'literal' : canBePlain(s) ? 'plain' : 'double';
  if (style === 'plain' && !a.blockPlainAllowed) style = 'single';
  if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && !a.blockAllowed) style = 'double';
  return style;
}

// ---------- writer (go-yaml v2 emitter state for one block mapping value) ----------

class Writer {
  out = '';
  column = 0;
  whitespace = true;
  indention = true;

  constructor(private readonly indent: number) {}

  put(s: string): void {
    this.out += s;
    this.column += [...s].length;
  }

  newline(): void {
    this.out += '\n';
    this.column = 0;
  }

  writeIndent(): void {
    if (!this.indention || this.column > this.indent || (this.column === this.indent && !this.whitespace)) this.newline();
    while (this.column < this.indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  indicator(s: string, needWhitespace: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(s);
    this.whitespace = false;
    this.indention = false;
  }
}

function writePlain(w: Writer, cps: number[]): void {
  if (!w.whitespace) w.put(' ');
  let spaces = false;
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    if (isSpace(c)) {
      if (!spaces && w.column > BEST_WIDTH && !isSpace(cps[i + 1])) w.writeIndent();
      else w.put(' ');
      spaces = true;
    } else {
      w.put(String.fromCodePoint(c));
      w.indention = false;
      spaces = false;
    }
  }
  w.whitespace = false;
  w.indention = false;
}

function writeBreak(w: Writer, c: number): void {
  if (c === 0x0a) w.newline();
  else {
    w.out += String.fromCodePoint(c);
    w.column = 0;
  }
}

function writeSingle(w: Writer, cps: number[]): void {
  w.indicator("'", true);
  let spaces = false;
  let breaks = false;
  const n = cps.length;
  for (let i = 0; i < n; i++) {
    const c = cps[i]!;
    if (isSpace(c)) {
      if (!spaces && w.column > BEST_WIDTH && i !== 0 && i !== n - 1 && !isSpace(cps[i + 1])) w.writeIndent();
      else w.put(' ');
      spaces = true;
    } else if (isBreak(c)) {
      if (!breaks && c === 0x0a) w.newline();
      writeBreak(w, c);
      w.indention = true;
      breaks = true;
    } else {
      if (breaks) w.writeIndent();
      w.put(c === 0x27 ? "''" : String.fromCodePoint(c));
      w.indention = false;
      spaces = false;
      breaks = false;
    }
  }
  w.indicator("'", false);
}

const SIMPLE_ESCAPES: Record<number, string> = {
  0x00: '0',
  0x07: 'a',
  0x08: 'b',
  0x09: 't',
  0x0a: 'n',
  0x0b: 'v',
  0x0c: 'f',
  0x0d: 'r',
  0x1b: 'e',
  0x22: '"',
  0x5c: '\\',
  0x85: 'N',
  0xa0: '_',
  0x2028: 'L',
  0x2029: 'P',
};

function hex(v: number, digits: number): string {
  return v.toString(16).toUpperCase().padStart(digits, '0');
}

function writeDouble(w: Writer, cps: number[]): void {
  w.indicator('"', true);
  let spaces = false;
  const n = cps.length;
  for (let i = 0; i < n; i++) {
    const c = cps[i]!;
    if (!isPrintable(c) || c === 0xfeff || isBreak(c) || c === 0x22 || c === 0x5c) {
      const simple = SIMPLE_ESCAPES[c];
      if (simple !== undefined) w.put(`\\${simple}`);
      else if (c <= 0xff) w.put(`\\x${hex(c, 2)}`);
      else if (c <= 0xffff) w.put(`\\u${hex(c, 4)}`);
      else w.put(`\\U${hex(c, 8)}`);
      spaces = false;
    } else if (isSpace(c)) {
      if (!spaces && w.column > BEST_WIDTH && i !== 0 && i !== n - 1) {
        w.writeIndent();
        if (isSpace(cps[i + 1])) w.put('\\');
      } else w.put(' ');
      spaces = true;
    } else {
      w.put(String.fromCodePoint(c));
      spaces = false;
    }
  }
  w.indicator('"', false);
}

function writeLiteral(w: Writer, cps: number[]): void {
  w.indicator('|', true);
  if (isSpace(cps[0]) || isBreak(cps[0])) w.put(String(BEST_INDENT));
  const last = cps[cps.length - 1];
  if (!isBreak(last)) w.put('-');
  else if (cps.length === 1 || isBreak(cps[cps.length - 2])) w.put('+');
  w.newline();
  w.indention = true;
  w.whitespace = true;
  let breaks = true;
  for (const c of cps) {
    if (isBreak(c)) {
      writeBreak(w, c);
      w.indention = true;
      breaks = true;
    } else {
      if (breaks) w.writeIndent();
      w.put(String.fromCodePoint(c));
      w.indention = false;
      breaks = false;
    }
  }
}

/**
 * One `key: value` pair of a mapping whose keys start at column `keyIndent`, written
 * as go-yaml v2 does (the value's continuation indent is keyIndent + 2). `prefix` is
 * what precedes the key on its line (`- ` or spaces).
 */
export function yamlMappingEntry(prefix: string, key: string, value: string): string {
  const keyIndent = [...prefix].length;
  const w = new Writer(keyIndent + BEST_INDENT);
  w.put(prefix);
  w.put(key);
  w.indicator(':', false);
  const cps = [...value].map((ch) => ch.codePointAt(0)!);
  switch (scalarStyle(value)) {
    case 'plain':
      writePlain(w, cps);
      break;
    case 'single':
      writeSingle(w, cps);
      break;
    case 'double':
      writeDouble(w, cps);
      break;
    case 'literal':
      writeLiteral(w, cps);
      break;
  }
  // The next key always starts on a fresh line.
  return w.column === 0 ? w.out : `${w.out}\n`;
}

/** The whole `-o yaml` output, including Fprintln's extra newline. */
export function formatYaml(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return '[]\n\n';
  let out = '';
  for (const d of diagnostics) {
    messageFields(d).forEach(([k, v], i) => {
      out += yamlMappingEntry(i === 0 ? '- ' : '  ', k, v);
    });
  }
  return `${out}\n`;
}
