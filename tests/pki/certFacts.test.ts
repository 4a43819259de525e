// cert.ts: the facts of a certificate's public key and extensions, on hand-built DER
// (tests/pki/certDer.ts) and real keys from node:crypto. Expected values: `openssl x509
// -text` (OpenSSL 3.0) of the same DER, Go's crypto/x509 (parser.go parsePublicKey,
// processExtensions, forEachSAN), RFC 5280 and the key RFCs cited per block.
import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { goParses, parseCertificateDer, publicKeyFacts, type Certificate, type ExtensionFacts } from '../../src/core/pki/cert.ts';
import { OIDS, alg, bitString, bytes, cert, ext, int, name, nul, octets, oid, seq, nodeSpki, spkiOf, tlv, utf8, ia5 } from './certDer.ts';

const withKey = (spki: Uint8Array): Certificate => parseCertificateDer(cert({ spki }));
const rsaSpki = (mod: number[], exp: number[], params: Uint8Array | undefined = nul(), algOid: string = OIDS.rsaEncryption) =>
  seq(alg(algOid, params), bitString(seq(int(...mod), int(...exp))));

// Key sizes: openssl's EVP_PKEY_get_bits (crypto/ec/ecx_key.h: X25519_BITS 253, X448_BITS 448,
// ED25519_BITS 256, ED448_BITS 456, i.e. RFC 8032's b = 256 and b = 456); OIDs from RFC 8410 §3.
describe('public keys of the RFC 8410 algorithms', () => {
  it.each([
    ['ed25519', 'Ed25519', OIDS.ed25519, 256],
    ['ed448', 'Ed448', OIDS.ed448, 456],
    ['x25519', 'X25519', OIDS.x25519, 253],
    ['x448', 'X448', OIDS.x448, 448],
  ] as const)('%s: type, bits and algorithm OID', (node, type, algOid, bits) => {
    const k = withKey(spkiOf(node)).facts.publicKey;
    expect(k.type).toBe(type);
    expect(k.bits).toBe(bits);
    expect(k.algorithmOid).toBe(algOid);
    expect(k.exponent).toBeUndefined();
    expect(k.curve).toBeUndefined();
  });

  it('publicKeyFacts leaves the SPKI digest empty until digestCertificate fills it in', () => {
    const k = publicKeyFacts(spkiOf('ed25519'));
    expect(k.algorithmOid).toBe(OIDS.ed25519);
    expect(k.spkiSha256).toBe('');
  });
});

// openssl -text of the same keys: "Public Key Algorithm: dsaEncryption" / "rsassaPss, Public-Key:
// (1024 bit)"; an unknown algorithm is printed by OID ("Unable to load Public Key"). RFC 5280
// §4.1.2.7: subjectPublicKey is a BIT STRING; for an unknown algorithm its size is all we know.
describe('other public key algorithms', () => {
  it('DSA', () => {
    const k = withKey(nodeSpki('dsa', { modulusLength: 1024, divisorLength: 160 })).facts.publicKey;
    expect(k.type).toBe('DSA');
    expect(k.algorithmOid).toBe(OIDS.dsa);
  });

  it('RSASSA-PSS (RFC 4055 id-RSASSA-PSS): an RSA key, 1024 bits, e = 65537', () => {
    const k = withKey(nodeSpki('rsa-pss', { modulusLength: 1024 })).facts.publicKey;
    expect(k.type).toBe('RSA-PSS');
    expect(k.bits).toBe(1024);
    expect(k.exponent).toBe(65537);
    expect(k.algorithmOid).toBe(OIDS.rsassaPss);
  });

  it('an unknown algorithm: its OID, and the bit string size in bits', () => {
    const k = withKey(seq(alg('1.2.3.4.99'), bitString(bytes(1, 2, 3, 4, 5)))).facts.publicKey;
    expect(k.type).toBe('unknown');
    expect(k.algorithmOid).toBe('1.2.3.4.99');
    expect(k.bits).toBe(40);
  });
});

