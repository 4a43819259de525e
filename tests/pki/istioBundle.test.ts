// istiod's plug-in CA checks in src/core/pki/istio.ts, step by step (issue #28: survivors of
// reports/mutation/pki.nofuzz.nostatic.group-g). Expected values come from Istio's sources:
// security/pkg/pki/util/keycertbundle.go Verify (parse, chain, key, key/cert match, CRL
// coverage, in that order, each error wrapped as there), security/pkg/pki/ca/ca.go
// NewPluggedCertIstioCAOptions (the signing cert must be a CA) and NewIstioCA / minTTL (the first
// certificate of cert-chain.pem must not have expired; a default TTL of 24h is clamped to what is
// left), with Go 1.26 crypto/x509 verdicts inside.
import { describe, expect, it } from 'vitest';
import { FAILING_CHECK, keyCertBundleVerify, pluggedCaLoad, type CheckStep, type KeyCertBundleInput } from '../../src/core/pki/istio.ts';
import { encodePem } from '../../src/core/pki/pem.ts';
import { DAY, EKU, NOW, intermediate, issue, keys, leaf, root, type Issued, type Keys } from './pkiBuilder.ts';
import { asV1, bytes, context, crlDer, crlPem, keyPem, negativeSerial, pem, pemBytes, sha256Hex, stepStates } from './istioFixtures.ts';

const PARSE = 'signing cert parses';
const CHAIN = 'chain verification';
const KEY = 'key parse';
const MATCH = 'key matches the signing cert';
const CRL = 'CRL coverage';
const IS_CA = 'signing cert is a CA';
const TTL = 'first chain certificate not expired';

interface Pki {
  rootCa: Issued;
  signing: Issued;
  signingKeys: Keys;
  input: KeyCertBundleInput;
}

/** cacerts as istiod reads them: ca-cert.pem, ca-key.pem, cert-chain.pem (signing cert, root), root-cert.pem. */
async function cacerts(signingExtra: Parameters<typeof intermediate>[2] = {}, rootSubject = 'CN=Test Root'): Promise<Pki> {
  const rootCa = await root({ subject: rootSubject });
  const signingKeys = await keys('P-256');
  const signing = await intermediate(rootCa, 'CN=Signing CA', { keys: signingKeys, ...signingExtra });
  return {
    rootCa,
    signing,
    signingKeys,
    input: { cert: pemBytes(signing), key: bytes(await keyPem(signingKeys, 'sec1')), chain: pemBytes(signing, rootCa), root: pemBytes(rootCa) },
  };
}

/** Every step explains itself (the checklist shows a detail line for each). */
function expectDetails(steps: CheckStep[]): void {
  for (const s of steps) expect(s.detail, s.name).not.toBe('');
}

