// More of Go's crypto/x509 Verify rules for src/core/pki/verify.ts (issue #28: the survivors of
// reports/mutation/pki.nofuzz.nostatic.group-e). Expected values come from the Go 1.26 sources
// (/usr/local/go/src/crypto/x509: cert_pool.go, verify.go, x509.go, parser.go, constraints.go),
// cited by function; error texts are Go's.
import { describe, expect, it } from 'vitest';
import * as asn1 from '@peculiar/asn1-schema';
import * as asnX509 from '@peculiar/asn1-x509';
import * as asnRsa from '@peculiar/asn1-rsa';
import * as nodeCrypto from 'node:crypto';
import { CertPool, goCheckSignatureFrom, goIsValid, goNameConstraintsError } from '../../src/core/pki/verify.ts';
import type { Certificate } from '../../src/core/pki/cert.ts';
import {
  DAY,
  EKU,
  KU,
  NOW,
  SIG_OIDS,
  intermediate,
  issue,
  keys,
  leaf,
  parse,
  resign,
  root,
  signatures,
  verify,
  type Issued,
  type Keys,
  type NameSpec,
} from './pkiBuilder.ts';

const unknownAuthority = (hint: string, name: string) =>
  `x509: certificate signed by unknown authority (possibly because of ${JSON.stringify(hint)} while trying to verify candidate authority certificate ${JSON.stringify(name)})`;
const CANNOT_SIGN = 'x509: invalid signature: parent certificate cannot sign this kind of certificate';
const UNIMPLEMENTED = 'x509: cannot verify signature: algorithm unimplemented';
const LIMIT = 'x509: signature check attempts limit reached while verifying certificate chain';

describe('CertPool — cert_pool.go (AddCert dedups by the raw certificate; findPotentialParents orders by AKID/SKID)', () => {
  it('the same certificate added twice is held once', async () => {
    const r = await root();
    const pool = new CertPool([r.cert, r.cert]);
    expect(pool.size).toBe(1);
    expect(pool.certs).toEqual([r.cert]);
    expect(pool.contains(r.cert)).toBe(true);
  });

  // findPotentialParents: kidMatch := bytes.Equal(candidate.SubjectKeyId, cert.AuthorityKeyId) first,
  // then exactly one of the two present, then both present and different; pool order within each.
  it('a child with an AKID: matching SKID first, then a candidate without SKID, then a different SKID', async () => {
    const r = await root();
    const other = await root(); // same subject, another key: SKID differs
    const noSki = await root({ noSki: true });
    const l = await leaf(r);
    const pool = new CertPool([other.cert, noSki.cert, r.cert]);
    expect(pool.potentialParents(l.cert)).toEqual([r.cert, noSki.cert, other.cert]);
  });

  it('a child without AKID: a candidate without SKID is the match (both empty), the others follow in pool order', async () => {
    const r = await root();
    const other = await root();
    const noSki = await root({ noSki: true });
    const l = await leaf(r, { noAki: true });
    const pool = new CertPool([other.cert, noSki.cert, r.cert]);
    expect(pool.potentialParents(l.cert)).toEqual([noSki.cert, other.cert, r.cert]);
  });

  it("only candidates whose subject is the child's issuer", async () => {
    const r = await root();
    const stranger = await root({ subject: 'CN=Stranger' });
    const l = await leaf(r);
    expect(new CertPool([stranger.cert, r.cert]).potentialParents(l.cert)).toEqual([r.cert]);
  });
});

/** An extension Go does not handle, marked critical, added to `base`'s TBS and re-signed by `signer`. */
async function withCriticalExtension(base: Issued, signer: Issued): Promise<Issued> {
  const der = await resign(base.der, signer.keys, SIG_OIDS.ecdsaWithSHA256, 'sha256', (tbs) => {
    tbs.extensions = new asnX509.Extensions([
      ...(tbs.extensions ?? []),
      new asnX509.Extension({ extnID: '1.3.6.1.4.1.99999.7', critical: true, extnValue: new asn1.OctetString(new Uint8Array([5, 0])) }),
    ]);
  });
  return { ...base, der, cert: await parse(der) };
}

