// A fast reader for the plain, block-style YAML that Kubernetes manifests are written in:
// block mappings and sequences, one-line plain/quoted scalars, one-line flow collections,
// literal block scalars and comments. It builds values in one pass over the text, with
// scalars resolved by the project's schema (yamlSchema.ts: as kubectl resolves them), so
// that whenever it answers, js-yaml with that schema gives the same value. Anything outside
// that subset makes it give up and return NOT_HANDLED, and the caller uses js-yaml: tabs,
// lone CRs and control characters, anchors, aliases, tags, merge keys, folded or indented
// block scalars, multi-line plain, quoted or flow scalars, keys that are not plain strings,
// duplicate keys, document markers, deep nesting, and every indicator js-yaml would reject.
import { KUBE_LETTER_WORDS, resolveKubeScalar } from './yamlSchema.ts';

export const NOT_HANDLED: unique symbol = Symbol('not handled');

class Bail extends Error {}
const BAIL = new Bail('outside the fast subset');

/**
 * Characters the fast reader leaves to js-yaml: tabs (js-yaml's rules for them are
 * subtle), CRs not followed by LF (line breaks), other C0/C1 controls, DEL, surrogates
 * (js-yaml rejects unpaired ones), BOM, U+FFFE/U+FFFF and the Unicode line separators.
 */
const OUTSIDE_SUBSET = /[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]/;
const LONE_CR = /\r(?!\n)/;

/** True when the text has characters the line-based fast paths leave to the full parsers. */
export function hasCharsOutsideFastSubset(text: string): boolean {
  // A plain character class scans fastest; CRs are rare enough to look at separately.
  return OUTSIDE_SUBSET.test(text) || (text.indexOf('\r') >= 0 && LONE_CR.test(text));
}

/** Collections nested deeper than this are left to js-yaml, which enforces its own limit (100). */
const MAX_FAST_DEPTH = 64;

const DECIMAL = /^[1-9][0-9]*$/;

const MAX_LETTER_WORD = Math.max(...[...KUBE_LETTER_WORDS.keys()].map((w) => w.length));
/** 1 at the code of each letter that starts one of the words. */
const LETTER_WORD_START = new Uint8Array(128);
for (const w of KUBE_LETTER_WORDS.keys()) LETTER_WORD_START[w.charCodeAt(0)] = 1;

/** A plain scalar resolved exactly as js-yaml's schema would. */
function resolvePlain(s: string): unknown {
  const c = s.charCodeAt(0);
  // A scalar starting with a letter is a string unless it is one of the schema's spellings
  // of null and the booleans (no int, float or merge key starts with a letter).
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
    // The words are short and start with few letters: other texts (most names and keys) skip hashing.
    if (s.length > MAX_LETTER_WORD || LETTER_WORD_START[c] !== 1) return s;
    const word = KUBE_LETTER_WORDS.get(s);
    return word === undefined ? s : word;
  }
  // Plain decimal integers, the most common scalar after names (ports, replicas, weights).
  if (c >= 49 && c <= 57 && s.length <= 15 && DECIMAL.test(s)) return Number(s);
  return resolveKubeScalar(s);
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};

/** `,` `[` `]` `{` `}` */
function isFlowIndicator(c: number): boolean {
  return c === 44 || c === 91 || c === 93 || c === 123 || c === 125;
}

/**
 * Characters that cannot start a plain scalar (js-yaml's list): flow indicators, `#`, `&`,
 * `*`, `!`, `|`, `>`, quotes, `%`, `@` and backtick. A table: this is asked for every key.
 */
const NO_PLAIN_START = new Uint8Array(128);
for (const ch of ',[]{}#&*!|>\'"%@`') NO_PLAIN_START[ch.charCodeAt(0)] = 1;

function cannotStartPlain(c: number): boolean {
  return c < 128 && NO_PLAIN_START[c] === 1;
}

class Reader {
  private pos = 0; // start of the current line
  private lineEnd = 0; // end of the current line (before \r\n)
  private next = 0; // start of the following line
  /** Column of the current line's content, or -1 at the end of the text. */
  indent = -1;
  /** Collections open around the node being read. */
  private depth = 0;
  /**
   * Where the scalar or flow collection just read ends (column after it). The scanners hand
   * it back here rather than in a [value, end] pair: a manifest has hundreds of thousands of
   * scalars, and each pair would be one more short-lived object.
   */
  private scanEnd = 0;
  /** The key and value column found by the last successful keyAt (same reason). */
  private keyText = '';
  private keyValueCol = 0;

