// Per-certificate lints and bundle order (src/core/pki/lints.ts), the cases tests/pki/lints.test.ts
// leaves open: every lint's severity (so that moving one is a failing test), the thresholds of
// the DNS-name check at their boundaries, the conditions of the structural lints from both
// sides, and the facts each finding's detail carries (a date, a count, the names it is about).
//
// Where an expected value comes from is cited on each describe block: RFC 5280 and RFC 1035,
// Go's crypto/x509 (Go 1.26 source at /usr/local/go/src/crypto/x509), Istio's sources, or, for
// a severity that is the project's own choice, the LINTS table and comments of lints.ts that
// state it (spec §3.1). The certificates come from tests/pki/pkiBuilder.ts.
import * as asn1 from '@peculiar/asn1-schema';
import * as asnX509 from '@peculiar/asn1-x509';
import { describe, expect, it } from 'vitest';
import type { Certificate } from '../../src/core/pki/cert.ts';
import { bundleOrder, type lintCertificate } from '../../src/core/pki/lints.ts';
import {
  DAY,
  EKU,
  KU,
  SIG_OIDS,
  issue,
  keys,
  leaf,
  lintFindings,
  parse,
  resign,
  root,
  type CertSpec,
  type Issued,
  type Keys,
  type LintOpts,
  type NameSpec,
} from './pkiBuilder.ts';

type Out = ReturnType<typeof lintCertificate>;

const run = (c: Issued | Certificate, o: LintOpts = {}): Out => lintFindings(c, o);
const ids = (c: Issued | Certificate, o: LintOpts = {}) => run(c, o).map((f) => f.id);
const sev = (c: Issued | Certificate, id: string, o: LintOpts = {}) => run(c, o).find((f) => f.id === id)?.severity;
const detail = (c: Issued | Certificate, id: string, o: LintOpts = {}) => run(c, o).find((f) => f.id === id)?.detail;
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

