// A workload's certificate as src/core/pki/istio.ts workloadVerify checks it (issue #28:
// survivors of reports/mutation/pki.nofuzz.nostatic.group-g). Expected values come from Istio's
// security/pkg/pki/util/verify_cert.go VerifyCertificate: roots from rootCertPem when it is not
// nil ("failed to parse root certificate"), intermediates from the certificate chain
// ("failed to parse certificate chain"), the leaf by ParsePemEncodedCertificate, Go's Verify with
// KeyUsages [ExtKeyUsageAny] ("failed to verify certificate: %v"), then the private key by
// ParsePemEncodedKey (its error as it is) and the RSA / EC key comparison with its three errors.
import { describe, expect, it } from 'vitest';
import * as nodeCrypto from 'node:crypto';
import { FAILING_CHECK, workloadVerify, type WorkloadInput } from '../../src/core/pki/istio.ts';
import { encodePem } from '../../src/core/pki/pem.ts';
import { EKU, intermediate, issue, keys, leaf, root, type Issued, type Keys } from './pkiBuilder.ts';
import { bytes, context, keyPem, pem, pemBytes, sha256Hex, stepStates } from './istioFixtures.ts';

const CHAIN = 'chain verification';
const KEY = 'key matches the leaf';

interface Workload {
  rootCa: Issued;
  mid: Issued;
  leafCert: Issued;
  leafKeys: Keys;
  input: WorkloadInput;
}

/** root → CN=Mid → leaf; cert-chain.pem = leaf, chain = Mid, root-cert.pem = root, key = the leaf's. */
async function workload(extra: Parameters<typeof leaf>[1] = {}, kind: 'P-256' | 'RSA-2048' = 'P-256'): Promise<Workload> {
  const rootCa = await root();
  const mid = await intermediate(rootCa, 'CN=Mid');
  const leafKeys = await keys(kind, kind === 'P-256' ? undefined : 'istio-workload');
  const leafCert = await leaf(mid, { keys: leafKeys, ...extra });
  return {
    rootCa,
    mid,
    leafCert,
    leafKeys,
    input: { cert: pemBytes(leafCert), chain: pemBytes(mid), root: pemBytes(rootCa), key: bytes(await keyPem(leafKeys)) },
  };
}

