// Go's len and rune count over JS strings, checked against the platform's UTF-8 encoder: Go
// sees a string as its UTF-8 bytes, and a lone surrogate (which no Go string holds) as the
// U+FFFD the encoder writes for it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runeCount, utf8Length } from '../../src/core/go/strings.ts';

// Code units of every width, surrogate pairs, and lone or reversed surrogate halves.
const piece = fc.oneof(
  fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x80, max: 0x7ff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x800, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
  fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800'),
);
const text = fc.array(piece, { maxLength: 24 }).map((ps) => ps.join(''));

describe('Go string measures (go/strings.ts)', () => {
  it('len is the length of the UTF-8 encoding', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(text, (s) => {
        expect(utf8Length(s)).toBe(encoder.encode(s).length);
      }),
      { seed: 20261204, numRuns: 5000 },
    );
  });

  it('the rune count is the number of code points Go decodes', () => {
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    fc.assert(
      fc.property(text, (s) => {
        expect(runeCount(s)).toBe([...decoder.decode(encoder.encode(s))].length);
      }),
      { seed: 20261205, numRuns: 5000 },
    );
  });
});
