// Addresses as Go reads them: enough of net/url.Parse to find a URL's host name (the
// external control plane a webhook calls), net.ParseIP, and whether a host name could
// resolve (we do no DNS lookups).

/** Go's url.Parse(...).Hostname(), or an error when Go would reject the URL. */
export function goUrlHostname(raw: string): { ok: true; hostname: string } | { ok: false } {
  // Control characters are rejected anywhere.
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return { ok: false };
  }
  let rest = raw;
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    if (!validEscapes(rest.slice(hash + 1))) return { ok: false };
    rest = rest.slice(0, hash);
  }
  if (rest === '*') return { ok: true, hostname: '' };
  // Scheme: a letter followed by letters, digits, `+`, `-` or `.`, then `:`.
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  let hasScheme = false;
  if (m) {
    hasScheme = true;
    rest = rest.slice(m[0].length);
  } else if (rest.startsWith(':')) {
    return { ok: false }; // missing protocol scheme
  }
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (hasScheme && !rest.startsWith('/')) return { ok: true, hostname: '' }; // opaque URL
  if (!hasScheme) {
    // A relative reference: a colon in the first path segment is an error.
    const slash = rest.indexOf('/');
    const first = slash < 0 ? rest : rest.slice(0, slash);
    if (first.includes(':') && !rest.startsWith('//')) return { ok: false };
  }
  if (!rest.startsWith('//')) return validEscapes(rest) ? { ok: true, hostname: '' } : { ok: false };
  rest = rest.slice(2);
  const end = rest.indexOf('/');
  const authority = end < 0 ? rest : rest.slice(0, end);
  const path = end < 0 ? '' : rest.slice(end);
  if (!validEscapes(path)) return { ok: false };
  const at = authority.lastIndexOf('@');
  const host = at >= 0 ? authority.slice(at + 1) : authority;
  if (at >= 0 && !validUserinfo(authority.slice(0, at))) return { ok: false };
  return parseHost(host);
}

function validEscapes(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '%') continue;
    if (!/^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) return false;
    i += 2;
  }
  return true;
}

function validUserinfo(s: string): boolean {
  return /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s) && validEscapes(s);
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  return /^:\d*$/.test(port);
}

function parseHost(host: string): { ok: true; hostname: string } | { ok: false } {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) return { ok: false };
    if (!validOptionalPort(host.slice(close + 1))) return { ok: false };
    return { ok: true, hostname: host.slice(1, close) };
  }
  const colon = host.lastIndexOf(':');
  let name = host;
  if (colon >= 0) {
    if (!validOptionalPort(host.slice(colon))) return { ok: false };
    name = host.slice(0, colon);
  }
  // Characters Go refuses in a host name (ASCII only; other bytes pass).
  for (const ch of name) {
    const c = ch.codePointAt(0) as number;
    if (c >= 0x80) continue;
    if (/[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"%]/.test(ch)) continue;
    return { ok: false };
  }
  if (!validEscapes(name)) return { ok: false };
  return { ok: true, hostname: decodeHost(name) };
}

function decodeHost(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Go's net.ParseIP: dotted IPv4 (no leading zeros) or IPv6 text (no zone). */
export function goParseIP(s: string): boolean {
  return isIPv4(s) || isIPv6(s);
}

function isIPv4(s: string): boolean {
  const parts = s.split('.');
  if (parts.length !== 4) return false;
  return parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

function isIPv6(s: string): boolean {
  if (!s.includes(':')) return false;
  let groups = s;
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return false;
    // The embedded IPv4 address stands for two groups.
    groups = s.slice(0, lastColon + 1) + '0:0';
  }
  const dbl = groups.indexOf('::');
  if (dbl >= 0 && groups.indexOf('::', dbl + 1) >= 0) return false;
  const hex = /^[0-9A-Fa-f]{1,4}$/;
  if (dbl >= 0) {
    const left = groups.slice(0, dbl);
    const right = groups.slice(dbl + 2);
    const l = left === '' ? [] : left.split(':');
    const r = right === '' ? [] : right.split(':');
    if (![...l, ...r].every((g) => hex.test(g))) return false;
    return l.length + r.length < 8;
  }
  const all = groups.split(':');
  return all.length === 8 && all.every((g) => hex.test(g));
}

/** An IPv4 address as a 32-bit number, or undefined. */
export function parseIpv4(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return (((parts[0] as number) << 24) >>> 0) + ((parts[1] as number) << 16) + ((parts[2] as number) << 8) + (parts[3] as number);
}
