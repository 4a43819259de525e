// Small helpers for the tests of src/core/pki/istio.ts (tests/pki/istio*.test.ts): PEM files
// as istiod and the agent read them, private keys in the three PEM forms Istio accepts, CRLs,
// and a fresh PkiContext. Certificates come from pkiBuilder.ts.
import 'reflect-metadata';
import * as nodeCrypto from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as asn1 from '@peculiar/asn1-schema';
import * as asnX509 from '@peculiar/asn1-x509';
import { encodePem } from '../../src/core/pki/pem.ts';
import { PkiContext } from '../../src/core/pki/istio.ts';
import { SignatureChecker } from '../../src/core/pki/sig.ts';
import { sha256 } from '../../src/core/pki/bytes.ts';
import { NOW, SIG_OIDS, parse, resign, type Issued, type Keys } from './pkiBuilder.ts';

export const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

/** The certificates as one PEM file, in the given order. */
export function pem(...certs: Issued[]): string {
  return certs.map((c) => encodePem('CERTIFICATE', c.der)).join('');
}

export function pemBytes(...certs: Issued[]): Uint8Array {
  return bytes(pem(...certs));
}

/** A private key as PEM: PKCS#8 (`PRIVATE KEY`), SEC1 (`EC PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`). */
export async function keyPem(k: Keys, form: 'pkcs8' | 'sec1' | 'pkcs1' = 'pkcs8'): Promise<string> {
  const pkcs8 = new Uint8Array(await globalThis.crypto.subtle.exportKey('pkcs8', k.privateKey));
  if (form === 'pkcs8') return encodePem('PRIVATE KEY', pkcs8);
  const ko = nodeCrypto.createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' });
  const der = new Uint8Array(ko.export({ format: 'der', type: form }));
  return encodePem(form === 'sec1' ? 'EC PRIVATE KEY' : 'RSA PRIVATE KEY', der);
}

/** A fresh inspection context at `now` (its own signature cache). */
export function context(now: Date = NOW): PkiContext {
  return new PkiContext(now, new SignatureChecker());
}

/** A CRL named as issued by `issuer`, signed with `signer` (default: the issuer's key), as DER. */
export async function crlDer(issuer: Issued, signer: Keys = issuer.keys, algorithm?: Algorithm): Promise<Uint8Array> {
  const alg = algorithm ?? (signer.kind.startsWith('RSA') ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } : { name: 'ECDSA', hash: 'SHA-256' });
  const crl = await x509.X509CrlGenerator.create({
    issuer: issuer.x.subject,
    thisUpdate: new Date(NOW.getTime() - 86400000),
    nextUpdate: new Date(NOW.getTime() + 86400000),
    signingAlgorithm: alg,
    signingKey: signer.privateKey,
  });
  return new Uint8Array(crl.rawData);
}

export function crlPem(...ders: Uint8Array[]): Uint8Array {
  return bytes(ders.map((d) => encodePem('X509 CRL', d)).join(''));
}

/** The CRL's TBSCertList re-signed by `signer` with another algorithm (node:crypto; e.g. MD5). */
export async function resignCrl(der: Uint8Array, signer: Keys, sigOid: string, nodeHash: string): Promise<Uint8Array> {
  const list = asn1.AsnConvert.parse(der, asnX509.CertificateList);
  const algId = new asnX509.AlgorithmIdentifier({
    algorithm: sigOid,
    parameters: sigOid.startsWith('1.2.840.113549') ? new Uint8Array([5, 0]).buffer : undefined,
  });
  list.tbsCertList.signature = algId;
  list.signatureAlgorithm = algId;
  const tbs = new Uint8Array(asn1.AsnConvert.serialize(list.tbsCertList));
  const pkcs8 = new Uint8Array(await globalThis.crypto.subtle.exportKey('pkcs8', signer.privateKey));
  const key = nodeCrypto.createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' });
  list.signature = new Uint8Array(nodeCrypto.sign(nodeHash, tbs, key)).buffer;
  return new Uint8Array(asn1.AsnConvert.serialize(list));
}

/** An Ed25519 key pair (WebCrypto), typed as Keys for pkiBuilder's issue(); never a signer there. */
export async function ed25519Keys(): Promise<Keys> {
  const kp = (await globalThis.crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  return { kind: 'P-256', publicKey: kp.publicKey, privateKey: kp.privateKey };
}

/** `base` with a negative serial number (Go >= 1.23 refuses it: parser.go "x509: negative serial number"). */
export async function negativeSerial(base: Issued, signer: Keys): Promise<Issued> {
  const der = await resign(base.der, signer, SIG_OIDS.ecdsaWithSHA256, 'sha256', (tbs) => {
    tbs.serialNumber = new Uint8Array([0xff, 0x01]).buffer;
  });
  return { ...base, der, cert: await parse(der) };
}

/** `base` with another SubjectPublicKeyInfo (e.g. one node:crypto made), re-signed by `signer` (ECDSA). */
export async function withSpki(base: Issued, signer: Keys, spki: Uint8Array): Promise<Issued> {
  const der = await resign(base.der, signer, SIG_OIDS.ecdsaWithSHA256, 'sha256', (tbs) => {
    tbs.subjectPublicKeyInfo = asn1.AsnConvert.parse(spki, asnX509.SubjectPublicKeyInfo);
  });
  return { ...base, der, cert: await parse(der) };
}

/** The CRL with another signature algorithm named in it (the signature is left as it was). */
export function relabelCrl(der: Uint8Array, algorithm: asnX509.AlgorithmIdentifier): Uint8Array {
  const list = asn1.AsnConvert.parse(der, asnX509.CertificateList);
  list.tbsCertList.signature = algorithm;
  list.signatureAlgorithm = algorithm;
  return new Uint8Array(asn1.AsnConvert.serialize(list));
}

/** `base` as an X.509 v1 certificate (no extensions), re-signed by `signer`. */
export async function asV1(base: Issued, signer: Keys): Promise<Issued> {
  const der = await resign(base.der, signer, SIG_OIDS.ecdsaWithSHA256, 'sha256', (tbs) => {
    tbs.version = asnX509.Version.v1;
    tbs.extensions = undefined;
  });
  return { ...base, der, cert: await parse(der) };
}

export async function sha256Hex(der: Uint8Array): Promise<string> {
  return Buffer.from(await sha256(der)).toString('hex');
}

/** [name, status] of every step, the facts a checklist shows. */
export function stepStates(steps: { name: string; status: string }[]): [string, string][] {
  return steps.map((s) => [s.name, s.status]);
}
