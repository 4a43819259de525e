// Base64 decoding with Go's encoding/base64 StdEncoding rules (what Kubernetes uses for
// Secret data and what encoding/pem uses for block bodies): the standard alphabet, padding
// required, `\r` and `\n` ignored anywhere, nothing but line breaks after the padding.
// Pure TypeScript so it runs the same in Node and in a Web Worker.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

/** Decodes standard padded base64; undefined when Go's decoder would report corrupt input. */
export function decodeBase64Std(text: string): Uint8Array | undefined {
  const chars: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) continue;
    chars.push(c);
  }
  if (chars.length % 4 !== 0) return undefined;
  const out = new Uint8Array((chars.length / 4) * 3);
  let o = 0;
  for (let i = 0; i < chars.length; i += 4) {
    const q = [chars[i]!, chars[i + 1]!, chars[i + 2]!, chars[i + 3]!];
    const last = i + 4 === chars.length;
    let pad = 0;
    if (q[3] === 61) {
      pad = q[2] === 61 ? 2 : 1;
      if (!last) return undefined;
    }
    const vals = [0, 0, 0, 0];
    for (let k = 0; k < 4 - pad; k++) {
      const c = q[k]!;
      const v = c < 128 ? VALUE[c]! : -1;
      if (v < 0) return undefined;
      vals[k] = v;
    }
    const n = (vals[0]! << 18) | (vals[1]! << 12) | (vals[2]! << 6) | vals[3]!;
    out[o++] = (n >> 16) & 0xff;
    if (pad < 2) out[o++] = (n >> 8) & 0xff;
    if (pad < 1) out[o++] = n & 0xff;
  }
  return out.subarray(0, o);
}

export function encodeBase64Std(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = i + 1 < bytes.length ? bytes[i + 1]! : 0;
    const c = i + 2 < bytes.length ? bytes[i + 2]! : 0;
    const n = (a << 16) | (b << 8) | c;
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63]! : '=';
    out += i + 2 < bytes.length ? ALPHABET[n & 63]! : '=';
  }
  return out;
}

/** Bytes as a latin-1 string (one char per byte), for text scanning of binary-safe data. */
export function bytesToLatin1(bytes: Uint8Array): string {
  let s = '';
  const CHUNK = 0x2000;
  // apply takes the typed array as it is; a spread would copy it through an iterator first.
  for (let i = 0; i < bytes.length; i += CHUNK) s += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  return s;
}
