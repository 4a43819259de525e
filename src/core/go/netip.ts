// Go's net/netip address and prefix parsing, with its error texts (Istio quotes some of
// them in its messages), net.SplitHostPort, and an address's bytes and canonical text (Addr.String).
import { goQuote } from './fmt.ts';

export interface Addr {
  is4: boolean;
  zone: string;
}

class AddrError extends Error {}

function addrError(input: string, msg: string, at = ''): AddrError {
  return new AddrError(`ParseAddr(${goQuote(input)}): ${msg}${at !== '' ? ` (at ${goQuote(at)})` : ''}`);
}

function parseIPv4Fields(input: string, off: number, end: number): void {
  const s = input.slice(off, end);
  let val = 0;
  let pos = 0;
  let digLen = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digLen === 1 && val === 0) throw addrError(input, 'IPv4 field has octet with leading zero');
      val = val * 10 + (c - 48);
      digLen++;
      if (val > 255) throw addrError(input, 'IPv4 field has value >255');
    } else if (c === 46) {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') throw addrError(input, 'IPv4 field must have at least one digit', s.slice(i));
      if (pos === 3) throw addrError(input, 'IPv4 address too long');
      pos++;
      val = 0;
      digLen = 0;
    } else {
      throw addrError(input, 'unexpected character', s.slice(i));
    }
  }
  if (pos < 3) throw addrError(input, 'IPv4 address too short');
}

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function parseIPv6(input: string): Addr {
  let s = input;
  let zone = '';
  const pct = s.indexOf('%');
  if (pct !== -1) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') throw addrError(input, 'zone must be a non-empty string');
  }
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return { is4: false, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexVal(s.charCodeAt(off));
      if (h < 0) break;
      acc = acc * 16 + h;
      if (off > 3) throw addrError(input, 'each group must have 4 or less digits', s);
      if (acc > 0xffff) throw addrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw addrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) throw addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) throw addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      let end = input.length;
      if (zone.length > 0) end -= zone.length + 1;
      parseIPv4Fields(input, end - s.length, end);
      s = '';
      i += 4;
      break;
    }
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ':') throw addrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw addrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw addrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) throw addrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw addrError(input, 'address string too short');
  } else if (ellipsis >= 0) {
    throw addrError(input, 'the :: must expand to at least one field of zeros', s);
  }
  return { is4: false, zone };
}

/** netip.ParseAddr: the address, or Go's error text. */
export function parseAddr(s: string): Addr | string {
  try {
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === '.') {
        parseIPv4Fields(s, 0, s.length);
        return { is4: true, zone: '' };
      }
      if (c === ':') return parseIPv6(s);
      if (c === '%') return addrError(s, 'missing IPv6 address').message;
    }
    return addrError(s, 'unable to parse IP').message;
  } catch (e) {
    if (e instanceof AddrError) return e.message;
    throw e;
  }
}

/** netip.ParsePrefix: undefined when valid, else Go's error text. */
export function parsePrefixError(s: string): string | undefined {
  const fail = (msg: string) => `netip.ParsePrefix(${goQuote(s)}): ${msg}`;
  const i = s.lastIndexOf('/');
  if (i < 0) return fail("no '/'");
  const ip = parseAddr(s.slice(0, i));
  if (typeof ip === 'string') return fail(ip);
  if (!ip.is4 && ip.zone !== '') return fail('IPv6 zones cannot be present in a prefix');
  const bitsStr = s.slice(i + 1);
  if (bitsStr.length > 1 && (bitsStr[0]! < '1' || bitsStr[0]! > '9')) return fail(`bad bits after slash: ${goQuote(bitsStr)}`);
  if (!/^[+-]?\d+$/.test(bitsStr)) return fail(`bad bits after slash: ${goQuote(bitsStr)}`);
  const bits = Number(bitsStr);
  const max = ip.is4 ? 32 : 128;
  if (bits < 0 || bits > max) return fail('prefix length out of range');
  return undefined;
}

export function isValidIP(s: string): boolean {
  return typeof parseAddr(s) !== 'string';
}

