// der.ts: the small strict DER reader under the certificate, CRL and key views.
// Expected values come from ITU-T X.690 (BER §8, DER §10) and from what Go's parsers do with
// the same bytes (golang.org/x/crypto/cryptobyte String.readASN1 and ReadASN1ObjectIdentifier,
// vendored in Go 1.26), never from this reader's own output. The reader's error texts reach
// the user as "not DER: <text> at offset 0" (input.ts, a binary value) and
// "malformed certificate: <text>" (cert.ts, a CERTIFICATE block), so those are asserted where
// the user sees them too.
import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import {
  DerError,
  TAG,
  bytesToBigInt,
  children,
  content,
  expectTag,
  readBigInt,
  readBitString,
  readOid,
  readTlv,
  splitElements,
} from '../../src/core/pki/der.ts';
import { decodeInputs } from '../../src/core/pki/input.ts';
import { CertParseError, parseCertificateDer } from '../../src/core/pki/cert.ts';
import { bytes, cat, cert, int, octets, seq, tlv } from './certDer.ts';

const hex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h.replace(/\s/g, ''), 'hex'));
const filled = (n: number, b = 0x61): Uint8Array => new Uint8Array(n).fill(b);

function derError(f: () => unknown): DerError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(DerError);
    return e as DerError;
  }
  throw new Error('no error');
}

/** The problems decodeInputs reports for a binary file with these bytes. */
function binaryProblems(b: Uint8Array): string[] {
  return decodeInputs([{ name: 'input.der', bytes: b }]).problems.map((p) => p.message);
}

/** The problems decodeInputs reports for one PEM CERTIFICATE block around these bytes. */
function pemCertificateProblems(b: Uint8Array): string[] {
  const pem = `-----BEGIN CERTIFICATE-----\n${Buffer.from(b).toString('base64')}\n-----END CERTIFICATE-----\n`;
  return decodeInputs([{ name: 'cert.pem', text: pem }]).problems.map((p) => p.message);
}

