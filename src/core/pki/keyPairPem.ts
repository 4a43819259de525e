// The PEM reading of Go's tls.X509KeyPair (crypto/tls/tls.go): which blocks make the chain and
// which the key, and Go's error, word for word, when there are none. Shared by the key-pair
// check of the certificate inspection (istio.ts x509KeyPair) and the Gateway API controller's
// model (config/gatewayApi/objects.ts).
import { decodePemBundle, type PemBlock } from './pem.ts';
import type { Result } from './credential.ts';
import { goValue } from '../go/fmt.ts';

/**
 * The certificate half of Go's tls.X509KeyPair PEM reading (crypto/tls/tls.go): the
 * CERTIFICATE blocks of the input (the chain; other blocks are skipped), or Go's error.
 */
export function x509KeyPairCertBlocks(certPem: Uint8Array | string): Result<PemBlock[]> {
  const certs: PemBlock[] = [];
  const skipped: string[] = [];
  for (const b of decodePemBundle(certPem)) {
    if (b.type === 'CERTIFICATE') certs.push(b);
    else skipped.push(b.type);
  }
  if (certs.length > 0) return { ok: true, value: certs };
  if (skipped.length === 0) return { ok: false, error: 'tls: failed to find any PEM data in certificate input' };
  if (skipped.length === 1 && (skipped[0] as string).endsWith('PRIVATE KEY'))
    return { ok: false, error: 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched' };
  return {
    ok: false,
    error: `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${goValue(skipped)}`,
  };
}

/** The key half: the first block whose type is `PRIVATE KEY` or ends in ` PRIVATE KEY`, or Go's error. */
export function x509KeyPairKeyBlock(keyPem: Uint8Array | string): Result<PemBlock> {
  const skipped: string[] = [];
  for (const b of decodePemBundle(keyPem)) {
    if (b.type === 'PRIVATE KEY' || b.type.endsWith(' PRIVATE KEY')) return { ok: true, value: b };
    skipped.push(b.type);
  }
  if (skipped.length === 0) return { ok: false, error: 'tls: failed to find any PEM data in key input' };
  if (skipped.length === 1 && skipped[0] === 'CERTIFICATE')
    return { ok: false, error: 'tls: found a certificate rather than a key in the PEM for the private key' };
  return {
    ok: false,
    error: `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${goValue(skipped)}`,
  };
}