// openssl -text (OpenSSL 3.0) of these hand-made RSA keys: "Public-Key: (24 bit)" and
// "Exponent: 32769 (0x8001)" for content 80 01 (openssl reads RSA integers unsigned);
// "Public-Key: (0 bit)" for a zero modulus; "(1 bit)" for content 00 00 01.
describe('RSA key sizes and exponents as openssl reads them', () => {
  it('an exponent whose first octet has the high bit set is read unsigned (openssl: 32769)', () => {
    const k = withKey(rsaSpki([0x00, 0xc3, 0x11, 0x22], [0x80, 0x01])).facts.publicKey;
    expect(k.type).toBe('RSA');
    expect(k.bits).toBe(24);
    expect(k.exponent).toBe(32769);
  });

  it('a zero modulus is 0 bits', () => {
    expect(withKey(rsaSpki([0x00], [0x01, 0x00, 0x01])).facts.publicKey.bits).toBe(0);
  });

  it('leading zero octets of the modulus are not counted', () => {
    const k = withKey(rsaSpki([0x00, 0x00, 0x01], [0x03])).facts.publicKey;
    expect(k.bits).toBe(1);
    expect(k.exponent).toBe(3);
  });
});

// openssl -text: "Public-Key: (256 bit)" and "ASN1 OID: secp256k1"; "(192 bit)" for
// prime192v1 (OID 1.2.840.10045.3.1.1, not in our table); "(256 bit)" and "Field Type:
// prime-field" (no curve name) for explicit parameters. RFC 5480 §2.1.1: namedCurve is an OID.
describe('EC keys', () => {
  it("secp256k1 is named by openssl's short name", () => {
    const k = withKey(nodeSpki('ec', { namedCurve: 'secp256k1' })).facts.publicKey;
    expect(k).toMatchObject({ type: 'EC', bits: 256, curve: 'secp256k1', curveOid: 'secp256k1', algorithmOid: OIDS.ecPublicKey });
  });

  it('a named curve outside the table keeps its OID; its size comes from the point (49 octets: 192 bits)', () => {
    const k = withKey(nodeSpki('ec', { namedCurve: 'prime192v1' })).facts.publicKey;
    expect(k.type).toBe('EC');
    expect(k.bits).toBe(192);
    expect(k.curve).toBe('1.2.840.10045.3.1.1');
    expect(k.curveOid).toBe('1.2.840.10045.3.1.1');
  });

  it('explicit curve parameters: no curve name, the size from the point (256 bits)', () => {
    const k = withKey(nodeSpki('ec', { namedCurve: 'P-256', paramEncoding: 'explicit' })).facts.publicKey;
    expect(k.type).toBe('EC');
    expect(k.bits).toBe(256);
    expect(k.curve).toBe('explicit parameters');
    expect(k.curveOid).toBe('explicit');
  });

  it('no parameters at all still reads as an EC key (no curve OID)', () => {
    const k = withKey(seq(alg(OIDS.ecPublicKey), bitString(new Uint8Array(65).fill(4)))).facts.publicKey;
    expect(k.type).toBe('EC');
    expect(k.bits).toBe(256);
    expect(k.curveOid).toBe('explicit');
  });

  it('an empty point is 0 bits, not negative', () => {
    const k = withKey(seq(alg(OIDS.ecPublicKey, oid('1.2.840.10045.3.1.1')), tlv(0x03, bytes(0)))).facts.publicKey;
    expect(k.bits).toBe(0);
  });
});

function extension(c: Certificate, o: string): ExtensionFacts {
  const e = c.facts.extensions.find((x) => x.oid === o);
  expect(e).toBeDefined();
  return e!;
}

