// cert.ts: the certificate's structure as parseCertificateDer reads it (the raw TBSCertificate
// walk, serials, times, names, extension bookkeeping) on hand-built DER (tests/pki/certDer.ts).
// Expected values: Go's crypto/x509 (parser.go parseCertificate, x509.go), RFC 5280 and
// `openssl x509 -text` / `-serial` (OpenSSL 3.0) of the same DER, never our own output.
import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { CertParseError, goParses, isoTime, parseCertificateDer, parseCertificatesDer, serialForms } from '../../src/core/pki/cert.ts';
import { OIDS, alg, bytes, cat, cert, certFrom, ext, genTime, int, name, nul, oid, seq, set, tbsFields, tlv, utcTime, utf8 } from './certDer.ts';

function parseError(der: Uint8Array): CertParseError {
  try {
    parseCertificateDer(der);
  } catch (e) {
    expect(e).toBeInstanceOf(CertParseError);
    return e as CertParseError;
  }
  throw new Error('parsed');
}

// Go's parseCertificate refuses each of these with "x509: malformed <field>" naming the
// field it could not read (parser.go: "malformed certificate", "malformed tbs certificate",
// "malformed serial number", "malformed validity", "malformed subject", "malformed spki").
describe('malformed certificates (Go parser.go parseCertificate)', () => {
  it('a certificate that is not a SEQUENCE is refused as a malformed certificate', () => {
    const good = cert();
    const asSet = cat(bytes(0x31), good.subarray(1));
    const e = parseError(asSet);
    expect(e.message).toMatch(/^malformed certificate: /);
    expect(e.message).toMatch(/SEQUENCE/);
  });

  it('a TBSCertificate that is not a SEQUENCE is refused (Go: malformed tbs certificate)', () => {
    const fields = tbsFields();
    const der = seq(set(...fields), alg(OIDS.ecdsaWithSHA256), tlv(0x03, bytes(0, 1)));
    const e = parseError(der);
    expect(e.message).toMatch(/^malformed certificate: /);
    expect(e.message).toMatch(/tbs ?certificate/i);
  });

  it('a certificate SEQUENCE with nothing inside is refused (Go: malformed tbs certificate)', () => {
    expect(parseError(seq()).message).toMatch(/tbs ?certificate/i);
  });

  it('an empty TBSCertificate has no serial number (Go: malformed serial number)', () => {
    const e = parseError(certFrom([]));
    expect(e.message).toMatch(/^malformed certificate: /);
    expect(e.message).toMatch(/serial number/);
  });

  it('a serial number that is not an INTEGER is refused (Go: malformed serial number)', () => {
    const e = parseError(certFrom(tbsFields({ serial: tlv(0x04, bytes(1, 2, 3)) })));
    expect(e.message).toMatch(/serial number/);
  });

  it('a version-less TBSCertificate whose first field is not an INTEGER is refused (Go: malformed serial number)', () => {
    const e = parseError(certFrom(tbsFields({ version: null, serial: seq(int(1)) })));
    expect(e.message).toMatch(/serial number/);
  });

  it('a TBSCertificate cut after the issuer has no validity (Go: malformed validity)', () => {
    const f = tbsFields();
    const e = parseError(certFrom(f.slice(0, 4)));
    expect(e.message).toMatch(/validity/);
  });

  it('a validity that is not a SEQUENCE is refused (Go: malformed validity)', () => {
    const e = parseError(certFrom(tbsFields({ validity: set(utcTime('260101000000Z'), utcTime('270101000000Z')) })));
    expect(e.message).toMatch(/validity/);
  });

  it('a TBSCertificate cut after the validity has no subject (Go: malformed subject)', () => {
    const e = parseError(certFrom(tbsFields().slice(0, 5)));
    expect(e.message).toMatch(/missing subject$/);
  });

  it('a TBSCertificate cut after the subject has no public key (Go: malformed spki)', () => {
    const e = parseError(certFrom(tbsFields().slice(0, 6)));
    expect(e.message).toMatch(/subject public key info/);
  });

  it('what the DER walk accepts but the full decoding refuses is still a CertParseError "malformed certificate"', () => {
    // An empty Validity: the walk finds the SEQUENCE; the times inside are missing (Go: malformed validity).
    const e = parseError(certFrom(tbsFields({ validity: seq() })));
    expect(e.message).toMatch(/^malformed certificate: \S/);
  });

  it('a public key Go cannot read (an rsaEncryption BIT STRING that is no RSAPublicKey) is a CertParseError', () => {
    // parser.go parsePublicKey: "x509: invalid RSA public key".
    const spki = seq(alg(OIDS.rsaEncryption, nul()), tlv(0x03, bytes(0, 0x04, 0x01, 0x00)));
    const e = parseError(cert({ spki }));
    expect(e.message).toMatch(/^malformed certificate: \S/);
  });
});