describe('keyCertBundleVerify — keycertbundle.go Verify', () => {
  it('a good bundle passes every step; the CRL step is skipped without a CRL (len(crl) == 0)', async () => {
    const { input, signing } = await cacerts();
    const r = await keyCertBundleVerify(context(), input);
    expect(r.verdict).toEqual({ ok: true, failingCheck: null, error: null });
    expect(stepStates(r.steps)).toEqual([
      [PARSE, 'pass'],
      [CHAIN, 'pass'],
      [KEY, 'pass'],
      [MATCH, 'pass'],
      [CRL, 'skipped'],
    ]);
    expectDetails(r.steps);
    expect(r.steps[0]!.detail).toContain('CN=Signing CA');
    // The verified chain, by common name, leaf first.
    expect(r.steps[1]!.detail).toContain('Signing CA → Test Root');
    // The key's PEM type.
    expect(r.steps[2]!.detail).toContain('EC PRIVATE KEY');
    expect(r.keyParses).toBe(true);
    expect(r.keyMatchesCert).toBe(true);
    expect(r.rootsIgnored).toBe(0);
    expect(r.leaf?.der).toEqual(signing.der);
    expect(r.certsWithoutCrl).toBeUndefined();
    // Every certificate of the verified chain is completed (SHA-256 fingerprint of the DER).
    for (const c of r.go!.chains[0]!) expect(c.facts.sha256FingerprintHex).toBe(await sha256Hex(c.der));
  });

  it('a chain certificate without a common name is named by its subject', async () => {
    const { input } = await cacerts({}, 'O=Acme Root');
    const r = await keyCertBundleVerify(context(), input);
    expect(r.verdict.ok).toBe(true);
    expect(r.steps[1]!.detail).toContain('Signing CA → O=Acme Root');
  });

  it('a signing cert with an empty subject still parses', async () => {
    const rootCa = await root();
    const k = await keys('P-256');
    const signing = await issue({ subject: '', issuer: rootCa, ca: true, keys: k });
    const r = await keyCertBundleVerify(context(), {
      cert: pemBytes(signing),
      key: bytes(await keyPem(k)),
      chain: pemBytes(signing, rootCa),
      root: pemBytes(rootCa),
    });
    expect(r.steps[0]!.status).toBe('pass');
    expect(r.steps[0]!.detail).toContain('(empty subject)');
  });

  // cert, err := ParsePemEncodedCertificate(certBytes) → "failed to parse cert PEM: %v"
  it('a signing cert that does not parse fails first; the four later steps are skipped', async () => {
    const { input } = await cacerts();
    const r = await keyCertBundleVerify(context(), { ...input, cert: bytes('not a certificate\n') });
    expect(r.verdict).toEqual({ ok: false, failingCheck: FAILING_CHECK.parse, error: 'failed to parse cert PEM: invalid PEM encoded certificate' });
    expect(stepStates(r.steps)).toEqual([
      [PARSE, 'fail'],
      [CHAIN, 'skipped'],
      [KEY, 'skipped'],
      [MATCH, 'skipped'],
      [CRL, 'skipped'],
    ]);
    expectDetails(r.steps);
    expect(r.steps[0]!.error).toBe('failed to parse cert PEM: invalid PEM encoded certificate');
    expect(r.leaf).toBeUndefined();
    expect(r.go).toBeUndefined();
    expect(r.rootsIgnored).toBe(0);
  });

  // chains, err := cert.Verify(opts) with empty KeyUsages (Go: ExtKeyUsageServerAuth).
  it("a chain that does not verify: Go's error wrapped; key and CRL steps skipped", async () => {
    const { input } = await cacerts();
    const stranger = await root({ subject: 'CN=Stranger' });
    const r = await keyCertBundleVerify(context(), { ...input, root: pemBytes(stranger) });
    const error = 'cannot verify the cert with the provided root chain and cert pool with error: x509: certificate signed by unknown authority';
    expect(r.verdict.failingCheck).toBe(FAILING_CHECK.chain);
    expect(r.verdict.error).toMatch(
      /^cannot verify the cert with the provided root chain and cert pool with error: x509: certificate signed by unknown authority/,
    );
    expect(r.verdict.ok).toBe(false);
    expect(stepStates(r.steps)).toEqual([
      [PARSE, 'pass'],
      [CHAIN, 'fail'],
      [KEY, 'skipped'],
      [MATCH, 'skipped'],
      [CRL, 'skipped'],
    ]);
    expectDetails(r.steps);
    expect(r.steps[1]!.error).toBe(r.verdict.error);
    expect(r.steps[1]!.error!.startsWith(error)).toBe(true);
    // What Go verified against: 1 root, 2 chain certificates.
    expect(r.steps[1]!.detail).toMatch(/\b1 root/);
    expect(r.steps[1]!.detail).toMatch(/\b2 chain/);
    expect(r.steps[1]!.detail).not.toMatch(/ignored/);
    expect(r.keyParses).toBeUndefined();
    // The leaf is completed even though no chain was found.
    expect(r.leaf!.facts.sha256FingerprintHex).toBe(await sha256Hex(r.leaf!.der));
  });

  it('root-cert.pem blocks Go skips are counted and named in the failed chain step', async () => {
    const { input, signingKeys } = await cacerts();
    const stranger = await root({ subject: 'CN=Stranger' });
    const k = await keys('P-256');
    const rootFile = bytes(pem(stranger) + encodePem('PRIVATE KEY', new Uint8Array([1])) + (await keyPem(k)));
    const r = await keyCertBundleVerify(context(), { ...input, root: rootFile });
    expect(r.rootsIgnored).toBe(2);
    expect(r.steps[1]!.detail).toMatch(/\b2 block/);
    expect(signingKeys.kind).toBe('P-256');
  });

  // Go's Verify with no KeyUsages defaults to ExtKeyUsageServerAuth: a signing cert whose EKU is
  // clientAuth only is refused ("x509: certificate specifies an incompatible key usage").
  it('the chain is verified for serverAuth unless other usages are asked for', async () => {
    const { input } = await cacerts({ eku: [EKU.clientAuth] });
    const r = await keyCertBundleVerify(context(), input);
    expect(r.verdict.error).toBe(
      'cannot verify the cert with the provided root chain and cert pool with error: x509: certificate specifies an incompatible key usage',
    );
    expect((await keyCertBundleVerify(context(), input, ['clientAuth'])).verdict.ok).toBe(true);
    const server = await cacerts({ eku: [EKU.serverAuth] });
    expect((await keyCertBundleVerify(context(), server.input)).verdict.ok).toBe(true);
  });

  // ParsePemEncodedKey(privKeyBytes) → "failed to parse private key PEM: %v"
  it('a key that does not parse: the match and CRL steps are skipped', async () => {
    const { input, signing } = await cacerts();
    const r = await keyCertBundleVerify(context(), { ...input, key: pemBytes(signing) });
    expect(r.verdict).toEqual({
      ok: false,
      failingCheck: FAILING_CHECK.key,
      error: 'failed to parse private key PEM: unsupported PEM block type for a private key: CERTIFICATE',
    });
    expect(stepStates(r.steps)).toEqual([
      [PARSE, 'pass'],
      [CHAIN, 'pass'],
      [KEY, 'fail'],
      [MATCH, 'skipped'],
      [CRL, 'skipped'],
    ]);
    expectDetails(r.steps);
    expect(r.steps[2]!.error).toBe(r.verdict.error);
    expect(r.keyParses).toBe(false);
    expect(r.keyMatchesCert).toBeUndefined();
    expect(r.go?.ok).toBe(true);
  });

  // tls.X509KeyPair(certBytes, privKeyBytes) → "the cert does not match the key: %v"
  it('a key of another certificate: the match fails, CRL skipped', async () => {
    const { input } = await cacerts();
    const r = await keyCertBundleVerify(context(), { ...input, key: bytes(await keyPem(await keys('P-256'))) });
    expect(r.verdict).toEqual({
      ok: false,
      failingCheck: FAILING_CHECK.match,
      error: 'the cert does not match the key: tls: private key does not match public key',
    });
    expect(stepStates(r.steps)).toEqual([
      [PARSE, 'pass'],
      [CHAIN, 'pass'],
      [KEY, 'pass'],
      [MATCH, 'fail'],
      [CRL, 'skipped'],
    ]);
    expectDetails(r.steps);
    expect(r.steps[3]!.error).toBe(r.verdict.error);
    expect(r.keyParses).toBe(true);
    expect(r.keyMatchesCert).toBe(false);
  });

  it('a redacted key: both key steps skipped with the reason, the rest checked', async () => {
    const { input } = await cacerts();
    const r = await keyCertBundleVerify(context(), { ...input, key: new Uint8Array(), keyRedacted: 'ca-key.pem was redacted' });
    expect(r.verdict.ok).toBe(true);
    expect(stepStates(r.steps)).toEqual([
      [PARSE, 'pass'],
      [CHAIN, 'pass'],
      [KEY, 'skipped'],
      [MATCH, 'skipped'],
      [CRL, 'skipped'],
    ]);
    expect(r.steps[2]!.detail).toContain('ca-key.pem was redacted');
    expect(r.steps[3]!.detail).toContain('ca-key.pem was redacted');
    expect(r.keyParses).toBeUndefined();
    expect(r.keyMatchesCert).toBeUndefined();
  });
});

