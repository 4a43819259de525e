// cert.ts: whether Go's x509.ParseCertificate accepts a certificate, for the public keys and
// subject alternative names where we used to disagree with Go. Expected values: Go 1.26's
// crypto/x509 (parser.go parsePublicKey, getPublicKeyAlgorithmFromOID in x509.go,
// namedCurveFromOID, forEachSAN), cross-checked by running Go 1.26.8's ParseCertificate on
// the same DER; the reason is Go's error text without its "x509: " prefix.
import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { goParseError, goParses, parseCertificateDer, type Certificate } from '../../src/core/pki/cert.ts';
import { OIDS, alg, bitString, bytes, cat, cert, ext, ia5, int, nul, oid, seq, set, nodeSpki, spkiOf, tlv, utf8 } from './certDer.ts';

const withKey = (spki: Uint8Array): Certificate => parseCertificateDer(cert({ spki }));
const rsaSpki = (mod: number[], exp: number[], params: Uint8Array | null) =>
  seq(params ? alg(OIDS.rsaEncryption, params) : alg(OIDS.rsaEncryption), bitString(seq(int(...mod), int(...exp))));

/** Go's reasons, one per problem (goParseExpectation is `rejected (a; b)`). */
function reasons(c: Certificate): string[] {
  const m = /^rejected \((.*)\)$/.exec(c.facts.goParseExpectation);
  return m ? m[1]!.split('; ') : [];
}

// parser.go parsePublicKey, case RSA: "x509: RSA key missing NULL parameters" unless the
// parameters are exactly NULL (05 00, RFC 3279 §2.3.1); then "x509: RSA modulus is not a
// positive number" for N <= 0 and "x509: RSA public exponent is not a positive number" for E <= 0.
describe('RSA keys (Go parsePublicKey)', () => {
  it('a well-formed key with NULL parameters is accepted', () => {
    const c = withKey(rsaSpki([0x00, 0xc3, 0x11, 0x22], [0x03], nul()));
    expect(c.facts.goParseExpectation).toBe('ok');
  });

  it('a real 2048-bit key is accepted', () => {
    expect(goParses(withKey(nodeSpki('rsa', { modulusLength: 2048 })))).toBe(true);
  });

  it.each([
    ['absent', null],
    ['an OID', oid('1.2.3')],
    ['a NULL with content', bytes(0x05, 0x01, 0x00)],
    ['an INTEGER 0', bytes(0x02, 0x01, 0x00)],
    ['an empty OCTET STRING (two octets, like NULL)', bytes(0x04, 0x00)],
  ])('parameters %s: RSA key missing NULL parameters', (_, params) => {
    expect(reasons(withKey(rsaSpki([0x00, 0xc3, 0x11, 0x22], [0x03], params)))).toEqual(['RSA key missing NULL parameters']);
  });

  it('a zero or negative modulus', () => {
    expect(reasons(withKey(rsaSpki([0x00], [0x01, 0x00, 0x01], nul())))).toEqual(['RSA modulus is not a positive number']);
    expect(reasons(withKey(rsaSpki([0xc3, 0x11, 0x22], [0x03], nul())))).toEqual(['RSA modulus is not a positive number']);
  });

  it('a zero or negative exponent', () => {
    expect(reasons(withKey(rsaSpki([0x00, 0xc3], [0x00], nul())))).toEqual(['RSA public exponent is not a positive number']);
    expect(reasons(withKey(rsaSpki([0x00, 0xc3, 0x11, 0x22], [0x80, 0x01], nul())))).toEqual(['RSA public exponent is not a positive number']);
  });

  it('a negative serial is reported first, then the key (the order Go reads them in)', () => {
    const c = parseCertificateDer(cert({ serial: int(0x80), spki: rsaSpki([0x00], [0x03], nul()) }));
    expect(c.facts.goParseExpectation).toMatch(/^rejected \(negative serial.*; RSA modulus is not a positive number\)$/);
  });

  it('RSASSA-PSS keys are not parsed by Go (UnknownPublicKeyAlgorithm): accepted', () => {
    expect(goParses(withKey(nodeSpki('rsa-pss', { modulusLength: 1024 })))).toBe(true);
  });
});

