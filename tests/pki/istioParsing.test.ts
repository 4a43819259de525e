// How src/core/pki/istio.ts reads bytes the way Istio and Go do (issue #28: survivors of
// reports/mutation/pki.nofuzz.nostatic.group-g). Expected values come from the sources:
// Istio security/pkg/pki/util/crypto.go (ParsePemEncodedCertificate, ParsePemEncodedKey,
// ParseRootCerts), security/pkg/nodeagent/cache/secretcache.go (the root file check), Go 1.26
// crypto/x509 (cert_pool.go AppendCertsFromPEM, parser.go, x509.go RevocationList.CheckSignatureFrom
// and checkSignature) and crypto/tls (tls.go X509KeyPair, parsePrivateKey).
import { describe, expect, it } from 'vitest';
import * as nodeCrypto from 'node:crypto';
import * as asn1 from '@peculiar/asn1-schema';
import * as asnX509 from '@peculiar/asn1-x509';
import * as asnRsa from '@peculiar/asn1-rsa';
import { CertParseError } from '../../src/core/pki/cert.ts';
import { crlSignedBy, parsePemEncodedKey, parseRootCerts, x509KeyPair } from '../../src/core/pki/istio.ts';
import { parseCrlDer } from '../../src/core/pki/crl.ts';
import { encodePem } from '../../src/core/pki/pem.ts';
import { CertPool } from '../../src/core/pki/verify.ts';
import { KU, SIG_OIDS, intermediate, issue, keys, leaf, root } from './pkiBuilder.ts';
import { asV1, bytes, context, crlDer, ed25519Keys, keyPem, relabelCrl, withSpki, negativeSerial, pem, pemBytes, resignCrl } from './istioFixtures.ts';

describe('PkiContext.cert / goParse — Go x509.ParseCertificate', () => {
  it('bytes that are no certificate throw a CertParseError, every time (the failure is remembered)', () => {
    const ctx = context();
    const junk = new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]);
    expect(() => ctx.cert(junk)).toThrow(CertParseError);
    expect(() => ctx.cert(junk)).toThrow(CertParseError);
    const r = ctx.goParse(junk);
    expect(r.cert).toBeUndefined();
    expect(r.error).toMatch(/malformed certificate/);
  });

  it('the same DER gives the same object; adopt keeps the first one', async () => {
    const r = await root();
    const ctx = context();
    const a = ctx.cert(r.der);
    expect(ctx.cert(r.der)).toBe(a);
    expect(ctx.adopt(r.cert)).toBe(a);
    const other = await root();
    expect(ctx.adopt(other.cert)).toBe(other.cert);
    expect(ctx.cert(other.der)).toBe(other.cert);
  });

  // parser.go parseCertificate: `if serial.Sign() == -1 && x509negativeserial.Value() != "1"`
  // → "x509: negative serial number". Our parser reads it; goParse refuses it with an x509 error.
  it('a certificate our parser reads but Go refuses (negative serial) gives an x509 error, no certificate', async () => {
    const rk = await keys('P-256');
    const r = await root({ keys: rk });
    const neg = await negativeSerial(await leaf(r), rk);
    const g = context().goParse(neg.der);
    expect(g.cert).toBeUndefined();
    expect(g.error).toMatch(/^x509: negative serial/);
    expect(g.error).not.toMatch(/rejected/);
  });
});

describe('PkiContext.appendCertsFromPem — cert_pool.go AppendCertsFromPEM', () => {
  // Skips a block whose type is not CERTIFICATE or that has headers, and one ParseCertificate
  // refuses; everything else is added.
  it('counts what Go adds and what it skips', async () => {
    const rk = await keys('P-256');
    const r = await root({ keys: rk });
    const i = await intermediate(r, 'CN=Mid');
    const neg = await negativeSerial(await leaf(r), rk);
    const withHeaders = encodePem('CERTIFICATE', i.der).replace('-----BEGIN CERTIFICATE-----\n', '-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\n');
    const file = pem(r) + encodePem('TRUSTED CERTIFICATE', i.der) + withHeaders + pem(neg) + pem(i);
    const pool = new CertPool();
    expect(context().appendCertsFromPem(pool, bytes(file))).toEqual({ added: 2, skipped: 3 });
    expect(pool.size).toBe(2);
    expect(pool.certs.map((c) => c.facts.subjectCommonName)).toEqual(['Test Root', 'Mid']);
  });

  it('nothing usable: nothing added', async () => {
    const pool = new CertPool();
    expect(context().appendCertsFromPem(pool, bytes('no pem here\n'))).toEqual({ added: 0, skipped: 0 });
    expect(pool.size).toBe(0);
  });
});