describe('isValid — verify.go:443-505', () => {
  it('an unhandled critical extension on the leaf: "x509: unhandled critical extension"', async () => {
    const r = await root();
    const l = await withCriticalExtension(await leaf(r), r);
    expect(l.cert.facts.unhandledCriticalExtensions).toEqual(['1.3.6.1.4.1.99999.7']);
    const res = await verify(l, { roots: [r] });
    expect(res.error).toBe('x509: unhandled critical extension');
    expect(res.candidateChains).toEqual([]);
  });

  it('an unhandled critical extension on an intermediate is its isValid error', async () => {
    const r = await root();
    const i = await withCriticalExtension(await intermediate(r, 'CN=Odd Intermediate'), r);
    const l = await leaf(i);
    expect((await verify(l, { roots: [r], intermediates: [i] })).error).toBe('x509: unhandled critical extension');
  });

  // isValid compares the child's RawIssuer with the candidate's RawSubject (verify.go:448-453).
  // buildChains only offers candidates by that name, so call isValid directly.
  it('issuer name mismatch: CertificateInvalidError NameMismatch', async () => {
    const r = await root();
    const stranger = await root({ subject: 'CN=Stranger' });
    const l = await leaf(r);
    expect(goIsValid(stranger.cert, 'root', [l.cert], NOW)).toBe('x509: issuer name does not match subject from issuing certificate');
    expect(goIsValid(r.cert, 'root', [l.cert], NOW)).toBeUndefined();
  });

  it('an intermediate with basicConstraints but cA FALSE is not authorized to sign (verify.go:496-498)', async () => {
    const r = await root();
    const notCa = await intermediate(r, 'CN=Not CA', { ca: false, keyUsage: KU.keyCertSign });
    const l = await leaf(notCa);
    expect(goIsValid(notCa.cert, 'intermediate', [l.cert], NOW)).toBe('x509: certificate is not authorized to sign other certificates');
    // As a root (certType root) the same check does not apply.
    expect(goIsValid(notCa.cert, 'root', [l.cert], NOW)).toBeUndefined();
  });
});

