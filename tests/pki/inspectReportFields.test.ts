// The fields of the report an inspection ends with (src/core/pki/reportBuild.ts, inspection.ts,
// inspect.ts): the certificate cards (roles, findings, expiry spans, life used, PEM, istioctl's
// row), keys, CRLs, CSRs, bundles, counts and the options it ran with. Expected values follow:
// - Go's crypto/x509: a certificate is valid from NotBefore to NotAfter inclusive
//   (verify.go: `now.Before(c.NotBefore)` / `now.After(c.NotAfter)` are the errors, RFC 5280
//   4.1.2.5 "inclusive"); Go >= 1.23 refuses negative serials (parser.go);
// - Go's crypto/tls X509KeyPair: "tls: private key does not match public key";
// - Istio's ParsePemEncodedKey (security/pkg/pki/util/crypto.go): "failed to parse the ECDSA
//   private key: …" when an EC PRIVATE KEY block holds something else;
// - istioctl's secret row (istioctl/pkg/writer/compare/sds/util.go secretMetaFromCert):
//   SERIAL NUMBER is `fmt.Sprintf("%032x", cert.SerialNumber)`, VALID CERT is
//   `today.After(NotBefore) && today.Before(NotAfter)`, TRUST DOMAIN the spiffe URI's host;
// - Go's crypto/rsa (Go 1.24) refuses RSA keys under 1024 bits; NIST SP 800-131A asks for 2048.
import 'reflect-metadata';
import * as nodeCrypto from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { humanSpan, inspect } from '../../src/core/pki/inspect.ts';
import { LINTS } from '../../src/core/pki/lints.ts';
import { encodePem } from '../../src/core/pki/pem.ts';
import type { CertsReport } from '../../src/core/pki/report.ts';
import { PRIVATE_KEY_MARKER } from '../../src/core/document/redactionMarkers.ts';
import { DAY, EKU, KU, NOW, intermediate, issue, keys, leaf, root, type Issued } from './pkiBuilder.ts';
import { asV1, keyPem, negativeSerial, pem } from './istioFixtures.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const fp = (i: Issued) => i.cert.facts.sha256FingerprintHex;
const card = (r: CertsReport, i: Issued) => r.certificates.find((c) => c.id === fp(i))!;
const ids = (r: CertsReport) => r.findings.map((f) => f.id);

function secret(name: string, data: Record<string, string>, extra: { labels?: Record<string, string> } = {}): string {
  const labels = extra.labels
    ? `  labels:\n${Object.entries(extra.labels)
        .map(([k, v]) => `    ${k}: ${JSON.stringify(v)}\n`)
        .join('')}`
    : '';
  const body = Object.entries(data)
    .map(([k, v]) => `  ${k}: ${b64(v)}\n`)
    .join('');
  return `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\n  namespace: istio-system\n${labels}data:\n${body}`;
}

async function crl(issuer: Issued, opts: { revoked?: Issued[]; nextUpdate?: Date } = {}): Promise<string> {
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

const rsaPkcs8 = (bits: number) => nodeCrypto.generateKeyPairSync('rsa', { modulusLength: bits }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

describe('roles of certificates no scenario names', () => {
  it('a self-signed CA is a root, a CA under it an intermediate, an end entity a leaf, a self-signed v1 certificate a root', async () => {
    const ca = await root();
    const mid = await intermediate(ca, 'CN=Mid');
    const ee = await leaf(mid);
    const selfBase = await issue({ subject: 'CN=v1 self', ca: null, keyUsage: null });
    const v1Self = await asV1(selfBase, selfBase.keys);
    const v1Leaf = await asV1(await leaf(ca, { subject: 'CN=v1 leaf' }), ca.keys);
    const selfEe = await issue({ subject: 'CN=self-signed server', ca: false });
    const r = await inspect([{ name: 'certs.pem', text: pem(ee, mid, ca, v1Self, v1Leaf, selfEe) }], { now: NOW, scenarios: false });
    expect(r.scenarios).toEqual([]);
    expect(card(r, ca).roles).toEqual(['root']);
    expect(card(r, mid).roles).toEqual(['intermediate']);
    expect(card(r, ee).roles).toEqual(['leaf']);
    // X.509 v1 has no BasicConstraints; a self-signed v1 certificate can only be a trust anchor.
    expect(card(r, v1Self).roles).toEqual(['root']);
    expect(card(r, v1Leaf).roles).toEqual(['leaf']);
    // A v3 certificate without cA=TRUE is an end entity even when self-signed (RFC 5280 4.2.1.9).
    expect(card(r, selfEe).roles).toEqual(['leaf']);
  });

  it('a certificate a scenario gave a role gets no generic one', async () => {
    const ca = await root({ subject: 'CN=Mesh Root' });
    const w = await leaf(ca, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }] });
    const dump = envoyDump(pem(w, ca), pem(ca));
    const r = await inspect([{ name: 'config_dump.json', text: JSON.stringify(dump) }], { now: NOW });
    expect(card(r, w).roles.length).toBeGreaterThan(0);
    expect(card(r, w).roles).not.toContain('leaf');
    // Only the first certificate of the chain is the workload's own.
    expect(card(r, w).roles).toContain('workload');
    expect(card(r, ca).roles).not.toContain('workload');
  });
});

