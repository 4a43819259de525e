// Go's net/netip as Istio's util.AddrStrToCidrRange uses it: a plain IP becomes a /32 or
// /128 prefix, a CIDR is parsed as written (the host bits are kept, not masked), and the
// address is printed in Go's canonical form (dotted IPv4; RFC 5952 IPv6, `::ffff:a.b.c.d`
// for IPv4-mapped addresses). Validation and error texts come from the webhook's port of
// netip (validation/webhook/net.ts); this module adds the bytes and the printing.
import { parseAddr, parsePrefixError } from '../../validation/webhook/net.ts';

/** envoy.config.core.v3.CidrRange in proto3 JSON (`prefixLen` is a UInt32Value). */
export interface CidrRange {
  addressPrefix: string;
  prefixLen: number;
}

function ipv4Bytes(s: string): number[] {
  return s.split('.').map((p) => Number(p));
}

/** The 16 bytes of an IPv6 address already validated by parseAddr (zone stripped). */
function ipv6Bytes(input: string): number[] {
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
function formatIPv6(b: readonly number[]): string {
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
function canonical(addr: string, is4: boolean): string {
  return is4 ? ipv4Bytes(addr).join('.') : formatIPv6(ipv6Bytes(addr));
}

/**
 * util.AddrStrToCidrRange: the CIDR range for an IP or a CIDR, or the error Go gives (in
 * which case the caller drops the value, as Istio does).
 */
export function addrToCidrRange(addr: string): CidrRange | { error: string } {
  if (addr.length === 0) return { error: 'empty address' };
  if (addr.includes('/')) {
    const err = parsePrefixError(addr);
    if (err !== undefined) return { error: err };
    const i = addr.lastIndexOf('/');
    const ip = addr.slice(0, i);
    const parsed = parseAddr(ip);
    if (typeof parsed === 'string') return { error: parsed };
    return { addressPrefix: canonical(ip, parsed.is4), prefixLen: Number(addr.slice(i + 1)) };
  }
  const parsed = parseAddr(addr);
  if (typeof parsed === 'string') return { error: parsed };
  // PrefixFrom drops the zone of a scoped IPv6 address.
  return { addressPrefix: canonical(addr, parsed.is4), prefixLen: parsed.is4 ? 32 : 128 };
}
