// Whether Go's regexp.Compile accepts a pattern (RE2 syntax, Go's Perl flags), and if not,
// Go's error text ("error parsing regexp: missing closing ]: `[`"). JavaScript's RegExp
// differs from RE2 both ways (lookarounds and backreferences are JS-only; \z, \Q…\E, (?U)
// and POSIX classes are RE2-only), so this follows Go's regexp/syntax parser step by step,
// keeping just what decides acceptance and the error: the operator stack, repeat nesting
// and escapes.

const CODES = {
  invalidCharClass: 'invalid character class',
  invalidCharRange: 'invalid character class range',
  invalidEscape: 'invalid escape sequence',
  invalidNamedCapture: 'invalid named capture',
  invalidPerlOp: 'invalid or unsupported Perl syntax',
  invalidRepeatOp: 'invalid nested repetition operator',
  invalidRepeatSize: 'invalid repeat count',
  missingBracket: 'missing closing ]',
  missingParen: 'missing closing )',
  missingRepeatArgument: 'missing argument to repetition operator',
  trailingBackslash: 'trailing backslash at end of expression',
  unexpectedParen: 'unexpected )',
  nestingDepth: 'expression nests too deeply',
} as const;

class SyntaxError_ extends Error {
  constructor(code: keyof typeof CODES, expr: string) {
    super(`error parsing regexp: ${CODES[code]}: \`${expr}\``);
  }
}

interface Node {
  kind: 'item' | 'lparen' | 'bar';
  subs: Node[];
  repeat?: { min: number; max: number };
}

const POSIX = new Set(['alnum', 'alpha', 'ascii', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'word', 'xdigit']);

const isAlnum = (c: string): boolean => /^[0-9A-Za-z]$/.test(c);
const unhex = (c: string): number => (/^[0-9a-fA-F]$/.test(c) ? parseInt(c, 16) : -1);

const unicodeNames = new Map<string, boolean>();

/** Go's unicodeTable: Any, ASCII, Assigned, LC, a general category or a script (names looked up loosely, as Go 1.25 does). */
function unicodeName(name: string): boolean {
  let known = unicodeNames.get(name);
  if (known !== undefined) return known;
  const loose = name.replace(/[ _-]/g, '').toLowerCase();
  known = ['any', 'ascii', 'assigned', 'lc', 'cn'].includes(loose) || jsAccepts(name) || jsAccepts(titleWords(name));
  if (unicodeNames.size < 1024) unicodeNames.set(name, known);
  return known;
}

function titleWords(name: string): string {
  return name
    .split(/[ _-]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase())
    .join('_');
}

function jsAccepts(name: string): boolean {
  if (!/^[A-Za-z_]+$/.test(name)) return false;
  for (const form of [`\\p{${name}}`, `\\p{Script=${name}}`]) {
    try {
      new RegExp(form, 'u');
      // JS also knows binary properties (Alphabetic, …), which Go does not.
      if (form === `\\p{${name}}` && !isGeneralCategory(name)) continue;
      return true;
    } catch {
      // not known
    }
  }
  return false;
}

function isGeneralCategory(name: string): boolean {
  try {
    new RegExp(`\\p{General_Category=${name}}`, 'u');
    return true;
  } catch {
    return false;
  }
}

/** Go's nesting-depth limit. */
const MAX_HEIGHT = 1000;

function repeatIsValid(re: Node, n: number): boolean {
  if (re.repeat) {
    let m = re.repeat.max;
    if (m === 0) return true;
    if (m < 0) m = re.repeat.min;
    if (m > n) return false;
    if (m > 0) n = Math.floor(n / m);
  }
  for (const sub of re.subs) if (!repeatIsValid(sub, n)) return false;
  return true;
}

/** undefined when Go's regexp.Compile accepts `expr`, else its error text. */
export function goRegexpError(expr: string): string | undefined {
  try {
    parse(expr);
    return undefined;
  } catch (e) {
    if (e instanceof SyntaxError_) return e.message;
    throw e;
  }
}

