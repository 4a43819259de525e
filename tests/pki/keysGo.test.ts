// Private-key decoding (src/core/pki/keys.ts) against Go's crypto/x509 and an independent
// implementation. Keys are generated and exported by node:crypto (OpenSSL); the expected public
// half is always node's own SubjectPublicKeyInfo export of the same key, and the expected
// accept/reject decisions come from Go's source (crypto/x509/pkcs1.go, sec1.go, pkcs8.go,
// crypto/tls/tls.go parsePrivateKey) and Istio's ParsePemEncodedKey
// (security/pkg/pki/util/crypto.go). Edited encodings are built with the @peculiar/asn1-*
// schemas, as RFC 8017 (PKCS#1), RFC 5915 (SEC1) and RFC 5958 (PKCS#8) define them.
import 'reflect-metadata';
import * as nodeCrypto from 'node:crypto';
import * as asn1 from '@peculiar/asn1-schema';
import * as asnEcc from '@peculiar/asn1-ecc';
import * as asnPkcs8 from '@peculiar/asn1-pkcs8';
import * as asnX509 from '@peculiar/asn1-x509';
import { describe, expect, it } from 'vitest';
import {
  istioKeyVerdict,
  KeyParseError,
  parsePrivateKeyDer,
  privateKeyFacts,
  publicKeyOf,
  x509KeyPairError,
  type PrivateKeyFacts,
} from '../../src/core/pki/keys.ts';
import { decodePem } from '../../src/core/pki/pem.ts';

const OIDS = {
  rsa: '1.2.840.113549.1.1.1',
  ec: '1.2.840.10045.2.1',
  ed25519: '1.3.101.112',
  x25519: '1.3.101.110',
  ed448: '1.3.101.113',
  x448: '1.3.101.111',
  dsa: '1.2.840.10040.4.1',
  p256: '1.2.840.10045.3.1.7',
};

type Pair = nodeCrypto.KeyPairKeyObjectResult;
const der = (b: Buffer): Uint8Array => new Uint8Array(b);
const spkiOf = (p: Pair): Uint8Array => der(p.publicKey.export({ format: 'der', type: 'spki' }));
const pkcs8Of = (p: Pair): Uint8Array => der(p.privateKey.export({ format: 'der', type: 'pkcs8' }));
const sec1Of = (p: Pair): Uint8Array => der(p.privateKey.export({ format: 'der', type: 'sec1' }));
const pkcs1Of = (p: Pair): Uint8Array => der(p.privateKey.export({ format: 'der', type: 'pkcs1' }));
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const sha256Hex = (b: Uint8Array): string => nodeCrypto.createHash('sha256').update(b).digest('hex');

const rsa = nodeCrypto.generateKeyPairSync('rsa', { modulusLength: 1024 });
const ec = (namedCurve: string): Pair => nodeCrypto.generateKeyPairSync('ec', { namedCurve });
const p256 = ec('prime256v1');
const p384 = ec('secp384r1');
const p521 = ec('secp521r1');
const p224 = ec('secp224r1');

/** A copy of an RSAPrivateKey / ECPrivateKey with its leading `version INTEGER` (one byte) replaced. */
function withVersion(d: Uint8Array, v: number): Uint8Array {
  const out = d.slice();
  const hdr = out[1]! & 0x80 ? 2 + (out[1]! & 0x7f) : 2;
  expect([out[hdr], out[hdr + 1]]).toEqual([0x02, 0x01]);
  out[hdr + 2] = v;
  return out;
}

/** SEC1 ECPrivateKey with the optional [0] parameters and/or [1] publicKey left out (RFC 5915 §3). */
function sec1Without(p: Pair, drop: { params?: boolean; pub?: boolean }): Uint8Array {
  const k = asn1.AsnConvert.parse(sec1Of(p), asnEcc.ECPrivateKey);
  if (drop.params) k.parameters = undefined;
  if (drop.pub) k.publicKey = undefined;
  return new Uint8Array(asn1.AsnConvert.serialize(k));
}

/** PKCS#8 PrivateKeyInfo around an inner key; `params` undefined leaves AlgorithmIdentifier.parameters out. */
function wrapPkcs8(alg: string, params: Uint8Array | undefined, inner: Uint8Array): Uint8Array {
  const algorithm = new asnX509.AlgorithmIdentifier({ algorithm: alg, parameters: params ? params.slice().buffer : undefined });
  return new Uint8Array(
    asn1.AsnConvert.serialize(
      new asnPkcs8.PrivateKeyInfo({ version: 0, privateKeyAlgorithm: algorithm, privateKey: new asnPkcs8.PrivateKey(inner.slice().buffer) }),
    ),
  );
}
const P256_OID_DER = new Uint8Array([0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]);

