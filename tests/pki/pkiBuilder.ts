// Builds small test PKIs for the unit tests of src/core/pki: certificates made with
// @peculiar/x509's generator over WebCrypto (as src/core/pki/generate.ts does), and, for the
// shapes WebCrypto cannot sign (MD5, X.509 v1), the same TBSCertificate edited with
// @peculiar/asn1-x509 and re-signed with node:crypto. Every certificate is also returned
// parsed by our own parser (`parseCertificateDer` + `completeCertificate`), which is what the
// code under test consumes; expected verdicts in the tests come from Go's rules, not from here.
import 'reflect-metadata';
import * as nodeCrypto from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as asn1 from '@peculiar/asn1-schema';
import * as asnX509 from '@peculiar/asn1-x509';
import { parseCertificateDer, type Certificate } from '../../src/core/pki/cert.ts';
import { completeCertificate } from '../../src/core/pki/digest.ts';
import { SignatureChecker } from '../../src/core/pki/sig.ts';
import { CertPool, goVerify, type GoVerifyResult, type KeyUsageRequest } from '../../src/core/pki/verify.ts';
import { lintCertificate, type CertRole, type Profile } from '../../src/core/pki/lints.ts';

const subtle = globalThis.crypto.subtle;
export const DAY = 86400000;
export const NOW = new Date('2026-06-01T12:00:00Z');

export const EKU = {
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  codeSigning: '1.3.6.1.5.5.7.3.3',
  any: '2.5.29.37.0',
  unknown: '1.3.6.1.4.1.99999.1',
} as const;

export const KU = x509.KeyUsageFlags;

export type KeyKind = 'P-256' | 'P-384' | 'P-521' | `RSA-${number}`;

export interface Keys {
  kind: KeyKind;
  publicKey: CryptoKey;
  privateKey: CryptoKey;
}

const keyCache = new Map<string, Keys>();

