// Istio's util.AddrStrToCidrRange: a plain IP becomes a /32 or /128 prefix, a CIDR is parsed
// as written (the host bits are kept, not masked), and the address is printed in Go's
// canonical form (dotted IPv4; RFC 5952 IPv6, `::ffff:a.b.c.d` for IPv4-mapped addresses),
// all on Go's net/netip (go/netip.ts).
import { canonicalAddr, parseAddr, parsePrefixError } from '../../go/netip.ts';

/** envoy.config.core.v3.CidrRange in proto3 JSON (`prefixLen` is a UInt32Value). */
export interface CidrRange {
  addressPrefix: string;
  prefixLen: number;
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
    return { addressPrefix: canonicalAddr(ip, parsed.is4), prefixLen: Number(addr.slice(i + 1)) };
  }
  const parsed = parseAddr(addr);
  if (typeof parsed === 'string') return { error: parsed };
  // PrefixFrom drops the zone of a scoped IPv6 address.
  return { addressPrefix: canonicalAddr(addr, parsed.is4), prefixLen: parsed.is4 ? 32 : 128 };
}
