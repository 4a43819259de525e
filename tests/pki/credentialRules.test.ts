// istiod's credential rules and Go's tls.X509KeyPair PEM reading, from their sources:
// - pilot/pkg/credentials/kube/secrets.go: ExtractCertInfo, ExtractRoot, truncatedKeysMessage
//   ("if len(keys) < 3 { return strings.Join(keys, ", ") }", else the first three and
//   "and N more...");
// - pilot/pkg/xds/sds.go ValidateCertificate: the first PEM block's certificates, each refused
//   when `now.After(cert.NotAfter) || now.Before(cert.NotBefore)`;
// - crypto/tls/tls.go X509KeyPair (Go 1.26): CERTIFICATE blocks make the chain, the first block
//   typed "PRIVATE KEY" or "... PRIVATE KEY" the key, and its errors when either is missing.
import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { extractCertInfo, extractRoot, validateCertificateChain, validateGatewayCredential } from '../../src/core/pki/credential.ts';
import { x509KeyPairCertBlocks, x509KeyPairKeyBlock } from '../../src/core/pki/keyPairPem.ts';
import { checkKeyPair } from '../../src/core/pki/istio.ts';
import { encodePem } from '../../src/core/pki/pem.ts';
import { x509KeyPairError } from '../../src/core/config/gatewayApi/objects.ts';
import { DAY, issue, NOW, resign, SIG_OIDS, keys } from './pkiBuilder.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const data = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([k, v]) => [k, bytes(v)]));
const block = (type: string, body = 'AAAA') => `-----BEGIN ${type}-----\n${body}\n-----END ${type}-----\n`;

describe("istiod's credential keys (secrets.go)", () => {
  it('lists the keys it found: all of fewer than three, else the first three and how many more', () => {
    const err = (entries: Record<string, string>) => {
      const r = extractCertInfo(data(entries));
      return r.ok ? undefined : r.error;
    };
    const prefix = "found secret, but didn't have expected keys (cert and key) or (tls.crt and tls.key); found: ";
    expect(err({ b: 'x', a: 'y' })).toBe(`${prefix}a, b`);
    expect(err({ c: 'x', a: 'y', b: 'z' })).toBe(`${prefix}a, b, c, and 0 more...`);
    expect(err({ d: '1', c: 'x', a: 'y', b: 'z' })).toBe(`${prefix}a, b, c, and 1 more...`);
  });

  it('names an empty CA key, cacert before ca.crt', () => {
    const err = (entries: Record<string, string>) => {
      const r = extractRoot(data(entries));
      return r.ok ? undefined : r.error;
    };
    expect(err({ cacert: '' })).toBe('found key "cacert", but it was empty');
    expect(err({ cacert: '', 'ca.crt': '' })).toBe('found key "cacert", but it was empty');
    expect(err({ 'ca.crt': '' })).toBe('found key "ca.crt", but it was empty');
    expect(err({ other: 'x' })).toBe("found secret, but didn't have expected keys cacert or ca.crt; found: other");
    const ok = extractRoot(data({ cacert: '', 'ca.crt': 'PEM' }));
    expect(ok.ok && ok.value.keys.cert).toBe('ca.crt');
  });

  it('reads the same rules over text values (the Gateway API controller model)', () => {
    const r = extractRoot(new Map([['cacert', '']]));
    expect(r).toEqual({ ok: false, error: 'found key "cacert", but it was empty' });
  });
});

