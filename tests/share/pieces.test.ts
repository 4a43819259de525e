// The self-check's piece search (rolling hash) against the plain definition: a piece of a
// secret, white space removed, found anywhere in the text, unless it is public.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PIECE_CHARS, SecretPieces } from '../../src/core/share/pieces.ts';

function naive(secrets: string[], publicText: string, min: number, text: string): boolean {
  const t = text.replace(/\s+/g, '');
  for (const s of secrets) {
    const v = s.replace(/\s+/g, '');
    if (v.length < min) continue;
    const pieces =
      v.length < PIECE_CHARS ? [v] : (v.match(new RegExp(`.{${PIECE_CHARS}}`, 'g')) ?? []).filter((p) => !p.includes('-----') && !/^(.)\1*$/.test(p));
    if (pieces.some((p) => t.includes(p) && !publicText.includes(p))) return true;
  }
  return false;
}

describe('secret pieces', () => {
  const alphabet = fc.constantFrom(...'ab \n-AB'.split(''));
  const str = (max: number) => fc.array(alphabet, { maxLength: max }).map((a) => a.join(''));
  it('finds a piece exactly when the plain definition does', () => {
    fc.assert(
      fc.property(fc.array(str(80), { maxLength: 4 }), str(40), str(300), fc.integer({ min: 1, max: 40 }), (secrets, pub, text, min) => {
        // Plant a piece of the first secret now and then, so that hits are common.
        const planted = secrets[0] && text.length > 10 ? text.slice(0, 5) + secrets[0] + text.slice(5) : text;
        expect(new SecretPieces(secrets, pub, min).foundIn(planted)).toBe(naive(secrets, pub, min, planted));
      }),
      { numRuns: 3000 },
    );
  });

  it('ignores white space and what is public', () => {
    const secret = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9w';
    expect(new SecretPieces([secret], '', 12).foundIn(`x: |\n  ${secret.slice(0, 20)}\n  ${secret.slice(20)}\n`)).toBe(true);
    expect(new SecretPieces([secret], secret, 12).foundIn(secret)).toBe(false);
    expect(new SecretPieces(['short'], '', 12).foundIn('short')).toBe(false);
  });
});