describe('workloadVerify — verify_cert.go VerifyCertificate', () => {
  it('a good workload: chain verified, key matches', async () => {
    const { input } = await workload();
    const r = await workloadVerify(context(), input);
    expect(r.verdict).toEqual({ ok: true, failingCheck: null, error: null });
    expect(stepStates(r.steps)).toEqual([
      [CHAIN, 'pass'],
      [KEY, 'pass'],
    ]);
    for (const s of r.steps) expect(s.detail).not.toBe('');
    // The verified chain by common name, leaf first.
    expect(r.steps[0]!.detail).toContain('leaf → Mid → Test Root');
    expect(r.keyParses).toBe(true);
    expect(r.keyMatchesCert).toBe(true);
    expect(r.go?.ok).toBe(true);
    for (const c of r.go!.chains[0]!) expect(c.facts.sha256FingerprintHex).toBe(await sha256Hex(c.der));
  });

  it('a chain certificate without a common name is named by its subject, an empty subject as such', async () => {
    const rootCa = await root({ subject: 'O=Acme Root' });
    const k = await keys('P-256');
    const l = await issue({ subject: '', issuer: rootCa, keys: k, san: [{ uri: 'spiffe://cluster.local/ns/a/sa/b' }] });
    const r = await workloadVerify(context(), { cert: pemBytes(l), chain: new Uint8Array(), root: pemBytes(rootCa), key: bytes(await keyPem(k)) });
    expect(r.verdict.ok).toBe(true);
    expect(r.steps[0]!.detail).toContain('(empty subject) → O=Acme Root');
  });

  // opts.KeyUsages = [ExtKeyUsageAny]: any EKU of the leaf will do.
  it('a leaf whose EKU is clientAuth or codeSigning only verifies (any usage)', async () => {
    for (const eku of [[EKU.clientAuth], [EKU.codeSigning]]) {
      const { input } = await workload({ eku });
      expect((await workloadVerify(context(), input)).verdict.ok).toBe(true);
    }
  });

  it('the chain file is read apart from the certificate file (a certificate file without a final newline)', async () => {
    const { input, leafCert, mid } = await workload();
    const r = await workloadVerify(context(), { ...input, cert: bytes(pem(leafCert).trimEnd()), chain: pemBytes(mid) });
    expect(r.verdict.ok).toBe(true);
  });

  it('the chain may sit in the certificate file, after the leaf', async () => {
    const { input, leafCert, mid } = await workload();
    const r = await workloadVerify(context(), { ...input, cert: pemBytes(leafCert, mid), chain: new Uint8Array() });
    expect(r.verdict.ok).toBe(true);
  });

  // if rootCertPem != nil { if ok := roots.AppendCertsFromPEM(rootCertPem); !ok → "failed to parse root certificate" }
  it('a root file with no certificate Go can use, even an empty one: "failed to parse root certificate"', async () => {
    const { input, leafKeys } = await workload();
    for (const rootFile of [bytes(await keyPem(leafKeys)), new Uint8Array()]) {
      const r = await workloadVerify(context(), { ...input, root: rootFile });
      expect(r.verdict).toEqual({ ok: false, failingCheck: 'root parse', error: 'failed to parse root certificate' });
      expect(stepStates(r.steps)).toEqual([['roots parse', 'fail']]);
      expect(r.steps[0]!.error).toBe('failed to parse root certificate');
      expect(r.steps[0]!.detail).not.toBe('');
      expect(r.leaf).toBeUndefined();
    }
  });

  it('no root file: Go verifies against an empty pool and finds no authority', async () => {
    const { input } = await workload();
    const r = await workloadVerify(context(), { ...input, root: undefined });
    expect(r.verdict.failingCheck).toBe(FAILING_CHECK.workloadChain);
    expect(r.verdict.error).toMatch(/^failed to verify certificate: x509: certificate signed by unknown authority/);
    expect(r.steps[0]!.detail).toMatch(/\b0 root/);
  });

  // if ok := intermediates.AppendCertsFromPEM(certChainPem); !ok → "failed to parse certificate chain"
  it('no certificate at all in the certificate and chain files: "failed to parse certificate chain"', async () => {
    const r = await workloadVerify(context(), { cert: bytes('junk\n'), chain: new Uint8Array(), root: undefined });
    expect(r.verdict).toEqual({ ok: false, failingCheck: 'leaf parse', error: 'failed to parse certificate chain' });
    expect(stepStates(r.steps)).toEqual([['leaf parses', 'fail']]);
    expect(r.steps[0]!.error).toBe('failed to parse certificate chain');
    expect(r.steps[0]!.detail).not.toBe('');
  });

  // cert, err := ParsePemEncodedCertificate(certChainPem); return err as it is.
  it("a certificate file whose first block is not a certificate: ParsePemEncodedCertificate's error", async () => {
    const { input, leafKeys, leafCert } = await workload();
    const r = await workloadVerify(context(), { ...input, cert: bytes((await keyPem(leafKeys)) + pem(leafCert)) });
    expect(r.verdict).toEqual({ ok: false, failingCheck: 'leaf parse', error: 'failed to parse X.509 certificate' });
    expect(stepStates(r.steps)).toEqual([['leaf parses', 'fail']]);
    expect(r.steps[0]!.error).toBe('failed to parse X.509 certificate');
    expect(r.steps[0]!.detail).not.toBe('');
    const r2 = await workloadVerify(context(), { ...input, cert: bytes('no pem\n') });
    expect(r2.verdict.error).toBe('invalid PEM encoded certificate');
  });

  // cert.Verify(opts) fails → "failed to verify certificate: %v"; the key is not looked at.
  it('a chain that does not verify: the key step is skipped', async () => {
    const { input } = await workload();
    const stranger = await root({ subject: 'CN=Stranger' });
    const r = await workloadVerify(context(), { ...input, root: pemBytes(stranger) });
    expect(r.verdict.ok).toBe(false);
    expect(r.verdict.failingCheck).toBe(FAILING_CHECK.workloadChain);
    expect(r.verdict.error).toMatch(/^failed to verify certificate: x509: certificate signed by unknown authority/);
    expect(stepStates(r.steps)).toEqual([
      [CHAIN, 'fail'],
      [KEY, 'skipped'],
    ]);
    expect(r.steps[0]!.error).toBe(r.verdict.error);
    expect(r.steps[0]!.detail).toMatch(/\b1 root/);
    for (const s of r.steps) expect(s.detail).not.toBe('');
    expect(r.keyParses).toBeUndefined();
    // The leaf is completed though no chain was built.
    expect(r.leaf!.facts.sha256FingerprintHex).toBe(await sha256Hex(r.leaf!.der));
  });

  it("no key: the key step is skipped, the verdict is the chain's", async () => {
    const { input } = await workload();
    const r = await workloadVerify(context(), { ...input, key: undefined });
    expect(r.verdict.ok).toBe(true);
    expect(stepStates(r.steps)).toEqual([
      [CHAIN, 'pass'],
      [KEY, 'skipped'],
    ]);
    expect(r.steps[1]!.detail).not.toBe('');
    expect(r.keyParses).toBeUndefined();
  });

  it('a redacted key: skipped with the reason', async () => {
    const { input } = await workload();
    const r = await workloadVerify(context(), { ...input, keyRedacted: 'key.pem was redacted' });
    expect(r.verdict.ok).toBe(true);
    expect(stepStates(r.steps)).toEqual([
      [CHAIN, 'pass'],
      [KEY, 'skipped'],
    ]);
    expect(r.steps[1]!.detail).toContain('key.pem was redacted');
    expect(r.keyMatchesCert).toBeUndefined();
  });

  // priv, err := ParsePemEncodedKey(privPem); if err != nil { return err }
  it("a key that does not parse: ParsePemEncodedKey's error as it is", async () => {
    const { input, leafCert } = await workload();
    const r = await workloadVerify(context(), { ...input, key: pemBytes(leafCert) });
    expect(r.verdict).toEqual({ ok: false, failingCheck: FAILING_CHECK.workloadKey, error: 'unsupported PEM block type for a private key: CERTIFICATE' });
    expect(stepStates(r.steps)).toEqual([
      [CHAIN, 'pass'],
      [KEY, 'fail'],
    ]);
    expect(r.steps[1]!.error).toBe('unsupported PEM block type for a private key: CERTIFICATE');
    expect(r.steps[1]!.detail).not.toBe('');
    expect(r.keyParses).toBe(false);
    expect(r.keyMatchesCert).toBeUndefined();
  });

  // rsaMatch / ecMatch: both keys RSA, or both ECDSA, else "algorithms for private key and cert do not match".
  it('key and certificate of different algorithms: "algorithms for private key and cert do not match"', async () => {
    const ec = await workload();
    const rsa = await workload({}, 'RSA-2048');
    const mismatch = 'algorithms for private key and cert do not match';
    for (const [input, key] of [
      [ec.input, rsa.leafKeys],
      [rsa.input, ec.leafKeys],
    ] as const) {
      const r = await workloadVerify(context(), { ...input, key: bytes(await keyPem(key)) });
      expect(r.verdict).toEqual({ ok: false, failingCheck: FAILING_CHECK.workloadMatch, error: mismatch });
      expect(stepStates(r.steps)).toEqual([
        [CHAIN, 'pass'],
        [KEY, 'fail'],
      ]);
      expect(r.steps[1]!.error).toBe(mismatch);
      expect(r.steps[1]!.detail).not.toBe('');
      expect(r.keyParses).toBe(true);
      expect(r.keyMatchesCert).toBe(false);
    }
  });

  // An Ed25519 leaf and key: neither rsaMatch nor ecMatch.
  it('an Ed25519 leaf with its own key: "algorithms for private key and cert do not match"', async () => {
    const rootCa = await root();
    const kp = (await globalThis.crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const edKeys = { kind: 'P-256', publicKey: kp.publicKey, privateKey: kp.privateKey } as Keys;
    const l = await leaf(rootCa, { keys: edKeys });
    expect(l.cert.facts.publicKey.type).toBe('Ed25519');
    const pkcs8 = new Uint8Array(await globalThis.crypto.subtle.exportKey('pkcs8', kp.privateKey));
    const r = await workloadVerify(context(), {
      cert: pemBytes(l),
      chain: new Uint8Array(),
      root: pemBytes(rootCa),
      key: bytes(encodePem('PRIVATE KEY', pkcs8)),
    });
    expect(r.verdict.error).toBe('algorithms for private key and cert do not match');
  });

  // reflect.DeepEqual of the public keys: "the generated private RSA|EC key and cert doesn't match".
  it('another key of the same algorithm: the RSA or EC mismatch error', async () => {
    const ec = await workload();
    const r = await workloadVerify(context(), { ...ec.input, key: bytes(await keyPem(await keys('P-256'))) });
    expect(r.verdict).toEqual({ ok: false, failingCheck: FAILING_CHECK.workloadMatch, error: "the generated private EC key and cert doesn't match" });
    expect(r.keyParses).toBe(true);
    expect(r.keyMatchesCert).toBe(false);
    const rsa = await workload({}, 'RSA-2048');
    const other = await keys('RSA-2048', 'istio-workload-other');
    const r2 = await workloadVerify(context(), { ...rsa.input, key: bytes(await keyPem(other, 'pkcs1')) });
    expect(r2.verdict.error).toBe("the generated private RSA key and cert doesn't match");
  });

  // ParsePKCS8PrivateKey knows RSA, ECDSA, Ed25519 and X25519 keys only: Go fails a DSA key
  // (wrapped as PKCS#8) one way or another, and so must we, without throwing.
  it('a DSA private key: a failed key step', async () => {
    const { input } = await workload();
    const { privateKey } = nodeCrypto.generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 });
    const der = new Uint8Array(privateKey.export({ format: 'der', type: 'pkcs8' }));
    const r = await workloadVerify(context(), { ...input, key: bytes(encodePem('PRIVATE KEY', der)) });
    expect(r.verdict.ok).toBe(false);
    expect(r.steps.at(-1)).toMatchObject({ name: KEY, status: 'fail' });
    expect(r.keyMatchesCert).not.toBe(true);
  });

  it('an RSA leaf with its PKCS#1 key, an EC leaf with its SEC1 key: match', async () => {
    const rsa = await workload({}, 'RSA-2048');
    expect((await workloadVerify(context(), { ...rsa.input, key: bytes(await keyPem(rsa.leafKeys, 'pkcs1')) })).verdict.ok).toBe(true);
    const ec = await workload();
    const r = await workloadVerify(context(), { ...ec.input, key: bytes(await keyPem(ec.leafKeys, 'sec1')) });
    expect(r.verdict.ok).toBe(true);
    expect(r.keyMatchesCert).toBe(true);
  });
});
