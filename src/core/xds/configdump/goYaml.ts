// sigs.k8s.io/yaml's JSONToYAML, which istioctl uses for `-o yaml`: the JSON is read the way
// go-yaml v2 reads it (numbers become int, uint or float by YAML 1.1 resolution), then written
// by go-yaml v2's encoder: mapping keys in its "natural" order, block style, empty collections
// as `{}`/`[]`, strings plain when that reads back as the same string and quoted otherwise,
// literal blocks for text with newlines, and lines folded at 80 columns where spaces allow.

import { goSortSlice } from './goSort.ts';
import { utf8Length } from '../../go/strings.ts';
import { resolveKubeScalar } from '../../document/yamlSchema.ts';

type Node = { t: 'map'; entries: [string, Node][] } | { t: 'seq'; items: Node[] } | { t: 'str'; v: string } | { t: 'raw'; v: string };

// ---- reading JSON the way go-yaml does ------------------------------------------------------

class JsonReader {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): Node {
    this.ws();
    const n = this.value(0);
    this.ws();
    if (this.i < this.s.length) throw new Error(`unexpected text at offset ${this.i}`);
    return n;
  }

  private ws(): void {
    while (this.i < this.s.length && ' \t\r\n'.includes(this.s[this.i]!)) this.i++;
  }

  private value(depth: number): Node {
    if (depth > 10000) throw new Error('document nests too deeply');
    const c = this.s[this.i];
    if (c === '{') {
      this.i++;
      const entries = new Map<string, Node>();
      this.ws();
      if (this.s[this.i] === '}') {
        this.i++;
        return { t: 'map', entries: [] };
      }
      for (;;) {
        this.ws();
        const k = this.string();
        this.ws();
        if (this.s[this.i++] !== ':') throw new Error(`expected ':' at offset ${this.i - 1}`);
        this.ws();
        entries.set(k, this.value(depth + 1));
        this.ws();
        const d = this.s[this.i++];
        if (d === '}') break;
        if (d !== ',') throw new Error(`expected ',' or '}' at offset ${this.i - 1}`);
      }
      return { t: 'map', entries: [...entries] };
    }
    if (c === '[') {
      this.i++;
      const items: Node[] = [];
      this.ws();
      if (this.s[this.i] === ']') {
        this.i++;
        return { t: 'seq', items };
      }
      for (;;) {
        this.ws();
        items.push(this.value(depth + 1));
        this.ws();
        const d = this.s[this.i++];
        if (d === ']') break;
        if (d !== ',') throw new Error(`expected ',' or ']' at offset ${this.i - 1}`);
      }
      return { t: 'seq', items };
    }
    if (c === '"') return { t: 'str', v: this.string() };
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)/.exec(this.s.slice(this.i, this.i + 400));
    if (!m) throw new Error(`unexpected character at offset ${this.i}`);
    this.i += m[0].length;
    return { t: 'raw', v: resolvePlainJson(m[0]) };
  }

  private string(): string {
    if (this.s[this.i] !== '"') throw new Error(`expected a string at offset ${this.i}`);
    let j = this.i + 1;
    while (j < this.s.length && this.s[j] !== '"') j += this.s[j] === '\\' ? 2 : 1;
    const text = this.s.slice(this.i, j + 1);
    this.i = j + 1;
    return JSON.parse(text) as string;
  }
}

/** A JSON number/literal as go-yaml v2 resolves it, then writes it back. */
function resolvePlainJson(text: string): string {
  if (text === 'true' || text === 'false' || text === 'null') return text;
  if (/^-?\d+$/.test(text)) {
    const v = BigInt(text);
    if (v >= -(2n ** 63n) && v <= 2n ** 64n - 1n) return v.toString();
  }
  return formatFloatG64(Number(text));
}