describe('PkiContext.parsePemEncodedCertificate — crypto.go ParsePemEncodedCertificate', () => {
  it('no PEM block: "invalid PEM encoded certificate"', () => {
    expect(context().parsePemEncodedCertificate(bytes('hello\n'))).toEqual({ error: 'invalid PEM encoded certificate' });
  });

  it('a first block that is not a certificate: "failed to parse X.509 certificate"', async () => {
    const k = await keys('P-256');
    const r = await root({ keys: k });
    expect(context().parsePemEncodedCertificate(bytes((await keyPem(k)) + pem(r)))).toEqual({ error: 'failed to parse X.509 certificate' });
  });

  it('a certificate Go refuses: "failed to parse X.509 certificate"', async () => {
    const rk = await keys('P-256');
    const neg = await negativeSerial(await root({ keys: rk }), rk);
    expect(context().parsePemEncodedCertificate(pemBytes(neg)).error).toBe('failed to parse X.509 certificate');
  });

  // pem.Decode does not look at the block type: any first block holding a certificate parses.
  it('the first block, whatever its type', async () => {
    const r = await root({ subject: 'CN=First' });
    const other = await root({ subject: 'CN=Second' });
    const c = context().parsePemEncodedCertificate(bytes(encodePem('FOO', r.der) + pem(other)));
    expect(c.error).toBeUndefined();
    expect(c.cert?.facts.subjectCommonName).toBe('First');
  });
});

describe('parsePemEncodedKey — crypto.go ParsePemEncodedKey', () => {
  it('no PEM block: "invalid PEM-encoded key"', () => {
    expect(parsePemEncodedKey(bytes('not a key'))).toEqual({ error: 'invalid PEM-encoded key' });
  });

  it('a block of another type: "unsupported PEM block type for a private key: <type>"', async () => {
    const r = await root();
    expect(parsePemEncodedKey(pemBytes(r))).toEqual({ error: 'unsupported PEM block type for a private key: CERTIFICATE' });
  });

  it('EC PRIVATE KEY, RSA PRIVATE KEY and PRIVATE KEY parse; the type and bytes are those of the block', async () => {
    const ec = await keys('P-256');
    const rsa = await keys('RSA-2048', 'istio-parsing');
    for (const [k, form, type] of [
      [ec, 'sec1', 'EC PRIVATE KEY'],
      [rsa, 'pkcs1', 'RSA PRIVATE KEY'],
      [ec, 'pkcs8', 'PRIVATE KEY'],
    ] as const) {
      const text = await keyPem(k, form);
      const r = parsePemEncodedKey(bytes(text));
      expect(r.error).toBeUndefined();
      expect(r.type).toBe(type);
      expect(r.der!.length).toBeGreaterThan(30);
    }
  });

  // case blockTypeECPrivateKey: x509.ParseECPrivateKey fails → "failed to parse the ECDSA private key: …"
  it('a PKCS#8 key labelled EC PRIVATE KEY fails as an ECDSA key', async () => {
    const ec = await keys('P-256');
    const text = (await keyPem(ec, 'pkcs8')).replace(/PRIVATE KEY/g, 'EC PRIVATE KEY');
    expect(parsePemEncodedKey(bytes(text)).error).toMatch(/^failed to parse the ECDSA private key: /);
  });
});