// openssl -text of the same extensions (OpenSSL 3.0, X509V3_EXT_print): "CA:TRUE, pathlen:0",
// "CA:FALSE", "Policy: 2.23.140.1.2.1", "URI:http://crl.example/a.crl" (under "Full Name:"),
// "OCSP - URI:http://ocsp.example", "CA Issuers - URI:http://ca.example/ca.der",
// "01:02:03:AB" (authority key identifier). Names of the bits and purposes: RFC 5280 §4.2.1.3, §4.2.1.12.
describe('extension values', () => {
  // Parsed inside each test (not when the file is collected), so that mutation testing sees which test runs what.
  const c = (): Certificate =>
    parseCertificateDer(
      cert({
        extensions: [
          ext(OIDS.basicConstraints, seq(bytes(1, 1, 0xff), int(0)), true),
          ext(OIDS.keyUsage, tlv(0x03, bytes(0x05, 0xa0)), true),
          ext(OIDS.extKeyUsage, seq(oid('1.3.6.1.5.5.7.3.1'), oid('1.3.6.1.5.5.7.3.2'))),
          ext(OIDS.certificatePolicies, seq(seq(oid('2.23.140.1.2.1')), seq(oid('1.2.3.4.5')))),
          ext(
            OIDS.crlDistributionPoints,
            seq(
              seq(tlv(0xa0, tlv(0xa0, tlv(0x86, ia5('http://crl.example/a.crl'))))),
              seq(tlv(0xa0, tlv(0xa0, tlv(0x86, ia5('http://crl.example/b.crl'))))),
              seq(tlv(0x81, bytes(0x07, 0x80))),
            ),
          ),
          ext(
            OIDS.authorityInfoAccess,
            seq(
              seq(oid('1.3.6.1.5.5.7.48.1'), tlv(0x86, ia5('http://ocsp.example'))),
              seq(oid('1.3.6.1.5.5.7.48.2'), tlv(0x86, ia5('http://ca.example/ca.der'))),
              seq(oid('1.3.6.1.5.5.7.48.3'), tlv(0x86, ia5('http://ts.example'))),
            ),
          ),
          ext(OIDS.authorityKeyIdentifier, seq(tlv(0x80, bytes(1, 2, 3, 0xab)))),
          ext(OIDS.nameConstraints, seq(tlv(0xa0, seq(tlv(0x82, ia5('example.com')))), tlv(0xa1, seq(tlv(0x82, ia5('bad.example.com')))))),
        ],
      }),
    );

  it('Go parses all of them', () => {
    expect(c().facts.goParseExpectation).toBe('ok');
  });

  it('basic constraints: CA:TRUE, pathlen:0', () => {
    expect(c().facts.basicConstraints).toEqual({ present: true, critical: true, ca: true, pathLen: 0 });
    expect(c().facts.isCA).toBe(true);
    expect(c().facts.pathLen).toBe(0);
    expect(extension(c(), OIDS.basicConstraints).text).toBe('CA:TRUE, pathlen:0');
  });

  it('key usage: digitalSignature and keyEncipherment (bits 0 and 2)', () => {
    expect(c().facts.keyUsage).toEqual({ present: true, critical: true, usages: ['digitalSignature', 'keyEncipherment'] });
    expect(extension(c(), OIDS.keyUsage).text!.split(', ')).toEqual(['digitalSignature', 'keyEncipherment']);
  });

  it('extended key usage: serverAuth and clientAuth', () => {
    expect(c().facts.extKeyUsage.usages).toEqual(['serverAuth', 'clientAuth']);
    expect(c().ekuOids).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    expect(extension(c(), OIDS.extKeyUsage).text!.split(', ')).toEqual(['serverAuth', 'clientAuth']);
  });

  it('certificate policies: one "Policy: <OID>" per policy', () => {
    expect(extension(c(), OIDS.certificatePolicies).text!.split(', ')).toEqual(['Policy: 2.23.140.1.2.1', 'Policy: 1.2.3.4.5']);
  });

  it('CRL distribution points: the full names, and nothing for a point without one', () => {
    expect(extension(c(), OIDS.crlDistributionPoints).text!.split(', ')).toEqual(['URI:http://crl.example/a.crl', 'URI:http://crl.example/b.crl']);
  });

  it('authority information access: OCSP and CA Issuers by name, other methods by OID', () => {
    const lines = extension(c(), OIDS.authorityInfoAccess).text!.split(', ');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('OCSP - URI:http://ocsp.example');
    expect(lines[1]).toBe('CA Issuers - URI:http://ca.example/ca.der');
    expect(lines[2]).toMatch(/^\S.* - URI:http:\/\/ts\.example$/);
    expect(lines[2]).not.toMatch(/^(OCSP|CA Issuers) /);
  });

  it('authority key identifier: the key identifier in colon hex', () => {
    expect(c().facts.authorityKeyIdentifier).toBe('01:02:03:AB');
    expect(extension(c(), OIDS.authorityKeyIdentifier).text).toBe('01:02:03:AB');
  });

  it('name constraints: one line per subtree, permitted then excluded', () => {
    expect(c().facts.nameConstraints.present).toBe(true);
    const text = c().facts.nameConstraints.text;
    expect(text).toHaveLength(2);
    expect(text[0]).toMatch(/^Permitted: .*DNS:example\.com$/);
    expect(text[1]).toMatch(/^Excluded: .*DNS:bad\.example\.com$/);
    expect(extension(c(), OIDS.nameConstraints).text!.split('; ')).toEqual(text);
  });

  it('every extension is listed, critical ones marked', () => {
    expect(c().facts.extensions.map((e) => e.oid)).toEqual([
      OIDS.basicConstraints,
      OIDS.keyUsage,
      OIDS.extKeyUsage,
      OIDS.certificatePolicies,
      OIDS.crlDistributionPoints,
      OIDS.authorityInfoAccess,
      OIDS.authorityKeyIdentifier,
      OIDS.nameConstraints,
    ]);
    expect(c().facts.extensionsPresent.filter((p) => p.endsWith(' (critical)'))).toHaveLength(2);
    expect(c().facts.unhandledCriticalExtensions).toEqual([]);
  });
});

