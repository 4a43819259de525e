// Redaction's building blocks, rule by rule: the conservative mask (what a reviewer may still
// see of a document the app cannot read), the markers redaction writes, and the piece search
// of its self-check.
import { describe, expect, it } from 'vitest';
import { MASKED, maskConservatively } from '../../src/core/share/conservative.ts';
import { DATA_MARKER, PRIVATE_KEY_MARKER, STRING_MARKER, isRedactionMarker } from '../../src/core/document/redactionMarkers.ts';
import { PIECE_CHARS, SecretPieces } from '../../src/core/share/pieces.ts';

describe('conservative masking, line by line', () => {
  const mask = (line: string) => maskConservatively(line);

  it('masks a value and keeps its indentation', () => {
    expect(MASKED).toBe('REDACTED');
    expect(mask('  s3cr3t value')).toBe('  REDACTED');
    expect(mask('{a: b}')).toBe('REDACTED');
    expect(mask('[x, "y: z"]')).toBe('REDACTED');
  });

  it('keeps a plain or double-quoted key made of Kubernetes key characters', () => {
    expect(mask('password: hunter2')).toBe('password: REDACTED');
    expect(mask('"tls.crt": abc')).toBe('"tls.crt": REDACTED');
    expect(mask('"a": abc')).toBe('"a": REDACTED');
    expect(mask('"app.kubernetes.io/name": x')).toBe('"app.kubernetes.io/name": REDACTED');
    expect(mask('key : v')).toBe('key : REDACTED');
    expect(mask('key\t: v')).toBe('key\t: REDACTED');
  });

  it('does not take anything else for a key', () => {
    expect(mask('"-a": x')).toBe('REDACTED');
    expect(mask('"a b": x')).toBe('REDACTED');
    expect(mask("'a': x")).toBe('REDACTED');
    expect(mask('a:b')).toBe('REDACTED');
    expect(mask(`${'k'.repeat(64)}: v`)).toBe('REDACTED');
    expect(mask(`${'k'.repeat(63)}: v`)).toBe(`${'k'.repeat(63)}: REDACTED`);
  });

  it('a key with nothing after it (white space only) stays as it is, without a mask', () => {
    expect(mask('metadata:')).toBe('metadata:');
    expect(mask('  metadata:   ')).toBe('  metadata:');
    expect(mask('data:\t')).toBe('data:');
  });

  it('keeps sequence dashes (one or more, with any blanks after each) in the lead', () => {
    expect(mask('- a: b')).toBe('- a: REDACTED');
    expect(mask('-  a: b')).toBe('-  a: REDACTED');
    expect(mask('  - - a: b')).toBe('  - - a: REDACTED');
    expect(mask('-\ta: b')).toBe('-\ta: REDACTED');
    expect(mask('- value')).toBe('- REDACTED');
    expect(mask('-value')).toBe('REDACTED');
  });

  it('a lone dash (an empty sequence item) and an empty line stay', () => {
    expect(mask('-')).toBe('-');
    expect(mask('  -')).toBe('  -');
    expect(mask('')).toBe('');
    expect(mask('   ')).toBe('   ');
  });

  it('keeps document markers (--- and ...) alone on their line, and masks anything after them', () => {
    expect(mask('---')).toBe('---');
    expect(mask('...')).toBe('...');
    expect(mask('---  ')).toBe('---  ');
    expect(mask('--- \t')).toBe('--- \t');
    expect(mask('--- secret')).toBe('REDACTED');
    expect(mask('---secret')).toBe('REDACTED');
    expect(mask('x ---')).toBe('REDACTED');
    expect(mask('----')).toBe('REDACTED');
  });

  it('a comment keeps its # and loses its text', () => {
    expect(mask('# token: abc')).toBe('#');
    expect(mask('  # abc')).toBe('  #');
    expect(mask('- # abc')).toBe('- #');
    expect(mask('abc #')).toBe('REDACTED');
  });

  it('keeps every line break in place', () => {
    expect(maskConservatively('a: 1\r\nb: 2\rc: 3\n\u2028d')).toBe('a: REDACTED\r\nb: REDACTED\rc: REDACTED\n\u2028REDACTED');
  });
});