describe('x509KeyPair — crypto/tls X509KeyPair (tls.go)', () => {
  async function pair(kind: 'P-256' | 'RSA-2048' = 'P-256') {
    const k = await keys(kind, kind === 'P-256' ? undefined : 'istio-pair');
    const r = await root({ keys: k, subject: 'CN=Pair' });
    return { k, r, certPem: pemBytes(r), keyPem: bytes(await keyPem(k)) };
  }

  it('a matching pair: no error, the key facts', async () => {
    const { certPem, keyPem: kp } = await pair();
    const res = await x509KeyPair(context(), certPem, kp);
    expect(res.error).toBeUndefined();
    expect(res.keyFacts?.publicKey?.type).toBe('EC');
  });

  // if len(cert.Certificate) == 0: no block skipped → "…any PEM data…"; exactly one skipped and
  // it ends in "PRIVATE KEY" → "…PEM inputs may have been switched"; else the skipped types.
  it('no CERTIFICATE block in the certificate input: the error names what was skipped', async () => {
    const { k, keyPem: kp } = await pair();
    const ctx = context();
    expect((await x509KeyPair(ctx, bytes(''), kp)).error).toBe('tls: failed to find any PEM data in certificate input');
    expect((await x509KeyPair(ctx, kp, kp)).error).toBe(
      'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
    );
    const sec1 = await keyPem(k, 'sec1');
    expect((await x509KeyPair(ctx, bytes(sec1), kp)).error).toBe(
      'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
    );
    const params = encodePem('EC PARAMETERS', new Uint8Array([6, 8, 42, 134, 72, 206, 61, 3, 1, 7]));
    expect((await x509KeyPair(ctx, bytes(params), kp)).error).toBe(
      'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [EC PARAMETERS]',
    );
    expect((await x509KeyPair(ctx, bytes(params + sec1), kp)).error).toBe(
      'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [EC PARAMETERS EC PRIVATE KEY]',
    );
    expect((await x509KeyPair(ctx, bytes(sec1 + params), kp)).error).toBe(
      'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [EC PRIVATE KEY EC PARAMETERS]',
    );
  });

  // The key is the first block whose type is "PRIVATE KEY" or ends in " PRIVATE KEY"; none: no
  // block → "…any PEM data in key input"; one CERTIFICATE → "found a certificate rather than a
  // key"; else the skipped types.
  it('no key block in the key input: the error names what was skipped', async () => {
    const { r, certPem } = await pair();
    const ctx = context();
    expect((await x509KeyPair(ctx, certPem, bytes('nothing'))).error).toBe('tls: failed to find any PEM data in key input');
    expect((await x509KeyPair(ctx, certPem, certPem)).error).toBe('tls: found a certificate rather than a key in the PEM for the private key');
    expect((await x509KeyPair(ctx, certPem, bytes(pem(r, r)))).error).toBe(
      'tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [CERTIFICATE CERTIFICATE]',
    );
    const odd = encodePem('PRIVATEKEY', new Uint8Array([1, 2, 3]));
    expect((await x509KeyPair(ctx, certPem, bytes(odd))).error).toBe(
      'tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [PRIVATEKEY]',
    );
  });

  it('the key block is found after other blocks, and any "… PRIVATE KEY" type will do', async () => {
    const { k, r, certPem } = await pair();
    const ctx = context();
    const sec1 = await keyPem(k, 'sec1');
    expect((await x509KeyPair(ctx, certPem, bytes(pem(r) + sec1))).error).toBeUndefined();
    // The type is not looked at by parsePrivateKey (PKCS#1, PKCS#8, then SEC1 are all tried).
    expect((await x509KeyPair(ctx, certPem, bytes(sec1.replace(/EC PRIVATE KEY/g, 'OPENSSH PRIVATE KEY')))).error).toBeUndefined();
  });

  it('the leaf is the first CERTIFICATE block, even after other blocks', async () => {
    const { k, r, keyPem: kp } = await pair();
    const other = await root({ subject: 'CN=Other' });
    const params = encodePem('EC PARAMETERS', new Uint8Array([6, 8, 42, 134, 72, 206, 61, 3, 1, 7]));
    expect((await x509KeyPair(context(), bytes(params + pem(r, other)), kp)).error).toBeUndefined();
    expect((await x509KeyPair(context(), bytes(pem(other, r)), kp)).error).toBe('tls: private key does not match public key');
    expect(k.kind).toBe('P-256');
  });

  it('a leaf Go cannot parse: its x509 error', async () => {
    const { k, keyPem: kp } = await pair();
    const neg = await negativeSerial(await root({ keys: k }), k);
    expect((await x509KeyPair(context(), pemBytes(neg), kp)).error).toMatch(/^x509: negative serial/);
  });

  // parsePrivateKey: none of PKCS#1, PKCS#8, SEC1 parses → "tls: failed to parse private key".
  it('a key block that does not parse: "tls: failed to parse private key"', async () => {
    const { certPem } = await pair();
    const bad = encodePem('EC PRIVATE KEY', new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]));
    expect(await x509KeyPair(context(), certPem, bytes(bad))).toEqual({ error: 'tls: failed to parse private key' });
  });

  // switch pub := x509Cert.PublicKey.(type): an RSA certificate with an EC key → type mismatch.
  it("another key type, or another key: Go's two mismatch errors", async () => {
    const { certPem } = await pair();
    const rsa = await pair('RSA-2048');
    const otherEc = await keys('P-256');
    expect((await x509KeyPair(context(), rsa.certPem, bytes(await keyPem(otherEc)))).error).toBe('tls: private key type does not match public key type');
    expect((await x509KeyPair(context(), certPem, bytes(await keyPem(otherEc)))).error).toBe('tls: private key does not match public key');
    expect((await x509KeyPair(context(), rsa.certPem, bytes(await keyPem(rsa.k, 'pkcs1')))).error).toBeUndefined();
  });

  // case ed25519.PublicKey: priv.Public().(ed25519.PublicKey).Equal(pub).
  it('an Ed25519 certificate with its PKCS#8 key: no error', async () => {
    const rootCa = await root();
    const ed = await ed25519Keys();
    const c = await leaf(rootCa, { keys: ed });
    expect(c.cert.facts.publicKey.type).toBe('Ed25519');
    const res = await x509KeyPair(context(), pemBytes(c), bytes(await keyPem(ed)));
    expect(res.error).toBeUndefined();
    expect(res.keyFacts?.publicKey?.type).toBe('Ed25519');
  });

  // getPublicKeyAlgorithmFromOID knows rsaEncryption, DSA, ECDSA, Ed25519 only: an id-RSASSA-PSS
  // SubjectPublicKeyInfo parses with PublicKey nil, and X509KeyPair's switch ends in its default
  // case "tls: unknown public key algorithm" (after the key parsed).
  it('an RSA-PSS public key in the certificate: "tls: unknown public key algorithm"', async () => {
    const { k, r } = await pair('RSA-2048');
    const { resign } = await import('./pkiBuilder.ts');
    const { AsnConvert } = await import('@peculiar/asn1-schema');
    const der = await resign(r.der, k, SIG_OIDS.sha256WithRSA, 'sha256', (tbs) => {
      const spki = tbs.subjectPublicKeyInfo;
      spki.algorithm.algorithm = '1.2.840.113549.1.1.10';
      spki.algorithm.parameters = undefined;
      tbs.subjectPublicKeyInfo = AsnConvert.parse(AsnConvert.serialize(spki), spki.constructor as never);
    });
    const ctx = context();
    expect(ctx.goParse(der).cert?.facts.publicKey.type).toBe('RSA-PSS');
    const res = await x509KeyPair(ctx, bytes(encodePem('CERTIFICATE', der)), bytes(await keyPem(k, 'pkcs1')));
    expect(res.error).toBe('tls: unknown public key algorithm');
  });
});

