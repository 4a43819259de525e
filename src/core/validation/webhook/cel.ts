// A syntax check for CEL expressions (Telemetry access-log filters). Istio parses them with
// cel-go; this recursive-descent parser follows CEL's grammar to decide acceptance. Its
// error text says what it found in our own words (cel-go's ANTLR messages are not copied).

type Tok = { t: string; v: string; at: number };

const PUNCT = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '!', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}'];

function lex(src: string): Tok[] | string {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    const strStart = /^([rRbB]{0,2})("""|'''|"|')/.exec(src.slice(i));
    if (strStart && (strStart[1] === '' || /^[rRbB]+$/.test(strStart[1] as string))) {
      const quote = strStart[2] as string;
      const raw = /[rR]/.test(strStart[1] as string);
      let k = i + strStart[0].length;
      for (;;) {
        if (k >= src.length) return `unterminated string at ${i + 1}`;
        if (!raw && src[k] === '\\') {
          k += 2;
          continue;
        }
        if (src.startsWith(quote, k)) {
          k += quote.length;
          break;
        }
        if (quote.length === 1 && src[k] === '\n') return `unterminated string at ${i + 1}`;
        k++;
      }
      out.push({ t: 'lit', v: src.slice(i, k), at: i });
      i = k;
      continue;
    }
    const num = /^(0x[0-9a-fA-F]+u?|\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+u?)/.exec(src.slice(i));
    if (num && !(c === '.' && out.length > 0 && ['id', ')', ']', '}', 'lit'].includes(out[out.length - 1]!.t))) {
      out.push({ t: 'lit', v: num[0], at: i });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (id) {
      const word = id[0];
      out.push({ t: word === 'in' ? 'in' : ['true', 'false', 'null'].includes(word) ? 'lit' : 'id', v: word, at: i });
      i += word.length;
      continue;
    }
    const p = PUNCT.find((x) => src.startsWith(x, i));
    if (!p) return `unexpected character '${c}' at ${i + 1}`;
    out.push({ t: p, v: p, at: i });
    i += p.length;
  }
  return out;
}

class CelError extends Error {}

/** undefined when `expr` is a syntactically valid CEL expression, else what is wrong. */
export function celSyntaxError(expr: string): string | undefined {
  const toks = lex(expr);
  if (typeof toks === 'string') return `Syntax error: ${toks}`;
  let k = 0;
  const peek = () => toks[k]?.t;
  const fail = (): never => {
    const tok = toks[k];
    throw new CelError(tok ? `Syntax error: unexpected '${tok.v}' at ${tok.at + 1}` : 'Syntax error: unexpected end of expression');
  };
  const expect = (t: string) => {
    if (peek() !== t) fail();
    k++;
  };
  let depth = 0;
  const expression = (): void => {
    if (++depth > 250) throw new CelError('Syntax error: expression nests too deeply');
    conditionalOr();
    if (peek() === '?') {
      k++;
      conditionalOr();
      expect(':');
      expression();
    }
    depth--;
  };
  const conditionalOr = () => {
    conditionalAnd();
    while (peek() === '||') {
      k++;
      conditionalAnd();
    }
  };
  const conditionalAnd = () => {
    relation();
    while (peek() === '&&') {
      k++;
      relation();
    }
  };
  const relation = () => {
    addition();
    while (['<', '<=', '>', '>=', '==', '!=', 'in'].includes(peek() ?? '')) {
      k++;
      addition();
    }
  };
  const addition = () => {
    multiplication();
    while (peek() === '+' || peek() === '-') {
      k++;
      multiplication();
    }
  };
  const multiplication = () => {
    unary();
    while (peek() === '*' || peek() === '/' || peek() === '%') {
      k++;
      unary();
    }
  };
  const unary = () => {
    while (peek() === '!' || peek() === '-') k++;
    member();
  };
  const args = (close: string) => {
    if (peek() === close) {
      k++;
      return;
    }
    for (;;) {
      expression();
      if (peek() === ',') {
        k++;
        if (peek() === close) break;
        continue;
      }
      break;
    }
    expect(close);
  };
  const mapInits = (fieldsOnly: boolean) => {
    if (peek() === '}') {
      k++;
      return;
    }
    for (;;) {
      if (fieldsOnly) expect('id');
      else expression();
      expect(':');
      expression();
      if (peek() === ',') {
        k++;
        if (peek() === '}') break;
        continue;
      }
      break;
    }
    expect('}');
  };
  const member = () => {
    primary();
    for (;;) {
      const t = peek();
      if (t === '.') {
        k++;
        expect('id');
        if (peek() === '(') {
          k++;
          args(')');
        }
      } else if (t === '[') {
        k++;
        expression();
        expect(']');
      } else if (t === '{' && toks[k - 1]?.t === 'id') {
        k++;
        mapInits(true);
      } else return;
    }
  };
  const primary = () => {
    const t = peek();
    if (t === '.') {
      k++;
      expect('id');
      if (peek() === '(') {
        k++;
        args(')');
      }
      return;
    }
    if (t === 'id') {
      k++;
      if (peek() === '(') {
        k++;
        args(')');
      }
      return;
    }
    if (t === 'lit') {
      k++;
      return;
    }
    if (t === '(') {
      k++;
      expression();
      expect(')');
      return;
    }
    if (t === '[') {
      k++;
      args(']');
      return;
    }
    if (t === '{') {
      k++;
      mapInits(false);
      return;
    }
    fail();
  };
  try {
    expression();
    if (k < toks.length) fail();
    return undefined;
  } catch (e) {
    if (e instanceof CelError) return e.message;
    throw e;
  }
}
