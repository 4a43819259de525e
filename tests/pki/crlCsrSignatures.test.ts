// CRLs and CSRs as decoded for the certificate view, the signature checker's limits, and the
// byte helpers. Expected values come from openssl (its `crl -text` spelling of revoked serials),
// from X.509 (RFC 5280: a version 1 CRL has no version field and no extensions; extensions it
// does not know are kept), from WebCrypto's algorithm list, and from Go's hex decoding.
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import * as asn1 from '@peculiar/asn1-schema';
import * as asnX509 from '@peculiar/asn1-x509';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCrlDer, parseCsrDer } from '../../src/core/pki/crl.ts';
import { SignatureChecker, verifiable } from '../../src/core/pki/sig.ts';
import { equalBytes, fromHex, sha256 } from '../../src/core/pki/bytes.ts';
import type { PublicKeyFacts } from '../../src/core/pki/cert.ts';
import { issue, keys, NOW, DAY } from './pkiBuilder.ts';
import { scratchDir } from '../helpers/scratch.ts';

const OPENSSL = process.env.OPENSSL ?? 'openssl';

/** A CRL built field by field (signature not checked by the decoder): any version, algorithm and extensions. */
function crlDer(o: { version?: boolean; serials?: string[]; extensions?: asnX509.Extension[]; sigOid?: string }): Uint8Array {
  const tbs = new asnX509.TBSCertList({
    ...(o.version === false ? {} : { version: asnX509.Version.v2 }),
    signature: new asnX509.AlgorithmIdentifier({ algorithm: o.sigOid ?? '1.2.840.10045.4.3.2' }),
    issuer: asn1.AsnConvert.parse(new x509.Name('CN=CRL Issuer').toArrayBuffer(), asnX509.Name),
    thisUpdate: new asnX509.Time(new Date(NOW.getTime() - DAY)),
    nextUpdate: new asnX509.Time(new Date(NOW.getTime() + DAY)),
  });
  if (o.serials?.length)
    tbs.revokedCertificates = o.serials.map(
      (s) => new asnX509.RevokedCertificate({ userCertificate: new Uint8Array(Buffer.from(s, 'hex')).buffer, revocationDate: new asnX509.Time(NOW) }),
    );
  if (o.extensions?.length) tbs.crlExtensions = new asnX509.Extensions(o.extensions);
  const list = new asnX509.CertificateList({
    tbsCertList: tbs,
    signatureAlgorithm: new asnX509.AlgorithmIdentifier({ algorithm: o.sigOid ?? '1.2.840.10045.4.3.2' }),
    signature: new Uint8Array([0, 1, 2, 3]).buffer,
  });
  return new Uint8Array(asn1.AsnConvert.serialize(list));
}

const ext = (oid: string, value: ArrayBuffer) => new asnX509.Extension({ extnID: oid, critical: false, extnValue: new asn1.OctetString(value) });

/** The revoked serials `openssl crl -text` prints. */
function opensslSerials(der: Uint8Array): string[] {
  const dir = scratchDir('mwb-crl-');
  const file = join(dir, 'crl.der');
  writeFileSync(file, der);
  const r = spawnSync(OPENSSL, ['crl', '-inform', 'DER', '-noout', '-text', '-in', file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return [...r.stdout.matchAll(/Serial Number: ([0-9A-F]+)/g)].map((m) => m[1] as string);
}

describe('CRL decoding', () => {
  it('spells revoked serials as openssl crl -text does (leading zero bytes dropped, zero kept)', () => {
    // DER INTEGER contents: 0x008F is 143 (a zero byte before a high bit), 0x00 is zero.
    const der = crlDer({ serials: ['008f', '00', '0100', '7a', '008000'] });
    const ours = parseCrlDer(der).facts.revokedSerials;
    expect(ours).toEqual(['8F', '00', '0100', '7A', '8000']);
    if (spawnSync(OPENSSL, ['version']).status === 0) expect(ours).toEqual(opensslSerials(der));
  });

  it('reads a version 1 CRL, which has no version field (RFC 5280 5.1.2.1)', () => {
    const c = parseCrlDer(crlDer({ version: false, serials: ['05'] }));
    // Go's pkix.Name String() of the issuer: read from the right field when the version is absent.
    expect(c.facts.issuerGo).toBe('CN=CRL Issuer');
    expect(c.facts.revokedSerials).toEqual(['05']);
  });

  it('keeps the CRL number and AKI and passes over extensions it does not decode', () => {
    const crlNumber = asn1.AsnConvert.serialize(new asnX509.CRLNumber(42));
    const aki = asn1.AsnConvert.serialize(
      new asnX509.AuthorityKeyIdentifier({ keyIdentifier: new asnX509.KeyIdentifier(new Uint8Array([0xab, 0xcd]).buffer) }),
    );
    const deltaIndicator = asn1.AsnConvert.serialize(new asnX509.BaseCRLNumber(41));
    const c = parseCrlDer(crlDer({ extensions: [ext('2.5.29.27', deltaIndicator), ext('2.5.29.20', crlNumber), ext('2.5.29.35', aki)] }));
    expect(c.facts.crlNumber).toBe('42');
    expect(c.facts.authorityKeyIdentifier).toBe('AB:CD');
  });

  it('names a signature algorithm it does not know by its OID', () => {
    const c = parseCrlDer(crlDer({ sigOid: '1.2.3.4.5' }));
    expect(c.facts.signatureAlgorithm).toBe('1.2.3.4.5');
    expect(parseCrlDer(crlDer({})).facts.signatureAlgorithm).toBe('ecdsa-with-SHA256');
  });

  it('keeps its own copy of the bytes', () => {
    const der = crlDer({ serials: ['05'] });
    const c = parseCrlDer(der);
    const before = c.der.slice();
    der.fill(0);
    expect(equalBytes(c.der, before)).toBe(true);
  });
});

describe('CSR decoding', () => {
  async function csr(extensions: x509.Extension[]) {
    const k = await keys('P-256');
    const req = await x509.Pkcs10CertificateRequestGenerator.create({
      name: 'CN=requester',
      keys: { publicKey: k.publicKey, privateKey: k.privateKey },
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' } as Algorithm,
      extensions,
    });
    return parseCsrDer(new Uint8Array(req.rawData));
  }

  it('lists requested SANs in openssl spelling (DNS:, URI:), and none when there is no SAN', async () => {
    const none = await csr([new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature)]);
    expect(none.facts.requestedSans).toEqual([]);
    expect(none.facts.requestedExtensions).toEqual(['2.5.29.15']);
    const some = await csr([
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature),
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: 'a.example.com' },
        { type: 'url', value: 'spiffe://cluster.local/ns/a/sa/b' },
      ]),
    ]);
    expect(some.facts.requestedSans).toEqual(['DNS:a.example.com', 'URI:spiffe://cluster.local/ns/a/sa/b']);
    expect(some.facts.signatureAlgorithm).toBe('ecdsa-with-SHA256');
  });

  it('keeps its own copy of the bytes', async () => {
    const k = await keys('P-256');
    const req = await x509.Pkcs10CertificateRequestGenerator.create({
      name: 'CN=requester',
      keys: { publicKey: k.publicKey, privateKey: k.privateKey },
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' } as Algorithm,
    });
    const der = new Uint8Array(req.rawData);
    const parsed = parseCsrDer(der);
    const before = parsed.der.slice();
    der.fill(0);
    expect(equalBytes(parsed.der, before)).toBe(true);
  });
});