async function facts(d: Uint8Array, pemType: string | null = null): Promise<PrivateKeyFacts> {
  return privateKeyFacts(parsePrivateKeyDer(d, pemType));
}

describe('PKCS#1 RSAPrivateKey (Go ParsePKCS1PrivateKey: version > 1 is "unsupported private key version")', () => {
  it("reads node's PKCS#1 export; the public half is node's SPKI", async () => {
    const k = parsePrivateKeyDer(pkcs1Of(rsa), 'RSA PRIVATE KEY');
    expect(k.encoding).toBe('PKCS#1');
    expect(k.algorithm).toBe(OIDS.rsa);
    expect(hexOf((await publicKeyOf(k))!)).toBe(hexOf(spkiOf(rsa)));
  });

  it('its PKCS#8 form is the RFC 5958 wrapping node writes for the same key', () => {
    // node's pkcs8 export of an RSA key is PrivateKeyInfo{0, rsaEncryption NULL, OCTET STRING(PKCS#1)}.
    const k = parsePrivateKeyDer(pkcs1Of(rsa), 'RSA PRIVATE KEY');
    expect(hexOf(k.pkcs8!)).toBe(hexOf(pkcs8Of(rsa)));
    expect(nodeCrypto.createPrivateKey({ key: Buffer.from(k.pkcs8!), format: 'der', type: 'pkcs8' }).asymmetricKeyType).toBe('rsa');
  });

  it('accepts version 1 (Go rejects only version > 1)', async () => {
    const k = parsePrivateKeyDer(withVersion(pkcs1Of(rsa), 1), 'RSA PRIVATE KEY');
    expect(k.encoding).toBe('PKCS#1');
    expect(istioKeyVerdict('RSA PRIVATE KEY', withVersion(pkcs1Of(rsa), 1))).toBe('supported');
  });

  it('rejects version 2, and Istio reports it as an RSA private key failure about the version', () => {
    const bad = withVersion(pkcs1Of(rsa), 2);
    expect(() => parsePrivateKeyDer(bad, 'RSA PRIVATE KEY')).toThrow(KeyParseError);
    const v = istioKeyVerdict('RSA PRIVATE KEY', bad);
    expect(v.startsWith('failed to parse the RSA private key: ')).toBe(true);
    expect(v).toMatch(/version/);
  });
});

