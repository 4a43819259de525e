// The hash behind every deterministic assumption of the mesh model (derived pod names and IPs,
// assumed cluster IPs): FNV-1a over the UTF-16 code units of a text, 32 bits.

export const FNV32A_OFFSET = 0x811c9dc5;

export function fnv32a(text: string): number {
  return fnv32aFrom(FNV32A_OFFSET, text);
}

/**
 * The hash continued over `text` from the state `h` (the hash of what came before), so that
 * `fnv32aFrom(fnv32a(a), b) === fnv32a(a + b)` without building `a + b`: derived pods hash
 * several suffixes of one seed.
 */
export function fnv32aFrom(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The hash continued over one UTF-16 code unit (see fnv32aFrom). */
export function fnv32aCode(h: number, code: number): number {
  return Math.imul(h ^ code, 0x01000193) >>> 0;
}

const SLOTS = 256 * 254;

/**
 * An address `<prefix>.x.y` (y from 1 to 254) picked by a hash of `seed`, stepping to the next
 * one past addresses in `taken`, which it extends; '' when the /16 is full. Every assumed
 * address of the model (pods, Services) comes from here, each kind from its own /16.
 */
export function hashedAddress(prefix: string, seed: string, taken: Set<string>): string {
  return addressAtHash(prefix, fnv32a(seed), taken);
}

/** hashedAddress for a seed whose hash is already known. */
export function addressAtHash(prefix: string, hash: number, taken: Set<string>): string {
  let slot = hash % SLOTS;
  for (let tries = 0; tries < SLOTS; tries++) {
    const ip = slotAddress(prefix, slot);
    if (!taken.has(ip)) {
      taken.add(ip);
      return ip;
    }
    slot = (slot + 1) % SLOTS;
  }
  return '';
}

/**
 * addressAtHash over slot numbers: the first slot from `hash` on that `taken` lacks, which it
 * adds; -1 when all are taken. For callers that allocate thousands of addresses in one range
 * (derived pods), where numbers are cheaper to keep than address texts.
 */
export function freeSlotAtHash(hash: number, taken: Set<number>): number {
  let slot = hash % SLOTS;
  for (let tries = 0; tries < SLOTS; tries++) {
    if (!taken.has(slot)) {
      taken.add(slot);
      return slot;
    }
    slot = (slot + 1) % SLOTS;
  }
  return -1;
}

/** The address of a slot of a /16: `<prefix>.<slot / 254>.<slot % 254 + 1>`. */
export function slotAddress(prefix: string, slot: number): string {
  return `${prefix}.${Math.floor(slot / 254)}.${(slot % 254) + 1}`;
}

/** Kubernetes' rand.SafeEncodeString alphabet (no vowels, no look-alike digits). */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * `length` characters of SAFE_ALPHABET from one hash carried through `<seed>:0`, `<seed>:1`, …
 * (the names the deployment controller's pods and ztunnel's DaemonSet pods get here).
 */
export function chainedSuffix(seed: string, length: number): string {
  let h = FNV32A_OFFSET;
  let out = '';
  for (let i = 0; i < length; i++) {
    h = fnv32aFrom(h, `${seed}:${i}`);
    out += SAFE_ALPHABET[h % SAFE_ALPHABET.length];
  }
  return out;
}
