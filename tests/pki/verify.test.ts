// Chain verification (src/core/pki/verify.ts, our port of Go's crypto/x509 Certificate.Verify)
// against Go's rules as the Go source states them. Every expectation below is derived from
// the cited lines of the Go 1.26 standard library (/usr/local/go/src/crypto/x509: verify.go,
// x509.go, parser.go, constraints.go), never from running our code; error texts are Go's.
import { describe, expect, it } from 'vitest';
import * as asnX509 from '@peculiar/asn1-x509';
import { DAY, EKU, KU, NOW, SIG_OIDS, intermediate, issue, keys, leaf, parse, resign, root, verify } from './pkiBuilder.ts';

const sec = (d: Date, s: number) => new Date(d.getTime() + s * 1000);
/** Go's time.RFC3339 rendering of a whole-second UTC time. */
const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const unknownAuthority = (hint: string, cn: string) =>
  `x509: certificate signed by unknown authority (possibly because of ${JSON.stringify(hint)} while trying to verify candidate authority certificate ${JSON.stringify(cn)})`;
const CANNOT_SIGN = 'x509: invalid signature: parent certificate cannot sign this kind of certificate';
const TOO_MANY = 'x509: too many intermediates for path length constraint';
const INCOMPATIBLE = 'x509: certificate specifies an incompatible key usage';
const NAME_PREFIX = 'x509: a root or intermediate certificate is not authorized to sign for this name: ';

describe('validity window — verify.go:459-471 (isValid: now.Before(NotBefore) / now.After(NotAfter))', () => {
  const NB = new Date('2026-05-01T00:00:00Z');
  const NA = new Date('2026-07-01T00:00:00Z');
  const wideRoot = () => root({ notBefore: new Date('2026-01-01T00:00:00Z'), notAfter: new Date('2027-01-01T00:00:00Z') });

  // Go compares with time.Before/After, so both ends of the window are inclusive.
  it('a leaf is valid at exactly NotBefore and at exactly NotAfter', async () => {
    const r = await wideRoot();
    const l = await leaf(r, { notBefore: NB, notAfter: NA });
    expect((await verify(l, { roots: [r], now: NB })).error).toBeNull();
    expect((await verify(l, { roots: [r], now: NA })).error).toBeNull();
  });

  it('one second before NotBefore: "not yet valid" with Go\'s detail (verify.go:459-464)', async () => {
    const r = await wideRoot();
    const l = await leaf(r, { notBefore: NB, notAfter: NA });
    const now = sec(NB, -1);
    const res = await verify(l, { roots: [r], now });
    expect(res.ok).toBe(false);
    expect(res.error).toBe(`x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is before ${rfc3339(NB)}`);
  });

  it('one second after NotAfter: "expired" with Go\'s detail (verify.go:465-470)', async () => {
    const r = await wideRoot();
    const l = await leaf(r, { notBefore: NB, notAfter: NA });
    const now = sec(NA, 1);
    const res = await verify(l, { roots: [r], now });
    expect(res.ok).toBe(false);
    expect(res.error).toBe(`x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is after ${rfc3339(NA)}`);
  });

  // isValid runs on every candidate issuer too (verify.go:753 in buildChains); its error is the
  // one returned when no chain is found (verify.go:798-803: err stays the last isValid error).
  it('a not-yet-valid intermediate fails the chain with its own not-yet-valid error', async () => {
    const r = await root();
    const iNb = sec(NOW, 3600);
    const i = await intermediate(r, 'CN=Future Intermediate', { notBefore: iNb, notAfter: sec(NOW, 90 * 86400) });
    const l = await leaf(i);
    const res = await verify(l, { roots: [r], intermediates: [i] });
    expect(res.error).toBe(`x509: certificate has expired or is not yet valid: current time ${rfc3339(NOW)} is before ${rfc3339(iNb)}`);
  });

  it('an expired root fails the chain; the same root one second earlier passes', async () => {
    const rNa = sec(NOW, -1);
    const r = await root({ notBefore: new Date(NOW.getTime() - 400 * DAY), notAfter: rNa });
    const l = await leaf(r, { notBefore: new Date(NOW.getTime() - DAY) });
    expect((await verify(l, { roots: [r] })).error).toBe(
      `x509: certificate has expired or is not yet valid: current time ${rfc3339(NOW)} is after ${rfc3339(rNa)}`,
    );
    expect((await verify(l, { roots: [r], now: rNa })).error).toBeNull();
  });
});