describe('CheckSignatureFrom / checkSignature — x509.go:928-1040', () => {
  it('a forged ECDSA signature (same issuer name, another key): "x509: ECDSA verification failure"', async () => {
    const signer = await root();
    const impostor = await root();
    const l = await leaf(signer);
    expect((await verify(l, { roots: [impostor] })).error).toBe(unknownAuthority('x509: ECDSA verification failure', 'Test Root'));
  });

  it('a forged RSA signature: rsa.ErrVerification "crypto/rsa: verification error"', async () => {
    const signer = await root({ keys: await keys('RSA-2048', 'forge-a') });
    const impostor = await root({ keys: await keys('RSA-2048', 'forge-b') });
    const l = await leaf(signer);
    expect((await verify(l, { roots: [impostor] })).error).toBe(unknownAuthority('crypto/rsa: verification error', 'Test Root'));
  }, 60000);

  // signaturePublicKeyAlgoMismatchError: "x509: signature algorithm specifies an %s public key,
  // but have public key of type %T" (PublicKeyAlgorithm.String(), the Go type of the key).
  it('an ECDSA signature against an RSA issuer key, and the reverse: the algorithm/key mismatch error', async () => {
    const rsaRoot = await root({ keys: await keys('RSA-2048', 'mismatch') });
    const ecRoot = await root();
    const ecSigned = await leaf(ecRoot);
    const rsaSigned = await leaf(rsaRoot);
    expect((await verify(ecSigned, { roots: [rsaRoot] })).error).toBe(
      unknownAuthority('x509: signature algorithm specifies an ECDSA public key, but have public key of type *rsa.PublicKey', 'Test Root'),
    );
    expect((await verify(rsaSigned, { roots: [ecRoot] })).error).toBe(
      unknownAuthority('x509: signature algorithm specifies an RSA public key, but have public key of type *ecdsa.PublicKey', 'Test Root'),
    );
  }, 60000);

  it('a signature algorithm Go does not know: ErrUnsupportedAlgorithm', async () => {
    const r = await root();
    const l = await leaf(r);
    const odd = await parse(await resign(l.der, r.keys, '1.3.6.1.4.1.99999.2', 'sha256'));
    expect((await verify(odd, { roots: [r] })).error).toBe(unknownAuthority(UNIMPLEMENTED, 'Test Root'));
  });

  // MD2WithRSA is in Go's SignatureAlgorithm enum ("Unsupported") but not in
  // signatureAlgorithmDetails, so the certificate parses as UnknownSignatureAlgorithm and
  // checkSignature returns ErrUnsupportedAlgorithm (hash 0, not Ed25519), not InsecureAlgorithmError.
  it('md2WithRSAEncryption: "algorithm unimplemented", not "insecure algorithm"', async () => {
    const rk = await keys('RSA-2048', 'md2-root');
    const r = await root({ keys: rk });
    const l = await leaf(r);
    const md2 = await parse(await resign(l.der, rk, '1.2.840.113549.1.1.2', 'sha256'));
    expect((await verify(md2, { roots: [r] })).error).toBe(unknownAuthority(UNIMPLEMENTED, 'Test Root'));
  }, 60000);

  // parser.go leaves PublicKey nil when getPublicKeyAlgorithmFromOID says Unknown (an RSASSA-PSS
  // SPKI among them), and considerCandidate skips such a candidate without a hint (verify.go).
  it('an issuer whose SPKI says RSASSA-PSS is skipped: plain unknown authority, no hint', async () => {
    const rk = await keys('RSA-2048', 'pss-spki');
    const r = await root({ keys: rk });
    const pssDer = await resign(r.der, rk, SIG_OIDS.sha256WithRSA, 'sha256', (tbs) => {
      tbs.subjectPublicKeyInfo.algorithm = new asnX509.AlgorithmIdentifier({ algorithm: '1.2.840.113549.1.1.10' });
    });
    const pssRoot = { ...r, der: pssDer, cert: await parse(pssDer) };
    expect(pssRoot.cert.facts.publicKey.type).toBe('RSA-PSS');
    const l = await leaf(r);
    expect((await verify(l, { roots: [r] })).error).toBeNull();
    expect((await verify(l, { roots: [pssRoot] })).error).toBe('x509: certificate signed by unknown authority');
  }, 60000);

  // parseKeyUsageExtension: an empty BIT STRING gives KeyUsage 0, and CheckSignatureFrom only
  // refuses `parent.KeyUsage != 0 && parent.KeyUsage&KeyUsageCertSign == 0`.
  it('an issuer whose KeyUsage extension has no bit set may sign', async () => {
    const r = await root({ keyUsage: 0 });
    expect(r.cert.facts.keyUsage.present).toBe(true);
    expect(r.cert.facts.keyUsage.usages).toEqual([]);
    expect((await verify(await leaf(r), { roots: [r] })).error).toBeNull();
  });
});