function parse(whole: string): void {
  const stack: Node[] = [];
  let i = 0;
  let lastRepeat = -1; // start of the previous token when it was a repetition
  const s = whole;

  const top = (): Node | undefined => stack[stack.length - 1];
  const pushItem = (subs: Node[] = []) => stack.push({ kind: 'item', subs });
  const charAt = (k: number): string => {
    const c = s.codePointAt(k);
    return c === undefined ? '' : String.fromCodePoint(c);
  };

  /** Collapses everything above the nearest `(` into one item. */
  const collapse = (): void => {
    let k = stack.length;
    while (k > 0 && stack[k - 1]!.kind !== 'lparen') k--;
    const subs = stack.splice(k).filter((x) => x.kind === 'item');
    stack.push({ kind: 'item', subs });
  };

  const depth = (): number => stack.filter((x) => x.kind === 'lparen').length;

  const repeat = (min: number, max: number, isBrace: boolean, before: number, afterIn: number): number => {
    let after = afterIn;
    if (s[after] === '?') after++;
    if (lastRepeat >= 0) throw new SyntaxError_('invalidRepeatOp', s.slice(lastRepeat, after));
    const t = top();
    if (t?.kind !== 'item') throw new SyntaxError_('missingRepeatArgument', s.slice(before, after));
    const node: Node = { kind: 'item', subs: [t], repeat: isBrace ? { min, max } : undefined };
    stack[stack.length - 1] = node;
    if (isBrace && (min >= 2 || max >= 2) && !repeatIsValid(node, 1000)) throw new SyntaxError_('invalidRepeatSize', s.slice(before, after));
    return after;
  };

  /** parseEscape: the index after the escape. */
  const parseEscape = (k: number): number => {
    const start = k;
    k++;
    if (k >= s.length) throw new SyntaxError_('trailingBackslash', '');
    const c = charAt(k);
    k += c.length;
    const bad = (): never => {
      throw new SyntaxError_('invalidEscape', s.slice(start, k));
    };
    if (c >= '1' && c <= '7') {
      if (!(s[k] !== undefined && s[k]! >= '0' && s[k]! <= '7')) return bad();
    }
    if (c >= '0' && c <= '7') {
      for (let n = 1; n < 3; n++) {
        if (!(s[k] !== undefined && s[k]! >= '0' && s[k]! <= '7')) break;
        k++;
      }
      return k;
    }
    if (c === 'x') {
      if (k >= s.length) return bad();
      const c2 = charAt(k);
      k += c2.length;
      if (c2 === '{') {
        let nhex = 0;
        let r = 0;
        for (;;) {
          if (k >= s.length) return bad();
          const d = charAt(k);
          k += d.length;
          if (d === '}') break;
          const v = unhex(d);
          if (v < 0) return bad();
          r = r * 16 + v;
          if (r > 0x10ffff) return bad();
          nhex++;
        }
        if (nhex === 0) return bad();
        return k;
      }
      const x = unhex(c2);
      const c3 = k < s.length ? charAt(k) : '';
      k += c3.length;
      const y = c3 === '' ? -1 : unhex(c3);
      if (x < 0 || y < 0) return bad();
      return k;
    }
    if ('afnrtv'.includes(c) && c !== '') return k;
    if ((c.codePointAt(0) ?? 0) < 0x80 && !isAlnum(c)) return k;
    return bad();
  };

  /** \p{…} or \pX: the index after it, or -1 when not a Unicode class. */
  const parseUnicodeClass = (k: number): number => {
    if (s[k] !== '\\' || (s[k + 1] !== 'p' && s[k + 1] !== 'P')) return -1;
    let t = k + 2;
    const c = charAt(t);
    t += c.length;
    let seq: string;
    let name: string;
    if (c !== '{') {
      seq = s.slice(k, t);
      name = seq.slice(2);
    } else {
      const end = s.indexOf('}', k);
      if (end < 0) throw new SyntaxError_('invalidCharRange', s.slice(k));
      seq = s.slice(k, end + 1);
      t = end + 1;
      name = s.slice(k + 3, end);
    }
    if (name.startsWith('^')) name = name.slice(1);
    if (!unicodeName(name)) throw new SyntaxError_('invalidCharRange', seq);
    return t;
  };

  const isPerlClass = (k: number): boolean => s[k] === '\\' && 'dDsSwW'.includes(s[k + 1] ?? '_') && s[k + 1] !== undefined;

  /** parseClass: the index after the closing ]. */
  const parseClass = (start: number): number => {
    let t = start + 1;
    if (s[t] === '^') t++;
    let first = true;
    const classChar = (k: number): { r: number; next: number } => {
      if (k >= s.length) throw new SyntaxError_('missingBracket', s.slice(start));
      if (s[k] === '\\') {
        const next = parseEscape(k);
        return { r: escapeValue(s.slice(k, next)), next };
      }
      const ch = charAt(k);
      return { r: ch.codePointAt(0) as number, next: k + ch.length };
    };
    while (t >= s.length || s[t] !== ']' || first) {
      first = false;
      if (s.length - t > 2 && s[t] === '[' && s[t + 1] === ':') {
        const end = s.indexOf(':]', t + 2);
        if (end >= 0) {
          const name = s.slice(t, end + 2);
          const inner = name.slice(2, -2).replace(/^\^/, '');
          if (!POSIX.has(inner)) throw new SyntaxError_('invalidCharRange', name);
          t = end + 2;
          continue;
        }
      }
      const u = parseUnicodeClass(t);
      if (u >= 0) {
        t = u;
        continue;
      }
      if (isPerlClass(t)) {
        t += 2;
        continue;
      }
      const rngStart = t;
      const lo = classChar(t);
      t = lo.next;
      if (s.length - t >= 2 && s[t] === '-' && s[t + 1] !== ']') {
        t++;
        const hi = classChar(t);
        t = hi.next;
        if (hi.r < lo.r) throw new SyntaxError_('invalidCharRange', s.slice(rngStart, t));
      }
    }
    return t + 1;
  };

  while (i < s.length) {
    let repeatStart = -1;
    const c = s[i]!;
    switch (c) {
      case '(': {
        if (s[i + 1] === '?') {
          i = parsePerlFlags(i);
          break;
        }
        stack.push({ kind: 'lparen', subs: [] });
        if (depth() > MAX_HEIGHT) throw new SyntaxError_('nestingDepth', s);
        i++;
        break;
      }
      case '|': {
        // concat what is above the last ( or |, then leave a bar on top
        let k = stack.length;
        while (k > 0 && stack[k - 1]!.kind === 'item') k--;
        const subs = stack.splice(k);
        stack.push({ kind: 'item', subs }, { kind: 'bar', subs: [] });
        i++;
        break;
      }
      case ')': {
        if (!stack.some((x) => x.kind === 'lparen')) throw new SyntaxError_('unexpectedParen', s);
        collapse();
        const inner = stack.pop() as Node;
        stack.pop(); // the (
        pushItem([inner]);
        i++;
        break;
      }
      case '^':
      case '$':
      case '.':
        pushItem();
        i++;
        break;
      case '[':
        i = parseClass(i);
        pushItem();
        break;
      case '*':
      case '+':
      case '?': {
        repeatStart = i;
        i = repeat(0, 0, false, i, i + 1);
        break;
      }
      case '{': {
        const r = parseRepeat(s, i);
        if (!r) {
          pushItem();
          i++;
          break;
        }
        if (r.min < 0 || r.min > 1000 || r.max > 1000 || (r.max >= 0 && r.min > r.max)) throw new SyntaxError_('invalidRepeatSize', s.slice(i, r.after));
        repeatStart = i;
        i = repeat(r.min, r.max, true, i, r.after);
        break;
      }
      case '\\': {
        const n2 = s[i + 1];
        if (n2 !== undefined && 'AbBz'.includes(n2)) {
          pushItem();
          i += 2;
          break;
        }
        if (n2 === 'C') throw new SyntaxError_('invalidEscape', '\\C');
        if (n2 === 'Q') {
          const end = s.indexOf('\\E', i + 2);
          i = end < 0 ? s.length : end + 2;
          pushItem();
          break;
        }
        const u = parseUnicodeClass(i);
        if (u >= 0) {
          pushItem();
          i = u;
          break;
        }
        if (isPerlClass(i)) {
          pushItem();
          i += 2;
          break;
        }
        i = parseEscape(i);
        pushItem();
        break;
      }
      default:
        pushItem();
        i += charAt(i).length;
    }
    lastRepeat = repeatStart;
  }
  if (stack.some((x) => x.kind === 'lparen')) throw new SyntaxError_('missingParen', s);

  function parsePerlFlags(start: number): number {
    const t = s.slice(start);
    const startsWithP = t.length > 4 && t[2] === 'P' && t[3] === '<';
    const startsWithName = t.length > 3 && t[2] === '<';
    if (startsWithP || startsWithName) {
      const exprStart = startsWithName ? 3 : 4;
      const end = t.indexOf('>');
      if (end < 0) throw new SyntaxError_('invalidNamedCapture', t);
      const name = t.slice(exprStart, end);
      if (!/^[\p{L}\p{Nd}_]+$/u.test(name)) throw new SyntaxError_('invalidNamedCapture', t.slice(0, end + 1));
      stack.push({ kind: 'lparen', subs: [] });
      return start + end + 1;
    }
    let k = 2;
    let sign = 1;
    let sawFlag = false;
    while (k < t.length) {
      const c = charAt(start + k);
      k += c.length;
      if (c === 'i' || c === 'm' || c === 's' || c === 'U') {
        sawFlag = true;
        continue;
      }
      if (c === '-') {
        if (sign < 0) break;
        sign = -1;
        sawFlag = false;
        continue;
      }
      if (c === ':' || c === ')') {
        if (sign < 0 && !sawFlag) break;
        if (c === ':') stack.push({ kind: 'lparen', subs: [] });
        return start + k;
      }
      break;
    }
    throw new SyntaxError_('invalidPerlOp', t.slice(0, k));
  }
}