  constructor(private readonly text: string) {
    this.seekContent(0);
  }

  /** Moves to the first line at or after `from` that has content (skipping blank and comment lines). */
  private seekContent(from: number): void {
    const t = this.text;
    let p = from;
    while (p < t.length) {
      let e = t.indexOf('\n', p);
      const nl = e < 0 ? t.length : e;
      e = nl > p && t.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      let i = p;
      while (i < e && t.charCodeAt(i) === 32) i++;
      if (i < e && t.charCodeAt(i) !== 35) {
        // Document markers and directives belong to the full parsers.
        if (i === p && (t.startsWith('---', p) || t.startsWith('...', p) || t.charCodeAt(p) === 37)) throw BAIL;
        this.pos = p;
        this.lineEnd = e;
        this.next = nl + 1;
        this.indent = i - p;
        return;
      }
      p = nl + 1;
    }
    this.pos = t.length;
    this.lineEnd = t.length;
    this.next = t.length;
    this.indent = -1;
  }

  advance(): void {
    this.seekContent(this.next);
  }

  get atEnd(): boolean {
    return this.indent < 0;
  }

  /** Character code at a column of the current line (-1 past its end: a small integer keeps this hot path on V8's integer fast paths). */
  code(col: number): number {
    const i = this.pos + col;
    return i < this.lineEnd ? this.text.charCodeAt(i) : -1;
  }

  /** True when the character at `col` is followed by a space or the end of the line. */
  private spaceOrEndAfter(col: number): boolean {
    const n = this.code(col + 1);
    return n < 0 || n === 32;
  }

  /** True when the current line has a `- ` sequence entry at `col`. */
  isEntry(col: number): boolean {
    return this.code(col) === 45 && this.spaceOrEndAfter(col);
  }

  /** First non-space column at or after `col` (line length when none). */
  skipSpaces(col: number): number {
    while (this.code(col) === 32) col++;
    return col;
  }

  get length(): number {
    return this.lineEnd - this.pos;
  }

  /** True when only spaces or a comment remain from `col`. */
  restIsEmpty(col: number): boolean {
    col = this.skipSpaces(col);
    return col >= this.length || this.code(col) === 35;
  }

  slice(a: number, b: number): string {
    return this.text.slice(this.pos + a, this.pos + b);
  }

  /** Whether a plain scalar may start at `col` in block context (else js-yaml reads something else or fails). */
  private plainStartsAt(col: number): boolean {
    const c = this.code(col);
    if (c < 0 || c === 32 || cannotStartPlain(c)) return false;
    // `- `, `? ` and `: ` are indicators, not scalar text.
    if ((c === 45 || c === 63 || c === 58) && this.spaceOrEndAfter(col)) return false;
    return true;
  }

  private enter(): void {
    if (++this.depth > MAX_FAST_DEPTH) throw BAIL;
  }

  /** The node whose first character is at `col` of the current line; `parentIndent` bounds continuation lines. */
  node(col: number, parentIndent: number): unknown {
    if (this.isEntry(col)) return this.sequence(col);
    if (this.keyAt(col)) return this.mapping(col);
    return this.inlineValue(col, parentIndent);
  }

  /**
   * A value that starts on the current line at `col` and is not a block collection: a
   * scalar, a flow collection or a block scalar. Leaves the reader on the next content line.
   */
  private inlineValue(col: number, parentIndent: number): unknown {
    const c = this.code(col);
    let value: unknown;
    if (c === 34 || c === 39) {
      value = this.quoted(col);
      if (!this.restIsEmpty(this.scanEnd)) throw BAIL;
    } else if (c === 91 || c === 123) {
      value = this.flow(col);
      if (!this.restIsEmpty(this.scanEnd)) throw BAIL;
    } else if (c === 124) {
      return this.literalBlock(col, parentIndent);
    } else if (c === 63 || !this.plainStartsAt(col)) {
      throw BAIL; // folded scalars, anchors, aliases, tags, directives, reserved and complex keys, indicators
    } else {
      value = this.plain(col);
    }
    this.advance();
    // A following line indented deeper would continue a multi-line scalar.
    if (!this.atEnd && this.indent > parentIndent) throw BAIL;
    return value;
  }

