// Go's text formats for values, as istioctl prints them: encoding/json string escaping,
// strconv's shortest float formatting ('f', 'e' and 'g' verbs, 64 and 32 bits; fmt's %v and
// %g of a float are FormatFloat 'g') and encoding/json's choice between them. Pure functions
// over JS values, shared by the analysis output, webhook messages and config dumps.

const HEX = '0123456789abcdef';

/** Characters that goJsonString escapes or must inspect (surrogates). */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/;

/**
 * A string as Go's encoding/json writes it (json.Marshal, HTML escaping on): `"`, `\`, and
 * control characters escaped (`\n`, `\r`, `\t`, `\b`, `\f` short, others `\u00XX`), `<`, `>`
 * and `&` as `\u003c`…, U+2028/U+2029 escaped, and a lone surrogate (invalid UTF-8 in Go)
 * replaced by `\ufffd`.
 */
export function goJsonString(s: string): string {
  // Most strings need no escape; one native scan settles that.
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  const flush = (i: number) => {
    if (i > start) out += s.slice(start, i);
  };
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20) {
      switch (c) {
        case 0x08:
          esc = '\\b';
          break;
        case 0x09:
          esc = '\\t';
          break;
        case 0x0a:
          esc = '\\n';
          break;
        case 0x0c:
          esc = '\\f';
          break;
        case 0x0d:
          esc = '\\r';
          break;
        default:
          esc = `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
      }
    } else if (c === 0x22) esc = '\\"';
    else if (c === 0x5c) esc = '\\\\';
    else if (c === 0x3c || c === 0x3e || c === 0x26) esc = `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
    else if (c === 0x2028 || c === 0x2029) esc = `\\u${c.toString(16)}`;
    else if (c >= 0xd800 && c <= 0xdfff) {
      // A valid surrogate pair is one rune and is written as is; a lone surrogate is
      // invalid UTF-8 for Go, which writes the replacement character's escape.
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      esc = '\\ufffd';
    }
    if (esc !== undefined) {
      flush(i);
      out += esc;
      start = i + 1;
    }
  }
  flush(s.length);
  return `${out}"`;
}

/** Shortest decimal digits and exponent of a finite non-zero number (value = 0.d1d2… × 10^dp). */
interface Digits {
  neg: boolean;
  digits: string;
  /** Position of the decimal point relative to the digits (Go's decimal.dp). */
  dp: number;
}

function shortest64(v: number): Digits {
  const neg = v < 0 || Object.is(v, -0);
  const a = Math.abs(v);
  if (a === 0) return { neg, digits: '0', dp: 1 };
  const [mant, exp] = a.toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  return { neg, digits, dp: Number(exp) + 1 };
}

function shortest32(v: number): Digits {
  const f = Math.fround(v);
  const neg = f < 0 || Object.is(f, -0);
  const a = Math.abs(f);
  if (a === 0) return { neg, digits: '0', dp: 1 };
  for (let p = 1; p <= 9; p++) {
    const s = a.toExponential(p - 1);
    if (Math.fround(Number(s)) === a) {
      const [mant, exp] = s.split('e') as [string, string];
      return { neg, digits: mant.replace('.', '').replace(/0+$/, '') || '0', dp: Number(exp) + 1 };
    }
  }
  return shortest64(a);
}

function fmtF(d: Digits): string {
  let s: string;
  if (d.dp <= 0) s = '0.' + '0'.repeat(-d.dp) + d.digits;
  else if (d.dp >= d.digits.length) s = d.digits + '0'.repeat(d.dp - d.digits.length);
  else s = d.digits.slice(0, d.dp) + '.' + d.digits.slice(d.dp);
  return (d.neg ? '-' : '') + s;
}

function fmtE(d: Digits): string {
  const mant = d.digits.length > 1 ? `${d.digits[0]}.${d.digits.slice(1)}` : d.digits;
  const exp = d.digits === '0' ? 0 : d.dp - 1;
  const abs = Math.abs(exp);
  return `${d.neg ? '-' : ''}${mant}e${exp < 0 ? '-' : '+'}${abs < 10 ? '0' : ''}${abs}`;
}

function special(v: number): string | undefined {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return undefined;
}

/** strconv.FormatFloat(v, 'g', -1, bits). */
export function formatFloatG(v: number, bits: 32 | 64 = 64): string {
  const sp = special(bits === 32 ? Math.fround(v) : v);
  if (sp) return sp;
  const d = bits === 32 ? shortest32(v) : shortest64(v);
  // Go decides with an exponent limit of 6 when the precision is the shortest.
  const exp = d.dp - 1;
  return d.digits !== '0' && (exp < -4 || exp >= 6) ? fmtE(d) : fmtF(d);
}

/**
 * A float as encoding/json writes it: 'f' form, or 'e' form (with `e-07` cleaned to `e-7`)
 * for magnitudes below 1e-6 or from 1e21 on. NaN and infinities are not JSON; callers write
 * them as jsonpb does (`"NaN"`, `"Infinity"`, `"-Infinity"`).
 */
export function goJsonFloat(v: number, bits: 32 | 64 = 64): string {
  const f = bits === 32 ? Math.fround(v) : v;
  const d = bits === 32 ? shortest32(f) : shortest64(f);
  const abs = Math.abs(f);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    let s = fmtE(d);
    s = s.replace(/e([-+])0(\d)$/, 'e$1$2');
    return s;
  }
  return fmtF(d);
}

/** Go's %d of a safe integer or bigint. */
export function goInt(v: number | bigint): string {
  return typeof v === 'bigint' ? v.toString() : Math.trunc(v).toString();
}

/** Go's %f: six decimals. */
export function goFixed(x: number): string {
  if (!Number.isFinite(x)) return formatFloatG(x);
  return x.toFixed(6);
}

/** encoding/json's name for a JSON value's type in an UnmarshalTypeError (`cannot unmarshal X into …`). */
export function goJsonValueType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  return 'object';
}
