// Istio's own certificate checks, on the bytes Istio reads, with Istio's error texts:
// - the plug-in CA (`cacerts`) as istiod loads it (keycertbundle.Verify, then the IsCA and
//   minTTL checks of NewPluggedCertIstioCAOptions / NewIstioCA),
// - the self-signed CA Secret (Verify with the CA cert as its own root),
// - a workload's chain as Istio's VerifyCertificate (or a Go peer) checks it,
// - gateway credentials (ExtractCertInfo / ExtractRoot / ValidateCertificate),
// - the graceful root-bundle parsing of the agent (ParseRootCerts).
// Every step reads bytes the way Go's encoding/pem and crypto/x509 do (first block, any
// block type, concatenated chain files), because that is where Istio's verdicts come from.
import { decodePem, decodePemBundle } from './pem.ts';
import type { Result } from './credential.ts';
import { x509KeyPairCertBlocks, x509KeyPairKeyBlock } from './keyPairPem.ts';
import { CertParseError, goParseError, parseCertificateDer, type Certificate } from './cert.ts';
import { parseCrlDer, type Crl } from './crl.ts';
import { concatBytes, hex, sha256, utf8 } from './bytes.ts';
import { istioKeyVerdict, KeyParseError, parsePrivateKeyDer, privateKeyFacts, x509KeyPairError, type PrivateKeyFacts } from './keys.ts';
import { CertPool, goVerify, type GoVerifyResult, type KeyUsageRequest } from './verify.ts';
import { SignatureChecker } from './sig.ts';
import { completeCertificate } from './digest.ts';
import { SIGNATURE_ALGORITHMS } from './oids.ts';

export interface IstioVerdict {
  ok: boolean;
  /** Which of Istio's steps failed (null when all passed). */
  failingCheck: string | null;
  /** Istio's error text for that step. */
  error: string | null;
}

export type StepStatus = 'pass' | 'fail' | 'skipped' | 'warn' | 'info';

/** One step of a scenario checklist, in the order Istio runs them. */
export interface CheckStep {
  name: string;
  status: StepStatus;
  detail: string;
  /** Istio's error text when the step failed. */
  error?: string;
  /** Where in Istio's sources the step lives. */
  source?: string;
}

/** Shared state of one inspection: the clock, signature cache and parsed certificates by DER. */
export class PkiContext {
  private readonly certs = new Map<string, Certificate | CertParseError>();
  constructor(
    readonly now: Date,
    readonly signatures: SignatureChecker,
  ) {}

  /** Parses (once) a DER certificate; throws CertParseError. */
  cert(der: Uint8Array): Certificate {
    const key = hex(der);
    let c = this.certs.get(key);
    if (!c) {
      try {
        c = parseCertificateDer(der);
      } catch (e) {
        c = e instanceof CertParseError ? e : new CertParseError(String(e));
      }
      this.certs.set(key, c);
    }
    if (c instanceof CertParseError) throw c;
    return c;
  }

  /** Registers a certificate parsed elsewhere, so the same DER maps to the same object. */
  adopt(c: Certificate): Certificate {
    const key = hex(c.der);
    const have = this.certs.get(key);
    if (have && !(have instanceof CertParseError)) return have;
    this.certs.set(key, c);
    return c;
  }

