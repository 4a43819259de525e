// The hash behind every deterministic assumption of the mesh model (derived pod names and IPs,
// assumed cluster IPs): FNV-1a over the UTF-16 code units of a text, 32 bits.

export function fnv32a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const SLOTS = 256 * 254;

/**
 * An address `<prefix>.x.y` (y from 1 to 254) picked by a hash of `seed`, stepping to the next
 * one past addresses in `taken`, which it extends; '' when the /16 is full. Every assumed
 * address of the model (pods, Services) comes from here, each kind from its own /16.
 */
export function hashedAddress(prefix: string, seed: string, taken: Set<string>): string {
  let slot = fnv32a(seed) % SLOTS;
  for (let tries = 0; tries < SLOTS; tries++) {
    const ip = `${prefix}.${Math.floor(slot / 254)}.${(slot % 254) + 1}`;
    if (!taken.has(ip)) {
      taken.add(ip);
      return ip;
    }
    slot = (slot + 1) % SLOTS;
  }
  return '';
}