// Go's ParseCertificates (parser.go): reads certificates back to back; an element it cannot
// read is "x509: malformed certificate"; no bytes at all is an empty list.
describe('parseCertificatesDer (Go x509.ParseCertificates)', () => {
  it('reads two certificates back to back and none from zero bytes', () => {
    const a = cert({ subject: name('A') });
    const b = cert({ subject: name('B') });
    expect(parseCertificatesDer(cat(a, b)).map((c) => c.facts.subjectCommonName)).toEqual(['A', 'B']);
    expect(parseCertificatesDer(new Uint8Array(0))).toEqual([]);
  });

  it('trailing bytes that are no complete element are a CertParseError "malformed certificate"', () => {
    const a = cert();
    expect(() => parseCertificatesDer(cat(a, bytes(0x30)))).toThrow(CertParseError);
    expect(() => parseCertificatesDer(cat(a, bytes(0x30)))).toThrow(/^malformed certificate: \S/);
    expect(() => parseCertificatesDer(cat(a, bytes(0x30, 0x05, 0x02)))).toThrow(CertParseError);
  });

  // Not Go's behaviour (Go's Certificate.Raw is a slice of the caller's bytes): parseCertificateDer
  // copies its input (`input.slice()`), so a caller may reuse its read buffer afterwards.
  it('each certificate keeps its own bytes: changing the input afterwards changes nothing', () => {
    const a = cert();
    const input = a.slice();
    const c = parseCertificateDer(input);
    input.fill(0);
    expect(c.der).toEqual(a);
    expect(c.facts.subjectCommonName).toBe('Subject');
  });
});

// openssl x509 -serial (OpenSSL 3.0, i2a_ASN1_INTEGER): the content octets in hex, two digits
// each, without a leading 00; a negative serial as "-" and the magnitude's octets.
// Go (x509.go, parseCertificate) refuses a negative serial by default since 1.23.
describe('serial numbers', () => {
  it('a negative serial with an odd number of magnitude digits is printed with a leading 0 (openssl: serial=-01)', () => {
    const c = parseCertificateDer(cert({ serial: int(0xff) }));
    expect(c.facts.serialHex).toBe('-01');
    expect(c.facts.serialNegative).toBe(true);
    expect(c.facts.serialDecimal).toBe('-1');
    expect(c.facts.serialIstioctl).toBeNull();
    expect(goParses(c)).toBe(false);
  });

  it('-0x1000 is serial=-1000 (openssl) and -4096 in decimal', () => {
    const c = parseCertificateDer(cert({ serial: int(0xf0, 0x00) }));
    expect(c.facts.serialHex).toBe('-1000');
    expect(c.facts.serialDecimal).toBe('-4096');
    expect(c.serial).toBe(-4096n);
  });

  it('serialForms of empty content is zero, not negative', () => {
    const s = serialForms(new Uint8Array(0));
    expect(s.value).toBe(0n);
    expect(s.negative).toBe(false);
  });
});

