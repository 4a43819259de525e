// What `openssl verify -CAfile roots -untrusted chain cert` would say, for the note next to
// Istio's verdict when the two disagree. A model of OpenSSL 3's chain building, not all of
// it: a certificate whose subject equals its issuer (and whose AKI, if any, is its own SKI)
// is taken as self-signed without checking the signature — the difference from Go that
// matters for Istio's samples — issuers are found by name (trust store first), and times
// and signatures are checked from the trust anchor down.
import type { Certificate } from './cert.ts';
import type { ParsedName } from './names.ts';
import type { SignatureChecker } from './sig.ts';

export interface OpensslError {
  code: number;
  depth: number;
  message: string;
}

export interface OpensslVerdict {
  ok: boolean;
  error: OpensslError | null;
}

const MESSAGES: Record<number, string> = {
  7: 'certificate signature failure',
  9: 'certificate is not yet valid',
  10: 'certificate has expired',
  18: 'self-signed certificate',
  19: 'self-signed certificate in certificate chain',
  20: 'unable to get local issuer certificate',
  24: 'invalid CA certificate',
};

function err(code: number, depth: number): OpensslVerdict {
  return { ok: false, error: { code, depth, message: MESSAGES[code] ?? `error ${code}` } };
}

/** OpenSSL's canonical name comparison (case and space folded). */
function canonical(n: ParsedName): string {
  return n.map((rdn) => rdn.map((a) => `${a.oid}=${(a.text ?? '').trim().replace(/\s+/g, ' ').toLowerCase()}`).join('+')).join(',');
}

/** ossl_x509_likely_issued: names, then AKI against SKI, then the key type of the signature. */
function likelyIssued(issuer: Certificate, subject: Certificate): boolean {
  if (canonical(issuer.subjectName) !== canonical(subject.issuerName)) return false;
  const aki = subject.facts.authorityKeyIdentifier;
  const ski = issuer.facts.subjectKeyIdentifier;
  if (aki && ski && aki !== ski) return false;
  return true;
}

function signingAllowed(issuer: Certificate): boolean {
  const ku = issuer.facts.keyUsage;
  return !ku.present || ku.usages.length === 0 || ku.usages.includes('keyCertSign');
}

export async function opensslVerify(
  leaf: Certificate,
  trusted: Certificate[],
  untrusted: Certificate[],
  now: Date | null,
  signatures: SignatureChecker,
): Promise<OpensslVerdict> {
  const chain: Certificate[] = [leaf];
  const isTrusted = (c: Certificate) => trusted.some((t) => t.facts.sha256FingerprintHex === c.facts.sha256FingerprintHex);
  let anchored = false;
  for (let guard = 0; guard < 32; guard++) {
    const x = chain[chain.length - 1]!;
    if (isTrusted(x)) {
      anchored = true;
      break;
    }
    if (likelyIssued(x, x)) return err(chain.length === 1 ? 18 : 19, chain.length - 1);
    const pick = (list: Certificate[]) => {
      const candidates = list.filter((c) => !chain.includes(c) && likelyIssued(c, x) && signingAllowed(c));
      // OpenSSL prefers a candidate valid at the verification time.
      return candidates.find((c) => now === null || (now >= c.notBefore && now <= c.notAfter)) ?? candidates[0];
    };
    const issuer = pick(trusted) ?? pick(untrusted);
    if (!issuer) return err(20, chain.length - 1);
    chain.push(issuer);
  }
  if (!anchored) return err(20, chain.length - 1);
  // CA checks for every certificate above the leaf (v1 self-signed roots count as CAs).
  for (let i = 1; i < chain.length; i++) {
    const c = chain[i]!.facts;
    const v1Root = c.version === 1 && c.selfIssued;
    if (!(c.isCA || v1Root)) return err(24, i);
  }
  // internal_verify: from the anchor down, signature then time.
  for (let i = chain.length - 1; i >= 0; i--) {
    const c = chain[i]!;
    const issuer = chain[i + 1];
    if (issuer) {
      const s = await signatures.certificate(c, issuer);
      if (s.status === 'failed') return err(7, i);
    }
    if (now !== null) {
      if (now < c.notBefore) return err(9, i);
      if (now > c.notAfter) return err(10, i);
    }
  }
  return { ok: true, error: null };
}