describe('signature algorithms Go refuses — x509.go:980-1003 (checkSignature), x509.go:896-902 (InsecureAlgorithmError)', () => {
  // checkSignature: `case crypto.MD5: return InsecureAlgorithmError(algo)` and
  // `case crypto.SHA1: if !allowSHA1 { return InsecureAlgorithmError(algo) }`, allowSHA1 being
  // false for certificates (CheckSignatureFrom, x509.go:947). The error is a CheckSignatureFrom
  // error, so it becomes the hint of UnknownAuthorityError (verify.go:745-751, 156-169).
  it('ECDSA-SHA1 signature on a leaf: unknown authority, hint "insecure algorithm ECDSA-SHA1"', async () => {
    const r = await root();
    const l = await leaf(r, { hash: 'SHA-1' });
    expect(l.cert.facts.signatureAlgorithmOid).toBe(SIG_OIDS.ecdsaWithSHA1);
    const res = await verify(l, { roots: [r] });
    expect(res.ok).toBe(false);
    expect(res.error).toBe(unknownAuthority('x509: cannot verify signature: insecure algorithm ECDSA-SHA1', 'Test Root'));
  });

  it('SHA1-RSA signature on an intermediate: refused; the same chain with SHA-256 verifies', async () => {
    const rk = await keys('RSA-2048', 'sha1-root');
    const r = await root({ keys: rk });
    // The intermediate's own signature (made by the RSA root) is what Go checks with SHA-1.
    const ik = await keys('P-256');
    const inter = await intermediate(r, 'CN=SHA1 Intermediate', { keys: ik });
    const sha1Der = await resign(inter.der, rk, SIG_OIDS.sha1WithRSA, 'sha1');
    const sha1Inter = { ...inter, der: sha1Der, cert: await parse(sha1Der) };
    const l = await leaf(inter);
    const bad = await verify(l, { roots: [r], intermediates: [sha1Inter] });
    expect(bad.error).toBe(unknownAuthority('x509: cannot verify signature: insecure algorithm SHA1-RSA', 'Test Root'));
    const good = await verify(l, { roots: [r], intermediates: [inter] });
    expect(good.error).toBeNull();
  });

  it('MD5-RSA signature: refused with "insecure algorithm MD5-RSA"', async () => {
    const rk = await keys('RSA-2048', 'md5-root');
    const r = await root({ keys: rk });
    const l = await leaf(r);
    const md5Der = await resign(l.der, rk, SIG_OIDS.md5WithRSA, 'md5');
    const md5Leaf = await parse(md5Der);
    expect(md5Leaf.facts.signatureAlgorithmOid).toBe(SIG_OIDS.md5WithRSA);
    expect((await verify(md5Leaf, { roots: [r] })).error).toBe(unknownAuthority('x509: cannot verify signature: insecure algorithm MD5-RSA', 'Test Root'));
    // Control: the same TBS re-signed with SHA-256 by the same key verifies.
    const okLeaf = await parse(await resign(l.der, rk, SIG_OIDS.sha256WithRSA, 'sha256'));
    expect((await verify(okLeaf, { roots: [r] })).error).toBeNull();
  });

  // A root's own signature is never checked: buildChains only calls c.CheckSignatureFrom(parent)
  // for a child and its candidate parent (verify.go:745), and a root is never a child.
  it('a SHA-1 self-signed root still anchors a SHA-256 chain', async () => {
    const r = await root({ hash: 'SHA-1' });
    const l = await leaf(r);
    expect((await verify(l, { roots: [r] })).error).toBeNull();
  });
});

