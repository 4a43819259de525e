// Where a key starts in a run of base64 (keyStartInRun, issue #28's survivors of the run without
// fuzz smoke runs). The expected values come from the rule keyMaterial.ts documents: a run may
// open with other words (one-word lines, each long enough to read as base64); the key is looked
// for at each of the first five lines (LEADING_LINES = 4 more after the first) and below them
// only where the width of the lines changes, the width being the base64 characters of a line
// (indentation, `#` and trailing blanks left out), for at most 64 changes (WIDTH_CHANGES); a
// first line is read to the end of the run, a later one for 1,024 characters (KEY_WINDOW); and
// fewer than 40 characters (MIN_KEY_CHARS) cannot hold a key.
//
// The `it.fails` cases at the end are leaks: keys those bounds miss, shared as they are.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { holdsPrivateKey, isPrivateKeyDer, keyStartInRun } from '../../src/core/share/keyMaterial.ts';
import { redact } from '../../src/core/share/redact.ts';

const M = JSON.parse(readFileSync(new URL('../fixtures/share/secret-material.json', import.meta.url), 'utf8')) as Record<string, string>;
/** The base64 lines of a PEM block (64 characters each but the last, RFC 7468). */
const bodyOf = (pem: string) => pem.trim().split('\n').slice(1, -1);
const keyLines = bodyOf(M.rsaPkcs1!);
/** Offset of line `n` of a text joined with `\n`. */
const lineAt = (lines: string[], n: number) => lines.slice(0, n).join('\n').length + (n > 0 ? 1 : 0);
/** MIME-style base64 (76 characters a line, RFC 2045 §6.8). */
const mime = (text: string) =>
  Buffer.from(text, 'latin1')
    .toString('base64')
    .match(/.{1,76}/g)!;

describe('keyStartInRun: one-word lines above a key', () => {
  it('150 words of one width: the width changes once, at the key, which is found there (1,350 characters down)', () => {
    const words = Array.from({ length: 150 }, (_, i) => `node-${String(i).padStart(3, '0')}`);
    const lines = [...words, ...keyLines];
    expect(keyStartInRun(lines.join('\n'))).toBe(lineAt(lines, words.length));
    expect(holdsPrivateKey(lines.join('\n'))).toBe(true);
  });

  it('the width counts base64 characters only: indentation that alternates changes nothing', () => {
    const words = Array.from({ length: 80 }, (_, i) => `${i % 2 ? '    ' : '  '}node-${String(i).padStart(2, '0')}`);
    const lines = [...words, ...keyLines.map((l) => `  ${l}`)];
    expect(keyStartInRun(lines.join('\n'))).toBe(lineAt(lines, words.length));
  });

  it('a key on the fifth line is found although the four lines above it are as wide as its own', () => {
    // Four full lines of a certificate's base64 (64 characters, as the key's), then the key.
    const lines = [...bodyOf(M.leafCert!).slice(0, 4), ...keyLines];
    expect(lines[3]!.length).toBe(keyLines[0]!.length);
    expect(keyStartInRun(lines.join('\n'))).toBe(lineAt(lines, 4));
  });

  it('the key at the 64th change of width below the first five lines is found; the change on the fifth line does not count', () => {
    // Lines 0–3 seven characters wide, line 4 six (a change among the first lines), then lines
    // 5–67 alternating 7 and 6 (63 changes), and the key on line 68: the 64th change.
    const words: string[] = [];
    for (let i = 0; i < 68; i++)
      words.push(i < 4 ? `node-0${i}` : (i - 4) % 2 === 0 ? `web-${String(i).padStart(2, '0')}` : `node-${String(i).padStart(2, '0')}`);
    expect(words.map((w) => w.length).slice(0, 8)).toEqual([7, 7, 7, 7, 6, 7, 6, 7]);
    expect(words[67]!.length).toBe(7);
    const lines = [...words, ...keyLines];
    expect(keyStartInRun(lines.join('\n'))).toBe(lineAt(lines, 68));
  });

  it('past 64 changes of width the run holds no key where it holds none', () => {
    const words = Array.from({ length: 80 }, (_, i) => (i % 2 ? `node-${String(i).padStart(2, '0')}` : `web-${String(i).padStart(2, '0')}`));
    expect(keyStartInRun(words.join('\n'))).toBe(-1);
    expect(holdsPrivateKey(words.join('\n'))).toBe(false);
  });
});

