// X.509 certificates: DER parsing through @peculiar/x509 (which needs reflect-metadata
// loaded first), with Go's crypto/x509 ParseCertificates behaviour for a PEM block that
// holds several certificates back to back.
import 'reflect-metadata';
import { X509Certificate } from '@peculiar/x509';
import { DerError, splitElements } from './der.ts';
import { parseSubjectPublicKeyInfo, type PublicKeyInfo } from './keys.ts';

export interface CertificateInfo {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** DER SubjectPublicKeyInfo. */
  spki: Uint8Array;
  /** The parsed public key, or the reason it could not be read. */
  publicKey: PublicKeyInfo;
  der: Uint8Array;
}

export class CertificateParseError extends Error {}

/** Parses one DER certificate. Throws CertificateParseError. */
export function parseCertificate(der: Uint8Array): CertificateInfo {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(der.slice() as Uint8Array<ArrayBuffer>);
  } catch (e) {
    throw new CertificateParseError(`malformed certificate: ${(e as Error).message}`);
  }
  const spki = new Uint8Array(cert.publicKey.rawData);
  let publicKey: PublicKeyInfo;
  try {
    publicKey = parseSubjectPublicKeyInfo(spki);
  } catch (e) {
    throw new CertificateParseError(`malformed public key: ${(e as Error).message}`);
  }
  return {
    subject: cert.subject,
    issuer: cert.issuer,
    serialNumber: cert.serialNumber,
    notBefore: cert.notBefore,
    notAfter: cert.notAfter,
    spki,
    publicKey,
    der,
  };
}

/**
 * Parses every certificate in a DER byte string (Go's x509.ParseCertificates): zero bytes
 * give an empty list; any element that is not a well-formed certificate is an error.
 */
export function parseCertificates(der: Uint8Array): CertificateInfo[] {
  let parts: Uint8Array[];
  try {
    parts = splitElements(der);
  } catch (e) {
    if (!(e instanceof DerError)) throw e;
    throw new CertificateParseError(`malformed certificate: ${e.message}`);
  }
  return parts.map(parseCertificate);
}

/** Validity at a point in time: Go compares `now.After(notAfter) || now.Before(notBefore)`. */
export function validityProblem(cert: CertificateInfo, now: Date): 'expired' | 'not yet valid' | undefined {
  if (now.getTime() > cert.notAfter.getTime()) return 'expired';
  if (now.getTime() < cert.notBefore.getTime()) return 'not yet valid';
  return undefined;
}