/** net.SplitHostPort: host and port, or Go's error text. */
export function splitHostPort(hostport: string): { host: string; port: string } | string {
  const missingPort = 'missing port in address';
  const tooManyColons = 'too many colons in address';
  const addrErr = (why: string) => `address ${hostport}: ${why}`;
  const i = hostport.lastIndexOf(':');
  if (i < 0) return addrErr(missingPort);
  let host: string;
  let j = 0;
  let k = 0;
  if (hostport[0] === '[') {
    const end = hostport.indexOf(']');
    if (end < 0) return addrErr("missing ']' in address");
    if (end + 1 === hostport.length) return addrErr(missingPort);
    if (end + 1 !== i) {
      if (hostport[end + 1] === ':') return addrErr(tooManyColons);
      return addrErr(missingPort);
    }
    host = hostport.slice(1, end);
    j = 1;
    k = end + 1;
  } else {
    host = hostport.slice(0, i);
    if (host.includes(':')) return addrErr(tooManyColons);
  }
  if (hostport.indexOf('[', j) >= 0) return addrErr("unexpected '[' in address");
  if (hostport.indexOf(']', k) >= 0) return addrErr("unexpected ']' in address");
  return { host, port: hostport.slice(i + 1) };
}

export function ipv4Bytes(s: string): number[] {
  return s.split('.').map((p) => Number(p));
}

/** The 16 bytes of an IPv6 address already validated by parseAddr (zone stripped). */
export function ipv6Bytes(input: string): number[] {
  let s = input;
  const pct = s.indexOf('%');
  if (pct >= 0) s = s.slice(0, pct);
  let tail: number[] = [];
  // An embedded IPv4 address replaces the last two groups.
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    tail = ipv4Bytes(s.slice(lastColon + 1));
    s = s.slice(0, lastColon + 1);
    if (s.endsWith('::')) {
      // `::1.2.3.4`: keep the ellipsis.
    } else {
      s = s.slice(0, -1);
    }
  }
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  let head: number[];
  let rest: number[] = [];
  const ell = s.indexOf('::');
  if (ell >= 0) {
    head = groups(s.slice(0, ell));
    rest = groups(s.slice(ell + 2));
  } else {
    head = groups(s);
  }
  const total = 8 - tail.length / 2;
  const zeros = ell >= 0 ? total - head.length - rest.length : 0;
  const all = [...head, ...new Array<number>(zeros).fill(0), ...rest];
  const out: number[] = [];
  for (const g of all) out.push((g >> 8) & 0xff, g & 0xff);
  return [...out, ...tail];
}

/**
 * An IPv6 address as Go's netip reads it (an IPv4 tail allowed, a zone dropped), as a 128-bit
 * number; undefined when netip refuses it or it is IPv4. For masking prefixes (ztunnel's
 * IpNet::contains, Envoy's CidrRange::isInRange).
 */
export function ipv6Value(s: string): bigint | undefined {
  const addr = parseAddr(s);
  if (typeof addr === 'string' || addr.is4) return undefined;
  let n = 0n;
  for (const byte of ipv6Bytes(s)) n = (n << 8n) | BigInt(byte);
  return n;
}

/** netip.Addr.String() of 16 IPv6 bytes. */
export function formatIPv6(b: readonly number[]): string {
  const isMapped = b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
  if (isMapped) return `::ffff:${b.slice(12).join('.')}`;
  const g: number[] = [];
  for (let i = 0; i < 16; i += 2) g.push(((b[i] as number) << 8) | (b[i + 1] as number));
  // The longest run of two or more zero groups is elided; the first wins a tie.
  let zs = -1;
  let ze = -1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i >= 2 && j - i > ze - zs) {
      zs = i;
      ze = j;
    }
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === zs) {
      out += '::';
      i = ze - 1;
      continue;
    }
    if (i > 0 && i !== ze) out += ':';
    out += (g[i] as number).toString(16);
  }
  return out;
}

/** The canonical text of an address netip accepted. */
export function canonicalAddr(addr: string, is4: boolean): string {
  return is4 ? ipv4Bytes(addr).join('.') : formatIPv6(ipv6Bytes(addr));
}