describe('SEC1 ECPrivateKey (Go ParseECPrivateKey: version must be 1; no curve is "unknown elliptic curve")', () => {
  it('rejects version 2 and names the version; Istio says "failed to parse the ECDSA private key"', () => {
    const bad = withVersion(sec1Of(p256), 2);
    expect(() => parsePrivateKeyDer(bad, 'EC PRIVATE KEY')).toThrow(/version/);
    const v = istioKeyVerdict('EC PRIVATE KEY', bad);
    expect(v.startsWith('failed to parse the ECDSA private key: ')).toBe(true);
    expect(v).toMatch(/version/);
  });

  it('rejects a key with neither its own parameters nor a curve from a PKCS#8 wrapper', () => {
    const bad = sec1Without(p256, { params: true });
    expect(() => parsePrivateKeyDer(bad, 'EC PRIVATE KEY')).toThrow(KeyParseError);
    const v = istioKeyVerdict('EC PRIVATE KEY', bad);
    expect(v.startsWith('failed to parse the ECDSA private key: ')).toBe(true);
    expect(v).toMatch(/curve/);
  });

  it.each([
    ['P-256', p256],
    ['P-384', p384],
    ['P-521', p521],
  ])("%s without its public point: the public half is derived and equals node's SPKI", async (_n, p) => {
    const k = parsePrivateKeyDer(sec1Without(p, { pub: true }), 'EC PRIVATE KEY');
    expect(k.encoding).toBe('SEC1');
    expect(k.spki).toBeUndefined();
    expect(hexOf((await publicKeyOf(k))!)).toBe(hexOf(spkiOf(p)));
    const f = await facts(sec1Without(p, { pub: true }), 'EC PRIVATE KEY');
    expect(f.publicKey?.type).toBe('EC');
    expect(f.publicKey?.spkiSha256).toBe(sha256Hex(spkiOf(p)));
  });

  it('derives a point whose base64url (JWK) spelling has both "-" and "_" (RFC 7518 §6.2.1)', async () => {
    // Keys are drawn until node's own JWK export of the public point uses both URL-safe characters.
    let p = ec('prime256v1');
    const url = (k: Pair): string => {
      const j = k.publicKey.export({ format: 'jwk' });
      return `${j.x}${j.y}`;
    };
    while (!/-/.test(url(p)) || !/_/.test(url(p))) p = ec('prime256v1');
    const k = parsePrivateKeyDer(sec1Without(p, { pub: true }), 'EC PRIVATE KEY');
    expect(hexOf((await publicKeyOf(k))!)).toBe(hexOf(spkiOf(p)));
  });

  it.each(['ed25519', 'x25519'] as const)('derives a %s key whose JWK x has both "-" and "_"', async (type) => {
    const gen = (): Pair => nodeCrypto.generateKeyPairSync(type as 'ed25519');
    let p = gen();
    const x = (k: Pair): string => k.publicKey.export({ format: 'jwk' }).x!;
    while (!/-/.test(x(p)) || !/_/.test(x(p))) p = gen();
    const k = parsePrivateKeyDer(pkcs8Of(p), 'PRIVATE KEY');
    expect(hexOf((await publicKeyOf(k))!)).toBe(hexOf(spkiOf(p)));
  });

  it('P-224 (no WebCrypto curve) uses the public point the file carries', async () => {
    const f = await facts(sec1Of(p224), 'EC PRIVATE KEY');
    expect(f.publicKey?.spkiSha256).toBe(sha256Hex(spkiOf(p224)));
  });

  it('P-224 without its public point: nothing here can derive it, so no public half', async () => {
    const k = parsePrivateKeyDer(sec1Without(p224, { pub: true }), 'EC PRIVATE KEY');
    expect(k.pkcs8).toBeUndefined();
    await expect(publicKeyOf(k)).resolves.toBeUndefined();
    expect((await privateKeyFacts(k)).publicKey).toBeNull();
  });

  it('an empty [1] publicKey BIT STRING is treated as absent, not as a point', async () => {
    // P-224 so that WebCrypto cannot derive the point either: an absent point leaves no public half.
    const k = asn1.AsnConvert.parse(sec1Of(p224), asnEcc.ECPrivateKey);
    k.publicKey = new ArrayBuffer(0);
    const d = new Uint8Array(asn1.AsnConvert.serialize(k));
    expect(hexOf(d)).toMatch(/a103030100$/); // [1] { BIT STRING, no unused bits, no data }
    const key = parsePrivateKeyDer(d, 'EC PRIVATE KEY');
    expect(key.encoding).toBe('SEC1');
    await expect(publicKeyOf(key)).resolves.toBeUndefined();
  });

  it('its PKCS#8 form is importable by node as the same key', () => {
    const k = parsePrivateKeyDer(sec1Of(p384), 'EC PRIVATE KEY');
    const ko = nodeCrypto.createPrivateKey({ key: Buffer.from(k.pkcs8!), format: 'der', type: 'pkcs8' });
    expect(hexOf(der(nodeCrypto.createPublicKey(ko).export({ format: 'der', type: 'spki' })))).toBe(hexOf(spkiOf(p384)));
  });
});

