// Kubernetes resource quantities (`500m`, `1Gi`, `1e3`), as k8s.io/apimachinery's
// resource.ParseQuantity accepts them. Istio's injector checks the proxy resource annotations
// with it, and IST0125 prints its error text.

/** The grammar apimachinery names in its format error. */
const QUANTITY_GRAMMAR = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const QUANTITY_FORMAT_ERROR = `quantities must match the regular expression '${QUANTITY_GRAMMAR}'`;
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

const SUFFIX_LETTERS = 'eEinumkKMGTP';
const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** The pieces parseQuantityString splits a quantity into, or its format error. */
interface QuantityParts {
  /** The sign, digits and fraction as written (what the exact path reads). */
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

function splitQuantity(s: string): QuantityParts | 'format' {
  let pos = 0;
  const end = s.length;
  if (s[0] === '-' || s[0] === '+') pos++;
  while (pos < end && s[pos] === '0') pos++;
  if (pos >= end) return { value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(s[i])) i++;
  if (i >= end) return { value: s, num: s.slice(pos), denom: '', suffix: '' };
  let num = s.slice(pos, i);
  pos = i;
  if (num === '') num = '0';
  let denom = '';
  if (s[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(s[i])) i++;
    denom = s.slice(pos, i);
    if (i >= end) return { value: s, num, denom, suffix: '' };
    pos = i;
  }
  const value = s.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && SUFFIX_LETTERS.includes(s[pos] as string)) pos++;
  if (pos < end && (s[pos] === '-' || s[pos] === '+')) pos++;
  while (pos < end && isDigit(s[pos])) pos++;
  // Anything after the exponent's digits breaks the grammar.
  if (pos < end) return 'format';
  return { value, num, denom, suffix: s.slice(suffixStart) };
}

/** How a suffix scales the number: a power of 10 or of 2, or undefined when apimachinery knows no such suffix. */
function interpretSuffix(suffix: string): { base: 10 | 2; exponent: number } | undefined {
  if (Object.hasOwn(DECIMAL_SUFFIXES, suffix)) return { base: 10, exponent: DECIMAL_SUFFIXES[suffix] as number };
  if (Object.hasOwn(BINARY_SUFFIXES, suffix)) return { base: 2, exponent: BINARY_SUFFIXES[suffix] as number };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    // strconv.ParseInt(rest, 10, 64): an optional sign, then decimal digits within int64.
    if (!/^[+-]?[0-9]+$/.test(suffix.slice(1))) return undefined;
    const n = BigInt(suffix.slice(1));
    if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined;
    // Go then converts it to int32, keeping the low 32 bits.
    return { base: 10, exponent: Number(BigInt.asIntN(32, n)) };
  }
  return undefined;
}

/**
 * resource.ParseQuantity's error text for `s`, or undefined when Kubernetes accepts it. Only
 * the exact (big decimal) path can fail on the number itself: when the written number has
 * no digit at all (`.e-10`).
 */
export function quantityError(s: string): string | undefined {
  if (s.length === 0) return QUANTITY_FORMAT_ERROR;
  if (s === '0') return undefined;
  const parts = splitQuantity(s);
  if (parts === 'format') return QUANTITY_FORMAT_ERROR;
  const scaling = interpretSuffix(parts.suffix);
  if (!scaling) return QUANTITY_SUFFIX_ERROR;
  const digits = parts.num.length + parts.denom.length;
  // The fast int64 path (which always parses) is taken when the value fits its precision.
  let precision: number;
  let scale = 0;
  if (scaling.base === 10) {
    scale = scaling.exponent;
    precision = 18 - digits;
  } else if (scaling.exponent >= 0 && parts.denom.length === 0) {
    precision = 15 - parts.num.length - Math.trunc(Math.fround((scaling.exponent * 3) / 10)) - 1;
  } else {
    precision = -1;
  }
  if (precision >= 0 && scale - parts.denom.length >= -9) return undefined;
  // The exact path: inf.Dec reads the written number, which needs at least one digit.
  return /[0-9]/.test(parts.value) ? undefined : QUANTITY_NUMERIC_ERROR;
}
