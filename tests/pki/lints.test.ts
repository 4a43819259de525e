// Per-certificate lints (src/core/pki/lints.ts lintCertificate): each documented threshold
// tested just below, at and just above, with the severity asserted (the corpus runner compares
// lint ids only, so a changed threshold or severity would otherwise go unnoticed). Where a
// threshold comes from is cited on each test: Go's crypto/x509 and crypto/rsa (Go 1.26 source
// at /usr/local/go/src), Istio's sources, RFC 5280, or — where no upstream value exists — the
// comment in lints.ts that states our own choice.
import { describe, expect, it } from 'vitest';
import { lintCertificate } from '../../src/core/pki/lints.ts';
import type { Certificate } from '../../src/core/pki/cert.ts';
import { DAY, EKU, KU, NOW, SIG_OIDS, issue, keys, leaf, lintFindings, parse, resign, root, type CertSpec, type Issued, type LintOpts } from './pkiBuilder.ts';

function lints(c: Issued | Certificate, o: LintOpts = {}): Map<string, string> {
  return new Map(lintFindings(c, o).map((f) => [f.id, f.severity]));
}

/** Severity of one lint (undefined when it did not fire). */
const sev = (c: Issued | Certificate, id: string, o: LintOpts = {}) => lints(c, o).get(id);
const detail = (c: Issued | Certificate, id: string, o: LintOpts = {}) => {
  const cert = 'cert' in c ? c.cert : c;
  return lintCertificate(cert, { now: o.now ?? NOW, roles: new Set(o.roles ?? []), profile: o.profile ?? 'default' }).find((f) => f.id === id)?.detail;
};
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