describe('keyCertBundleVerify — CRL coverage (keycertbundle.go Verify, `if len(crl) != 0`)', () => {
  it('an empty CRL file is no CRL', async () => {
    const { input } = await cacerts();
    const r = await keyCertBundleVerify(context(), { ...input, crl: new Uint8Array() });
    expect(r.verdict.ok).toBe(true);
    expect(r.steps.at(-1)).toMatchObject({ name: CRL, status: 'skipped' });
    expect(r.crls).toBeUndefined();
  });

  it('every certificate of cert-chain.pem signed one of the CRLs: pass', async () => {
    const { input, signing, rootCa } = await cacerts();
    const r = await keyCertBundleVerify(context(), { ...input, crl: crlPem(await crlDer(signing), await crlDer(rootCa)) });
    expect(r.verdict).toEqual({ ok: true, failingCheck: null, error: null });
    expect(r.steps.at(-1)).toMatchObject({ name: CRL, status: 'pass' });
    expect(r.steps.at(-1)!.detail).toMatch(/\b2 CRL/);
    expect(r.certsWithoutCrl).toEqual([]);
    expect(r.crls).toHaveLength(2);
    expect(r.keyParses).toBe(true);
    expect(r.keyMatchesCert).toBe(true);
  });

  // "missing CRL signed by certificates: %v" over the Subject.String() of the signers left.
  it('a chain certificate without a CRL: its subject is named', async () => {
    const { input, signing } = await cacerts();
    const r = await keyCertBundleVerify(context(), { ...input, crl: crlPem(await crlDer(signing)) });
    expect(r.verdict).toEqual({ ok: false, failingCheck: FAILING_CHECK.crl, error: 'missing CRL signed by certificates: [CN=Test Root]' });
    expect(r.steps.at(-1)).toMatchObject({ name: CRL, status: 'fail', error: r.verdict.error });
    expect(r.steps.at(-1)!.detail).toMatch(/\b1 CRL/);
    expect(r.certsWithoutCrl).toEqual(['CN=Test Root']);
    expect(r.crls).toHaveLength(1);
    expect(r.keyMatchesCert).toBe(true);
  });

  // Go ranges over a map, so its order is random; ours is sorted so the text is stable.
  it('several without a CRL: all named, sorted', async () => {
    const { input } = await cacerts();
    const stranger = await root({ subject: 'CN=Stranger' });
    const r = await keyCertBundleVerify(context(), { ...input, crl: crlPem(await crlDer(stranger)) });
    expect(r.verdict.error).toBe('missing CRL signed by certificates: [CN=Signing CA CN=Test Root]');
    expect(r.certsWithoutCrl).toEqual(['CN=Signing CA', 'CN=Test Root']);
  });

  it('sorted even when cert-chain.pem lists them the other way', async () => {
    const rootCa = await root({ subject: 'CN=Alpha Root' });
    const k = await keys('P-256');
    const signing = await intermediate(rootCa, 'CN=Zeta Signing', { keys: k });
    const stranger = await root({ subject: 'CN=Stranger' });
    const r = await keyCertBundleVerify(context(), {
      cert: pemBytes(signing),
      key: bytes(await keyPem(k)),
      chain: pemBytes(signing, rootCa),
      root: pemBytes(rootCa),
      crl: crlPem(await crlDer(stranger)),
    });
    expect(r.verdict.error).toBe('missing CRL signed by certificates: [CN=Alpha Root CN=Zeta Signing]');
    expect(r.certsWithoutCrl).toEqual(['CN=Alpha Root', 'CN=Zeta Signing']);
  });

  // x509.ParseCertificate(block.Bytes) of each chain block → "failed to parse cert chain: %w"
  it('a chain block Go cannot parse fails the CRL step', async () => {
    const { input, signing, rootCa } = await cacerts();
    const neg = await negativeSerial(await leaf(rootCa), rootCa.keys);
    const r = await keyCertBundleVerify(context(), { ...input, chain: pemBytes(signing, neg, rootCa), crl: crlPem(await crlDer(signing)) });
    expect(r.verdict.failingCheck).toBe(FAILING_CHECK.crl);
    expect(r.verdict.error).toMatch(/^failed to parse cert chain: x509: negative serial/);
    expect(r.steps.at(-1)).toMatchObject({ name: CRL, status: 'fail', error: r.verdict.error });
    expect(r.steps.at(-1)!.detail).not.toBe('');
    expect(r.keyParses).toBe(true);
    expect(r.crls).toBeUndefined();
    expect(r.rootsIgnored).toBe(0);
  });

  // x509.ParseRevocationList(block.Bytes) → "failed to parse CRL PEM: %w"
  it('a CRL block that does not parse fails the CRL step', async () => {
    const { input } = await cacerts();
    const r = await keyCertBundleVerify(context(), { ...input, crl: bytes(encodePem('X509 CRL', new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]))) });
    expect(r.verdict.failingCheck).toBe(FAILING_CHECK.crl);
    expect(r.verdict.error).toMatch(/^failed to parse CRL PEM: ./);
    expect(r.steps.at(-1)).toMatchObject({ name: CRL, status: 'fail', error: r.verdict.error });
    expect(r.steps.at(-1)!.detail).not.toBe('');
    expect(r.keyMatchesCert).toBe(true);
  });
});