describe('Ed25519 — x509.go checkSignature (PureEd25519: hash 0 with an Ed25519 key; ed25519.Verify)', () => {
  const ED25519 = '1.3.101.112';
  async function edKeys(): Promise<Keys> {
    const kp = (await globalThis.crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    return { kind: 'P-256', publicKey: kp.publicKey, privateKey: kp.privateKey };
  }
  /** A self-signed CA (signature never checked) whose SPKI is `k`'s Ed25519 key. */
  async function edRoot(k: Keys): Promise<Issued> {
    const base = await root({ subject: 'CN=Ed Root' });
    const spki = new Uint8Array(await globalThis.crypto.subtle.exportKey('spki', k.publicKey));
    const der = await resign(base.der, base.keys, SIG_OIDS.ecdsaWithSHA256, 'sha256', (tbs) => {
      tbs.subjectPublicKeyInfo = asn1.AsnConvert.parse(spki, asnX509.SubjectPublicKeyInfo);
    });
    return { ...base, keys: k, der, cert: await parse(der) };
  }
  /** A leaf named as issued by CN=Ed Root, signed with Ed25519 by `k`. */
  async function edLeaf(k: Keys): Promise<Certificate> {
    const base = await leaf(await root({ subject: 'CN=Ed Root' }), { noAki: true });
    return parse(await resign(base.der, k, ED25519, null as unknown as string));
  }

  it('an Ed25519 signature verifies; one by another Ed25519 key: "x509: Ed25519 verification failure"', async () => {
    const k = await edKeys();
    const r = await edRoot(k);
    expect(r.cert.facts.publicKey.type).toBe('Ed25519');
    expect((await verify(await edLeaf(k), { roots: [r] })).error).toBeNull();
    expect((await verify(await edLeaf(await edKeys()), { roots: [r] })).error).toBe(unknownAuthority('x509: Ed25519 verification failure', 'Ed Root'));
  });

  it("Ed25519 against an ECDSA key and ECDSA against an Ed25519 key: the mismatch error with Go's key types", async () => {
    const k = await edKeys();
    const r = await edRoot(k);
    const ecRoot = await root({ subject: 'CN=Ed Root' });
    const ecSigned = await leaf(ecRoot, { noAki: true });
    expect((await verify(ecSigned, { roots: [r] })).error).toBe(
      unknownAuthority('x509: signature algorithm specifies an ECDSA public key, but have public key of type ed25519.PublicKey', 'Ed Root'),
    );
    expect((await verify(await edLeaf(k), { roots: [ecRoot] })).error).toBe(
      unknownAuthority('x509: signature algorithm specifies an Ed25519 public key, but have public key of type *ecdsa.PublicKey', 'Ed Root'),
    );
  });
});

describe('UnknownAuthorityError — verify.go:156-169 (the hint names the CN, else the first O, else serial:N)', () => {
  it('no CN: the organization names the candidate', async () => {
    const r = await root({ subject: 'O=Acme Mesh,C=US', ca: false, keyUsage: KU.keyCertSign });
    expect((await verify(await leaf(r), { roots: [r] })).error).toBe(unknownAuthority(CANNOT_SIGN, 'Acme Mesh'));
  });

  it('neither CN nor O: "serial:" and the decimal serial number', async () => {
    const r = await root({ subject: 'C=US', ca: false, keyUsage: KU.keyCertSign, serial: '0102' });
    expect((await verify(await leaf(r), { roots: [r] })).error).toBe(unknownAuthority(CANNOT_SIGN, 'serial:258'));
  });

  // considerCandidate keeps the first CheckSignatureFrom error (`if hintErr == nil`).
  it("with several refused candidates the hint is the first one's", async () => {
    const signer = await root();
    const notCa = await root({ ca: false, keyUsage: KU.keyCertSign });
    const impostor = await root();
    const l = await leaf(signer);
    expect((await verify(l, { roots: [notCa, impostor] })).error).toBe(unknownAuthority(CANNOT_SIGN, 'Test Root'));
    expect((await verify(l, { roots: [impostor, notCa] })).error).toBe(unknownAuthority('x509: ECDSA verification failure', 'Test Root'));
  });
});

describe('the candidate trace and the result lists', () => {
  it('each candidate looked at, with its pool, the outcome and the signature result', async () => {
    const r = await root();
    const i = await intermediate(r, 'CN=Intermediate');
    const l = await leaf(i);
    const res = await verify(l, { roots: [r], intermediates: [i] });
    expect(res.error).toBeNull();
    expect(res.trace.map((t) => [t.child, t.parent, t.pool, t.outcome, t.signature?.status])).toEqual([
      [l.cert, i.cert, 'intermediates', 'ok', 'verified'],
      [i.cert, r.cert, 'roots', 'ok', 'verified'],
    ]);
  });

  it('a leaf refused by isValid has no candidate chains and no trace', async () => {
    const r = await root();
    const l = await leaf(r, { notBefore: new Date(NOW.getTime() + DAY), notAfter: new Date(NOW.getTime() + 2 * DAY) });
    const res = await verify(l, { roots: [r] });
    expect(res.ok).toBe(false);
    expect(res.candidateChains).toEqual([]);
    expect(res.trace).toEqual([]);
  });

  // Verify (verify.go:606-613): any requested usage being ExtKeyUsageAny skips the EKU check.
  it('ExtKeyUsageAny among other requested usages still skips the EKU check', async () => {
    const r = await root();
    const l = await leaf(r, { eku: [EKU.codeSigning] });
    expect((await verify(l, { roots: [r] })).error).toBe('x509: certificate specifies an incompatible key usage');
    expect((await verify(l, { roots: [r], keyUsages: ['serverAuth', 'any'] })).error).toBeNull();
  });
});

describe('alreadyInChain — verify.go:675-714 (same RawSubject, same SPKI, and the same SAN extension or both none)', () => {
  /**
   * Root → I (CN=Intermediate, key k) → leaf, plus I2: CN=Intermediate again, key k, issued by
   * itself. Go builds leaf→I→root; leaf→I2→I→root too unless I counts as already in the chain
   * below I2 (same subject and key; then it depends on the SANs).
   */
  async function selfIssued(iSan: NameSpec[] | undefined, i2San: NameSpec[] | undefined) {
    const r = await root();
    const k = await keys('P-256');
    const i = await intermediate(r, 'CN=Intermediate', { keys: k, san: iSan });
    const i2 = await intermediate(i, 'CN=Intermediate', { keys: k, san: i2San });
    const l = await leaf(i);
    const res = await verify(l, { roots: [r], intermediates: [i, i2] });
    expect(res.error).toBeNull();
    return { res, lengths: res.chains.map((c) => c.length).sort() };
  }

  it('both without SANs: I is already in the chain below I2 (one chain)', async () => {
    const { res, lengths } = await selfIssued(undefined, undefined);
    expect(lengths).toEqual([3]);
    expect(res.trace.filter((t) => t.outcome.startsWith('skipped')).length).toBe(2);
  });
  it('I with a SAN, I2 without: not the same certificate, two chains', async () => {
    expect((await selfIssued([{ dns: 'ca.example.com' }], undefined)).lengths).toEqual([3, 4]);
  });
  it('I without a SAN, I2 with one: two chains', async () => {
    expect((await selfIssued(undefined, [{ dns: 'ca.example.com' }])).lengths).toEqual([3, 4]);
  });
  it('both with different SANs: two chains', async () => {
    expect((await selfIssued([{ dns: 'a.example.com' }], [{ dns: 'b.example.com' }])).lengths).toEqual([3, 4]);
  });
  it('both with the same SAN: already in the chain (one chain)', async () => {
    expect((await selfIssued([{ dns: 'ca.example.com' }], [{ dns: 'ca.example.com' }])).lengths).toEqual([3]);
  });
});

describe('maxChainSignatureChecks = 100 — verify.go:716-806 (counted before the alreadyInChain skip)', () => {
  // Decoys: CAs named like the root, with other keys, in the root pool before the real root.
  const decoys: Issued[] = [];
  async function decoysUpTo(n: number) {
    while (decoys.length < n) decoys.push(await root({ noSki: false }));
    return decoys.slice(0, n);
  }

  // leaf (AKID of I) → I (no AKID: every root candidate is a one-key-ID match, in pool order).
  // Checks: I is 1, the decoys 2..n+1, the real root n+2.
  it('the 100th check may still succeed; the 101st is refused', async () => {
    const r = await root();
    const i = await intermediate(r, 'CN=Intermediate', { noAki: true });
    const l = await leaf(i);
    const ok = await verify(l, { roots: [...(await decoysUpTo(98)), r], intermediates: [i] });
    expect(ok.error).toBeNull();
    const over = await verify(l, { roots: [...(await decoysUpTo(99)), r], intermediates: [i] });
    expect(over.error).toBe(LIMIT);
  }, 60000);

  // With I2 (same subject and key as I, self-issued) first: I2 is check 1, then below it I2 (2)
  // and I (3) are already in the chain but counted, I is 4, the decoys 5..n+4, the root n+5.
  it('candidates skipped as already in the chain use up checks too', async () => {
    const r = await root();
    const k = await keys('P-256');
    const i = await intermediate(r, 'CN=Intermediate', { keys: k, noAki: true });
    const i2 = await intermediate(i, 'CN=Intermediate', { keys: k });
    const l = await leaf(i);
    expect((await verify(l, { roots: [...(await decoysUpTo(95)), r], intermediates: [i2, i] })).error).toBeNull();
    expect((await verify(l, { roots: [...(await decoysUpTo(96)), r], intermediates: [i2, i] })).error).toBe(LIMIT);
  }, 60000);
});

/** `base` (self-signed, so its own signature is never checked) with its SPKI replaced. */
async function withSpki(base: Issued, spki: Uint8Array): Promise<Issued> {
  const der = await resign(base.der, base.keys, SIG_OIDS.ecdsaWithSHA256, 'sha256', (tbs) => {
    tbs.subjectPublicKeyInfo = asn1.AsnConvert.parse(spki, asnX509.SubjectPublicKeyInfo);
  });
  return { ...base, der, cert: await parse(der) };
}

describe('issuer keys Go does not verify with — parser.go (PublicKey nil), x509.go CheckSignatureFrom / checkSignature', () => {
  // getPublicKeyAlgorithmFromOID knows rsaEncryption, DSA, ecPublicKey and Ed25519 only.
  it('X25519, X448, Ed448 and unknown SPKIs: the candidate is skipped, no hint', async () => {
    const spkis: Array<[string, number, string]> = [
      ['1.3.101.110', 32, 'X25519'],
      ['1.3.101.111', 56, 'X448'],
      ['1.3.101.113', 57, 'Ed448'],
      ['1.3.6.1.4.1.99999.3', 32, 'unknown'],
    ];
    for (const [oid, size, type] of spkis) {
      const spki = new asnX509.SubjectPublicKeyInfo({
        algorithm: new asnX509.AlgorithmIdentifier({ algorithm: oid }),
        subjectPublicKey: new Uint8Array(size).fill(7).buffer,
      });
      const base = await root();
      const odd = await withSpki(base, new Uint8Array(asn1.AsnConvert.serialize(spki)));
      expect(odd.cert.facts.publicKey.type).toBe(type);
      const res = await verify(await leaf(base), { roots: [odd] });
      expect(res.error).toBe('x509: certificate signed by unknown authority');
      expect(res.trace.map((t) => t.outcome.startsWith('skipped'))).toEqual([true]);
      // CheckSignatureFrom itself: `parent.PublicKeyAlgorithm == UnknownPublicKeyAlgorithm` → ErrUnsupportedAlgorithm.
      expect((await goCheckSignatureFrom((await leaf(base)).cert, odd.cert, signatures)).error).toBe(UNIMPLEMENTED);
    }
  });

  it('a DSA issuer key: checkSignature has no DSA case, ErrUnsupportedAlgorithm', async () => {
    const { publicKey } = nodeCrypto.generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 });
    const base = await root();
    const dsa = await withSpki(base, new Uint8Array(publicKey.export({ type: 'spki', format: 'der' })));
    expect(dsa.cert.facts.publicKey.type).toBe('DSA');
    expect((await verify(await leaf(base), { roots: [dsa] })).error).toBe(unknownAuthority(UNIMPLEMENTED, 'Test Root'));
  }, 60000);
});

