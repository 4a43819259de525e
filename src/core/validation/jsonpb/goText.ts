// Go library behaviour that istioctl's decoding errors quote: strconv.Quote, the time
// package's quote, time.ParseDuration, time.Parse with the RFC 3339 layout, encoding/json's
// rendering of strings and numbers, and encoding/base64's decoding errors.

const hex = '0123456789abcdef';
const utf8 = new TextEncoder();

function hexBytes(s: string): string {
  let out = '';
  for (const b of utf8.encode(s)) out += '\\x' + hex[b >> 4] + hex[b & 15];
  return out;
}

/** Go's strconv.Quote (unicode.IsPrint approximated by the L, M, N, P, S categories and space). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === ' ' || (c > 0x7e && /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(ch)) || (c > 0x20 && c < 0x7f)) out += ch;
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 11) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + hex[c >> 4] + hex[c & 15];
    else if (c < 0x10000) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += '\\U' + c.toString(16).padStart(8, '0');
  }
  return out + '"';
}

/** The time package's own quote: non-ASCII and control characters as \x of each UTF-8 byte. */
export function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c >= 0x80 || c < 0x20) out += hexBytes(ch);
    else out += (ch === '"' || ch === '\\' ? '\\' : '') + ch;
  }
  return out + '"';
}

/** encoding/json's encoding of a string (HTML-safe, as json.Marshal writes it). */
export function goJSONString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) {
      out += '\\u' + c.toString(16).padStart(4, '0');
    } else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else out += ch;
  }
  return out + '"';
}

/**
 * encoding/json's text for a float64 (what sigs.k8s.io/yaml's json.Marshal writes for a YAML
 * number): the shortest round-trip form, exponent form below 1e-6 and from 1e21, as JS does.
 */
export function goJSONNumber(n: number): string {
  if (Object.is(n, -0)) return '-0';
  return String(n);
}

// ---------------------------------------------------------------- time.ParseDuration

const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  'µs': 1000n,
  'μs': 1000n,
  ms: 1000000n,
  s: 1000000000n,
  m: 60000000000n,
  h: 3600000000000n,
};
const TWO63 = 1n << 63n;

/** undefined when time.ParseDuration accepts `orig`, else its error text. Works on UTF-8 bytes as Go does. */
export function goParseDurationError(orig: string): string | undefined {
  const bad = (msg: string) => `time: ${msg} ${timeQuote(orig)}`;
  // Index over the string by code units is safe here: every byte Go looks at is ASCII except
  // unit names, which are taken as whole substrings.
  let s = orig;
  let d = 0n;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return undefined;
  if (s === '') return bad('invalid duration');
  const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
  while (s !== '') {
    let v = 0n;
    let f = 0n;
    let scale = 1;
    if (!(s[0] === '.' || isDigit(s[0]))) return bad('invalid duration');
    let i = 0;
    while (isDigit(s[i])) {
      if (v > TWO63 / 10n) return bad('invalid duration');
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > TWO63) return bad('invalid duration');
      i++;
    }
    const pre = i > 0;
    s = s.slice(i);
    let post = false;
    if (s !== '' && s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      while (isDigit(s[j])) {
        if (!overflow) {
          if (f > (TWO63 - 1n) / 10n) overflow = true;
          else {
            const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
            if (y > TWO63) overflow = true;
            else {
              f = y;
              scale *= 10;
            }
          }
        }
        j++;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return bad('invalid duration');
    let k = 0;
    while (k < s.length && !(s[k] === '.' || isDigit(s[k]))) k++;
    if (k === 0) return bad('missing unit in duration');
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = UNITS[u];
    if (unit === undefined) return bad(`unknown unit ${timeQuote(u)} in duration`);
    if (v > TWO63 / unit) return bad('invalid duration');
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO63) return bad('invalid duration');
    }
    d += v;
    if (d > TWO63) return bad('invalid duration');
  }
  if (!neg && d > TWO63 - 1n) return bad('invalid duration');
  return undefined;
}

// ---------------------------------------------------------------- time.Parse(time.RFC3339[Nano], v)

/**
 * undefined when time.Parse(time.RFC3339Nano (nano) or time.RFC3339, value) succeeds, else its
 * error text (time/format.go's generic parser over that layout's chunks).
 */