/** A fresh key pair (or a cached one when `cacheAs` is given, to keep RSA generation cheap). */
export async function keys(kind: KeyKind = 'P-256', cacheAs?: string): Promise<Keys> {
  const id = cacheAs ? `${kind}:${cacheAs}` : undefined;
  if (id && keyCache.has(id)) return keyCache.get(id)!;
  const alg = kind.startsWith('RSA')
    ? { name: 'RSASSA-PKCS1-v1_5', modulusLength: Number(kind.slice(4)), publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }
    : { name: 'ECDSA', namedCurve: kind };
  const kp = (await subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const k = { kind, publicKey: kp.publicKey, privateKey: kp.privateKey };
  if (id) keyCache.set(id, k);
  return k;
}

function signingAlgorithm(k: Keys, hash: 'SHA-256' | 'SHA-1' | 'SHA-384'): Algorithm {
  return k.kind.startsWith('RSA') ? ({ name: 'RSASSA-PKCS1-v1_5', hash } as Algorithm) : ({ name: 'ECDSA', hash } as Algorithm);
}

export type NameSpec = { dns: string } | { uri: string } | { ip: string } | { email: string };

function generalName(n: NameSpec): asnX509.GeneralName {
  if ('dns' in n) return new asnX509.GeneralName({ dNSName: n.dns });
  if ('uri' in n) return new asnX509.GeneralName({ uniformResourceIdentifier: n.uri });
  if ('ip' in n) return new asnX509.GeneralName({ iPAddress: n.ip });
  return new asnX509.GeneralName({ rfc822Name: n.email });
}

export interface CertSpec {
  /** Subject DN, e.g. `CN=Root`. */
  subject: string;
  /** Omitted: self-signed. */
  issuer?: Issued;
  keys?: Keys;
  notBefore?: Date;
  notAfter?: Date;
  /** BasicConstraints cA; `null` leaves the extension out. Default: false (an end-entity). */
  ca?: boolean | null;
  pathLen?: number;
  bcCritical?: boolean;
  /** KeyUsage flags; `null` leaves the extension out. Default: keyCertSign|cRLSign for CAs, digitalSignature otherwise. */
  keyUsage?: number | null;
  kuCritical?: boolean;
  eku?: string[];
  san?: NameSpec[];
  sanCritical?: boolean;
  nameConstraints?: { permitted?: NameSpec[]; excluded?: NameSpec[]; critical?: boolean };
  hash?: 'SHA-256' | 'SHA-1' | 'SHA-384';
  serial?: string;
  /** Leave out SKI / AKI. */
  noSki?: boolean;
  noAki?: boolean;
}

export interface Issued {
  spec: CertSpec;
  x: x509.X509Certificate;
  der: Uint8Array;
  keys: Keys;
  cert: Certificate;
}

let serialCounter = 0x1000;
function nextSerial(): string {
  serialCounter++;
  // 16 significant bytes, positive, unique.
  return '7a' + serialCounter.toString(16).padStart(30, '0');
}

export const signatures = new SignatureChecker();

export async function parse(der: Uint8Array): Promise<Certificate> {
  return completeCertificate(parseCertificateDer(der), signatures);
}

/** Issues one certificate (self-signed without `issuer`). */
export async function issue(spec: CertSpec): Promise<Issued> {
  const k = spec.keys ?? (await keys('P-256'));
  const isCA = spec.ca === true;
  const extensions: x509.Extension[] = [];
  if (spec.ca !== null && (spec.ca !== undefined || spec.pathLen !== undefined))
    extensions.push(new x509.BasicConstraintsExtension(!!spec.ca, spec.pathLen, spec.bcCritical ?? true));
  else if (spec.ca === undefined) extensions.push(new x509.BasicConstraintsExtension(false, undefined, spec.bcCritical ?? true));
  const ku = spec.keyUsage === undefined ? (isCA ? KU.keyCertSign | KU.cRLSign : KU.digitalSignature) : spec.keyUsage;
  if (ku !== null) extensions.push(new x509.KeyUsagesExtension(ku, spec.kuCritical ?? true));
  if (spec.eku) extensions.push(new x509.ExtendedKeyUsageExtension(spec.eku, false));
  if (!spec.noSki) extensions.push(await x509.SubjectKeyIdentifierExtension.create(k.publicKey));
  if (spec.issuer && !spec.noAki) extensions.push(await x509.AuthorityKeyIdentifierExtension.create(spec.issuer.x));
  if (spec.san) {
    const san = new asnX509.SubjectAlternativeName(spec.san.map(generalName));
    extensions.push(new x509.Extension('2.5.29.17', spec.sanCritical ?? false, asn1.AsnConvert.serialize(san)));
  }
  if (spec.nameConstraints) {
    const nc = new asnX509.NameConstraints({
      permittedSubtrees: spec.nameConstraints.permitted
        ? new asnX509.GeneralSubtrees(spec.nameConstraints.permitted.map((n) => new asnX509.GeneralSubtree({ base: generalName(n) })))
        : undefined,
      excludedSubtrees: spec.nameConstraints.excluded
        ? new asnX509.GeneralSubtrees(spec.nameConstraints.excluded.map((n) => new asnX509.GeneralSubtree({ base: generalName(n) })))
        : undefined,
    });
    extensions.push(new x509.Extension('2.5.29.30', spec.nameConstraints.critical ?? true, asn1.AsnConvert.serialize(nc)));
  }
  const notBefore = spec.notBefore ?? new Date(NOW.getTime() - 30 * DAY);
  const notAfter = spec.notAfter ?? new Date(NOW.getTime() + 30 * DAY);
  const signer = spec.issuer?.keys ?? k;
  const x = await x509.X509CertificateGenerator.create({
    serialNumber: spec.serial ?? nextSerial(),
    subject: spec.subject,
    issuer: spec.issuer ? spec.issuer.x.subject : spec.subject,
    notBefore,
    notAfter,
    signingAlgorithm: signingAlgorithm(signer, spec.hash ?? 'SHA-256'),
    publicKey: k.publicKey,
    signingKey: signer.privateKey,
    extensions,
  });
  const der = new Uint8Array(x.rawData);
  return { spec, x, der, keys: k, cert: await parse(der) };
}

// ---- re-signing with node:crypto (shapes WebCrypto will not produce) -------------------

function derLen(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return [0x80 | out.length, ...out];
}

function tlv(tag: number, body: Uint8Array): Uint8Array {
  return new Uint8Array([tag, ...derLen(body.length), ...body]);
}

async function nodeKey(k: Keys): Promise<nodeCrypto.KeyObject> {
  const pkcs8 = new Uint8Array(await subtle.exportKey('pkcs8', k.privateKey));
  return nodeCrypto.createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' });
}

export const SIG_OIDS = {
  md5WithRSA: '1.2.840.113549.1.1.4',
  sha1WithRSA: '1.2.840.113549.1.1.5',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  ecdsaWithSHA1: '1.2.840.10045.4.1',
} as const;

/**
 * Re-signs a certificate's TBSCertificate with `signer` (node:crypto), after `edit` changed it;
 * the signature algorithm (inside and outside the TBS) becomes `sigOid` signed with `nodeHash`.
 */
export async function resign(
  der: Uint8Array,
  signer: Keys,
  sigOid: string,
  nodeHash: string,
  edit: (tbs: asnX509.TBSCertificate) => void = () => {},
): Promise<Uint8Array> {
  const parsed = asn1.AsnConvert.parse(der, asnX509.Certificate);
  const tbs = parsed.tbsCertificate;
  const rsa = sigOid.startsWith('1.2.840.113549');
  const algId = new asnX509.AlgorithmIdentifier({ algorithm: sigOid, parameters: rsa ? new Uint8Array([5, 0]).buffer : undefined });
  tbs.signature = algId;
  edit(tbs);
  const tbsDer = new Uint8Array(asn1.AsnConvert.serialize(tbs));
  const sig = nodeCrypto.sign(nodeHash, tbsDer, await nodeKey(signer));
  const algDer = new Uint8Array(asn1.AsnConvert.serialize(algId));
  const body = new Uint8Array([...tbsDer, ...algDer, ...tlv(0x03, new Uint8Array([0, ...sig]))]);
  return tlv(0x30, body);
}

// ---- Go's Verify --------------------------------------------------------------------

export interface VerifyCall {
  roots: Issued[];
  intermediates?: Issued[];
  now?: Date;
  keyUsages?: KeyUsageRequest[];
}

/** goVerify (our port of Go's Certificate.Verify) of `leaf` with the given pools. */
export function verify(leaf: Issued | Certificate, call: VerifyCall): Promise<GoVerifyResult> {
  const c = 'cert' in leaf ? leaf.cert : leaf;
  return goVerify(c, {
    roots: new CertPool(call.roots.map((r) => r.cert)),
    intermediates: new CertPool((call.intermediates ?? []).map((r) => r.cert)),
    now: call.now ?? NOW,
    keyUsages: call.keyUsages ?? [],
    signatures,
  });
}

/** A root CA (self-signed, CA:TRUE, keyCertSign|cRLSign). */
export function root(extra: Partial<CertSpec> = {}): Promise<Issued> {
  return issue({ subject: 'CN=Test Root', ca: true, ...extra });
}

/** An intermediate CA under `issuer`. */
export function intermediate(issuer: Issued, subject: string, extra: Partial<CertSpec> = {}): Promise<Issued> {
  return issue({ subject, issuer, ca: true, ...extra });
}

/** An end-entity certificate under `issuer` (SAN dns:leaf.example.com, EKU serverAuth+clientAuth unless given). */
export function leaf(issuer: Issued, extra: Partial<CertSpec> = {}): Promise<Issued> {
  return issue({ subject: 'CN=leaf', issuer, san: [{ dns: 'leaf.example.com' }], eku: [EKU.serverAuth, EKU.clientAuth], ...extra });
}

/** What the lint tests vary (lintCertificate's options, with the tests' defaults). */
export interface LintOpts {
  roles?: CertRole[];
  now?: Date;
  profile?: Profile;
  trustDomain?: string;
  aliases?: string[];
}

/** lintCertificate at NOW, with no roles and the default profile unless given. */
export function lintFindings(c: Issued | Certificate, o: LintOpts = {}): ReturnType<typeof lintCertificate> {
  const cert = 'cert' in c ? c.cert : c;
  return lintCertificate(cert, {
    now: o.now ?? NOW,
    roles: new Set(o.roles ?? []),
    profile: o.profile ?? 'default',
    trustDomain: o.trustDomain,
    aliases: o.aliases,
  });
}
