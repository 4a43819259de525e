// completeCertificate (src/core/pki/digest.ts): the asynchronous facts of a certificate.
// - Fingerprints are SHA-256 / SHA-1 of the DER, the SPKI digest SHA-256 of the
//   SubjectPublicKeyInfo (what `openssl x509 -fingerprint` and Envoy's
//   verify_certificate_spki print), computed here with node:crypto as the reference.
// - "Self-signed" is RFC 5280 §3.2's self-signed: a self-issued certificate (subject equals
//   issuer) whose own key verifies its signature. A certificate signed by its own key under
//   another issuer name is not self-signed (Go's buildChains, too, only treats a certificate as
//   its own parent when the names match: verify.go findPotentialParents by subject).
// - A certificate is completed once: a second call, even with another checker, runs no
//   signature check (SignatureChecker.checks counts the WebCrypto checks run).
import * as nodeCrypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseCertificateDer } from '../../src/core/pki/cert.ts';
import { completeCertificate } from '../../src/core/pki/digest.ts';
import { SignatureChecker } from '../../src/core/pki/sig.ts';
import { issue, keys, root } from './pkiBuilder.ts';

const colon = (h: string) => h.toUpperCase().match(/../g)!.join(':');

describe('completeCertificate', () => {
  it('fills the fingerprints and the SPKI digest', async () => {
    const r = await root({ subject: 'CN=Digest Root' });
    const c = await completeCertificate(parseCertificateDer(r.der), new SignatureChecker());
    const sha256 = nodeCrypto.createHash('sha256').update(r.der).digest('hex');
    expect(c.facts.sha256FingerprintHex.toLowerCase()).toBe(sha256);
    expect(c.facts.sha256Fingerprint.toUpperCase()).toBe(colon(sha256));
    expect(c.facts.sha1Fingerprint.toUpperCase()).toBe(colon(nodeCrypto.createHash('sha1').update(r.der).digest('hex')));
    expect(c.facts.publicKey.spkiSha256?.toLowerCase()).toBe(nodeCrypto.createHash('sha256').update(c.spkiDer).digest('hex'));
  });
  it('a self-issued certificate signed by its own key is self-signed; by another key, not', async () => {
    const r = await root({ subject: 'CN=Digest Root' });
    expect(r.cert.facts.selfSigned).toBe(true);
    const other = await issue({ subject: 'CN=Digest Root', issuer: r, ca: true });
    expect(other.cert.facts.selfIssued).toBe(true);
    expect(other.cert.facts.selfSigned).toBe(false);
  });
  it('a certificate signed by its own key under another issuer name is not self-signed', async () => {
    const k = await keys('P-256');
    const b = await root({ subject: 'CN=B', keys: k });
    const a = await issue({ subject: 'CN=A', issuer: b, keys: k, ca: true });
    expect(a.cert.facts.selfIssued).toBe(false);
    expect(a.cert.facts.selfSigned).toBe(false);
  });
  it('is done once: completing again checks no signature', async () => {
    const r = await root({ subject: 'CN=Once' });
    const first = new SignatureChecker();
    const c = parseCertificateDer(r.der);
    await completeCertificate(c, first);
    expect(first.checks).toBe(1);
    const second = new SignatureChecker();
    expect(await completeCertificate(c, second)).toBe(c);
    expect(second.checks).toBe(0);
    expect(c.facts.selfSigned).toBe(true);
  });
});