describe('readTlv: identifier and length octets (X.690 §8.1)', () => {
  it('reads a short-form length: one length octet below 0x80 (§8.1.3.4)', () => {
    const b = cat(bytes(0x04, 0x7f), filled(127));
    expect(readTlv(b, 0)).toEqual({ tag: 0x04, start: 2, end: 129, next: 129, offset: 0 });
  });

  it('reads a zero-length element (NULL is 05 00)', () => {
    expect(readTlv(bytes(0x05, 0x00), 0)).toEqual({ tag: 0x05, start: 2, end: 2, next: 2, offset: 0 });
  });

  it('reads the long form with one length octet, 81 80 for 128 content octets (§8.1.3.5, §10.1)', () => {
    const b = cat(bytes(0x04, 0x81, 0x80), filled(128));
    expect(readTlv(b, 0)).toEqual({ tag: 0x04, start: 3, end: 131, next: 131, offset: 0 });
  });

  it('reads the long form with two length octets, 82 01 00 for 256 content octets', () => {
    const b = cat(bytes(0x30, 0x82, 0x01, 0x00), filled(256));
    expect(readTlv(b, 0)).toMatchObject({ tag: 0x30, start: 4, end: 260 });
  });

  it('reads four length octets, the most Go accepts (cryptobyte: lenLen > 4 is refused)', () => {
    // 84 01 00 00 00: 2^24 content octets, minimal in four octets (leading octet non-zero).
    const b = new Uint8Array(6 + 0x01000000);
    b.set([0x04, 0x84, 0x01, 0x00, 0x00, 0x00]);
    expect(readTlv(b, 0)).toMatchObject({ tag: 0x04, start: 6, end: 6 + 0x01000000 });
  });

  it('reads at an offset, and inside a limit smaller than the buffer', () => {
    // 30 03 { 02 01 05 } 05 00
    const b = hex('30 03 02 01 05 05 00');
    expect(readTlv(b, 2, 5)).toEqual({ tag: 0x02, start: 4, end: 5, next: 5, offset: 2 });
    expect(readTlv(b, 5)).toEqual({ tag: 0x05, start: 7, end: 7, next: 7, offset: 5 });
  });

  it('accepts tag number 30, the highest the low-tag-number form can carry (§8.1.2.2)', () => {
    expect(readTlv(bytes(0x1e, 0x00), 0).tag).toBe(0x1e);
  });

  it('refuses the high-tag-number form, identifier octet xxx11111 (§8.1.2.4; Go cryptobyte refuses it too)', () => {
    expect(derError(() => readTlv(bytes(0x1f, 0x01, 0x00), 0)).message).toBe('high tag numbers are not supported');
    // [31] constructed, context-specific: bf 1f ...
    expect(derError(() => readTlv(bytes(0xbf, 0x1f, 0x00), 0)).message).toBe('high tag numbers are not supported');
  });

  it('refuses the indefinite form 80 (§10.1: DER uses the definite form only)', () => {
    expect(derError(() => readTlv(bytes(0x30, 0x80, 0x00, 0x00), 0)).message).toBe('indefinite length');
  });

  it('refuses more than four length octets (Go cryptobyte readASN1: lenLen > 4)', () => {
    const b = cat(bytes(0x04, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00), filled(8));
    expect(derError(() => readTlv(b, 0)).message).toBe('length too large');
  });

  it('refuses a long form for a length below 128 (§10.1: fewest octets, short form)', () => {
    const b = cat(bytes(0x04, 0x81, 0x05), filled(5));
    expect(derError(() => readTlv(b, 0)).message).toBe('non-minimal length');
    const b0 = cat(bytes(0x04, 0x81, 0x7f), filled(127));
    expect(derError(() => readTlv(b0, 0)).message).toBe('non-minimal length');
  });

  it('refuses a long form with a leading zero octet (§10.1: 82 00 80 is 81 80 with a zero in front)', () => {
    const b = cat(bytes(0x04, 0x82, 0x00, 0x80), filled(128));
    expect(derError(() => readTlv(b, 0)).message).toBe('non-minimal length');
  });

  it('refuses length octets cut short by the end of the input', () => {
    expect(derError(() => readTlv(bytes(0x30, 0x82, 0x01), 0)).message).toBe('truncated length');
    expect(derError(() => readTlv(bytes(0x30, 0x84, 0x01, 0x00, 0x00), 0)).message).toBe('truncated length');
  });

  it('a length that ends exactly at the end of the input is read; the missing content is what is truncated', () => {
    // 04 81 80 and nothing after: the length octet is all there, the 128 content octets are not.
    expect(derError(() => readTlv(bytes(0x04, 0x81, 0x80), 0)).message).toBe('truncated content');
  });

  it('refuses content that runs past the end of the input', () => {
    expect(derError(() => readTlv(bytes(0x04, 0x03, 0x01, 0x02), 0)).message).toBe('truncated content');
    // Content that fits the buffer but not the limit given.
    expect(derError(() => readTlv(hex('30 03 02 01 05'), 2, 4)).message).toBe('truncated content');
  });

  it('refuses fewer than two octets (a tag and a length octet are the least an element has)', () => {
    expect(derError(() => readTlv(bytes(), 0)).message).toBe('truncated element');
    expect(derError(() => readTlv(bytes(0x30), 0)).message).toBe('truncated element');
    // One octet left after the offset.
    expect(derError(() => readTlv(bytes(0x05, 0x00, 0x04), 2)).message).toBe('truncated element');
    // Two octets in the buffer but a limit of one.
    expect(derError(() => readTlv(bytes(0x05, 0x00), 0, 1)).message).toBe('truncated element');
  });
});

describe("the reader's refusals as the user sees them", () => {
  // input.ts: a binary value that starts like a SEQUENCE is read as DER; what the reader
  // refuses is reported as "not DER: <reason> at offset 0".
  it('a binary value with an indefinite length', () => {
    expect(binaryProblems(bytes(0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00))).toContain('not DER: indefinite length at offset 0');
  });

  it('a binary value with five length octets', () => {
    expect(binaryProblems(cat(bytes(0x30, 0x85, 0x00, 0x00, 0x00, 0x00, 0x03), bytes(0x02, 0x01, 0x05)))).toContain('not DER: length too large at offset 0');
  });

  it('a binary value whose length octets are cut off', () => {
    expect(binaryProblems(bytes(0x30, 0x82, 0x01))).toContain('not DER: truncated length at offset 0');
  });

  it('a binary value with a long-form length below 128', () => {
    expect(binaryProblems(bytes(0x30, 0x81, 0x03, 0x02, 0x01, 0x05))).toContain('not DER: non-minimal length at offset 0');
  });

  it('a binary value whose content is cut off', () => {
    expect(binaryProblems(bytes(0x30, 0x09, 0x02, 0x01, 0x05))).toContain('not DER: truncated content at offset 0');
  });

  // cert.ts: a CERTIFICATE block the reader refuses is "malformed certificate: <reason>".
  it('a CERTIFICATE block of one octet', () => {
    expect(pemCertificateProblems(bytes(0x30)).some((m) => m.endsWith(': malformed certificate: truncated element'))).toBe(true);
  });

  it('a CERTIFICATE block with a high tag number', () => {
    expect(pemCertificateProblems(bytes(0x1f, 0x81, 0x00, 0x00)).some((m) => m.endsWith(': malformed certificate: high tag numbers are not supported'))).toBe(
      true,
    );
  });

  it('a certificate whose extension does not start with an OBJECT IDENTIFIER (Go: "x509: malformed extension OID field")', () => {
    for (const extnId of [int(5), tlv(0x06)]) {
      const der = cert({ extensions: [seq(extnId, octets(bytes(0x05, 0x00)))] });
      expect(() => parseCertificateDer(der)).toThrow(CertParseError);
      expect(() => parseCertificateDer(der)).toThrow('malformed certificate: expected OBJECT IDENTIFIER');
    }
  });
});

