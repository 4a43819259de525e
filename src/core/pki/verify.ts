// Go's crypto/x509 Certificate.Verify, which Istio runs for every chain it checks
// (keycertbundle.Verify, VerifyCertificate, istiod's peer checks), reproduced step by step
// because its exact behaviour — not RFC 5280's, not @peculiar/x509's X509ChainBuilder's —
// decides Istio's verdicts: candidate issuers by raw subject DER (AKI/SKI only order them),
// alreadyInChain by subject + key + SAN, CheckSignatureFrom's parent rules, isValid errors
// that replace the "unknown authority" error, and the EKU filter (serverAuth by default).
// Signatures themselves are checked with WebCrypto (sig.ts).
import { equalBytes, hex } from './bytes.ts';
import type { Certificate } from './cert.ts';
import { OID, SIGNATURE_ALGORITHMS } from './oids.ts';
import type { SignatureChecker, SignatureResult } from './sig.ts';

export type KeyUsageRequest = 'serverAuth' | 'clientAuth' | 'any';

/** Go's CertPool: certificates by raw subject, no duplicates (same DER). */
export class CertPool {
  readonly certs: Certificate[] = [];
  private readonly byName = new Map<string, Certificate[]>();
  private readonly have = new Set<string>();

  constructor(certs: Iterable<Certificate> = []) {
    for (const c of certs) this.add(c);
  }

  add(c: Certificate): void {
    const id = hex(c.der);
    if (this.have.has(id)) return;
    this.have.add(id);
    this.certs.push(c);
    const name = hex(c.subjectDer);
    const list = this.byName.get(name);
    if (list) list.push(c);
    else this.byName.set(name, [c]);
  }

  contains(c: Certificate): boolean {
    return this.have.has(hex(c.der));
  }

  get size(): number {
    return this.certs.length;
  }

  /** Candidates whose subject is the child's issuer: AKI=SKI first, then one-sided, then mismatched. */
  potentialParents(child: Certificate): Certificate[] {
    const list = this.byName.get(hex(child.issuerDer)) ?? [];
    const aki = child.facts.authorityKeyIdentifier ?? '';
    const match: Certificate[] = [];
    const one: Certificate[] = [];
    const mismatch: Certificate[] = [];
    for (const c of list) {
      const ski = c.facts.subjectKeyIdentifier ?? '';
      if (ski === aki) match.push(c);
      else if ((ski === '' && aki !== '') || (ski !== '' && aki === '')) one.push(c);
      else mismatch.push(c);
    }
    return [...match, ...one, ...mismatch];
  }
}

export interface GoVerifyOptions {
  roots: CertPool;
  intermediates: CertPool;
  now: Date;
  /** Empty means serverAuth (Go's default). */
  keyUsages: KeyUsageRequest[];
  signatures: SignatureChecker;
}

/** One candidate issuer Go looked at, and what it made of it (for the link view). */
export interface CandidateTrace {
  child: Certificate;
  parent: Certificate;
  pool: 'roots' | 'intermediates';
  /** `skipped: already in chain`, the CheckSignatureFrom error, the isValid error, or `ok`. */
  outcome: string;
  signature?: SignatureResult;
}

export interface GoVerifyResult {
  ok: boolean;
  /** Go's error text (`x509: …`), null when a chain verified. */
  error: string | null;
  /** Every chain found (leaf first), after the EKU filter. */
  chains: Certificate[][];
  /** Chains built before the EKU filter. */
  candidateChains: Certificate[][];
  trace: CandidateTrace[];
}

const MAX_SIGNATURE_CHECKS = 100;

function goTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function rfc3339(iso: string): string {
  return iso;
}

/** Go's BasicConstraintsValid && IsCA / MaxPathLen view of a certificate. */
function bcValid(c: Certificate): boolean {
  return c.facts.basicConstraints.present;
}

