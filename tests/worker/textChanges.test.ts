// Editor content changes applied to the worker's copy of a text.
import { describe, expect, it } from 'vitest';
import { applyTextChanges, type TextChange } from '../../src/worker/textChanges.ts';

/** The obvious implementation: one splice per change. */
function naive(text: string, changes: readonly TextChange[]): string {
  let t = text;
  for (const c of changes) t = t.slice(0, c.offset) + c.text + t.slice(c.offset + c.length);
  return t;
}

/** A deterministic pseudo-random sequence (xorshift). */
function rng(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

describe('applyTextChanges', () => {
  it('inserts, deletes and replaces, in order', () => {
    expect(applyTextChanges('hello world', [{ offset: 5, length: 0, text: ',' }])).toBe('hello, world');
    expect(applyTextChanges('hello world', [{ offset: 0, length: 6, text: '' }])).toBe('world');
    expect(applyTextChanges('hello world', [{ offset: 6, length: 5, text: 'there' }])).toBe('hello there');
    // Typing "abc" one key at a time.
    expect(
      applyTextChanges('x', [
        { offset: 1, length: 0, text: 'a' },
        { offset: 2, length: 0, text: 'b' },
        { offset: 3, length: 0, text: 'c' },
      ]),
    ).toBe('xabc');
    // One multi-cursor edit: changes from the end of the text to its start, offsets into the text before it.
    expect(
      applyTextChanges('a1 a2 a3', [
        { offset: 6, length: 2, text: 'b' },
        { offset: 3, length: 2, text: 'b' },
        { offset: 0, length: 2, text: 'b' },
      ]),
    ).toBe('b b b');
    expect(applyTextChanges('', [{ offset: 0, length: 0, text: 'new' }])).toBe('new');
    expect(applyTextChanges('gone', [{ offset: 0, length: 4, text: '' }])).toBe('');
    expect(applyTextChanges('same', [])).toBe('same');
  });

  it('agrees with one splice per change on random edit sequences', () => {
    const next = rng(42);
    for (let round = 0; round < 300; round++) {
      const text = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: é€😀\n'.repeat(1 + Math.floor(next() * 4));
      const changes: TextChange[] = [];
      let current = text;
      for (let k = 0; k < 1 + Math.floor(next() * 12); k++) {
        const offset = Math.floor(next() * (current.length + 1));
        const length = Math.floor(next() * Math.min(8, current.length - offset + 1));
        const ins = ['', 'x', 'ab\n', '---\n', '😀'][Math.floor(next() * 5)] as string;
        const c = { offset, length, text: ins };
        changes.push(c);
        current = naive(current, [c]);
      }
      expect(applyTextChanges(text, changes)).toBe(current);
    }
  });

  it('refuses changes that do not fit the text', () => {
    expect(applyTextChanges('abc', [{ offset: 4, length: 0, text: 'x' }])).toBeUndefined();
    expect(applyTextChanges('abc', [{ offset: 2, length: 2, text: '' }])).toBeUndefined();
    expect(applyTextChanges('abc', [{ offset: -1, length: 0, text: 'x' }])).toBeUndefined();
    expect(applyTextChanges('abc', [{ offset: 1.5, length: 0, text: 'x' }])).toBeUndefined();
    expect(applyTextChanges('abc', [{ offset: 0, length: 0 } as unknown as TextChange])).toBeUndefined();
    expect(applyTextChanges('abc', [null as unknown as TextChange])).toBeUndefined();
    expect(applyTextChanges('abc', 'nope' as unknown as TextChange[])).toBeUndefined();
    // The second change is checked against the text after the first.
    expect(
      applyTextChanges('abc', [
        { offset: 0, length: 3, text: '' },
        { offset: 1, length: 0, text: 'x' },
      ]),
    ).toBeUndefined();
  });

  it('applies a burst of keystrokes into a large text', () => {
    const big = 'x'.repeat(1_000_000);
    const changes = Array.from({ length: 40 }, (_, i) => ({ offset: 500_000 + i, length: 0, text: 'k' }));
    const out = applyTextChanges(big, changes)!;
    expect(out.length).toBe(1_000_040);
    expect(out.slice(500_000, 500_040)).toBe('k'.repeat(40));
    expect(out.slice(0, 10)).toBe('x'.repeat(10));
  });
});