describe("istiod's ValidateCertificate (sds.go)", () => {
  it('takes a certificate at both ends of its validity and refuses it a millisecond outside', async () => {
    const root = await issue({ subject: 'CN=Root', ca: true });
    const notBefore = new Date(NOW.getTime() - DAY);
    const notAfter = new Date(NOW.getTime() + DAY);
    const leaf = await issue({ subject: 'CN=leaf', issuer: root, notBefore, notAfter });
    const pem = bytes(encodePem('CERTIFICATE', leaf.der));
    expect(validateCertificateChain(pem, notBefore).ok).toBe(true);
    expect(validateCertificateChain(pem, notAfter).ok).toBe(true);
    for (const at of [new Date(notBefore.getTime() - 1), new Date(notAfter.getTime() + 1)])
      expect(validateCertificateChain(pem, at)).toEqual({ ok: false, error: 'certificate is expired or not yet valid' });
  });

  it('refuses a certificate Go will not parse (a negative serial), with x509 in front', async () => {
    const k = await keys('RSA-2048', 'credential-rules');
    const base = await issue({ subject: 'CN=neg', ca: true, keys: k });
    const der = await resign(base.der, k, SIG_OIDS.sha256WithRSA, 'sha256', (tbs) => {
      tbs.serialNumber = new Uint8Array([0x80, 0x01]).buffer;
    });
    const r = validateCertificateChain(bytes(encodePem('CERTIFICATE', der)), NOW);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^x509: negative serial/);
  });

  it('checks the Secret keys before the certificate (isValidSecret)', () => {
    expect(validateGatewayCredential(data({}), NOW)).toEqual({
      ok: false,
      error: "found secret, but didn't have expected keys (cert and key) or (tls.crt and tls.key); found: ",
    });
  });
});

describe("Go's tls.X509KeyPair PEM reading", () => {
  const certErr = (pem: string) => {
    const r = x509KeyPairCertBlocks(pem);
    return r.ok ? r.value.map((b) => b.type) : r.error;
  };
  const keyErr = (pem: string) => {
    const r = x509KeyPairKeyBlock(pem);
    return r.ok ? r.value.type : r.error;
  };

  it('takes the CERTIFICATE blocks of the certificate input and skips the rest', () => {
    expect(certErr(block('FOO') + block('CERTIFICATE') + block('CERTIFICATE'))).toEqual(['CERTIFICATE', 'CERTIFICATE']);
  });

  it("gives Go's three errors for a certificate input without one", () => {
    expect(certErr('')).toBe('tls: failed to find any PEM data in certificate input');
    expect(certErr('no pem at all')).toBe('tls: failed to find any PEM data in certificate input');
    expect(certErr(block('PRIVATE KEY'))).toBe(
      'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
    );
    expect(certErr(block('EC PRIVATE KEY'))).toBe(
      'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
    );
    expect(certErr(block('PRIVATE KEY') + block('FOO'))).toBe(
      'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [PRIVATE KEY FOO]',
    );
    expect(certErr(block('X509 CERTIFICATE'))).toBe(
      'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [X509 CERTIFICATE]',
    );
  });

  it('takes the first block typed PRIVATE KEY or ending in " PRIVATE KEY" as the key', () => {
    expect(keyErr(block('FOO') + block('EC PRIVATE KEY') + block('PRIVATE KEY'))).toBe('EC PRIVATE KEY');
    expect(keyErr(block('PRIVATE KEY'))).toBe('PRIVATE KEY');
    expect(keyErr(block('XPRIVATE KEY'))).toBe(
      'tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [XPRIVATE KEY]',
    );
  });

  it("gives Go's three errors for a key input without one", () => {
    expect(keyErr('')).toBe('tls: failed to find any PEM data in key input');
    expect(keyErr(block('CERTIFICATE'))).toBe('tls: found a certificate rather than a key in the PEM for the private key');
    expect(keyErr(block('CERTIFICATE') + block('PUBLIC KEY'))).toBe(
      'tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [CERTIFICATE PUBLIC KEY]',
    );
  });

  it('is the reading the Gateway API controller model reports', () => {
    expect(x509KeyPairError(block('PRIVATE KEY'), block('PRIVATE KEY'))).toBe(
      'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
    );
    expect(x509KeyPairError(block('CERTIFICATE'), block('CERTIFICATE'))).toBe('tls: found a certificate rather than a key in the PEM for the private key');
    expect(x509KeyPairError(block('CERTIFICATE'), block('RSA PRIVATE KEY'))).toBeUndefined();
  });

  it('gives the leaf of a pair that matches', async () => {
    const k = await keys('P-256');
    const leaf = await issue({ subject: 'CN=pair.example.com', keys: k });
    const pkcs8 = new Uint8Array(await globalThis.crypto.subtle.exportKey('pkcs8', k.privateKey));
    const r = await checkKeyPair(encodePem('CERTIFICATE', leaf.der), encodePem('PRIVATE KEY', pkcs8));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.leaf.facts.subject).toBe('CN=pair.example.com');
  });
});