describe('children and splitElements', () => {
  it('lists the elements inside a constructed element, each with its own offsets', () => {
    const b = hex('30 06 02 01 05 04 01 ff');
    const kids = children(b, readTlv(b, 0));
    expect(kids).toEqual([
      { tag: 0x02, start: 4, end: 5, next: 5, offset: 2 },
      { tag: 0x04, start: 7, end: 8, next: 8, offset: 5 },
    ]);
  });

  it('an inner element may not run past its parent even if the buffer goes on (§8.1.1: the length bounds the contents)', () => {
    // 30 03 { 04 02 aa } bb: the OCTET STRING claims two octets, only one is inside the SEQUENCE.
    const b = hex('30 03 04 02 aa bb');
    expect(derError(() => children(b, readTlv(b, 0))).message).toBe('truncated content');
  });

  it('splits back-to-back elements', () => {
    const parts = splitElements(hex('30 00 02 01 05 05 00'));
    expect(parts.map((p) => Buffer.from(p).toString('hex'))).toEqual(['3000', '020105', '0500']);
  });

  it('no octets are no elements', () => {
    expect(splitElements(bytes())).toEqual([]);
  });

  it('an element cut off at the end is refused', () => {
    expect(derError(() => splitElements(hex('30 00 02'))).message).toBe('truncated element');
    expect(derError(() => splitElements(hex('30 00 02 02 01'))).message).toBe('truncated content');
  });
});

describe('expectTag and content', () => {
  const b = hex('30 03 02 01 05');
  const top = readTlv(b, 0);

  it('returns the element when the tag matches', () => {
    expect(expectTag(top, TAG.SEQUENCE, 'certificate')).toBe(top);
  });

  it('refuses a different tag and a missing element', () => {
    expect(() => expectTag(top, 0x31, 'certificate')).toThrow(DerError);
    expect(() => expectTag(top, TAG.INTEGER, 'certificate')).toThrow(DerError);
    expect(() => expectTag(undefined, TAG.SEQUENCE, 'certificate')).toThrow(DerError);
  });

  it('content is the content octets only, without identifier and length', () => {
    expect(Buffer.from(content(b, top)).toString('hex')).toBe('020105');
    expect(Buffer.from(content(b, readTlv(b, 2))).toString('hex')).toBe('05');
  });
});

// X.690 §8.3: an INTEGER's content octets are a two's complement binary number, most
// significant octet first.
describe('readBigInt (X.690 §8.3)', () => {
  const at = (h: string, offset = 0): bigint => {
    const b = hex(h);
    return readBigInt(b, readTlv(b, offset));
  };

  it('reads non-negative values', () => {
    expect(at('02 01 00')).toBe(0n);
    expect(at('02 01 7f')).toBe(127n);
    expect(at('02 02 00 80')).toBe(128n);
    expect(at('02 02 01 00')).toBe(256n);
  });

  it('reads negative values (first content octet with bit 8 set)', () => {
    expect(at('02 01 80')).toBe(-128n);
    expect(at('02 01 ff')).toBe(-1n);
    expect(at('02 02 ff 7f')).toBe(-129n);
    expect(at('02 02 80 00')).toBe(-32768n);
  });

  it("reads only the element's own octets, wherever it sits in the buffer", () => {
    // 30 05 { 02 01 80 05 00 } ff: the INTEGER -128 at offset 2, other octets around it.
    expect(at('30 05 02 01 80 05 00 ff', 2)).toBe(-128n);
    expect(at('30 04 02 01 7f ff', 2)).toBe(127n);
  });

  it('refuses an element that is not an INTEGER and an INTEGER without content (§8.3.1: one or more octets)', () => {
    expect(() => at('04 01 05')).toThrow(DerError);
    expect(() => at('02 00 05')).toThrow(DerError);
  });
});

describe('bytesToBigInt', () => {
  it('reads unsigned big-endian octets (no sign bit)', () => {
    expect(bytesToBigInt(bytes())).toBe(0n);
    expect(bytesToBigInt(bytes(0xff))).toBe(255n);
    expect(bytesToBigInt(bytes(0x01, 0x00, 0x00))).toBe(65536n);
    expect(bytesToBigInt(bytes(0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01))).toBe(2n ** 71n + 1n);
  });
});