let rootCa: Issued | undefined;
async function ca(): Promise<Issued> {
  rootCa ??= await root({ notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2040-01-01T00:00:00Z') });
  return rootCa;
}
async function leafWith(extra: Partial<CertSpec>): Promise<Issued> {
  return leaf(await ca(), extra);
}

describe("CERT_EXPIRED / CERT_NOT_YET_VALID — Go's window, verify.go:459-471 (Before(NotBefore) / After(NotAfter): both ends valid)", () => {
  const NB = new Date('2026-05-01T00:00:00Z');
  const NA = new Date('2026-07-01T00:00:00Z');
  it('at exactly NotBefore and NotAfter neither fires; one second outside fires as an error', async () => {
    const l = await leafWith({ notBefore: NB, notAfter: NA });
    expect(sev(l, 'CERT_NOT_YET_VALID', { now: NB })).toBeUndefined();
    expect(sev(l, 'CERT_EXPIRED', { now: NA })).toBeUndefined();
    expect(sev(l, 'CERT_NOT_YET_VALID', { now: at(NB, -1000) })).toBe('error');
    expect(sev(l, 'CERT_EXPIRED', { now: at(NA, 1000) })).toBe('error');
    expect(sev(l, 'CERT_EXPIRED', { now: at(NB, -1000) })).toBeUndefined();
  });
  // lints.ts LINTS.CERT_NOT_YET_VALID: "Istio backdates its own certificates by 2 minutes; clock
  // skew?" — the detail calls up to 5 minutes early clock skew (our threshold, lints.ts:147).
  it('up to 5 minutes early is called clock skew; more is not', async () => {
    const l = await leafWith({ notBefore: NB, notAfter: NA });
    expect(detail(l, 'CERT_NOT_YET_VALID', { now: at(NB, -5 * 60000) })).toContain('clock skew?');
    expect(detail(l, 'CERT_NOT_YET_VALID', { now: at(NB, -5 * 60000 - 1000) })).not.toContain('clock skew?');
  });
  it('VALIDITY_NOT_POSITIVE: notAfter == notBefore is an error (zlint e_validity_time_not_positive)', async () => {
    const l = await leafWith({ notBefore: NB, notAfter: NB });
    expect(sev(l, 'VALIDITY_NOT_POSITIVE', { now: NB })).toBe('error');
    const ok = await leafWith({ notBefore: NB, notAfter: at(NB, 1000) });
    expect(sev(ok, 'VALIDITY_NOT_POSITIVE', { now: NB })).toBeUndefined();
  });
});

describe('LEAF_VALIDITY_GT_90D — Istio security/pkg/cmd/constants.go: DefaultMaxWorkloadCertTTL = 90 * 24 * time.Hour', () => {
  const NB = new Date('2026-05-01T00:00:00Z');
  it('exactly 90 days does not fire; 90 days + 1 s fires (warning for a workload, info otherwise)', async () => {
    const exact = await leafWith({ notBefore: NB, notAfter: at(NB, 90 * DAY) });
    const over = await leafWith({ notBefore: NB, notAfter: at(NB, 90 * DAY + 1000) });
    const under = await leafWith({ notBefore: NB, notAfter: at(NB, 90 * DAY - 1000) });
    const now = at(NB, DAY);
    expect(sev(under, 'LEAF_VALIDITY_GT_90D', { now, roles: ['workload'] })).toBeUndefined();
    expect(sev(exact, 'LEAF_VALIDITY_GT_90D', { now, roles: ['workload'] })).toBeUndefined();
    expect(sev(over, 'LEAF_VALIDITY_GT_90D', { now, roles: ['workload'] })).toBe('warning');
    expect(sev(over, 'LEAF_VALIDITY_GT_90D', { now, roles: ['gateway-server'] })).toBe('info');
    expect(sev(over, 'LEAF_VALIDITY_GT_90D', { now })).toBe('info');
  });
});

describe('CERT_EXPIRES_SOON', () => {
  // Workload: Istio's agent rotates at SECRET_GRACE_PERIOD_RATIO of the lifetime, default 0.5
  // (pilot/cmd/pilot-agent/options/options.go: env.Register("SECRET_GRACE_PERIOD_RATIO", 0.5, …)).
  it('a workload leaf: not at exactly 50% of its lifetime, a warning one second past it', async () => {
    const NB = new Date('2026-05-31T00:00:00Z');
    const l = await leafWith({ notBefore: NB, notAfter: at(NB, DAY) });
    expect(sev(l, 'CERT_EXPIRES_SOON', { now: at(NB, DAY / 2 - 1000), roles: ['workload'] })).toBeUndefined();
    expect(sev(l, 'CERT_EXPIRES_SOON', { now: at(NB, DAY / 2), roles: ['workload'] })).toBeUndefined();
    expect(sev(l, 'CERT_EXPIRES_SOON', { now: at(NB, DAY / 2 + 1000), roles: ['workload'] })).toBe('warning');
    // Not a workload certificate: no rotation point.
    expect(sev(l, 'CERT_EXPIRES_SOON', { now: at(NB, DAY / 2 + 1000) })).toBeUndefined();
    // Expired is CERT_EXPIRED, not "expires soon".
    expect(sev(l, 'CERT_EXPIRES_SOON', { now: at(NB, DAY + 1000), roles: ['workload'] })).toBeUndefined();
  });
  // CA: lints.ts LINTS.CERT_EXPIRES_SOON: "a CA with less than 30 days left" (our lead time).
  it('a CA: 30 days left does not fire, 30 days minus 1 s is a warning', async () => {
    const NA = new Date('2026-12-31T00:00:00Z');
    const c = await root({ notBefore: new Date('2026-01-01T00:00:00Z'), notAfter: NA });
    expect(sev(c, 'CERT_EXPIRES_SOON', { now: at(NA, -30 * DAY - 1000) })).toBeUndefined();
    expect(sev(c, 'CERT_EXPIRES_SOON', { now: at(NA, -30 * DAY) })).toBeUndefined();
    expect(sev(c, 'CERT_EXPIRES_SOON', { now: at(NA, -30 * DAY + 1000) })).toBe('warning');
  });
});

describe('RSA_KEY_LT_2048 — crypto/rsa/rsa.go:283-293 (checkKeySize: < 1024 bits refused by Go) and Istio WORKLOAD_RSA_KEY_SIZE 2048 (pilot-agent options.go)', () => {
  it('2048 bits: nothing; 2047: warning; 1024: warning (Go still accepts it); 1023: error', async () => {
    const mk = async (bits: number) => leafWith({ keys: await keys(`RSA-${bits}`, 'lint') });
    expect(sev(await mk(2048), 'RSA_KEY_LT_2048')).toBeUndefined();
    expect(sev(await mk(2047), 'RSA_KEY_LT_2048')).toBe('warning');
    expect(sev(await mk(1024), 'RSA_KEY_LT_2048')).toBe('warning');
    expect(sev(await mk(1023), 'RSA_KEY_LT_2048')).toBe('error');
  }, 60000);
});

describe('key types — lints.ts LINTS.EC_CURVE_NOT_P256_P384 ("Istio only generates P-256/P-384")', () => {
  it('P-256 and P-384 pass; P-521 is a warning', async () => {
    expect(sev(await leafWith({ keys: await keys('P-256') }), 'EC_CURVE_NOT_P256_P384')).toBeUndefined();
    expect(sev(await leafWith({ keys: await keys('P-384') }), 'EC_CURVE_NOT_P256_P384')).toBeUndefined();
    expect(sev(await leafWith({ keys: await keys('P-521') }), 'EC_CURVE_NOT_P256_P384')).toBe('warning');
  });
});

describe('serial numbers', () => {
  // RFC 5280 §4.1.2.2: "Conforming CAs MUST NOT use serialNumber values longer than 20 octets"
  // (zlint e_serial_number_longer_than_20_octets counts the DER content octets).
  it('SERIAL_TOO_LONG: 20 octets pass, 21 are an error', async () => {
    const s20 = await leafWith({ serial: '7f' + '11'.repeat(19) });
    const s21 = await leafWith({ serial: '7f' + '11'.repeat(20) });
    expect(s20.cert.facts.serialDerOctets).toBe(20);
    expect(s21.cert.facts.serialDerOctets).toBe(21);
    expect(sev(s20, 'SERIAL_TOO_LONG')).toBeUndefined();
    expect(sev(s21, 'SERIAL_TOO_LONG')).toBe('error');
  });
  // lints.ts LINTS.SERIAL_LOW_ENTROPY: "fewer than 8 significant bytes" (the CA/B Forum's 64
  // bits of CSPRNG output); info, raised to warning by the production profile.
  it('SERIAL_LOW_ENTROPY: 8 significant bytes pass, 7 are info (warning in production)', async () => {
    const s8 = await leafWith({ serial: '11'.repeat(8) });
    const s7 = await leafWith({ serial: '11'.repeat(7) });
    expect(sev(s8, 'SERIAL_LOW_ENTROPY')).toBeUndefined();
    expect(sev(s7, 'SERIAL_LOW_ENTROPY')).toBe('info');
    expect(sev(s7, 'SERIAL_LOW_ENTROPY', { profile: 'production' })).toBe('warning');
  });
  it('SERIAL_NOT_POSITIVE: serial 0 is a warning (RFC 5280 §4.1.2.2 "positive integer")', async () => {
    const r = await ca();
    // @peculiar/x509 replaces a zero serial with a random one: set it in the TBS and re-sign.
    const z = await parse(
      await resign((await leaf(r)).der, r.keys, SIG_OIDS.ecdsaWithSHA256, 'sha256', (tbs) => {
        tbs.serialNumber = new Uint8Array([0]).buffer;
      }),
    );
    expect(z.facts.serialHex).toBe('00');
    expect(sev(z, 'SERIAL_NOT_POSITIVE')).toBe('warning');
    expect(sev(await leafWith({ serial: '01' }), 'SERIAL_NOT_POSITIVE')).toBeUndefined();
  });
});

describe('signature algorithms — x509.go:997-1002 (checkSignature: MD5 always, SHA-1 for certificates, InsecureAlgorithmError)', () => {
  it('SIG_SHA1 is an error on an issued certificate', async () => {
    const l = await leafWith({ hash: 'SHA-1' });
    expect(sev(l, 'SIG_SHA1')).toBe('error');
    expect(sev(l, 'SIG_SHA1_SELF_SIGNED')).toBeUndefined();
    expect(sev(await leafWith({}), 'SIG_SHA1')).toBeUndefined();
  });
  // A root's self-signature is never checked by Go (buildChains only checks child→parent, verify.go:745).
  it('a SHA-1 self-signature on a root is only info (SIG_SHA1_SELF_SIGNED)', async () => {
    const r = await root({ hash: 'SHA-1' });
    expect(r.cert.facts.selfSigned).toBe(true);
    expect(sev(r, 'SIG_SHA1_SELF_SIGNED')).toBe('info');
    expect(sev(r, 'SIG_SHA1')).toBeUndefined();
  });
  it('SIG_MD5 is an error', async () => {
    const rk = await keys('RSA-2048', 'md5-lint');
    const r = await root({ keys: rk });
    const l = await leaf(r);
    const md5 = await parse(await resign(l.der, rk, SIG_OIDS.md5WithRSA, 'md5'));
    expect(sev(md5, 'SIG_MD5')).toBe('error');
  });
});

describe('CA profile lints', () => {
  // Go refuses a parent whose KeyUsage lacks keyCertSign (x509.go:939-941): error.
  it('CA_KU_NO_CERTSIGN is an error; CA_KU_NO_CRLSIGN info; CA_KU_NOT_CRITICAL and CA_KU_MISSING warnings', async () => {
    expect(sev(await root({ keyUsage: KU.cRLSign }), 'CA_KU_NO_CERTSIGN')).toBe('error');
    expect(sev(await root({ keyUsage: KU.keyCertSign }), 'CA_KU_NO_CRLSIGN')).toBe('info');
    expect(sev(await root({ kuCritical: false }), 'CA_KU_NOT_CRITICAL')).toBe('warning');
    expect(sev(await root({ keyUsage: null }), 'CA_KU_MISSING')).toBe('warning');
    const good = lints(await root());
    for (const id of ['CA_KU_NO_CERTSIGN', 'CA_KU_NO_CRLSIGN', 'CA_KU_NOT_CRITICAL', 'CA_KU_MISSING', 'CA_BC_NOT_CRITICAL'])
      expect(good.get(id)).toBeUndefined();
  });
  it('CA_BC_NOT_CRITICAL is a warning (RFC 5280 §4.2.1.9)', async () => {
    expect(sev(await root({ bcCritical: false }), 'CA_BC_NOT_CRITICAL')).toBe('warning');
  });
  // keycertbundle.Verify checks the plug-in CA chain for serverAuth (lints.ts LINTS.CA_EKU_EXCLUDES_SERVERAUTH).
  it('CA_EKU_EXCLUDES_SERVERAUTH: error in the plug-in CA path, info elsewhere; any/serverAuth pass', async () => {
    const c = await root({ eku: [EKU.clientAuth] });
    expect(sev(c, 'CA_EKU_EXCLUDES_SERVERAUTH', { roles: ['signing-cert'] })).toBe('error');
    expect(sev(c, 'CA_EKU_EXCLUDES_SERVERAUTH', { roles: ['plugin-ca-path'] })).toBe('error');
    expect(sev(c, 'CA_EKU_EXCLUDES_SERVERAUTH', { roles: ['root'] })).toBe('info');
    expect(sev(c, 'CA_EKU_PRESENT')).toBe('info');
    expect(sev(await root({ eku: [EKU.any] }), 'CA_EKU_EXCLUDES_SERVERAUTH', { roles: ['signing-cert'] })).toBeUndefined();
    expect(sev(await root({ eku: [EKU.serverAuth] }), 'CA_EKU_EXCLUDES_SERVERAUTH', { roles: ['signing-cert'] })).toBeUndefined();
    // Netscape SGC is not serverAuth for Go 1.26's checkChainForKeyUsage (verify.go:1018-1022).
    expect(sev(await root({ eku: ['2.16.840.1.113730.4.1'] }), 'CA_EKU_EXCLUDES_SERVERAUTH', { roles: ['signing-cert'] })).toBe('error');
  });
  it('ROOT_PATHLEN_PRESENT is info on a self-signed root; PATHLEN_WITHOUT_CA is an error (RFC 5280 §4.2.1.9)', async () => {
    expect(sev(await root({ pathLen: 1 }), 'ROOT_PATHLEN_PRESENT')).toBe('info');
    expect(sev(await root({ pathLen: 0 }), 'ROOT_PATHLEN_PRESENT')).toBe('info');
    expect(sev(await root(), 'ROOT_PATHLEN_PRESENT')).toBeUndefined();
  });
  it('NAME_CONSTRAINTS_NOT_CRITICAL is an error (RFC 5280 §4.2.1.10 MUST)', async () => {
    expect(sev(await root({ nameConstraints: { permitted: [{ dns: 'example.com' }], critical: false } }), 'NAME_CONSTRAINTS_NOT_CRITICAL')).toBe('error');
    expect(sev(await root({ nameConstraints: { permitted: [{ dns: 'example.com' }] } }), 'NAME_CONSTRAINTS_NOT_CRITICAL')).toBeUndefined();
  });
  it('production profile raises info to warning, leaves errors and warnings alone', async () => {
    const c = await root({ keyUsage: KU.keyCertSign, bcCritical: false });
    expect(sev(c, 'CA_KU_NO_CRLSIGN', { profile: 'production' })).toBe('warning');
    expect(sev(c, 'CA_BC_NOT_CRITICAL', { profile: 'production' })).toBe('warning');
    expect(sev(await root({ keyUsage: KU.cRLSign }), 'CA_KU_NO_CERTSIGN', { profile: 'production' })).toBe('error');
  });
});

describe('leaf lints and their role-dependent severities', () => {
  it('LEAF_KU_CERTSIGN is an error (RFC 5280 §4.2.1.3: keyCertSign only with cA)', async () => {
    expect(sev(await leafWith({ keyUsage: KU.digitalSignature | KU.keyCertSign }), 'LEAF_KU_CERTSIGN')).toBe('error');
    expect(sev(await leafWith({}), 'LEAF_KU_CERTSIGN')).toBeUndefined();
  });
  it('LEAF_SAN_MISSING: error for a workload or gateway server, warning otherwise', async () => {
    const l = await issue({ subject: 'CN=nosan', issuer: await ca(), eku: [EKU.serverAuth, EKU.clientAuth] });
    expect(sev(l, 'LEAF_SAN_MISSING', { roles: ['workload'] })).toBe('error');
    expect(sev(l, 'LEAF_SAN_MISSING', { roles: ['gateway-server'] })).toBe('error');
    expect(sev(l, 'LEAF_SAN_MISSING')).toBe('warning');
  });
  it('LEAF_EKU_NO_SERVERAUTH / NO_CLIENTAUTH: errors for a workload (Istio certs carry both), info otherwise', async () => {
    const client = await leafWith({ eku: [EKU.clientAuth] });
    const server = await leafWith({ eku: [EKU.serverAuth] });
    expect(sev(client, 'LEAF_EKU_NO_SERVERAUTH', { roles: ['workload'] })).toBe('error');
    expect(sev(client, 'LEAF_EKU_NO_SERVERAUTH', { roles: ['gateway-server'] })).toBe('error');
    expect(sev(client, 'LEAF_EKU_NO_SERVERAUTH')).toBe('info');
    expect(sev(server, 'LEAF_EKU_NO_CLIENTAUTH', { roles: ['workload'] })).toBe('error');
    expect(sev(server, 'LEAF_EKU_NO_CLIENTAUTH', { roles: ['gateway-server'] })).toBe('info');
    // anyExtendedKeyUsage counts as both.
    const any = await leafWith({ eku: [EKU.any] });
    expect(sev(any, 'LEAF_EKU_NO_SERVERAUTH', { roles: ['workload'] })).toBeUndefined();
    expect(sev(any, 'LEAF_EKU_NO_CLIENTAUTH', { roles: ['workload'] })).toBeUndefined();
    expect(sev(await leafWith({ eku: undefined }), 'LEAF_EKU_MISSING')).toBe('info');
  });
  // Istio's peer verifier wants exactly one URI SAN: pkg/spiffe/spiffe.go VerifyPeerCert
  // ("peer certificate does not contain 1 URI type SAN, detected %d").
  it('MULTIPLE_URI_SANS: one URI SAN passes, two are a warning', async () => {
    const one = await leafWith({ san: [{ uri: 'spiffe://cluster.local/ns/a/sa/b' }] });
    const two = await leafWith({ san: [{ uri: 'spiffe://cluster.local/ns/a/sa/b' }, { uri: 'spiffe://cluster.local/ns/a/sa/c' }] });
    expect(sev(one, 'MULTIPLE_URI_SANS')).toBeUndefined();
    expect(sev(two, 'MULTIPLE_URI_SANS')).toBe('warning');
  });
});

describe('SPIFFE lints — Istio pkg/spiffe/spiffe.go ParseIdentity; trust domain compared exactly', () => {
  it('SPIFFE_NOT_ISTIO_FORMAT is a warning; TRUST_DOMAIN_MISMATCH an error; an alias is accepted', async () => {
    const bad = await leafWith({ san: [{ uri: 'spiffe://cluster.local/ns/a/serviceaccount/b' }] });
    expect(sev(bad, 'SPIFFE_NOT_ISTIO_FORMAT')).toBe('warning');
    const other = await leafWith({ san: [{ uri: 'spiffe://other.local/ns/a/sa/b' }] });
    expect(sev(other, 'SPIFFE_NOT_ISTIO_FORMAT')).toBeUndefined();
    expect(sev(other, 'TRUST_DOMAIN_MISMATCH', { trustDomain: 'cluster.local' })).toBe('error');
    expect(sev(other, 'TRUST_DOMAIN_MISMATCH', { trustDomain: 'cluster.local', aliases: ['other.local'] })).toBeUndefined();
    expect(sev(other, 'TRUST_DOMAIN_MISMATCH', { trustDomain: 'other.local' })).toBeUndefined();
  });
});

describe('NOT_V3 — Go sets IsCA=false without BasicConstraints (parser.go:685-690), so a v1 signing cert is refused', () => {
  it('error as the plug-in signing certificate, warning otherwise', async () => {
    const rk = await keys('P-256');
    const r = await root({ keys: rk });
    const v1 = await parse(
      await resign(r.der, rk, SIG_OIDS.ecdsaWithSHA256, 'sha256', (tbs) => {
        tbs.version = 0;
        tbs.extensions = undefined;
      }),
    );
    expect(v1.facts.version).toBe(1);
    expect(sev(v1, 'NOT_V3', { roles: ['signing-cert'] })).toBe('error');
    expect(sev(v1, 'NOT_V3', { roles: ['root'] })).toBe('warning');
  });
});
