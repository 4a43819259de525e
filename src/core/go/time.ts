// The time package's texts that istioctl's messages quote: its own quote (not strconv's) and
// the errors of time.Parse with the RFC 3339 layouts (time/format.go), which encoding/json's
// time.Time and protobuf's Timestamp readers return.

const UTF8 = new TextEncoder();

/**
 * The time package's own quoting: printable ASCII as is (`"` and `\\` escaped), any other
 * character as \xNN escapes of its UTF-8 bytes.
 */
export function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c < 0x20 || c >= 0x80) {
      for (const byte of UTF8.encode(ch)) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

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
  const isDigit = (s: string, i: number) => i < s.length && (s[i] as string) >= '0' && (s[i] as string) <= '9';
  const getnum = (s: string, fixed: boolean): [number, string] | undefined => {
    if (!isDigit(s, 0)) return undefined;
    if (!isDigit(s, 1)) return fixed ? undefined : [s.charCodeAt(0) - 48, s.slice(1)];
    return [(s.charCodeAt(0) - 48) * 10 + s.charCodeAt(1) - 48, s.slice(2)];
  };
  // The layout's chunks: [prefix, std element].
  const chunks: [string, string][] = [
    ['', '2006'],
    ['-', '01'],
    ['-', '02'],
    ['T', '15'],
    [':', '04'],
    [':', '05'],
    ...(nano ? ([['', '.999999999']] as [string, string][]) : []),
    ['', 'Z07:00'],
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
