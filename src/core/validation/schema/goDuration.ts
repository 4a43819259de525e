// Go's time.ParseDuration, which the API server's CEL `duration()` uses: `300ms`, `1.5h`,
// `2h45m`; units ns, us (or µs), ms, s, m, h; an optional sign. Returns nanoseconds, or
// undefined where Go returns an error.

const UNITS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

export function parseGoDuration(s: string): number | undefined {
  let i = 0;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    i = 1;
  }
  if (s.slice(i) === '0') return 0;
  if (i >= s.length) return undefined;
  let total = 0;
  while (i < s.length) {
    const start = i;
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    const intPart = s.slice(start, i);
    let frac = '';
    if (s[i] === '.') {
      i++;
      const fs = i;
      while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
      frac = s.slice(fs, i);
    }
    if (intPart === '' && frac === '') return undefined;
    const us = i;
    while (i < s.length && !(s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) && s[i] !== '.') i++;
    const unit = UNITS[s.slice(us, i)];
    if (unit === undefined) return undefined;
    total += Number(`${intPart || '0'}.${frac || '0'}`) * unit;
  }
  // Go rejects durations over about 292 years.
  if (total > 9223372036854775807) return undefined;
  return neg ? -total : total;
}
