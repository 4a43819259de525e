// Test PKI, made in the tab with WebCrypto and @peculiar/x509's generators: a root CA,
// one intermediate per cluster (the hierarchy of Istio's tools/certs Makefiles: root
// `O=Istio, CN=Root CA`, intermediates `O=Istio, CN=Intermediate CA, L=<cluster>`), workload
// certificates with SPIFFE SANs as Istio's CA issues them, and the workload side of Istio's
// CA flow (a key pair and a CSR carrying the workload's identity, signed by the CA). Keys
// never leave the tab; the output is PEM files and `cacerts` Secrets to download.
import { x509 } from './lib.ts';
import { encodeBase64Std } from './base64.ts';
import { utf8, webCrypto } from './bytes.ts';
import { encodePem } from './pem.ts';

export type GenKeyAlgorithm = 'ECDSA-P256' | 'ECDSA-P384' | 'RSA-2048' | 'RSA-4096';

/** Deliberate breakage, to see our checks fail. */
export type Breakage = 'none' | 'wrong-key' | 'expired' | 'wrong-trust-domain';

export interface GenerateOptions {
  keyAlgorithm?: GenKeyAlgorithm;
  trustDomain?: string;
  clusters?: string[];
  /** Workloads `namespace/serviceAccount`, issued by the first cluster's intermediate. */
  workloads?: string[];
  now?: Date;
  breakage?: Breakage;
  /** Lifetimes in days (defaults: root 3650, intermediates 730; workloads get Istio's 24 h). */
  validityDays?: { root?: number; intermediate?: number };
}

export interface GeneratedFile {
  /** e.g. `cluster1/ca-cert.pem`. */
  path: string;
  text: string;
  /** Holds a private key (shown masked). */
  secret: boolean;
}

export interface GeneratedCsr {
  identity: string;
  /** The CSR as the Istio agent would send it. */
  csrPem: string;
  /** What the CA changed compared with the request. */
  changes: string[];
}

export interface GeneratedPki {
  files: GeneratedFile[];
  csrs: GeneratedCsr[];
  /** What was broken on purpose (empty when nothing). */
  broken: string;
}

const DAY = 86400000;

function algorithms(alg: GenKeyAlgorithm): { gen: object; sign: object } {
  switch (alg) {
    case 'ECDSA-P384':
      return { gen: { name: 'ECDSA', namedCurve: 'P-384' }, sign: { name: 'ECDSA', hash: 'SHA-384' } };
    case 'RSA-2048':
    case 'RSA-4096':
      return {
        gen: { name: 'RSASSA-PKCS1-v1_5', modulusLength: alg === 'RSA-2048' ? 2048 : 4096, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
        sign: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      };
    default:
      return { gen: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } };
  }
}

interface KeyPair {
  publicKey: unknown;
  privateKey: unknown;
}

async function keyPair(alg: GenKeyAlgorithm): Promise<KeyPair> {
  return (await webCrypto().generateKey(algorithms(alg).gen as never, true, ['sign', 'verify'])) as KeyPair;
}

async function keyPem(k: KeyPair): Promise<string> {
  return encodePem('PRIVATE KEY', new Uint8Array(await webCrypto().exportKey('pkcs8', k.privateKey as never)));
}