const LONG = { notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2040-01-01T00:00:00Z') };
let rootCa: Issued | undefined;
async function ca(): Promise<Issued> {
  rootCa ??= await root({ subject: 'CN=Lint Root', ...LONG });
  return rootCa;
}
/** A leaf whose CN is also its DNS SAN (so CN_NOT_IN_SAN stays quiet unless a test wants it). */
async function leafWith(extra: Partial<CertSpec> = {}): Promise<Issued> {
  return leaf(await ca(), { subject: 'CN=leaf.example.com', san: [{ dns: 'leaf.example.com' }], ...extra });
}
/** `base` with its TBSCertificate edited and re-signed by `signer` (ECDSA P-256, SHA-256). */
async function edited(base: Issued, signer: Keys, edit: (tbs: asnX509.TBSCertificate) => void): Promise<Certificate> {
  return parse(await resign(base.der, signer, SIG_OIDS.ecdsaWithSHA256, 'sha256', edit));
}
function extension(oid: string, critical: boolean, value: Uint8Array): asnX509.Extension {
  return new asnX509.Extension({ extnID: oid, critical, extnValue: new asn1.OctetString(value) });
}

// The baseline the other tests vary: a certificate that breaks none of the rules below has no
// finding at all (RFC 5280 profile, Go's parser, Istio's workload-certificate shape).
describe('certificates that follow every rule have no findings', () => {
  it('an ECDSA P-256 leaf, an RSA-2048 leaf and a root CA', async () => {
    expect(run(await leafWith())).toEqual([]);
    expect(run(await leafWith({ keys: await keys('RSA-2048', 'thresholds') }))).toEqual([]);
    expect(run(await ca())).toEqual([]);
    expect(run(await ca(), { roles: ['root', 'plugin-ca-path'], profile: 'production' })).toEqual([]);
  });
});

// RFC 1035 §2.3.4 / RFC 1123 §2.1: labels of letters, digits and hyphens, 63 octets or less; a
// name 255 octets or less on the wire, i.e. at most 253 characters written out with dots.
// lints.ts LINTS.DNS_SAN_INVALID: underscore tolerated, an optional leading `*.` (RFC 6125 §6.4.3),
// and Envoy SAN matching fails otherwise; severity error (zlint e_dnsname_bad_character_in_label).
describe('DNS_SAN_INVALID — label and name lengths, empty labels, wildcards', () => {
  const bad = async (...dns: string[]) => detail(await leafWith({ san: dns.map((d) => ({ dns: d })) }), 'DNS_SAN_INVALID');
  const label = (n: number) => 'a'.repeat(n);
  it('a 63-character label passes, 64 is an error', async () => {
    expect(await bad(`${label(63)}.example.com`)).toBeUndefined();
    const l = await leafWith({ san: [{ dns: `${label(64)}.example.com` }] });
    expect(sev(l, 'DNS_SAN_INVALID')).toBe('error');
  });
  it('a 253-character name passes, 254 fails', async () => {
    // 4 labels of 63 + 3 dots = 255; trimmed to the lengths wanted.
    const name = (n: number) => [label(63), label(63), label(63), label(63)].join('.').slice(255 - n);
    expect(name(253)).toHaveLength(253);
    expect(await bad(name(253))).toBeUndefined();
    expect(await bad(name(254))).toBe(name(254));
  });
  it('a leading wildcard label is accepted; "*." alone and a wildcard elsewhere are not', async () => {
    expect(await bad('*.example.com')).toBeUndefined();
    expect(await bad('*.')).toBe('*.');
    expect(await bad('foo.*.example.com')).toBe('foo.*.example.com');
    expect(await bad('*example.com')).toBe('*example.com');
  });
  it('a trailing dot (fully qualified) is accepted; an empty label inside or first is not', async () => {
    expect(await bad('leaf.example.com.')).toBeUndefined();
    expect(await bad('a..example.com')).toBe('a..example.com');
    expect(await bad('.example.com')).toBe('.example.com');
    expect(await bad('.')).toBe('.');
  });
  it('underscore and hyphen pass; other characters fail; the detail lists every bad name', async () => {
    expect(await bad('_acme-challenge.example-1.com')).toBeUndefined();
    const d = await bad('ok.example.com', 'sp ace.example.com', 'x!.example.com');
    expect(d?.split(', ')).toEqual(['sp ace.example.com', 'x!.example.com']);
  });
});

// Go's validity window, verify.go:459-471 (now.Before(NotBefore) / now.After(NotAfter): both
// ends are valid) and lints.ts's CA lead time ("a CA with less than 30 days left").
describe('CERT_EXPIRED / CERT_NOT_YET_VALID / CERT_EXPIRES_SOON — details and the window ends', () => {
  const NB = new Date('2026-05-01T00:00:00Z');
  it('the details carry the dates', async () => {
    const l = await leafWith({ notBefore: NB, notAfter: at(NB, 10 * DAY) });
    expect(detail(l, 'CERT_EXPIRED', { now: at(NB, 11 * DAY) })).toContain(l.cert.facts.notAfter);
    // More than 5 minutes early: the plain "valid from" detail.
    expect(detail(l, 'CERT_NOT_YET_VALID', { now: at(NB, -DAY) })).toContain(l.cert.facts.notBefore);
  });
  it('a CA with 10 days of validity: "expires soon" from notBefore to notAfter inclusive, with the days left', async () => {
    const c = await root({ subject: 'CN=Short CA', notBefore: NB, notAfter: at(NB, 10 * DAY) });
    expect(sev(c, 'CERT_EXPIRES_SOON', { now: at(NB, -1000) })).toBeUndefined();
    expect(sev(c, 'CERT_EXPIRES_SOON', { now: NB })).toBe('warning');
    expect(detail(c, 'CERT_EXPIRES_SOON', { now: NB })).toMatch(/\b10\b/);
    expect(detail(c, 'CERT_EXPIRES_SOON', { now: at(NB, 7 * DAY) })).toMatch(/\b3\b/);
    expect(sev(c, 'CERT_EXPIRES_SOON', { now: at(NB, 10 * DAY) })).toBe('warning');
    expect(sev(c, 'CERT_EXPIRES_SOON', { now: at(NB, 10 * DAY + 1000) })).toBeUndefined();
    expect(sev(c, 'CERT_EXPIRED', { now: at(NB, 10 * DAY + 1000) })).toBe('error');
  });
  // pilot-agent options.go SECRET_GRACE_PERIOD_RATIO = 0.5: the workload rotation point.
  it('a workload leaf past its rotation point: the detail names the 50% ratio', async () => {
    const l = await leafWith({ notBefore: NB, notAfter: at(NB, 2 * DAY) });
    expect(detail(l, 'CERT_EXPIRES_SOON', { now: at(NB, DAY + 1000), roles: ['workload'] })).toContain('50%');
  });
  // Istio security/pkg/cmd/constants.go DefaultMaxWorkloadCertTTL = 90 days.
  it('LEAF_VALIDITY_GT_90D: the detail gives the lifetime in days', async () => {
    const l = await leafWith({ notBefore: NB, notAfter: at(NB, 91 * DAY) });
    expect(detail(l, 'LEAF_VALIDITY_GT_90D', { now: at(NB, DAY) })).toMatch(/\b91\b/);
  });
});

// RFC 5280 §4.1.2.5: validity dates through 2049 MUST be UTCTime (zlint
// e_wrong_time_format_pre2050; error).
describe('TIME_ENCODING_WRONG', () => {
  it('a 2026 notBefore written as GeneralizedTime is an error; UTCTime is fine', async () => {
    const r = await ca();
    const l = await leafWith();
    const gt = await edited(l, r.keys, (tbs) => {
      tbs.validity.notBefore = new asnX509.Time({ generalTime: new Date('2026-05-01T00:00:00Z') });
    });
    expect(gt.facts.notBeforeEncoding).toBe('GeneralizedTime');
    expect(sev(gt, 'TIME_ENCODING_WRONG')).toBe('error');
    expect(sev(l, 'TIME_ENCODING_WRONG')).toBeUndefined();
  });
});

// RFC 5280 §4.1.2.2 (positive, at most 20 octets); Go >= 1.23 parser.go refuses negative serials
// (x509negativeserial=0), so they are errors; a zero serial is a warning (lints.ts:151).
describe('serial numbers — severities and details', () => {
  it('a negative serial is an error naming the serial, and counts its significant bytes without the sign', async () => {
    const r = await ca();
    const neg = await edited(await leafWith(), r.keys, (tbs) => {
      tbs.serialNumber = new Uint8Array([0xff]).buffer;
    });
    expect(neg.facts.serialNegative).toBe(true);
    expect(sev(neg, 'SERIAL_NOT_POSITIVE')).toBe('error');
    expect(detail(neg, 'SERIAL_NOT_POSITIVE')).toContain(neg.facts.serialHex);
    // -1 has one significant byte: fewer than 8.
    expect(sev(neg, 'SERIAL_LOW_ENTROPY')).toBe('info');
    expect(detail(neg, 'SERIAL_LOW_ENTROPY')).toMatch(/\b1\b/);
    // Go refuses to parse it at all.
    expect(sev(neg, 'GO_PARSE_REJECTS')).toBe('error');
  });
  it('serial 0: the detail names it', async () => {
    const r = await ca();
    const z = await edited(await leafWith(), r.keys, (tbs) => {
      tbs.serialNumber = new Uint8Array([0]).buffer;
    });
    expect(detail(z, 'SERIAL_NOT_POSITIVE')).toMatch(/\b0\b/);
  });
  it('SERIAL_TOO_LONG and SERIAL_LOW_ENTROPY details give the counts', async () => {
    expect(detail(await leafWith({ serial: '7f' + '11'.repeat(20) }), 'SERIAL_TOO_LONG')).toMatch(/\b21\b/);
    expect(detail(await leafWith({ serial: '11'.repeat(7) }), 'SERIAL_LOW_ENTROPY')).toMatch(/\b7\b/);
  });
});

// Go's parser.go: "x509: certificate contains duplicate extension with OID …" — the certificate is invisible
// to Istio (lints.ts LINTS.GO_PARSE_REJECTS, error).
describe('GO_PARSE_REJECTS', () => {
  it('a duplicate extension is an error', async () => {
    const r = await ca();
    const dup = await edited(await leafWith(), r.keys, (tbs) => {
      tbs.extensions!.push(tbs.extensions![0]!);
    });
    expect(sev(dup, 'GO_PARSE_REJECTS')).toBe('error');
  });
});

// NOT_V3: Go sets IsCA=false without BasicConstraints (parser.go), and Verify refuses a non-CA only
// as an intermediate (verify.go:496: `certType == intermediateCertificate && (!BasicConstraintsValid
// || !IsCA)`), never as a root. So only the signing certificate is an error; a v1 root in the
// plug-in CA path (root-cert.pem) stays a warning.
describe('NOT_V3 — only the signing-cert role makes it an error', () => {
  it('error as signing-cert; warning as a root of the plug-in CA path; the detail names the version', async () => {
    const rk = await keys('P-256');
    const r = await root({ keys: rk });
    const v1 = await edited(r, rk, (tbs) => {
      tbs.version = 0;
      tbs.extensions = undefined;
    });
    expect(sev(v1, 'NOT_V3', { roles: ['signing-cert'] })).toBe('error');
    expect(sev(v1, 'NOT_V3', { roles: ['root', 'plugin-ca-path'] })).toBe('warning');
    expect(detail(v1, 'NOT_V3')).toMatch(/\b1\b/);
    // SELF_SIGNED_WITHOUT_BC is about v3 certificates: a v1 self-signed root has no extensions at all.
    expect(ids(v1)).not.toContain('SELF_SIGNED_WITHOUT_BC');
  });
});

// Key lints. Go's x509.go getPublicKeyAlgorithmFromOID knows RSA, DSA, ECDSA and Ed25519 only: an
// id-RSASSA-PSS SubjectPublicKeyInfo is UnknownPublicKeyAlgorithm. lints.ts: RSA_KEY_LT_2048 applies
// to RSA and RSA-PSS moduli alike (crypto/rsa checkKeySize < 1024: error, else warning);
// EC_CURVE_NOT_P256_P384 only to EC keys; KEY_TYPE_NOT_RSA_OR_EC (warning) to everything else
// ("Istio never generates these").
describe('key lints', () => {
  it('an RSA-PSS key of 1536 bits: RSA_KEY_LT_2048 warning with the size, and KEY_TYPE_NOT_RSA_OR_EC', async () => {
    const r = await ca();
    const pss = await edited(await leafWith({ keys: await keys('RSA-1536', 'thresholds') }), r.keys, (tbs) => {
      tbs.subjectPublicKeyInfo.algorithm = new asnX509.AlgorithmIdentifier({ algorithm: '1.2.840.113549.1.1.10' });
    });
    expect(pss.facts.publicKey.type).toBe('RSA-PSS');
    expect(sev(pss, 'RSA_KEY_LT_2048')).toBe('warning');
    expect(detail(pss, 'RSA_KEY_LT_2048')).toMatch(/\b1536\b/);
    expect(sev(pss, 'KEY_TYPE_NOT_RSA_OR_EC')).toBe('warning');
    expect(detail(pss, 'KEY_TYPE_NOT_RSA_OR_EC')).toBe('RSA-PSS');
    expect(ids(pss)).not.toContain('EC_CURVE_NOT_P256_P384');
  });
  it('an Ed25519 key is KEY_TYPE_NOT_RSA_OR_EC (warning), not an EC curve or RSA size finding', async () => {
    const kp = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const ed = await leafWith({ keys: { kind: 'P-256', publicKey: kp.publicKey, privateKey: kp.privateKey } });
    expect(ed.cert.facts.publicKey.type).toBe('Ed25519');
    expect(sev(ed, 'KEY_TYPE_NOT_RSA_OR_EC')).toBe('warning');
    expect(ids(ed)).not.toContain('EC_CURVE_NOT_P256_P384');
    expect(ids(ed)).not.toContain('RSA_KEY_LT_2048');
  });
  it('RSA and EC keys are not KEY_TYPE_NOT_RSA_OR_EC', async () => {
    expect(ids(await leafWith({ keys: await keys('RSA-2048', 'thresholds') }))).not.toContain('KEY_TYPE_NOT_RSA_OR_EC');
    expect(ids(await leafWith({ keys: await keys('P-384') }))).not.toContain('KEY_TYPE_NOT_RSA_OR_EC');
  });
});

// CA profile: RFC 5280 §4.2.1.3 (keyCertSign/cRLSign; encipherment is not a CA usage, zlint
// e_rsa_allowed_ku_no_encipherment_ca), §4.2.1.2 (SKI MUST on CAs: warning here), §4.1.2.6 (a CA's
// subject MUST be non-empty: warning, "Go still links it"), Go verify.go checkChainForKeyUsage
// (any EKU of the CA that is serverAuth or anyExtendedKeyUsage lets serverAuth through).
describe('CA lints', () => {
  it('CA_KU_ENCIPHERMENT is info for keyEncipherment and for dataEncipherment', async () => {
    expect(sev(await root({ keyUsage: KU.keyCertSign | KU.cRLSign | KU.dataEncipherment }), 'CA_KU_ENCIPHERMENT')).toBe('info');
    expect(sev(await root({ keyUsage: KU.keyCertSign | KU.cRLSign | KU.keyEncipherment }), 'CA_KU_ENCIPHERMENT')).toBe('info');
  });
  it('CA_SKI_MISSING is a warning', async () => {
    expect(sev(await root({ noSki: true }), 'CA_SKI_MISSING')).toBe('warning');
  });
  it('CA_SUBJECT_EMPTY is a warning; a named CA does not get it', async () => {
    const anon = await root({ subject: '', ...LONG });
    expect(anon.cert.facts.subjectEmpty).toBe(true);
    expect(sev(anon, 'CA_SUBJECT_EMPTY')).toBe('warning');
    expect(ids(await ca())).not.toContain('CA_SUBJECT_EMPTY');
  });
  it('CA_EKU_PRESENT lists every EKU; serverAuth anywhere in the list satisfies keycertbundle.Verify', async () => {
    const c = await root({ eku: [EKU.clientAuth, EKU.serverAuth] });
    expect(detail(c, 'CA_EKU_PRESENT')?.split(', ')).toEqual(c.cert.facts.extKeyUsage.usages);
    expect(c.cert.facts.extKeyUsage.usages).toHaveLength(2);
    expect(ids(c, { roles: ['signing-cert'] })).not.toContain('CA_EKU_EXCLUDES_SERVERAUTH');
  });
  it('ROOT_PATHLEN_PRESENT names the pathLen', async () => {
    expect(detail(await root({ pathLen: 3 }), 'ROOT_PATHLEN_PRESENT')).toMatch(/\b3\b/);
  });
});

// RFC 5280 §4.2.1.9: "CAs MUST NOT include the pathLenConstraint field unless the cA boolean is
// asserted" (zlint e_path_len_constraint_improperly_included: error).
describe('PATHLEN_WITHOUT_CA', () => {
  it('a non-CA with pathLen is an error; without pathLen, or without BasicConstraints, nothing', async () => {
    expect(sev(await leafWith({ ca: false, pathLen: 0 }), 'PATHLEN_WITHOUT_CA')).toBe('error');
    expect(ids(await leafWith({ ca: false }))).not.toContain('PATHLEN_WITHOUT_CA');
    expect(ids(await leafWith({ ca: null }))).not.toContain('PATHLEN_WITHOUT_CA');
  });
});

// lints.ts LINTS.SELF_SIGNED_WITHOUT_BC: a v3 self-signed certificate without BasicConstraints
// cannot be used by Go to verify anything (IsCA false); warning. Only self-signed v3 ones.
describe('SELF_SIGNED_WITHOUT_BC', () => {
  it('fires for a self-signed v3 certificate without BasicConstraints only', async () => {
    const ss = await issue({ subject: 'CN=bare', ca: null, keyUsage: null, ...LONG });
    expect(ss.cert.facts.selfSigned).toBe(true);
    expect(sev(ss, 'SELF_SIGNED_WITHOUT_BC')).toBe('warning');
    // Self-signed with BasicConstraints (cA false): no.
    expect(ids(await issue({ subject: 'CN=bare2', ca: false, ...LONG }))).not.toContain('SELF_SIGNED_WITHOUT_BC');
    // Issued by another key, without BasicConstraints: no.
    expect(ids(await leafWith({ ca: null }))).not.toContain('SELF_SIGNED_WITHOUT_BC');
  });
});

// Leaf lints' severities (lints.ts LINTS): LEAF_EC_KEYENCIPHERMENT info (RFC 8813 §3: meaningless
// for EC, but Istio's CA sets it), LEAF_SKI_MISSING info ("expected for Istio-issued certs"),
// LEAF_KU_CERTSIGN error also for cRLSign (RFC 5280 §4.2.1.3: both only with cA), AKI_MISSING
// warning (RFC 5280 §4.2.1.1 MUST, except self-issued).
describe('leaf lint severities', () => {
  it('LEAF_EC_KEYENCIPHERMENT info, LEAF_SKI_MISSING info, LEAF_KU_CERTSIGN for cRLSign alone, AKI_MISSING warning', async () => {
    expect(sev(await leafWith({ keyUsage: KU.digitalSignature | KU.keyEncipherment }), 'LEAF_EC_KEYENCIPHERMENT')).toBe('info');
    expect(sev(await leafWith({ noSki: true }), 'LEAF_SKI_MISSING')).toBe('info');
    expect(sev(await leafWith({ keyUsage: KU.digitalSignature | KU.cRLSign }), 'LEAF_KU_CERTSIGN')).toBe('error');
    expect(sev(await leafWith({ noAki: true }), 'AKI_MISSING')).toBe('warning');
  });
});

// CN_NOT_IN_SAN (zlint e_subject_common_name_not_from_san; info here, "clients ignore CN"): the CN
// must be one of the DNS, IP, email or URI SANs, compared case-insensitively (DNS names are case
// insensitive, RFC 4343); without any SAN there is nothing to compare (LEAF_SAN_MISSING instead).
describe('CN_NOT_IN_SAN', () => {
  const cnLeaf = (cn: string, san: NameSpec[] | undefined) => leafWith({ subject: `CN=${cn}`, san });
  it('case-insensitive match against every SAN type', async () => {
    expect(ids(await cnLeaf('Leaf.Example.COM', [{ dns: 'leaf.example.com' }]))).not.toContain('CN_NOT_IN_SAN');
    expect(ids(await cnLeaf('leaf.example.com', [{ dns: 'LEAF.Example.com' }]))).not.toContain('CN_NOT_IN_SAN');
    expect(ids(await cnLeaf('10.0.0.1', [{ ip: '10.0.0.1' }]))).not.toContain('CN_NOT_IN_SAN');
    expect(ids(await cnLeaf('ops@example.com', [{ email: 'ops@example.com' }]))).not.toContain('CN_NOT_IN_SAN');
    expect(ids(await cnLeaf('spiffe://cluster.local/ns/a/sa/b', [{ uri: 'spiffe://cluster.local/ns/a/sa/b' }]))).not.toContain('CN_NOT_IN_SAN');
  });
  it('a CN outside the SANs is info naming the CN, whatever kind of SAN there is', async () => {
    const l = await cnLeaf('other.example.com', [{ dns: 'leaf.example.com' }]);
    expect(sev(l, 'CN_NOT_IN_SAN')).toBe('info');
    expect(detail(l, 'CN_NOT_IN_SAN')).toContain('other.example.com');
    expect(sev(await cnLeaf('x', [{ ip: '10.0.0.1' }]), 'CN_NOT_IN_SAN')).toBe('info');
    expect(sev(await cnLeaf('x', [{ email: 'ops@example.com' }]), 'CN_NOT_IN_SAN')).toBe('info');
  });
  it('a SAN of only an "other" name (registeredID) still counts as a SAN', async () => {
    const r = await ca();
    const reg = await edited(await cnLeaf('x', [{ dns: 'leaf.example.com' }]), r.keys, (tbs) => {
      const san = new asnX509.SubjectAlternativeName([new asnX509.GeneralName({ registeredID: '1.3.6.1.4.1.99999.7' })]);
      tbs.extensions = new asnX509.Extensions(
        tbs.extensions!.map((e) => (e.extnID === '2.5.29.17' ? extension('2.5.29.17', false, new Uint8Array(asn1.AsnConvert.serialize(san))) : e)),
      );
    });
    expect(reg.facts.subjectAltName.other).toHaveLength(1);
    expect(reg.facts.subjectAltName.dns).toHaveLength(0);
    expect(sev(reg, 'CN_NOT_IN_SAN')).toBe('info');
  });
  it('no SAN: no CN_NOT_IN_SAN', async () => {
    expect(ids(await cnLeaf('x', undefined).then((l) => l))).not.toContain('CN_NOT_IN_SAN');
  });
});

// RFC 5280 §4.1.2.6 / §4.2.1.6: with an empty subject the SAN MUST be present and critical (zlint
// e_ext_san_not_critical_without_subject, e_subject_empty_without_san: errors).
describe('empty subjects', () => {
  it('SAN_NOT_CRITICAL_WITH_EMPTY_SUBJECT: error when the SAN is not critical, nothing when it is', async () => {
    const uri = [{ uri: 'spiffe://cluster.local/ns/a/sa/b' }];
    expect(sev(await leafWith({ subject: '', san: uri, sanCritical: false }), 'SAN_NOT_CRITICAL_WITH_EMPTY_SUBJECT')).toBe('error');
    expect(run(await leafWith({ subject: '', san: uri, sanCritical: true }))).toEqual([]);
  });
  it('SUBJECT_AND_SAN_EMPTY: error without a SAN; a DNS plus an IP SAN is not empty', async () => {
    expect(sev(await leafWith({ subject: '', san: undefined }), 'SUBJECT_AND_SAN_EMPTY')).toBe('error');
    const two = await leafWith({ subject: '', san: [{ dns: 'leaf.example.com' }, { ip: '10.0.0.1' }], sanCritical: true });
    expect(ids(two)).not.toContain('SUBJECT_AND_SAN_EMPTY');
  });
});

// URIs and SPIFFE IDs: Istio pkg/spiffe/spiffe.go (ParseIdentity; the trust domain compared with
// the mesh's and its aliases); lints.ts: MULTIPLE_URI_SANS warning, URI_SAN_NOT_SPIFFE info.
describe('URI SANs', () => {
  it('the details list the URIs and the count', async () => {
    const l = await leafWith({
      san: [{ dns: 'leaf.example.com' }, { uri: 'istio://a/b' }, { uri: 'https://example.com/x' }, { uri: 'spiffe://cluster.local/ns/a/sa/b' }],
    });
    expect(sev(l, 'URI_SAN_NOT_SPIFFE')).toBe('info');
    expect(detail(l, 'URI_SAN_NOT_SPIFFE')?.split(', ')).toEqual(['istio://a/b', 'https://example.com/x']);
    expect(detail(l, 'MULTIPLE_URI_SANS')).toMatch(/\b3\b/);
  });
  it('without a mesh trust domain no TRUST_DOMAIN_MISMATCH; with one, the detail names both sides', async () => {
    const l = await leafWith({ san: [{ dns: 'leaf.example.com' }, { uri: 'spiffe://other.local/ns/a/sa/b' }] });
    expect(ids(l)).not.toContain('TRUST_DOMAIN_MISMATCH');
    const accepted = (d: string | undefined) => {
      const [td, rest] = (d ?? '').split(' is not ');
      return { td, accepted: rest?.split(' or ') };
    };
    expect(accepted(detail(l, 'TRUST_DOMAIN_MISMATCH', { trustDomain: 'cluster.local' }))).toEqual({ td: 'other.local', accepted: ['cluster.local'] });
    expect(accepted(detail(l, 'TRUST_DOMAIN_MISMATCH', { trustDomain: 'cluster.local', aliases: ['old.local', 'older.local'] }))).toEqual({
      td: 'other.local',
      accepted: ['cluster.local', 'old.local', 'older.local'],
    });
  });
});

// lints.ts LINTS.SELF_ISSUED_NOT_SELF_SIGNED (info): subject equals issuer, another key signed it.
describe('SELF_ISSUED_NOT_SELF_SIGNED', () => {
  it('is info', async () => {
    const r = await ca();
    const same = await issue({ subject: r.spec.subject, issuer: r, ca: true, ...LONG });
    expect(same.cert.facts.selfIssued).toBe(true);
    expect(same.cert.facts.selfSigned).toBe(false);
    expect(sev(same, 'SELF_ISSUED_NOT_SELF_SIGNED')).toBe('info');
  });
});

// Go verify.go:199-203 (UnhandledCriticalExtension: Verify fails on a critical extension it does
// not handle): an error, the detail lists the OIDs.
describe('UNKNOWN_CRITICAL_EXTENSION', () => {
  it('two unknown critical extensions: error, both OIDs listed; non-critical ones are fine', async () => {
    const r = await ca();
    const l = await leafWith();
    const crit = await edited(l, r.keys, (tbs) => {
      tbs.extensions!.push(extension('1.3.6.1.4.1.99999.1', true, new Uint8Array([5, 0])), extension('1.3.6.1.4.1.99999.2', true, new Uint8Array([5, 0])));
    });
    expect(sev(crit, 'UNKNOWN_CRITICAL_EXTENSION')).toBe('error');
    expect(detail(crit, 'UNKNOWN_CRITICAL_EXTENSION')?.split(', ')).toEqual(['1.3.6.1.4.1.99999.1', '1.3.6.1.4.1.99999.2']);
    const soft = await edited(l, r.keys, (tbs) => {
      tbs.extensions!.push(extension('1.3.6.1.4.1.99999.1', false, new Uint8Array([5, 0])));
    });
    expect(ids(soft)).not.toContain('UNKNOWN_CRITICAL_EXTENSION');
  });
});

// bundleOrder (lints.ts:297-329): each adjacent pair is a duplicate, "the next one issued this"
// (leaf-first, what Go's tls.X509KeyPair and Istio's cert-chain.pem expect: RFC 8446 §4.4.2 "each
// following certificate SHOULD directly certify the one immediately preceding it"), "this one
// issued the next" (root-first: BUNDLE_REVERSE_ORDER) or unrelated; duplicates are left out of
// the order. A file of self-signed roots has no order.
describe('bundleOrder', () => {
  interface Pki {
    r: Certificate;
    i: Certificate;
    l: Certificate;
    r2: Certificate;
    issued: (a: Certificate, b: Certificate) => boolean;
  }
  let pki: Pki | undefined;
  async function build(): Promise<Pki> {
    if (pki) return pki;
    const r = await root({ subject: 'CN=Order Root', ...LONG });
    const i = await issue({ subject: 'CN=Order Int', issuer: r, ca: true, ...LONG });
    const l = await leaf(i, { subject: 'CN=leaf.example.com', san: [{ dns: 'leaf.example.com' }] });
    const r2 = await root({ subject: 'CN=Other Root', ...LONG });
    const issuerOf = new Map<Certificate, Certificate>([
      [i.cert, r.cert],
      [l.cert, i.cert],
    ]);
    pki = { r: r.cert, i: i.cert, l: l.cert, r2: r2.cert, issued: (a, b) => issuerOf.get(b) === a };
    return pki;
  }
  it('leaf-first: no lint', async () => {
    const { r, i, l, issued } = await build();
    const o = bundleOrder([l, i, r], issued);
    expect(o.adjacentLinks).toEqual(['next-issues-this', 'next-issues-this']);
    expect(o.lints).toEqual([]);
    expect(o.order).toMatch(/^leaf-first/);
  });
  it('root-first: BUNDLE_REVERSE_ORDER', async () => {
    const { r, i, l, issued } = await build();
    const o = bundleOrder([r, i, l], issued);
    expect(o.adjacentLinks).toEqual(['this-issues-next', 'this-issues-next']);
    expect(o.lints).toEqual(['BUNDLE_REVERSE_ORDER']);
  });
  it('a duplicate does not break a leaf-first order, but is reported', async () => {
    const { i, l, issued } = await build();
    const o = bundleOrder([l, l, i], issued);
    expect(o.adjacentLinks).toEqual(['duplicate', 'next-issues-this']);
    expect(o.duplicateFingerprints).toEqual([l.facts.sha256FingerprintHex]);
    expect(o.lints).toEqual(['BUNDLE_DUPLICATE_CERT']);
    expect(o.order).toMatch(/^leaf-first/);
  });
  it('a duplicate in a root-first file: still root-first', async () => {
    const { r, i, issued } = await build();
    const o = bundleOrder([r, i, i], issued);
    expect(o.lints).toEqual(['BUNDLE_DUPLICATE_CERT', 'BUNDLE_REVERSE_ORDER']);
  });
  it('unrelated, or a chain followed by an unrelated certificate: BUNDLE_UNORDERED_OR_UNRELATED', async () => {
    const { r, i, l, r2, issued } = await build();
    const unordered = ['BUNDLE_UNORDERED_OR_UNRELATED'];
    const lr2 = bundleOrder([l, r2], issued);
    expect(lr2.adjacentLinks).toEqual(['unrelated']);
    expect(lr2.lints).toEqual(unordered);
    expect(lr2.order).toMatch(/unordered/);
    expect(bundleOrder([l, i, r2], issued).lints).toEqual(unordered);
    expect(bundleOrder([r, i, r2], issued).lints).toEqual(unordered);
    expect(bundleOrder([i, l, r], issued).adjacentLinks).toEqual(['this-issues-next', 'unrelated']);
    expect(bundleOrder([i, l, r], issued).lints).toEqual(unordered);
  });
  it('the same leaf twice has no issuer link at all: unordered (and duplicate)', async () => {
    const { l, issued } = await build();
    expect(bundleOrder([l, l], issued).lints).toEqual(['BUNDLE_DUPLICATE_CERT', 'BUNDLE_UNORDERED_OR_UNRELATED']);
  });
  it('only self-signed roots: no order, no lint', async () => {
    const { r, r2, issued } = await build();
    const o = bundleOrder([r, r2], issued);
    expect(o.adjacentLinks).toEqual(['unrelated']);
    expect(o.lints).toEqual([]);
  });
});
