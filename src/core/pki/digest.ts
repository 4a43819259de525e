// The asynchronous facts of a certificate: SHA-256 / SHA-1 fingerprints and the SPKI digest
// (WebCrypto digests), and whether it is self-signed (its own key verifies its signature).
import { colonHex, hex, sha1, sha256 } from './bytes.ts';
import type { Certificate } from './cert.ts';
import type { SignatureChecker } from './sig.ts';

const done = new WeakSet<Certificate>();

export async function completeCertificate(c: Certificate, signatures: SignatureChecker): Promise<Certificate> {
  if (done.has(c)) return c;
  const [s256, s1, spki] = await Promise.all([sha256(c.der), sha1(c.der), sha256(c.spkiDer)]);
  c.facts.sha256FingerprintHex = hex(s256);
  c.facts.sha256Fingerprint = colonHex(s256);
  c.facts.sha1Fingerprint = colonHex(s1);
  c.facts.publicKey.spkiSha256 = hex(spki);
  if (c.facts.selfIssued) c.facts.selfSigned = (await signatures.certificate(c, c)).status === 'verified';
  done.add(c);
  return c;
}