export function goParseRFC3339Error(value: string, nano: boolean): string | undefined {
  const layout = nano ? '2006-01-02T15:04:05.999999999Z07:00' : '2006-01-02T15:04:05Z07:00';
  const avalue = value;
  const cannot = (layoutElem: string, valueElem: string) =>
    `parsing time ${timeQuote(avalue)} as ${timeQuote(layout)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`;
  const withMessage = (msg: string) => `parsing time ${timeQuote(avalue)}${msg}`;
  const isDigit = (s: string, i: number) => i < s.length && s[i] as string >= '0' && s[i] as string <= '9';
  const getnum = (s: string, fixed: boolean): [number, string] | undefined => {
    if (!isDigit(s, 0)) return undefined;
    if (!isDigit(s, 1)) return fixed ? undefined : [s.charCodeAt(0) - 48, s.slice(1)];
    return [(s.charCodeAt(0) - 48) * 10 + s.charCodeAt(1) - 48, s.slice(2)];
  };
  // The layout's chunks: [prefix, std element].
  const chunks: [string, string][] = [
    ['', '2006'], ['-', '01'], ['-', '02'], ['T', '15'], [':', '04'], [':', '05'],
    ...(nano ? ([['', '.999999999']] as [string, string][]) : []), ['', 'Z07:00'],
  ];
  let v = value;
  let year = 0;
  let month = -1;
  let day = -1;
  for (const [prefix, std] of chunks) {
    for (const ch of prefix) {
      if (v.length === 0 || v[0] !== ch) return cannot(prefix, v);
      v = v.slice(1);
    }
    const hold = v;
    let range = '';
    let ok = true;
    if (std === '2006') {
      if (v.length < 4 || !isDigit(v, 0)) ok = false;
      else {
        const p = v.slice(0, 4);
        v = v.slice(4);
        if (!/^[0-9]+$/.test(p)) ok = false;
        else year = Number(p);
      }
    } else if (std === '01' || std === '02' || std === '15' || std === '04' || std === '05') {
      const r = getnum(v, std !== '15');
      if (!r) ok = false;
      else {
        const [n, rest] = r;
        v = rest;
        if (std === '01') {
          month = n;
          if (n <= 0 || n > 12) range = 'month';
        } else if (std === '02') day = n;
        else if (std === '15' && n >= 24) range = 'hour';
        else if (std === '04' && n >= 60) range = 'minute';
        else if (std === '05' && n >= 60) range = 'second';
        else if (std === '05' && !nano && v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigit(v, 1)) {
          // a fraction the layout does not name is taken anyway
          let k = 2;
          while (isDigit(v, k)) k++;
          v = v.slice(k);
        }
      }
    } else if (std === '.999999999') {
      if (v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigit(v, 1)) {
        let i = 0;
        while (isDigit(v, i + 1)) i++;
        v = v.slice(1 + i);
      }
    } else {
      if (v.length >= 1 && v[0] === 'Z') v = v.slice(1);
      else if (v.length < 6 || v[3] !== ':') ok = false;
      else {
        const sign = v[0];
        const hr = getnum(v.slice(1, 3), true);
        const mm = hr && getnum(v.slice(4, 6), true);
        v = v.slice(6);
        if (!hr || !mm) ok = false;
        else {
          if (hr[0] > 24) range = 'time zone offset hour';
          if (mm[0] > 60) range = 'time zone offset minute';
          if (sign !== '+' && sign !== '-') ok = false;
        }
      }
    }
    if (range) return withMessage(`: ${range} out of range`);
    if (!ok) return cannot(std, hold);
  }
  if (v.length !== 0) return withMessage(`: extra text: ${timeQuote(v)}`);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
  if (day < 1 || day > days) return withMessage(': day out of range');
  return undefined;
}

// ---------------------------------------------------------------- encoding/base64 (StdEncoding)

/** undefined when base64.StdEncoding decodes `s` (as encoding/json does for []byte), else its error. */
export function goBase64Error(s: string): string | undefined {
  // Go skips \r and \n; its error offsets count the input bytes.
  const bytes = utf8.encode(s);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const isAlpha = (b: number) => alphabet.includes(String.fromCharCode(b)) && b < 0x80;
  let i = 0;
  const n = bytes.length;
  const corrupt = (at: number) => `illegal base64 data at input byte ${at}`;
  while (i < n) {
    // one quantum of up to 4 symbols
    let j = 0;
    while (j < 4) {
      if (i === n) {
        if (j === 0) return undefined;
        if (j === 1) return corrupt(i - 1 < 0 ? 0 : lastSymbol(i));
        return corrupt(i - j);
      }
      const b = bytes[i] as number;
      i++;
      if (b === 10 || b === 13) continue;
      if (isAlpha(b)) {
        j++;
        continue;
      }
      if (b !== 61 /* = */) return corrupt(i - 1);
      // padding
      if (j === 0 || j === 1) return corrupt(i - 1);
      while (i < n && (bytes[i] === 10 || bytes[i] === 13)) i++;
      if (j === 2) {
        if (i === n) return corrupt(n);
        if (bytes[i] !== 61) return corrupt(i - 1);
        i++;
      }
      while (i < n && (bytes[i] === 10 || bytes[i] === 13)) i++;
      if (i < n) return corrupt(i);
      return undefined;
    }
  }
  return undefined;
  function lastSymbol(end: number): number {
    let k = end - 1;
    while (k > 0 && (bytes[k] === 10 || bytes[k] === 13)) k--;
    return k;
  }
}