describe('extension values (absent parts)', () => {
  // openssl: "CA:FALSE"; the AKI is printed as "serial:05", with no key identifier.
  it('CA:FALSE without a path length; an AKI without key identifier', () => {
    const c = parseCertificateDer(cert({ extensions: [ext(OIDS.basicConstraints, seq()), ext(OIDS.authorityKeyIdentifier, seq(tlv(0x82, bytes(5))))] }));
    expect(c.facts.basicConstraints).toEqual({ present: true, critical: false, ca: false, pathLen: null });
    expect(extension(c, OIDS.basicConstraints).text).toBe('CA:FALSE');
    expect(c.facts.authorityKeyIdentifier).toBeNull();
    const aki = extension(c, OIDS.authorityKeyIdentifier).text!;
    expect(aki.length).toBeGreaterThan(0);
    expect(aki).not.toMatch(/[0-9A-F]{2}:/);
  });

  // RFC 5280 §4.2.1.9: pathLenConstraint only with cA TRUE; openssl prints "CA:TRUE" alone without it.
  it('CA:TRUE without a path length', () => {
    const c = parseCertificateDer(cert({ extensions: [ext(OIDS.basicConstraints, seq(bytes(1, 1, 0xff)))] }));
    expect(extension(c, OIDS.basicConstraints).text).toBe('CA:TRUE');
    expect(c.facts.pathLen).toBeNull();
  });
});

// An extension cert.ts does not decode is shown as its length and value octets (the first 32,
// then an ellipsis); openssl dumps the same octets in hex.
describe('unknown extensions', () => {
  const textOf = (value: Uint8Array) => extension(parseCertificateDer(cert({ extensions: [ext('1.2.3.4.5.6', value)] })), '1.2.3.4.5.6').text!;

  it('32 octets are shown whole', () => {
    const v = octets(new Uint8Array(30).fill(0xcd));
    const t = textOf(v);
    expect(t.startsWith('32 ')).toBe(true);
    expect(t.endsWith(Buffer.from(v).toString('hex'))).toBe(true);
  });

  it('33 octets: the first 32, then an ellipsis', () => {
    const v = octets(new Uint8Array(31).fill(0xab));
    const t = textOf(v);
    expect(t.startsWith('33 ')).toBe(true);
    expect(t).toContain(Buffer.from(v.subarray(0, 32)).toString('hex'));
    expect(t).not.toContain(Buffer.from(v).toString('hex'));
    expect(t.endsWith('…')).toBe(true);
  });
});

