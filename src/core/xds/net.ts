// Addresses as Go's netip reads and prints them: IPv4/IPv6 parsing, canonical IPv6 text,
// CIDR prefixes and containment (for listener addresses, prefix ranges and the simulator).
import { goParseIP } from '../config/addresses.ts';

export function isIPv4(s: string): boolean {
  return goParseIP(s) && !s.includes(':');
}

export function isIPv6(s: string): boolean {
  return goParseIP(s) && s.includes(':');
}

export function isIP(s: string): boolean {
  return goParseIP(s);
}

/** The address as 4 or 16 bytes; undefined when it is not an IP. */
export function ipBytes(s: string): number[] | undefined {
  if (!goParseIP(s)) return undefined;
  if (!s.includes(':')) return s.split('.').map(Number);
  let text = s;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    tail = text
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    text = text.slice(0, lastColon + 1) + '0:0';
  }
  const dbl = text.indexOf('::');
  let groups: string[];
  if (dbl >= 0) {
    const l = text.slice(0, dbl) === '' ? [] : text.slice(0, dbl).split(':');
    const r = text.slice(dbl + 2) === '' ? [] : text.slice(dbl + 2).split(':');
    groups = [...l, ...new Array<string>(8 - l.length - r.length).fill('0'), ...r];
  } else groups = text.split(':');
  const out: number[] = [];
  for (const g of groups) {
    const v = parseInt(g, 16);
    out.push((v >> 8) & 0xff, v & 0xff);
  }
  if (tail.length === 4) out.splice(12, 4, ...tail);
  return out;
}

/** Go's netip.Addr.String(): dotted IPv4, RFC 5952 IPv6 (`::` for the longest zero run). */
export function canonicalIP(s: string): string {
  const b = ipBytes(s);
  if (!b) return s;
  if (b.length === 4) return b.join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((b[i] as number) << 8) | (b[i + 1] as number));
  // IPv4-mapped addresses print as ::ffff:a.b.c.d.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return `::ffff:${b.slice(12).join('.')}`;
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

export interface Prefix {
  /** Canonical address text. */
  address: string;
  bits: number;
  bytes: number[];
}

/** Istio's AddrStrToPrefix: `a.b.c.d/n`, or a plain address as a full-length prefix. */
export function parsePrefix(s: string): Prefix | undefined {
  const slash = s.indexOf('/');
  const addr = slash < 0 ? s : s.slice(0, slash);
  const bytes = ipBytes(addr);
  if (!bytes) return undefined;
  const full = bytes.length * 8;
  let bits = full;
  if (slash >= 0) {
    const t = s.slice(slash + 1);
    if (!/^\d+$/.test(t)) return undefined;
    bits = Number(t);
    if (bits > full) return undefined;
  }
  return { address: canonicalIP(addr), bits, bytes };
}

/** The prefix with host bits cleared (netip.Prefix.Masked), as text. */
export function maskedPrefix(p: Prefix): string {
  const bytes = [...p.bytes];
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, p.bits - i * 8));
    bytes[i] = (bytes[i] as number) & (0xff << (8 - keep)) & 0xff;
  }
  const text = bytes.length === 4 ? bytes.join('.') : canonicalIP(bytesToV6(bytes));
  return `${text}/${p.bits}`;
}

function bytesToV6(b: number[]): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((b[i] as number) << 8) | (b[i + 1] as number)).toString(16));
  return groups.join(':');
}

/** True when the prefix contains the address (same family). */
export function prefixContains(p: Prefix, ip: string): boolean {
  const b = ipBytes(ip);
  if (!b || b.length !== p.bytes.length) return false;
  let bits = p.bits;
  for (let i = 0; i < b.length && bits > 0; i++) {
    const n = Math.min(8, bits);
    const mask = (0xff << (8 - n)) & 0xff;
    if (((b[i] as number) & mask) !== ((p.bytes[i] as number) & mask)) return false;
    bits -= n;
  }
  return true;
}

/** Istio's ConvertAddressToCidr as an Envoy CidrRange (undefined for text that is not an address). */
export function cidrRange(addr: string): { addressPrefix: string; prefixLen: number } | undefined {
  const p = parsePrefix(addr);
  return p ? { addressPrefix: p.address, prefixLen: p.bits } : undefined;
}

/** util.SelectDNSLookupFamily: by the proxy's addresses; a dual-stack proxy gets ALL only with dual stack enabled. */
export function selectDnsLookupFamily(ips: readonly string[], dualStack: boolean): 'V4_ONLY' | 'V6_ONLY' | 'ALL' {
  if (ips.length === 0 || ips.every(isIPv4)) return 'V4_ONLY';
  if (ips.every(isIPv6)) return 'V6_ONLY';
  return dualStack ? 'ALL' : 'V4_ONLY';
}
