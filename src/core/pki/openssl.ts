// What `openssl verify -CAfile roots -untrusted chain cert` would say, for the note next to
// Istio's verdict when the two disagree. A model of OpenSSL 3's chain building, not all of
// it: a certificate whose subject equals its issuer (and whose AKI, if any, is its own SKI)
// is taken as self-signed without checking the signature — the difference from Go that
// matters for Istio's samples — issuers are found by name (trust store first), and times
// and signatures are checked from the trust anchor down.
import type { Certificate } from './cert.ts';
import type { ParsedName } from './names.ts';
import type { SignatureChecker } from './sig.ts';
import { SIGNATURE_ALGORITHMS } from './oids.ts';

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
  // OpenSSL 3.0 numbers it 79 (X509_V_ERR_INVALID_CA); 1.1 used 24.
  79: 'invalid CA certificate',
};

function err(code: number, depth: number): OpensslVerdict {
  return { ok: false, error: { code, depth, message: MESSAGES[code] ?? `error ${code}` } };
}

/**
 * OpenSSL's canonical form of a name (x509_name_canon, asn1_string_canon): leading and trailing
 * spaces dropped, inner runs of spaces made one, ASCII letters lowercased. Its isspace and
 * tolower are ASCII's: a non-breaking space or `Ä` is kept as it is.
 */
function canonical(n: ParsedName): string {
  return n
    .map((rdn) =>
      rdn
        .map(
          (a) =>
            `${a.oid}=${(a.text ?? '')
              .replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '')
              .replace(/[ \t\n\v\f\r]+/g, ' ')
              .replace(/[A-Z]/g, (c) => c.toLowerCase())}`,
        )
        .join('+'),
    )
    .join(',');
}

/**
 * OpenSSL's time check (x509_check_cert_time): not yet valid when NotBefore is after `now`,
 * expired when NotAfter is not after it (X509_cmp_time counts equal as earlier), so at
 * exactly NotAfter a certificate has expired, where Go still takes it.
 */
function timeError(c: Certificate, now: Date): 9 | 10 | undefined {
  if (now < c.notBefore) return 9;
  if (now >= c.notAfter) return 10;
  return undefined;
}

/**
 * ossl_x509_likely_issued: names, then AKI against SKI, then check_sig_alg_match (the key type
 * the subject's signature algorithm needs is the issuer key's type; an algorithm OpenSSL does
 * not know matches nothing). OpenSSL 3.0 looks at no key usage here (check_issued).
 */
function likelyIssued(issuer: Certificate, subject: Certificate): boolean {
  if (canonical(issuer.subjectName) !== canonical(subject.issuerName)) return false;
  const aki = subject.facts.authorityKeyIdentifier;
  const ski = issuer.facts.subjectKeyIdentifier;
  if (aki && ski && aki !== ski) return false;
  const alg = SIGNATURE_ALGORITHMS[subject.facts.signatureAlgorithmOid];
  const key = issuer.facts.publicKey.type;
  // An RSA key signs RSASSA-PSS too (OpenSSL 3.0.19 verifies such a chain).
  return alg !== undefined && (alg.key === key || (alg.key === 'RSA-PSS' && key === 'RSA'));
}

/**
 * X509_check_ca: 0 when a key usage without keyCertSign is present or basicConstraints says
 * not a CA; 1 for a CA by basicConstraints; without basicConstraints, 3 for a self-signed
 * version 1 certificate and 4 when a key usage (with keyCertSign) is present; else 0.
 */
function checkCa(c: Certificate): 0 | 1 | 3 | 4 {
  const f = c.facts;
  if (f.keyUsage.present && !f.keyUsage.usages.includes('keyCertSign')) return 0;
  if (f.basicConstraints.present) return f.basicConstraints.ca ? 1 : 0;
  if (f.version === 1 && f.selfIssued) return 3;
  return f.keyUsage.present ? 4 : 0;
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
      const candidates = list.filter((c) => !chain.includes(c) && likelyIssued(c, x));
      // OpenSSL prefers a candidate valid at the verification time.
      return candidates.find((c) => now === null || timeError(c, now) === undefined) ?? candidates[0];
    };
    const issuer = pick(trusted) ?? pick(untrusted);
    if (!issuer) return err(20, chain.length - 1);
    chain.push(issuer);
  }
  if (!anchored) return err(20, chain.length - 1);
  // check_chain_extensions: every certificate above the leaf must be a CA; below the top
  // only by basicConstraints ("X509_V_FLAG_X509_STRICT is implicit for intermediate CAs").
  for (let i = 1; i < chain.length; i++) {
    const ca = checkCa(chain[i]!);
    if (ca === 0 || (i + 1 < chain.length && ca !== 1)) return err(79, i);
  }
  // internal_verify: from the anchor down, signature then time.
  for (let i = chain.length - 1; i >= 0; i--) {
    const c = chain[i]!;
    const issuer = chain[i + 1];
    if (issuer) {
      const s = await signatures.certificate(c, issuer);
      if (s.status === 'failed') return err(7, i);
    }
    const time = now === null ? undefined : timeError(c, now);
    if (time !== undefined) return err(time, i);
  }
  return { ok: true, error: null };
}