describe('keyStartInRun: how far a line is read', () => {
  // A text with a PEM key after two kilobytes of notes, in base64 (a ConfigMap's binaryData, say).
  const notes = `${'These are the notes of the on-call rotation for the payments cluster. '.repeat(30)}\n`;
  const encoded = mime(`${notes}${M.rsaPkcs8!}`);

  it('the first line is read to the end of the run: armour two kilobytes down is found', () => {
    expect(notes.length).toBeGreaterThan(2000);
    expect(keyStartInRun(encoded.join('\n'))).toBe(0);
  });

  it('the fifth line is read to the end of the run too', () => {
    // Widths 6 5 5 5: none of the first four lines starts the notes' base64 on a whole quantum.
    const lines = ['oscar1', 'alpha', 'bravo', 'delta', ...encoded];
    expect(keyStartInRun(lines.join('\n'))).toBe(lineAt(lines, 4));
  });

  it('fewer than 40 characters left cannot hold a key: a truncated EncryptedPrivateKeyInfo on the last line is not read', () => {
    // SEQUENCE, SEQUENCE, OID 1.2.840.113549.1.5 (PKCS#5): 16 bytes that read as a key on their own.
    const der = Buffer.from('30820100300e06092a864886f70d0105', 'hex');
    expect(isPrivateKeyDer(Uint8Array.from(der))).toBe(true);
    const epki = der.toString('base64');
    const run = `${'A'.repeat(20)}\n${epki}`;
    expect(run.length).toBeGreaterThanOrEqual(40);
    expect(epki.length).toBeLessThan(40);
    expect(keyStartInRun(run)).toBe(-1);
  });
});

describe('leaks: keys the bounds of keyStartInRun miss (shared as they are)', () => {
  const commentedOut = (lines: string[]) => `kind: ConfigMap\nmetadata: {name: c}\n${lines.map((l) => `# ${l}`).join('\n')}\n`;
  const shared = (text: string) => redact([{ path: 'p.yaml', text }]).files[0]!.text;

  it.fails('a commented-out key below more than 64 changes of width (eighty host names of two lengths) is masked', () => {
    const words = Array.from({ length: 80 }, (_, i) => (i % 2 ? `node-${String(i).padStart(2, '0')}` : `web-${String(i).padStart(2, '0')}`));
    expect(holdsPrivateKey([...words, ...keyLines].join('\n'))).toBe(true);
    expect(shared(commentedOut([...words, ...keyLines]))).not.toContain(keyLines[5]);
  });

  it.fails("a commented-out key below five or more lines as wide as its own (a certificate's base64 without its armour) is masked", () => {
    const lines = [...bodyOf(M.leafCert!).filter((l) => l.length === 64), ...keyLines];
    expect(holdsPrivateKey(lines.join('\n'))).toBe(true);
    expect(shared(commentedOut(lines))).not.toContain(keyLines[5]);
  });

  it.fails('base64 of notes with a PEM key past 1,024 characters, below one-word lines, is masked', () => {
    // Widths 5 5 6 5 5 5: no first line starts the notes' base64 on a whole quantum.
    const words = ['alpha', 'bravo', 'oscar1', 'delta', 'hotel', 'india'];
    const notes = `${'These are the notes of the on-call rotation for the payments cluster. '.repeat(30)}\n`;
    const lines = [...words, ...mime(`${notes}${M.rsaPkcs8!}`)];
    expect(holdsPrivateKey(lines.join('\n'))).toBe(true);
  });
});