// parser.go parsePublicKey, case ECDSA: "x509: invalid ECDSA parameters" unless the parameters
// are an OID; "x509: unsupported elliptic curve" unless namedCurveFromOID knows it (P-224,
// P-256, P-384, P-521 only).
describe('EC keys (Go parsePublicKey, namedCurveFromOID)', () => {
  it.each(['P-224', 'P-256', 'P-384', 'P-521'])('%s is accepted', (curve) => {
    expect(withKey(nodeSpki('ec', { namedCurve: curve })).facts.goParseExpectation).toBe('ok');
  });

  it.each(['secp256k1', 'prime192v1', 'brainpoolP256r1'])('%s: unsupported elliptic curve', (curve) => {
    expect(reasons(withKey(nodeSpki('ec', { namedCurve: curve })))).toEqual(['unsupported elliptic curve']);
  });

  it('explicit curve parameters: invalid ECDSA parameters', () => {
    expect(reasons(withKey(nodeSpki('ec', { namedCurve: 'P-256', paramEncoding: 'explicit' })))).toEqual(['invalid ECDSA parameters']);
  });

  it('no parameters, or NULL: invalid ECDSA parameters', () => {
    const point = bitString(new Uint8Array(65).fill(4));
    expect(reasons(withKey(seq(alg(OIDS.ecPublicKey), point)))).toEqual(['invalid ECDSA parameters']);
    expect(reasons(withKey(seq(alg(OIDS.ecPublicKey, nul()), point)))).toEqual(['invalid ECDSA parameters']);
  });
});

// parser.go parsePublicKey, case Ed25519: "x509: Ed25519 key encoded with illegal parameters"
// (RFC 8410 §3: parameters MUST be absent); "x509: wrong Ed25519 public key size" unless 32
// octets. X25519, X448 and Ed448 keys are UnknownPublicKeyAlgorithm to Go: not parsed.
describe('RFC 8410 keys (Go parsePublicKey)', () => {
  it('a real Ed25519 key is accepted', () => {
    expect(goParses(withKey(spkiOf('ed25519')))).toBe(true);
  });

  it('Ed25519 with NULL parameters', () => {
    expect(reasons(withKey(seq(alg(OIDS.ed25519, nul()), bitString(new Uint8Array(32).fill(1)))))).toEqual(['Ed25519 key encoded with illegal parameters']);
  });

  it('Ed25519 keys of 31 and 33 octets', () => {
    expect(reasons(withKey(seq(alg(OIDS.ed25519), bitString(new Uint8Array(31).fill(1)))))).toEqual(['wrong Ed25519 public key size']);
    expect(reasons(withKey(seq(alg(OIDS.ed25519), bitString(new Uint8Array(33).fill(1)))))).toEqual(['wrong Ed25519 public key size']);
  });

  it('X25519 with parameters, X448 and Ed448 are not parsed by Go: accepted', () => {
    expect(goParses(withKey(seq(alg(OIDS.x25519, nul()), bitString(new Uint8Array(32).fill(1)))))).toBe(true);
    expect(goParses(withKey(spkiOf('x448')))).toBe(true);
    expect(goParses(withKey(spkiOf('ed448')))).toBe(true);
  });

  it('a DSA key is accepted', () => {
    expect(goParses(withKey(nodeSpki('dsa', { modulusLength: 1024, divisorLength: 160 })))).toBe(true);
  });
});

// parser.go forEachSAN: reads the SEQUENCE (ignoring what follows it) and hands every element
// to parseSANExtension, which keeps rfc822Name, dNSName, URI and iPAddress and skips the other
// tags: an x400Address [3] or ediPartyName [5] does not make Go refuse the certificate.
// A value that is not a SEQUENCE is "x509: invalid subject alternative names".
// openssl -text prints them as "X400Name:<unsupported>" and "EdiPartyName:<unsupported>".
describe('SANs with names Go skips (Go forEachSAN)', () => {
  const withSan = (v: Uint8Array) => parseCertificateDer(cert({ extensions: [ext(OIDS.subjectAltName, v)] }));

  it('an x400Address and an ediPartyName beside a DNS name and a URI: accepted, the DNS name and URI kept', () => {
    const c = withSan(seq(tlv(0x82, ia5('a.example')), tlv(0xa3), tlv(0xa5, tlv(0xa1, utf8('party'))), tlv(0x86, ia5('spiffe://td/ns/a/sa/b'))));
    expect(c.facts.goParseExpectation).toBe('ok');
    const s = c.facts.subjectAltName;
    expect(s.present).toBe(true);
    expect(s.dns).toEqual(['a.example']);
    expect(s.uri).toEqual(['spiffe://td/ns/a/sa/b']);
    expect(s.other).toHaveLength(2);
    expect(s.other.every((o) => o.length > 0)).toBe(true);
    expect(c.facts.spiffe.map((x) => x.trustDomain)).toEqual(['td']);
    const text = c.facts.extensions[0]!.text!.split(', ');
    expect(text).toHaveLength(4);
    expect(text[0]).toBe('DNS:a.example');
    expect(text[1]!.length).toBeGreaterThan(0);
    expect(text[1]).not.toMatch(/^:/);
  });

  it('bytes after the SEQUENCE are ignored, as Go does', () => {
    const c = withSan(cat(seq(tlv(0x82, ia5('a.example')), tlv(0xa3)), bytes(0, 0)));
    expect(c.facts.goParseExpectation).toBe('ok');
    expect(c.facts.subjectAltName.dns).toEqual(['a.example']);
  });

  it('a SET instead of a SEQUENCE is refused: invalid subject alternative names', () => {
    const c = withSan(set(tlv(0x82, ia5('a.example')), tlv(0xa3)));
    expect(goParses(c)).toBe(false);
    expect(c.facts.goParseExpectation).toMatch(/Subject Alternative Name/);
    expect(c.facts.subjectAltName.present).toBe(false);
  });
});