/** Certificate.isValid: the Go error text, or undefined. */
export function goIsValid(c: Certificate, certType: 'leaf' | 'intermediate' | 'root', chain: Certificate[], now: Date): string | undefined {
  if (c.facts.unhandledCriticalExtensions.length > 0) return 'x509: unhandled critical extension';
  if (chain.length > 0) {
    const child = chain[chain.length - 1]!;
    if (!equalBytes(child.issuerDer, c.subjectDer)) return 'x509: issuer name does not match subject from issuing certificate';
  }
  if (now.getTime() < c.notBefore.getTime()) return `x509: certificate has expired or is not yet valid: current time ${goTime(now)} is before ${rfc3339(c.facts.notBefore)}`;
  if (now.getTime() > c.notAfter.getTime()) return `x509: certificate has expired or is not yet valid: current time ${goTime(now)} is after ${rfc3339(c.facts.notAfter)}`;
  if ((certType === 'intermediate' || certType === 'root') && c.facts.nameConstraints.present) {
    const violation = nameConstraintViolation(c, chain);
    if (violation) return `x509: a root or intermediate certificate is not authorized to sign for this name: ${violation}`;
  }
  if (certType === 'intermediate' && !(bcValid(c) && c.facts.basicConstraints.ca)) return 'x509: certificate is not authorized to sign other certificates';
  if (bcValid(c) && c.facts.basicConstraints.pathLen !== null) {
    const numIntermediates = chain.length - 1;
    if (numIntermediates > c.facts.basicConstraints.pathLen) return 'x509: too many intermediates for path length constraint';
  }
  return undefined;
}

/** DNS name constraints (the kind Istio meshes use) over the SANs below the CA. */
function nameConstraintViolation(ca: Certificate, chain: Certificate[]): string | undefined {
  const permitted: string[] = [];
  const excluded: string[] = [];
  for (const line of ca.facts.nameConstraints.text) {
    const m = /^(Permitted|Excluded): DNS:(.*)$/.exec(line);
    if (!m) continue;
    (m[1] === 'Permitted' ? permitted : excluded).push(m[2]!.toLowerCase());
  }
  const within = (name: string, constraint: string) => {
    const c = constraint.startsWith('.') ? constraint.slice(1) : constraint;
    if (c === '') return true;
    return name === c || name.endsWith('.' + c);
  };
  for (const cert of chain) {
    for (const dns of cert.facts.subjectAltName.dns) {
      const n = dns.toLowerCase();
      if (excluded.some((e) => within(n, e))) return `"${dns}" is excluded by constraint "${excluded.find((e) => within(n, e))}"`;
      if (permitted.length > 0 && !permitted.some((p) => within(n, p))) return `"${dns}" is not permitted by any constraint`;
    }
  }
  return undefined;
}

/**
 * Go's CheckSignatureFrom: the parent's right to sign (v3 without BasicConstraints, cA
 * false, or a KeyUsage without keyCertSign refuse it), Go's algorithm policy (SHA-1 and MD5
 * are insecure, RSA under 1024 bits too), then the signature. The Go error, or undefined.
 */