const RSA: PublicKeyFacts = { type: 'RSA', bits: 2048 } as PublicKeyFacts;
const PSS_KEY: PublicKeyFacts = { type: 'RSA-PSS', bits: 2048 } as PublicKeyFacts;
const EC = (curve: string): PublicKeyFacts => ({ type: 'EC', bits: 256, curve }) as PublicKeyFacts;

describe('what WebCrypto can verify (sig.ts verifiable)', () => {
  it('takes RSA and RSA-PSS keys and signatures for each other', () => {
    expect(verifiable('1.2.840.113549.1.1.11', PSS_KEY)).toBeUndefined();
    expect(verifiable('1.2.840.113549.1.1.10', RSA)).toBeUndefined();
    expect(verifiable('1.2.840.113549.1.1.11', RSA)).toBeUndefined();
  });

  it('says why it cannot: an unknown algorithm, a key of another type, DSA and Ed448, a curve WebCrypto lacks', () => {
    expect(verifiable('1.2.3.4', RSA)?.status).toBe('unverifiable');
    expect(verifiable('1.2.3.4', RSA)?.reason).toContain('1.2.3.4');
    const mismatch = verifiable('1.2.840.10045.4.3.2', RSA);
    expect(mismatch?.status).toBe('key-type-mismatch');
    expect(mismatch?.reason).toMatch(/EC.*RSA/);
    expect(verifiable('2.16.840.1.101.3.4.3.2', { type: 'DSA', bits: 2048 } as PublicKeyFacts)?.status).toBe('unverifiable');
    expect(verifiable('1.3.101.113', { type: 'Ed448', bits: 456 } as PublicKeyFacts)?.status).toBe('unverifiable');
    expect(verifiable('1.3.101.112', { type: 'Ed25519', bits: 256 } as PublicKeyFacts)).toBeUndefined();
    expect(verifiable('1.2.840.10045.4.3.2', EC('secp256k1'))).toMatchObject({ status: 'unverifiable', reason: expect.stringContaining('secp256k1') });
    expect(verifiable('1.2.840.10045.4.3.2', EC('P-256'))).toBeUndefined();
  });

  it('checks a signature once per pair, and calls bytes it cannot read unverifiable', async () => {
    const root = await issue({ subject: 'CN=Root', ca: true });
    const leaf = await issue({ subject: 'CN=leaf', issuer: root });
    const checker = new SignatureChecker();
    expect((await checker.certificate(leaf.cert, root.cert)).status).toBe('verified');
    expect((await checker.certificate(leaf.cert, root.cert)).status).toBe('verified');
    expect(checker.checks).toBe(1);
    const garbage = { ...leaf.cert, der: new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00]) };
    const r = await checker.certificate(garbage, root.cert);
    expect(r.status).toBe('unverifiable');
  });
});

describe('byte helpers', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("decodes hex as Go's hex.DecodeString does (whole string, even length), with openssl's colons and spaces allowed", () => {
    expect(fromHex('0aFF')).toEqual(new Uint8Array([0x0a, 0xff]));
    expect(fromHex('0a:ff')).toEqual(new Uint8Array([0x0a, 0xff]));
    expect(fromHex('zz0a')).toBeUndefined();
    expect(fromHex('0azz')).toBeUndefined();
    expect(fromHex('0a0')).toBeUndefined();
  });

  it('compares bytes by length too', () => {
    expect(equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false);
    expect(equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
  });

  it('says so when the platform has no WebCrypto', async () => {
    vi.stubGlobal('crypto', undefined);
    await expect(sha256(new Uint8Array([1]))).rejects.toThrow('WebCrypto is not available in this environment');
  });
});
