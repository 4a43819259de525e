import { describe, expect, it } from 'vitest';
import {
  checkKeyPair,
  decodeBase64Std,
  decodePem,
  decodePemBundle,
  encodePem,
  extractCertAndKey,
  parseCertificateDer,
  parseCertificatesDer,
  parsePrivateKeyDer,
  privateKeyFacts,
  completeCertificate,
  SignatureChecker,
  validateCertificateChain,
  validateGatewayCredential,
} from '../../../../src/core/pki/index.ts';
import { DAY_MS, makeCredential, type KeyAlg } from './certs.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const data = (o: Record<string, string>) => new Map(Object.entries(o).map(([k, v]) => [k, enc(v)]));

describe('pki: base64 and PEM', () => {
  it('decodes base64 like Go StdEncoding (padding required, line breaks ignored)', () => {
    expect(new TextDecoder().decode(decodeBase64Std('aGVs\nbG8='))).toBe('hello');
    expect(decodeBase64Std('aGVsbG8')).toBeUndefined();
    expect(decodeBase64Std('aGVs bG8=')).toBeUndefined();
    expect(decodeBase64Std('aG=sbG8=')).toBeUndefined();
    expect(decodeBase64Std('')).toEqual(new Uint8Array());
  });

  it('finds blocks after junk, reads headers, skips malformed candidates and returns the rest', () => {
    const body = encodePem('THING', new Uint8Array([1, 2, 3, 4, 5]));
    const text = `junk line\n-----BEGIN BROKEN-----\nnot base64!\n-----END BROKEN-----\n${body.replace('-----BEGIN THING-----\n', '-----BEGIN THING-----\nProc-Type: 4,ENCRYPTED\n')}tail`;
    const { block, rest } = decodePem(text);
    expect(block?.type).toBe('THING');
    expect(block?.headers).toEqual({ 'Proc-Type': '4,ENCRYPTED' });
    expect([...(block?.bytes ?? [])]).toEqual([1, 2, 3, 4, 5]);
    expect(rest).toBe('tail');
    expect(decodePem('no pem here').block).toBeUndefined();
    // END type must match BEGIN type.
    expect(decodePem('-----BEGIN A-----\nAQID\n-----END B-----\n').block).toBeUndefined();
    expect(decodePemBundle(encodePem('A', new Uint8Array([1])) + encodePem('B', new Uint8Array([2]))).map((b) => b.type)).toEqual(['A', 'B']);
  });
});

describe('pki: certificates and keys', () => {
  const algs: KeyAlg[] = ['rsa', 'P-256', 'P-384', 'P-521'];
  for (const alg of algs) {
    it(`matches ${alg} keys (PKCS#8 and legacy encodings) against their certificate by public-key digest`, async () => {
      const a = await makeCredential({ alg, cn: 'a.example.com' });
      const b = await makeCredential({ alg });
      expect((await checkKeyPair(a.certPem, a.keyPem)).ok).toBe(true);
      expect((await checkKeyPair(a.certPem, a.legacyKeyPem)).ok).toBe(true);
      expect(await checkKeyPair(a.certPem, b.keyPem)).toEqual({ ok: false, error: 'tls: private key does not match public key' });
      const cert = await completeCertificate(parseCertificateDer(decodePem(a.certPem).block!.bytes), new SignatureChecker());
      expect(cert.facts.subject).toBe('CN=a.example.com');
      for (const [pem, expected] of [
        [a.legacyKeyPem, true],
        [b.keyPem, false],
      ] as const) {
        const block = decodePem(pem).block!;
        const facts = await privateKeyFacts(parsePrivateKeyDer(block.bytes, block.type));
        expect(facts.publicKey!.spkiSha256 === cert.facts.publicKey.spkiSha256).toBe(expected);
      }
    });
  }

  it('tells RSA and EC keys apart and rejects garbage keys', async () => {
    const rsa = await makeCredential({ alg: 'rsa' });
    const ec = await makeCredential({ alg: 'P-256' });
    expect(await checkKeyPair(rsa.certPem, ec.keyPem)).toEqual({ ok: false, error: 'tls: private key type does not match public key type' });
    expect(() => parsePrivateKeyDer(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x05]))).toThrow();
    expect((await checkKeyPair(rsa.certPem, 'nothing')).ok).toBe(false);
  });

  it('parses several DER certificates in one block (Go ParseCertificates) and none in an empty one', async () => {
    const a = await makeCredential();
    const b = await makeCredential();
    const da = decodePem(a.certPem).block!.bytes;
    const db = decodePem(b.certPem).block!.bytes;
    const both = new Uint8Array([...da, ...db]);
    expect(parseCertificatesDer(both)).toHaveLength(2);
    expect(parseCertificatesDer(new Uint8Array())).toEqual([]);
    expect(() => parseCertificatesDer(new Uint8Array([...da, 0x30, 0x01]))).toThrow();
    expect(validateCertificateChain(enc(encodePem('CERTIFICATE', both))).ok).toBe(true);
    expect(validateCertificateChain(enc('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n')).ok).toBe(true);
  });
});

describe("pki: istiod's gateway credential checks", () => {
  it('prefers cert/key, falls back to tls.crt/tls.key, and explains what is missing', () => {
    expect(extractCertAndKey(data({ cert: 'A', key: 'B', 'tls.crt': 'C', 'tls.key': 'D' }))).toMatchObject({ ok: true, value: { cert: enc('A') } });
    expect(extractCertAndKey(data({ cert: '', key: '', 'tls.crt': 'C', 'tls.key': 'D' }))).toMatchObject({ ok: true, value: { cert: enc('C') } });
    expect(extractCertAndKey(data({ cert: '', key: '' }))).toEqual({ ok: false, error: 'found keys "cert" and "key", but they were empty' });
    expect(extractCertAndKey(data({ 'tls.cert': 'x', a: '', b: '', c: '' }))).toEqual({
      ok: false,
      error: "found secret, but didn't have expected keys (cert and key) or (tls.crt and tls.key); found: a, b, c, and 1 more...",
    });
  });

  it('accepts a current certificate and rejects expired, future, non-PEM and non-certificate content', async () => {
    const now = Date.now();
    const good = await makeCredential();
    const expired = await makeCredential({ notBefore: new Date(now - 10 * DAY_MS), notAfter: new Date(now - DAY_MS) });
    const future = await makeCredential({ notBefore: new Date(now + DAY_MS), notAfter: new Date(now + 10 * DAY_MS) });
    const check = (cert: string, key = good.keyPem) => validateGatewayCredential(data({ 'tls.crt': cert, 'tls.key': key }));
    expect(check(good.certPem).ok).toBe(true);
    expect(check(expired.certPem)).toEqual({ ok: false, error: 'certificate is expired or not yet valid' });
    expect(check(future.certPem)).toEqual({ ok: false, error: 'certificate is expired or not yet valid' });
    expect(check('hush hush hush\n')).toEqual({ ok: false, error: 'pem decode failed' });
    // istiod does not look at the block type, but a key is not a certificate.
    expect(check(good.keyPem).ok).toBe(false);
    // Only the first block counts: a bad second block is ignored, a bad first one is not.
    expect(check(good.certPem + expired.certPem).ok).toBe(true);
    expect(check(expired.certPem + good.certPem).ok).toBe(false);
    // The key itself is not validated by istiod's gateway check.
    expect(check(good.certPem, 'garbage').ok).toBe(true);
  });
});