// The error itself, byte for byte, as the gateway credential checks and the Istio key-pair
// checks print it: Go stops at its first error, in parseCertificate's order (serial, public
// key, a repeated extension while the extensions are read, then each extension's contents in
// processExtensions). Each expected text is what Go 1.26.8's x509.ParseCertificate returned for
// the same DER.
describe("goParseError: Go's first error, as Go words it", () => {
  const rsa = (mod: number[]) => seq(alg(OIDS.rsaEncryption, nul()), bitString(seq(int(...mod), int(0x03))));
  const ku = () => ext(OIDS.keyUsage, bitString(bytes(0x05)));
  const notDecodable = (o: string) => ext(o, bytes(0x04, 0x00));
  it.each([
    ['a negative serial', cert({ serial: int(0x80) }), 'x509: negative serial number'],
    ['a negative serial and a bad key: the serial', cert({ serial: int(0x80), spki: rsa([0x00]) }), 'x509: negative serial number'],
    [
      'a bad key and a bad extension: the key',
      cert({ spki: rsa([0x00]), extensions: [notDecodable(OIDS.basicConstraints)] }),
      'x509: RSA modulus is not a positive number',
    ],
    [
      'a repeated extension, quoted with %q',
      cert({ extensions: [ku(), ext(OIDS.basicConstraints, seq()), ku()] }),
      'x509: certificate contains duplicate extension with OID "2.5.29.15"',
    ],
    [
      'a repeated extension after one that does not decode: the repeat (found while reading)',
      cert({ extensions: [notDecodable(OIDS.basicConstraints), ku(), ku()] }),
      'x509: certificate contains duplicate extension with OID "2.5.29.15"',
    ],
    [
      'two that do not decode: the first',
      cert({ extensions: [ext(OIDS.subjectKeyIdentifier, seq()), notDecodable(OIDS.basicConstraints)] }),
      'x509: invalid subject key identifier',
    ],
    ['basic constraints', cert({ extensions: [notDecodable(OIDS.basicConstraints)] }), 'x509: invalid basic constraints'],
    ['key usage', cert({ extensions: [ext(OIDS.keyUsage, seq())] }), 'x509: invalid key usage'],
    ['extended key usage', cert({ extensions: [notDecodable(OIDS.extKeyUsage)] }), 'x509: invalid extended key usages'],
    ['subject alternative names', cert({ extensions: [notDecodable(OIDS.subjectAltName)] }), 'x509: invalid subject alternative names'],
    ['authority key identifier', cert({ extensions: [notDecodable(OIDS.authorityKeyIdentifier)] }), 'x509: invalid authority key identifier'],
    ['name constraints', cert({ extensions: [notDecodable('2.5.29.30')] }), 'x509: invalid NameConstraints extension'],
    ['certificate policies', cert({ extensions: [notDecodable('2.5.29.32')] }), 'x509: invalid certificate policies'],
    ['CRL distribution points', cert({ extensions: [notDecodable('2.5.29.31')] }), 'x509: invalid CRL distribution points'],
    ['authority information access', cert({ extensions: [notDecodable('1.3.6.1.5.5.7.1.1')] }), 'x509: invalid authority info access'],
  ])('%s', (_, der, error) => {
    expect(goParseError(parseCertificateDer(der))).toBe(error);
  });

  it('a certificate Go takes has none', () => {
    expect(goParseError(parseCertificateDer(cert({ extensions: [ku()] })))).toBeUndefined();
  });
});
