// The report an inspection ends with (src/core/pki/inspect.ts and the modules behind it): CRLs
// and what they say about the inputs, keys Istio cannot read, istioctl's per-certificate row and
// the time spans shown on each card. Expected values follow Go and istioctl:
// - a CRL is checked as Go's Certificate.CheckCRLSignature does: a parent with KeyUsage but
//   without cRLSign cannot sign it; an entry revokes the certificate of the same issuer and
//   serial (RFC 5280 5.3); nextUpdate is not checked by Istio;
// - an encrypted PKCS#8 key is not a key Go's x509.ParsePKCS8PrivateKey (and so Istio) reads;
// - istioctl's VALID CERT is `now.After(NotBefore) && NotAfter.After(now)` (strict at both ends),
//   and its TRUST DOMAIN is the host of the last spiffe:// URI SAN
//   (istioctl/pkg/writer/compare/sds/util.go secretMetaFromCert).
import 'reflect-metadata';
import * as nodeCrypto from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { humanSpan, inspect, istioctlRow } from '../../src/core/pki/inspect.ts';
import { encodePem } from '../../src/core/pki/pem.ts';
import { DAY, KU, NOW, leaf, root, type Issued } from './pkiBuilder.ts';
import { keyPem, pem } from './istioFixtures.ts';

async function crl(issuer: Issued, opts: { revoked?: Issued[]; nextUpdate: Date }): Promise<string> {
  const c = await x509.X509CrlGenerator.create({
    issuer: issuer.x.subject,
    thisUpdate: new Date(NOW.getTime() - 10 * DAY),
    nextUpdate: opts.nextUpdate,
    entries: (opts.revoked ?? []).map((r) => ({ serialNumber: r.x.serialNumber, revocationDate: new Date(NOW.getTime() - 5 * DAY) })),
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    signingKey: issuer.keys.privateKey,
  });
  return encodePem('X509 CRL', new Uint8Array(c.rawData));
}

describe('CRLs', () => {
  it('a CRL of an input CA: signed by it, revoking an input certificate, past its nextUpdate', async () => {
    const ca = await root();
    const revoked = await leaf(ca, { subject: 'CN=revoked' });
    const kept = await leaf(ca, { subject: 'CN=kept' });
    const r = await inspect(
      [
        { name: 'certs.pem', text: pem(revoked, kept, ca) },
        { name: 'ca.crl', text: await crl(ca, { revoked: [revoked], nextUpdate: new Date(NOW.getTime() - DAY) }) },
      ],
      { now: NOW },
    );
    expect(r.crls).toHaveLength(1);
    expect(r.crls[0]!.signedBy.map((s) => s.id)).toEqual([ca.cert.facts.sha256FingerprintHex]);
    expect(r.crls[0]!.expired).toBe(true);
    const revokes = r.findings.filter((f) => f.id === 'CRL_REVOKES_INPUT');
    expect(revokes).toHaveLength(1);
    expect(revokes[0]!.severity).toBe('error');
    expect(revokes[0]!.message).toContain(revoked.cert.facts.serialHex);
    expect(r.findings.find((f) => f.id === 'CRL_EXPIRED')?.severity).toBe('warning');
    expect(r.findings.map((f) => f.id)).not.toContain('CRL_ISSUER_NO_CRLSIGN');
  });

  it('a CRL signed by a CA whose KeyUsage lacks cRLSign: the signature verifies, Go refuses the issuer', async () => {
    const ca = await root({ keyUsage: KU.keyCertSign });
    const r = await inspect(
      [
        { name: 'ca.pem', text: pem(ca) },
        { name: 'ca.crl', text: await crl(ca, { nextUpdate: new Date(NOW.getTime() + DAY) }) },
      ],
      { now: NOW },
    );
    expect(r.crls[0]!.signedBy.map((s) => s.id)).toEqual([ca.cert.facts.sha256FingerprintHex]);
    expect(r.crls[0]!.expired).toBe(false);
    const f = r.findings.find((x) => x.id === 'CRL_ISSUER_NO_CRLSIGN')!;
    expect(f.severity).toBe('error');
    expect(f.message).toContain('x509: invalid signature: parent certificate cannot sign this kind of certificate');
  });
});