describe('parseRootCerts — crypto.go ParseRootCerts (bytes.TrimSpace, then pem.Decode until the input is used up)', () => {
  it('every block Go parses is kept, in order, with no error', async () => {
    const a = await root({ subject: 'CN=A' });
    const b = await root({ subject: 'CN=B' });
    const r = parseRootCerts(context(), bytes(`\n  \n${pem(a, b)}\n\n \t\n`));
    expect(r.kept.map((c) => c.facts.subjectCommonName)).toEqual(['A', 'B']);
    expect(r.errors).toEqual([]);
  });

  it('a single block without a trailing newline', async () => {
    const a = await root({ subject: 'CN=A' });
    const r = parseRootCerts(context(), bytes(pem(a).trimEnd()));
    expect(r.kept).toHaveLength(1);
    expect(r.errors).toEqual([]);
  });

  // ParseCertificate fails: errs gets Go's error and the loop goes on.
  it('a block Go refuses adds its parse error and the next block is still kept', async () => {
    const rk = await keys('P-256');
    const neg = await negativeSerial(await root({ keys: rk }), rk);
    const b = await root({ subject: 'CN=B' });
    const r = parseRootCerts(context(), bytes(pem(neg, b)));
    expect(r.kept.map((c) => c.facts.subjectCommonName)).toEqual(['B']);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/^x509: negative serial/);
  });

  // cb == nil: "invalid PEM encoded certificate" and return (what was kept so far stays).
  it('text that is not PEM after the blocks: "invalid PEM encoded certificate", the earlier blocks kept', async () => {
    const a = await root({ subject: 'CN=A' });
    const r = parseRootCerts(context(), bytes(`${pem(a)}trailing junk\n`));
    expect(r.kept).toHaveLength(1);
    expect(r.errors).toEqual(['invalid PEM encoded certificate']);
  });

  // secretcache.go: len(validRootCertBytes) == 0 → "failed to parse root certs from file …".
  it('an empty (or blank) file keeps nothing: "failed to parse root certs from file"', () => {
    expect(parseRootCerts(context(), bytes(''))).toEqual({ kept: [], errors: ['failed to parse root certs from file'] });
    expect(parseRootCerts(context(), bytes(' \n\t\n'))).toEqual({ kept: [], errors: ['failed to parse root certs from file'] });
  });

  it('nothing kept but parse errors: the errors alone', async () => {
    const rk = await keys('P-256');
    const neg = await negativeSerial(await root({ keys: rk }), rk);
    const r = parseRootCerts(context(), pemBytes(neg));
    expect(r.kept).toEqual([]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/^x509: negative serial/);
  });
});