describe('more of buildChains', () => {
  // alreadyInChain needs the same subject too: a leaf sharing its issuer's key (and, like it,
  // without SANs) does not make the issuer "already in the chain".
  it("a leaf with its issuer's key and no SAN still chains to that issuer", async () => {
    const r = await root();
    const l = await issue({ subject: 'CN=leaf', issuer: r, keys: r.keys, eku: [EKU.serverAuth] });
    expect(r.cert.sanDer).toBeNull();
    expect(l.cert.sanDer).toBeNull();
    expect((await verify(l, { roots: [r] })).error).toBeNull();
  });

  // candidateLoop: `if err == errSignatureLimit { break candidateLoop }` — no candidate after it.
  it('after the 101st check no further candidate is looked at', async () => {
    const r = await root();
    const i = await intermediate(r, 'CN=Intermediate', { noAki: true });
    const l = await leaf(i);
    const ds: Issued[] = [];
    for (let k = 0; k < 100; k++) ds.push(await root());
    const res = await verify(l, { roots: [...ds, r], intermediates: [i] });
    expect(res.error).toBe(LIMIT);
    // I, then the decoys up to the 100th, which is the 101st check; the real root is never reached.
    expect(res.trace.length).toBe(101);
    expect(res.trace[100]!.outcome).toBe(LIMIT);
    expect(res.trace.some((t) => t.parent === r.cert)).toBe(false);
  }, 60000);
});

