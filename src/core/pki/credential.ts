// What istiod checks in a TLS credential Secret (pilot/pkg/credentials/kube ExtractCertInfo
// and ExtractRoot, pilot/pkg/xds ValidateCertificate), synchronously, for the analyzers.
// Go's tls.X509KeyPair is istio.ts's (x509KeyPair, checkKeyPair): it compares key digests,
// which is async.
import { decodePem } from './pem.ts';
import { CertParseError, goParseError, parseCertificatesDer, type Certificate } from './cert.ts';

export const GENERIC_CERT = 'cert';
export const GENERIC_KEY = 'key';
export const GENERIC_CA = 'cacert';
export const GENERIC_CRL = 'crl';
export const TLS_CERT = 'tls.crt';
export const TLS_KEY = 'tls.key';
export const TLS_CA = 'ca.crt';
export const TLS_CRL = 'ca.crl';
export const TLS_OCSP = 'tls.ocsp-staple';

export type SecretData = ReadonlyMap<string, Uint8Array>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * A Secret's (or ConfigMap's) values by key: bytes, or text where the caller keeps values as
 * text (the Gateway API controller's model). Only a value's length matters to the rules below.
 */
export type CredentialData<V extends Sized = Uint8Array> = ReadonlyMap<string, V>;

/** A value with a length: bytes or text. */
type Sized = { readonly length: number };

export interface CertInfo<V = Uint8Array> {
  cert: V;
  key?: V;
  crl?: V;
  staple?: V;
  /** The data keys the values came from. */
  keys: { cert: string; key?: string; crl?: string; staple?: string };
}

/** Go's truncatedKeysMessage: sorted keys, the first three and `and N more...` from three on. */
function foundKeys<V extends Sized>(data: CredentialData<V>): string {
  const keys = [...data.keys()].sort();
  return keys.length < 3 ? keys.join(', ') : `${keys.slice(0, 3).join(', ')}, and ${keys.length - 3} more...`;
}

const nonEmpty = <V extends Sized>(data: CredentialData<V>, ...keys: string[]) => keys.every((k) => (data.get(k)?.length ?? 0) > 0);
const has = <V extends Sized>(data: CredentialData<V>, ...keys: string[]) => keys.every((k) => data.has(k));

/** ExtractCertInfo: `cert`/`key` when both are non-empty, else `tls.crt`/`tls.key`; otherwise istiod's error. */
export function extractCertInfo<V extends Sized = Uint8Array>(data: CredentialData<V>): Result<CertInfo<V>> {
  if (nonEmpty(data, GENERIC_CERT, GENERIC_KEY)) {
    return {
      ok: true,
      value: {
        cert: data.get(GENERIC_CERT)!,
        key: data.get(GENERIC_KEY)!,
        crl: data.get(GENERIC_CRL),
        keys: { cert: GENERIC_CERT, key: GENERIC_KEY, crl: data.has(GENERIC_CRL) ? GENERIC_CRL : undefined },
      },
    };
  }
  if (nonEmpty(data, TLS_CERT, TLS_KEY)) {
    return {
      ok: true,
      value: {
        cert: data.get(TLS_CERT)!,
        key: data.get(TLS_KEY)!,
        crl: data.get(TLS_CRL),
        staple: data.get(TLS_OCSP),
        keys: { cert: TLS_CERT, key: TLS_KEY, crl: data.has(TLS_CRL) ? TLS_CRL : undefined, staple: data.has(TLS_OCSP) ? TLS_OCSP : undefined },
      },
    };
  }
  if (has(data, GENERIC_CERT, GENERIC_KEY)) return { ok: false, error: `found keys "${GENERIC_CERT}" and "${GENERIC_KEY}", but they were empty` };
  if (has(data, TLS_CERT, TLS_KEY)) return { ok: false, error: `found keys "${TLS_CERT}" and "${TLS_KEY}", but they were empty` };
  return {
    ok: false,
    error: `found secret, but didn't have expected keys (${GENERIC_CERT} and ${GENERIC_KEY}) or (${TLS_CERT} and ${TLS_KEY}); found: ${foundKeys(data)}`,
  };
}

/** ExtractRoot: `cacert` (with `crl`), else `ca.crt` (with `ca.crl`); otherwise istiod's error. */
export function extractRoot<V extends Sized = Uint8Array>(data: CredentialData<V>): Result<CertInfo<V>> {
  if (nonEmpty(data, GENERIC_CA))
    return {
      ok: true,
      value: { cert: data.get(GENERIC_CA)!, crl: data.get(GENERIC_CRL), keys: { cert: GENERIC_CA, crl: data.has(GENERIC_CRL) ? GENERIC_CRL : undefined } },
    };
  if (nonEmpty(data, TLS_CA))
    return { ok: true, value: { cert: data.get(TLS_CA)!, crl: data.get(TLS_CRL), keys: { cert: TLS_CA, crl: data.has(TLS_CRL) ? TLS_CRL : undefined } } };
  if (has(data, GENERIC_CA)) return { ok: false, error: `found key "${GENERIC_CA}", but it was empty` };
  if (has(data, TLS_CA)) return { ok: false, error: `found key "${TLS_CA}", but it was empty` };
  return { ok: false, error: `found secret, but didn't have expected keys ${GENERIC_CA} or ${TLS_CA}; found: ${foundKeys(data)}` };
}

/** Kept for callers of the first version of this module. */
export function extractCertAndKey(data: SecretData): Result<{ cert: Uint8Array; key: Uint8Array }> {
  const r = extractCertInfo(data);
  return r.ok ? { ok: true, value: { cert: r.value.cert, key: r.value.key! } } : r;
}

/**
 * istiod's ValidateCertificate: the first PEM block (of any type) must hold one or more DER
 * certificates, each valid at `now` (Go's `now.After(notAfter) || now.Before(notBefore)`).
 */
export function validateCertificateChain(cert: Uint8Array, now: Date = new Date()): Result<Certificate[]> {
  const { block } = decodePem(cert);
  if (!block) return { ok: false, error: 'pem decode failed' };
  let certs: Certificate[];
  try {
    certs = parseCertificatesDer(block.bytes);
  } catch (e) {
    if (e instanceof CertParseError) return { ok: false, error: e.message };
    throw e;
  }
  for (const c of certs) {
    const goError = goParseError(c);
    if (goError) return { ok: false, error: goError };
    if (now.getTime() > c.notAfter.getTime() || now.getTime() < c.notBefore.getTime()) return { ok: false, error: 'certificate is expired or not yet valid' };
  }
  return { ok: true, value: certs };
}

/** gateway.SecretAnalyzer's isValidSecret: ExtractCertInfo, then ValidateCertificate of the cert. */
export function validateGatewayCredential(data: SecretData, now: Date = new Date()): Result<Certificate[]> {
  const extracted = extractCertInfo(data);
  if (!extracted.ok) return extracted;
  return validateCertificateChain(extracted.value.cert, now);
}