function randomSerial(): string {
  const b = new Uint8Array(16);
  globalThis.crypto!.getRandomValues!(b);
  b[0] = b[0]! & 0x7f;
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

function certPem(c: x509.X509Certificate): string {
  return encodePem('CERTIFICATE', new Uint8Array(c.rawData));
}

/** A `cacerts` Secret with the four files, as `kubectl create secret generic cacerts --from-file=…` writes it. */
export function cacertsSecretYaml(files: { caCert: string; caKey: string; certChain: string; rootCert: string }): string {
  const b64 = (s: string) => encodeBase64Std(utf8(s));
  return [
    'apiVersion: v1',
    'kind: Secret',
    'metadata:',
    '  name: cacerts',
    '  namespace: istio-system',
    'type: Opaque',
    'data:',
    `  ca-cert.pem: ${b64(files.caCert)}`,
    `  ca-key.pem: ${b64(files.caKey)}`,
    `  cert-chain.pem: ${b64(files.certChain)}`,
    `  root-cert.pem: ${b64(files.rootCert)}`,
    '',
  ].join('\n');
}

export async function generatePki(options: GenerateOptions = {}): Promise<GeneratedPki> {
  const alg = options.keyAlgorithm ?? 'ECDSA-P256';
  const sign = algorithms(alg).sign as never;
  const td = options.trustDomain ?? 'cluster.local';
  const clusters = options.clusters?.length ? options.clusters : ['cluster1'];
  const workloads = options.workloads ?? ['default/sleep'];
  const now = options.now ?? new Date();
  const breakage = options.breakage ?? 'none';
  const files: GeneratedFile[] = [];
  const ext = x509;

  // Root CA: 10 years, CA:TRUE, keyCertSign + cRLSign (what Istio's own root carries, plus CRLs).
  const rootKeys = await keyPair(alg);
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: 'O=Istio, CN=Root CA',
    notBefore: new Date(now.getTime() - DAY),
    notAfter: new Date(now.getTime() + (options.validityDays?.root ?? 3650) * DAY),
    signingAlgorithm: sign,
    keys: rootKeys as never,
    extensions: [
      new ext.BasicConstraintsExtension(true, undefined, true),
      new ext.KeyUsagesExtension(ext.KeyUsageFlags.keyCertSign | ext.KeyUsageFlags.cRLSign, true),
      await ext.SubjectKeyIdentifierExtension.create(rootKeys.publicKey as never),
    ],
  });
  const rootPem = certPem(root);
  files.push({ path: 'root-cert.pem', text: rootPem, secret: false }, { path: 'root-key.pem', text: await keyPem(rootKeys), secret: true });

  const csrs: GeneratedCsr[] = [];
  let broken = '';
  for (const [ci, cluster] of clusters.entries()) {
    const intKeys = await keyPair(alg);
    const expired = breakage === 'expired' && ci === 0;
    const inter = await x509.X509CertificateGenerator.create({
      serialNumber: randomSerial(),
      subject: `O=Istio, CN=Intermediate CA, L=${cluster}`,
      issuer: root.subject,
      notBefore: expired ? new Date(now.getTime() - 400 * DAY) : new Date(now.getTime() - DAY),
      notAfter: expired ? new Date(now.getTime() - 35 * DAY) : new Date(now.getTime() + (options.validityDays?.intermediate ?? 730) * DAY),
      signingAlgorithm: sign,
      publicKey: intKeys.publicKey as never,
      signingKey: rootKeys.privateKey as never,
      extensions: [
        new ext.BasicConstraintsExtension(true, 0, true),
        new ext.KeyUsagesExtension(ext.KeyUsageFlags.keyCertSign | ext.KeyUsageFlags.cRLSign | ext.KeyUsageFlags.digitalSignature, true),
        await ext.SubjectKeyIdentifierExtension.create(intKeys.publicKey as never),
        await ext.AuthorityKeyIdentifierExtension.create(root),
        new ext.SubjectAlternativeNameExtension([{ type: 'dns', value: `istiod.istio-system.svc` }]),
      ],
    });
    if (expired) broken = `the intermediate of ${cluster} expired 35 days ago`;
    const interPem = certPem(inter);
    // A key that belongs to another certificate, on purpose.
    const wrongKey = breakage === 'wrong-key' && ci === 0;
    const caKeyPem = wrongKey ? await keyPem(await keyPair(alg)) : await keyPem(intKeys);
    if (wrongKey) broken = `ca-key.pem of ${cluster} belongs to no certificate`;
    const chainPem = interPem + rootPem;
    files.push(
      { path: `${cluster}/ca-cert.pem`, text: interPem, secret: false },
      { path: `${cluster}/ca-key.pem`, text: caKeyPem, secret: true },
      { path: `${cluster}/cert-chain.pem`, text: chainPem, secret: false },
      { path: `${cluster}/root-cert.pem`, text: rootPem, secret: false },
      { path: `${cluster}/cacerts.yaml`, text: cacertsSecretYaml({ caCert: interPem, caKey: caKeyPem, certChain: chainPem, rootCert: rootPem }), secret: true },
    );
    if (ci !== 0) continue;
    for (const w of workloads) {
      const [ns, sa] = w.includes('/') ? (w.split('/') as [string, string]) : ['default', w];
      const wrongTd = breakage === 'wrong-trust-domain';
      const identity = `spiffe://${wrongTd ? `not-${td}` : td}/ns/${ns}/sa/${sa}`;
      if (wrongTd) broken = `workload identities carry the trust domain not-${td}`;
      // The agent's side: a key pair and a CSR with the identity as a URI SAN (empty subject).
      const wKeys = await keyPair(alg);
      const csr = await x509.Pkcs10CertificateRequestGenerator.create({
        keys: wKeys as never,
        signingAlgorithm: sign,
        extensions: [new ext.SubjectAlternativeNameExtension([{ type: 'url', value: `spiffe://${td}/ns/${ns}/sa/${sa}` }], true)],
      });
      // The CA's side: it takes the key from the CSR and the identity from the caller, not from the CSR.
      const leaf = await x509.X509CertificateGenerator.create({
        serialNumber: randomSerial(),
        subject: '',
        issuer: inter.subject,
        notBefore: new Date(now.getTime() - 2 * 60000),
        notAfter: new Date(now.getTime() + DAY),
        signingAlgorithm: sign,
        publicKey: csr.publicKey,
        signingKey: intKeys.privateKey as never,
        extensions: [
          new ext.KeyUsagesExtension(ext.KeyUsageFlags.digitalSignature | ext.KeyUsageFlags.keyEncipherment, true),
          new ext.ExtendedKeyUsageExtension([ext.ExtendedKeyUsage.serverAuth, ext.ExtendedKeyUsage.clientAuth]),
          new ext.BasicConstraintsExtension(false, undefined, true),
          await ext.AuthorityKeyIdentifierExtension.create(inter),
          new ext.SubjectAlternativeNameExtension([{ type: 'url', value: identity }], true),
        ],
      });
      const changes = [
        'validity: NotBefore backdated 2 minutes (ClockSkewGracePeriod), NotAfter = 24h (DEFAULT_WORKLOAD_CERT_TTL), clamped to the CA certificate',
        'KeyUsage digitalSignature + keyEncipherment and ExtKeyUsage serverAuth + clientAuth are set by the CA, whatever the CSR asks',
        'the SAN comes from the caller identity the CA authenticated, not from the CSR (Istio need not keep the requested SAN)',
      ];
      if (identity !== `spiffe://${td}/ns/${ns}/sa/${sa}`) changes.push(`here the CA issued ${identity}, not the requested spiffe://${td}/ns/${ns}/sa/${sa}`);
      csrs.push({ identity, csrPem: encodePem('CERTIFICATE REQUEST', new Uint8Array(csr.rawData)), changes });
      const dir = `${cluster}/workloads/${ns}-${sa}`;
      files.push(
        { path: `${dir}/cert-chain.pem`, text: certPem(leaf) + interPem + rootPem, secret: false },
        { path: `${dir}/key.pem`, text: await keyPem(wKeys), secret: true },
        { path: `${dir}/root-cert.pem`, text: rootPem, secret: false },
        { path: `${dir}/csr.pem`, text: encodePem('CERTIFICATE REQUEST', new Uint8Array(csr.rawData)), secret: false },
      );
    }
  }
  return { files, csrs, broken };
}