describe('RSA issuer key size — crypto/rsa/fips.go:373 (VerifyPKCS1v15 → checkPublicKeySize), rsa.go:283-293 (checkKeySize: size >= 1024)', () => {
  it('a 1023-bit RSA issuer is refused (hint "1023-bit keys are insecure"); 1024 bits verify', async () => {
    const weak = await root({ keys: await keys('RSA-1023') });
    const l = await leaf(weak);
    expect((await verify(l, { roots: [weak] })).error).toBe(
      unknownAuthority('crypto/rsa: 1023-bit keys are insecure (see https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_size)', 'Test Root'),
    );
    const ok = await root({ keys: await keys('RSA-1024') });
    expect((await verify(await leaf(ok), { roots: [ok] })).error).toBeNull();
  }, 60000);
});

describe('basicConstraints CA flag — x509.go:928-937 (CheckSignatureFrom), verify.go:496-498 (isValid)', () => {
  // `parent.Version == 3 && !parent.BasicConstraintsValid || parent.BasicConstraintsValid && !parent.IsCA`
  // → ConstraintViolationError (a CheckSignatureFrom error: the UnknownAuthorityError hint).
  it('an intermediate with CA:FALSE cannot sign', async () => {
    const r = await root();
    const i = await intermediate(r, 'CN=Not A CA', { ca: false, keyUsage: KU.keyCertSign });
    const l = await leaf(i);
    expect((await verify(l, { roots: [r], intermediates: [i] })).error).toBe(unknownAuthority(CANNOT_SIGN, 'Not A CA'));
  });

  it('a v3 intermediate without basicConstraints cannot sign', async () => {
    const r = await root();
    const i = await intermediate(r, 'CN=No BC', { ca: null, keyUsage: KU.keyCertSign });
    const l = await leaf(i);
    expect((await verify(l, { roots: [r], intermediates: [i] })).error).toBe(unknownAuthority(CANNOT_SIGN, 'No BC'));
  });

  it('a root with CA:FALSE cannot sign either (CheckSignatureFrom runs for root candidates too, verify.go:745)', async () => {
    const r = await root({ ca: false, keyUsage: KU.keyCertSign });
    const l = await leaf(r);
    expect((await verify(l, { roots: [r] })).error).toBe(unknownAuthority(CANNOT_SIGN, 'Test Root'));
  });

  // A v1 parent passes CheckSignatureFrom (the BasicConstraints clause only applies to v3),
  // but isValid refuses it as an intermediate: `certType == intermediateCertificate &&
  // (!c.BasicConstraintsValid || !c.IsCA)` → NotAuthorizedToSign (verify.go:496-498), and that
  // isValid error is the one returned (verify.go:753-760, 798-803).
  it('a v1 intermediate: "certificate is not authorized to sign other certificates"; a v1 root anchors fine', async () => {
    const rk = await keys('P-256');
    const r = await root({ keys: rk });
    const ik = await keys('P-256');
    const v3 = await intermediate(r, 'CN=V1 Intermediate', { keys: ik });
    const v1Der = await resign(v3.der, rk, SIG_OIDS.ecdsaWithSHA256, 'sha256', (tbs) => {
      tbs.version = asnX509.Version.v1;
      tbs.extensions = undefined;
    });
    const v1 = { ...v3, der: v1Der, cert: await parse(v1Der) };
    expect(v1.cert.facts.version).toBe(1);
    const l = await leaf(v1, { noAki: true });
    expect((await verify(l, { roots: [r], intermediates: [v1] })).error).toBe('x509: certificate is not authorized to sign other certificates');
    // The same v1 certificate as a root: roots are not checked for IsCA (only intermediates are).
    expect((await verify(l, { roots: [v1] })).error).toBeNull();
  });
});

