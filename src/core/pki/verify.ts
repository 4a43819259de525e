// Go's crypto/x509 Certificate.Verify, which Istio runs for every chain it checks
// (keycertbundle.Verify, VerifyCertificate, istiod's peer checks), reproduced step by step
// because its exact behaviour — not RFC 5280's, not @peculiar/x509's X509ChainBuilder's —
// decides Istio's verdicts: candidate issuers by raw subject DER (AKI/SKI only order them),
// alreadyInChain by subject + key + SAN, CheckSignatureFrom's parent rules, isValid errors
// that replace the "unknown authority" error, the EKU filter (serverAuth by default), then the
// name constraints (DNS, URI host, IP), which Go 1.26 checks on each built chain after the EKUs.
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
const SIGNATURE_LIMIT = 'x509: signature check attempts limit reached while verifying certificate chain';

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
  if (now.getTime() < c.notBefore.getTime())
    return `x509: certificate has expired or is not yet valid: current time ${goTime(now)} is before ${rfc3339(c.facts.notBefore)}`;
  if (now.getTime() > c.notAfter.getTime())
    return `x509: certificate has expired or is not yet valid: current time ${goTime(now)} is after ${rfc3339(c.facts.notAfter)}`;
  if (certType === 'intermediate' && !(bcValid(c) && c.facts.basicConstraints.ca)) return 'x509: certificate is not authorized to sign other certificates';
  if (bcValid(c) && c.facts.basicConstraints.pathLen !== null) {
    const numIntermediates = chain.length - 1;
    if (numIntermediates > c.facts.basicConstraints.pathLen) return 'x509: too many intermediates for path length constraint';
  }
  return undefined;
}

/** Go's dnsHasSuffix (constraints.go): case-insensitive suffix on a label boundary; a leading `.` means subdomains only. */
function dnsHasSuffix(constraint: string, name: string): boolean {
  const a = constraint.toLowerCase();
  const b = name.toLowerCase();
  if (a.length > b.length || !b.endsWith(a)) return false;
  return a.startsWith('.') || b.length === a.length || b[b.length - a.length - 1] === '.';
}

/** Go's trimFirstLabel: from the first dot on (`a.b.c` → `.b.c`), or '' for a single label. */
function trimFirstLabel(name: string): string {
  const i = name.indexOf('.');
  return i < 0 ? '' : name.slice(i);
}

/** Go's dnsConstraints.query: the matching constraint, or undefined. An empty constraint matches everything. */
function queryDns(constraints: string[], name: string, permitted: boolean): string | undefined {
  if (constraints.includes('')) return '';
  const hit = constraints.find((c) => dnsHasSuffix(c, name));
  if (hit !== undefined) return hit;
  // Excluded subtrees only: a wildcard SAN is excluded when it could stand for an excluded host.
  if (!permitted && name.startsWith('*')) {
    const trimmed = trimFirstLabel(name.toLowerCase());
    let found: string | undefined;
    for (const c of constraints) {
      const t = trimFirstLabel(c.toLowerCase());
      if (t !== '' && t === trimmed) found = c.toLowerCase();
    }
    return found;
  }
  return undefined;
}

