// The syntax errors of Go's encoding/json (its scanner's texts), for messages that quote them.

/**
 * encoding/json's quoteChar: the byte the scanner stopped at (for a non-ASCII character, the
 * first byte of its UTF-8 form), as strconv.Quote writes string(rune(b)).
 */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const code = c.codePointAt(0) as number;
  // A high surrogate stands for a character beyond U+FFFF (its UTF-8 form starts 0xF0–0xF4).
  const cp = code >= 0xd800 && code <= 0xdbff ? 0x10000 + ((code - 0xd800) << 10) : code;
  const b = cp < 0x80 ? cp : cp < 0x800 ? 0xc0 | (cp >> 6) : cp < 0x10000 ? 0xe0 | (cp >> 12) : 0xf0 | (cp >> 18);
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 92: '\\\\' };
  if (named[b] !== undefined) return `'${named[b]}'`;
  if (b < 0x20 || b === 0x7f) return `'\\x${b.toString(16).padStart(2, '0')}'`;
  // Latin-1: U+0080–U+00A0 and U+00AD are not printable to strconv.
  if ((b >= 0x80 && b <= 0xa0) || b === 0xad) return `'\\u${b.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(b)}'`;
}

class JSONError extends Error {}

/** undefined when `src` is valid JSON to Go, else encoding/json's syntax error text. */
export function goJSONSyntaxError(src: string): string | undefined {
  let i = 0;
  const ws = () => {
    while (i < src.length && ' \t\r\n'.includes(src[i] as string)) i++;
  };
  const fail = (c: string | undefined, context: string): never => {
    if (c === undefined) throw new JSONError('unexpected end of JSON input');
    throw new JSONError(`invalid character ${quoteChar(c)} ${context}`);
  };
  const literal = (word: string) => {
    for (let k = 1; k < word.length; k++) {
      const c = src[i + k];
      if (c !== word[k]) fail(c, `in literal ${word} (expecting ${quoteChar(word[k] as string)})`);
    }
    i += word.length;
  };
  const string = () => {
    i++;
    for (;;) {
      const c = src[i];
      if (c === undefined) return fail(undefined, '');
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const e = src[i + 1];
        if (e === undefined) return fail(undefined, '');
        if (e === 'u') {
          for (let k = 2; k < 6; k++) {
            const h = src[i + k];
            if (h === undefined) return fail(undefined, '');
            if (!/^[0-9a-fA-F]$/.test(h)) fail(h, 'in \\u hexadecimal character escape');
          }
          i += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(e)) fail(e, 'in string escape code');
        i += 2;
        continue;
      }
      if ((c.codePointAt(0) as number) < 0x20) fail(c, 'in string literal');
      i++;
    }
  };
  const number = () => {
    if (src[i] === '-') {
      i++;
      const c = src[i];
      if (c === undefined || !/[0-9]/.test(c)) fail(c, 'in numeric literal');
    }
    if (src[i] === '0') i++;
    else while (/[0-9]/.test(src[i] ?? '')) i++;
    if (src[i] === '.') {
      i++;
      const c = src[i];
      if (c === undefined || !/[0-9]/.test(c)) fail(c, 'after decimal point in numeric literal');
      while (/[0-9]/.test(src[i] ?? '')) i++;
    }
    if (src[i] === 'e' || src[i] === 'E') {
      i++;
      if (src[i] === '+' || src[i] === '-') i++;
      const c = src[i];
      if (c === undefined || !/[0-9]/.test(c)) fail(c, 'in exponent of numeric literal');
      while (/[0-9]/.test(src[i] ?? '')) i++;
    }
  };
  const value = (): void => {
    ws();
    const c = src[i];
    if (c === undefined) return fail(undefined, '');
    if (c === '{') {
      i++;
      ws();
      if (src[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (src[i] !== '"') fail(src[i], 'looking for beginning of object key string');
        string();
        ws();
        if (src[i] !== ':') fail(src[i], 'after object key');
        i++;
        value();
        ws();
        if (src[i] === ',') {
          i++;
          continue;
        }
        if (src[i] === '}') {
          i++;
          return;
        }
        fail(src[i], 'after object key:value pair');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (src[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (src[i] === ',') {
          i++;
          continue;
        }
        if (src[i] === ']') {
          i++;
          return;
        }
        fail(src[i], 'after array element');
      }
    }
    if (c === '"') return string();
    if (c === '-' || /[0-9]/.test(c)) return number();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    fail(c, 'looking for beginning of value');
  };
  try {
    value();
    ws();
    if (i < src.length) fail(src[i], 'after top-level value');
    return undefined;
  } catch (e) {
    if (e instanceof JSONError) return e.message;
    throw e;
  }
}
