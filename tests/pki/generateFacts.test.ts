// Facts of the certificates, keys, CSRs and Secrets that src/core/pki/generate.ts makes,
// read back with parsers independent of our own code: node:crypto (OpenSSL) for keys,
// signatures and issuance, @peculiar/x509 and @peculiar/asn1-x509 for extensions, and
// the `yaml` package for the Secrets. Expected values come from Istio (its CA,
// security/pkg/pki/util/generate_cert.go and san.go; its tools/certs/common.mk, which the
// generated hierarchy follows), Go's crypto/x509 (which Istio's CA signs with), RFC 5280,
// RFC 5480/RFC 5758 (algorithms) and RFC 7468 (PEM labels), never from our own output.
import 'reflect-metadata';
import * as nodeCrypto from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as asn1 from '@peculiar/asn1-schema';
import * as asnX509 from '@peculiar/asn1-x509';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { cacertsSecretYaml, generateGatewayCredential, generatePki, type GeneratedPki, type GenerateOptions } from '../../src/core/pki/generate.ts';

const DAY = 86400000;
const NOW = new Date('2026-06-01T12:00:00Z');

// OIDs: RFC 5280 (EKUs), RFC 5758 (ECDSA signatures), RFC 4055 (RSA signatures).
const OID = {
  ecdsaSha256: '1.2.840.10045.4.3.2',
  ecdsaSha384: '1.2.840.10045.4.3.3',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;
const KU = x509.KeyUsageFlags;

/** The PEM blocks of a text, in order (RFC 7468). */
function pemBlocks(text: string): { label: string; der: Uint8Array<ArrayBuffer> }[] {
  return [...text.matchAll(/-----BEGIN ([A-Z ]+)-----\r?\n([\s\S]*?)-----END \1-----/g)].map((m) => ({
    label: m[1]!,
    der: new Uint8Array(Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64')),
  }));
}

/** One certificate, read three ways: node:crypto, @peculiar/x509 and its ASN.1 structure. */
interface Cert {
  node: nodeCrypto.X509Certificate;
  px: x509.X509Certificate;
  asn: asnX509.Certificate;
}

function certs(text: string): Cert[] {
  return pemBlocks(text).map((b) => {
    expect(b.label).toBe('CERTIFICATE');
    return {
      node: new nodeCrypto.X509Certificate(Buffer.from(b.der)),
      px: new x509.X509Certificate(b.der),
      asn: asn1.AsnConvert.parse(b.der, asnX509.Certificate),
    };
  });
}

function cert(text: string): Cert {
  const all = certs(text);
  expect(all).toHaveLength(1);
  return all[0]!;
}

function basicConstraints(c: Cert): { ca: boolean; pathLen: number | undefined; critical: boolean } {
  const e = c.px.getExtension(x509.BasicConstraintsExtension);
  expect(e).not.toBeNull();
  return { ca: e!.ca, pathLen: e!.pathLength, critical: e!.critical };
}

function keyUsage(c: Cert): { usages: number; critical: boolean } {
  const e = c.px.getExtension(x509.KeyUsagesExtension);
  expect(e).not.toBeNull();
  return { usages: e!.usages, critical: e!.critical };
}

function sans(c: Cert): { names: { type: string; value: string }[]; critical: boolean } {
  const e = c.px.getExtension(x509.SubjectAlternativeNameExtension);
  expect(e).not.toBeNull();
  return { names: e!.names.items.map((n) => ({ type: n.type, value: n.value })), critical: e!.critical };
}

/** The DER of the certificate's public key, to compare with a key file's. */
function spkiOf(c: Cert): Buffer {
  return c.node.publicKey.export({ type: 'spki', format: 'der' });
}

/** The public key (SPKI DER) that belongs to a PKCS#8 private key file, as OpenSSL derives it. */
function publicOfPrivatePem(pem: string): Buffer {
  const blocks = pemBlocks(pem);
  expect(blocks.map((b) => b.label)).toEqual(['PRIVATE KEY']); // RFC 7468 section 10: PKCS #8
  return nodeCrypto.createPublicKey(nodeCrypto.createPrivateKey(pem)).export({ type: 'spki', format: 'der' });
}

/** A CSR's SAN extension (its getExtension takes only an OID: RFC 5280 4.2.1.6, 2.5.29.17). */
function csrSan(csr: x509.Pkcs10CertificateRequest): x509.SubjectAlternativeNameExtension {
  const e = csr.getExtension('2.5.29.17');
  expect(e).toBeInstanceOf(x509.SubjectAlternativeNameExtension);
  return e as x509.SubjectAlternativeNameExtension;
}

/** Issued by: the issuer's name and key identifier match (node:crypto's checkIssued) and the signature verifies. */
function issuedBy(child: Cert, issuer: Cert): boolean {
  return child.node.checkIssued(issuer.node) && child.node.verify(issuer.node.publicKey);
}

function validAt(c: Cert, at: Date): boolean {
  return c.px.notBefore.getTime() <= at.getTime() && at.getTime() <= c.px.notAfter.getTime();
}

function file(pki: GeneratedPki, path: string): { text: string; secret: boolean } {
  const f = pki.files.find((x) => x.path === path);
  expect(f, path).toBeDefined();
  return f!;
}

function subjectRdns(c: Cert): Record<string, string> {
  // O 2.5.4.10, CN 2.5.4.3, L 2.5.4.7 (RFC 5280 appendix A).
  const short: Record<string, string> = { '2.5.4.10': 'O', '2.5.4.3': 'CN', '2.5.4.7': 'L' };
  const out: Record<string, string> = {};
  for (const rdn of c.asn.tbsCertificate.subject) for (const atv of rdn) out[short[atv.type] ?? atv.type] = atv.value.toString();
  return out;
}

async function pki(options: GenerateOptions): Promise<GeneratedPki> {
  return generatePki({ now: NOW, ...options });
}

// Istio's tools/certs/common.mk: root `O=Istio, CN=Root CA`, 3650 days, `basicConstraints =
// critical, CA:true`; RFC 5280 4.2.1.9 (basicConstraints MUST be critical in a CA
// certificate) and 4.2.1.3 (keyUsage SHOULD be critical; keyCertSign for a CA).
describe('the root CA', () => {
  it('is a self-signed CA for 3650 days by default, with critical basicConstraints and keyUsage keyCertSign', async () => {
    const p = await pki({ workloads: [] });
    const root = cert(file(p, 'root-cert.pem').text);
    expect(subjectRdns(root)).toEqual({ O: 'Istio', CN: 'Root CA' });
    expect(issuedBy(root, root)).toBe(true);
    expect(basicConstraints(root)).toEqual({ ca: true, pathLen: undefined, critical: true });
    const ku = keyUsage(root);
    expect(ku.critical).toBe(true);
    expect(ku.usages & KU.keyCertSign).toBe(KU.keyCertSign);
    expect(root.px.notAfter.getTime() - NOW.getTime()).toBe(3650 * DAY);
    expect(validAt(root, NOW)).toBe(true);
    // Its key file is the root's private key.
    expect(publicOfPrivatePem(file(p, 'root-key.pem').text).equals(spkiOf(root))).toBe(true);
  });

  it('takes its lifetime from validityDays.root', async () => {
    const p = await pki({ workloads: [], validityDays: { root: 10, intermediate: 5 } });
    const root = cert(file(p, 'root-cert.pem').text);
    expect(root.px.notAfter.getTime() - NOW.getTime()).toBe(10 * DAY);
    const inter = cert(file(p, 'cluster1/ca-cert.pem').text);
    expect(inter.px.notAfter.getTime() - NOW.getTime()).toBe(5 * DAY);
  });
});

// Istio's tools/certs/common.mk (intermediate.conf): `O=Istio, CN=Intermediate CA, L=<cluster>`,
// `basicConstraints = critical, CA:true, pathlen:0`, keyUsage critical with keyCertSign and
// digitalSignature, `subjectAltName = DNS:istiod.istio-system.svc`; RFC 5280 4.2.1.1 (AKI is
// the issuer's SKI), 4.2.1.9 and 4.2.1.3.
describe('the intermediate CA of each cluster', () => {
  it('is signed by the root, CA:TRUE pathlen 0 (critical), keyCertSign + digitalSignature (critical), SAN istiod.istio-system.svc', async () => {
    const p = await pki({ clusters: ['east', 'west'], workloads: [] });
    const root = cert(file(p, 'root-cert.pem').text);
    for (const cl of ['east', 'west']) {
      const inter = cert(file(p, `${cl}/ca-cert.pem`).text);
      expect(subjectRdns(inter)).toEqual({ O: 'Istio', CN: 'Intermediate CA', L: cl });
      expect(issuedBy(inter, root)).toBe(true);
      expect(validAt(inter, NOW)).toBe(true);
      expect(inter.px.notAfter.getTime() - NOW.getTime()).toBe(730 * DAY); // the documented default
      expect(basicConstraints(inter)).toEqual({ ca: true, pathLen: 0, critical: true });
      const ku = keyUsage(inter);
      expect(ku.critical).toBe(true);
      expect(ku.usages & (KU.keyCertSign | KU.digitalSignature)).toBe(KU.keyCertSign | KU.digitalSignature);
      expect(sans(inter).names).toEqual([{ type: 'dns', value: 'istiod.istio-system.svc' }]);
      const aki = inter.px.getExtension(x509.AuthorityKeyIdentifierExtension)!;
      expect(aki.keyId).toBe(root.px.getExtension(x509.SubjectKeyIdentifierExtension)!.keyId);
      // ca-key.pem is its key; cert-chain.pem is it then the root; root-cert.pem is the root.
      expect(publicOfPrivatePem(file(p, `${cl}/ca-key.pem`).text).equals(spkiOf(inter))).toBe(true);
      const chain = certs(file(p, `${cl}/cert-chain.pem`).text);
      expect(chain.map((c) => c.node.fingerprint256)).toEqual([inter.node.fingerprint256, root.node.fingerprint256]);
      expect(cert(file(p, `${cl}/root-cert.pem`).text).node.fingerprint256).toBe(root.node.fingerprint256);
    }
  });
});

// Istio's plug-in CA docs: `kubectl create secret generic cacerts -n istio-system
// --from-file=ca-cert.pem --from-file=ca-key.pem --from-file=root-cert.pem
// --from-file=cert-chain.pem`; kubectl's generic Secret is `type: Opaque`, each file a
// base64 data entry named after the file (Kubernetes Secret API, apiVersion v1).
describe('the cacerts Secret', () => {
  it('is a v1 Opaque Secret cacerts in istio-system whose data are the four files of its cluster', async () => {
    const p = await pki({ clusters: ['east'], workloads: [] });
    const doc = parseYaml(file(p, 'east/cacerts.yaml').text) as {
      apiVersion: string;
      kind: string;
      metadata: { name: string; namespace: string };
      type: string;
      data: Record<string, string>;
    };
    expect(doc.apiVersion).toBe('v1');
    expect(doc.kind).toBe('Secret');
    expect(doc.metadata).toEqual({ name: 'cacerts', namespace: 'istio-system' });
    expect(doc.type).toBe('Opaque');
    expect(Object.keys(doc.data).sort()).toEqual(['ca-cert.pem', 'ca-key.pem', 'cert-chain.pem', 'root-cert.pem']);
    for (const [k, v] of Object.entries(doc.data)) expect(Buffer.from(v, 'base64').toString('utf8'), k).toBe(file(p, `east/${k}`).text);
  });

  it('cacertsSecretYaml puts each given file under its own key', () => {
    const doc = parseYaml(cacertsSecretYaml({ caCert: 'A', caKey: 'B', certChain: 'C', rootCert: 'D' })) as { data: Record<string, string> };
    const decoded = Object.fromEntries(Object.entries(doc.data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
    expect(decoded).toEqual({ 'ca-cert.pem': 'A', 'ca-key.pem': 'B', 'cert-chain.pem': 'C', 'root-cert.pem': 'D' });
  });
});

// A file is marked secret exactly when it holds a private key (a PEM PRIVATE KEY block, or a
// Secret whose data holds one): that is what the UI masks.
describe('secret files', () => {
  it('are exactly the files that hold a private key', async () => {
    const p = await pki({ clusters: ['east', 'west'], workloads: ['shop/cart'] });
    const holdsKey = (text: string): boolean => {
      if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) return true;
      if (!text.startsWith('apiVersion:')) return false;
      const data = (parseYaml(text) as { data: Record<string, string> }).data;
      return Object.values(data).some((v) => holdsKey(Buffer.from(v, 'base64').toString('utf8')));
    };
    expect(p.files.length).toBeGreaterThan(10);
    for (const f of p.files) expect(f.secret, f.path).toBe(holdsKey(f.text));
  });
});

// Istio's CA (generate_cert.go, genCertTemplateFromCSR): NotBefore = now - ClockSkewGracePeriod
// (2 minutes), NotAfter = now + TTL (DEFAULT_WORKLOAD_CERT_TTL 24h), KeyUsage digitalSignature |
// keyEncipherment, ExtKeyUsage serverAuth + clientAuth, IsCA false with BasicConstraintsValid,
// an empty subject when the CSR has no CN, and the SAN `spiffe://<td>/ns/<ns>/sa/<sa>` built by
// san.go's BuildSANExtension, critical because the subject is empty. Go's crypto/x509 marks
// keyUsage and basicConstraints critical and sets the AKI to the parent's SKI.
describe('a workload certificate', () => {
  it('is what Istio CA issues for spiffe://<td>/ns/<ns>/sa/<sa>, chained to the first cluster intermediate', async () => {
    const p = await pki({ trustDomain: 'example.org', clusters: ['east', 'west'], workloads: ['shop/cart'] });
    const dir = 'east/workloads/shop-cart';
    const chain = certs(file(p, `${dir}/cert-chain.pem`).text);
    expect(chain).toHaveLength(3);
    const [leaf, inter, root] = chain as [Cert, Cert, Cert];
    expect(inter.node.fingerprint256).toBe(cert(file(p, 'east/ca-cert.pem').text).node.fingerprint256);
    expect(root.node.fingerprint256).toBe(cert(file(p, 'root-cert.pem').text).node.fingerprint256);
    expect(cert(file(p, `${dir}/root-cert.pem`).text).node.fingerprint256).toBe(root.node.fingerprint256);
    expect(issuedBy(leaf, inter)).toBe(true);
    expect(issuedBy(inter, root)).toBe(true);
    expect(leaf.asn.tbsCertificate.subject).toHaveLength(0);
    expect(sans(leaf)).toEqual({ names: [{ type: 'url', value: 'spiffe://example.org/ns/shop/sa/cart' }], critical: true });
    expect(keyUsage(leaf)).toEqual({ usages: KU.digitalSignature | KU.keyEncipherment, critical: true });
    const eku = leaf.px.getExtension(x509.ExtendedKeyUsageExtension)!;
    expect([...eku.usages].sort()).toEqual([OID.serverAuth, OID.clientAuth].sort());
    expect(eku.critical).toBe(false);
    expect(basicConstraints(leaf)).toEqual({ ca: false, pathLen: undefined, critical: true });
    expect(leaf.px.getExtension(x509.AuthorityKeyIdentifierExtension)!.keyId).toBe(inter.px.getExtension(x509.SubjectKeyIdentifierExtension)!.keyId);
    expect(leaf.px.notBefore.getTime()).toBe(NOW.getTime() - 2 * 60000);
    expect(leaf.px.notAfter.getTime()).toBe(NOW.getTime() + 24 * 3600000);
    // key.pem is the leaf's key.
    expect(publicOfPrivatePem(file(p, `${dir}/key.pem`).text).equals(spkiOf(leaf))).toBe(true);
  });

  it('are issued by the first cluster only, one per workload, `name` alone meaning namespace default', async () => {
    const p = await pki({ clusters: ['east', 'west'], workloads: ['shop/cart', 'sleep'] });
    const leafFiles = p.files.filter((f) => f.path.includes('/workloads/'));
    expect(leafFiles.every((f) => f.path.startsWith('east/workloads/'))).toBe(true);
    expect(new Set(leafFiles.map((f) => f.path.split('/')[2]))).toEqual(new Set(['shop-cart', 'default-sleep']));
    const sleep = certs(file(p, 'east/workloads/default-sleep/cert-chain.pem').text)[0]!;
    expect(sans(sleep).names).toEqual([{ type: 'url', value: 'spiffe://cluster.local/ns/default/sa/sleep' }]);
    expect(p.csrs.map((c) => c.identity)).toEqual(['spiffe://cluster.local/ns/shop/sa/cart', 'spiffe://cluster.local/ns/default/sa/sleep']);
  });

  it('by default: one cluster cluster1, workload default/sleep, trust domain cluster.local, nothing broken', async () => {
    const p = await generatePki();
    expect(p.broken).toBe('');
    expect(p.files.map((f) => f.path).sort()).toEqual(
      [
        'root-cert.pem',
        'root-key.pem',
        'cluster1/ca-cert.pem',
        'cluster1/ca-key.pem',
        'cluster1/cert-chain.pem',
        'cluster1/root-cert.pem',
        'cluster1/cacerts.yaml',
        'cluster1/workloads/default-sleep/cert-chain.pem',
        'cluster1/workloads/default-sleep/key.pem',
        'cluster1/workloads/default-sleep/root-cert.pem',
        'cluster1/workloads/default-sleep/csr.pem',
      ].sort(),
    );
    expect(subjectRdns(cert(file(p, 'cluster1/ca-cert.pem').text)).L).toBe('cluster1');
    expect(p.csrs).toHaveLength(1);
    expect(p.csrs[0]!.identity).toBe('spiffe://cluster.local/ns/default/sa/sleep');
    const leaf = certs(file(p, 'cluster1/workloads/default-sleep/cert-chain.pem').text)[0]!;
    // Issued now: valid at the current time, for Istio's 24 h.
    expect(validAt(leaf, new Date())).toBe(true);
    expect(leaf.px.notAfter.getTime() - leaf.px.notBefore.getTime()).toBe(24 * 3600000 + 2 * 60000);
  });

  it('with no workloads there is no CSR and no workload file', async () => {
    const p = await pki({ workloads: [] });
    expect(p.csrs).toEqual([]);
    expect(p.files.some((f) => f.path.includes('/workloads/'))).toBe(false);
  });
});

// The workload side of Istio's CA flow (the agent's GenCSR / GenCSRTemplate: no subject, the
// identity as a URI SAN built by BuildSubjectAltNameExtension, critical). A CSR is PEM
// `CERTIFICATE REQUEST` (RFC 7468 section 7) and is signed with the workload's key (RFC 2986).
describe('the CSRs', () => {
  it('carry the requested identity as a critical URI SAN, an empty subject, the workload key, and a valid signature', async () => {
    const p = await pki({ trustDomain: 'example.org', clusters: ['east'], workloads: ['shop/cart'] });
    expect(p.csrs).toHaveLength(1);
    const g = p.csrs[0]!;
    expect(g.csrPem).toBe(file(p, 'east/workloads/shop-cart/csr.pem').text);
    const blocks = pemBlocks(g.csrPem);
    expect(blocks.map((b) => b.label)).toEqual(['CERTIFICATE REQUEST']);
    const csr = new x509.Pkcs10CertificateRequest(blocks[0]!.der);
    expect(await csr.verify()).toBe(true);
    expect(csr.subjectName.toJSON()).toEqual([]);
    const san = csrSan(csr);
    expect(san.critical).toBe(true);
    expect(san.names.items.map((n) => [n.type, n.value])).toEqual([['url', 'spiffe://example.org/ns/shop/sa/cart']]);
    // The CA takes the key from the CSR: the leaf certifies the CSR's key.
    const leaf = certs(file(p, 'east/workloads/shop-cart/cert-chain.pem').text)[0]!;
    expect(Buffer.from(csr.publicKey.rawData).equals(spkiOf(leaf))).toBe(true);
    expect(g.identity).toBe('spiffe://example.org/ns/shop/sa/cart');
  });

  it('list what the CA set itself (validity, usages, SAN), and no identity change when nothing is broken', async () => {
    const p = await pki({ clusters: ['east'], workloads: ['shop/cart'] });
    const changes = p.csrs[0]!.changes;
    // Facts named in the changes: Istio's ClockSkewGracePeriod and 24 h TTL, the usages its CA sets, the SAN.
    expect(changes.some((c) => /ClockSkewGracePeriod/.test(c) && /24h/.test(c))).toBe(true);
    expect(changes.some((c) => ['digitalSignature', 'keyEncipherment', 'serverAuth', 'clientAuth'].every((u) => c.includes(u)))).toBe(true);
    expect(changes.some((c) => /\bSAN\b/.test(c))).toBe(true);
    expect(changes.every((c) => c.length > 0)).toBe(true);
    expect(changes.some((c) => c.includes('spiffe://'))).toBe(false);
  });
});

// Deliberate breakages: what each one changes in the certificates, checked on the certificates
// themselves, and only on the first cluster.
describe('breakage', () => {
  it('expired: the first intermediate has expired (notBefore < notAfter < now), the second is valid', async () => {
    const p = await pki({ clusters: ['east', 'west'], workloads: [], breakage: 'expired' });
    const east = cert(file(p, 'east/ca-cert.pem').text);
    const west = cert(file(p, 'west/ca-cert.pem').text);
    // RFC 5280 4.1.2.5: the validity is the interval notBefore..notAfter.
    expect(east.px.notBefore.getTime()).toBeLessThan(east.px.notAfter.getTime());
    expect(east.px.notAfter.getTime()).toBeLessThan(NOW.getTime());
    expect(NOW.getTime() - east.px.notAfter.getTime()).toBe(35 * DAY); // as `broken` says
    expect(issuedBy(east, cert(file(p, 'root-cert.pem').text))).toBe(true);
    expect(validAt(west, NOW)).toBe(true);
    expect(p.broken).toContain('east');
    expect(p.broken).not.toContain('west');
  });

  it('wrong-key: the first cluster ca-key.pem belongs to no certificate, the second cluster key matches', async () => {
    const p = await pki({ clusters: ['east', 'west'], workloads: [], breakage: 'wrong-key' });
    const eastKey = publicOfPrivatePem(file(p, 'east/ca-key.pem').text);
    const all = p.files.filter((f) => f.path.endsWith('.pem') && f.text.includes('BEGIN CERTIFICATE')).flatMap((f) => certs(f.text));
    expect(all.some((c) => spkiOf(c).equals(eastKey))).toBe(false);
    expect(publicOfPrivatePem(file(p, 'west/ca-key.pem').text).equals(spkiOf(cert(file(p, 'west/ca-cert.pem').text)))).toBe(true);
    // The Secret carries the same (wrong) key file.
    const data = (parseYaml(file(p, 'east/cacerts.yaml').text) as { data: Record<string, string> }).data;
    expect(Buffer.from(data['ca-key.pem']!, 'base64').toString('utf8')).toBe(file(p, 'east/ca-key.pem').text);
    expect(p.broken).toContain('east');
    expect(p.broken).not.toContain('west');
  });

  it('wrong-trust-domain: the CA issues not-<td> while the CSR asked for <td>, and says so', async () => {
    const p = await pki({ trustDomain: 'example.org', clusters: ['east'], workloads: ['shop/cart'], breakage: 'wrong-trust-domain' });
    const leaf = certs(file(p, 'east/workloads/shop-cart/cert-chain.pem').text)[0]!;
    expect(sans(leaf).names).toEqual([{ type: 'url', value: 'spiffe://not-example.org/ns/shop/sa/cart' }]);
    const g = p.csrs[0]!;
    expect(g.identity).toBe('spiffe://not-example.org/ns/shop/sa/cart');
    const csr = new x509.Pkcs10CertificateRequest(pemBlocks(g.csrPem)[0]!.der);
    expect(csrSan(csr).names.items.map((n) => n.value)).toEqual(['spiffe://example.org/ns/shop/sa/cart']);
    expect(g.changes.some((c) => c.includes('spiffe://not-example.org/ns/shop/sa/cart') && c.includes('spiffe://example.org/ns/shop/sa/cart'))).toBe(true);
    expect(p.broken).toContain('not-example.org');
  });

  it('none: nothing is reported broken and every cluster key matches its certificate', async () => {
    const p = await pki({ clusters: ['east', 'west'], workloads: [], breakage: 'none' });
    expect(p.broken).toBe('');
    for (const cl of ['east', 'west'])
      expect(publicOfPrivatePem(file(p, `${cl}/ca-key.pem`).text).equals(spkiOf(cert(file(p, `${cl}/ca-cert.pem`).text)))).toBe(true);
  });
});

/** Key type and size as OpenSSL reports them (node:crypto's asymmetricKeyDetails). */
function keyDetails(c: Cert): { type: string | undefined; curve?: string; bits?: number; exponent?: bigint } {
  const k = c.node.publicKey;
  const d = k.asymmetricKeyDetails ?? {};
  return {
    type: k.asymmetricKeyType,
    ...(d.namedCurve ? { curve: d.namedCurve } : {}),
    ...(d.modulusLength ? { bits: d.modulusLength, exponent: d.publicExponent } : {}),
  };
}

// Key algorithms: P-256 with ecdsa-with-SHA256, P-384 with ecdsa-with-SHA384 (RFC 5480
// section 4: SHA-384 for P-384), RSA with sha256WithRSAEncryption (what Istio's tools/certs use:
// `default_md = sha256`) and exponent 65537. Every certificate, key file and CSR of the PKI uses
// the chosen algorithm.
describe('key algorithms', () => {
  async function allOf(p: GeneratedPki): Promise<{ certs: Cert[]; keys: nodeCrypto.KeyObject[]; csrs: x509.Pkcs10CertificateRequest[] }> {
    const seen = new Set<string>();
    const cs: Cert[] = [];
    for (const f of p.files) {
      if (!f.text.includes('BEGIN CERTIFICATE-----')) continue;
      for (const c of certs(f.text)) if (!seen.has(c.node.fingerprint256)) seen.add(c.node.fingerprint256), cs.push(c);
    }
    const keys = p.files.filter((f) => f.path.endsWith('key.pem')).map((f) => nodeCrypto.createPrivateKey(f.text));
    const csrs = p.csrs.map((g) => new x509.Pkcs10CertificateRequest(pemBlocks(g.csrPem)[0]!.der));
    return { certs: cs, keys, csrs };
  }

  it('ECDSA P-256 with SHA-256 by default', async () => {
    const a = await allOf(await pki({ workloads: ['shop/cart'] }));
    expect(a.certs).toHaveLength(3);
    for (const c of a.certs) {
      expect(keyDetails(c)).toEqual({ type: 'ec', curve: 'prime256v1' });
      expect(c.asn.signatureAlgorithm.algorithm).toBe(OID.ecdsaSha256);
    }
    for (const k of a.keys) expect(k.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    for (const r of a.csrs) expect(r.signatureAlgorithm).toMatchObject({ name: 'ECDSA', hash: { name: 'SHA-256' } });
  });

  it('ECDSA P-384 with SHA-384', async () => {
    const p = await pki({ keyAlgorithm: 'ECDSA-P384', workloads: ['shop/cart'] });
    const a = await allOf(p);
    expect(a.certs).toHaveLength(3);
    for (const c of a.certs) {
      expect(keyDetails(c)).toEqual({ type: 'ec', curve: 'secp384r1' });
      expect(c.asn.signatureAlgorithm.algorithm).toBe(OID.ecdsaSha384);
    }
    expect(a.keys).toHaveLength(3);
    for (const k of a.keys) expect(k.asymmetricKeyDetails?.namedCurve).toBe('secp384r1');
    for (const r of a.csrs) {
      expect(r.signatureAlgorithm).toMatchObject({ name: 'ECDSA', hash: { name: 'SHA-384' } });
      expect(await r.verify()).toBe(true);
    }
    const [leaf, inter, root] = certs(file(p, 'cluster1/workloads/shop-cart/cert-chain.pem').text) as [Cert, Cert, Cert];
    expect(issuedBy(leaf, inter) && issuedBy(inter, root) && issuedBy(root, root)).toBe(true);
  });

  it('RSA 2048 with SHA-256', async () => {
    const p = await pki({ keyAlgorithm: 'RSA-2048', workloads: ['shop/cart'] });
    const a = await allOf(p);
    expect(a.certs).toHaveLength(3);
    for (const c of a.certs) {
      expect(keyDetails(c)).toEqual({ type: 'rsa', bits: 2048, exponent: 65537n });
      expect(c.asn.signatureAlgorithm.algorithm).toBe(OID.sha256WithRSA);
    }
    for (const r of a.csrs) expect(await r.verify()).toBe(true);
    const [leaf, inter, root] = certs(file(p, 'cluster1/workloads/shop-cart/cert-chain.pem').text) as [Cert, Cert, Cert];
    expect(issuedBy(leaf, inter) && issuedBy(inter, root)).toBe(true);
  });

  it('RSA 4096 with SHA-256, for a gateway credential too', async () => {
    const c = await generateGatewayCredential({
      name: 'cred',
      namespace: 'istio-system',
      hosts: ['a.example.com'],
      notBefore: NOW,
      notAfter: new Date(NOW.getTime() + DAY),
      keyAlgorithm: 'RSA-4096',
    });
    const [leaf, ca] = certs(c.certPem) as [Cert, Cert];
    for (const x of [leaf, ca]) {
      expect(keyDetails(x)).toEqual({ type: 'rsa', bits: 4096, exponent: 65537n });
      expect(x.asn.signatureAlgorithm.algorithm).toBe(OID.sha256WithRSA);
    }
    expect(nodeCrypto.createPrivateKey(c.keyPem).asymmetricKeyDetails?.modulusLength).toBe(4096);
    expect(issuedBy(leaf, ca)).toBe(true);
  }, 120_000);
});

// A gateway credential: RFC 5280 for the CA (4.2.1.9, 4.2.1.3) and the CA's validity covering
// the server certificate's; Go's crypto/x509 critical keyUsage and basicConstraints; the server
// certificate's CN one of its DNS SANs (CA/Browser Forum Baseline Requirements 7.1.4.3: the
// commonName, if present, MUST be one of the SAN values); a `kubernetes.io/tls` Secret
// (Kubernetes Secret types: tls.crt, tls.key; Istio's credentialName reads ca.crt for mutual TLS).
describe('a gateway credential', () => {
  const opts = {
    name: 'bookinfo-cred',
    namespace: 'istio-ingress',
    hosts: ['bookinfo.example.com', 'www.example.com'],
    notBefore: new Date('2025-01-01T00:00:00Z'),
    notAfter: new Date('2026-01-01T00:00:00Z'),
  };

  it('is a server certificate for its hosts, signed by a CA that is valid whenever it is', async () => {
    const c = await generateGatewayCredential(opts);
    const chain = certs(c.certPem);
    expect(chain).toHaveLength(2);
    const [leaf, ca] = chain as [Cert, Cert];
    expect(cert(c.caPem).node.fingerprint256).toBe(ca.node.fingerprint256);
    expect(issuedBy(leaf, ca)).toBe(true);
    expect(issuedBy(ca, ca)).toBe(true);
    expect(leaf.px.notBefore.getTime()).toBe(opts.notBefore.getTime());
    expect(leaf.px.notAfter.getTime()).toBe(opts.notAfter.getTime());
    expect(ca.px.notBefore.getTime()).toBeLessThanOrEqual(opts.notBefore.getTime());
    expect(ca.px.notAfter.getTime()).toBeGreaterThanOrEqual(opts.notAfter.getTime());
    expect(basicConstraints(ca)).toEqual({ ca: true, pathLen: undefined, critical: true });
    const caKu = keyUsage(ca);
    expect(caKu.critical).toBe(true);
    expect(caKu.usages & KU.keyCertSign).toBe(KU.keyCertSign);
    expect(subjectRdns(leaf)).toEqual({ CN: 'bookinfo.example.com' });
    expect(sans(leaf).names).toEqual([
      { type: 'dns', value: 'bookinfo.example.com' },
      { type: 'dns', value: 'www.example.com' },
    ]);
    expect(keyUsage(leaf)).toEqual({ usages: KU.digitalSignature | KU.keyEncipherment, critical: true });
    expect([...leaf.px.getExtension(x509.ExtendedKeyUsageExtension)!.usages]).toEqual([OID.serverAuth]);
    expect(basicConstraints(leaf)).toEqual({ ca: false, pathLen: undefined, critical: true });
    expect(publicOfPrivatePem(c.keyPem).equals(spkiOf(leaf))).toBe(true);
  });

  it('without hosts is named after the Secret', async () => {
    const c = await generateGatewayCredential({ ...opts, hosts: [] });
    expect(subjectRdns(certs(c.certPem)[0]!)).toEqual({ CN: 'bookinfo-cred' });
  });

  it('comes as a v1 kubernetes.io/tls Secret with tls.crt, tls.key and ca.crt', async () => {
    const c = await generateGatewayCredential(opts);
    const doc = parseYaml(c.secretYaml) as {
      apiVersion: string;
      kind: string;
      metadata: { name: string; namespace: string };
      type: string;
      data: Record<string, string>;
    };
    expect(doc.apiVersion).toBe('v1');
    expect(doc.kind).toBe('Secret');
    expect(doc.metadata).toEqual({ name: 'bookinfo-cred', namespace: 'istio-ingress' });
    expect(doc.type).toBe('kubernetes.io/tls');
    const data = Object.fromEntries(Object.entries(doc.data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
    expect(data).toEqual({ 'tls.crt': c.certPem, 'tls.key': c.keyPem, 'ca.crt': c.caPem });
  });
});

// RFC 5280 4.1.2.2: the serial is a positive integer of at most 20 octets, unique per CA; Istio's
// genSerialNum draws it at random below 2^128.
describe('serial numbers', () => {
  it('are positive, below 2^128 and distinct', async () => {
    const p = await pki({ clusters: ['east', 'west'], workloads: ['shop/cart', 'shop/web'] });
    const seen = new Set<string>();
    for (const f of p.files.filter((x) => x.text.includes('BEGIN CERTIFICATE-----'))) {
      for (const c of certs(f.text)) {
        const raw = new Uint8Array(c.asn.tbsCertificate.serialNumber);
        expect(raw[0]! & 0x80).toBe(0);
        const value = BigInt(`0x${Buffer.from(raw).toString('hex')}`);
        expect(value > 0n && value < 1n << 128n).toBe(true);
        seen.add(`${c.node.fingerprint256} ${value}`);
      }
    }
    const values = new Set([...seen].map((s) => s.split(' ')[1]));
    expect(values.size).toBe(seen.size);
    expect(seen.size).toBe(1 + 2 + 2);
  });
});