// X.690 §8.19: the first subidentifier is X*40+Y for the first two arcs (X is 0 or 1 with
// Y < 40, or 2 with any Y); each subidentifier is base 128, bit 8 set on all but its last octet.
describe('readOid (X.690 §8.19)', () => {
  const at = (h: string, offset = 0): string => {
    const b = hex(h);
    return readOid(b, readTlv(b, offset));
  };

  it('reads the example of §8.19.5: {2 999 3} is 06 03 88 37 03', () => {
    expect(at('06 03 88 37 03')).toBe('2.999.3');
  });

  it('reads arcs under 0, 1 and 2', () => {
    // 0.9.2342.19200300.100.1.25 (domainComponent, RFC 4519)
    expect(at('06 0a 09 92 26 89 93 f2 2c 64 01 19')).toBe('0.9.2342.19200300.100.1.25');
    // 1.2.840.113549 (RSA Data Security)
    expect(at('06 06 2a 86 48 86 f7 0d')).toBe('1.2.840.113549');
    // 2.5.4.3 (id-at-commonName, RFC 5280)
    expect(at('06 03 55 04 03')).toBe('2.5.4.3');
  });

  it('puts the boundaries of the first octet in the right arc: 39, 40, 79, 80', () => {
    expect(at('06 01 27')).toBe('0.39');
    expect(at('06 01 28')).toBe('1.0');
    expect(at('06 01 4f')).toBe('1.39');
    expect(at('06 01 50')).toBe('2.0');
  });

  it("reads only the element's own octets", () => {
    // 30 07 { 06 03 55 1d 13 01 00 }: basicConstraints (2.5.29.19) followed by other octets.
    expect(at('30 07 06 03 55 1d 13 01 00', 2)).toBe('2.5.29.19');
  });

  it('refuses an element that is not an OBJECT IDENTIFIER and one without content (Go: ReadASN1ObjectIdentifier)', () => {
    expect(() => at('04 03 55 04 03')).toThrow(DerError);
    expect(() => at('06 00 55')).toThrow(DerError);
  });

  it('refuses a subidentifier that starts with 0x80 (§8.19.2: fewest possible octets)', () => {
    expect(derError(() => at('06 04 55 1d 80 0e')).message).toBe('malformed OBJECT IDENTIFIER');
    expect(derError(() => at('06 04 80 55 1d 0e')).message).toBe('malformed OBJECT IDENTIFIER');
    // 0x80 inside a subidentifier is an ordinary octet: 81 80 01 is 16385.
    expect(at('06 04 55 81 80 01')).toBe('2.5.16385');
  });

  it('refuses a last subidentifier whose final octet still has bit 8 set (§8.19.2)', () => {
    expect(derError(() => at('06 03 55 1d 8e')).message).toBe('malformed OBJECT IDENTIFIER');
  });

  it('a certificate with such an extension OID is refused, as Go refuses it', () => {
    // Go 1.26 x509.ParseCertificate of these certificates: "x509: malformed extension OID field".
    // 55 1d 80 0e would otherwise read as 2.5.29.14 (subjectKeyIdentifier).
    const value = octets(bytes(0x04, 0x02, 0x01, 0x02));
    for (const id of [bytes(0x55, 0x1d, 0x80, 0x0e), bytes(0x55, 0x1d, 0x8e)]) {
      expect(() => parseCertificateDer(cert({ extensions: [seq(tlv(0x06, id), value)] }))).toThrow('malformed certificate: malformed OBJECT IDENTIFIER');
    }
    expect(parseCertificateDer(cert({ extensions: [seq(tlv(0x06, bytes(0x55, 0x1d, 0x0e)), value)] })).der.length).toBeGreaterThan(0);
  });
});

// X.690 §8.6.2: the first content octet of a BIT STRING is the number of unused bits in the
// last octet; it is always there (§8.6.2.1). The reader's callers want whole octets.
describe('readBitString (X.690 §8.6)', () => {
  const at = (h: string, offset = 0): string => {
    const b = hex(h);
    return Buffer.from(readBitString(b, readTlv(b, offset))).toString('hex');
  };

  it('returns the octets after the unused-bits octet', () => {
    expect(at('03 03 00 ab cd')).toBe('abcd');
    expect(at('30 04 03 02 00 ab ff', 2)).toBe('ab');
  });

  it('an empty bit string is the one octet 00 (§8.6.2.3)', () => {
    expect(at('03 01 00')).toBe('');
  });

  it('refuses unused bits', () => {
    expect(() => at('03 02 04 f0')).toThrow(DerError);
  });

  it('refuses an element that is not a BIT STRING and a BIT STRING without its initial octet', () => {
    expect(() => at('04 02 00 ab')).toThrow(DerError);
    // 03 00 followed by a 00 that belongs to the next element.
    expect(() => at('03 00 00')).toThrow(DerError);
  });
});