// RFC 5280 §4.1.2.5: validity dates through 2049 MUST be UTCTime, dates in 2050 or later
// MUST be GeneralizedTime. openssl prints the same instant for either encoding.
describe('validity encodings (RFC 5280 §4.1.2.5)', () => {
  const validity = (nb: Uint8Array, na: Uint8Array) => parseCertificateDer(cert({ validity: seq(nb, na) })).facts;

  it('GeneralizedTime for a 2050 notAfter follows RFC 5280', () => {
    const f = validity(utcTime('260101000000Z'), genTime('20500101000000Z'));
    expect(f.notBeforeEncoding).toBe('UTCTime');
    expect(f.notAfterEncoding).toBe('GeneralizedTime');
    expect(f.notAfter).toBe('2050-01-01T00:00:00Z');
    expect(f.timeEncodingRfc5280).toBe(true);
  });

  it('GeneralizedTime for a 2040 notAfter breaks RFC 5280 (before 2050 it must be UTCTime)', () => {
    const f = validity(utcTime('260101000000Z'), genTime('20400101000000Z'));
    expect(f.notAfterEncoding).toBe('GeneralizedTime');
    expect(f.timeEncodingRfc5280).toBe(false);
  });

  it('GeneralizedTime for a 2030 notBefore breaks RFC 5280 even when notAfter is fine', () => {
    const f = validity(genTime('20300101000000Z'), utcTime('310101000000Z'));
    expect(f.notBeforeEncoding).toBe('GeneralizedTime');
    expect(f.notAfterEncoding).toBe('UTCTime');
    expect(f.timeEncodingRfc5280).toBe(false);
  });

  it('validitySeconds and the ISO forms come from the decoded instants (1 year = 365 days here)', () => {
    const f = validity(utcTime('260101000000Z'), utcTime('270101000000Z'));
    expect(f.notBefore).toBe('2026-01-01T00:00:00Z');
    expect(f.validitySeconds).toBe(365 * 86400);
    expect(isoTime(new Date(Date.UTC(2026, 5, 1, 12, 30, 15, 999)))).toBe('2026-06-01T12:30:15Z');
  });
});

// Go (verify.go): a certificate is self-issued when its raw subject equals its raw issuer
// byte for byte (bytes.Equal(c.RawSubject, c.RawIssuer)).
describe('self-issued (Go: bytes.Equal(RawSubject, RawIssuer))', () => {
  it('equal names are self-issued; names of the same length that differ are not', () => {
    expect(parseCertificateDer(cert({ subject: name('Same'), issuer: name('Same') })).facts.selfIssued).toBe(true);
    const f = parseCertificateDer(cert({ subject: name('AAAA'), issuer: name('AAAB') })).facts;
    expect(f.selfIssued).toBe(false);
  });

  it('the same text in another string type is a different name (Go compares bytes)', () => {
    const printable = seq(set(seq(oid('2.5.4.3'), tlv(0x13, new TextEncoder().encode('Same')))));
    const f = parseCertificateDer(cert({ subject: name('Same'), issuer: printable })).facts;
    expect(f.selfIssued).toBe(false);
  });
});

// Go's parseCertificate reads an unknown signature algorithm as UnknownSignatureAlgorithm and
// keeps going; openssl -text prints its dotted OID ("Signature Algorithm: 1.2.3.4.98").
describe('signature algorithm', () => {
  it('an unknown signature algorithm OID parses and is named by its OID', () => {
    const c = parseCertificateDer(cert({ sigAlg: alg('1.2.3.4.98') }));
    expect(c.facts.signatureAlgorithm).toBe('1.2.3.4.98');
    expect(c.facts.signatureAlgorithmOid).toBe('1.2.3.4.98');
    expect(goParses(c)).toBe(true);
  });
});

// The file's contract (cert.ts header): parsing is synchronous, digests are added later by
// completeCertificate; until then the digest fields are empty.
describe('digests before completeCertificate', () => {
  it('the fingerprints and the SPKI digest are empty strings', () => {
    const f = parseCertificateDer(cert()).facts;
    expect(f.sha256Fingerprint).toBe('');
    expect(f.sha256FingerprintHex).toBe('');
    expect(f.sha1Fingerprint).toBe('');
    expect(f.publicKey.spkiSha256).toBe('');
  });
});