describe('PKCS#8 PrivateKeyInfo (Go ParsePKCS8PrivateKey)', () => {
  it('EC: encoding PKCS#8, the curve from the key, the file itself is the PKCS#8 form', async () => {
    const d = pkcs8Of(p256);
    const k = parsePrivateKeyDer(d, 'PRIVATE KEY');
    expect(k.encoding).toBe('PKCS#8');
    expect(k.algorithm).toBe(OIDS.ec);
    expect(k.curveOid).toBe(OIDS.p256);
    expect(hexOf(k.pkcs8!)).toBe(hexOf(d));
    expect(hexOf((await publicKeyOf(k))!)).toBe(hexOf(spkiOf(p256)));
  });

  it("EC without AlgorithmIdentifier parameters: Go falls back to the inner key's curve and accepts it", async () => {
    const d = wrapPkcs8(OIDS.ec, undefined, sec1Of(p256));
    const k = parsePrivateKeyDer(d, 'PRIVATE KEY');
    expect(k.encoding).toBe('PKCS#8');
    expect(k.curveOid).toBe(OIDS.p256);
    expect(istioKeyVerdict('PRIVATE KEY', d)).toBe('supported');
    expect(hexOf((await publicKeyOf(k))!)).toBe(hexOf(spkiOf(p256)));
  });

  it('EC whose inner key has no curve takes it from the AlgorithmIdentifier, and derives the point', async () => {
    const d = wrapPkcs8(OIDS.ec, P256_OID_DER, sec1Without(p256, { params: true, pub: true }));
    const k = parsePrivateKeyDer(d, 'PRIVATE KEY');
    expect(k.encoding).toBe('PKCS#8');
    expect(k.curveOid).toBe(OIDS.p256);
    expect(hexOf((await publicKeyOf(k))!)).toBe(hexOf(spkiOf(p256)));
  });

  it("RSA: encoding PKCS#8, node's SPKI", async () => {
    const f = await facts(pkcs8Of(rsa), 'PRIVATE KEY');
    expect(f.encoding).toBe('PKCS#8');
    expect(f.publicKey?.type).toBe('RSA');
    expect(f.publicKey?.spkiSha256).toBe(sha256Hex(spkiOf(rsa)));
    expect(f.istioParsePemEncodedKey).toBe('supported');
  });

  it.each([
    ['ed25519', OIDS.ed25519],
    ['x25519', OIDS.x25519],
  ] as const)("%s (no public key in the file): derived, equal to node's SPKI (RFC 8410: parameters absent)", async (type, oid) => {
    const p = nodeCrypto.generateKeyPairSync(type as 'ed25519');
    const k = parsePrivateKeyDer(pkcs8Of(p), 'PRIVATE KEY');
    expect(k.algorithm).toBe(oid);
    expect(k.encoding).toBe('PKCS#8');
    expect(k.spki).toBeUndefined();
    expect(hexOf((await publicKeyOf(k))!)).toBe(hexOf(spkiOf(p)));
  });

  it.each([
    ['ed448', OIDS.ed448],
    ['x448', OIDS.x448],
  ] as const)('%s: recognised with its OID, kept as importable PKCS#8, but no public half derived here', async (type, oid) => {
    const p = nodeCrypto.generateKeyPairSync(type as 'ed448');
    const d = pkcs8Of(p);
    const k = parsePrivateKeyDer(d, 'PRIVATE KEY');
    expect(k.algorithm).toBe(oid);
    expect(k.encoding).toBe('PKCS#8');
    expect(hexOf(k.pkcs8!)).toBe(hexOf(d));
    await expect(publicKeyOf(k)).resolves.toBeUndefined();
  });

  it('DSA: recognised as PKCS#8 with its OID, nothing to import or derive', async () => {
    const p = nodeCrypto.generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 });
    const k = parsePrivateKeyDer(pkcs8Of(p), 'PRIVATE KEY');
    expect(k.algorithm).toBe(OIDS.dsa);
    expect(k.encoding).toBe('PKCS#8');
    expect(k.pkcs8).toBeUndefined();
    await expect(publicKeyOf(k)).resolves.toBeUndefined();
  });
});

