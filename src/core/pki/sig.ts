// Signature checks over WebCrypto, through @peculiar/x509 (`verify({ signatureOnly })`):
// a certificate or CRL against a candidate issuer's public key. Results are cached per
// (signed object, issuer key), since path building asks the same question many times.
// Algorithms WebCrypto cannot verify (MD5, DSA, SHA-224, curves other than P-256/384/521)
// are reported as such rather than as bad signatures.
import { x509 } from './lib.ts';
import { hex, toArrayBuffer } from './bytes.ts';
import type { Certificate, PublicKeyFacts } from './cert.ts';
import { SIGNATURE_ALGORITHMS } from './oids.ts';
import { mapAt } from '../document/maps.ts';

export type SignatureStatus = 'verified' | 'failed' | 'unverifiable' | 'key-type-mismatch';

export interface SignatureResult {
  status: SignatureStatus;
  /** Why it could not be checked or what failed, in words. */
  reason?: string;
}

const WEBCRYPTO_HASHES = new Set(['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']);
const WEBCRYPTO_CURVES = new Set(['P-256', 'P-384', 'P-521']);

/** Whether WebCrypto can check a signature of this algorithm with this key, or why not. */
export function verifiable(sigOid: string, key: PublicKeyFacts): SignatureResult | undefined {
  const alg = SIGNATURE_ALGORITHMS[sigOid];
  if (!alg) return { status: 'unverifiable', reason: `signature algorithm ${sigOid} is not verifiable in the browser` };
  const keyType = key.type === 'RSA-PSS' ? 'RSA' : key.type;
  const algKey = alg.key === 'RSA-PSS' ? 'RSA' : alg.key;
  if (algKey !== keyType)
    return { status: 'key-type-mismatch', reason: `the signature algorithm (${alg.name}) needs an ${algKey} key, the issuer has ${key.type}` };
  if (alg.hash && !WEBCRYPTO_HASHES.has(alg.hash)) return { status: 'unverifiable', reason: `${alg.name} (${alg.hash}) is not verifiable in the browser` };
  if (alg.key === 'DSA' || alg.key === 'Ed448') return { status: 'unverifiable', reason: `${alg.name} is not verifiable in the browser` };
  if (keyType === 'EC' && !WEBCRYPTO_CURVES.has(key.curve ?? ''))
    return { status: 'unverifiable', reason: `curve ${key.curve} is not verifiable in the browser` };
  return undefined;
}

type Signed = { der: Uint8Array; kind: 'certificate' | 'crl' | 'csr'; sigOid: string };

export class SignatureChecker {
  private readonly cache = new WeakMap<Uint8Array, Map<string, Promise<SignatureResult>>>();
  private readonly parsed = new WeakMap<Uint8Array, x509.X509Certificate | x509.X509Crl | x509.Pkcs10CertificateRequest>();
  /** Signature checks actually run through WebCrypto (for the bench and tests). */
  checks = 0;

  private object(s: Signed) {
    let o = this.parsed.get(s.der);
    if (!o) {
      const buf = toArrayBuffer(s.der);
      o = s.kind === 'certificate' ? new x509.X509Certificate(buf) : s.kind === 'crl' ? new x509.X509Crl(buf) : new x509.Pkcs10CertificateRequest(buf);
      this.parsed.set(s.der, o);
    }
    return o;
  }

  private run(s: Signed, issuerSpki: Uint8Array, issuerKey: PublicKeyFacts): Promise<SignatureResult> {
    const byIssuer = mapAt(this.cache, s.der);
    const key = hex(issuerSpki);
    let p = byIssuer.get(key);
    if (!p) {
      p = (async (): Promise<SignatureResult> => {
        const pre = verifiable(s.sigOid, issuerKey);
        if (pre) return pre;
        try {
          this.checks++;
          const o = this.object(s);
          const publicKey = new x509.PublicKey(toArrayBuffer(issuerSpki));
          // A CSR is signed with its own key (Pkcs10CertificateRequest.verify takes no key).
          const ok =
            o instanceof x509.X509Certificate
              ? await o.verify({ publicKey, signatureOnly: true })
              : o instanceof x509.X509Crl
                ? await o.verify({ publicKey })
                : await o.verify();
          return ok ? { status: 'verified' } : { status: 'failed', reason: 'the signature does not verify with the issuer key' };
        } catch (e) {
          return { status: 'unverifiable', reason: `the signature could not be checked: ${e instanceof Error ? e.message : String(e)}` };
        }
      })();
      byIssuer.set(key, p);
    }
    return p;
  }

  /** Does `issuer`'s key verify `child`'s signature? */
  certificate(child: Certificate, issuer: { spkiDer: Uint8Array; facts: { publicKey: PublicKeyFacts } }): Promise<SignatureResult> {
    return this.run({ der: child.der, kind: 'certificate', sigOid: child.facts.signatureAlgorithmOid }, issuer.spkiDer, issuer.facts.publicKey);
  }

  crl(crl: { der: Uint8Array; sigOid: string }, issuer: { spkiDer: Uint8Array; facts: { publicKey: PublicKeyFacts } }): Promise<SignatureResult> {
    return this.run({ der: crl.der, kind: 'crl', sigOid: crl.sigOid }, issuer.spkiDer, issuer.facts.publicKey);
  }

  csr(csr: { der: Uint8Array; sigOid: string }, spki: Uint8Array, key: PublicKeyFacts): Promise<SignatureResult> {
    return this.run({ der: csr.der, kind: 'csr', sigOid: csr.sigOid }, spki, key);
  }
}