// Go parser.go: "x509: certificate contains duplicate extensions" (an OID seen twice);
// a negative serial is refused first (x509negativeserial). Both reasons are kept.
describe('extension bookkeeping (Go parser.go)', () => {
  const ski = (b: number) => ext(OIDS.subjectKeyIdentifier, tlv(0x04, bytes(b, b)));

  it('the same extension twice is refused as duplicate extensions', () => {
    const c = parseCertificateDer(cert({ extensions: [ski(1), ski(2)] }));
    expect(goParses(c)).toBe(false);
    expect(c.facts.goParseExpectation).toMatch(/duplicate extension/);
    expect(c.facts.extensions.map((e) => e.oid)).toEqual([OIDS.subjectKeyIdentifier, OIDS.subjectKeyIdentifier]);
  });

  it('different extensions are no duplicates', () => {
    const c = parseCertificateDer(cert({ extensions: [ski(1), ext(OIDS.basicConstraints, seq())] }));
    expect(c.facts.goParseExpectation).toBe('ok');
  });

  it('a v1 certificate without version field is read from its first field (the serial)', () => {
    const c = parseCertificateDer(cert({ version: null, serial: int(0x2a) }));
    expect(c.facts.version).toBe(1);
    expect(c.facts.serialDecimal).toBe('42');
    expect(c.facts.goParseExpectation).toBe('ok');
  });

  // RFC 5280 §4.1: issuerUniqueID [1] and subjectUniqueID [2] (IMPLICIT BIT STRING) come between
  // the key and the extensions; Go's parseCertificate reads and skips them. Only [3] holds extensions.
  it('unique identifiers before the extensions are not read as extensions', () => {
    const fields = tbsFields({ extensions: [ski(1)] });
    const uids = [tlv(0x81, bytes(0x00, 0xff, 0xff)), tlv(0x82, bytes(0x00, 0x30, 0x03, 0x06, 0x01, 0x2a))];
    const c = parseCertificateDer(certFrom([...fields.slice(0, -1), ...uids, fields.at(-1)!]));
    expect(c.facts.goParseExpectation).toBe('ok');
    expect(c.facts.extensions.map((e) => e.oid)).toEqual([OIDS.subjectKeyIdentifier]);
  });

  it('a negative serial and a duplicate extension are two separate reasons', () => {
    const c = parseCertificateDer(cert({ serial: int(0x80), extensions: [ski(1), ski(1)] }));
    const reasons = c.facts.goParseExpectation.replace(/^rejected \((.*)\)$/, '$1').split('; ');
    expect(reasons.some((r) => r.startsWith('negative serial'))).toBe(true);
    expect(reasons).toContain('duplicate extension');
  });

  it('each extension keeps its OID, name and criticality; an unknown critical one is unhandled (Go: UnhandledCriticalExtension)', () => {
    const c = parseCertificateDer(cert({ extensions: [ext('1.2.3.4.5.6', tlv(0x05, new Uint8Array(0)), true), ext(OIDS.basicConstraints, seq(), true)] }));
    expect(c.facts.extensions.map((e) => [e.oid, e.critical])).toEqual([
      ['1.2.3.4.5.6', true],
      [OIDS.basicConstraints, true],
    ]);
    expect(c.facts.extensions[1]!.name).toBe('X509v3 Basic Constraints');
    expect(c.facts.unhandledCriticalExtensions).toEqual(['1.2.3.4.5.6']);
  });

  it('an unknown non-critical extension is not unhandled', () => {
    const c = parseCertificateDer(cert({ extensions: [ext('1.2.3.4.5.6', tlv(0x05, new Uint8Array(0)))] }));
    expect(c.facts.unhandledCriticalExtensions).toEqual([]);
  });
});

// A name with a UTF8String CN is read back as its text (openssl: "Subject: CN = Subject").
describe('names', () => {
  it('subject and issuer CNs', () => {
    const f = parseCertificateDer(cert({ subject: seq(set(seq(oid('2.5.4.3'), utf8('S')))), issuer: name('I') })).facts;
    expect(f.subjectCommonName).toBe('S');
    expect(f.issuer).toMatch(/I$/);
  });
});