describe('goNameConstraintsError without constraints', () => {
  it('a CA without name constraints does not even parse the URIs below it', async () => {
    const r = await root();
    const l = await leaf(r, { san: [{ uri: 'urn:x:y' }] });
    expect(goNameConstraintsError(r.cert, [l.cert])).toBeUndefined();
  });
});

describe('signatures we cannot check, and RSASSA-PSS against an ECDSA key', () => {
  // Go verifies ECDSA over P-224; WebCrypto cannot. The hint must say the signature was not
  // checked, never that it failed.
  it('an issuer key on P-224: "(not checked: …)", not an ECDSA verification failure', async () => {
    const { publicKey } = nodeCrypto.generateKeyPairSync('ec', { namedCurve: 'secp224r1' });
    const base = await root();
    const p224 = await withSpki(base, new Uint8Array(publicKey.export({ type: 'spki', format: 'der' })));
    expect(p224.cert.facts.publicKey.curve).toBe('P-224');
    const res = await verify(await leaf(base), { roots: [p224] });
    expect(res.error).toMatch(
      /^x509: certificate signed by unknown authority \(possibly because of "\(not checked: .*P-224.*\)" while trying to verify candidate authority certificate "Test Root"\)$/,
    );
    expect(res.trace[0]!.signature?.status).toBe('unverifiable');
  });

  // SHA256WithRSAPSS has pubKeyAlgo RSA (signatureAlgorithmDetails), so against an ECDSA key the
  // mismatch error says "an RSA public key".
  it('an RSASSA-PSS (SHA-256) signature against an ECDSA issuer: "specifies an RSA public key"', async () => {
    const r = await root();
    const l = await leaf(r);
    const sha256 = () => new asnX509.AlgorithmIdentifier({ algorithm: '2.16.840.1.101.3.4.2.1', parameters: null });
    const params = new asnRsa.RsaSaPssParams({
      hashAlgorithm: sha256(),
      maskGenAlgorithm: new asnX509.AlgorithmIdentifier({ algorithm: '1.2.840.113549.1.1.8', parameters: asn1.AsnConvert.serialize(sha256()) }),
      saltLength: 32,
    });
    const algId = new asnX509.AlgorithmIdentifier({ algorithm: '1.2.840.113549.1.1.10', parameters: asn1.AsnConvert.serialize(params) });
    const cert = asn1.AsnConvert.parse(l.der, asnX509.Certificate);
    cert.tbsCertificate.signature = algId;
    cert.signatureAlgorithm = algId;
    cert.signatureValue = new Uint8Array(256).fill(1).buffer;
    const pss = await parse(new Uint8Array(asn1.AsnConvert.serialize(cert)));
    expect((await verify(pss, { roots: [r] })).error).toBe(
      unknownAuthority('x509: signature algorithm specifies an RSA public key, but have public key of type *ecdsa.PublicKey', 'Test Root'),
    );
  });
});