/** IPv4 (4 bytes) or IPv6 (16 bytes) from text; undefined when it is neither. */
function ipBytes(text: string): number[] | undefined {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) {
    const parts = text.split('.').map(Number);
    return parts.every((n) => n <= 255) ? parts : undefined;
  }
  if (!text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - left.length - right.length : 0;
  if (fill < 0) return undefined;
  const all = [...left, ...Array<string>(fill).fill('0'), ...right];
  if (all.length !== 8 || !all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  return all.flatMap((g) => {
    const v = parseInt(g, 16);
    return [v >> 8, v & 0xff];
  });
}

/** Go's ipConstraints.query: IPv4 SANs against IPv4 ranges, IPv6 against IPv6 (net.IPNet.Contains). */
function queryIp(constraints: string[], ip: number[]): string | undefined {
  return constraints.find((c) => {
    const [addr, prefixText] = c.split('/');
    const net = ipBytes(addr ?? '');
    const prefix = Number(prefixText);
    if (!net || net.length !== ip.length || !Number.isInteger(prefix)) return false;
    for (let bit = 0; bit < prefix; bit++) {
      const m = 0x80 >> (bit & 7);
      if ((net[bit >> 3]! & m) !== (ip[bit >> 3]! & m)) return false;
    }
    return true;
  });
}

/** Go's parseURIs (constraints.go): the lower-cased host a URI SAN is matched by, or the error. */
function uriHost(uri: string): { host?: string; error?: string } {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(uri);
  const rest = scheme ? uri.slice(scheme[0].length) : uri;
  let host = '';
  if (rest.startsWith('//')) {
    const auth = rest.slice(2);
    const end = auth.search(/[/?#]/);
    const authority = end < 0 ? auth : auth.slice(0, end);
    host = authority.slice(authority.lastIndexOf('@') + 1).toLowerCase();
  }
  if (host === '') return { error: `URI with empty host (${quoteGo(uri)}) cannot be matched against constraints` };
  if (host.includes(':') && !host.endsWith(']')) host = host.slice(0, host.lastIndexOf(':'));
  if (ipBytes(host) || (host.startsWith('[') && host.endsWith(']'))) return { error: `URI with IP (${quoteGo(uri)}) cannot be matched against constraints` };
  return { host };
}

type ConstraintLists = Record<'permitted' | 'excluded', Record<'dns' | 'uri' | 'ip', string[]>>;

function constraintLists(ca: Certificate): ConstraintLists {
  const lists: ConstraintLists = { permitted: { dns: [], uri: [], ip: [] }, excluded: { dns: [], uri: [], ip: [] } };
  for (const line of ca.facts.nameConstraints.text) {
    const m = /^(Permitted|Excluded): (DNS|URI|IP Address):(.*)$/.exec(line);
    if (!m) continue;
    const kind = m[2] === 'DNS' ? 'dns' : m[2] === 'URI' ? 'uri' : 'ip';
    lists[m[1] === 'Permitted' ? 'permitted' : 'excluded'][kind].push(m[3]!);
  }
  return lists;
}

/** The URI SANs of a certificate with their hosts (Go's parseURIs), or parseURIs' error. */
function sanUris(cert: Certificate): { uris: Array<{ uri: string; host: string }>; error?: string } {
  const uris: Array<{ uri: string; host: string }> = [];
  for (const uri of cert.facts.subjectAltName.uri) {
    const u = uriHost(uri);
    if (u.error !== undefined) return { uris, error: u.error };
    uris.push({ uri, host: u.host! });
  }
  return { uris };
}

/**
 * Go's chainConstraints.check (constraints.go) of one certificate's SANs against one CA's
 * constraints: IP addresses, then DNS names, then URI hosts, each against the constraints of
 * its own type. The detail of Go's error, or undefined. (rfc822Name constraints are not checked.)
 */
function sanViolation(lists: ConstraintLists, cert: Certificate, uris: Array<{ uri: string; host: string }>): string | undefined {
  const check = (
    type: string,
    shown: string,
    query: (l: string[], permitted: boolean) => string | undefined,
    kind: 'dns' | 'uri' | 'ip',
  ): string | undefined => {
    if (lists.permitted[kind].length > 0 && query(lists.permitted[kind], true) === undefined)
      return `${type} ${quoteGo(shown)} is not permitted by any constraint`;
    if (lists.excluded[kind].length > 0) {
      const hit = query(lists.excluded[kind], false);
      if (hit !== undefined) return `${type} ${quoteGo(shown)} is excluded by constraint ${quoteGo(hit)}`;
    }
    return undefined;
  };
  const san = cert.facts.subjectAltName;
  for (const ip of san.ip) {
    const bytes = ipBytes(ip);
    if (!bytes) continue;
    const err = check('IP address', ip, (l) => queryIp(l, bytes), 'ip');
    if (err) return err;
  }
  for (const dns of san.dns) {
    const err = check('DNS name', dns, (l, p) => queryDns(l, dns, p), 'dns');
    if (err) return err;
  }
  for (const { uri, host } of uris) {
    const err = check('URI', uri, (l, p) => queryDns(l, host, p), 'uri');
    if (err) return err;
  }
  return undefined;
}

const NAME_CONSTRAINT_ERROR = 'x509: a root or intermediate certificate is not authorized to sign for this name: ';

/**
 * Go's checkChainConstraints (constraints.go), run by Verify on every candidate chain after
 * the EKU check: each certificate carrying a SAN extension against the name constraints of
 * every CA above it in the chain (nearest first). Go's full error text, or undefined.
 */
export function goChainConstraintsError(chain: Certificate[]): string | undefined {
  const constrained = chain.flatMap((c, j) => (c.facts.nameConstraints.present ? [{ j, lists: constraintLists(c) }] : []));
  if (constrained.length === 0) return undefined;
  for (let i = 0; i < chain.length; i++) {
    const cert = chain[i]!;
    if (cert.sanDer === null) continue;
    const above = constrained.filter((x) => x.j > i);
    if (above.length === 0) return undefined;
    const { uris, error } = sanUris(cert);
    if (error !== undefined) return NAME_CONSTRAINT_ERROR + error;
    for (const x of above) {
      const err = sanViolation(x.lists, cert, uris);
      if (err) return NAME_CONSTRAINT_ERROR + err;
    }
  }
  return undefined;
}

/** The name constraints of one CA over the certificates below it (the link view's check). */
export function goNameConstraintsError(ca: Certificate, below: Certificate[]): string | undefined {
  if (!ca.facts.nameConstraints.present) return undefined;
  const lists = constraintLists(ca);
  for (const cert of below) {
    if (cert.sanDer === null) continue;
    const { uris, error } = sanUris(cert);
    if (error !== undefined) return NAME_CONSTRAINT_ERROR + error;
    const err = sanViolation(lists, cert, uris);
    if (err) return NAME_CONSTRAINT_ERROR + err;
  }
  return undefined;
}

/**
 * A key Go's parser leaves nil: getPublicKeyAlgorithmFromOID (x509.go) knows only rsaEncryption,
 * DSA, ecPublicKey and Ed25519, so an RSASSA-PSS, X25519, X448, Ed448 or unknown SPKI is
 * UnknownPublicKeyAlgorithm and cert.PublicKey stays nil (parser.go).
 */
function goUnknownKey(c: Certificate): boolean {
  const t = c.facts.publicKey.type;
  return t === 'unknown' || t === 'RSA-PSS' || t === 'X25519' || t === 'X448' || t === 'Ed448';
}

/**
 * Go's CheckSignatureFrom: the parent's right to sign (v3 without BasicConstraints, cA
 * false, or a KeyUsage without keyCertSign refuse it), Go's algorithm policy (SHA-1 and MD5
 * are insecure, RSA under 1024 bits too), then the signature. The Go error, or undefined.
 */
export async function goCheckSignatureFrom(
  child: Certificate,
  parent: Certificate,
  signatures: SignatureChecker,
): Promise<{ error?: string; signature?: SignatureResult }> {
  const p = parent.facts;
  if ((p.version === 3 && !p.basicConstraints.present) || (p.basicConstraints.present && !p.basicConstraints.ca))
    return { error: 'x509: invalid signature: parent certificate cannot sign this kind of certificate' };
  if (p.keyUsage.present && p.keyUsage.usages.length > 0 && !p.keyUsage.usages.includes('keyCertSign'))
    return { error: 'x509: invalid signature: parent certificate cannot sign this kind of certificate' };
  if (goUnknownKey(parent)) return { error: 'x509: cannot verify signature: algorithm unimplemented' };
  const alg = SIGNATURE_ALGORITHMS[child.facts.signatureAlgorithmOid];
  // MD2 is not in Go's signatureAlgorithmDetails: an MD2 certificate parses as
  // UnknownSignatureAlgorithm, which checkSignature refuses as unimplemented (x509.go:992-996).
  if (!alg || alg.hash === 'MD2') return { error: 'x509: cannot verify signature: algorithm unimplemented' };
  if (alg.hash === 'SHA-1' || alg.hash === 'MD5') return { error: `x509: cannot verify signature: insecure algorithm ${alg.go}` };
  // checkSignature's key switch has no *dsa.PublicKey case: a DSA parent ends in ErrUnsupportedAlgorithm.
  if (p.publicKey.type === 'DSA') return { error: 'x509: cannot verify signature: algorithm unimplemented' };
  const signature = await signatures.certificate(child, parent);
  if (signature.status === 'key-type-mismatch') {
    const want = alg.key === 'EC' ? 'ECDSA' : alg.key === 'RSA-PSS' ? 'RSA' : alg.key;
    const have =
      p.publicKey.type === 'EC'
        ? '*ecdsa.PublicKey'
        : p.publicKey.type === 'RSA'
          ? '*rsa.PublicKey'
          : p.publicKey.type === 'Ed25519'
            ? 'ed25519.PublicKey'
            : p.publicKey.type;
    return { error: `x509: signature algorithm specifies an ${want} public key, but have public key of type ${have}`, signature };
  }
  if (p.publicKey.type === 'RSA' && p.publicKey.bits < 1024)
    return { error: `crypto/rsa: ${p.publicKey.bits}-bit keys are insecure (see https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_size)`, signature };
  if (signature.status === 'verified') return { signature };
  if (signature.status === 'unverifiable') return { error: `(not checked: ${signature.reason})`, signature };
  const failure =
    alg.key === 'EC' ? 'x509: ECDSA verification failure' : alg.key === 'Ed25519' ? 'x509: Ed25519 verification failure' : 'crypto/rsa: verification error';
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
    // verify.go considerCandidate: the count goes up before the nil-key and alreadyInChain
    // skips, so skipped candidates use up the budget too.
    st.sigChecks++;
    if (st.sigChecks > MAX_SIGNATURE_CHECKS) {
      err = SIGNATURE_LIMIT;
      trace.outcome = err;
      return;
    }
    if (goUnknownKey(candidate)) {
      trace.outcome = 'skipped: Go does not parse its public key (candidate.cert.PublicKey == nil)';
      return;
    }
    if (alreadyInChain(candidate, current)) {
      trace.outcome = 'skipped: already in the chain (same subject, key and SANs)';
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
  // verify.go candidateLoop: roots, then intermediates; the signature limit ends the loop.
  const candidates = [
    ...st.opts.roots.potentialParents(c).map((p) => ['root', p] as const),
    ...st.opts.intermediates.potentialParents(c).map((p) => ['intermediate', p] as const),
  ];
  for (const [certType, candidate] of candidates) {
    await consider(certType, candidate);
    if (err === SIGNATURE_LIMIT) break;
  }
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
      // Only an equal usage counts (Go 1.26 dropped the SGC-as-serverAuth exception).
      if (known.includes(oid)) continue;
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
  // Go 1.26 Verify (verify.go:622-650): each candidate chain must pass the EKU check (unless
  // ExtKeyUsageAny was asked for), then the name constraints; the first name-constraint error
  // wins over "incompatible key usage".
  const anyUsage = opts.keyUsages.includes('any');
  const usages = (opts.keyUsages.length === 0 ? ['serverAuth'] : opts.keyUsages.filter((u) => u !== 'any')) as Exclude<KeyUsageRequest, 'any'>[];
  let constraintsErr: string | undefined;
  const chains = candidates.filter((ch) => {
    if (!anyUsage && !chainAllowsUsages(ch, usages)) return false;
    const nc = goChainConstraintsError(ch);
    if (nc !== undefined) {
      constraintsErr ??= nc;
      return false;
    }
    return true;
  });
  if (chains.length === 0) return fail(constraintsErr ?? 'x509: certificate specifies an incompatible key usage', candidates);
  return { ok: true, error: null, chains, candidateChains: candidates, trace };
}
