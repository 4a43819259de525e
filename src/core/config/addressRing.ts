// Assumed addresses (derived pods, assumed Service cluster IPs) picked from a hash and
// allocated in amortized near-constant time. A range is an IPv4 CIDR of /24 blocks whose
// hosts .1 to .254 are its slots, numbered block by block; an address's first probe is the
// hash modulo the slots of the range's first /16 (all of them in a narrower range), and a
// taken slot steps to the next one, past the end of that /16 into the next ones, from the last
// slot back to the first. For a /16 this is the linear probing of fnv.ts addressAtHash, slot
// for slot; a wider range gives the same addresses until a probe passes the end of its first /16.
// Instead of probing slot by slot, every taken slot points at a later slot with only taken
// ones between (a union-find over the ring, compressed on each look-up), so filling a range
// costs about one step per address instead of a scan of the taken run.
import { parseIpv4 } from './addresses.ts';

/** The slots of a /16 (256 blocks of 254 hosts): how far a first probe reaches. */
const FIRST_PROBE_SLOTS = 256 * 254;

export interface AddressRange {
  /** The CIDR as given (`10.244.0.0/14`). */
  readonly cidr: string;
  /** The network address, as a 32-bit unsigned number. */
  readonly base: number;
  readonly prefixLength: number;
  /** Usable addresses: 254 per /24 block. */
  readonly slots: number;
}

/** The narrowest range accepted: one /24 (254 addresses). */
export const MAX_RANGE_PREFIX = 24;

/**
 * An IPv4 CIDR (`a.b.c.d/n`, n at most 24, no host bits set) as a range of assumed
 * addresses, or a sentence saying what is wrong with it.
 */
export function parseAddressRange(cidr: string): AddressRange | { error: string } {
  const text = cidr.trim();
  const m = /^([0-9.]+)\/(\d{1,2})$/.exec(text);
  const base = m ? parseIpv4(m[1]!) : undefined;
  if (!m || base === undefined) return { error: `"${cidr}" is not an IPv4 CIDR (like 10.244.0.0/14)` };
  const prefixLength = Number(m[2]);
  if (prefixLength > MAX_RANGE_PREFIX)
    return { error: `"${cidr}" is narrower than a /${MAX_RANGE_PREFIX} (its prefix length must be at most ${MAX_RANGE_PREFIX})` };
  const size = 2 ** (32 - prefixLength);
  if (base % size !== 0) {
    const network = base - (base % size);
    return { error: `"${cidr}" has host bits set (the network is ${ipv4Text(network)}/${prefixLength})` };
  }
  return { cidr: text, base, prefixLength, slots: (size / 256) * 254 };
}

/** parseAddressRange for a CIDR known to be valid (the built-in defaults); throws otherwise. */
export function addressRange(cidr: string): AddressRange {
  const r = parseAddressRange(cidr);
  if ('error' in r) throw new Error(r.error);
  return r;
}

function ipv4Text(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** The address of a slot: host `slot % 254 + 1` of block `slot / 254` of the range. */
export function rangeAddress(range: AddressRange, slot: number): string {
  return ipv4Text(range.base + Math.floor(slot / 254) * 256 + (slot % 254) + 1);
}

/** The slot an address holds in the range; undefined outside it, for .0 and .255, and for a text not written as rangeAddress writes it. */
export function rangeSlot(range: AddressRange, ip: string): number | undefined {
  const n = parseIpv4(ip);
  if (n === undefined) return undefined;
  const offset = n - range.base;
  if (offset < 0 || offset >= (range.slots / 254) * 256) return undefined;
  const host = offset % 256;
  if (host < 1 || host > 254) return undefined;
  const slot = Math.floor(offset / 256) * 254 + host - 1;
  return rangeAddress(range, slot) === ip ? slot : undefined;
}

/** The addresses of one range that are taken, and the next free one from a hash. */
export class AddressRing {
  /**
   * For each taken slot, a slot at or after it (round the ring) with only taken slots
   * between: the free slot is found by following these, and the path is then shortened.
   */
  private readonly ahead = new Map<number, number>();

  constructor(readonly range: AddressRange) {}

  /** How many slots are taken. */
  get taken(): number {
    return this.ahead.size;
  }

  /** Marks a slot taken (a slot already taken stays as it is). */
  reserveSlot(slot: number): void {
    if (!this.ahead.has(slot)) this.ahead.set(slot, slot + 1 === this.range.slots ? 0 : slot + 1);
  }

  /** Marks an address taken; an address outside the range (see rangeSlot) is ignored. */
  reserveAddress(ip: string): void {
    const slot = rangeSlot(this.range, ip);
    if (slot !== undefined) this.reserveSlot(slot);
  }

  /** The first free slot from the hash's first probe on, now taken; -1 when every slot is taken. */
  takeSlot(hash: number): number {
    if (this.ahead.size >= this.range.slots) return -1;
    const start = hash % Math.min(FIRST_PROBE_SLOTS, this.range.slots);
    let free = start;
    for (let next = this.ahead.get(free); next !== undefined; next = this.ahead.get(free)) free = next;
    // Every slot on the path now points straight at the free one.
    for (let s = start; s !== free; ) {
      const next = this.ahead.get(s)!;
      this.ahead.set(s, free);
      s = next;
    }
    this.reserveSlot(free);
    return free;
  }

  /** takeSlot as an address; '' when the range is full. */
  take(hash: number): string {
    const slot = this.takeSlot(hash);
    return slot < 0 ? '' : rangeAddress(this.range, slot);
  }
}
