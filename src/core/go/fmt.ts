// Just enough of Go's fmt verbs to render Istio's message templates identically:
// %s %v %d %q %t %%, with Go's formatting of strings, numbers, slices and maps.

/** unicode.IsPrint: letters, marks, numbers, punctuation and symbols (and the ASCII space, handled apart). */
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/**
 * Go's strconv.Quote: escapes quotes, backslashes and what unicode.IsPrint calls unprintable
 * (controls, format characters such as U+200B and U+FEFF, spaces other than ASCII's, line and
 * paragraph separators). U+FFFD is printable and written as is (strconv.Quote("\uFFFD") is
 * `"�"`); a lone surrogate, which Go's decoders turn into U+FFFD (see go/strings.ts), is
 * written as that character too.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\u0007':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c === 0x20 || GO_PRINTABLE.test(ch)) out += ch;
    else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else out += c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return out + '"';
}

/** Go's %v. */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[${entries.map(([k, val]) => `${k}:${goValue(val)}`).join(' ')}]`;
  }
  return String(v);
}

/** A template cut into literal text and verbs once (templates are few, messages many). */
interface CompiledTemplate {
  literals: string[];
  verbs: string[];
}

const compiled = new Map<string, CompiledTemplate>();

function compile(template: string): CompiledTemplate {
  let c = compiled.get(template);
  if (c) return c;
  const literals: string[] = [];
  const verbs: string[] = [];
  const re = /%([-+# 0]*\d*(?:\.\d+)?)([svdqtx%])/g;
  let last = 0;
  let m: RegExpExecArray | null;
  let lit = '';
  while ((m = re.exec(template))) {
    lit += template.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[2] === '%') {
      lit += '%';
      continue;
    }
    literals.push(lit);
    verbs.push(m[2] as string);
    lit = '';
  }
  literals.push(lit + template.slice(last));
  c = { literals, verbs };
  if (compiled.size < 1024) compiled.set(template, c);
  return c;
}

export function goSprintf(template: string, args: readonly unknown[]): string {
  const { literals, verbs } = compile(template);
  if (verbs.length === 0) return literals[0] as string;
  const parts: string[] = [literals[0] as string];
  for (let i = 0; i < verbs.length; i++) {
    const verb = verbs[i] as string;
    parts.push(i < args.length ? formatVerb(verb, args[i]) : `%!${verb}(MISSING)`, literals[i + 1] as string);
  }
  // One flat string: rendered messages are kept, and a concatenation tree costs more.
  return parts.join('');
}

function formatVerb(verb: string, a: unknown): string {
  switch (verb) {
    case 'q':
      if (Array.isArray(a)) return `[${a.map((x) => goQuote(String(x))).join(' ')}]`;
      return goQuote(String(a));
    case 'd':
      return typeof a === 'number' ? String(Math.trunc(a)) : `%!d(${typeof a}=${goValue(a)})`;
    case 't':
      return String(Boolean(a));
    case 'x':
      return typeof a === 'number' ? a.toString(16) : [...String(a)].map((c) => (c.codePointAt(0) as number).toString(16)).join('');
    default:
      return goValue(a);
  }
}