function escapeValue(esc: string): number {
  const c = esc[1] ?? '';
  switch (c) {
    case 'a':
      return 7;
    case 'f':
      return 12;
    case 'n':
      return 10;
    case 'r':
      return 13;
    case 't':
      return 9;
    case 'v':
      return 11;
    case 'x': {
      const body = esc.startsWith('\\x{') ? esc.slice(3, -1) : esc.slice(2);
      return parseInt(body, 16);
    }
  }
  if (c >= '0' && c <= '7') return parseInt(esc.slice(1), 8);
  return esc.codePointAt(1) ?? 0;
}

/** A repeat bound: decimal digits without a leading zero (regexp/syntax's parseInt; -1 when too large). */
function parseRepeatBound(s: string, k: number): { n: number; next: number } | undefined {
  if (k >= s.length || s[k]! < '0' || s[k]! > '9') return undefined;
  if (s.length - k >= 2 && s[k] === '0' && s[k + 1]! >= '0' && s[k + 1]! <= '9') return undefined;
  let e = k;
  while (e < s.length && s[e]! >= '0' && s[e]! <= '9') e++;
  let n = 0;
  for (let j = k; j < e; j++) {
    if (n >= 1e8) {
      n = -1;
      break;
    }
    n = n * 10 + (s.charCodeAt(j) - 48);
  }
  return { n, next: e };
}

/** {min} {min,} {min,max}: the bounds and the index after }, or undefined when not a repeat. */
function parseRepeat(s: string, k: number): { min: number; max: number; after: number } | undefined {
  let t = k + 1;
  const a = parseRepeatBound(s, t);
  if (!a) return undefined;
  let min = a.n;
  let max: number;
  t = a.next;
  if (t >= s.length) return undefined;
  if (s[t] !== ',') {
    max = min;
  } else {
    t++;
    if (t >= s.length) return undefined;
    if (s[t] === '}') {
      max = -1;
    } else {
      const b = parseRepeatBound(s, t);
      if (!b) return undefined;
      max = b.n;
      t = b.next;
      if (max < 0) min = -1;
    }
  }
  if (t >= s.length || s[t] !== '}') return undefined;
  return { min, max, after: t + 1 };
}