export async function goCheckSignatureFrom(child: Certificate, parent: Certificate, signatures: SignatureChecker): Promise<{ error?: string; signature?: SignatureResult }> {
  const p = parent.facts;
  if ((p.version === 3 && !p.basicConstraints.present) || (p.basicConstraints.present && !p.basicConstraints.ca)) return { error: 'x509: invalid signature: parent certificate cannot sign this kind of certificate' };
  if (p.keyUsage.present && p.keyUsage.usages.length > 0 && !p.keyUsage.usages.includes('keyCertSign')) return { error: 'x509: invalid signature: parent certificate cannot sign this kind of certificate' };
  if (p.publicKey.type === 'unknown') return { error: 'x509: cannot verify signature: algorithm unimplemented' };
  const alg = SIGNATURE_ALGORITHMS[child.facts.signatureAlgorithmOid];
  if (!alg) return { error: 'x509: cannot verify signature: algorithm unimplemented' };
  if (alg.hash === 'SHA-1' || alg.hash === 'MD5' || alg.hash === 'MD2') return { error: `x509: cannot verify signature: insecure algorithm ${alg.go}` };
  const signature = await signatures.certificate(child, parent);
  if (signature.status === 'key-type-mismatch') {
    const want = alg.key === 'EC' ? 'ECDSA' : alg.key === 'RSA-PSS' ? 'RSA' : alg.key;
    const have = p.publicKey.type === 'EC' ? '*ecdsa.PublicKey' : p.publicKey.type === 'RSA' ? '*rsa.PublicKey' : p.publicKey.type === 'Ed25519' ? 'ed25519.PublicKey' : p.publicKey.type;
    return { error: `x509: signature algorithm specifies an ${want} public key, but have public key of type ${have}`, signature };
  }
  if ((p.publicKey.type === 'RSA' || p.publicKey.type === 'RSA-PSS') && p.publicKey.bits < 1024) return { error: `crypto/rsa: ${p.publicKey.bits}-bit keys are insecure (see https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_size)`, signature };
  if (signature.status === 'verified') return { signature };
  if (signature.status === 'unverifiable') return { error: `(not checked: ${signature.reason})`, signature };
  const failure = alg.key === 'EC' ? 'x509: ECDSA verification failure' : alg.key === 'Ed25519' ? 'x509: Ed25519 verification failure' : 'crypto/rsa: verification error';
  return { error: failure, signature };
}

/** Go's alreadyInChain: same subject, equal public key and same SAN extension (or both none). */
function alreadyInChain(candidate: Certificate, chain: Certificate[]): boolean {
  return chain.some(
    (c) =>
      equalBytes(c.subjectDer, candidate.subjectDer) &&
      equalBytes(c.spkiDer, candidate.spkiDer) &&
      ((c.sanDer === null && candidate.sanDer === null) || (c.sanDer !== null && candidate.sanDer !== null && equalBytes(c.sanDer, candidate.sanDer))),
  );
}

function quoteGo(s: string): string {
  return JSON.stringify(s);
}

function unknownAuthority(hintErr: string | undefined, hintCert: Certificate | undefined): string {
  let s = 'x509: certificate signed by unknown authority';
  if (hintErr !== undefined && hintCert) {
    const f = hintCert.facts;
    let name = f.subjectCommonName ?? '';
    if (!name) {
      const org = hintCert.subjectName.flat().find((a) => a.oid === '2.5.4.10')?.text;
      name = org ?? `serial:${f.serialDecimal}`;
    }
    s += ` (possibly because of ${quoteGo(hintErr)} while trying to verify candidate authority certificate ${quoteGo(name)})`;
  }
  return s;
}

interface BuildState {
  sigChecks: number;
  opts: GoVerifyOptions;
  trace: CandidateTrace[];
}

async function buildChains(c: Certificate, current: Certificate[], st: BuildState): Promise<{ chains: Certificate[][]; err?: string }> {
  let hintErr: string | undefined;
  let hintCert: Certificate | undefined;
  let err: string | undefined;
  const chains: Certificate[][] = [];
  const consider = async (certType: 'root' | 'intermediate', candidate: Certificate) => {
    const trace: CandidateTrace = { child: c, parent: candidate, pool: certType === 'root' ? 'roots' : 'intermediates', outcome: 'ok' };
    st.trace.push(trace);
    if (alreadyInChain(candidate, current)) {
      trace.outcome = 'skipped: already in the chain (same subject, key and SANs)';
      return;
    }
    st.sigChecks++;
    if (st.sigChecks > MAX_SIGNATURE_CHECKS) {
      err = 'x509: signature check attempts limit reached while verifying certificate chain';
      trace.outcome = err;
      return;
    }
    const sig = await goCheckSignatureFrom(c, candidate, st.opts.signatures);
    trace.signature = sig.signature;
    if (sig.error !== undefined) {
      if (hintErr === undefined) {
        hintErr = sig.error;
        hintCert = candidate;
      }
      trace.outcome = sig.error;
      return;
    }
    err = goIsValid(candidate, certType, current, st.opts.now);
    if (err !== undefined) {
      if (hintErr === undefined) {
        hintErr = err;
        hintCert = candidate;
      }
      trace.outcome = err;
      return;
    }
    if (certType === 'root') chains.push([...current, candidate]);
    else {
      const sub = await buildChains(candidate, [...current, candidate], st);
      err = sub.err;
      chains.push(...sub.chains);
    }
  };
  for (const root of st.opts.roots.potentialParents(c)) await consider('root', root);
  for (const inter of st.opts.intermediates.potentialParents(c)) await consider('intermediate', inter);
  if (chains.length > 0) err = undefined;
  if (chains.length === 0 && err === undefined) err = unknownAuthority(hintErr, hintCert);
  return { chains, err };
}