  /** A plain scalar in block context: up to ` #` or the end of the line. */
  private plain(col: number): unknown {
    // On the text itself (absolute offsets): this loop sees every character of every value.
    const t = this.text;
    const start = this.pos + col;
    const lineEnd = this.lineEnd;
    let e = lineEnd;
    for (let i = start; i < lineEnd; i++) {
      const ch = t.charCodeAt(i);
      if (ch === 35 && t.charCodeAt(i - 1) === 32) {
        e = i;
        break;
      }
      if (ch === 58 && (i + 1 >= lineEnd || t.charCodeAt(i + 1) === 32)) throw BAIL; // `a: b: c`
    }
    while (e > start && t.charCodeAt(e - 1) === 32) e--;
    this.scanEnd = e - this.pos;
    return resolvePlain(t.slice(start, e));
  }

  /** A single- or double-quoted scalar that closes on this line. */
  private quoted(col: number): string {
    const q = this.code(col);
    let out = '';
    let i = col + 1;
    let from = i;
    for (;;) {
      if (i >= this.length) throw BAIL; // multi-line quoted scalar
      const ch = this.code(i);
      if (q === 39 && ch === 39) {
        if (this.code(i + 1) === 39) {
          out += this.slice(from, i + 1);
          i += 2;
          from = i;
          continue;
        }
        this.scanEnd = i + 1;
        return out + this.slice(from, i);
      }
      if (q === 34 && ch === 34) {
        this.scanEnd = i + 1;
        return out + this.slice(from, i);
      }
      if (q === 34 && ch === 92) {
        out += this.slice(from, i);
        const esc = String.fromCharCode(this.code(i + 1));
        const simple = ESCAPES[esc];
        if (simple !== undefined) {
          out += simple;
          i += 2;
        } else if (esc === 'x' || esc === 'u' || esc === 'U') {
          const n = esc === 'x' ? 2 : esc === 'u' ? 4 : 8;
          const hex = this.slice(i + 2, i + 2 + n);
          if (hex.length !== n || !/^[0-9a-fA-F]+$/.test(hex)) throw BAIL;
          const cp = parseInt(hex, 16);
          // Beyond Unicode, js-yaml builds its own (odd) surrogates: leave those to it.
          if (cp > 0x10ffff) throw BAIL;
          out += String.fromCodePoint(cp);
          i += 2 + n;
        } else {
          throw BAIL;
        }
        from = i;
        continue;
      }
      i++;
    }
  }

  /** A flow collection that closes on this line (`[a, "b"]`, `{k: v}`, nested allowed). */
  private flow(col: number): unknown {
    this.enter();
    const open = this.code(col);
    const close = open === 91 ? 93 : 125;
    const seq: unknown[] = [];
    const map: Record<string, unknown> = {};
    let i = this.skipSpaces(col + 1);
    if (this.code(i) === close) {
      this.depth--;
      this.scanEnd = i + 1;
      return open === 91 ? seq : map;
    }
    for (;;) {
      let key: string | undefined;
      if (open === 123) {
        const k = this.flowScalar(i, close, true);
        const ke = this.scanEnd;
        if (typeof k !== 'string' || this.code(ke) !== 58) throw BAIL;
        key = k;
        if (key === '__proto__' || key === '<<' || Object.hasOwn(map, key)) throw BAIL;
        i = this.skipSpaces(ke + 1);
      }
      let value: unknown;
      const c = this.code(i);
      if (c === 91 || c === 123) value = this.flow(i);
      else if (c === 34 || c === 39) value = this.quoted(i);
      else value = this.flowScalar(i, close, false);
      i = this.scanEnd;
      if (key !== undefined) map[key] = value;
      else seq.push(value);
      i = this.skipSpaces(i);
      const d = this.code(i);
      if (d === close) {
        this.depth--;
        this.scanEnd = i + 1;
        return open === 91 ? seq : map;
      }
      if (d !== 44) throw BAIL;
      i = this.skipSpaces(i + 1);
      if (this.code(i) === close) throw BAIL; // trailing comma: leave it to js-yaml
    }
  }