describe('redaction markers', () => {
  it('are the documented texts', () => {
    expect(STRING_MARKER).toBe('REDACTED');
    expect(PRIVATE_KEY_MARKER).toBe('[private key removed before sharing]');
    expect(DATA_MARKER).toBe(Buffer.from('REDACTED').toString('base64'));
  });

  it('each marker is recognised, also with white space around it', () => {
    for (const m of [STRING_MARKER, PRIVATE_KEY_MARKER, DATA_MARKER]) {
      expect(isRedactionMarker(m)).toBe(true);
      expect(isRedactionMarker(` ${m}\n`)).toBe(true);
    }
    expect(isRedactionMarker('REDACTED!')).toBe(false);
    expect(isRedactionMarker('redacted')).toBe(false);
    expect(isRedactionMarker('')).toBe(false);
  });
});

describe('secret pieces', () => {
  // 32 characters, no run of one character, no armour.
  const p1 = 'q7Hn2xLp9VbR4tYc8KmW3sZd6FgJ1uNe';
  const p2 = 'Ab5Cd6Ef7Gh8Ij9Kl0Mn1Op2Qr3St4Uv';

  it('with nothing to look for, is empty and finds nothing', () => {
    const none = new SecretPieces([], '', 1);
    expect(none.empty).toBe(true);
    expect(none.foundIn('anything at all')).toBe(false);
    expect(new SecretPieces(['short'], '', 8).empty).toBe(true);
    expect(new SecretPieces(['a value'], '', 1).empty).toBe(false);
    expect(new SecretPieces([p1], '', 1).empty).toBe(false);
  });

  it('a value of exactly PIECE_CHARS is one piece, found in a text of exactly that length', () => {
    expect(p1).toHaveLength(PIECE_CHARS);
    const s = new SecretPieces([p1], '', 8);
    expect(s.foundIn(p1)).toBe(true);
    expect(s.foundIn(p1.slice(1))).toBe(false);
  });

  it('a value is cut into whole pieces, the last one included', () => {
    const s = new SecretPieces([p1 + p2], '', 8);
    expect(s.foundIn(`x: ${p1}`)).toBe(true);
    expect(s.foundIn(`y: ${p2}`)).toBe(true);
    expect(s.foundIn(`y: ${p2.slice(0, -1)}`)).toBe(false);
  });

  it('pieces that are runs of one character or armour are not looked for, at PIECE_CHARS too', () => {
    const run = 'A'.repeat(PIECE_CHARS);
    expect(new SecretPieces([run], '', 8).foundIn(run)).toBe(false);
    expect(new SecretPieces([run + p1], '', 8).foundIn(run)).toBe(false);
    const armour = '-----BEGINPRIVATEKEY-----MIIEvQI';
    expect(armour).toHaveLength(PIECE_CHARS);
    expect(new SecretPieces([armour], '', 8).foundIn(armour)).toBe(false);
    const two = 'AB'.repeat(PIECE_CHARS / 2);
    expect(new SecretPieces([two], '', 8).foundIn(two)).toBe(true);
  });

  it('two pieces with the same hash are both found ("Aa" and "BB" hash alike, as in Java)', () => {
    const tail = p1.slice(2);
    const a = `Aa${tail}`;
    const b = `BB${tail}`;
    const s = new SecretPieces([a, b], '', 8);
    expect(s.foundIn(a)).toBe(true);
    expect(s.foundIn(b)).toBe(true);
  });

  it('a piece that is also public text is no leak', () => {
    expect(new SecretPieces([p1], `cert ${p1}`, 8).foundIn(p1)).toBe(false);
    expect(new SecretPieces(['short1'], 'short1', 4).foundIn('short1')).toBe(false);
  });
});