describe('keys', () => {
  it('an encrypted PKCS#8 key: listed, unreadable for Istio', async () => {
    const ca = await root();
    const pkcs8 = await keyPem(ca.keys);
    const encrypted = nodeCrypto.createPrivateKey(pkcs8).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' }) as string;
    const r = await inspect([{ name: 'key.pem', text: encrypted }], { now: NOW });
    expect(r.keys.map((k) => [k.state, k.pemType, k.publicKey])).toEqual([['encrypted', 'ENCRYPTED PRIVATE KEY', null]]);
    expect(r.findings.find((f) => f.id === 'KEY_ENCRYPTED')?.severity).toBe('error');
    expect(r.privateKeys).toBe(true);
  });

  it('a readable key matches the certificate with its public key, and its body is masked', async () => {
    const ca = await root();
    const r = await inspect(
      [
        { name: 'ca.pem', text: pem(ca) },
        { name: 'ca-key.pem', text: await keyPem(ca.keys) },
      ],
      { now: NOW },
    );
    expect(r.keys).toHaveLength(1);
    expect(r.keys[0]!.matches).toEqual([ca.cert.facts.sha256FingerprintHex]);
    expect(r.keys[0]!.masked).toMatch(/^-----BEGIN PRIVATE KEY----- •••••••• \([\d,]+ bytes, masked\)$/);
    expect(r.privateKeys).toBe(true);
  });
});

describe("istioctl's row of a certificate", () => {
  it('VALID CERT is false at both ends of the window; TRUST DOMAIN is the last SPIFFE URI', async () => {
    const notBefore = new Date(NOW.getTime() - DAY);
    const notAfter = new Date(NOW.getTime() + DAY);
    const ca = await root();
    const w = await leaf(ca, { notBefore, notAfter, san: [{ uri: 'spiffe://first.domain/ns/a/sa/b' }, { uri: 'spiffe://second.domain/ns/a/sa/b' }] });
    expect(istioctlRow(w.cert, NOW)).toMatchObject({ TYPE: 'Cert Chain', 'VALID CERT': true, 'TRUST DOMAIN': 'second.domain' });
    expect(istioctlRow(w.cert, notBefore)['VALID CERT']).toBe(false);
    expect(istioctlRow(w.cert, notAfter)['VALID CERT']).toBe(false);
    expect(istioctlRow(ca.cert, NOW)).toMatchObject({ TYPE: 'CA', 'TRUST DOMAIN': '' });
  });

  it('is on every certificate card, with the time left', async () => {
    const ca = await root({ notBefore: new Date(NOW.getTime() - 30 * DAY), notAfter: new Date(NOW.getTime() + 3 * DAY) });
    const gone = await leaf(ca, { notBefore: new Date(NOW.getTime() - 30 * DAY), notAfter: new Date(NOW.getTime() - 2 * DAY) });
    const r = await inspect([{ name: 'certs.pem', text: pem(ca, gone) }], { now: NOW });
    const card = (i: Issued) => r.certificates.find((c) => c.id === i.cert.facts.sha256FingerprintHex)!;
    expect(card(ca).expiresIn).toBe('expires in 3 days');
    expect(card(ca).istioctl?.['VALID CERT']).toBe(true);
    expect(card(gone).expiresIn).toBe('expired 2 days ago');
    expect(card(gone).istioctl?.['VALID CERT']).toBe(false);
    expect(card(gone).lifeUsed).toBeNull();
  });
});

describe('humanSpan', () => {
  it('says the largest whole unit, ahead or ago', () => {
    expect(humanSpan(3 * DAY + 5 * 3600000)).toBe('in 3 days');
    expect(humanSpan(-2 * 365 * DAY)).toBe('2 years ago');
    expect(humanSpan(3600000)).toBe('in 1 hour');
    expect(humanSpan(45 * DAY)).toBe('in 1 month');
    expect(humanSpan(-90000)).toBe('1 minute ago');
    expect(humanSpan(0)).toBe('in 0 minutes');
  });
});