  /** A plain scalar inside a flow collection (or a flow mapping key). */
  private flowScalar(col: number, close: number, isKey: boolean): unknown {
    const c = this.code(col);
    if (c === 34 || c === 39) return this.quoted(col);
    if (c < 0 || c === 32 || c === 63 || cannotStartPlain(c)) throw BAIL;
    // `-` or `:` followed by a space, a flow indicator or the end of the line is an indicator.
    if (c === 45 || c === 58) {
      const n = this.code(col + 1);
      if (n < 0 || n === 32 || isFlowIndicator(n)) throw BAIL;
    }
    let e = col;
    for (; e < this.length; e++) {
      const ch = this.code(e);
      if (isFlowIndicator(ch)) break;
      // kubectl's reader ends a plain scalar at `?` in a flow collection (kubeFlow.ts).
      if (ch === 63) throw BAIL;
      if (ch === 58) {
        const n = this.code(e + 1);
        if (n < 0 || n === 32 || isFlowIndicator(n)) {
          // Only `: ` ending a mapping key, or `:` just before this collection's end, are plain here.
          if (n === 32 || n === 44 || n === close || n < 0) break;
          throw BAIL;
        }
        if (isKey) throw BAIL; // `a:b` keys: leave the subtleties to js-yaml
      }
      if (ch === 35 && this.code(e - 1) === 32) throw BAIL;
    }
    let end = e;
    while (end > col && this.code(end - 1) === 32) end--;
    if (end === col) throw BAIL;
    const s = this.slice(col, end);
    this.scanEnd = e;
    if (isKey) {
      if (resolvePlain(s) !== s) throw BAIL; // keys that resolve to numbers/booleans/null
      return s;
    }
    return resolvePlain(s);
  }

  /** `|`, `|-` or `|+` (no explicit indentation): the lines indented deeper than the parent. */
  private literalBlock(col: number, parentIndent: number): string {
    let chomp: 'clip' | 'strip' | 'keep' = 'clip';
    let i = col + 1;
    const h = this.code(i);
    if (h === 45) {
      chomp = 'strip';
      i++;
    } else if (h === 43) {
      chomp = 'keep';
      i++;
    }
    // The header ends at a space or the line's end (`|#c` is an error, `|2` an indentation).
    const after = this.code(i);
    if (after >= 0 && after !== 32) throw BAIL;
    if (!this.restIsEmpty(i)) throw BAIL;
    // Collect raw lines after the header line until a line indented at or below the parent.
    const t = this.text;
    let p = this.next;
    const lines: string[] = [];
    let blockIndent = -1;
    let leadingSpaces = 0; // the most spaces on a blank line before the first content line
    let end = p;
    while (p < t.length) {
      let nl = t.indexOf('\n', p);
      if (nl < 0) nl = t.length;
      let e = nl;
      if (e > p && t.charCodeAt(e - 1) === 13) e--;
      let k = p;
      while (k < e && t.charCodeAt(k) === 32) k++;
      const blank = k >= e;
      if (!blank) {
        if (blockIndent < 0) {
          if (k - p <= parentIndent) break;
          blockIndent = k - p;
          // js-yaml takes the indentation from leading blank lines too; a scalar at column 0 is an error.
          if (leadingSpaces > blockIndent || blockIndent < 1) throw BAIL;
        } else if (k - p < blockIndent) break;
      } else if (blockIndent < 0 && e - p > leadingSpaces) {
        leadingSpaces = e - p;
      }
      // A blank line keeps the spaces beyond the block's indentation.
      lines.push(blank ? (blockIndent >= 0 && e - p > blockIndent ? t.slice(p + blockIndent, e) : '') : t.slice(p + blockIndent, e));
      p = nl + 1;
      end = p;
    }
    if (blockIndent < 0) throw BAIL; // no content line: leave the empty scalar to js-yaml
    let body: string;
    // Chomping: strip drops every final newline, clip keeps one, keep keeps all.
    let lastContent = lines.length;
    while (lastContent > 0 && lines[lastContent - 1] === '') lastContent--;
    const content = lines.slice(0, lastContent).join('\n');
    const trailingNewlines = lines.length - lastContent;
    if (chomp === 'strip') body = content;
    else if (chomp === 'clip') body = `${content}\n`;
    else body = content + '\n'.repeat(1 + trailingNewlines);
    this.seekContent(end);
    if (!this.atEnd && this.indent > parentIndent) throw BAIL;
    return body;
  }