function envoyDump(chain: string, rootPem: string, key = '[redacted]') {
  const entry = (name: string, body: object) => ({
    name,
    version_info: '2026-06-01T00:00:00Z/1',
    last_updated: '2026-06-01T00:00:00Z',
    secret: { '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret', name, ...body },
  });
  return {
    configs: [
      {
        '@type': 'type.googleapis.com/envoy.admin.v3.SecretsConfigDump',
        dynamic_active_secrets: [
          entry('default', { tls_certificate: { certificate_chain: { inline_bytes: b64(chain) }, private_key: { inline_bytes: b64(key) } } }),
          entry('ROOTCA', { validation_context: { trusted_ca: { inline_bytes: b64(rootPem) } } }),
        ],
      },
    ],
  };
}

describe("a certificate's findings", () => {
  it('the trust domain is checked for any certificate with a SPIFFE ID, workload or not; the message is title and detail', async () => {
    const ca = await root();
    const w = await leaf(ca, { subject: 'CN=w', san: [{ uri: 'spiffe://other.domain/ns/a/sa/b' }] });
    const plain = await leaf(ca, { subject: 'CN=plain' });
    const r = await inspect([{ name: 'certs.pem', text: pem(w, plain, ca) }], { now: NOW, scenarios: false });
    const f = card(r, w).findings.find((x) => x.id === 'TRUST_DOMAIN_MISMATCH')!;
    expect(f.severity).toBe('error');
    expect(f.message).toBe(`${LINTS.TRUST_DOMAIN_MISMATCH!.title}: other.domain is not cluster.local`);
    expect(f.subject).toEqual({ kind: 'certificate', id: fp(w), label: 'w' });
    expect(r.findings).toContainEqual(f);
    expect(card(r, plain).findings.map((x) => x.id)).not.toContain('TRUST_DOMAIN_MISMATCH');
  });

  it('a certificate without a CN is labelled by its subject, one with an empty subject by its fingerprint', async () => {
    const noCn = await root({ subject: 'O=Acme', noSki: true });
    const empty = await root({ subject: '', noSki: true, san: [{ dns: 'x.example' }] });
    const r = await inspect([{ name: 'certs.pem', text: pem(noCn, empty) }], { now: NOW, scenarios: false });
    const ski = card(r, noCn).findings.find((x) => x.id === 'CA_SKI_MISSING')!;
    expect(ski.subject).toEqual({ kind: 'certificate', id: fp(noCn), label: 'O=Acme' });
    expect(ski.message).toBe(LINTS.CA_SKI_MISSING!.title);
    const e = card(r, empty).findings[0]!;
    expect(e.subject.label).toBe(fp(empty).slice(0, 16));
  });

  it('CA KeyUsage without cRLSign is an error for a CA that issued one of the CRLs, info otherwise', async () => {
    const a = await root({ subject: 'CN=A', keyUsage: KU.keyCertSign, noSki: true });
    const b = await root({ subject: 'CN=B', keyUsage: KU.keyCertSign });
    const c = await root({ subject: 'CN=C', keyUsage: KU.keyCertSign });
    const r = await inspect(
      [
        { name: 'ca.pem', text: pem(a, b, c) },
        { name: 'a.crl', text: await crl(a, { nextUpdate: new Date(NOW.getTime() + DAY) }) },
        { name: 'b.crl', text: await crl(b, { nextUpdate: new Date(NOW.getTime() + DAY) }) },
      ],
      { now: NOW, scenarios: false },
    );
    const sev = (i: Issued, id: string) => card(r, i).findings.find((x) => x.id === id)?.severity;
    expect(sev(a, 'CA_KU_NO_CRLSIGN')).toBe('error');
    expect(sev(b, 'CA_KU_NO_CRLSIGN')).toBe('error');
    expect(sev(c, 'CA_KU_NO_CRLSIGN')).toBe('info');
    // Only that lint is raised: the others keep their own severity.
    expect(sev(a, 'CA_SKI_MISSING')).toBe('warning');
  });
});