describe('crlSignedBy — x509.go RevocationList.CheckSignatureFrom', () => {
  const CANNOT_SIGN = 'x509: invalid signature: parent certificate cannot sign this kind of certificate';
  const UNIMPLEMENTED = 'x509: cannot verify signature: algorithm unimplemented';

  it('the CA that signed the CRL: no error', async () => {
    const ca = await root({ subject: 'CN=CRL CA' });
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(ca)), ca.cert)).toBeUndefined();
  });

  // parent.Version == 3 && !parent.BasicConstraintsValid || parent.BasicConstraintsValid && !parent.IsCA
  it('a v3 parent without BasicConstraints, or with CA:FALSE, cannot sign a CRL', async () => {
    const noBc = await root({ subject: 'CN=No BC', ca: null, keyUsage: KU.cRLSign });
    const notCa = await root({ subject: 'CN=Not CA', ca: false, keyUsage: KU.cRLSign });
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(noBc)), noBc.cert)).toBe(CANNOT_SIGN);
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(notCa)), notCa.cert)).toBe(CANNOT_SIGN);
  });

  // A v1 parent has no BasicConstraints and no KeyUsage, and neither clause refuses it.
  it('a v1 parent may sign a CRL', async () => {
    const k = await keys('P-256');
    const v1 = await asV1(await root({ keys: k, subject: 'CN=V1 CA' }), k);
    expect(v1.cert.facts.version).toBe(1);
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(v1)), v1.cert)).toBeUndefined();
  });

  // parent.KeyUsage != 0 && parent.KeyUsage&KeyUsageCRLSign == 0
  it('a KeyUsage without cRLSign refuses it; no KeyUsage, or one with no bit set, does not', async () => {
    const noCrlSign = await root({ subject: 'CN=KU', keyUsage: KU.keyCertSign });
    const noKu = await root({ subject: 'CN=No KU', keyUsage: null });
    const emptyKu = await root({ subject: 'CN=Empty KU', keyUsage: 0 });
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(noCrlSign)), noCrlSign.cert)).toBe(CANNOT_SIGN);
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(noKu)), noKu.cert)).toBeUndefined();
    expect(emptyKu.cert.facts.keyUsage.present).toBe(true);
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(emptyKu)), emptyKu.cert)).toBeUndefined();
  });

  // checkSignature: crypto.MD5 → InsecureAlgorithmError ("… insecure algorithm MD5-RSA"); MD2
  // is not in signatureAlgorithmDetails → ErrUnsupportedAlgorithm. SHA-1 is allowed for CRLs.
  it('MD5 is insecure, MD2 unimplemented, SHA-1 accepted', async () => {
    const k = await keys('RSA-2048', 'istio-crl');
    const ca = await root({ keys: k, subject: 'CN=RSA CRL CA' });
    const base = await crlDer(ca);
    const md5 = parseCrlDer(await resignCrl(base, k, SIG_OIDS.md5WithRSA, 'md5'));
    const md2 = parseCrlDer(await resignCrl(base, k, '1.2.840.113549.1.1.2', 'sha256'));
    const sha1 = parseCrlDer(await resignCrl(base, k, SIG_OIDS.sha1WithRSA, 'sha1'));
    expect(await crlSignedBy(context(), md5, ca.cert)).toBe('x509: cannot verify signature: insecure algorithm MD5-RSA');
    expect(await crlSignedBy(context(), md2, ca.cert)).toBe('x509: cannot verify signature: algorithm unimplemented');
    expect(await crlSignedBy(context(), sha1, ca.cert)).toBeUndefined();
  });

  // checkSignature: rsa.VerifyPKCS1v15's error is "crypto/rsa: verification error"; ECDSA's
  // failure is "x509: ECDSA verification failure".
  it("signed by another key of the same type: the key type's verification error", async () => {
    const rk = await keys('RSA-2048', 'istio-crl');
    const rsaCa = await root({ keys: rk, subject: 'CN=RSA CRL CA' });
    const rsaOther = await root({ keys: await keys('RSA-2048', 'istio-crl-other'), subject: 'CN=RSA CRL CA' });
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(rsaCa)), rsaOther.cert)).toBe('crypto/rsa: verification error');
    const ecCa = await root({ subject: 'CN=EC CRL CA' });
    const ecOther = await root({ subject: 'CN=EC CRL CA' });
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(ecCa)), ecOther.cert)).toBe('x509: ECDSA verification failure');
  });

  // checkSignature: an ed25519.Verify failure is "x509: Ed25519 verification failure".
  it('an Ed25519 CA: its own CRL verifies, another Ed25519 key fails', async () => {
    const rootCa = await root();
    const ed = await ed25519Keys();
    const edCa = await issue({ subject: 'CN=Ed CA', issuer: rootCa, ca: true, keys: ed });
    const edOther = await issue({ subject: 'CN=Ed CA', issuer: rootCa, ca: true, keys: await ed25519Keys() });
    const crl = parseCrlDer(await crlDer(edCa, ed, { name: 'Ed25519' }));
    expect(await crlSignedBy(context(), crl, edCa.cert)).toBeUndefined();
    expect(await crlSignedBy(context(), crl, edOther.cert)).toBe('x509: Ed25519 verification failure');
  });

  // checkSignature: the algorithm's public key type differs from the parent's →
  // signaturePublicKeyAlgoMismatchError ("… specifies an RSA public key, but have public key of type *ecdsa.PublicKey").
  it("an EC parent for an RSA-signed CRL, and the other way round: Go's key type mismatch error", async () => {
    const rsaCa = await root({ keys: await keys('RSA-2048', 'istio-crl'), subject: 'CN=Mixed' });
    const ecCa = await root({ subject: 'CN=Mixed' });
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(rsaCa)), ecCa.cert)).toBe(
      'x509: signature algorithm specifies an RSA public key, but have public key of type *ecdsa.PublicKey',
    );
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(ecCa)), rsaCa.cert)).toBe(
      'x509: signature algorithm specifies an ECDSA public key, but have public key of type *rsa.PublicKey',
    );
  });

  // CheckSignatureFrom: parent.PublicKeyAlgorithm == UnknownPublicKeyAlgorithm → ErrUnsupportedAlgorithm
  // (an id-RSASSA-PSS SubjectPublicKeyInfo is unknown to getPublicKeyAlgorithmFromOID).
  it('a parent whose public key Go does not know: "algorithm unimplemented"', async () => {
    const k = await keys('RSA-2048', 'istio-crl');
    const ca = await root({ keys: k, subject: 'CN=PSS CA' });
    const { resign } = await import('./pkiBuilder.ts');
    const { AsnConvert } = await import('@peculiar/asn1-schema');
    const der = await resign(ca.der, k, SIG_OIDS.sha256WithRSA, 'sha256', (tbs) => {
      const spki = tbs.subjectPublicKeyInfo;
      spki.algorithm.algorithm = '1.2.840.113549.1.1.10';
      spki.algorithm.parameters = undefined;
      tbs.subjectPublicKeyInfo = AsnConvert.parse(AsnConvert.serialize(spki), spki.constructor as never);
    });
    const pss = context().goParse(der).cert!;
    expect(pss.facts.publicKey.type).toBe('RSA-PSS');
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(ca)), pss)).toBe('x509: cannot verify signature: algorithm unimplemented');
  });

  // getSignatureAlgorithmFromAI: SHA-224 (RSA or ECDSA) and Ed448 are not in
  // signatureAlgorithmDetails → UnknownSignatureAlgorithm → checkSignature's ErrUnsupportedAlgorithm.
  it('a CRL algorithm Go does not know (SHA-224, Ed448): "algorithm unimplemented"', async () => {
    const k = await keys('RSA-2048', 'istio-crl');
    const ca = await root({ keys: k, subject: 'CN=RSA CRL CA' });
    const sha224 = parseCrlDer(await resignCrl(await crlDer(ca), k, '1.2.840.113549.1.1.14', 'sha224'));
    expect(await crlSignedBy(context(), sha224, ca.cert)).toBe(UNIMPLEMENTED);
    const ed448 = parseCrlDer(relabelCrl(await crlDer(ca), new asnX509.AlgorithmIdentifier({ algorithm: '1.3.101.113' })));
    expect(await crlSignedBy(context(), ed448, ca.cert)).toBe(UNIMPLEMENTED);
  });

  /** A CA certificate under an EC root whose public key is `spki` (made by node:crypto). */
  async function caWithKey(spki: Uint8Array) {
    const rootCa = await root();
    return (await withSpki(await intermediate(rootCa, 'CN=Odd CA'), rootCa.keys, spki)).cert;
  }
  const nodeSpki = (type: 'x25519' | 'x448' | 'ed448' | 'dsa' | 'ec', opts: object = {}): Uint8Array => {
    const generate = nodeCrypto.generateKeyPairSync as unknown as (t: string, o: object) => { publicKey: nodeCrypto.KeyObject };
    return new Uint8Array(generate(type, opts).publicKey.export({ type: 'spki', format: 'der' }));
  };

  // CheckSignatureFrom: parent.PublicKeyAlgorithm == UnknownPublicKeyAlgorithm → ErrUnsupportedAlgorithm,
  // before the algorithm is looked at (getPublicKeyAlgorithmFromOID knows RSA, DSA, ECDSA, Ed25519).
  it('a parent key Go does not know (X25519, X448, Ed448, an unknown OID): "algorithm unimplemented", even for MD5', async () => {
    const ecCa = await root({ subject: 'CN=Odd CA' });
    const md5 = parseCrlDer(
      relabelCrl(await crlDer(ecCa), new asnX509.AlgorithmIdentifier({ algorithm: SIG_OIDS.md5WithRSA, parameters: new Uint8Array([5, 0]).buffer })),
    );
    const unknown = asn1.AsnConvert.parse(nodeSpki('x25519'), asnX509.SubjectPublicKeyInfo);
    unknown.algorithm = new asnX509.AlgorithmIdentifier({ algorithm: '1.3.6.1.4.1.99999.9' });
    for (const spki of [nodeSpki('x25519'), nodeSpki('x448'), nodeSpki('ed448'), new Uint8Array(asn1.AsnConvert.serialize(unknown))]) {
      const parent = await caWithKey(spki);
      expect(parent.facts.basicConstraints.ca).toBe(true);
      expect(await crlSignedBy(context(), parseCrlDer(await crlDer(ecCa)), parent)).toBe(UNIMPLEMENTED);
      expect(await crlSignedBy(context(), md5, parent)).toBe(UNIMPLEMENTED);
    }
  });

  // A DSA parent is known (PublicKeyAlgorithm DSA), so the algorithm checks come first (MD5 is
  // insecure); then checkSignature's key switch has no *dsa.PublicKey case → ErrUnsupportedAlgorithm.
  it('a DSA parent: MD5 still insecure, anything else "algorithm unimplemented"', async () => {
    const ecCa = await root({ subject: 'CN=Odd CA' });
    const parent = await caWithKey(nodeSpki('dsa', { modulusLength: 2048, divisorLength: 256 }));
    expect(parent.facts.publicKey.type).toBe('DSA');
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(ecCa)), parent)).toBe(UNIMPLEMENTED);
    const md5 = parseCrlDer(
      relabelCrl(await crlDer(ecCa), new asnX509.AlgorithmIdentifier({ algorithm: SIG_OIDS.md5WithRSA, parameters: new Uint8Array([5, 0]).buffer })),
    );
    expect(await crlSignedBy(context(), md5, parent)).toBe('x509: cannot verify signature: insecure algorithm MD5-RSA');
  });

  // Go verifies ECDSA over P-224; WebCrypto cannot: the answer says it was not checked, with the
  // reason (not a bare status word, and no verdict either way).
  it('a P-224 parent: not checked, with the reason', async () => {
    const ecCa = await root({ subject: 'CN=Odd CA' });
    const parent = await caWithKey(nodeSpki('ec', { namedCurve: 'secp224r1' }));
    const err = await crlSignedBy(context(), parseCrlDer(await crlDer(ecCa)), parent);
    expect(err).toBeDefined();
    expect(err).not.toBe('unverifiable');
    expect(err).toMatch(/P-224/);
  });

  // signaturePublicKeyAlgoMismatchError names the algorithm's PublicKeyAlgorithm (RSA for
  // RSASSA-PSS, ECDSA, Ed25519) and the parent key's Go type.
  it("mismatches name Go's key algorithm and type: Ed25519 CRL / RSA parent, ECDSA CRL / Ed25519 parent, RSASSA-PSS CRL / ECDSA parent", async () => {
    const rootCa = await root();
    const ed = await ed25519Keys();
    const edCa = await issue({ subject: 'CN=Mixed', issuer: rootCa, ca: true, keys: ed });
    const rsaCa = await root({ keys: await keys('RSA-2048', 'istio-crl'), subject: 'CN=Mixed' });
    const ecCa = await root({ subject: 'CN=Mixed' });
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(edCa, ed, { name: 'Ed25519' })), rsaCa.cert)).toBe(
      'x509: signature algorithm specifies an Ed25519 public key, but have public key of type *rsa.PublicKey',
    );
    expect(await crlSignedBy(context(), parseCrlDer(await crlDer(ecCa)), edCa.cert)).toBe(
      'x509: signature algorithm specifies an ECDSA public key, but have public key of type ed25519.PublicKey',
    );
    // SHA256WithRSAPSS as Go recognises it: SHA-256, MGF1 with SHA-256, salt 32, trailer 1.
    const sha256 = new asnX509.AlgorithmIdentifier({ algorithm: '2.16.840.1.101.3.4.2.1', parameters: null });
    const pss = new asnRsa.RsaSaPssParams({
      hashAlgorithm: sha256,
      maskGenAlgorithm: new asnX509.AlgorithmIdentifier({ algorithm: '1.2.840.113549.1.1.8', parameters: asn1.AsnConvert.serialize(sha256) }),
      saltLength: 32,
    });
    const pssCrl = parseCrlDer(
      relabelCrl(await crlDer(rsaCa), new asnX509.AlgorithmIdentifier({ algorithm: '1.2.840.113549.1.1.10', parameters: asn1.AsnConvert.serialize(pss) })),
    );
    expect(await crlSignedBy(context(), pssCrl, ecCa.cert)).toBe(
      'x509: signature algorithm specifies an RSA public key, but have public key of type *ecdsa.PublicKey',
    );
  });
});

describe('fixtures sanity', () => {
  it('issue() without an issuer is self-signed', async () => {
    const c = await issue({ subject: 'CN=X', ca: true });
    expect(c.cert.facts.selfIssued).toBe(true);
  });
});