const GO_KNOWN_EKUS = new Set([
  OID.anyExtendedKeyUsage,
  OID.serverAuth,
  OID.clientAuth,
  '1.3.6.1.5.5.7.3.3',
  '1.3.6.1.5.5.7.3.4',
  '1.3.6.1.5.5.7.3.5',
  '1.3.6.1.5.5.7.3.6',
  '1.3.6.1.5.5.7.3.7',
  '1.3.6.1.5.5.7.3.8',
  '1.3.6.1.5.5.7.3.9',
  OID.microsoftSGC,
  OID.netscapeSGC,
  '1.3.6.1.4.1.311.2.1.22',
  '1.3.6.1.4.1.311.61.1.1',
]);

const REQUEST_OID: Record<Exclude<KeyUsageRequest, 'any'>, string> = { serverAuth: OID.serverAuth, clientAuth: OID.clientAuth };

/** Go's checkChainForKeyUsage: walk from the root down, crossing out usages a certificate's EKU leaves out. */
export function chainAllowsUsages(chain: Certificate[], usages: Exclude<KeyUsageRequest, 'any'>[]): boolean {
  const remaining = new Set(usages);
  for (let i = chain.length - 1; i >= 0; i--) {
    const ekus = chain[i]!.ekuOids;
    if (ekus.length === 0) continue;
    if (ekus.includes(OID.anyExtendedKeyUsage)) continue;
    const known = ekus.filter((o) => GO_KNOWN_EKUS.has(o));
    for (const u of [...remaining]) {
      const oid = REQUEST_OID[u];
      if (known.includes(oid)) continue;
      if (u === 'serverAuth' && (known.includes(OID.netscapeSGC) || known.includes(OID.microsoftSGC))) continue;
      remaining.delete(u);
      if (remaining.size === 0) return false;
    }
  }
  return true;
}

/** Certificate.Verify(opts). */
export async function goVerify(leaf: Certificate, opts: GoVerifyOptions): Promise<GoVerifyResult> {
  const trace: CandidateTrace[] = [];
  const fail = (error: string, candidateChains: Certificate[][] = []): GoVerifyResult => ({ ok: false, error, chains: [], candidateChains, trace });
  const leafErr = goIsValid(leaf, 'leaf', [], opts.now);
  if (leafErr) return fail(leafErr);
  let candidates: Certificate[][];
  if (opts.roots.contains(leaf)) candidates = [[leaf]];
  else {
    const built = await buildChains(leaf, [leaf], { sigChecks: 0, opts, trace });
    if (built.err !== undefined) return fail(built.err);
    candidates = built.chains;
  }
  if (opts.keyUsages.includes('any')) return { ok: true, error: null, chains: candidates, candidateChains: candidates, trace };
  const usages = (opts.keyUsages.length === 0 ? ['serverAuth'] : opts.keyUsages) as Exclude<KeyUsageRequest, 'any'>[];
  const chains = candidates.filter((ch) => chainAllowsUsages(ch, usages));
  if (chains.length === 0) return fail('x509: certificate specifies an incompatible key usage', candidates);
  return { ok: true, error: null, chains, candidateChains: candidates, trace };
}