describe('bundles and blocks Go skips', () => {
  it('a value with two or more certificates is a bundle; a duplicate is a warning on the value', async () => {
    const ca = await root();
    const ee = await leaf(ca);
    const r = await inspect(
      [
        { name: 'one.pem', text: pem(ca) },
        { name: 'dup.pem', text: pem(ee, ca, ca) },
      ],
      { now: NOW, scenarios: false },
    );
    expect(r.bundles.map((b) => [b.origin.label, b.certs])).toEqual([['dup.pem', [fp(ee), fp(ca), fp(ca)]]]);
    const f = r.findings.find((x) => x.id === 'BUNDLE_DUPLICATE_CERT')!;
    expect(f.severity).toBe('warning');
    expect(f.message).toBe(`dup.pem: ${LINTS.BUNDLE_DUPLICATE_CERT!.title}`);
    expect(f.subject).toEqual({ kind: 'value', id: 'dup.pem', label: 'dup.pem' });
  });

  it("indented PEM markers: Go's pem.Decode does not see the block, a warning on the value", async () => {
    const ca = await root();
    const indented = pem(ca)
      .split('\n')
      .map((l) => (l ? `  ${l}` : l))
      .join('\n');
    const r = await inspect([{ name: 'ind.pem', text: indented }], { now: NOW, scenarios: false });
    const f = r.findings.filter((x) => x.id === 'PEM_BLOCK_SKIPPED_BY_GO');
    expect(f).toHaveLength(1);
    expect(f[0]!.severity).toBe('warning');
    expect(f[0]!.message).toMatch(/^ind\.pem: block 0 .*Go's PEM decoder does not see this block$/);
    expect(f[0]!.subject).toEqual({ kind: 'value', id: 'ind.pem' });
  });

  it('a problem of another kind is no PEM_BLOCK_SKIPPED_BY_GO', async () => {
    const r = await inspect([{ name: 'junk.pem', text: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' }], { now: NOW });
    expect(r.problems.length).toBeGreaterThan(0);
    expect(ids(r)).not.toContain('PEM_BLOCK_SKIPPED_BY_GO');
  });
});

describe('keys', () => {
  it('RSA keys: under 1024 bits an error (Go refuses them), under 2048 a warning, 2048 nothing', async () => {
    const r = await inspect(
      [
        { name: 'k512.pem', text: rsaPkcs8(512) },
        { name: 'k1024.pem', text: rsaPkcs8(1024) },
        { name: 'k1032.pem', text: rsaPkcs8(1032) },
        { name: 'k2048.pem', text: rsaPkcs8(2048) },
      ],
      { now: NOW, scenarios: false },
    );
    const weak = r.findings.filter((f) => f.id === 'KEY_WEAK');
    expect(weak.map((f) => [f.severity, f.message])).toEqual([
      ['error', 'k512.pem › block 0: RSA key of 512 bits'],
      ['warning', 'k1024.pem › block 0: RSA key of 1024 bits'],
      ['warning', 'k1032.pem › block 0: RSA key of 1032 bits'],
    ]);
    expect(weak[0]!.subject).toEqual({ kind: 'key', id: 'key-1', label: 'k512.pem › block 0' });
    expect(r.keys.map((k) => k.istio)).toEqual(['supported', 'supported', 'supported', 'supported']);
    expect(ids(r)).not.toContain('KEY_UNSUPPORTED_PEM_TYPE');
  });

  it('a key that is no PEM block (DER bytes in a Secret) is labelled by its key alone, with no block number', async () => {
    const der = nodeCrypto.generateKeyPairSync('rsa', { modulusLength: 512 }).privateKey.export({ type: 'pkcs8', format: 'der' });
    const text = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: weak\n  namespace: istio-system\ndata:\n  tls.key: ${der.toString('base64')}\n`;
    const r = await inspect([{ name: 's.yaml', text }], { now: NOW, scenarios: false });
    const weak = r.findings.filter((f) => f.id === 'KEY_WEAK');
    expect(weak).toHaveLength(1);
    expect(weak[0]!.message).toMatch(/tls\.key: RSA key of 512 bits$/);
    expect(weak[0]!.subject.label).not.toMatch(/block/);
  });

  it("an RSA key in an EC PRIVATE KEY block: Istio's ParsePemEncodedKey fails on it", async () => {
    const k = await keys('P-256');
    const pkcs1 = (await keyPem(k, 'sec1')).replace(/EC PRIVATE KEY/g, 'RSA PRIVATE KEY');
    const r = await inspect([{ name: 'k.pem', text: pkcs1 }], { now: NOW, scenarios: false });
    const f = r.findings.find((x) => x.id === 'KEY_UNSUPPORTED_PEM_TYPE')!;
    expect(f.severity).toBe('error');
    expect(f.message).toMatch(/^k\.pem › block 0: failed to parse the RSA private key: /);
    expect(f.subject).toEqual({ kind: 'key', id: 'key-1', label: 'k.pem › block 0' });
    expect(r.keys[0]!.istio).toMatch(/^failed to parse the RSA private key: /);
  });

  it('a key Envoy redacted: listed as redacted, masked with no size, no private key in the report', async () => {
    const ca = await root();
    const text = secret('gw-cred', { 'tls.crt': pem(ca), 'tls.key': '[redacted]' });
    const r = await inspect([{ name: 'in.yaml', text }], { now: NOW });
    expect(r.keys).toHaveLength(1);
    const k = r.keys[0]!;
    expect(k).toMatchObject({ id: 'key-1', state: 'redacted', istio: 'redacted', publicKey: null, encoding: null, matches: [] });
    expect(k.masked).toBe('•••••••• (0 bytes, masked)');
    const f = r.findings.filter((x) => x.id === 'KEY_REDACTED');
    expect(f).toHaveLength(1);
    expect(f[0]!.severity).toBe('info');
    expect(f[0]!.message).toBe(`${k.origin.label}: key redacted by Envoy; key checks skipped`);
    expect(f[0]!.subject).toEqual({ kind: 'key', id: 'key-1', label: k.origin.label });
    expect(r.privateKeys).toBe(false);
    // One readable key next to the redacted one: the report holds private key material.
    const both = await inspect(
      [
        { name: 'in.yaml', text },
        { name: 'key.pem', text: await keyPem(ca.keys) },
      ],
      { now: NOW },
    );
    expect(both.privateKeys).toBe(true);
  });

  it('an encrypted key is unreadable, and its body masked with its PEM type', async () => {
    const pkcs8 = await keyPem((await root()).keys);
    const enc = nodeCrypto.createPrivateKey(pkcs8).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'x' }) as string;
    const r = await inspect([{ name: 'e.pem', text: enc }], { now: NOW, scenarios: false });
    expect(r.keys[0]!.istio).toBe('unreadable');
    expect(r.keys[0]!.masked).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY----- •••••••• \(0 bytes, masked\)$/);
  });
});

describe('a key next to certificates it does not belong to', () => {
  const mismatch = (r: CertsReport) => r.findings.filter((f) => f.id === 'KEY_MISMATCH' && f.subject.kind === 'key');
  const onCard = (r: CertsReport, i: Issued) => card(r, i).findings.filter((f) => f.id === 'KEY_MISMATCH');

  it('a leaf with a stranger key in one file: an error on the key and on the leaf (tls.X509KeyPair refuses the pair)', async () => {
    const ca = await root();
    const ee = await leaf(ca);
    const stranger = await keys('P-256');
    const r = await inspect([{ name: 'pair.pem', text: pem(ca, ee) + (await keyPem(stranger)) }], { now: NOW, scenarios: false });
    const f = mismatch(r);
    expect(f).toHaveLength(1);
    expect(f[0]!.severity).toBe('error');
    expect(f[0]!.message).toBe('pair.pem › block 2: the private key matches none of the 2 certificate(s) next to it (the cert does not match the key)');
    expect(f[0]!.subject).toEqual({ kind: 'key', id: 'key-1', label: 'pair.pem › block 2' });
    // The root comes first in the file; the key belongs to the end entity.
    expect(onCard(r, ca)).toEqual([]);
    expect(onCard(r, ee)).toEqual([
      {
        id: 'KEY_MISMATCH',
        severity: 'error',
        message:
          'the private key pair.pem › block 2 does not match this certificate (the cert does not match the key: tls: private key does not match public key)',
        subject: { kind: 'certificate', id: fp(ee), label: 'leaf' },
      },
    ]);
  });

  it('an intermediate before the leaf: still the leaf (X509KeyPair pairs the key with the end entity)', async () => {
    const ca = await root();
    const mid = await intermediate(ca, 'CN=Mid');
    const ee = await leaf(mid);
    const r = await inspect([{ name: 'chain.pem', text: pem(mid, ee) + (await keyPem(await keys('P-256'))) }], { now: NOW, scenarios: false });
    expect(mismatch(r)).toHaveLength(1);
    expect(onCard(r, mid)).toEqual([]);
    expect(onCard(r, ee)).toHaveLength(1);
  });

  it('with CAs only: the one that is not self-signed; with two stranger keys: one finding on the card', async () => {
    const ca = await root();
    const mid = await intermediate(ca, 'CN=Mid');
    const r = await inspect([{ name: 'cas.pem', text: pem(ca, mid) + (await keyPem(await keys('P-256'))) + (await keyPem(await keys('P-256'))) }], {
      now: NOW,
      scenarios: false,
    });
    expect(mismatch(r)).toHaveLength(2);
    expect(onCard(r, ca)).toEqual([]);
    expect(onCard(r, mid)).toHaveLength(1);
    expect(onCard(r, mid)[0]!.message).toContain('cas.pem › block 2');
  });

  it('a self-signed root alone: the finding is on its card', async () => {
    const ca = await root({ subject: 'O=No CN' });
    const r = await inspect([{ name: 'ca.pem', text: pem(ca) + (await keyPem(await keys('P-256'))) }], { now: NOW, scenarios: false });
    expect(onCard(r, ca).map((f) => f.subject)).toEqual([{ kind: 'certificate', id: fp(ca), label: 'O=No CN' }]);
  });

  it('only certificates of the same input and object are next to the key', async () => {
    const ca = await root();
    const a = await leaf(ca, { subject: 'CN=a' });
    const b = await leaf(ca, { subject: 'CN=b' });
    const text = [secret('a', { 'tls.crt': pem(a, ca), 'tls.key': await keyPem(await keys('P-256')) }), secret('b', { 'tls.crt': pem(b) })].join('---\n');
    const r = await inspect(
      [
        { name: 'in.yaml', text },
        { name: 'ca.pem', text: pem(ca) },
      ],
      { now: NOW },
    );
    const f = mismatch(r);
    expect(f).toHaveLength(1);
    // The CA is next to the key in Secret a, though it also sits in ca.pem.
    expect(f[0]!.message).toContain('matches none of the 2 certificate(s)');
    expect(onCard(r, a)).toHaveLength(1);
    expect(onCard(r, b)).toEqual([]);
    expect(onCard(r, ca)).toEqual([]);
  });

  it('a key alone in its input, or one matching a certificate elsewhere, is no mismatch', async () => {
    const ca = await root();
    const ee = await leaf(ca);
    const r = await inspect(
      [
        { name: 'certs.pem', text: pem(ee, ca) },
        { name: 'lonely.pem', text: await keyPem(await keys('P-256')) },
        { name: 'with.pem', text: pem(ca) + (await keyPem(ee.keys)) },
      ],
      { now: NOW, scenarios: false },
    );
    expect(r.keys.map((k) => k.matches)).toEqual([[], [fp(ee)]]);
    expect(mismatch(r)).toEqual([]);
  });

  it("the plug-in CA's signing certificate is the one its key must match", async () => {
    const r0 = await root({ subject: 'CN=Root' });
    const ee = await leaf(r0, { subject: 'CN=other' });
    const text = secret('cacerts', {
      'extra.pem': pem(ee),
      'ca-cert.pem': pem(r0),
      'ca-key.pem': await keyPem(await keys('P-256')),
      'root-cert.pem': pem(r0),
      'cert-chain.pem': pem(r0),
    });
    const r = await inspect([{ name: 'in.yaml', text }], { now: NOW });
    expect(card(r, r0).roles).toContain('signing-cert');
    expect(onCard(r, r0)).toHaveLength(1);
    expect(onCard(r, ee)).toEqual([]);
  });
});

describe('CRLs', () => {
  it('findings about a CRL name the CRL; nextUpdate in the future or absent is not expired', async () => {
    const ca = await root();
    const revoked = await leaf(ca, { subject: 'CN=revoked' });
    const r = await inspect(
      [
        { name: 'certs.pem', text: pem(revoked, ca) },
        { name: 'old.crl', text: await crl(ca, { revoked: [revoked], nextUpdate: new Date(NOW.getTime() - 1000) }) },
        { name: 'fresh.crl', text: await crl(ca, { nextUpdate: new Date(NOW.getTime() + 1000) }) },
        { name: 'open.crl', text: await crl(ca) },
        { name: 'edge.crl', text: await crl(ca, { nextUpdate: NOW }) },
      ],
      { now: NOW, scenarios: false },
    );
    expect(r.crls.map((c) => [c.id, c.expired])).toEqual([
      ['crl-1', true],
      ['crl-2', false],
      ['crl-3', false],
      // nextUpdate == now: still current, as Go treats NotAfter (inclusive, RFC 5280 4.1.2.5); Go has no
      // CRL expiry check and Istio none either. (openssl's X509_cmp_time would already call it expired.)
      ['crl-4', false],
    ]);
    const old = r.crls[0]!;
    const expired = r.findings.filter((f) => f.id === 'CRL_EXPIRED');
    expect(expired).toHaveLength(1);
    expect(expired[0]!.message).toBe(`${old.origin.label}: nextUpdate ${old.facts.nextUpdate} is in the past (Istio does not check this)`);
    expect(expired[0]!.subject).toEqual({ kind: 'crl', id: 'crl-1', label: old.origin.label });
    const revokes = r.findings.filter((f) => f.id === 'CRL_REVOKES_INPUT');
    expect(revokes.map((f) => f.subject)).toEqual([{ kind: 'crl', id: 'crl-1', label: old.origin.label }]);
  });

  it('an entry revokes the serial of the same issuer only (RFC 5280 5.3: serial and issuer)', async () => {
    const ca = await root({ subject: 'CN=CA one' });
    const other = await root({ subject: 'CN=CA two' });
    const revoked = await leaf(ca, { subject: 'CN=revoked' });
    const twin = await leaf(other, { subject: 'CN=twin', serial: revoked.x.serialNumber });
    const r = await inspect(
      [
        { name: 'certs.pem', text: pem(revoked, twin, ca, other) },
        { name: 'ca.crl', text: await crl(ca, { revoked: [revoked], nextUpdate: new Date(NOW.getTime() + DAY) }) },
      ],
      { now: NOW, scenarios: false },
    );
    const revokes = r.findings.filter((f) => f.id === 'CRL_REVOKES_INPUT');
    expect(revokes).toHaveLength(1);
    expect(revokes[0]!.message).toContain('revokes CN=revoked');
  });

  it('a CRL is signed by a certificate named as its issuer, not by another certificate of the same key', async () => {
    const ca = await root({ subject: 'CN=Issuer', keyUsage: KU.keyCertSign });
    const sameKey = await root({ subject: 'CN=Same key', keys: ca.keys, keyUsage: KU.keyCertSign });
    const r = await inspect(
      [
        { name: 'certs.pem', text: pem(sameKey, ca) },
        { name: 'ca.crl', text: await crl(ca, { nextUpdate: new Date(NOW.getTime() + DAY) }) },
      ],
      { now: NOW, scenarios: false },
    );
    expect(r.crls[0]!.signedBy).toEqual([{ id: fp(ca), subject: 'CN=Issuer' }]);
    const go = r.findings.filter((f) => f.id === 'CRL_ISSUER_NO_CRLSIGN');
    expect(go).toHaveLength(1);
    expect(go[0]!.subject).toEqual({ kind: 'crl', id: 'crl-1', label: r.crls[0]!.origin.label });
    // Only the CA named as the CRL's issuer has its missing cRLSign raised to an error.
    expect(card(r, ca).findings.find((f) => f.id === 'CA_KU_NO_CRLSIGN')?.severity).toBe('error');
    expect(card(r, sameKey).findings.find((f) => f.id === 'CA_KU_NO_CRLSIGN')?.severity).toBe('info');
  });
});

describe('CSRs', () => {
  it("a CSR's signature: verified, failed once altered, unknown for an algorithm nobody defines", async () => {
    const k = await keys('P-256');
    const csr = await x509.Pkcs10CertificateRequestGenerator.create({
      name: 'CN=req',
      keys: { publicKey: k.publicKey, privateKey: k.privateKey },
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    });
    const der = new Uint8Array(csr.rawData);
    const bad = der.slice();
    bad[bad.length - 5]! ^= 0x01;
    // The outer signature algorithm relabelled to an OID no one defines (ecdsa-with-SHA256 is 1.2.840.10045.4.3.2):
    // Go's CheckSignature says ErrUnsupportedAlgorithm, which is no verdict on the signature.
    const hex = Buffer.from(der).toString('hex');
    const at = hex.lastIndexOf('06082a8648ce3d040302');
    const unknown = new Uint8Array(Buffer.from(`${hex.slice(0, at)}06082a8648ce3d04037f${hex.slice(at + 20)}`, 'hex'));
    const r = await inspect(
      [
        { name: 'good.csr', text: encodePem('CERTIFICATE REQUEST', der) },
        { name: 'bad.csr', text: encodePem('CERTIFICATE REQUEST', bad) },
        { name: 'odd.csr', text: encodePem('CERTIFICATE REQUEST', unknown) },
      ],
      { now: NOW, scenarios: false },
    );
    expect(r.csrs.map((c) => [c.id, c.signatureValid])).toEqual([
      ['csr-1', true],
      ['csr-2', false],
      ['csr-3', null],
    ]);
  });
});

describe('certificate cards', () => {
  it('life used, and the time left or since, at the ends of the validity window (inclusive, as Go checks it)', async () => {
    const notBefore = new Date(NOW.getTime() - 30 * DAY);
    const notAfter = new Date(NOW.getTime() + 30 * DAY);
    const ca = await root({ notBefore, notAfter });
    const r = await inspect([{ name: 'ca.pem', text: pem(ca) }], { now: NOW, scenarios: false });
    expect(card(r, ca).lifeUsed).toBe(0.5);
    expect(card(r, ca).expiresIn).toBe('expires in 1 month');
    const atStart = await inspect([{ name: 'ca.pem', text: pem(ca) }], { now: notBefore, scenarios: false });
    expect(card(atStart, ca).lifeUsed).toBe(0);
    expect(card(atStart, ca).expiresIn).toBe('expires in 2 months');
    const atEnd = await inspect([{ name: 'ca.pem', text: pem(ca) }], { now: notAfter, scenarios: false });
    expect(card(atEnd, ca).lifeUsed).toBe(1);
    expect(card(atEnd, ca).expiresIn).toBe('expires in 0 minutes');
    const early = await inspect([{ name: 'ca.pem', text: pem(ca) }], { now: new Date(notBefore.getTime() - 2 * DAY), scenarios: false });
    expect(card(early, ca).expiresIn).toBe('valid in 2 days');
    expect(card(early, ca).lifeUsed).toBeNull();
  });

  it('a certificate whose window is one instant: no life used unless now is that instant', async () => {
    const ca = await root({ notBefore: NOW, notAfter: NOW });
    const at = await inspect([{ name: 'ca.pem', text: pem(ca) }], { now: NOW, scenarios: false });
    expect(card(at, ca).lifeUsed).toBe(0);
    const after = await inspect([{ name: 'ca.pem', text: pem(ca) }], { now: new Date(NOW.getTime() + 1000), scenarios: false });
    expect(card(after, ca).lifeUsed).toBeNull();
  });

  it("carries the certificate's PEM and istioctl's row (serial as %032x, empty name and status)", async () => {
    const ca = await root({ serial: '05' });
    const w = await leaf(ca, { serial: '0a0b', san: [{ uri: 'spiffe://example.org/ns/a/sa/b' }] });
    const r = await inspect([{ name: 'certs.pem', text: pem(w, ca) }], { now: NOW, scenarios: false });
    const c = card(r, w);
    expect(c.pem.startsWith('-----BEGIN CERTIFICATE-----\n')).toBe(true);
    expect(Buffer.from(c.pem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64').equals(Buffer.from(w.der))).toBe(true);
    expect(c.istioctl).toEqual({
      'RESOURCE NAME': '',
      TYPE: 'Cert Chain',
      STATUS: '',
      'VALID CERT': true,
      'SERIAL NUMBER': '00000000000000000000000000000a0b',
      'NOT AFTER': w.cert.facts.notAfter,
      'NOT BEFORE': w.cert.facts.notBefore,
      'TRUST DOMAIN': 'example.org',
    });
    expect(card(r, ca).istioctl?.['SERIAL NUMBER']).toBe('00000000000000000000000000000005');
  });

  it('a certificate Go cannot parse (negative serial) has no istioctl row', async () => {
    const ca = await root();
    const neg = await negativeSerial(await leaf(ca), ca.keys);
    const r = await inspect([{ name: 'n.pem', text: encodePem('CERTIFICATE', neg.der) }], { now: NOW, scenarios: false });
    expect(r.certificates).toHaveLength(1);
    expect(r.certificates[0]!.istioctl).toBeNull();
  });

  it('where each occurrence sits: the PEM block, the Secret and its data key', async () => {
    const ca = await root();
    const ee = await leaf(ca);
    const text = secret('tls', { 'tls.crt': pem(ee, ca) });
    const r = await inspect(
      [
        { name: 'in.yaml', text },
        { name: 'ca.pem', text: pem(ca) },
      ],
      { now: NOW, scenarios: false },
    );
    const occ = card(r, ca).occurrences;
    expect(occ).toHaveLength(2);
    expect(occ[0]).toMatchObject({ input: 'in.yaml', object: { kind: 'Secret', namespace: 'istio-system', name: 'tls' }, key: 'tls.crt', block: 1 });
    expect(occ[0]!.label.endsWith(' › block 1')).toBe(true);
    expect(occ[0]!.line).toBe(7);
    expect(occ[1]).toStrictEqual({ label: 'ca.pem › block 0', input: 'ca.pem', path: [], block: 0, offset: 0 });
  });
});

describe('keys a share link removed', () => {
  it('each removed block is one key, numbered in order, masked without a size, and no private key material', async () => {
    const ca = await root();
    const r = await inspect([{ name: 'bundle.pem', text: `${pem(ca)}${PRIVATE_KEY_MARKER}\n\n${PRIVATE_KEY_MARKER}\n` }], { now: NOW });
    expect(r.keys.map((k) => [k.id, k.state, k.istio, k.masked])).toEqual([
      ['key-1', 'redacted-in-link', 'redacted in this link', '••••••••'],
      ['key-2', 'redacted-in-link', 'redacted in this link', '••••••••'],
    ]);
    const f = r.findings.filter((x) => x.id === 'KEY_REDACTED_IN_LINK');
    expect(f.map((x) => x.subject)).toEqual([
      { kind: 'key', id: 'key-1', label: 'bundle.pem' },
      { kind: 'key', id: 'key-2', label: 'bundle.pem' },
    ]);
    expect(r.privateKeys).toBe(false);
  });

  it('a plug-in CA whose ca-key.pem was removed: one key, though the checklist also meets it', async () => {
    const r0 = await root();
    const signing = await intermediate(r0, 'CN=Signing CA');
    const text = secret('cacerts', { 'ca-cert.pem': pem(signing), 'ca-key.pem': 'REDACTED', 'root-cert.pem': pem(r0), 'cert-chain.pem': pem(signing, r0) });
    const r = await inspect([{ name: 'in.yaml', text }], { now: NOW });
    expect(r.keys.map((k) => [k.id, k.state])).toEqual([['key-1', 'redacted-in-link']]);
  });
});

describe('counts and the time of the report', () => {
  it('counts every finding and every problem by severity', async () => {
    const ca = await root({ keyUsage: KU.keyCertSign, noSki: true });
    const r = await inspect(
      [
        { name: 'ca.pem', text: pem(ca, ca) },
        { name: 'k512.pem', text: rsaPkcs8(512) },
        { name: 'junk.pem', text: '-----BEGIN CERTIFICATE-----\n@@@@\n-----END CERTIFICATE-----\n' },
      ],
      { now: new Date('2026-06-01T12:00:00.123Z'), scenarios: false },
    );
    const n = (sev: string) => r.findings.filter((f) => f.severity === sev).length + r.problems.filter((p) => p.severity === sev).length;
    expect(r.problems.some((p) => p.severity === 'error')).toBe(true);
    expect(r.counts).toEqual({ errors: n('error'), warnings: n('warning'), infos: n('info') });
    expect(Math.min(r.counts.errors, r.counts.warnings, r.counts.infos)).toBeGreaterThan(0);
    // RFC 3339 without the milliseconds.
    expect(r.at).toBe('2026-06-01T12:00:00Z');
  });

  it('the options the inspection ran with, and its defaults', async () => {
    const ca = await root();
    const r = await inspect([{ name: 'ca.pem', text: pem(ca) }], { now: NOW });
    expect([r.trustDomain, r.aliases, r.profile]).toEqual(['cluster.local', [], 'default']);
    expect(r.scenarios.length).toBeGreaterThan(0);
    const off = await inspect([{ name: 'ca.pem', text: pem(ca) }], { now: NOW, scenarios: false });
    expect(off.scenarios).toEqual([]);
    expect(off.chains).toEqual([]);
  });

  it('scenarios and chains are numbered in the order found', async () => {
    const ca = await root();
    const a = await leaf(ca, { subject: 'CN=a' });
    const b = await leaf(ca, { subject: 'CN=b' });
    const r = await inspect(
      [
        { name: 'a.pem', text: pem(a, ca) },
        { name: 'b.pem', text: pem(b, ca) },
      ],
      { now: NOW },
    );
    expect(r.scenarios.map((s) => s.id)).toEqual(r.scenarios.map((_, i) => `scenario-${i + 1}`));
    expect(r.chains.map((c) => c.id)).toEqual(r.chains.map((_, i) => `chain-${i + 1}`));
    expect(r.chains.length).toBeGreaterThanOrEqual(2);
  });
});

describe('remote secrets', () => {
  async function kubeconfig(o: { ca?: Issued; client?: Issued }): Promise<string> {
    const cluster = `    server: https://10.0.0.1:6443\n${o.ca ? `    certificate-authority-data: ${b64(pem(o.ca))}\n` : ''}`;
    const user = o.client
      ? `    client-certificate-data: ${b64(pem(o.client))}\n    client-key-data: ${b64(await keyPem(o.client.keys))}\n`
      : '    token: abc\n';
    return `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n${cluster}users:\n- name: u\n  user:\n${user}contexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\n`;
  }

  it('one view per cluster: its CA and client certificate, and whether the CA signs the client (only when both are there)', async () => {
    const clusterCa = await root({ subject: 'CN=Cluster CA' });
    const client = await leaf(clusterCa, { subject: 'CN=istio-reader', eku: [EKU.clientAuth], san: undefined });
    const text = secret(
      'istio-remote-secret-west',
      {
        west: await kubeconfig({ ca: clusterCa, client }),
        token: await kubeconfig({ ca: clusterCa }),
        noca: await kubeconfig({ client }),
      },
      { labels: { 'istio/multiCluster': 'true' } },
    );
    const r = await inspect([{ name: 'in.yaml', text }], { now: NOW });
    expect(r.remotes.map((x) => [x.secret, x.clusterId, x.server, x.ca, x.clientCert, x.caVerifiesClient, x.input])).toEqual([
      ['istio-system/istio-remote-secret-west', 'west', 'https://10.0.0.1:6443', [fp(clusterCa)], [fp(client)], true, 'in.yaml'],
      ['istio-system/istio-remote-secret-west', 'token', 'https://10.0.0.1:6443', [fp(clusterCa)], [], null, 'in.yaml'],
      ['istio-system/istio-remote-secret-west', 'noca', 'https://10.0.0.1:6443', [], [fp(client)], null, 'in.yaml'],
    ]);
    expect(r.remotes.map((x) => x.line)).toEqual([9, 10, 11]);
    expect(r.remotes.every((x) => x.error === undefined)).toBe(true);
    expect(ids(r)).not.toContain('REMOTE_CLIENT_CA');
  });

  it('a CA that does not sign the client certificate: a note on the value', async () => {
    const clusterCa = await root({ subject: 'CN=Cluster CA' });
    const client = await leaf(clusterCa, { subject: 'CN=istio-reader', eku: [EKU.clientAuth], san: undefined });
    const stranger = await root({ subject: 'CN=Stranger' });
    const text = secret('istio-remote-secret-x', { north: await kubeconfig({ ca: stranger, client }) }, { labels: { 'istio/multiCluster': 'true' } });
    const r = await inspect([{ name: 'in.yaml', text }], { now: NOW });
    expect(r.remotes.map((x) => x.caVerifiesClient)).toEqual([false]);
    const f = r.findings.filter((x) => x.id === 'REMOTE_CLIENT_CA');
    expect(f).toHaveLength(1);
    expect(f[0]!.severity).toBe('info');
    expect(f[0]!.message).toMatch(
      /^remote secret istio-system\/istio-remote-secret-x cluster "north": the kubeconfig's CA does not sign the client certificate \(x509: /,
    );
    expect(f[0]!.subject).toEqual({
      kind: 'value',
      id: 'in.yaml › Secret istio-system/istio-remote-secret-x › north',
      label: 'in.yaml › Secret istio-system/istio-remote-secret-x › north',
    });
  });

  it('an unreadable kubeconfig: the view carries the error', async () => {
    const text = secret('istio-remote-secret-y', { bad: 'this: [is not a kubeconfig' }, { labels: { 'istio/multiCluster': 'true' } });
    const r = await inspect([{ name: 'in.yaml', text }], { now: NOW });
    expect(r.remotes).toHaveLength(1);
    expect(typeof r.remotes[0]!.error).toBe('string');
  });
});

describe('spans and issuers', () => {
  it('humanSpan: a whole year, month or day is said in that unit', () => {
    expect(humanSpan(365 * DAY)).toBe('in 1 year');
    expect(humanSpan(-30 * DAY)).toBe('1 month ago');
    expect(humanSpan(DAY)).toBe('in 1 day');
    expect(humanSpan(2 * 3600000)).toBe('in 2 hours');
  });

  it('a CA whose name is the issuer of a certificate it did not sign is still the bottom of its own chain', async () => {
    const ca = await root({ subject: 'CN=Root' });
    const mid = await intermediate(ca, 'CN=Mid');
    const forger = await keys('P-256');
    // Names Mid as its issuer, signed by another key: Mid did not issue it (RFC 5280 6.1.3 (a)(1)).
    const forged = await intermediate({ ...mid, keys: forger }, 'CN=Forged');
    const r = await inspect([{ name: 'cas.pem', text: pem(ca, mid, forged) }], { now: NOW });
    const titles = r.chains.map((c) => c.title).sort();
    expect(titles).toEqual(['Forged', 'Mid']);
    // In the bundle, Mid does not issue the forged certificate before it.
    expect(r.bundles[0]!.order.adjacentLinks).toEqual(['this-issues-next', 'unrelated']);
    expect(ids(r)).toContain('BUNDLE_UNORDERED_OR_UNRELATED');
  });

  it('a CA that signed another certificate of the input is not the bottom of a chain', async () => {
    const ca = await root({ subject: 'CN=Root' });
    const mid = await intermediate(ca, 'CN=Mid');
    const sub = await intermediate(mid, 'CN=Sub');
    const r = await inspect([{ name: 'cas.pem', text: pem(ca, mid, sub) }], { now: NOW });
    expect(r.chains.map((c) => c.title)).toEqual(['Sub']);
  });

  it("a ROOTCA of a dump or istiod's own CA anchors the other inputs' chains, self-signed or not (a Go root pool takes any certificate)", async () => {
    const ca = await root({ subject: 'CN=Root' });
    const mid = await intermediate(ca, 'CN=Mid');
    const w = await leaf(mid, { san: [{ uri: 'spiffe://cluster.local/ns/shop/sa/cart' }] });
    const other = await leaf(mid, { subject: 'CN=other' });
    const chainOf = (r: CertsReport) => r.chains.find((c) => c.title === 'other')!;
    const viaDump = await inspect(
      [
        { name: 'config_dump.json', text: JSON.stringify(envoyDump(pem(w), pem(mid))) },
        { name: 'other.pem', text: pem(other) },
      ],
      { now: NOW },
    );
    expect(chainOf(viaDump).go.ok).toBe(true);
    expect(chainOf(viaDump).anchor?.id).toBe(fp(mid));
    const viaCa = await inspect(
      [
        { name: 'in.yaml', text: secret('istio-ca-secret', { 'ca-cert.pem': pem(mid), 'ca-key.pem': await keyPem(mid.keys) }) },
        { name: 'other.pem', text: pem(other) },
      ],
      { now: NOW },
    );
    expect(chainOf(viaCa).go.ok).toBe(true);
    expect(chainOf(viaCa).anchor?.id).toBe(fp(mid));
  });

  it('no credential users given: a TLS Secret is inspected without any', async () => {
    const ca = await root();
    const ee = await leaf(ca);
    const text = secret('gw', { 'tls.crt': pem(ee, ca), 'tls.key': await keyPem(ee.keys) });
    const r = await inspect([{ name: 'in.yaml', text }], { now: NOW });
    expect(r.scenarios.length).toBeGreaterThan(0);
    expect(ids(r)).not.toContain('KEY_MISMATCH');
  });
});