describe('parsePrivateKeyDer tries every encoding, the labelled one first (Go tls.X509KeyPair parsePrivateKey ignores the label)', () => {
  it.each([
    ['PKCS#8 RSA under RSA PRIVATE KEY', () => pkcs8Of(rsa), 'RSA PRIVATE KEY', 'PKCS#8'],
    ['PKCS#8 EC under EC PRIVATE KEY', () => pkcs8Of(p256), 'EC PRIVATE KEY', 'PKCS#8'],
    ['PKCS#1 under PRIVATE KEY', () => pkcs1Of(rsa), 'PRIVATE KEY', 'PKCS#1'],
    ['PKCS#1 under EC PRIVATE KEY', () => pkcs1Of(rsa), 'EC PRIVATE KEY', 'PKCS#1'],
    ['SEC1 under PRIVATE KEY', () => sec1Of(p256), 'PRIVATE KEY', 'SEC1'],
    ['SEC1 under RSA PRIVATE KEY', () => sec1Of(p256), 'RSA PRIVATE KEY', 'SEC1'],
    ['SEC1 under an unknown label', () => sec1Of(p256), 'OPENSSH PRIVATE KEY', 'SEC1'],
  ])('%s', (_n, make, label, encoding) => {
    const k = parsePrivateKeyDer(make(), label);
    expect(k.encoding).toBe(encoding);
    expect(k.pemType).toBe(label);
  });

  it("when nothing fits, the error carries the labelled encoding's reason (here: the SEC1 version)", () => {
    const bad = withVersion(sec1Of(p256), 2);
    expect(() => parsePrivateKeyDer(bad, 'EC PRIVATE KEY')).toThrow(KeyParseError);
    expect(() => parsePrivateKeyDer(bad, 'EC PRIVATE KEY')).toThrow(/version/);
    expect(() => parsePrivateKeyDer(withVersion(pkcs1Of(rsa), 2), 'RSA PRIVATE KEY')).toThrow(/version/);
  });

  it("keeps its own copy of the bytes: overwriting the caller's buffer afterwards changes nothing", async () => {
    const d = sec1Of(p256);
    const k = parsePrivateKeyDer(d, 'EC PRIVATE KEY');
    const before = hexOf(k.der);
    d.fill(0);
    expect(hexOf(k.der)).toBe(before);
    expect(hexOf(k.pkcs8!)).not.toMatch(/^0+$/);
    expect(hexOf((await publicKeyOf(k))!)).toBe(hexOf(spkiOf(p256)));
  });

  it('reads a key that is a view into a larger buffer', async () => {
    const d = sec1Of(p256);
    const big = new Uint8Array(d.length + 16).fill(0x30);
    big.set(d, 8);
    const k = parsePrivateKeyDer(big.subarray(8, 8 + d.length), 'EC PRIVATE KEY');
    expect(hexOf((await publicKeyOf(k))!)).toBe(hexOf(spkiOf(p256)));
    expect(istioKeyVerdict('EC PRIVATE KEY', big.subarray(8, 8 + d.length))).toBe('supported');
  });
});

describe('istioKeyVerdict (Istio ParsePemEncodedKey switch on the block type)', () => {
  it('an unknown block type is Istio\'s "unsupported PEM block type for a private key: <type>"', () => {
    expect(istioKeyVerdict('OPENSSH PRIVATE KEY', sec1Of(p256))).toBe('unsupported PEM block type for a private key: OPENSSH PRIVATE KEY');
  });

  it.each([
    ['EC PRIVATE KEY', 'failed to parse the ECDSA private key: '],
    ['RSA PRIVATE KEY', 'failed to parse the RSA private key: '],
    ['PRIVATE KEY', 'failed to parse the PKCS8 private key: '],
  ])('garbage under %s is "%s<Go error>"', (type, prefix) => {
    const v = istioKeyVerdict(type, new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00]));
    expect(v.startsWith(prefix)).toBe(true);
    expect(v.length).toBeGreaterThan(prefix.length);
  });

  it('each type is parsed only as its own encoding (ParsePemEncodedKey does not fall back)', () => {
    expect(istioKeyVerdict('RSA PRIVATE KEY', pkcs8Of(rsa)).startsWith('failed to parse the RSA private key: ')).toBe(true);
    expect(istioKeyVerdict('PRIVATE KEY', sec1Of(p256)).startsWith('failed to parse the PKCS8 private key: ')).toBe(true);
    expect(istioKeyVerdict('EC PRIVATE KEY', pkcs1Of(rsa)).startsWith('failed to parse the ECDSA private key: ')).toBe(true);
  });

  it('DER without a PEM type has no ParsePemEncodedKey failure to report', async () => {
    expect((await facts(sec1Of(p256))).istioParsePemEncodedKey).toBe('supported');
  });
});