// Go's processExtensions refuses a certificate whose known extension does not decode
// (parser.go: "x509: invalid basic constraints", "x509: invalid subject key identifier", ...).
describe('malformed known extensions (Go processExtensions)', () => {
  it('a basic constraints value that is no SEQUENCE: Go refuses the certificate, naming that extension', () => {
    const c = parseCertificateDer(cert({ extensions: [ext(OIDS.basicConstraints, bytes(0x04, 0x00))] }));
    expect(goParses(c)).toBe(false);
    expect(c.facts.goParseExpectation).toMatch(/Basic Constraints/);
    expect(c.facts.basicConstraints.present).toBe(false);
    const e = extension(c, OIDS.basicConstraints);
    expect(e.text).toBeTruthy();
    expect(e.text).not.toMatch(/^CA:/);
  });

  it('a subject key identifier that is no OCTET STRING', () => {
    const c = parseCertificateDer(cert({ extensions: [ext(OIDS.subjectKeyIdentifier, seq())] }));
    expect(goParses(c)).toBe(false);
    expect(c.facts.goParseExpectation).toMatch(/Subject Key Identifier/);
    expect(c.facts.subjectKeyIdentifier).toBeNull();
  });
});

// openssl -text of this SAN: "DNS:a.example, DirName:/CN=Dir, Registered ID:1.2.3.4,
// othername: UPN::upn@example, email:me@example.com". Go's parseSANExtension keeps the
// DNS, email, URI and IP entries and skips the other tags (forEachSAN).
describe('subject alternative names of every kind', () => {
  const san = seq(
    tlv(0x82, ia5('a.example')),
    tlv(0xa4, name('Dir')),
    tlv(0x88, oid('1.2.3.4').subarray(2)),
    tlv(0xa0, oid('1.3.6.1.4.1.311.20.2.3'), tlv(0xa0, utf8('upn@example'))),
    tlv(0x81, ia5('me@example.com')),
  );
  const c = (): Certificate => parseCertificateDer(cert({ extensions: [ext(OIDS.subjectAltName, san, true)] }));

  it('DNS and email go to their lists; the directory name, registered ID and other name to "other"', () => {
    const s = c().facts.subjectAltName;
    expect(s.present).toBe(true);
    expect(s.critical).toBe(true);
    expect(s.dns).toEqual(['a.example']);
    expect(s.email).toEqual(['me@example.com']);
    expect(s.uri).toEqual([]);
    expect(s.ip).toEqual([]);
    expect(s.other).toHaveLength(3);
    expect(s.other[0]).toMatch(/^DirName:.*CN=Dir$/);
    expect(s.other[1]).toBe('Registered ID:1.2.3.4');
    expect(s.other[2]).toMatch(/^othername:.*1\.3\.6\.1\.4\.1\.311\.20\.2\.3/);
    expect(goParses(c())).toBe(true);
  });

  it('the extension line lists them in order, as openssl does', () => {
    const parts = extension(c(), OIDS.subjectAltName).text!.split(', ');
    expect(parts).toHaveLength(5);
    expect(parts[0]).toBe('DNS:a.example');
    expect(parts[1]).toMatch(/^DirName:/);
    expect(parts[2]).toBe('Registered ID:1.2.3.4');
    expect(parts[3]).toMatch(/^othername:/);
    expect(parts[4]).toBe('email:me@example.com');
  });

  it("the raw SAN value is kept for Go's alreadyInChain comparison", () => {
    expect(c().sanDer).toEqual(san);
  });
});