  /**
   * Whether a `key: value` entry starts at `col`; when it does, its key and value column are
   * in keyText and keyValueCol.
   */
  private keyAt(col: number): boolean {
    const c = this.code(col);
    if (c === 34 || c === 39) {
      let s: string;
      try {
        s = this.quoted(col);
      } catch {
        return false;
      }
      const e = this.skipSpaces(this.scanEnd);
      if (this.code(e) !== 58 || !this.spaceOrEndAfter(e)) return false;
      this.keyText = s;
      this.keyValueCol = e + 1;
      return true;
    }
    if (c === 63 || !this.plainStartsAt(col)) return false;
    // On the text itself (absolute offsets), as in plain(): asked for every line.
    const t = this.text;
    const start = this.pos + col;
    const lineEnd = this.lineEnd;
    for (let i = start; i < lineEnd; i++) {
      const ch = t.charCodeAt(i);
      if (ch === 35 && t.charCodeAt(i - 1) === 32) return false;
      if (ch === 58 && (i + 1 >= lineEnd || t.charCodeAt(i + 1) === 32)) {
        let e = i;
        while (e > start && t.charCodeAt(e - 1) === 32) e--;
        const key = t.slice(start, e);
        if (key === '' || resolvePlain(key) !== key) throw BAIL; // keys that resolve to numbers/booleans/null
        this.keyText = key;
        this.keyValueCol = i + 1 - this.pos;
        return true;
      }
    }
    return false;
  }

  /** The block mapping whose first key keyAt has just found at column `indent`. */
  private mapping(indent: number): Record<string, unknown> {
    this.enter();
    const obj: Record<string, unknown> = {};
    for (;;) {
      // Taken before the value is read: reading it finds other keys.
      const key = this.keyText;
      const valueCol = this.keyValueCol;
      // A repeated key, or one Object.prototype has (`toString`): values are never undefined,
      // so any value seen here means the full parser should decide. A plain lookup costs less
      // than hasOwnProperty on a key that is not yet interned, and this runs for every key.
      if (key === '<<' || key === '__proto__' || obj[key] !== undefined) throw BAIL;
      const v = this.skipSpaces(valueCol);
      let value: unknown;
      if (v >= this.length || this.code(v) === 35) {
        this.advance();
        if (!this.atEnd && this.indent > indent) value = this.node(this.indent, indent);
        else if (!this.atEnd && this.indent === indent && this.isEntry(indent)) value = this.sequence(indent);
        else value = null;
      } else {
        value = this.inlineValue(v, indent);
      }
      obj[key] = value;
      if (this.atEnd || this.indent < indent) {
        this.depth--;
        return obj;
      }
      if (this.indent > indent || this.isEntry(this.indent)) throw BAIL;
      if (!this.keyAt(indent)) throw BAIL;
    }
  }

  private sequence(indent: number): unknown[] {
    this.enter();
    const arr: unknown[] = [];
    for (;;) {
      const c = this.skipSpaces(indent + 1);
      if (c >= this.length || this.code(c) === 35) {
        this.advance();
        // After an empty entry js-yaml takes a `- ` line even when it is less indented.
        if (!this.atEnd && this.indent < indent && this.isEntry(this.indent)) throw BAIL;
        arr.push(!this.atEnd && this.indent > indent ? this.node(this.indent, indent) : null);
      } else {
        arr.push(this.node(c, indent));
      }
      if (this.atEnd || this.indent < indent) break;
      if (this.indent > indent) throw BAIL;
      // At the same indentation and no `- `: the next key of the mapping that holds this sequence.
      if (!this.isEntry(indent)) break;
    }
    this.depth--;
    // push() leaves room for 16 more elements, and most YAML lists hold one or two: an
    // exact-size copy keeps a large file's documents a fifth smaller (and the collector's work with them).
    return arr.length < 16 ? arr.slice() : arr;
  }

  document(): unknown {
    if (this.atEnd) throw BAIL; // empty documents: let js-yaml decide
    const value = this.node(this.indent, this.indent - 1);
    if (!this.atEnd) throw BAIL;
    return value;
  }
}

/**
 * Parses one YAML document (no `---` markers inside) if it is in the fast subset; returns
 * NOT_HANDLED otherwise. Never throws.
 */
export function parseFastYaml(text: string): unknown {
  if (hasCharsOutsideFastSubset(text)) return NOT_HANDLED;
  try {
    return new Reader(text).document();
  } catch {
    return NOT_HANDLED;
  }
}