  /** Go's x509.ParseCertificate: our parse, and Go's own refusals (negative serial, …). */
  goParse(der: Uint8Array): { cert?: Certificate; error?: string } {
    try {
      const c = this.cert(der);
      const error = goParseError(c);
      if (error) return { error };
      return { cert: c };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** Go's CertPool.AppendCertsFromPEM: CERTIFICATE blocks without headers that Go parses. */
  appendCertsFromPem(pool: CertPool, bytes: Uint8Array): { added: number; skipped: number } {
    let added = 0;
    let skipped = 0;
    for (const b of decodePemBundle(bytes)) {
      if (b.type !== 'CERTIFICATE' || Object.keys(b.headers).length > 0) {
        skipped++;
        continue;
      }
      const { cert } = this.goParse(b.bytes);
      if (!cert) {
        skipped++;
        continue;
      }
      pool.add(cert);
      added++;
    }
    return { added, skipped };
  }

  /** Istio's ParsePemEncodedCertificate: the first PEM block, of any type. */
  parsePemEncodedCertificate(bytes: Uint8Array): { cert?: Certificate; error?: string } {
    const { block } = decodePem(bytes);
    if (!block) return { error: 'invalid PEM encoded certificate' };
    const { cert } = this.goParse(block.bytes);
    if (!cert) return { error: 'failed to parse X.509 certificate' };
    return { cert };
  }

  async complete(chains: Certificate[][]): Promise<void> {
    for (const ch of chains) for (const c of ch) await completeCertificate(c, this.signatures);
  }
}

/** Istio's ParsePemEncodedKey: the first block must be an EC, RSA or PKCS#8 key. */
export function parsePemEncodedKey(bytes: Uint8Array): { error?: string; type?: string; der?: Uint8Array } {
  const { block } = decodePem(bytes);
  if (!block) return { error: 'invalid PEM-encoded key' };
  const verdict = istioKeyVerdict(block.type, block.bytes);
  if (verdict !== 'supported') return { error: verdict };
  return { type: block.type, der: block.bytes };
}

/** Go's tls.X509KeyPair(certPEM, keyPEM): no error when they match, else its error; with the leaf and key it parsed. */
export async function x509KeyPair(
  ctx: PkiContext,
  certPem: Uint8Array,
  keyPem: Uint8Array,
): Promise<{ error?: string; keyFacts?: PrivateKeyFacts; leaf?: Certificate }> {
  const certs = x509KeyPairCertBlocks(certPem);
  if (!certs.ok) return { error: certs.error };
  const key = x509KeyPairKeyBlock(keyPem);
  if (!key.ok) return { error: key.error };
  const certBlocks = certs.value;
  const keyBlock = key.value;
  const leaf = ctx.goParse(certBlocks[0]!.bytes);
  if (!leaf.cert) return { error: leaf.error ?? 'x509: malformed certificate' };
  let keyFacts: PrivateKeyFacts;
  try {
    keyFacts = await privateKeyFacts(parsePrivateKeyDer(keyBlock.bytes, keyBlock.type));
  } catch (e) {
    if (e instanceof KeyParseError) return { error: 'tls: failed to parse private key' };
    throw e;
  }
  // Its switch on the certificate's public key knows RSA, ECDSA and Ed25519 only (Go leaves an
  // RSA-PSS, X25519 or unknown SubjectPublicKeyInfo's key nil, and a DSA key has no case).
  const certKeyType = leaf.cert.facts.publicKey.type;
  if (certKeyType !== 'RSA' && certKeyType !== 'EC' && certKeyType !== 'Ed25519')
    return { error: 'tls: unknown public key algorithm', keyFacts, leaf: leaf.cert };
  const spki = hex(await sha256(leaf.cert.spkiDer));
  const err = x509KeyPairError(certKeyType, keyFacts, spki);
  return { error: err, keyFacts, leaf: leaf.cert };
}

/** Go's tls.X509KeyPair with the leaf it parsed (for callers without an inspection's context). */
export async function checkKeyPair(certPem: Uint8Array | string, keyPem: Uint8Array | string): Promise<Result<{ leaf: Certificate }>> {
  const bytes = (v: Uint8Array | string) => (typeof v === 'string' ? utf8(v) : v);
  const r = await x509KeyPair(new PkiContext(new Date(), new SignatureChecker()), bytes(certPem), bytes(keyPem));
  if (r.error !== undefined || !r.leaf) return { ok: false, error: r.error ?? 'tls: no certificate' };
  return { ok: true, value: { leaf: r.leaf } };
}

const ISTIO_SRC = {
  parse: 'security/pkg/pki/util/keycertbundle.go:342 (Verify)',
  chain: 'security/pkg/pki/util/keycertbundle.go:348 (Verify)',
  key: 'security/pkg/pki/util/keycertbundle.go:356 (Verify)',
  match: 'security/pkg/pki/util/keycertbundle.go:361 (Verify)',
  crl: 'security/pkg/pki/util/keycertbundle.go:366 (Verify)',
  isCA: 'security/pkg/pki/ca/ca.go:308 (NewPluggedCertIstioCAOptions)',
  ttl: 'security/pkg/pki/ca/ca.go:456 (NewIstioCA minTTL)',
  layout: 'pilot/pkg/bootstrap/istio_ca.go:229 (detectSigningCABundleAndCRL)',
  complete: 'pilot/pkg/bootstrap/istio_ca.go:501 (checkCABundleCompleteness)',
  workload: 'security/pkg/pki/util/verify_cert.go:44 (VerifyCertificate)',
};

export const FAILING_CHECK = {
  parse: 'signing cert parse (ParsePemEncodedCertificate)',
  chain: 'chain verification',
  key: 'key parse (ParsePemEncodedKey)',
  match: 'key/cert match (tls.X509KeyPair)',
  crl: 'CRL coverage (every cert in cert-chain.pem needs a CRL it signed)',
  isCA: 'signing cert must be a CA (NewPluggedCertIstioCAOptions; Go IsCA is false for v1 or non-CA certs)',
  ttl: 'first cert of the chain not expired (NewIstioCA minTTL)',
  workloadChain: 'chain verification (Go x509, as VerifyCertificate in verify_cert.go or a Go peer would)',
  workloadKey: 'key parse',
  workloadMatch: 'key/cert match',
} as const;

export interface KeyCertBundleInput {
  cert: Uint8Array;
  key: Uint8Array;
  /**
   * The key is not in the input (a share link removed it): why, e.g. "ca-key.pem was redacted
   * in this link". The key steps are skipped and say so; the other checks run as usual.
   */
  keyRedacted?: string;
  /** The chain files, concatenated byte for byte as istiod reads them. */
  chain: Uint8Array;
  root: Uint8Array;
  crl?: Uint8Array;
}

export interface KeyCertBundleResult {
  verdict: IstioVerdict;
  steps: CheckStep[];
  go?: GoVerifyResult;
  leaf?: Certificate;
  keyParses?: boolean;
  keyMatchesCert?: boolean;
  /** Go subject strings of cert-chain.pem certificates no CRL was signed by (when a CRL is given). */
  certsWithoutCrl?: string[];
  crls?: Crl[];
  /** Certificates of root-cert.pem Go could not use (skipped silently). */
  rootsIgnored: number;
}

function skipRest(steps: CheckStep[], names: string[]): void {
  for (const n of names) steps.push({ name: n, status: 'skipped', detail: 'skipped because an earlier step failed' });
}

/** security/pkg/pki/util/keycertbundle.go Verify, step by step. */
export async function keyCertBundleVerify(ctx: PkiContext, input: KeyCertBundleInput, usages: KeyUsageRequest[] = []): Promise<KeyCertBundleResult> {
  const steps: CheckStep[] = [];
  const roots = new CertPool();
  const rootRead = ctx.appendCertsFromPem(roots, input.root);
  const intermediates = new CertPool();
  ctx.appendCertsFromPem(intermediates, input.chain);
  const fail = (check: string, error: string): IstioVerdict => ({ ok: false, failingCheck: check, error });
  const later = ['chain verification', 'key parse', 'key matches the signing cert', 'CRL coverage'];

  const parsed = ctx.parsePemEncodedCertificate(input.cert);
  if (!parsed.cert) {
    const error = `failed to parse cert PEM: ${parsed.error}`;
    steps.push({
      name: 'signing cert parses',
      status: 'fail',
      detail: 'the first PEM block of the signing cert must be a certificate Go can parse',
      error,
      source: ISTIO_SRC.parse,
    });
    skipRest(steps, later);
    return { verdict: fail(FAILING_CHECK.parse, error), steps, rootsIgnored: rootRead.skipped };
  }
  const leaf = parsed.cert;
  steps.push({ name: 'signing cert parses', status: 'pass', detail: `first block: ${leaf.facts.subject || '(empty subject)'}`, source: ISTIO_SRC.parse });

  const go = await goVerify(leaf, { roots, intermediates, now: ctx.now, keyUsages: usages, signatures: ctx.signatures });
  await ctx.complete([[leaf], ...go.chains]);
  if (!go.ok) {
    const error = `cannot verify the cert with the provided root chain and cert pool with error: ${go.error}`;
    steps.push({
      name: 'chain verification',
      status: 'fail',
      detail: `Go verification against ${roots.size} root(s) and ${intermediates.size} chain certificate(s), usage serverAuth${rootRead.skipped ? `; ${rootRead.skipped} block(s) of the root file ignored by Go` : ''}`,
      error,
      source: ISTIO_SRC.chain,
    });
    skipRest(steps, later.slice(1));
    return { verdict: fail(FAILING_CHECK.chain, error), steps, go, leaf, rootsIgnored: rootRead.skipped };
  }
  steps.push({
    name: 'chain verification',
    status: 'pass',
    detail: `verified: ${go.chains[0]!.map((c) => c.facts.subjectCommonName ?? c.facts.subject).join(' → ')}`,
    source: ISTIO_SRC.chain,
  });

  // What the key steps established (nothing when the key was redacted and not read).
  let keyFacts: { keyParses?: boolean; keyMatchesCert?: boolean } = {};
  if (input.keyRedacted) {
    steps.push({ name: 'key parse', status: 'skipped', detail: `${input.keyRedacted}: the key is not in the input`, source: ISTIO_SRC.key });
    steps.push({ name: 'key matches the signing cert', status: 'skipped', detail: `not checked (${input.keyRedacted})`, source: ISTIO_SRC.match });
  } else {
    const key = parsePemEncodedKey(input.key);
    if (key.error) {
      const error = `failed to parse private key PEM: ${key.error}`;
      steps.push({ name: 'key parse', status: 'fail', detail: 'the key must be an EC, RSA or PKCS#8 PEM block', error, source: ISTIO_SRC.key });
      skipRest(steps, later.slice(2));
      return { verdict: fail(FAILING_CHECK.key, error), steps, go, leaf, keyParses: false, rootsIgnored: rootRead.skipped };
    }
    steps.push({ name: 'key parse', status: 'pass', detail: `${key.type}`, source: ISTIO_SRC.key });

    const pair = await x509KeyPair(ctx, input.cert, input.key);
    if (pair.error) {
      const error = `the cert does not match the key: ${pair.error}`;
      steps.push({ name: 'key matches the signing cert', status: 'fail', detail: 'tls.X509KeyPair(signing cert, key)', error, source: ISTIO_SRC.match });
      skipRest(steps, later.slice(3));
      return { verdict: fail(FAILING_CHECK.match, error), steps, go, leaf, keyParses: true, keyMatchesCert: false, rootsIgnored: rootRead.skipped };
    }
    steps.push({ name: 'key matches the signing cert', status: 'pass', detail: 'same public key (SPKI digest)', source: ISTIO_SRC.match });
    keyFacts = { keyParses: true, keyMatchesCert: true };
  }

  if (input.crl && input.crl.length > 0) {
    const signers: Certificate[] = [];
    for (const b of decodePemBundle(input.chain)) {
      const p = ctx.goParse(b.bytes);
      if (!p.cert) {
        const error = `failed to parse cert chain: ${p.error}`;
        steps.push({
          name: 'CRL coverage',
          status: 'fail',
          detail: 'with a CRL, every block of cert-chain.pem must be a certificate',
          error,
          source: ISTIO_SRC.crl,
        });
        return { verdict: fail(FAILING_CHECK.crl, error), steps, go, leaf, ...keyFacts, rootsIgnored: rootRead.skipped };
      }
      signers.push(p.cert);
    }
    const crls: Crl[] = [];
    for (const b of decodePemBundle(input.crl)) {
      try {
        crls.push(parseCrlDer(b.bytes));
      } catch (e) {
        const error = `failed to parse CRL PEM: ${(e as Error).message}`;
        steps.push({ name: 'CRL coverage', status: 'fail', detail: 'every block of ca-crl.pem must be a CRL', error, source: ISTIO_SRC.crl });
        return { verdict: fail(FAILING_CHECK.crl, error), steps, go, leaf, ...keyFacts, rootsIgnored: rootRead.skipped };
      }
    }
    const missing = new Map<string, Certificate>();
    for (const s of signers) missing.set(s.facts.subjectGo, s);
    for (const crl of crls) {
      for (const [subj, s] of [...missing]) if ((await crlSignedBy(ctx, crl, s)) === undefined) missing.delete(subj);
      if (missing.size === 0) break;
    }
    if (missing.size > 0) {
      const names = [...missing.keys()].sort();
      const error = `missing CRL signed by certificates: [${names.join(' ')}]`;
      steps.push({
        name: 'CRL coverage',
        status: 'fail',
        detail: `${crls.length} CRL(s); Go lists the subjects in random (map) order`,
        error,
        source: ISTIO_SRC.crl,
      });
      return { verdict: fail(FAILING_CHECK.crl, error), steps, go, leaf, ...keyFacts, certsWithoutCrl: names, crls, rootsIgnored: rootRead.skipped };
    }
    steps.push({
      name: 'CRL coverage',
      status: 'pass',
      detail: `every certificate of the chain signed one of the ${crls.length} CRL(s)`,
      source: ISTIO_SRC.crl,
    });
    return { verdict: { ok: true, failingCheck: null, error: null }, steps, go, leaf, ...keyFacts, certsWithoutCrl: [], crls, rootsIgnored: rootRead.skipped };
  }
  steps.push({ name: 'CRL coverage', status: 'skipped', detail: 'no CRL supplied' });
  return { verdict: { ok: true, failingCheck: null, error: null }, steps, go, leaf, ...keyFacts, rootsIgnored: rootRead.skipped };
}

/** The parent key types checkSignature has a case for, as Go's %T names them. */
const GO_CRL_SIGNER_KEYS: Record<string, string> = { RSA: '*rsa.PublicKey', EC: '*ecdsa.PublicKey', Ed25519: 'ed25519.PublicKey' };

/** Go's RevocationList.CheckSignatureFrom: the Go error, or undefined when the CA signed it. */
export async function crlSignedBy(ctx: PkiContext, crl: Crl, parent: Certificate): Promise<string | undefined> {
  const p = parent.facts;
  if ((p.version === 3 && !p.basicConstraints.present) || (p.basicConstraints.present && !p.basicConstraints.ca))
    return 'x509: invalid signature: parent certificate cannot sign this kind of certificate';
  if (p.keyUsage.present && p.keyUsage.usages.length > 0 && !p.keyUsage.usages.includes('cRLSign'))
    return 'x509: invalid signature: parent certificate cannot sign this kind of certificate';
  // A parent key Go does not know (PublicKeyAlgorithm unknown: all but RSA, ECDSA, Ed25519, DSA).
  const have = GO_CRL_SIGNER_KEYS[p.publicKey.type];
  if (!have && p.publicKey.type !== 'DSA') return 'x509: cannot verify signature: algorithm unimplemented';
  // checkSignature (x509.go): an algorithm that is not in signatureAlgorithmDetails (MD2,
  // SHA-224, Ed448) is unimplemented, MD5 insecure (SHA-1 is allowed for CRLs), then its key
  // switch has no case for a DSA key.
  const alg = SIGNATURE_ALGORITHMS[crl.facts.signatureAlgorithmOid];
  if (!alg || alg.hash === 'MD2' || alg.hash === 'SHA-224' || alg.key === 'Ed448') return 'x509: cannot verify signature: algorithm unimplemented';
  if (alg.hash === 'MD5') return `x509: cannot verify signature: insecure algorithm ${alg.go}`;
  if (!have) return 'x509: cannot verify signature: algorithm unimplemented';
  const r = await ctx.signatures.crl({ der: crl.der, sigOid: crl.facts.signatureAlgorithmOid }, parent);
  if (r.status === 'verified') return undefined;
  // signaturePublicKeyAlgoMismatchError, with Go's PublicKeyAlgorithm name and key type.
  if (r.status === 'key-type-mismatch')
    return `x509: signature algorithm specifies an ${alg.key === 'EC' ? 'ECDSA' : alg.key === 'RSA-PSS' ? 'RSA' : alg.key} public key, but have public key of type ${have}`;
  if (r.status === 'failed')
    return alg.key === 'EC'
      ? 'x509: ECDSA verification failure'
      : alg.key === 'Ed25519'
        ? 'x509: Ed25519 verification failure'
        : 'crypto/rsa: verification error';
  return r.reason ?? r.status;
}

export interface PluggedCaResult extends KeyCertBundleResult {
  load: IstioVerdict;
}

/**
 * istiod start-up with a plug-in CA: Verify (above), then the signing cert must be a CA
 * (NewPluggedCertIstioCAOptions), then the first certificate of the chain must not have
 * expired (NewIstioCA's minTTL).
 */
export async function pluggedCaLoad(ctx: PkiContext, input: KeyCertBundleInput): Promise<PluggedCaResult> {
  const r = await keyCertBundleVerify(ctx, input);
  if (!r.verdict.ok) {
    r.steps.push(
      { name: 'signing cert is a CA', status: 'skipped', detail: 'skipped because an earlier step failed' },
      { name: 'first chain certificate not expired', status: 'skipped', detail: 'skipped because an earlier step failed' },
    );
    return { ...r, load: r.verdict };
  }
  const first = ctx.parsePemEncodedCertificate(input.cert);
  if (!first.cert?.facts.isCA) {
    const error = first.error ?? 'certificate is not authorized to sign other certificates';
    r.steps.push({
      name: 'signing cert is a CA',
      status: 'fail',
      detail: first.cert
        ? `Go's IsCA is false (${first.cert.facts.version === 1 ? 'a v1 certificate' : first.cert.facts.basicConstraints.present ? 'BasicConstraints CA:FALSE' : 'no BasicConstraints'})`
        : 'the signing cert does not parse',
      error,
      source: ISTIO_SRC.isCA,
    });
    r.steps.push({ name: 'first chain certificate not expired', status: 'skipped', detail: 'skipped because an earlier step failed' });
    return { ...r, load: { ok: false, failingCheck: FAILING_CHECK.isCA, error } };
  }
  r.steps.push({ name: 'signing cert is a CA', status: 'pass', detail: 'BasicConstraints CA:TRUE', source: ISTIO_SRC.isCA });
  if (input.chain.length === 0) {
    r.steps.push({
      name: 'first chain certificate not expired',
      status: 'info',
      detail: 'no chain: the default workload TTL (24h) is not clamped',
      source: ISTIO_SRC.ttl,
    });
    return { ...r, load: { ok: true, failingCheck: null, error: null } };
  }
  const chainFirst = ctx.parsePemEncodedCertificate(input.chain);
  if (!chainFirst.cert) {
    const error = `failed to get default cert TTL failed to get cert chain TTL failed to extract cert expiration timestamp: failed to parse the cert: ${chainFirst.error}`;
    r.steps.push({
      name: 'first chain certificate not expired',
      status: 'fail',
      detail: 'the first block of the concatenated chain files does not parse',
      error,
      source: ISTIO_SRC.ttl,
    });
    return { ...r, load: { ok: false, failingCheck: FAILING_CHECK.ttl, error } };
  }
  const left = chainFirst.cert.notAfter.getTime() - ctx.now.getTime();
  if (left <= 0) {
    const error = 'failed to get default cert TTL cert chain has expired';
    r.steps.push({
      name: 'first chain certificate not expired',
      status: 'fail',
      detail: `expired ${chainFirst.cert.facts.notAfter}`,
      error,
      source: ISTIO_SRC.ttl,
    });
    return { ...r, load: { ok: false, failingCheck: FAILING_CHECK.ttl, error } };
  }
  const day = 86400000;
  r.steps.push({
    name: 'first chain certificate not expired',
    status: left < day ? 'warn' : 'pass',
    detail: left < day ? `expires in ${Math.round(left / 3600000)} h: workload certificates are clamped to that` : `${Math.floor(left / day)} days left`,
    source: ISTIO_SRC.ttl,
  });
  return { ...r, load: { ok: true, failingCheck: null, error: null } };
}

export interface WorkloadInput {
  /** The certificate file (its first block is the leaf). */
  cert: Uint8Array;
  key?: Uint8Array;
  /** Chain files (the leaf's own file may be among them). */
  chain: Uint8Array;
  /** Roots; undefined means none were given. */
  root?: Uint8Array;
  /** The key is not in the input (a share link removed it): why. The key check is skipped and says so. */
  keyRedacted?: string;
}

export interface WorkloadResult {
  verdict: IstioVerdict;
  steps: CheckStep[];
  go?: GoVerifyResult;
  leaf?: Certificate;
  keyParses?: boolean;
  keyMatchesCert?: boolean;
}

/** security/pkg/pki/util/verify_cert.go VerifyCertificate (any EKU), as a Go peer checks a workload. */
export async function workloadVerify(ctx: PkiContext, input: WorkloadInput): Promise<WorkloadResult> {
  const steps: CheckStep[] = [];
  const fail = (check: string, error: string): IstioVerdict => ({ ok: false, failingCheck: check, error });
  const roots = new CertPool();
  // `if rootCertPem != nil`: a root file that was given, even an empty one, must add a certificate.
  if (input.root !== undefined && ctx.appendCertsFromPem(roots, input.root).added === 0) {
    steps.push({
      name: 'roots parse',
      status: 'fail',
      detail: 'no certificate Go can use in the roots',
      error: 'failed to parse root certificate',
      source: ISTIO_SRC.workload,
    });
    return { verdict: fail('root parse', 'failed to parse root certificate'), steps };
  }
  const intermediates = new CertPool();
  if (ctx.appendCertsFromPem(intermediates, concatBytes(input.cert, new Uint8Array([10]), input.chain)).added === 0) {
    // intermediates.AppendCertsFromPEM(certChainPem) must add a certificate too.
    steps.push({
      name: 'leaf parses',
      status: 'fail',
      detail: 'no certificate Go can use in the certificate and chain files',
      error: 'failed to parse certificate chain',
      source: ISTIO_SRC.workload,
    });
    return { verdict: fail('leaf parse', 'failed to parse certificate chain'), steps };
  }
  const parsed = ctx.parsePemEncodedCertificate(input.cert);
  if (!parsed.cert) {
    steps.push({ name: 'leaf parses', status: 'fail', detail: 'the first block must be a certificate', error: parsed.error, source: ISTIO_SRC.workload });
    return { verdict: fail('leaf parse', parsed.error!), steps };
  }
  const leaf = parsed.cert;
  const go = await goVerify(leaf, { roots, intermediates, now: ctx.now, keyUsages: ['any'], signatures: ctx.signatures });
  await ctx.complete([[leaf], ...go.chains]);
  if (!go.ok) {
    const error = `failed to verify certificate: ${go.error}`;
    steps.push({
      name: 'chain verification',
      status: 'fail',
      detail: `Go verification against ${roots.size} root(s), any usage`,
      error,
      source: ISTIO_SRC.workload,
    });
    steps.push({ name: 'key matches the leaf', status: 'skipped', detail: 'skipped because an earlier step failed' });
    return { verdict: fail(FAILING_CHECK.workloadChain, error), steps, go, leaf };
  }
  steps.push({
    name: 'chain verification',
    status: 'pass',
    detail: `verified: ${go.chains[0]!.map((c) => c.facts.subjectCommonName ?? (c.facts.subject || '(empty subject)')).join(' → ')}`,
    source: ISTIO_SRC.workload,
  });
  if (input.key === undefined || input.keyRedacted) {
    steps.push({
      name: 'key matches the leaf',
      status: 'skipped',
      detail: input.keyRedacted ? `not checked (${input.keyRedacted})` : 'no private key supplied',
    });
    return { verdict: { ok: true, failingCheck: null, error: null }, steps, go, leaf };
  }
  const key = parsePemEncodedKey(input.key);
  if (key.error) {
    steps.push({ name: 'key matches the leaf', status: 'fail', detail: 'the key does not parse', error: key.error, source: ISTIO_SRC.workload });
    return { verdict: fail(FAILING_CHECK.workloadKey, key.error), steps, go, leaf, keyParses: false };
  }
  const facts = await privateKeyFacts(parsePrivateKeyDer(key.der!, key.type!));
  const certType = leaf.facts.publicKey.type;
  const keyType = facts.publicKey?.type;
  let error: string | undefined;
  if (!((certType === 'RSA' && keyType === 'RSA') || (certType === 'EC' && keyType === 'EC'))) error = 'algorithms for private key and cert do not match';
  else if (facts.publicKey!.spkiSha256 !== leaf.facts.publicKey.spkiSha256)
    error = certType === 'RSA' ? "the generated private RSA key and cert doesn't match" : "the generated private EC key and cert doesn't match";
  if (error) {
    steps.push({ name: 'key matches the leaf', status: 'fail', detail: 'the private key belongs to another certificate', error, source: ISTIO_SRC.workload });
    return { verdict: fail(FAILING_CHECK.workloadMatch, error), steps, go, leaf, keyParses: true, keyMatchesCert: false };
  }
  steps.push({ name: 'key matches the leaf', status: 'pass', detail: 'same public key (SPKI digest)', source: ISTIO_SRC.workload });
  return { verdict: { ok: true, failingCheck: null, error: null }, steps, go, leaf, keyParses: true, keyMatchesCert: true };
}

/** security/pkg/pki/util/crypto.go ParseRootCerts: how many roots the agent keeps, and why it dropped the rest. */
export function parseRootCerts(ctx: PkiContext, bytes: Uint8Array): { kept: Certificate[]; errors: string[] } {
  const kept: Certificate[] = [];
  const errors: string[] = [];
  // bytes.TrimSpace, then pem.Decode until the input is used up.
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  let rest = text.trim();
  while (rest.length > 0) {
    const r = decodePem(latin1Bytes(rest));
    if (!r.block) {
      errors.push('invalid PEM encoded certificate');
      return { kept, errors };
    }
    const p = ctx.goParse(r.block.bytes);
    if (p.cert) kept.push(p.cert);
    else errors.push(p.error ?? 'x509: malformed certificate');
    rest = r.rest;
  }
  if (kept.length === 0 && errors.length === 0) errors.push('failed to parse root certs from file');
  return { kept, errors };
}

function latin1Bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}