describe('path length constraint — verify.go:500-505 (numIntermediates := len(currentChain) - 1; > MaxPathLen fails), parser.go:359-380', () => {
  /** root (pathLen) → n intermediates → leaf. */
  async function chain(rootPathLen: number | undefined, n: number, interPathLens: Array<number | undefined> = []) {
    const r = await root({ pathLen: rootPathLen });
    const inters = [];
    let parent = r;
    for (let k = 0; k < n; k++) {
      parent = await intermediate(parent, `CN=Intermediate ${k + 1}`, { pathLen: interPathLens[k] });
      inters.push(parent);
    }
    const l = await leaf(parent);
    return verify(l, { roots: [r], intermediates: inters });
  }

  it('pathLen 0 on the root: a leaf directly below passes', async () => {
    expect((await chain(0, 0)).error).toBeNull();
  });
  it('pathLen 0 on the root: one intermediate is one too many', async () => {
    expect((await chain(0, 1)).error).toBe(TOO_MANY);
  });
  it('pathLen 1: exactly one intermediate passes (at the limit)', async () => {
    expect((await chain(1, 1)).error).toBeNull();
  });
  it('pathLen 1: two intermediates fail (one over)', async () => {
    expect((await chain(1, 2)).error).toBe(TOO_MANY);
  });
  it('pathLen 2: two intermediates pass, three fail', async () => {
    expect((await chain(2, 2)).error).toBeNull();
    expect((await chain(2, 3)).error).toBe(TOO_MANY);
  });
  it('no pathLen (MaxPathLen -1): three intermediates pass', async () => {
    expect((await chain(undefined, 3)).error).toBeNull();
  });
  it('pathLen 0 on an intermediate: it may sign the leaf, not another intermediate', async () => {
    // Intermediate 1 has pathLen 0; with Intermediate 2 below it, numIntermediates is 1.
    expect((await chain(undefined, 1, [0])).error).toBeNull();
    expect((await chain(undefined, 2, [0])).error).toBe(TOO_MANY);
    expect((await chain(undefined, 2, [1])).error).toBeNull();
  });
});

describe('key usage on issuers — x509.go:939-941 (KeyUsage != 0 && KeyUsage&KeyUsageCertSign == 0 → ConstraintViolationError)', () => {
  it('an intermediate whose KeyUsage lacks keyCertSign cannot sign', async () => {
    const r = await root();
    const i = await intermediate(r, 'CN=No CertSign', { keyUsage: KU.digitalSignature | KU.cRLSign });
    const l = await leaf(i);
    expect((await verify(l, { roots: [r], intermediates: [i] })).error).toBe(unknownAuthority(CANNOT_SIGN, 'No CertSign'));
  });
  it('a root whose KeyUsage lacks keyCertSign cannot sign', async () => {
    const r = await root({ keyUsage: KU.cRLSign });
    const l = await leaf(r);
    expect((await verify(l, { roots: [r] })).error).toBe(unknownAuthority(CANNOT_SIGN, 'Test Root'));
  });
  it('an intermediate without a KeyUsage extension (KeyUsage == 0) may sign', async () => {
    const r = await root();
    const i = await intermediate(r, 'CN=No KU', { keyUsage: null });
    const l = await leaf(i);
    expect((await verify(l, { roots: [r], intermediates: [i] })).error).toBeNull();
  });
});

