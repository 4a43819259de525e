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