function formatFloatG64(v: number): string {
  if (Number.isNaN(v)) return '.nan';
  if (v === Infinity) return '.inf';
  if (v === -Infinity) return '-.inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mant, expText] = Math.abs(v).toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  const exp = Number(expText);
  const sign = v < 0 ? '-' : '';
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const a = Math.abs(exp);
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${a < 10 ? '0' : ''}${a}`;
  }
  const dp = exp + 1;
  if (dp <= 0) return `${sign}0.${'0'.repeat(-dp)}${digits}`;
  if (dp >= digits.length) return sign + digits + '0'.repeat(dp - digits.length);
  return `${sign}${digits.slice(0, dp)}.${digits.slice(dp)}`;
}

// ---- go-yaml v2 key order -----------------------------------------------------------------

function isLetter(c: string): boolean {
  return /\p{L}/u.test(c);
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && /\p{Nd}/u.test(c);
}

/** The code points of a string (one array element per rune). */
function runes(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i)!;
    out.push(c);
    if (c > 0xffff) i++;
  }
  return out;
}

function isLetterCp(c: number): boolean {
  if (c < 0x80) return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  return isLetter(String.fromCodePoint(c));
}

function isDigitCp(c: number | undefined): boolean {
  if (c === undefined) return false;
  if (c < 0x80) return c >= 0x30 && c <= 0x39;
  return isDigit(String.fromCodePoint(c));
}

/** keyList.Less for two string keys. */
export function yamlKeyLess(a: string, b: string): boolean {
  const ar = runes(a);
  const br = runes(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetterCp(ar[i]!);
    const bl = isLetterCp(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === 0x30 || br[i] === 0x30) {
      for (let j = i - 1; j >= 0 && isDigitCp(ar[j]); j--) {
        if (ar[j] !== 0x30) {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigitCp(ar[ai]); ai++) an = an * 10n + BigInt(ar[ai]! - 48);
    let bi = i;
    for (; bi < br.length && isDigitCp(br[bi]); bi++) bn = bn * 10n + BigInt(br[bi]! - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}

// ---- go-yaml v2 scalar resolution (when a string must be quoted) --------------------------

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** go-yaml's parseTimestamp (time.Parse with its four layouts). */
function isTimestamp(s: string): boolean {
  const m =
    /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([Tt])(\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?(?:Z|[+-]\d{2}:\d{2})| (\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?)?$/.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const dim = month === 2 && leap ? 29 : DAYS[month - 1]!;
  if (day < 1 || day > dim) return false;
  const h = m[5] ?? m[8];
  const mi = m[6] ?? m[9];
  const se = m[7] ?? m[10];
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(se) > 59)) return false;
  return true;
}

/**
 * Whether go-yaml would read `s` written plain back as something other than this string: the
 * resolution kubectl's reader uses (document/yamlSchema.ts: nulls, booleans, numbers), plus the
 * two tags it hands back as text when decoding but that still make the encoder quote (merge
 * keys and timestamps).
 */
function resolvesToNonString(s: string): boolean {
  if (s === '<<' || resolveKubeScalar(s) !== s) return true;
  const c = s.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 43 || c === 45 ? isTimestamp(s) : false;
}

function isBase60Float(s: string): boolean {
  return /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/.test(s);
}

// ---- the emitter ----------------------------------------------------------------------------

enum Style {
  Plain,
  Single,
  Double,
  Literal,
}

interface Analysis {
  multiline: boolean;
  flowPlain: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

function isPrintable(cp: number): boolean {
  return cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);
}

function isBreak(c: string | undefined): boolean {
  return c === '\r' || c === '\n' || c === '\u0085' || c === '\u2028' || c === '\u2029';
}

function isBlankZ(c: string | undefined): boolean {
  return c === undefined || c === ' ' || c === '\t' || isBreak(c) || c === '\0';
}

/** Text that needs no scan: no spaces, breaks, indicators or special characters. */
const PLAIN_SAFE = /^[A-Za-z0-9][A-Za-z0-9_./|+=-]*$/;

function analyze(value: string): Analysis {
  if (PLAIN_SAFE.test(value)) return { multiline: false, flowPlain: true, blockPlain: true, singleQuoted: true, block: true };
  if (value.length === 0) return { multiline: false, flowPlain: false, blockPlain: true, singleQuoted: true, block: false };
  const ch = [...value];
  let blockIndicators = false;
  let flowIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWs = true;
  let previousSpace = false;
  let previousBreak = false;
  if (value.startsWith('---') || value.startsWith('...')) {
    blockIndicators = true;
    flowIndicators = true;
  }
  for (let i = 0; i < ch.length; i++) {
    const c = ch[i]!;
    const next = ch[i + 1];
    const followedByWs = next === undefined || next === ' ' || next === '\t';
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) {
        flowIndicators = true;
        blockIndicators = true;
      } else if (c === '?' || c === ':') {
        flowIndicators = true;
        if (followedByWs) blockIndicators = true;
      } else if (c === '-' && followedByWs) {
        flowIndicators = true;
        blockIndicators = true;
      }
    } else if (',?[]{}'.includes(c)) {
      flowIndicators = true;
    } else if (c === ':') {
      flowIndicators = true;
      if (followedByWs) blockIndicators = true;
    } else if (c === '#' && precededByWs) {
      flowIndicators = true;
      blockIndicators = true;
    }
    if (!isPrintable(c.codePointAt(0)!)) special = true;
    if (c === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === ch.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === ch.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWs = isBlankZ(c);
  }
  const a: Analysis = { multiline: lineBreaks, flowPlain: true, blockPlain: true, singleQuoted: true, block: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) {
    a.flowPlain = false;
    a.blockPlain = false;
  }
  if (trailingSpace) a.block = false;
  if (breakSpace) {
    a.flowPlain = false;
    a.blockPlain = false;
    a.singleQuoted = false;
  }
  if (spaceBreak || special) {
    a.flowPlain = false;
    a.blockPlain = false;
    a.singleQuoted = false;
    a.block = false;
  }
  if (lineBreaks) {
    a.flowPlain = false;
    a.blockPlain = false;
  }
  if (flowIndicators) a.flowPlain = false;
  if (blockIndicators) a.blockPlain = false;
  return a;
}

class Emitter {
  out = '';
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  private indention = true;
  private flowLevel = 0;
  private rootCtx = false;
  private mappingCtx = false;
  private simpleKeyCtx = false;
  private readonly bestIndent = 2;
  private readonly bestWidth = 80;

  private put(s: string): void {
    this.out += s;
    this.column++;
  }

  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? this.bestIndent : 0;
    else if (!indentless) this.indent += this.bestIndent;
  }

  private popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(ind: string, needWs: boolean, isWs: boolean, isIndention: boolean): void {
    if (needWs && !this.whitespace) this.put(' ');
    for (const c of ind) this.put(c);
    this.whitespace = isWs;
    this.indention = this.indention && isIndention;
  }

  node(n: Node, root: boolean, _sequence: boolean, mapping: boolean, simpleKey: boolean): void {
    this.rootCtx = root;
    this.mappingCtx = mapping;
    this.simpleKeyCtx = simpleKey;
    if (n.t === 'map') {
      if (this.flowLevel > 0 || n.entries.length === 0) this.flowCollection('{', '}');
      else this.blockMapping(n);
    } else if (n.t === 'seq') {
      if (this.flowLevel > 0 || n.items.length === 0) this.flowCollection('[', ']');
      else this.blockSequence(n);
    } else if (n.t === 'raw') {
      this.scalar(n.v, Style.Plain);
    } else {
      const s = n.v;
      const canPlain = !resolvesToNonString(s) && !isBase60Float(s);
      this.scalar(s, s.includes('\n') ? Style.Literal : canPlain ? Style.Plain : Style.Double);
    }
  }

  /** An empty mapping or sequence (the only flow collections JSONToYAML makes). */
  private flowCollection(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.increaseIndent(true, false);
    this.flowLevel++;
    this.flowLevel--;
    this.popIndent();
    this.writeIndicator(close, false, false, false);
  }

  private blockSequence(n: { items: Node[] }): void {
    this.increaseIndent(false, this.mappingCtx && !this.indention);
    for (const item of n.items) {
      this.writeIndent();
      this.writeIndicator('-', true, false, true);
      this.node(item, false, true, false, false);
    }
    this.popIndent();
  }

  private blockMapping(n: { entries: [string, Node][] }): void {
    this.increaseIndent(false, false);
    for (const [k, v] of n.entries) {
      this.writeIndent();
      const key: Node = { t: 'str', v: k };
      const a = analyze(k);
      const simple = !a.multiline && utf8Length(k) <= 128;
      if (simple) {
        this.node(key, false, false, true, true);
        this.writeIndicator(':', false, false, false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.node(key, false, false, true, false);
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.node(v, false, false, true, false);
    }
    this.popIndent();
  }

  private scalar(value: string, requested: Style): void {
    const a = analyze(value);
    let style = requested;
    if (this.simpleKeyCtx && a.multiline) style = Style.Double;
    if (style === Style.Plain) {
      if ((this.flowLevel > 0 && !a.flowPlain) || (this.flowLevel === 0 && !a.blockPlain)) style = Style.Single;
      if (value.length === 0 && (this.flowLevel > 0 || this.simpleKeyCtx)) style = Style.Single;
    }
    if (style === Style.Single && !a.singleQuoted) style = Style.Double;
    if (style === Style.Literal && (!a.block || this.flowLevel > 0 || this.simpleKeyCtx)) style = Style.Double;
    this.increaseIndent(true, false);
    const allowBreaks = !this.simpleKeyCtx;
    switch (style) {
      case Style.Plain:
        this.plain(value, allowBreaks);
        break;
      case Style.Single:
        this.singleQuoted(value, allowBreaks);
        break;
      case Style.Double:
        this.doubleQuoted(value, allowBreaks);
        break;
      case Style.Literal:
        this.literal(value);
        break;
    }
    this.popIndent();
  }

  private writeBreakChar(c: string): void {
    if (c === '\n') this.putBreak();
    else {
      this.out += c;
      this.column = 0;
    }
  }

  private plain(value: string, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    if (PLAIN_SAFE.test(value)) {
      // Nothing to fold or break: the text goes out as it is.
      this.out += value;
      this.column += value.length;
      this.whitespace = false;
      this.indention = false;
      return;
    }
    const ch = [...value];
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < ch.length; i++) {
      const c = ch[i]!;
      if (c === ' ') {
        if (allowBreaks && !spaces && this.column > this.bestWidth && ch[i + 1] !== ' ') this.writeIndent();
        else this.put(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === '\n') this.putBreak();
        this.writeBreakChar(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private singleQuoted(value: string, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    const ch = [...value];
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < ch.length; i++) {
      const c = ch[i]!;
      if (c === ' ') {
        if (allowBreaks && !spaces && this.column > this.bestWidth && i > 0 && i < ch.length - 1 && ch[i + 1] !== ' ') this.writeIndent();
        else this.put(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === '\n') this.putBreak();
        this.writeBreakChar(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === "'") this.put("'");
        this.put(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private doubleQuoted(value: string, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    const ch = [...value];
    const bom = value.charCodeAt(0) === 0xfeff;
    let spaces = false;
    for (let i = 0; i < ch.length; i++) {
      const c = ch[i]!;
      const cp = c.codePointAt(0)!;
      if (!isPrintable(cp) || bom || isBreak(c) || c === '"' || c === '\\') {
        this.put('\\');
        const short: Record<number, string> = {
          0: '0',
          7: 'a',
          8: 'b',
          9: 't',
          10: 'n',
          11: 'v',
          12: 'f',
          13: 'r',
          27: 'e',
          0x22: '"',
          0x5c: '\\',
          0x85: 'N',
          0xa0: '_',
          0x2028: 'L',
          0x2029: 'P',
        };
        const s = short[cp];
        if (s !== undefined) this.put(s);
        else {
          const [letter, width] = cp <= 0xff ? ['x', 2] : cp <= 0xffff ? ['u', 4] : ['U', 8];
          this.put(letter as string);
          for (const d of cp
            .toString(16)
            .toUpperCase()
            .padStart(width as number, '0'))
            this.put(d);
        }
        spaces = false;
      } else if (c === ' ') {
        if (allowBreaks && !spaces && this.column > this.bestWidth && i > 0 && i < ch.length - 1) {
          this.writeIndent();
          if (ch[i + 1] === ' ') this.put('\\');
        } else this.put(c);
        spaces = true;
      } else {
        this.put(c);
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private literal(value: string): void {
    this.writeIndicator('|', true, false, false);
    const ch = [...value];
    if (ch[0] === ' ' || isBreak(ch[0])) this.writeIndicator(String(this.bestIndent), false, false, false);
    let chomp = '';
    if (ch.length === 0) chomp = '-';
    else if (!isBreak(ch[ch.length - 1])) chomp = '-';
    else if (ch.length === 1) chomp = '+';
    else if (isBreak(ch[ch.length - 2])) chomp = '+';
    if (chomp) this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of ch) {
      if (isBreak(c)) {
        this.writeBreakChar(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(c);
        this.indention = false;
        breaks = false;
      }
    }
  }

  document(n: Node): void {
    this.node(n, true, false, false, false);
    this.writeIndent();
    void this.rootCtx;
  }
}

function sortKeys(n: Node): Node {
  if (n.t === 'map') {
    const entries = n.entries.map(([k, v]) => [k, sortKeys(v)] as [string, Node]);
    goSortSlice(entries, (a, b) => yamlKeyLess(a[0], b[0]));
    return { t: 'map', entries };
  }
  if (n.t === 'seq') return { t: 'seq', items: n.items.map(sortKeys) };
  return n;
}

/** JSONToYAML: the YAML go-yaml v2 writes for a JSON document. Throws on JSON it cannot read. */
export function jsonToYaml(json: string): string {
  const node = sortKeys(new JsonReader(json).parse());
  const e = new Emitter();
  e.document(node);
  return e.out;
}
