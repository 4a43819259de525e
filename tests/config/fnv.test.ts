import { describe, expect, it } from 'vitest';
import { addressAtHash, chainedSuffix, fnv32a, fnv32aCode, fnv32aFrom, hashedAddress, SAFE_ALPHABET } from '../../src/core/config/fnv.ts';

describe('FNV-1a hashing behind derived names and addresses', () => {
  it('gives the published FNV-1a 32-bit values', () => {
    // Reference values of the FNV-1a test suite (ASCII input).
    expect(fnv32a('')).toBe(0x811c9dc5);
    expect(fnv32a('a')).toBe(0xe40c292c);
    expect(fnv32a('foobar')).toBe(0xbf9cf968);
  });

  it('continues a hash over more text exactly as hashing the joined text', () => {
    const texts = ['', 'a', 'ns-1/Deployment/reviews-v1', 'pod:é', 'x'.repeat(300), '\u{1f600}'];
    for (const a of texts) {
      for (const b of texts) {
        expect(fnv32aFrom(fnv32a(a), b)).toBe(fnv32a(a + b));
        if (b.length > 0) expect(fnv32aCode(fnv32a(a), b.charCodeAt(0))).toBe(fnv32a(a + b[0]));
      }
    }
  });

  it('picks the same address from a seed or from its hash, stepping past taken ones', () => {
    const taken = new Set<string>();
    const first = hashedAddress('10.244', 'shop/web-0', taken);
    expect(taken.has(first)).toBe(true);
    const again = addressAtHash('10.244', fnv32a('shop/web-0'), taken);
    expect(again).not.toBe(first);
    expect(again.startsWith('10.244.')).toBe(true);
    expect(addressAtHash('10.244', fnv32a('shop/web-0'), new Set())).toBe(first);
  });

  it('builds deployment-controller suffixes from one hash carried over the numbered seeds', () => {
    const seed = 'shop/web-istio';
    const sfx = chainedSuffix(seed, 9);
    expect(sfx).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{9}$/);
    // Character i is picked by the hash of "<seed>:0<seed>:1…<seed>:i".
    let joined = '';
    for (let i = 0; i < 9; i++) {
      joined += `${seed}:${i}`;
      expect(sfx[i]).toBe(SAFE_ALPHABET[fnv32a(joined) % SAFE_ALPHABET.length]);
    }
    expect(chainedSuffix(seed, 5)).toBe(sfx.slice(0, 5));
  });
});
