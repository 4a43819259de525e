// What istiod checks in a TLS credential Secret (pilot/pkg/credentials/kube ExtractCertInfo
// and pilot/pkg/xds ValidateCertificate), plus the stricter key-pair check of Go's
// tls.X509KeyPair for callers that want it.
import { decodePem, decodePemBundle } from './pem.ts';
import { CertificateParseError, parseCertificate, parseCertificates, validityProblem, type CertificateInfo } from './x509.ts';
import { keyMatchesPublicKey, parsePrivateKey, type PrivateKeyInfo } from './keys.ts';

export const GENERIC_CERT = 'cert';
export const GENERIC_KEY = 'key';
export const TLS_CERT = 'tls.crt';
export const TLS_KEY = 'tls.key';

export type SecretData = ReadonlyMap<string, Uint8Array>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * The certificate and key istiod serves from a Secret: `cert`/`key` when both are
 * non-empty, else `tls.crt`/`tls.key`; otherwise an error like istiod's.
 */
export function extractCertAndKey(data: SecretData): Result<{ cert: Uint8Array; key: Uint8Array }> {
  const has = (...keys: string[]) => keys.every((k) => data.has(k));
  const nonEmpty = (...keys: string[]) => keys.every((k) => (data.get(k)?.length ?? 0) > 0);
  if (nonEmpty(GENERIC_CERT, GENERIC_KEY)) return { ok: true, value: { cert: data.get(GENERIC_CERT)!, key: data.get(GENERIC_KEY)! } };
  if (nonEmpty(TLS_CERT, TLS_KEY)) return { ok: true, value: { cert: data.get(TLS_CERT)!, key: data.get(TLS_KEY)! } };
  if (has(GENERIC_CERT, GENERIC_KEY)) return { ok: false, error: `found keys "${GENERIC_CERT}" and "${GENERIC_KEY}", but they were empty` };
  if (has(TLS_CERT, TLS_KEY)) return { ok: false, error: `found keys "${TLS_CERT}" and "${TLS_KEY}", but they were empty` };
  const keys = [...data.keys()].sort();
  const found = keys.length < 3 ? keys.join(', ') : `${keys.slice(0, 3).join(', ')}, and ${keys.length - 3} more...`;
  return { ok: false, error: `found secret, but didn't have expected keys (${GENERIC_CERT} and ${GENERIC_KEY}) or (${TLS_CERT} and ${TLS_KEY}); found: ${found}` };
}

/**
 * istiod's certificate validation: the first PEM block (of any type) must hold one or more
 * DER certificates, each valid at `now`.
 */
export function validateCertificateChain(cert: Uint8Array, now: Date = new Date()): Result<CertificateInfo[]> {
  const { block } = decodePem(cert);
  if (!block) return { ok: false, error: 'pem decode failed' };
  let certs: CertificateInfo[];
  try {
    certs = parseCertificates(block.bytes);
  } catch (e) {
    if (e instanceof CertificateParseError) return { ok: false, error: e.message };
    throw e;
  }
  for (const c of certs) {
    if (validityProblem(c, now)) return { ok: false, error: 'certificate is expired or not yet valid' };
  }
  return { ok: true, value: certs };
}

/** Whether a Secret passes istiod's checks for a gateway credential. */
export function validateGatewayCredential(data: SecretData, now: Date = new Date()): Result<CertificateInfo[]> {
  const extracted = extractCertAndKey(data);
  if (!extracted.ok) return extracted;
  return validateCertificateChain(extracted.value.cert, now);
}

/**
 * Go's tls.X509KeyPair: the CERTIFICATE blocks form the chain, the first `… PRIVATE KEY`
 * block is the key, and the key must belong to the leaf certificate. Synchronous.
 */
export function checkKeyPair(certPem: Uint8Array | string, keyPem: Uint8Array | string): Result<{ leaf: CertificateInfo; key: PrivateKeyInfo }> {
  const certBlocks = decodePemBundle(certPem).filter((b) => b.type === 'CERTIFICATE');
  if (certBlocks.length === 0) return { ok: false, error: 'failed to find any PEM data in certificate input' };
  const keyBlock = decodePemBundle(keyPem).find((b) => b.type === 'PRIVATE KEY' || b.type.endsWith(' PRIVATE KEY'));
  if (!keyBlock) return { ok: false, error: 'failed to find PEM block with type ending in "PRIVATE KEY" in key input' };
  let leaf: CertificateInfo;
  try {
    leaf = parseCertificate(certBlocks[0]!.bytes);
  } catch (e) {
    if (e instanceof CertificateParseError) return { ok: false, error: e.message };
    throw e;
  }
  const key = parsePrivateKey(keyBlock.bytes);
  if (!key) return { ok: false, error: 'failed to parse private key' };
  const match = keyMatchesPublicKey(leaf.publicKey, key);
  if (match === 'unsupported') return { ok: false, error: 'unsupported key algorithm' };
  if (match === 'mismatch') return { ok: false, error: 'private key does not match public key' };
  return { ok: true, value: { leaf, key } };
}
