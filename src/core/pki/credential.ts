// What istiod checks in a TLS credential Secret (pilot/pkg/credentials/kube ExtractCertInfo
// and ExtractRoot, pilot/pkg/xds ValidateCertificate), synchronously, for the analyzers.
// Go's tls.X509KeyPair (the key-pair check Gateway API certificateRefs get) is async: it
// compares SubjectPublicKeyInfo digests.
import { decodePem, decodePemBundle } from './pem.ts';
import { CertParseError, parseCertificateDer, parseCertificatesDer, type Certificate } from './cert.ts';
import { parsePrivateKeyDer, privateKeyFacts, x509KeyPairError, KeyParseError } from './keys.ts';
import { hex, sha256 } from './bytes.ts';

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

export interface CertInfo {
  cert: Uint8Array;
  key?: Uint8Array;
  crl?: Uint8Array;
  staple?: Uint8Array;
  /** The data keys the values came from. */
  keys: { cert: string; key?: string; crl?: string; staple?: string };
}

/** Go's truncatedKeysMessage: sorted keys, the first three and `and N more...` from three on. */
function foundKeys(data: SecretData): string {
  const keys = [...data.keys()].sort();
  return keys.length < 3 ? keys.join(', ') : `${keys.slice(0, 3).join(', ')}, and ${keys.length - 3} more...`;
}

const nonEmpty = (data: SecretData, ...keys: string[]) => keys.every((k) => (data.get(k)?.length ?? 0) > 0);
const has = (data: SecretData, ...keys: string[]) => keys.every((k) => data.has(k));

/** ExtractCertInfo: `cert`/`key` when both are non-empty, else `tls.crt`/`tls.key`; otherwise istiod's error. */
export function extractCertInfo(data: SecretData): Result<CertInfo> {
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
export function extractRoot(data: SecretData): Result<CertInfo> {
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
    if (c.facts.goParseExpectation !== 'ok') return { ok: false, error: `x509: ${c.facts.goParseExpectation}` };
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

/**
 * Go's tls.X509KeyPair: the CERTIFICATE blocks form the chain, the first block whose type
 * is `PRIVATE KEY` or ends in ` PRIVATE KEY` is the key, and it must belong to the leaf.
 */
export async function checkKeyPair(certPem: Uint8Array | string, keyPem: Uint8Array | string): Promise<Result<{ leaf: Certificate }>> {
  const certBlocks = decodePemBundle(certPem).filter((b) => b.type === 'CERTIFICATE');
  if (certBlocks.length === 0) return { ok: false, error: 'tls: failed to find any PEM data in certificate input' };
  const keyBlock = decodePemBundle(keyPem).find((b) => b.type === 'PRIVATE KEY' || b.type.endsWith(' PRIVATE KEY'));
  if (!keyBlock) return { ok: false, error: 'tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input' };
  let leaf: Certificate;
  try {
    leaf = parseCertificateDer(certBlocks[0]!.bytes);
  } catch (e) {
    if (e instanceof CertParseError) return { ok: false, error: `tls: failed to parse certificate: ${e.message}` };
    throw e;
  }
  let facts;
  try {
    facts = await privateKeyFacts(parsePrivateKeyDer(keyBlock.bytes, keyBlock.type));
  } catch (e) {
    if (e instanceof KeyParseError) return { ok: false, error: 'tls: failed to parse private key' };
    throw e;
  }
  const spki = hex(await sha256(leaf.spkiDer));
  const err = x509KeyPairError(leaf.facts.publicKey.type, facts, spki);
  return err ? { ok: false, error: err } : { ok: true, value: { leaf } };
}
