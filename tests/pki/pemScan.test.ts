// The lenient PEM scan for the views (scanPem in src/core/pki/pem.ts): every `-----BEGIN`
// marker with its label, RFC 1421/7468 style `Key: value` headers, body, position and the
// layout problems Go's Decode would not forgive. Expected offsets are computed from the input
// text itself (indexOf), bytes by Node's Buffer base64 decoder, and the lax-reader rules are
// RFC 7468 §2 and §5.2 (whitespace and line breaks between base64 characters are tolerated;
// strict parsers require the exact form).
import { describe, expect, it } from 'vitest';
import { scanPem } from '../../src/core/pki/pem.ts';

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const b64hex = (s: string): string => Buffer.from(s, 'base64').toString('hex');

describe('scanPem positions', () => {
  it('offset, 1-based line and end of each block; text around them', () => {
    const text = 'comment\n-----BEGIN A-----\nQUJD\n-----END A-----\n\n  -----BEGIN B-----\nREVG\n  -----END B-----';
    const s = scanPem(text);
    expect(s.textOutside).toBe(true);
    expect(s.blocks.map((b) => [b.index, b.type, b.line, b.offset, b.end, b.indented])).toEqual([
      [0, 'A', 2, text.indexOf('-----BEGIN A'), text.indexOf('\n\n') + 1, false],
      [1, 'B', 6, text.indexOf('-----BEGIN B'), text.length, true],
    ]);
    expect(s.blocks.map((b) => hexOf(b.bytes))).toEqual([b64hex('QUJD'), b64hex('REVG')]);
    expect(s.blocks.every((b) => b.base64Strict && !b.unterminated && b.endTypeMismatch === undefined)).toBe(true);
  });

  it('a text that starts with a line break still has its block on line 2', () => {
    const text = '\n-----BEGIN A-----\nQUJD\n-----END A-----\n';
    const s = scanPem(text);
    const [b] = s.blocks;
    expect([b?.type, b?.line, b?.offset, b?.end]).toEqual(['A', 2, 1, text.length]);
    expect(s.textOutside).toBe(false);
  });

  it('blank and whitespace-only lines outside blocks are not text', () => {
    expect(scanPem('  \n\t\n-----BEGIN A-----\nQUJD\n-----END A-----\n \n').textOutside).toBe(false);
  });

  it('a CR only at the end of a line is a CRLF terminator; a CR inside a header value is kept', () => {
    const s = scanPem('-----BEGIN A-----\r\nK: v\rw\r\n\r\nQUJD\r\n-----END A-----\r\n');
    expect(s.blocks.map((b) => [b.type, b.headers, b.endTypeMismatch, hexOf(b.bytes)])).toEqual([['A', { K: 'v\rw' }, undefined, b64hex('QUJD')]]);
  });
});

describe('scanPem: blocks Go would skip are still listed', () => {
  it('a BEGIN followed by another BEGIN is unterminated, and the next block is read', () => {
    const text = '-----BEGIN A-----\nQUJD\n-----BEGIN B-----\nREVG\n-----END B-----\n';
    const s = scanPem(text);
    expect(s.blocks.map((b) => [b.type, b.unterminated ?? false, b.end])).toEqual([
      ['A', true, text.indexOf('-----BEGIN B')],
      ['B', false, text.length],
    ]);
  });

  it('no END at all: unterminated, ending at the end of the text', () => {
    const text = '-----BEGIN A-----\nQUJD\n';
    const [b] = scanPem(text).blocks;
    expect([b?.unterminated, b?.end, hexOf(b!.bytes)]).toEqual([true, text.length, b64hex('QUJD')]);
  });

  it('an END with another label is a mismatch, not unterminated', () => {
    const [b] = scanPem('-----BEGIN A-----\nQUJD\n-----END B-----\n').blocks;
    expect([b?.endTypeMismatch, b?.unterminated]).toEqual(['B', undefined]);
  });
});

describe('scanPem bodies: strict (Go base64) and lenient readings', () => {
  it.each([
    ['junk characters are dropped', 'QU!JD', 'QUJD'],
    ['a lone sixth character is dropped (5 mod 4 = 1 cannot encode a byte)', 'QUJDR!', 'QUJD'],
    ['missing padding is added (6 characters)', 'QUJDRE', 'QUJDRA=='],
    ['missing padding is added (7 characters)', 'QUJDREU', 'QUJDREU='],
  ])('%s', (_n, body, equivalent) => {
    const [b] = scanPem(`-----BEGIN A-----\n${body}\n-----END A-----\n`).blocks;
    expect(b?.base64Strict).toBe(false);
    expect(hexOf(b!.bytes)).toBe(b64hex(equivalent));
  });

  it('a strict body is decoded as it is', () => {
    const [b] = scanPem('-----BEGIN A-----\nQUJD\n  REVG  \n-----END A-----\n').blocks;
    expect([b?.base64Strict, hexOf(b!.bytes)]).toEqual([true, b64hex('QUJDREVG')]);
  });
});

describe('scanPem headers (RFC 1421 encapsulated headers before the body)', () => {
  it('reads trimmed Key: value lines, also after a blank line, until the body starts', () => {
    const text = '-----BEGIN A-----\n\n  Proc-Type : 4,ENCRYPTED \nDEK-Info: AES-128-CBC,00\n#: #\n\nQUJD\n-----END A-----\n';
    const [b] = scanPem(text).blocks;
    expect(b?.headers).toEqual({ 'Proc-Type': '4,ENCRYPTED', 'DEK-Info': 'AES-128-CBC,00', '#': '#' });
    expect([b?.base64Strict, hexOf(b!.bytes)]).toEqual([true, b64hex('QUJD')]);
  });

  it('a line that starts with ":" is not a header', () => {
    const [b] = scanPem('-----BEGIN A-----\n:x\nQUJD\n-----END A-----\n').blocks;
    expect(b?.headers).toEqual({});
    expect(b?.base64Strict).toBe(false);
  });

  it('a non-base64 line without a colon starts the body', () => {
    const [b] = scanPem('-----BEGIN A-----\nQU!D\nA: b\n-----END A-----\n').blocks;
    expect(b?.headers).toEqual({});
  });

  it('a Key: value line after the body has started is body, not a header', () => {
    const [b] = scanPem('-----BEGIN A-----\nQUJD\nA: b\n-----END A-----\n').blocks;
    expect(b?.headers).toEqual({});
    expect(b?.base64Strict).toBe(false);
  });
});