describe('pluggedCaLoad — ca.go NewPluggedCertIstioCAOptions, then NewIstioCA minTTL', () => {
  it('a failed Verify: both later steps skipped, load = the Verify verdict', async () => {
    const { input } = await cacerts();
    const r = await pluggedCaLoad(context(), { ...input, cert: bytes('') });
    expect(r.load).toEqual(r.verdict);
    expect(r.load.failingCheck).toBe(FAILING_CHECK.parse);
    expect(stepStates(r.steps.slice(-2))).toEqual([
      [IS_CA, 'skipped'],
      [TTL, 'skipped'],
    ]);
    expectDetails(r.steps);
  });

  // if !cert.IsCA → "certificate is not authorized to sign other certificates"
  it('a signing cert that is not a CA (CA:FALSE) cannot load', async () => {
    const { input } = await cacerts({ ca: false, eku: [EKU.serverAuth] });
    const r = await pluggedCaLoad(context(), input);
    expect(r.verdict.ok).toBe(true);
    expect(r.load).toEqual({ ok: false, failingCheck: FAILING_CHECK.isCA, error: 'certificate is not authorized to sign other certificates' });
    expect(stepStates(r.steps.slice(-2))).toEqual([
      [IS_CA, 'fail'],
      [TTL, 'skipped'],
    ]);
    expect(r.steps.at(-2)!.error).toBe('certificate is not authorized to sign other certificates');
    expect(r.steps.at(-2)!.detail).toContain('CA:FALSE');
    expectDetails(r.steps);
  });

  // parser.go: IsCA comes from BasicConstraints only; without the extension it is false.
  it('a signing cert without BasicConstraints cannot load', async () => {
    const { input } = await cacerts({ ca: null, keyUsage: null });
    const r = await pluggedCaLoad(context(), input);
    expect(r.load.failingCheck).toBe(FAILING_CHECK.isCA);
    expect(r.steps.at(-2)!.detail).toContain('no BasicConstraints');
  });

  it('an X.509 v1 signing cert (its own root) cannot load', async () => {
    const k = await keys('P-256');
    const v1 = await asV1(await root({ keys: k, subject: 'CN=V1 CA' }), k);
    const r = await pluggedCaLoad(context(), { cert: pemBytes(v1), key: bytes(await keyPem(k)), chain: pemBytes(v1), root: pemBytes(v1) });
    expect(r.verdict.ok).toBe(true);
    expect(r.load.failingCheck).toBe(FAILING_CHECK.isCA);
    expect(r.steps.at(-2)!.detail).toContain('v1');
    expect(r.steps.at(-2)!.detail).not.toContain('BasicConstraints');
  });

  // minTTL: len(certChainPem) == 0 → the default TTL as it is.
  it('a CA with no chain loads; the TTL step is informational', async () => {
    const { input } = await cacerts();
    const r = await pluggedCaLoad(context(), { ...input, chain: new Uint8Array() });
    expect(r.load).toEqual({ ok: true, failingCheck: null, error: null });
    expect(stepStates(r.steps.slice(-2))).toEqual([
      [IS_CA, 'pass'],
      [TTL, 'info'],
    ]);
    expectDetails(r.steps);
  });

  it('a CA whose chain has 30 days left loads', async () => {
    const { input } = await cacerts();
    const r = await pluggedCaLoad(context(), input);
    expect(r.load).toEqual({ ok: true, failingCheck: null, error: null });
    expect(stepStates(r.steps.slice(-2))).toEqual([
      [IS_CA, 'pass'],
      [TTL, 'pass'],
    ]);
    expect(r.steps.at(-1)!.detail).toMatch(/\b30 days/);
    expectDetails(r.steps);
  });

  // TimeBeforeCertExpires → extractCertExpiryTimestamp("cert", …): ParsePemEncodedCertificate of
  // the chain's first block; errors wrapped by minTTL and NewIstioCA.
  it('a chain whose first block does not parse cannot load', async () => {
    const { input, signing, rootCa } = await cacerts();
    const chain = bytes(encodePem('CERTIFICATE', new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01])) + pem(signing, rootCa));
    const r = await pluggedCaLoad(context(), { ...input, chain });
    expect(r.verdict.ok).toBe(true);
    const error =
      'failed to get default cert TTL failed to get cert chain TTL failed to extract cert expiration timestamp: failed to parse the cert: failed to parse X.509 certificate';
    expect(r.load).toEqual({ ok: false, failingCheck: FAILING_CHECK.ttl, error });
    expect(r.steps.at(-1)).toMatchObject({ name: TTL, status: 'fail', error });
    expectDetails(r.steps);
  });

  // minTTL: certChainExpiration <= 0 → "cert chain has expired" (the first chain certificate,
  // whether or not it is in the verified chain).
  it('a chain whose first certificate expired (even at this very second) cannot load', async () => {
    const { input, signing, rootCa } = await cacerts();
    for (const notAfter of [new Date(NOW.getTime() - DAY), NOW]) {
      const old = await root({ subject: 'CN=Old', notBefore: new Date(NOW.getTime() - 10 * DAY), notAfter });
      const r = await pluggedCaLoad(context(), { ...input, chain: pemBytes(old, signing, rootCa) });
      expect(r.verdict.ok).toBe(true);
      expect(r.load).toEqual({ ok: false, failingCheck: FAILING_CHECK.ttl, error: 'failed to get default cert TTL cert chain has expired' });
      expect(r.steps.at(-1)).toMatchObject({ name: TTL, status: 'fail', error: 'failed to get default cert TTL cert chain has expired' });
      expect(r.steps.at(-1)!.detail).toContain(notAfter.toISOString().slice(0, 10));
    }
  });

  // minTTL: defaultCertTTL (24h) > certChainExpiration → workload certs clamped to what is left.
  it('less than a day left: loads, with a warning and the hours left', async () => {
    const { input } = await cacerts({ notAfter: new Date(NOW.getTime() + 5 * 3600000) });
    const r = await pluggedCaLoad(context(), input);
    expect(r.load.ok).toBe(true);
    expect(r.steps.at(-1)).toMatchObject({ name: TTL, status: 'warn' });
    expect(r.steps.at(-1)!.detail).toMatch(/\b5 h\b/);
  });

  it('exactly a day left is not clamped (24h > 24h is false); a second less is', async () => {
    const day = await cacerts({ notAfter: new Date(NOW.getTime() + DAY) });
    const r = await pluggedCaLoad(context(), day.input);
    expect(r.steps.at(-1)).toMatchObject({ name: TTL, status: 'pass' });
    expect(r.steps.at(-1)!.detail).toMatch(/\b1 days/);
    const less = await cacerts({ notAfter: new Date(NOW.getTime() + DAY - 1000) });
    const r2 = await pluggedCaLoad(context(), less.input);
    expect(r2.steps.at(-1)).toMatchObject({ name: TTL, status: 'warn' });
    expect(r2.steps.at(-1)!.detail).toMatch(/\b24 h\b/);
  });
});