describe('ExtKeyUsage nesting — verify.go:606-617, 622-650 (Verify), 981-1033 (checkChainForKeyUsage)', () => {
  // The walk goes from the root down; a certificate with EKUs crosses out every requested usage
  // it does not list (ExtKeyUsageAny keeps all); the chain fails when none is left.
  async function ekuChain(rootEku: string[] | undefined, interEku: string[] | undefined, leafEku: string[] | undefined) {
    const r = await root({ eku: rootEku });
    const i = await intermediate(r, 'CN=EKU Intermediate', { eku: interEku });
    const l = await leaf(i, { eku: leafEku });
    return (keyUsages: Array<'serverAuth' | 'clientAuth' | 'any'> = []) => verify(l, { roots: [r], intermediates: [i], keyUsages });
  }

  it('no EKUs anywhere: serverAuth (the default, verify.go:615-617) and clientAuth pass', async () => {
    const v = await ekuChain(undefined, undefined, undefined);
    expect((await v()).error).toBeNull();
    expect((await v(['clientAuth'])).error).toBeNull();
  });

  it('a leaf EKU must be allowed by every parent: intermediate [clientAuth] refuses a serverAuth leaf', async () => {
    const v = await ekuChain(undefined, [EKU.clientAuth], [EKU.serverAuth]);
    expect((await v()).error).toBe(INCOMPATIBLE);
    expect((await v(['clientAuth'])).error).toBe(INCOMPATIBLE); // the leaf itself lacks clientAuth
  });

  it('a root EKU constrains the whole chain: root [clientAuth] refuses serverAuth, allows clientAuth', async () => {
    const v = await ekuChain([EKU.clientAuth], undefined, [EKU.serverAuth, EKU.clientAuth]);
    expect((await v()).error).toBe(INCOMPATIBLE);
    expect((await v(['clientAuth'])).error).toBeNull();
  });

  it('a leaf without EKU is still constrained by its parents', async () => {
    const v = await ekuChain(undefined, [EKU.clientAuth], undefined);
    expect((await v()).error).toBe(INCOMPATIBLE);
    expect((await v(['clientAuth'])).error).toBeNull();
  });

  it('anyExtendedKeyUsage on a CA lets everything through (verify.go:1003-1008)', async () => {
    const v = await ekuChain(undefined, [EKU.any], [EKU.serverAuth]);
    expect((await v()).error).toBeNull();
    const v2 = await ekuChain([EKU.any], [EKU.any], [EKU.any]);
    expect((await v2(['clientAuth'])).error).toBeNull();
  });

  it('requesting ExtKeyUsageAny skips the EKU check entirely (verify.go:606-613, 627)', async () => {
    const v = await ekuChain([EKU.codeSigning], undefined, [EKU.codeSigning]);
    expect((await v()).error).toBe(INCOMPATIBLE);
    expect((await v(['any'])).error).toBeNull();
  });

  it('several requested usages: the chain passes if at least one survives every certificate', async () => {
    // Leaf [clientAuth]: serverAuth is crossed out, clientAuth remains (usagesRemaining > 0).
    const v = await ekuChain(undefined, undefined, [EKU.clientAuth]);
    expect((await v(['serverAuth', 'clientAuth'])).error).toBeNull();
    // Intermediate [serverAuth] and leaf [clientAuth]: both crossed out.
    const w = await ekuChain(undefined, [EKU.serverAuth], [EKU.clientAuth]);
    expect((await w(['serverAuth', 'clientAuth'])).error).toBe(INCOMPATIBLE);
  });

  // checkChainForKeyUsage only compares `requestedUsage == usage` (verify.go:1018-1022): the old
  // COMODO exception (SGC counting as serverAuth) is gone; Go's own tests say so
  // (name_constraints_test.go:1193-1224 "netscapeSGC/msSGC EKU does not permit server/client auth").
  it('Netscape / Microsoft SGC on an intermediate does not stand in for serverAuth', async () => {
    for (const sgc of ['2.16.840.1.113730.4.1', '1.3.6.1.4.1.311.10.3.3']) {
      const v = await ekuChain(undefined, [sgc], [EKU.serverAuth, EKU.clientAuth]);
      expect((await v()).error).toBe(INCOMPATIBLE);
      expect((await v(['clientAuth'])).error).toBe(INCOMPATIBLE);
    }
  });

  it('an EKU Go does not know (UnknownExtKeyUsage) on a CA crosses out every usage', async () => {
    // `len(cert.ExtKeyUsage) == 0 && len(cert.UnknownExtKeyUsage) == 0` is the only skip (verify.go:998).
    const v = await ekuChain(undefined, [EKU.unknown], [EKU.serverAuth]);
    expect((await v()).error).toBe(INCOMPATIBLE);
  });
});