describe("istioKeyVerdict for keys our parser reads but Go refuses (Go 1.26 ParseECPrivateKey / ParsePKCS8PrivateKey on node's exports)", () => {
  // Errors printed by a Go program calling crypto/x509 on these exact encodings.
  it.each([
    ['secp256k1 SEC1', 'EC PRIVATE KEY', () => sec1Of(ec('secp256k1')), 'failed to parse the ECDSA private key: x509: unknown elliptic curve'],
    ['brainpoolP256r1 SEC1', 'EC PRIVATE KEY', () => sec1Of(ec('brainpoolP256r1')), 'failed to parse the ECDSA private key: x509: unknown elliptic curve'],
    [
      'secp256k1 PKCS#8',
      'PRIVATE KEY',
      () => pkcs8Of(ec('secp256k1')),
      'failed to parse the PKCS8 private key: x509: failed to parse EC private key embedded in PKCS#8: x509: unknown elliptic curve',
    ],
    [
      'Ed448',
      'PRIVATE KEY',
      () => pkcs8Of(nodeCrypto.generateKeyPairSync('ed448')),
      'failed to parse the PKCS8 private key: x509: PKCS#8 wrapping contained private key with unknown algorithm: 1.3.101.113',
    ],
    [
      'X448',
      'PRIVATE KEY',
      () => pkcs8Of(nodeCrypto.generateKeyPairSync('x448')),
      'failed to parse the PKCS8 private key: x509: PKCS#8 wrapping contained private key with unknown algorithm: 1.3.101.111',
    ],
    [
      'DSA',
      'PRIVATE KEY',
      () => pkcs8Of(nodeCrypto.generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 })),
      'failed to parse the PKCS8 private key: x509: PKCS#8 wrapping contained private key with unknown algorithm: 1.2.840.10040.4.1',
    ],
  ])('%s', (_n, type, make, verdict) => {
    expect(istioKeyVerdict(type, make())).toBe(verdict);
  });

  it.each([
    ['P-224 SEC1', 'EC PRIVATE KEY', () => sec1Of(p224)],
    ['X25519 PKCS#8', 'PRIVATE KEY', () => pkcs8Of(nodeCrypto.generateKeyPairSync('x25519'))],
    ['Ed25519 PKCS#8', 'PRIVATE KEY', () => pkcs8Of(nodeCrypto.generateKeyPairSync('ed25519'))],
  ])('%s is accepted by Go', (_n, type, make) => {
    expect(istioKeyVerdict(type, make())).toBe('supported');
  });
});

describe('x509KeyPairError (crypto/tls X509KeyPair: type, then public key equality)', () => {
  const f = (type: string | undefined, digest = 'aa'): PrivateKeyFacts => ({
    encoding: 'PKCS#8',
    pemType: 'PRIVATE KEY',
    istioParsePemEncodedKey: 'supported',
    publicKey: type ? ({ type, spkiSha256: digest } as PrivateKeyFacts['publicKey']) : null,
  });
  it('a key with no public half is an error distinct from a type mismatch', () => {
    const e = x509KeyPairError('EC', f(undefined), 'aa');
    expect(e).toBeTruthy();
    expect(e).not.toBe('tls: private key type does not match public key type');
    expect(e).not.toBe('tls: private key does not match public key');
  });
  it("Go's two mismatch errors, and a match", () => {
    expect(x509KeyPairError('EC', f('RSA'), 'aa')).toBe('tls: private key type does not match public key type');
    expect(x509KeyPairError('EC', f('EC', 'bb'), 'aa')).toBe('tls: private key does not match public key');
    expect(x509KeyPairError('EC', f('EC', 'aa'), 'aa')).toBeUndefined();
  });
});

describe("keys and PEM blocks Go reads whatever their label (group j's last survivors)", () => {
  it('reads a PKCS#1 key under any private key label, as tls.X509KeyPair tries PKCS#1, PKCS#8 and SEC1 in turn', () => {
    for (const label of ['PRIVATE KEY', 'EC PRIVATE KEY', 'RSA PRIVATE KEY']) expect(parsePrivateKeyDer(pkcs1Of(rsa), label).encoding, label).toBe('PKCS#1');
  });

  it('refuses an EC key on a curve Go does not know even when its OID is no curve at all (sec1.go namedCurveFromOID)', () => {
    const key = new asnEcc.ECPrivateKey({
      version: 1,
      privateKey: new asn1.OctetString(new Uint8Array(32).fill(7).buffer),
      parameters: new asnEcc.ECParameters({ namedCurve: '1.2.3.4.5' }),
    });
    expect(istioKeyVerdict('EC PRIVATE KEY', new Uint8Array(asn1.AsnConvert.serialize(key)))).toBe(
      'failed to parse the ECDSA private key: x509: unknown elliptic curve',
    );
  });
});

describe("Go's pem.Decode: an END line shorter than the type and five dashes", () => {
  it('is no end, even when the type itself ends in a dash (checked with Go 1.26: no block)', () => {
    expect(decodePem('-----BEGIN A------\nAAAA\n-----END A-----').block).toBeUndefined();
    expect(decodePem('-----BEGIN A------\nAAAA\n-----END A------').block?.type).toBe('A-');
  });
});