export interface GatewayCredentialOptions {
  /** The Secret's name (the Gateway's credentialName) and namespace. */
  name: string;
  namespace: string;
  /** DNS SANs of the server certificate. */
  hosts: string[];
  notBefore: Date;
  notAfter: Date;
  keyAlgorithm?: GenKeyAlgorithm;
}

export interface GeneratedCredential {
  /** The server certificate followed by its CA. */
  certPem: string;
  keyPem: string;
  caPem: string;
  /** A `kubernetes.io/tls` Secret with tls.crt, tls.key and ca.crt. */
  secretYaml: string;
}

/**
 * A gateway credential: a self-signed CA (10 years around `notBefore`) and a server
 * certificate for `hosts` with the given validity, e.g. one that has already expired.
 */
export async function generateGatewayCredential(o: GatewayCredentialOptions): Promise<GeneratedCredential> {
  const alg = o.keyAlgorithm ?? 'ECDSA-P256';
  const sign = algorithms(alg).sign as never;
  const ext = x509;
  const caKeys = await keyPair(alg);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: 'O=Mesh Workbench samples, CN=Sample Gateway CA',
    notBefore: new Date(o.notBefore.getTime() - DAY),
    notAfter: new Date(o.notBefore.getTime() + 3650 * DAY),
    signingAlgorithm: sign,
    keys: caKeys as never,
    extensions: [
      new ext.BasicConstraintsExtension(true, undefined, true),
      new ext.KeyUsagesExtension(ext.KeyUsageFlags.keyCertSign | ext.KeyUsageFlags.cRLSign, true),
      await ext.SubjectKeyIdentifierExtension.create(caKeys.publicKey as never),
    ],
  });
  const keys = await keyPair(alg);
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: `CN=${o.hosts[0] ?? o.name}`,
    issuer: ca.subject,
    notBefore: o.notBefore,
    notAfter: o.notAfter,
    signingAlgorithm: sign,
    publicKey: keys.publicKey as never,
    signingKey: caKeys.privateKey as never,
    extensions: [
      new ext.KeyUsagesExtension(ext.KeyUsageFlags.digitalSignature | ext.KeyUsageFlags.keyEncipherment, true),
      new ext.ExtendedKeyUsageExtension([ext.ExtendedKeyUsage.serverAuth]),
      new ext.BasicConstraintsExtension(false, undefined, true),
      await ext.SubjectKeyIdentifierExtension.create(keys.publicKey as never),
      await ext.AuthorityKeyIdentifierExtension.create(ca),
      new ext.SubjectAlternativeNameExtension(o.hosts.map((h) => ({ type: 'dns' as const, value: h }))),
    ],
  });
  const caPem = certPem(ca);
  const certPemText = certPem(leaf) + caPem;
  const keyPemText = await keyPem(keys);
  const b64 = (s: string) => encodeBase64Std(utf8(s));
  const secretYaml = [
    'apiVersion: v1',
    'kind: Secret',
    'metadata:',
    `  name: ${o.name}`,
    `  namespace: ${o.namespace}`,
    'type: kubernetes.io/tls',
    'data:',
    `  tls.crt: ${b64(certPemText)}`,
    `  tls.key: ${b64(keyPemText)}`,
    `  ca.crt: ${b64(caPem)}`,
    '',
  ].join('\n');
  return { certPem: certPemText, keyPem: keyPemText, caPem, secretYaml };
}