describe('name constraints — constraints.go (Go 1.26: checkChainConstraints, applied in Verify at verify.go:631-636, 643-645)', () => {
  type Names = Parameters<typeof issue>[0]['san'];
  /** Root → constrained intermediate → leaf with the given SANs. */
  async function constrained(nc: { permitted?: Names; excluded?: Names }, leafSan: Names, interSan?: Names) {
    const r = await root();
    const i = await intermediate(r, 'CN=Constrained', { nameConstraints: nc, san: interSan });
    const l = await leaf(i, { san: leafSan });
    const res = await verify(l, { roots: [r], intermediates: [i] });
    return res.error;
  }
  async function constrainedAny(nc: { permitted?: Names; excluded?: Names }, leafSan: Names) {
    const r = await root();
    const i = await intermediate(r, 'CN=Constrained', { nameConstraints: nc });
    const l = await leaf(i, { san: leafSan, eku: [EKU.codeSigning] });
    return (await verify(l, { roots: [r], intermediates: [i], keyUsages: ['any'] })).error;
  }

  describe('DNS: label-boundary suffix match (dnsHasSuffix, constraints.go:207-245)', () => {
    const permitted = { permitted: [{ dns: 'example.com' }] };
    it('permitted example.com admits example.com itself', async () => {
      expect(await constrained(permitted, [{ dns: 'example.com' }])).toBeNull();
    });
    it('permitted example.com admits a.example.com and a.b.example.com', async () => {
      expect(await constrained(permitted, [{ dns: 'a.example.com' }, { dns: 'a.b.example.com' }])).toBeNull();
    });
    it('permitted example.com does NOT admit evilexample.com (the byte before the suffix must be a dot)', async () => {
      expect(await constrained(permitted, [{ dns: 'evilexample.com' }])).toBe(`${NAME_PREFIX}DNS name "evilexample.com" is not permitted by any constraint`);
    });
    it('matching is case-insensitive (dnsHasSuffix folds ASCII case)', async () => {
      expect(await constrained(permitted, [{ dns: 'A.EXAMPLE.COM' }])).toBeNull();
    });
    it('every SAN must be permitted: one good and one outside fails', async () => {
      expect(await constrained(permitted, [{ dns: 'a.example.com' }, { dns: 'example.org' }])).toBe(
        `${NAME_PREFIX}DNS name "example.org" is not permitted by any constraint`,
      );
    });
    it('a wildcard SAN below the permitted domain passes', async () => {
      expect(await constrained(permitted, [{ dns: '*.example.com' }])).toBeNull();
    });
  });

  describe('DNS: the leading-period form ".example.com" (constraints.go:211-215: subdomains only)', () => {
    const dotted = { permitted: [{ dns: '.example.com' }] };
    it('admits a.example.com', async () => {
      expect(await constrained(dotted, [{ dns: 'a.example.com' }])).toBeNull();
    });
    it('does NOT admit example.com itself', async () => {
      expect(await constrained(dotted, [{ dns: 'example.com' }])).toBe(`${NAME_PREFIX}DNS name "example.com" is not permitted by any constraint`);
    });
    it('does NOT admit evilexample.com', async () => {
      expect(await constrained(dotted, [{ dns: 'evilexample.com' }])).toBe(`${NAME_PREFIX}DNS name "evilexample.com" is not permitted by any constraint`);
    });
  });

  describe('DNS: excluded subtrees (checkConstraints, constraints.go:453-468; dnsConstraints.query, 369-386)', () => {
    const excluded = { excluded: [{ dns: 'bad.example.com' }] };
    it('excludes the name and its subdomains', async () => {
      expect(await constrained(excluded, [{ dns: 'bad.example.com' }])).toBe(
        `${NAME_PREFIX}DNS name "bad.example.com" is excluded by constraint "bad.example.com"`,
      );
      expect(await constrained(excluded, [{ dns: 'x.bad.example.com' }])).toBe(
        `${NAME_PREFIX}DNS name "x.bad.example.com" is excluded by constraint "bad.example.com"`,
      );
    });
    it('does not exclude notbad.example.com or a sibling', async () => {
      expect(await constrained(excluded, [{ dns: 'notbad.example.com' }, { dns: 'good.example.com' }])).toBeNull();
    });
    it('excluded wins over permitted', async () => {
      expect(await constrained({ permitted: [{ dns: 'example.com' }], excluded: [{ dns: 'bad.example.com' }] }, [{ dns: 'x.bad.example.com' }])).toBe(
        `${NAME_PREFIX}DNS name "x.bad.example.com" is excluded by constraint "bad.example.com"`,
      );
    });
    // A wildcard SAN is excluded when its parent is the parent of an excluded name: the
    // wildcard could stand for the excluded host (parentConstraints, constraints.go:351-363, 379-385).
    it('a wildcard SAN covering an excluded host is excluded', async () => {
      expect(await constrained(excluded, [{ dns: '*.example.com' }])).toBe(
        `${NAME_PREFIX}DNS name "*.example.com" is excluded by constraint "bad.example.com"`,
      );
    });
  });

  describe('which certificates the constraints apply to (checkChainConstraints, constraints.go:510-566)', () => {
    it("a root's constraints apply to the intermediate's SANs too", async () => {
      const r = await root({ nameConstraints: { permitted: [{ dns: 'example.com' }] } });
      const i = await intermediate(r, 'CN=Intermediate', { san: [{ dns: 'istiod.other.org' }] });
      const l = await leaf(i, { san: [{ dns: 'a.example.com' }] });
      expect((await verify(l, { roots: [r], intermediates: [i] })).error).toBe(`${NAME_PREFIX}DNS name "istiod.other.org" is not permitted by any constraint`);
    });
    it("a CA's own SANs are not checked against its own constraints", async () => {
      expect(await constrained({ permitted: [{ dns: 'example.com' }] }, [{ dns: 'a.example.com' }], [{ dns: 'ca.other.org' }])).toBeNull();
    });
    it('a leaf without a SAN extension is not checked (hasSANExtension, constraints.go:537-539)', async () => {
      const r = await root();
      const i = await intermediate(r, 'CN=Constrained', { nameConstraints: { permitted: [{ dns: 'example.com' }] } });
      const l = await issue({ subject: 'CN=evil.org', issuer: i, eku: [EKU.serverAuth] });
      expect((await verify(l, { roots: [r], intermediates: [i] })).error).toBeNull();
    });
    it('DNS constraints do not constrain URI SANs (each name type has its own constraints)', async () => {
      expect(await constrained({ permitted: [{ dns: 'example.com' }] }, [{ dns: 'a.example.com' }, { uri: 'spiffe://cluster.local/ns/a/sa/b' }])).toBeNull();
    });
  });

  describe('when Go checks them — after the chain is built and after the EKU check (verify.go:622-650)', () => {
    it('a chain that fails both the EKU check and a name constraint reports "incompatible key usage"', async () => {
      const r = await root();
      const i = await intermediate(r, 'CN=Constrained', { nameConstraints: { permitted: [{ dns: 'example.com' }] }, eku: [EKU.clientAuth] });
      const l = await leaf(i, { san: [{ dns: 'evil.org' }], eku: [EKU.serverAuth] });
      expect((await verify(l, { roots: [r], intermediates: [i] })).error).toBe(INCOMPATIBLE);
      expect((await verify(l, { roots: [r], intermediates: [i], keyUsages: ['clientAuth'] })).error).toBe(INCOMPATIBLE);
      // With the EKU satisfied (clientAuth all the way down), the name constraint is what fails.
      const l2 = await leaf(i, { san: [{ dns: 'evil.org' }], eku: [EKU.clientAuth] });
      expect((await verify(l2, { roots: [r], intermediates: [i], keyUsages: ['clientAuth'] })).error).toBe(
        `${NAME_PREFIX}DNS name "evil.org" is not permitted by any constraint`,
      );
    });
    it('requesting ExtKeyUsageAny skips the EKU check but not the name constraints', async () => {
      expect(await constrainedAny({ permitted: [{ dns: 'example.com' }] }, [{ dns: 'evil.org' }])).toBe(
        `${NAME_PREFIX}DNS name "evil.org" is not permitted by any constraint`,
      );
    });
    it('a URI SAN whose host is an IP cannot be matched once any constraint applies (parseURIs, constraints.go:595-597)', async () => {
      expect(await constrained({ permitted: [{ dns: 'example.com' }] }, [{ dns: 'a.example.com' }, { uri: 'spiffe://10.0.0.1/ns/a/sa/b' }])).toBe(
        `${NAME_PREFIX}URI with IP ("spiffe://10.0.0.1/ns/a/sa/b") cannot be matched against constraints`,
      );
    });
  });

  describe('URI: the host is matched like a DNS name (chainConstraints.check, constraints.go:491-497; parseURIs, 577-602)', () => {
    it('permitted URI domain cluster.local admits spiffe://cluster.local/...', async () => {
      expect(await constrained({ permitted: [{ uri: 'cluster.local' }] }, [{ uri: 'spiffe://cluster.local/ns/a/sa/b' }])).toBeNull();
    });
    it('permitted URI domain cluster.local refuses another trust domain', async () => {
      expect(await constrained({ permitted: [{ uri: 'cluster.local' }] }, [{ uri: 'spiffe://evil.local/ns/a/sa/b' }])).toBe(
        `${NAME_PREFIX}URI "spiffe://evil.local/ns/a/sa/b" is not permitted by any constraint`,
      );
    });
    it('permitted URI domain cluster.local refuses evilcluster.local (label boundary)', async () => {
      expect(await constrained({ permitted: [{ uri: 'cluster.local' }] }, [{ uri: 'spiffe://evilcluster.local/ns/a/sa/b' }])).toBe(
        `${NAME_PREFIX}URI "spiffe://evilcluster.local/ns/a/sa/b" is not permitted by any constraint`,
      );
    });
    it('permitted ".mesh.example" admits east.mesh.example but not mesh.example', async () => {
      expect(await constrained({ permitted: [{ uri: '.mesh.example' }] }, [{ uri: 'spiffe://east.mesh.example/ns/a/sa/b' }])).toBeNull();
      expect(await constrained({ permitted: [{ uri: '.mesh.example' }] }, [{ uri: 'spiffe://mesh.example/ns/a/sa/b' }])).toBe(
        `${NAME_PREFIX}URI "spiffe://mesh.example/ns/a/sa/b" is not permitted by any constraint`,
      );
    });
    it('excluded URI domain', async () => {
      expect(await constrained({ excluded: [{ uri: 'legacy.local' }] }, [{ uri: 'spiffe://legacy.local/ns/a/sa/b' }])).toBe(
        `${NAME_PREFIX}URI "spiffe://legacy.local/ns/a/sa/b" is excluded by constraint "legacy.local"`,
      );
    });
    it('URI constraints do not constrain DNS SANs', async () => {
      expect(await constrained({ permitted: [{ uri: 'cluster.local' }] }, [{ dns: 'anything.org' }, { uri: 'spiffe://cluster.local/ns/a/sa/b' }])).toBeNull();
    });
  });

  describe('IP: CIDR containment, IPv4 and IPv6 kept apart (ipMatch / ipConstraints, constraints.go:149-205)', () => {
    it('permitted 10.0.0.0/8 admits 10.1.2.3 and refuses 11.0.0.1', async () => {
      expect(await constrained({ permitted: [{ ip: '10.0.0.0/8' }] }, [{ ip: '10.1.2.3' }])).toBeNull();
      expect(await constrained({ permitted: [{ ip: '10.0.0.0/8' }] }, [{ ip: '11.0.0.1' }])).toBe(
        `${NAME_PREFIX}IP address "11.0.0.1" is not permitted by any constraint`,
      );
    });
    it('excluded 192.168.1.0/24', async () => {
      expect(await constrained({ excluded: [{ ip: '192.168.1.0/24' }] }, [{ ip: '192.168.1.7' }])).toBe(
        `${NAME_PREFIX}IP address "192.168.1.7" is excluded by constraint "192.168.1.0/24"`,
      );
      expect(await constrained({ excluded: [{ ip: '192.168.1.0/24' }] }, [{ ip: '192.168.2.7' }])).toBeNull();
    });
    it('an IPv6 SAN is not permitted by IPv4-only permitted ranges', async () => {
      expect(await constrained({ permitted: [{ ip: '10.0.0.0/8' }] }, [{ ip: '2001:db8::1' }])).toBe(
        `${NAME_PREFIX}IP address "2001:db8::1" is not permitted by any constraint`,
      );
    });
    it('IP constraints do not constrain DNS SANs', async () => {
      expect(await constrained({ permitted: [{ ip: '10.0.0.0/8' }] }, [{ dns: 'a.example.com' }])).toBeNull();
    });
  });
});

describe('buildChains plumbing — verify.go:725-806', () => {
  it('a leaf that is itself in the root pool verifies as a one-certificate chain (verify.go:597-598)', async () => {
    const r = await root({ eku: [EKU.serverAuth] });
    const res = await verify(r, { roots: [r] });
    expect(res.error).toBeNull();
    expect(res.chains.map((c) => c.length)).toEqual([1]);
  });
  it('no issuer at all: plain "certificate signed by unknown authority" (no hint)', async () => {
    const r = await root();
    const other = await root({ subject: 'CN=Other Root' });
    const l = await leaf(r);
    expect((await verify(l, { roots: [other] })).error).toBe('x509: certificate signed by unknown authority');
  });
});
