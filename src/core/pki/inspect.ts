// One inspection: decoded inputs → every certificate, key, CRL and CSR with where it came
// from, the issuer relations (names and WebCrypto signatures), the scenarios Istio would
// see (plug-in CA, self-signed CA, gateway credential, workload files, trust bundles, dumps,
// remote secrets) with Istio's checks in Istio's order, the chains as Go builds them, the
// lints, and istioctl's tables. The result is plain data (report.ts).
import { concatBytes, utf8 } from './bytes.ts';
import type { Certificate } from './cert.ts';
import { completeCertificate } from './digest.ts';
import { decodeInputs, isRedactedInLink, originLabel, type Artefact, type Decoded, type InputFile, type KubeObject, type Origin, type Value } from './input.ts';
import { crlSignedBy, keyCertBundleVerify, PkiContext, pluggedCaLoad, workloadVerify, x509KeyPair, type CheckStep } from './istio.ts';
import { privateKeyFacts, type PrivateKeyFacts } from './keys.ts';
import { bundleOrder, LINTS, lintCertificate, type CertRole, type Finding, type Profile } from './lints.ts';
import { encodePem } from './pem.ts';
import { opensslVerify } from './openssl.ts';
import { SignatureChecker } from './sig.ts';
import { CertPool, chainAllowsUsages, goNameConstraintsError, goVerify, type GoVerifyResult, type KeyUsageRequest } from './verify.ts';
import { extractCertInfo, extractRoot, validateCertificateChain, type SecretData } from './credential.ts';
import { spiffeHost, trustDomainAccepted } from './spiffe.ts';
import type { Crl, Csr } from './crl.ts';
import { istioctlSecretTables, ztunnelTables } from './tables.ts';
import type { BundleView, CertsReport, CertView, ChainLink, ChainView, CrlView, CsrView, KeyView, LinkCheck, ProblemView, RemoteView, ReportOrigin, ScenarioView } from './report.ts';
import { mapAt } from '../model/maps.ts';

export interface GatewayServerContext {
  index: number;
  hosts: string[];
  credentialName: string;
  mode: string;
}

/** A Gateway (or DestinationRule) of the workspace whose credentialName points at a Secret. */
export interface CredentialUser {
  kind: 'Gateway' | 'DestinationRule';
  namespace: string;
  name: string;
  /** Where istiod looks the Secret up (the gateway workload's namespace). */
  secretNamespace: string;
  servers: GatewayServerContext[];
  input?: string;
  line?: number;
}

export interface InspectOptions {
  now?: Date;
  trustDomain?: string;
  aliases?: string[];
  profile?: Profile;
  /** Gateways and DestinationRules that reference Secrets by credentialName. */
  credentialUsers?: CredentialUser[];
  /** Detect Istio scenarios and build their chains (default true); false: facts and relations only. */
  scenarios?: boolean;
}

interface CertEntry {
  cert: Certificate;
  occurrences: ReportOrigin[];
  roles: Set<CertRole>;
  issuers: Array<{ cert: Certificate; status: string }>;
  findings: Finding[];
}

interface KeyEntry {
  id: string;
  origin: ReportOrigin;
  facts: PrivateKeyFacts | null;
  state: string | null;
  size: number;
  pemType: string | null;
}

const DAY = 86400000;

function reportOrigin(o: Origin, a?: { block: number | null; offset: number | null }): ReportOrigin {
  const label = originLabel(o) + (a && a.block !== null ? ` › block ${a.block}` : '');
  const r: ReportOrigin = { label, input: o.input, path: o.path };
  if (o.object) r.object = { ...o.object };
  if (o.key !== undefined) r.key = o.key;
  if (o.line !== undefined) r.line = o.line;
  if (a) {
    r.block = a.block;
    r.offset = a.offset;
  }
  return r;
}

/** "in 3 days", "2 years ago". */
export function humanSpan(ms: number): string {
  const abs = Math.abs(ms);
  const unit = abs >= 365 * DAY ? [365 * DAY, 'year'] : abs >= 30 * DAY ? [30 * DAY, 'month'] : abs >= DAY ? [DAY, 'day'] : abs >= 3600000 ? [3600000, 'hour'] : [60000, 'minute'];
  const n = Math.floor(abs / (unit[0] as number));
  const text = `${n} ${unit[1]}${n === 1 ? '' : 's'}`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

/** A key's state when a share link removed it (Envoy's own redaction is `redacted`). */
export const KEY_REDACTED_IN_LINK = 'redacted-in-link';

/** What stands for a value a share link removed, in step details and verdicts. */
function redactedWhat(v: Value): string {
  return `${v.origin.key ?? v.origin.input} was redacted in this link`;
}

/** A value name that holds a private key (`ca-key.pem`, `tls.key`, `key`, `client-key-data`). */
function keyName(name: string | undefined): boolean {
  return !!name && /(^|[-_./])key($|[-_.])|\.key$|-key\.pem$/i.test(name);
}

function keyMask(pemType: string | null, size: number): string {
  return `${pemType ? `-----BEGIN ${pemType}----- ` : ''}•••••••• (${size.toLocaleString('en-US')} bytes, masked)`;
}

class Inspection {
  readonly ctx: PkiContext;
  readonly certs = new Map<string, CertEntry>();
  readonly keys: KeyEntry[] = [];
  readonly crls: Array<{ crl: Crl; origin: ReportOrigin; id: string }> = [];
  readonly csrs: Array<{ csr: Csr; origin: ReportOrigin; id: string }> = [];
  readonly scenarios: ScenarioView[] = [];
  readonly chains: ChainView[] = [];
  readonly findings: Finding[] = [];
  readonly bundles: BundleView[] = [];
  /** Values some scenario has accounted for (their leaves get no generic chain). */
  readonly covered = new Set<Value>();
  /** Values a share link redacted that are listed among the keys (each once). */
  private readonly redactedKeys = new Set<Value>();
  private chainCount = 0;

  constructor(
    readonly decoded: Decoded,
    readonly opts: Required<Omit<InspectOptions, 'credentialUsers' | 'scenarios'>> & { credentialUsers: CredentialUser[] },
  ) {
    this.ctx = new PkiContext(opts.now, new SignatureChecker());
  }

  entry(c: Certificate): CertEntry {
    const e = this.certs.get(c.facts.sha256FingerprintHex);
    if (!e) throw new Error('certificate not registered');
    return e;
  }

  certsOf(v: Value | undefined): Certificate[] {
    if (!v) return [];
    return v.artefacts.filter((a): a is Extract<Artefact, { kind: 'certificate' }> => a.kind === 'certificate').map((a) => this.ctx.adopt(a.cert));
  }

  role(v: Value | undefined, role: CertRole, which: 'all' | 'first' = 'all'): void {
    const list = this.certsOf(v);
    for (const c of which === 'first' ? list.slice(0, 1) : list) this.certs.get(c.facts.sha256FingerprintHex)?.roles.add(role);
  }

  finding(id: string, severity: Finding['severity'], message: string, subject: Finding['subject']): void {
    this.findings.push({ id, severity, message, subject });
  }

  /**
   * A private key a share link removed (the value is its marker, or a PEM text the key was cut
   * from): listed among the keys as redacted in this link, once per value.
   */
  redactedKey(v: Value, count = 1): void {
    if (this.redactedKeys.has(v)) return;
    this.redactedKeys.add(v);
    const origin = reportOrigin(v.origin);
    for (let i = 0; i < count; i++) this.keys.push({ id: `key-${this.keys.length + 1}`, origin, facts: null, state: KEY_REDACTED_IN_LINK, size: 0, pemType: null });
  }

  async collect(): Promise<void> {
    for (const v of this.decoded.values) {
      for (const a of v.artefacts) {
        const origin = reportOrigin(v.origin, a);
        if (a.kind === 'certificate') {
          const c = this.ctx.adopt(a.cert);
          await completeCertificate(c, this.ctx.signatures);
          let e = this.certs.get(c.facts.sha256FingerprintHex);
          if (!e) this.certs.set(c.facts.sha256FingerprintHex, (e = { cert: c, occurrences: [], roles: new Set(), issuers: [], findings: [] }));
          e.occurrences.push(origin);
        } else if (a.kind === 'private-key') {
          let facts: PrivateKeyFacts | null = null;
          try {
            facts = await privateKeyFacts(a.key);
          } catch {
            facts = null;
          }
          this.keys.push({ id: `key-${this.keys.length + 1}`, origin, facts, state: facts?.publicKey ? null : 'unsupported', size: a.key.der.length, pemType: a.pemType });
        } else if (a.kind === 'encrypted-key') {
          this.keys.push({ id: `key-${this.keys.length + 1}`, origin, facts: null, state: a.reason === 'encrypted private key' ? 'encrypted' : 'unsupported', size: 0, pemType: a.pemType });
          this.finding(a.reason === 'encrypted private key' ? 'KEY_ENCRYPTED' : 'KEY_UNSUPPORTED_PEM_TYPE', 'error', `${origin.label}: ${a.reason}; Istio cannot read it`, { kind: 'key', id: `key-${this.keys.length}`, label: origin.label });
        } else if (a.kind === 'crl') this.crls.push({ crl: a.crl, origin, id: `crl-${this.crls.length + 1}` });
        else if (a.kind === 'csr') this.csrs.push({ csr: a.csr, origin, id: `csr-${this.csrs.length + 1}` });
      }
      if (v.encoding === 'redacted') {
        const origin = reportOrigin(v.origin);
        this.keys.push({ id: `key-${this.keys.length + 1}`, origin, facts: null, state: 'redacted', size: 0, pemType: null });
      }
      // Keys a share link removed: a marker under a key's name, or key blocks cut from a PEM text.
      if (v.keysRedactedInLink) this.redactedKey(v, v.keysRedactedInLink);
      else if (isRedactedInLink(v) && keyName(v.origin.key ?? v.origin.path[v.origin.path.length - 1] ?? v.origin.input)) this.redactedKey(v);
    }
    // Issuers among the inputs: same name, and the signature verifies.
    const bySubject = new Map<string, Certificate[]>();
    for (const { cert } of this.certs.values()) {
      const k = nameKey(cert.subjectDer);
      bySubject.set(k, [...(bySubject.get(k) ?? []), cert]);
    }
    for (const e of this.certs.values()) {
      for (const p of bySubject.get(nameKey(e.cert.issuerDer)) ?? []) {
        if (p === e.cert) continue;
        const s = await this.ctx.signatures.certificate(e.cert, p);
        e.issuers.push({ cert: p, status: s.status });
      }
    }
  }

  /** Whether `issuer`'s key signed `child` (names match and the signature verifies). */
  issued(issuer: Certificate, child: Certificate): boolean {
    const e = this.certs.get(child.facts.sha256FingerprintHex);
    return !!e?.issuers.some((i) => i.cert === issuer && i.status === 'verified');
  }

  /** The certificates of the input that signed `c`. */
  certsOfIssuers(c: Certificate): Certificate[] {
    return (this.certs.get(c.facts.sha256FingerprintHex)?.issuers ?? []).filter((i) => i.status === 'verified').map((i) => i.cert);
  }

  allCerts(): Certificate[] {
    return [...this.certs.values()].map((e) => e.cert);
  }

  /** Self-signed CAs of the input and every certificate of a trust bundle value. */
  trustAnchors(): Certificate[] {
    const out = new Set<Certificate>();
    for (const e of this.certs.values()) if (e.cert.facts.selfSigned || e.roles.has('trust-bundle') || e.roles.has('root')) out.add(e.cert);
    return [...out];
  }

  // ---- chains ------------------------------------------------------------------------

  async chain(leaf: Certificate, title: string, roots: Certificate[], intermediates: Certificate[], usages: KeyUsageRequest[], go?: GoVerifyResult): Promise<ChainView> {
    const rootPool = new CertPool(roots);
    const interPool = new CertPool(intermediates);
    const result = go ?? (await goVerify(leaf, { roots: rootPool, intermediates: interPool, now: this.ctx.now, keyUsages: usages, signatures: this.ctx.signatures }));
    await this.ctx.complete(result.chains);
    for (const c of result.chains.flat()) this.register(c);
    this.register(leaf);
    let path: Certificate[];
    if (result.chains.length > 0) path = result.chains[0]!;
    else {
      // The best partial path: follow verified issuers (then any same-name candidate).
      path = [leaf];
      for (let guard = 0; guard < 10; guard++) {
        const cur = path[path.length - 1]!;
        if (cur.facts.selfSigned) break;
        const e = this.certs.get(cur.facts.sha256FingerprintHex);
        const next = e?.issuers.find((i) => i.status === 'verified' && !path.includes(i.cert))?.cert ?? e?.issuers.find((i) => !path.includes(i.cert))?.cert;
        if (!next) break;
        path.push(next);
      }
    }
    const links: ChainLink[] = [];
    for (let i = 0; i + 1 < path.length; i++) links.push(await this.link(path[i]!, path[i + 1]!, path, i, usages, rootPool));
    const top = path[path.length - 1]!;
    const trusted = rootPool.contains(top);
    const openssl = await opensslVerify(leaf, roots, [...intermediates], this.ctx.now, this.ctx.signatures);
    const view: ChainView = {
      id: `chain-${++this.chainCount}`,
      title,
      path: path.map((c) => c.facts.sha256FingerprintHex),
      links,
      go: { ok: result.ok, error: result.error, usages: usages.length === 0 ? ['serverAuth'] : usages },
      openssl,
      anchor: { id: top.facts.sha256FingerprintHex, trusted, where: trusted ? this.entry(top).occurrences[0]?.label : undefined },
      roots: roots.map((r) => r.facts.sha256FingerprintHex),
    };
    if (openssl.ok !== result.ok) view.opensslNote = opensslNote(leaf, openssl.error?.code, result);
    this.chains.push(view);
    this.chainFindings(view, leaf, result, path, trusted);
    return view;
  }

  private register(c: Certificate): void {
    if (!this.certs.has(c.facts.sha256FingerprintHex)) this.certs.set(c.facts.sha256FingerprintHex, { cert: c, occurrences: [], roles: new Set(), issuers: [], findings: [] });
  }

  private async link(child: Certificate, parent: Certificate, path: Certificate[], i: number, usages: KeyUsageRequest[], roots: CertPool): Promise<ChainLink> {
    const checks: LinkCheck[] = [];
    const cf = child.facts;
    const pf = parent.facts;
    const nameOk = nameKey(child.issuerDer) === nameKey(parent.subjectDer);
    checks.push(
      nameOk
        ? { name: 'name', status: 'ok', detail: `issuer = subject (${pf.subject || '(empty)'})` }
        : cf.issuer === pf.subject
          ? { name: 'name', status: 'fail', detail: 'the names are equal as text but encoded differently: Go will not link them' }
          : { name: 'name', status: 'fail', detail: `issuer "${cf.issuer}" ≠ subject "${pf.subject}"` },
    );
    const aki = cf.authorityKeyIdentifier;
    const ski = pf.subjectKeyIdentifier;
    checks.push(!aki || !ski ? { name: 'AKI/SKI', status: 'info', detail: `${!aki ? 'no AKI on the child' : 'no SKI on the issuer'}` } : aki === ski ? { name: 'AKI/SKI', status: 'ok', detail: `AKI = SKI ${aki}` } : { name: 'AKI/SKI', status: 'warn', detail: `AKI ${aki} ≠ SKI ${ski} (Go still links them; AKI_SKI_MISMATCH)` });
    const sig = await this.ctx.signatures.certificate(child, parent);
    const insecure = /sha1|md5|md2/i.test(cf.signatureAlgorithm) && !parent.facts.selfSigned ? true : /sha1|md5|md2/i.test(cf.signatureAlgorithm);
    checks.push(
      sig.status === 'verified'
        ? insecure
          ? { name: 'signature', status: 'fail', detail: `verifies, but ${cf.signatureAlgorithm} is insecure for Go (refused)` }
          : { name: 'signature', status: 'ok', detail: `${cf.signatureAlgorithm} verified with the issuer key` }
        : sig.status === 'unverifiable'
          ? { name: 'signature', status: 'warn', detail: sig.reason ?? 'not verifiable in the browser' }
          : { name: 'signature', status: 'fail', detail: sig.reason ?? 'does not verify' },
    );
    const isAnchor = i + 1 === path.length - 1 && roots.contains(parent);
    const mayProblems: string[] = [];
    if (pf.version === 3 && !pf.basicConstraints.present) mayProblems.push('v3 without BasicConstraints');
    if (pf.basicConstraints.present && !pf.basicConstraints.ca) mayProblems.push('BasicConstraints CA:FALSE');
    if (pf.keyUsage.present && pf.keyUsage.usages.length > 0 && !pf.keyUsage.usages.includes('keyCertSign')) mayProblems.push('KeyUsage without keyCertSign');
    if (!isAnchor && !pf.isCA) mayProblems.push(pf.version === 1 ? 'a v1 certificate used as an intermediate' : 'not a CA, used as an intermediate');
    checks.push(mayProblems.length === 0 ? { name: 'issuer may sign', status: 'ok', detail: pf.version === 1 ? 'v1 trust anchor (accepted by Go as a root)' : 'CA:TRUE' + (pf.keyUsage.present ? ', keyCertSign' : '') } : { name: 'issuer may sign', status: 'fail', detail: mayProblems.join('; ') });
    const now = this.ctx.now.getTime();
    const inWindow = (c: Certificate) => now >= c.notBefore.getTime() && now <= c.notAfter.getTime();
    const validity: string[] = [];
    let vStatus: LinkCheck['status'] = 'ok';
    if (!inWindow(child)) {
      validity.push(`the child is ${now > child.notAfter.getTime() ? 'expired' : 'not yet valid'}`);
      vStatus = 'fail';
    }
    if (!inWindow(parent)) {
      validity.push(`the issuer is ${now > parent.notAfter.getTime() ? 'expired' : 'not yet valid'}`);
      vStatus = 'fail';
    }
    if (parent.notAfter.getTime() < child.notAfter.getTime()) {
      validity.push(`the issuer expires (${pf.notAfter}) before the child (${cf.notAfter})`);
      if (vStatus === 'ok') vStatus = 'warn';
    }
    if (child.notBefore.getTime() < parent.notBefore.getTime()) validity.push('the child is valid from before its issuer');
    checks.push({ name: 'validity', status: vStatus, detail: validity.length ? validity.join('; ') : `both valid at ${this.opts.now.toISOString().replace(/\.\d{3}Z$/, 'Z')}` });
    if (pf.basicConstraints.pathLen !== null) {
      const below = i; // intermediates between the leaf and this issuer
      checks.push(below > pf.basicConstraints.pathLen ? { name: 'path length', status: 'fail', detail: `${below} intermediate(s) below a CA with pathLen ${pf.basicConstraints.pathLen}` } : { name: 'path length', status: 'ok', detail: `${below} ≤ pathLen ${pf.basicConstraints.pathLen}` });
    }
    if (pf.nameConstraints.present) {
      const err = goNameConstraintsError(parent, path.slice(0, i + 1));
      checks.push({ name: 'name constraints', status: err ? 'fail' : 'ok', detail: err ?? pf.nameConstraints.text.join('; ') });
    }
    const below = path.slice(0, i + 1);
    const wanted = (usages.includes('any') ? [] : usages.length === 0 ? ['serverAuth'] : usages) as Array<'serverAuth' | 'clientAuth'>;
    if (wanted.length > 0) {
      const ok = chainAllowsUsages([...below, parent], wanted);
      checks.push({ name: 'extended key usage', status: ok ? 'ok' : 'fail', detail: ok ? `${wanted.join(' + ')} allowed through this link` : `the EKUs leave out ${wanted.join(' + ')}` });
    }
    const worst = checks.some((c) => c.status === 'fail') ? 'fail' : checks.some((c) => c.status === 'warn') ? 'warn' : 'ok';
    return { child: cf.sha256FingerprintHex, parent: pf.sha256FingerprintHex, status: worst, checks };
  }

  private chainFindings(view: ChainView, leaf: Certificate, go: GoVerifyResult, path: Certificate[], trusted: boolean): void {
    const subject = { kind: 'chain' as const, id: view.id, label: view.title };
    for (const l of view.links) {
      for (const c of l.checks) {
        if (c.name === 'signature' && c.status === 'fail' && !/insecure/.test(c.detail)) this.finding('SIGNATURE_INVALID', 'error', `${view.title}: ${c.detail}`, subject);
        if (c.name === 'issuer may sign' && c.status === 'fail') this.finding('ISSUER_NOT_CA', 'error', `${view.title}: ${c.detail}`, subject);
        if (c.name === 'path length' && c.status === 'fail') this.finding('PATHLEN_EXCEEDED', 'error', `${view.title}: ${c.detail}`, subject);
        if (c.name === 'name constraints' && c.status === 'fail') this.finding('NAME_CONSTRAINT_VIOLATION', 'error', `${view.title}: ${c.detail}`, subject);
        if (c.name === 'AKI/SKI' && c.status === 'warn') this.finding('AKI_SKI_MISMATCH', 'warning', `${view.title}: ${c.detail}`, subject);
        if (c.name === 'validity' && /expires .* before the child/.test(c.detail)) this.finding('ISSUER_EXPIRES_BEFORE_CHILD', 'warning', `${view.title}: ${c.detail.split('; ').find((d) => d.includes('before the child'))}`, subject);
        if (c.name === 'validity' && /valid from before its issuer/.test(c.detail)) this.finding('CHILD_STARTS_BEFORE_ISSUER', 'info', `${view.title}: the child is valid from before its issuer`, subject);
      }
    }
    if (!go.ok) {
      const top = path[path.length - 1]!;
      if (go.error?.includes('incompatible key usage')) this.finding('EKU_CHAIN_INCOMPATIBLE', 'error', `${view.title}: ${go.error}`, subject);
      else if (go.error?.includes('unknown authority')) {
        if (top.facts.selfSigned && !trusted) this.finding('CHAIN_ROOT_NOT_TRUSTED', 'error', `${view.title}: the path ends at ${top.facts.subject}, which is not in the trust bundle`, subject);
        else this.finding('CHAIN_INCOMPLETE', 'error', `${view.title}: no path to a trusted root; missing the issuer "${top.facts.issuer}"${top.facts.authorityKeyIdentifier ? ` (AKI ${top.facts.authorityKeyIdentifier})` : ''}`, subject);
      }
    }
    void leaf;
  }

  // ---- scenarios -----------------------------------------------------------------------

  scenario(s: Omit<ScenarioView, 'id'>): ScenarioView {
    const v: ScenarioView = { id: `scenario-${this.scenarios.length + 1}`, ...s };
    this.scenarios.push(v);
    return v;
  }

  async pluginCa(obj: { title: string; source: string; object?: ScenarioView['object'] }, values: { cert?: Value; key?: Value; chain: Value[]; root?: Value; crl?: Value }, layout: 'istiod' | 'tls'): Promise<void> {
    for (const v of [values.cert, values.key, values.root, values.crl, ...values.chain]) if (v) this.covered.add(v);
    this.role(values.cert, 'signing-cert', 'first');
    this.role(values.cert, 'plugin-ca-path');
    for (const c of values.chain) this.role(c, 'plugin-ca-path');
    this.role(values.root, 'trust-bundle');
    this.role(values.root, 'plugin-ca-path');
    const steps: CheckStep[] = [];
    steps.push({ name: 'layout', status: 'pass', detail: layout === 'tls' ? 'kubernetes.io/tls layout: signing cert tls.crt, key tls.key, root ca.crt, chain tls.crt + ca.crt' : 'istiod layout: ca-cert.pem, ca-key.pem, cert-chain.pem, root-cert.pem', source: 'pilot/pkg/bootstrap/istio_ca.go:229' });
    const present = { key: !!values.key, cert: !!values.cert, root: !!values.root, chain: values.chain.length > 0 };
    const missing = Object.entries(present).filter(([, p]) => !p).map(([k]) => k);
    if (missing.length > 0) {
      const error = 'failed to create an istiod CA: incomplete signing CA bundle detected';
      steps.push({ name: 'completeness', status: 'fail', detail: `missing: ${missing.map((m) => ({ key: 'signing key', cert: 'signing cert', root: 'root cert', chain: 'cert chain' })[m]).join(', ')}`, error, source: 'pilot/pkg/bootstrap/istio_ca.go:501' });
      this.scenario({ kind: 'plugin-ca', ...obj, verdict: { ok: false, text: `istiod would not start its CA: ${error}` }, steps, chains: [] });
      return;
    }
    steps.push({ name: 'completeness', status: 'pass', detail: 'signing key, signing cert, root cert and chain present', source: 'pilot/pkg/bootstrap/istio_ca.go:501' });
    // A certificate a share link removed cannot be checked: say so rather than report the marker as broken.
    const certsRedacted = [values.cert, values.root, values.crl, ...values.chain].filter((v): v is Value => isRedactedInLink(v));
    if (certsRedacted.length > 0) {
      steps.push({ name: 'Verify', status: 'skipped', detail: `not checked: ${certsRedacted.map(redactedWhat).join('; ')}` });
      if (isRedactedInLink(values.key)) this.redactedKey(values.key!);
      this.scenario({ kind: 'plugin-ca', ...obj, verdict: { ok: true, text: `not checked: ${certsRedacted.map(redactedWhat).join('; ')}` }, steps, chains: [] });
      return;
    }
    const keyRedacted = isRedactedInLink(values.key) ? redactedWhat(values.key!) : undefined;
    if (keyRedacted) this.redactedKey(values.key!);
    const chainBytes = concatBytes(...values.chain.map((v) => v.bytes));
    const input = { cert: values.cert!.bytes, key: values.key!.bytes, chain: chainBytes, root: values.root!.bytes, crl: values.crl?.bytes, ...(keyRedacted ? { keyRedacted } : {}) };
    const r = await pluggedCaLoad(this.ctx, input);
    steps.push(...r.steps);
    const chains: string[] = [];
    if (r.leaf) {
      const rootPool = new CertPool();
      this.ctx.appendCertsFromPem(rootPool, input.root);
      const interPool = new CertPool();
      this.ctx.appendCertsFromPem(interPool, chainBytes);
      chains.push((await this.chain(r.leaf, `${obj.title}: signing cert`, rootPool.certs, interPool.certs, [], r.go)).id);
    }
    // cacerts layout lints.
    const signing = this.certsOf(values.cert)[0];
    const chainCerts = values.chain.flatMap((v) => this.certsOf(v));
    const subj = { kind: 'scenario' as const, id: `scenario-${this.scenarios.length + 1}`, label: obj.title };
    if (signing && layout === 'istiod') {
      const idx = chainCerts.findIndex((c) => c.facts.sha256FingerprintHex === signing.facts.sha256FingerprintHex);
      if (idx < 0) this.finding('CHAIN_MISSING_SIGNING_CERT', 'error', `${obj.title}: cert-chain.pem does not contain ca-cert.pem; workloads receive leaf + cert-chain.pem + root without their issuer`, subj);
      else if (idx > 0) this.finding('CHAIN_FIRST_NOT_SIGNING_CERT', 'warning', `${obj.title}: ca-cert.pem is block ${idx} of cert-chain.pem; the metrics and TTL clamp track the first`, subj);
      const rootCerts = this.certsOf(values.root);
      if (chainCerts.some((c) => rootCerts.some((rc) => rc.facts.sha256FingerprintHex === c.facts.sha256FingerprintHex))) this.finding('CHAIN_CONTAINS_ROOT', 'info', `${obj.title}: cert-chain.pem includes the root (normal for Istio)`, subj);
    }
    if (layout === 'tls' && values.cert && values.cert.bytes.length > 0 && values.cert.bytes[values.cert.bytes.length - 1] !== 10) {
      this.finding('TLS_CRT_NO_TRAILING_NEWLINE', 'error', `${obj.title}: tls.crt does not end with a newline; tls.crt + ca.crt has no decodable PEM block`, subj);
    }
    for (const rc of this.certsOf(values.root)) if (!rc.facts.selfSigned) this.finding('ROOT_NOT_SELF_SIGNED', 'warning', `${obj.title}: root-cert.pem holds ${rc.facts.subject}, which is not self-signed (a partial trust anchor)`, subj);
    if (r.rootsIgnored > 0) steps.push({ name: 'root bundle', status: 'warn', detail: `${r.rootsIgnored} block(s) of the root file ignored by Go (not certificates, headers, or certificates Go cannot parse)` });
    if (r.certsWithoutCrl && r.certsWithoutCrl.length > 0) this.finding('CRL_NOT_SIGNED_BY_CHAIN', 'error', `${obj.title}: no CRL signed by ${r.certsWithoutCrl.join(', ')}`, subj);
    if (signing && r.keyMatchesCert === false) {
      const e = this.entry(signing);
      e.findings.push({ id: 'KEY_MISMATCH', severity: 'error', message: `ca-key.pem does not match this signing cert: ${r.verdict.error}`, subject: { kind: 'certificate', id: signing.facts.sha256FingerprintHex, label: signing.facts.subjectCommonName ?? signing.facts.subject } });
    }
    const load = r.load;
    this.scenario({
      kind: 'plugin-ca',
      ...obj,
      verdict: load.ok
        ? { ok: true, text: keyRedacted ? `istiod would load this plug-in CA if its key matches the signing cert (not checked: ${keyRedacted})` : 'istiod would load this plug-in CA' }
        : { ok: false, text: `istiod would refuse this bundle: ${load.error}` },
      steps,
      chains,
      istio: { keyCertBundleVerify: r.verdict, pluggedCaLoad: load },
    });
  }

  async selfSignedCa(obj: { title: string; source: string; object?: ScenarioView['object'] }, values: { cert?: Value; key?: Value; root?: Value }): Promise<void> {
    for (const v of [values.cert, values.key, values.root]) if (v) this.covered.add(v);
    this.role(values.cert, 'root');
    const steps: CheckStep[] = [];
    if (!values.cert || !values.key) {
      this.scenario({ kind: 'self-signed-ca', ...obj, verdict: { ok: false, text: 'istiod would keep retrying: ca-cert.pem and ca-key.pem are both needed' }, steps: [{ name: 'keys', status: 'fail', detail: 'ca-cert.pem and ca-key.pem must both be present' }], chains: [] });
      return;
    }
    const keyRedacted = isRedactedInLink(values.key) ? redactedWhat(values.key) : undefined;
    if (keyRedacted) this.redactedKey(values.key);
    const certsRedacted = [values.cert, values.root].filter((v): v is Value => isRedactedInLink(v));
    if (certsRedacted.length > 0) {
      const text = `not checked: ${certsRedacted.map(redactedWhat).join('; ')}`;
      this.scenario({ kind: 'self-signed-ca', ...obj, verdict: { ok: true, text }, steps: [{ name: 'Verify', status: 'skipped', detail: text }], chains: [] });
      return;
    }
    // The CA cert is its own root (plus any mounted root-cert.pem).
    const root = concatBytes(values.cert.bytes, utf8('\n'), values.root?.bytes ?? new Uint8Array());
    const r = await keyCertBundleVerify(this.ctx, { cert: values.cert.bytes, key: values.key.bytes, chain: new Uint8Array(), root, ...(keyRedacted ? { keyRedacted } : {}) });
    steps.push(...r.steps.filter((s) => s.name !== 'CRL coverage'));
    const chains: string[] = [];
    if (r.leaf) {
      const rootPool = new CertPool();
      this.ctx.appendCertsFromPem(rootPool, root);
      chains.push((await this.chain(r.leaf, `${obj.title}: CA certificate`, rootPool.certs, [], [], r.go)).id);
      const left = r.leaf.notAfter.getTime() - this.ctx.now.getTime();
      const life = r.leaf.notAfter.getTime() - r.leaf.notBefore.getTime();
      steps.push({ name: 'rotation', status: left < life * 0.2 ? 'warn' : 'info', detail: left < life * 0.2 ? 'less than 20% of its lifetime left: istiod rotates it (same key) at the next hourly check' : `istiod rotates it when 20% of its lifetime is left (${humanSpan(left - life * 0.2)})`, source: 'security/pkg/pki/ca/selfsignedcarootcertrotator.go' });
    }
    this.scenario({ kind: 'self-signed-ca', ...obj, verdict: r.verdict.ok ? { ok: true, text: keyRedacted ? `istiod would load this self-signed CA if its key matches the CA certificate (not checked: ${keyRedacted})` : 'istiod would load this self-signed CA' } : { ok: false, text: `istiod would retry for up to 20 minutes, then give up: ${r.verdict.error}` }, steps, chains, istio: { keyCertBundleVerify: r.verdict } });
  }

  async workload(obj: { title: string; source: string; object?: ScenarioView['object'] }, values: { cert?: Value; key?: Value; chain: Value[]; root?: Value }): Promise<ScenarioView | undefined> {
    for (const v of [values.cert, values.key, values.root, ...values.chain]) if (v) this.covered.add(v);
    if (!values.cert) return undefined;
    this.role(values.cert, 'workload', 'first');
    this.role(values.root, 'trust-bundle');
    const keyRedacted = isRedactedInLink(values.key) ? redactedWhat(values.key!) : undefined;
    if (keyRedacted) this.redactedKey(values.key!);
    const certsRedacted = [values.cert, values.root, ...values.chain].filter((v): v is Value => isRedactedInLink(v));
    if (certsRedacted.length > 0) {
      const text = `not checked: ${[...new Set(certsRedacted)].map(redactedWhat).join('; ')}`;
      return this.scenario({ kind: 'workload', ...obj, verdict: { ok: true, text }, steps: [{ name: 'chain verification', status: 'skipped', detail: text }], chains: [] });
    }
    const r = await workloadVerify(this.ctx, { cert: values.cert.bytes, key: keyRedacted ? undefined : values.key?.bytes, chain: concatBytes(...values.chain.map((v) => v.bytes)), root: values.root?.bytes, ...(keyRedacted ? { keyRedacted } : {}) });
    const chains: string[] = [];
    if (r.leaf) {
      const roots = new CertPool();
      if (values.root) this.ctx.appendCertsFromPem(roots, values.root.bytes);
      const inter = new CertPool();
      this.ctx.appendCertsFromPem(inter, concatBytes(values.cert.bytes, utf8('\n'), ...values.chain.map((v) => v.bytes)));
      chains.push((await this.chain(r.leaf, `${obj.title}: workload certificate`, roots.certs, inter.certs, ['any'], r.go)).id);
      this.trustDomainStep(r.steps, r.leaf);
    }
    const tdFail = r.steps.find((s) => s.name === 'trust domain' && s.status === 'fail');
    const verdict = !r.verdict.ok ? { ok: false, text: r.verdict.error ?? 'rejected' } : tdFail ? { ok: false, text: `the chain verifies, but ${tdFail.detail}` } : { ok: true, text: "a Go peer (and Istio's VerifyCertificate) would accept this workload certificate" };
    return this.scenario({ kind: 'workload', ...obj, verdict, steps: r.steps, chains, istio: { workloadVerify: r.verdict } });
  }

  trustDomainStep(steps: CheckStep[], leaf: Certificate): void {
    const ids = leaf.facts.spiffe;
    if (ids.length === 0) return;
    const bad = ids.filter((i) => !trustDomainAccepted(i.trustDomain, this.opts.trustDomain, this.opts.aliases));
    steps.push(
      bad.length === 0
        ? { name: 'trust domain', status: 'pass', detail: `${ids.map((i) => i.trustDomain).join(', ')} is the mesh trust domain${this.opts.aliases.length ? ' or an alias' : ''}` }
        : { name: 'trust domain', status: 'fail', detail: `${bad.map((i) => i.trustDomain).join(', ')} is not ${[this.opts.trustDomain, ...this.opts.aliases].join(' or ')}: authorization policies won't match (TRUST_DOMAIN_MISMATCH)` },
    );
  }

  async gatewayCredential(obj: KubeObject): Promise<void> {
    const title = `Gateway credential (Secret ${obj.ref.namespace}/${obj.ref.name})`;
    const data: SecretData = new Map([...obj.values].map(([k, v]) => [k, v.bytes]));
    for (const v of obj.values.values()) this.covered.add(v);
    const steps: CheckStep[] = [];
    const extracted = extractCertInfo(data);
    const users = this.opts.credentialUsers.filter((u) => u.secretNamespace === obj.ref.namespace && u.servers.some((s) => credentialSecretName(s.credentialName) === obj.ref.name));
    const object = { kind: 'Secret', namespace: obj.ref.namespace, name: obj.ref.name, line: obj.origin.line, input: obj.origin.input };
    if (!extracted.ok) {
      steps.push({ name: 'keys (ExtractCertInfo)', status: 'fail', detail: 'cert/key or tls.crt/tls.key, non-empty', error: extracted.error, source: 'pilot/pkg/credentials/kube/secrets.go:291' });
      for (const u of users) steps.push({ name: `IST0161 on ${u.kind} ${u.namespace}/${u.name}`, status: 'fail', detail: 'gateway.SecretAnalyzer reports InvalidGatewayCredential', error: extracted.error });
      this.scenario({ kind: 'gateway-credential', title, source: obj.origin.input, object, verdict: { ok: false, text: `istiod cannot serve this credential: ${extracted.error}` }, steps, chains: [] });
      return;
    }
    const { keys } = extracted.value;
    steps.push({ name: 'keys (ExtractCertInfo)', status: 'pass', detail: `certificate from "${keys.cert}", key from "${keys.key}"${keys.crl ? `, CRL from "${keys.crl}"` : ''}${keys.cert === 'cert' && obj.values.has('tls.crt') ? ' (cert/key take precedence over tls.crt/tls.key)' : ''}`, source: 'pilot/pkg/credentials/kube/secrets.go:291' });
    const certValue = obj.values.get(keys.cert)!;
    const keyValue = obj.values.get(keys.key!);
    this.role(certValue, 'gateway-server', 'first');
    // Values a share link removed are not read: the checks that need them say so instead.
    const keyRedacted = isRedactedInLink(keyValue) ? redactedWhat(keyValue!) : undefined;
    if (keyRedacted) this.redactedKey(keyValue!);
    if (isRedactedInLink(certValue)) {
      const text = `not checked: ${redactedWhat(certValue)}`;
      steps.push({ name: 'validity (ValidateCertificate)', status: 'skipped', detail: text, source: 'pilot/pkg/xds/sds.go:221' });
      steps.push({ name: 'key matches the certificate (tls.X509KeyPair)', status: 'skipped', detail: text });
      this.scenario({ kind: 'gateway-credential', title, source: obj.origin.input, object, verdict: { ok: true, text }, steps, chains: [] });
      return;
    }
    const valid = validateCertificateChain(extracted.value.cert, this.ctx.now);
    steps.push(valid.ok ? { name: 'validity (ValidateCertificate)', status: 'pass', detail: 'the first PEM block parses and is within its validity window', source: 'pilot/pkg/xds/sds.go:221' } : { name: 'validity (ValidateCertificate)', status: 'fail', detail: 'istiod logs a warning and sends it anyway; gateway.SecretAnalyzer reports IST0161', error: valid.error, source: 'pilot/pkg/xds/sds.go:221' });
    for (const u of users) {
      if (!valid.ok) steps.push({ name: `IST0161 on ${u.kind} ${u.namespace}/${u.name}`, status: 'fail', detail: `InvalidGatewayCredential: the credential of ${u.kind} ${u.namespace}/${u.name} is invalid (${valid.error})`, error: valid.error });
    }
    const pair = keyRedacted ? {} : keyValue ? await x509KeyPair(this.ctx, extracted.value.cert, keyValue.bytes) : { error: 'no key' };
    if (keyRedacted) steps.push({ name: 'key matches the certificate (tls.X509KeyPair)', status: 'skipped', detail: `not checked (${keyRedacted})` });
    else steps.push(pair.error ? { name: 'key matches the certificate (tls.X509KeyPair)', status: 'fail', detail: 'Envoy rejects the secret when it loads it (istiod does not check this for Istio Gateways; Gateway API certificateRefs do)', error: pair.error } : { name: 'key matches the certificate (tls.X509KeyPair)', status: 'pass', detail: 'same public key' });
    if (pair.error && keyValue) this.finding('KEY_MISMATCH', 'error', `${title}: ${pair.error}`, { kind: 'scenario', id: `scenario-${this.scenarios.length + 1}`, label: title });
    // The chain of the server certificate: against ca.crt/cacert when present, else the input's roots.
    const leaf = this.certsOf(certValue)[0];
    const chains: string[] = [];
    const root = extractRoot(data);
    const caEntry = root.ok ? obj.values.get(root.value.keys.cert) : undefined;
    // A CA bundle a share link removed is not read (no chain against it, no client CA step).
    const caValue = isRedactedInLink(caEntry) ? undefined : caEntry;
    if (caEntry && !caValue) steps.push({ name: 'client CA (ExtractRoot)', status: 'skipped', detail: `not checked: ${redactedWhat(caEntry)}` });
    if (caValue) this.role(caValue, 'gateway-client-ca');
    if (leaf) {
      const roots = caValue ? this.certsOf(caValue) : this.trustAnchors();
      const view = await this.chain(leaf, `${title}: server certificate`, roots, this.certsOf(certValue), ['serverAuth']);
      chains.push(view.id);
      steps.push({ name: 'chain', status: view.go.ok ? 'pass' : 'warn', detail: view.go.ok ? `verifies to ${this.entry(this.certs.get(view.anchor!.id)!.cert).cert.facts.subject}` : `${view.go.error} (clients need the issuer; istiod does not check this)` });
      for (const u of users) for (const s of u.servers.filter((x) => credentialSecretName(x.credentialName) === obj.ref.name)) steps.push(hostsStep(leaf, u, s));
    }
    if (root.ok && caValue) {
      const cas = this.certsOf(caValue);
      steps.push({ name: 'client CA (ExtractRoot)', status: cas.length > 0 ? 'pass' : 'fail', detail: cas.length > 0 ? `"${root.value.keys.cert}": ${cas.length} CA certificate(s) for MUTUAL` : 'no certificate in the CA bundle' });
    }
    this.scenario({
      kind: 'gateway-credential',
      title,
      source: obj.origin.input,
      object,
      verdict: valid.ok && !pair.error ? { ok: true, text: keyRedacted ? `istiod would serve this credential; Envoy loads it if its key matches the certificate (not checked: ${keyRedacted})` : 'istiod would serve this credential' } : { ok: false, text: valid.ok ? `Envoy would reject this credential: ${pair.error}` : `invalid gateway credential (IST0161): ${valid.error}` },
      steps,
      chains,
    });
  }

  async gatewayCa(obj: KubeObject): Promise<void> {
    const title = `Gateway client CA (Secret ${obj.ref.namespace}/${obj.ref.name})`;
    for (const v of obj.values.values()) this.covered.add(v);
    const data: SecretData = new Map([...obj.values].map(([k, v]) => [k, v.bytes]));
    const steps: CheckStep[] = [];
    const r = extractRoot(data);
    const object = { kind: 'Secret', namespace: obj.ref.namespace, name: obj.ref.name, line: obj.origin.line, input: obj.origin.input };
    if (!r.ok) {
      steps.push({ name: 'keys (ExtractRoot)', status: 'fail', detail: 'cacert or ca.crt, non-empty', error: r.error, source: 'pilot/pkg/credentials/kube/secrets.go:339' });
      this.scenario({ kind: 'gateway-ca', title, source: obj.origin.input, object, verdict: { ok: false, text: r.error }, steps, chains: [] });
      return;
    }
    const caValue = obj.values.get(r.value.keys.cert)!;
    if (isRedactedInLink(caValue)) {
      const text = `not checked: ${redactedWhat(caValue)}`;
      steps.push({ name: 'CA bundle', status: 'skipped', detail: text });
      this.scenario({ kind: 'gateway-ca', title, source: obj.origin.input, object, verdict: { ok: true, text }, steps, chains: [] });
      return;
    }
    this.role(caValue, 'gateway-client-ca');
    const cas = this.certsOf(caValue);
    steps.push({ name: 'keys (ExtractRoot)', status: 'pass', detail: `CA bundle from "${r.value.keys.cert}"${r.value.keys.crl ? `, CRL from "${r.value.keys.crl}"` : ''}`, source: 'pilot/pkg/credentials/kube/secrets.go:339' });
    steps.push({ name: 'CA bundle', status: cas.length > 0 ? 'pass' : 'fail', detail: `${cas.length} certificate(s)` });
    let ok = cas.length > 0;
    const crlValue = r.value.keys.crl ? obj.values.get(r.value.keys.crl) : undefined;
    if (crlValue) {
      for (const a of crlValue.artefacts) {
        if (a.kind !== 'crl') continue;
        let signed = false;
        for (const ca of cas) if ((await crlSignedBy(this.ctx, a.crl, ca)) === undefined) signed = true;
        if (!signed) {
          ok = false;
          this.finding('CRL_NOT_SIGNED_BY_CHAIN', 'error', `${title}: the CRL issued by ${a.crl.facts.issuer} is not signed by the CA next to it`, { kind: 'scenario', id: `scenario-${this.scenarios.length + 1}`, label: title });
        }
        steps.push({ name: 'CRL', status: signed ? 'pass' : 'fail', detail: signed ? `signed by the CA (${a.crl.facts.issuer})` : `issued by ${a.crl.facts.issuer}, not signed by any certificate of the CA bundle (CRL_NOT_SIGNED_BY_CHAIN)` });
      }
    }
    this.scenario({ kind: 'gateway-ca', title, source: obj.origin.input, object, verdict: { ok, text: ok ? 'usable as the client CA of a MUTUAL gateway' : 'the client CA has problems' }, steps, chains: [] });
  }

  trustBundle(title: string, source: string, value: Value | undefined, object?: ScenarioView['object']): void {
    if (!value) return;
    this.covered.add(value);
    this.role(value, 'trust-bundle');
    const certs = this.certsOf(value);
    const goCount = (() => {
      const pool = new CertPool();
      return this.ctx.appendCertsFromPem(pool, value.bytes);
    })();
    const steps: CheckStep[] = [
      { name: 'roots', status: certs.length > 0 ? 'pass' : 'fail', detail: `${certs.length} certificate(s)${goCount.skipped ? `; ${goCount.skipped} block(s) ignored by Go` : ''}` },
    ];
    for (const c of certs) {
      if (!c.facts.selfSigned) steps.push({ name: `${c.facts.subjectCommonName ?? c.facts.subject}`, status: 'warn', detail: 'not self-signed: a partial trust anchor (Go accepts it; ROOT_NOT_SELF_SIGNED)' });
      if (this.ctx.now > c.notAfter) steps.push({ name: `${c.facts.subjectCommonName ?? c.facts.subject}`, status: 'fail', detail: `expired ${c.facts.notAfter}` });
    }
    this.scenario({ kind: 'trust-bundle', title, source, object, verdict: { ok: certs.length > 0 && goCount.added > 0, text: `${goCount.added} root(s) Go would trust` }, steps, chains: [] });
  }

  async mutualTrust(pairs: Array<[Certificate, Certificate]>): Promise<void> {
    const anchors = this.trustAnchors();
    const inter = this.allCerts();
    for (const [a, b] of pairs) {
      const name = (c: Certificate) => c.facts.spiffe[0]?.uri ?? c.facts.subject;
      const steps: CheckStep[] = [];
      let ok = true;
      for (const [x, y] of [
        [a, b],
        [b, a],
      ] as const) {
        const r = await goVerify(y, { roots: new CertPool(anchors), intermediates: new CertPool(inter), now: this.ctx.now, keyUsages: ['clientAuth'], signatures: this.ctx.signatures });
        ok &&= r.ok;
        steps.push({ name: `${name(x)} accepts ${name(y)}`, status: r.ok ? 'pass' : 'fail', detail: r.ok ? `verifies to ${r.chains[0]![r.chains[0]!.length - 1]!.facts.subject} (clientAuth)` : 'Go verification of the peer (clientAuth) fails', error: r.error ?? undefined });
      }
      const tds = [...new Set([a, b].flatMap((c) => c.facts.spiffe.map((s) => s.trustDomain)))];
      const foreign = tds.filter((t) => !trustDomainAccepted(t, this.opts.trustDomain, this.opts.aliases));
      steps.push(foreign.length === 0 ? { name: 'trust domains', status: 'pass', detail: `${tds.join(', ')}: the mesh trust domain${this.opts.aliases.length ? ' or an alias' : ''}` } : { name: 'trust domains', status: 'warn', detail: `${foreign.join(', ')} is not ${[this.opts.trustDomain, ...this.opts.aliases].join(' or ')}: mTLS works, but authorization policies naming principals in the mesh trust domain won't match` });
      for (const c of [a, b]) {
        const eku = c.facts.extKeyUsage;
        const fine = !eku.present || (c.ekuOids.includes('1.3.6.1.5.5.7.3.1') && c.ekuOids.includes('1.3.6.1.5.5.7.3.2')) || c.ekuOids.includes('2.5.29.37.0');
        if (!fine) {
          ok = false;
          steps.push({ name: `${name(c)} usages`, status: 'fail', detail: 'a mesh certificate needs both serverAuth and clientAuth' });
        }
      }
      this.scenario({ kind: 'mutual-trust', title: `Will ${name(a)} and ${name(b)} trust each other?`, source: 'input', verdict: { ok, text: ok ? 'yes: each verifies the other against the roots supplied' : 'no: see the failing step' }, steps, chains: [] });
    }
  }

  // ---- final report ------------------------------------------------------------------

  async report(): Promise<CertsReport> {
    const now = this.ctx.now;
    // Per-certificate lints, with the roles they play.
    for (const e of this.certs.values()) {
      if (e.roles.size === 0) {
        const f = e.cert.facts;
        e.roles.add(f.isCA ? (f.selfSigned ? 'root' : 'intermediate') : f.version === 1 && f.selfSigned ? 'root' : 'leaf');
      }
      const crlFromIt = this.crls.some((c) => nameKey(c.crl.issuerDer) === nameKey(e.cert.subjectDer));
      for (const l of lintCertificate(e.cert, { now, roles: e.roles, profile: this.opts.profile, trustDomain: e.roles.has('workload') || e.cert.facts.spiffe.length > 0 ? this.opts.trustDomain : undefined, aliases: this.opts.aliases })) {
        const severity = l.id === 'CA_KU_NO_CRLSIGN' && crlFromIt ? 'error' : l.severity;
        const f: Finding = { id: l.id, severity, message: `${LINTS[l.id]?.title ?? l.id}${l.detail ? `: ${l.detail}` : ''}`, subject: { kind: 'certificate', id: e.cert.facts.sha256FingerprintHex, label: e.cert.facts.subjectCommonName ?? (e.cert.facts.subject || e.cert.facts.sha256FingerprintHex.slice(0, 16)) } };
        e.findings.push(f);
        this.findings.push(f);
      }
    }
    // Bundles: order of the certificates in each value holding two or more.
    for (const v of this.decoded.values) {
      const certs = this.certsOf(v);
      if (certs.length < 2) continue;
      const order = bundleOrder(certs, (i, c) => this.issued(i, c));
      const origin = reportOrigin(v.origin);
      this.bundles.push({ origin, certs: certs.map((c) => c.facts.sha256FingerprintHex), order });
      for (const id of order.lints) this.finding(id, 'warning', `${origin.label}: ${LINTS[id]!.title}`, { kind: 'value', id: origin.label, label: origin.label });
    }
    // Values: blocks Go's decoder skips.
    for (const p of this.decoded.problems) if (/Go's PEM decoder (skips|would skip|does not see)/.test(p.message)) this.finding('PEM_BLOCK_SKIPPED_BY_GO', 'warning', `${originLabel(p.origin)}: ${p.message}`, { kind: 'value', id: originLabel(p.origin) });
    // Keys.
    const keys: KeyView[] = this.keys.map((k) => {
      const matches = k.facts?.publicKey ? [...this.certs.values()].filter((e) => e.cert.facts.publicKey.spkiSha256 === k.facts!.publicKey!.spkiSha256).map((e) => e.cert.facts.sha256FingerprintHex) : [];
      if (k.state === 'redacted') this.finding('KEY_REDACTED', 'info', `${k.origin.label}: key redacted by Envoy; key checks skipped`, { kind: 'key', id: k.id, label: k.origin.label });
      if (k.state === KEY_REDACTED_IN_LINK) this.finding('KEY_REDACTED_IN_LINK', 'info', `${k.origin.label}: key redacted in this link; key checks skipped`, { kind: 'key', id: k.id, label: k.origin.label });
      const pk = k.facts?.publicKey;
      if (pk && pk.type === 'RSA' && pk.bits < 2048) this.finding('KEY_WEAK', pk.bits < 1024 ? 'error' : 'warning', `${k.origin.label}: RSA key of ${pk.bits} bits`, { kind: 'key', id: k.id, label: k.origin.label });
      if (k.facts && k.facts.istioParsePemEncodedKey !== 'supported') this.finding('KEY_UNSUPPORTED_PEM_TYPE', 'error', `${k.origin.label}: ${k.facts.istioParsePemEncodedKey}`, { kind: 'key', id: k.id, label: k.origin.label });
      return { id: k.id, origin: k.origin, encoding: k.facts?.encoding ?? null, pemType: k.pemType, publicKey: pk ?? null, istio: k.facts?.istioParsePemEncodedKey ?? (k.state === 'redacted' ? 'redacted' : k.state === KEY_REDACTED_IN_LINK ? 'redacted in this link' : 'unreadable'), matches, state: k.state, masked: k.state === KEY_REDACTED_IN_LINK ? '••••••••' : keyMask(k.pemType, k.size) };
    });
    // A key next to certificates it belongs to none of.
    for (const k of keys) {
      if (!k.publicKey || k.matches.length > 0) continue;
      const siblings = [...this.certs.values()].filter((e) => e.occurrences.some((o) => o.input === k.origin.input && JSON.stringify(o.object ?? null) === JSON.stringify(k.origin.object ?? null)));
      if (siblings.length === 0) continue;
      this.finding('KEY_MISMATCH', 'error', `${k.origin.label}: the private key matches none of the ${siblings.length} certificate(s) next to it (the cert does not match the key)`, { kind: 'key', id: k.id, label: k.origin.label });
      // On the card of the certificate the key should belong to: a signing cert or a leaf next to it, else the first.
      const target = siblings.find((e) => e.roles.has('signing-cert')) ?? siblings.find((e) => !e.cert.facts.isCA) ?? siblings.find((e) => !e.cert.facts.selfSigned) ?? siblings[0]!;
      if (!target.findings.some((f) => f.id === 'KEY_MISMATCH')) target.findings.push({ id: 'KEY_MISMATCH', severity: 'error', message: `the private key ${k.origin.label} does not match this certificate (the cert does not match the key: tls: private key does not match public key)`, subject: { kind: 'certificate', id: target.cert.facts.sha256FingerprintHex, label: target.cert.facts.subjectCommonName ?? target.cert.facts.subject } });
    }
    // CRLs.
    const crls: CrlView[] = [];
    for (const c of this.crls) {
      const signedBy: CrlView['signedBy'] = [];
      for (const e of this.certs.values()) {
        if (nameKey(e.cert.subjectDer) !== nameKey(c.crl.issuerDer)) continue;
        const s = await this.ctx.signatures.crl({ der: c.crl.der, sigOid: c.crl.facts.signatureAlgorithmOid }, e.cert);
        if (s.status === 'verified') {
          signedBy.push({ id: e.cert.facts.sha256FingerprintHex, subject: e.cert.facts.subject });
          const go = await crlSignedBy(this.ctx, c.crl, e.cert);
          if (go) this.finding('CRL_ISSUER_NO_CRLSIGN', 'error', `${c.origin.label}: ${e.cert.facts.subject} signed it, but Go refuses it as a CRL issuer (${go})`, { kind: 'crl', id: c.id, label: c.origin.label });
        }
      }
      const expired = c.crl.nextUpdate !== null && c.crl.nextUpdate.getTime() < now.getTime();
      if (expired) this.finding('CRL_EXPIRED', 'warning', `${c.origin.label}: nextUpdate ${c.crl.facts.nextUpdate} is in the past (Istio does not check this)`, { kind: 'crl', id: c.id, label: c.origin.label });
      for (const e of this.certs.values()) {
        if (c.crl.facts.revokedSerials.includes(e.cert.facts.serialHex) && nameKey(e.cert.issuerDer) === nameKey(c.crl.issuerDer)) this.finding('CRL_REVOKES_INPUT', 'error', `${c.origin.label}: revokes ${e.cert.facts.subject} (serial ${e.cert.facts.serialHex})`, { kind: 'crl', id: c.id, label: c.origin.label });
      }
      crls.push({ id: c.id, origin: c.origin, facts: c.crl.facts, signedBy, expired });
    }
    const csrs: CsrView[] = [];
    for (const c of this.csrs) {
      const s = await this.ctx.signatures.csr({ der: c.csr.der, sigOid: c.csr.sigOid }, c.csr.spkiDer, c.csr.facts.publicKey);
      csrs.push({ id: c.id, origin: c.origin, facts: c.csr.facts, signatureValid: s.status === 'verified' ? true : s.status === 'failed' ? false : null });
    }
    const tables = [...istioctlSecretTables(this.decoded.dumps, this.ctx, now), ...ztunnelTables(this.decoded.ztunnel, now)];
    const remotes = await this.remotes();
    const certificates: CertView[] = [...this.certs.values()].map((e) => {
      const f = e.cert.facts;
      const life = e.cert.notAfter.getTime() - e.cert.notBefore.getTime();
      const used = (now.getTime() - e.cert.notBefore.getTime()) / (life || 1);
      return {
        id: f.sha256FingerprintHex,
        facts: f,
        occurrences: e.occurrences,
        roles: [...e.roles],
        issuers: e.issuers.map((i) => ({ id: i.cert.facts.sha256FingerprintHex, signature: i.status })),
        istioctl: f.goParseExpectation === 'ok' ? istioctlRow(e.cert, now) : null,
        findings: e.findings,
        lifeUsed: used >= 0 && used <= 1 ? used : null,
        expiresIn: now > e.cert.notAfter ? `expired ${humanSpan(e.cert.notAfter.getTime() - now.getTime())}` : now < e.cert.notBefore ? `valid ${humanSpan(e.cert.notBefore.getTime() - now.getTime())}` : `expires ${humanSpan(e.cert.notAfter.getTime() - now.getTime())}`,
        pem: encodePem('CERTIFICATE', e.cert.der),
      };
    });
    const problems: ProblemView[] = this.decoded.problems.map((p) => ({ severity: p.severity, message: p.message, where: originLabel(p.origin), line: p.origin.line, input: p.origin.input }));
    const all = [...this.findings, ...problems.map((p) => ({ severity: p.severity }))];
    return {
      at: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      trustDomain: this.opts.trustDomain,
      aliases: this.opts.aliases,
      profile: this.opts.profile,
      certificates,
      keys,
      crls,
      csrs,
      scenarios: this.scenarios,
      chains: this.chains,
      bundles: this.bundles,
      findings: this.findings,
      tables,
      remotes,
      problems,
      hints: this.decoded.hints,
      privateKeys: this.keys.some((k) => k.state !== 'redacted' && k.state !== KEY_REDACTED_IN_LINK),
      counts: { errors: all.filter((f) => f.severity === 'error').length, warnings: all.filter((f) => f.severity === 'warning').length, infos: all.filter((f) => f.severity === 'info').length },
      signatureChecks: this.ctx.signatures.checks,
    };
  }

  private async remotes(): Promise<RemoteView[]> {
    const out: RemoteView[] = [];
    for (const r of this.decoded.remotes) {
      const ca = this.certsOf(r.ca);
      const client = this.certsOf(r.clientCert);
      let verifies: boolean | null = null;
      if (ca.length > 0 && client.length > 0) {
        const res = await goVerify(client[0]!, { roots: new CertPool(ca), intermediates: new CertPool(client), now: this.ctx.now, keyUsages: ['any'], signatures: this.ctx.signatures });
        verifies = res.ok;
        if (!res.ok) this.finding('CHAIN_INCOMPLETE', 'error', `remote secret ${r.secret.namespace}/${r.secret.name} cluster "${r.clusterId}": the CA does not verify the client certificate (${res.error})`, { kind: 'value', id: originLabel(r.origin), label: originLabel(r.origin) });
      }
      for (const v of [r.ca, r.clientCert, r.clientKey]) if (v) this.covered.add(v);
      const view: RemoteView = { secret: `${r.secret.namespace}/${r.secret.name}`, clusterId: r.clusterId, server: r.server, auth: r.auth, ca: ca.map((c) => c.facts.sha256FingerprintHex), clientCert: client.map((c) => c.facts.sha256FingerprintHex), caVerifiesClient: verifies, input: r.origin.input };
      if (r.error) view.error = r.error;
      else if (verifies === false) view.error = 'the CA does not verify the client certificate';
      if (r.origin.line !== undefined) view.line = r.origin.line;
      out.push(view);
    }
    return out;
  }
}

function credentialSecretName(credentialName: string): string {
  const n = credentialName.replace(/^kubernetes(-gateway)?:\/\//, '');
  return n.includes('/') ? n.slice(n.indexOf('/') + 1) : n;
}

/** Whether a certificate's DNS name covers a host (case-insensitive; `*.` covers one label). */
function certificateNameCovers(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase();
  const h = host.toLowerCase();
  if (p === h) return true;
  if (p.startsWith('*.')) {
    const rest = h.slice(h.indexOf('.') + 1);
    return h.includes('.') && rest === p.slice(2);
  }
  return false;
}

function hostsStep(leaf: Certificate, u: CredentialUser, s: GatewayServerContext): CheckStep {
  const hosts = s.hosts.map((h) => (h.includes('/') ? h.slice(h.indexOf('/') + 1) : h));
  const dns = leaf.facts.subjectAltName.dns;
  const uncovered = hosts.filter((h) => h !== '*' && !dns.some((d) => certificateNameCovers(d, h.startsWith('*.') ? `x${h.slice(1)}` : h)));
  const name = `hosts of ${u.kind} ${u.namespace}/${u.name} server ${s.index}`;
  if (hosts.length === 0) return { name, status: 'info', detail: 'the server lists no hosts' };
  return uncovered.length === 0
    ? { name, status: 'pass', detail: `${hosts.join(', ')} covered by the certificate's DNS SANs` }
    : { name, status: 'fail', detail: `${uncovered.join(', ')} not covered by the DNS SANs (${dns.join(', ') || 'none'}); clients will see a name mismatch` };
}

function nameKey(der: Uint8Array): string {
  let s = '';
  for (const b of der) s += String.fromCharCode(b);
  return s;
}

function opensslNote(leaf: Certificate, code: number | undefined, go: GoVerifyResult): string {
  if (code === 18 && go.ok) return leaf.facts.selfIssued ? "OpenSSL treats a leaf whose subject equals its issuer as self-signed; Go verifies the signature and accepts it." : 'OpenSSL stops at a certificate it takes for self-signed; Go goes on.';
  if (code === 10 || code === 9) return 'OpenSSL checks the validity of every certificate in the chain it built; Go reports the first invalid one it meets.';
  if (go.ok) return 'OpenSSL builds a different chain than Go here.';
  return `OpenSSL accepts a chain Go refuses: ${go.error}`;
}

export function istioctlRow(c: Certificate, now: Date): import('./report.ts').IstioctlSecretRow {
  const f = c.facts;
  const t = now.getTime();
  let td = '';
  for (const u of f.subjectAltName.uri) if (u.startsWith('spiffe://')) td = spiffeHost(u);
  return {
    'RESOURCE NAME': '',
    TYPE: f.isCA ? 'CA' : 'Cert Chain',
    STATUS: '',
    'VALID CERT': t > c.notBefore.getTime() && t < c.notAfter.getTime(),
    'SERIAL NUMBER': f.serialIstioctl ?? '',
    'NOT AFTER': f.notAfter,
    'NOT BEFORE': f.notBefore,
    'TRUST DOMAIN': td,
  };
}

/** Inspects decoded inputs. */
export async function inspectDecoded(decoded: Decoded, options: InspectOptions = {}): Promise<CertsReport> {
  const opts = {
    now: options.now ?? new Date(),
    trustDomain: options.trustDomain ?? 'cluster.local',
    aliases: options.aliases ?? [],
    profile: options.profile ?? 'default',
    credentialUsers: options.credentialUsers ?? [],
  };
  const run = new Inspection(decoded, opts);
  await run.collect();
  if (options.scenarios !== false) await scenarios(run);
  return run.report();
}

/** Decodes and inspects inputs (files, pastes). */
export async function inspect(inputs: readonly InputFile[], options: InspectOptions = {}): Promise<CertsReport> {
  return inspectDecoded(decodeInputs(inputs), options);
}

// ---- scenario detection ------------------------------------------------------------------

const CACERTS_KEYS = ['ca-cert.pem', 'ca-key.pem', 'cert-chain.pem', 'root-cert.pem'];

function objTitle(o: KubeObject): { title: string; source: string; object: ScenarioView['object'] } {
  return { title: '', source: o.origin.input, object: { kind: o.ref.kind, namespace: o.ref.namespace, name: o.ref.name, line: o.origin.line, input: o.origin.input } };
}

async function scenarios(run: Inspection): Promise<void> {
  const d = run.decoded;
  for (const o of d.objects) {
    const keys = new Set(o.values.keys());
    const v = (k: string) => o.values.get(k);
    const base = objTitle(o);
    if (o.kind === 'ConfigMap') {
      if (keys.has('root-cert.pem')) run.trustBundle(`Trust bundle (ConfigMap ${o.ref.namespace}/${o.ref.name})`, o.origin.input, v('root-cert.pem'), base.object);
      else if (keys.has('cacert') || keys.has('ca.crt')) run.trustBundle(`CA bundle (ConfigMap ${o.ref.namespace}/${o.ref.name})`, o.origin.input, v('cacert') ?? v('ca.crt'), base.object);
      continue;
    }
    const selfSigned = o.ref.name === 'istio-ca-secret' || o.type === 'istio.io/ca-root' || keys.has('istio-generated');
    if (selfSigned) {
      await run.selfSignedCa({ ...base, title: `Self-signed CA (Secret ${o.ref.namespace}/${o.ref.name})` }, { cert: v('ca-cert.pem'), key: v('ca-key.pem'), root: v('root-cert.pem') });
      continue;
    }
    if (o.ref.name === 'cacerts' || (keys.has('ca-cert.pem') && keys.has('ca-key.pem'))) {
      if (keys.has('tls.crt')) {
        await run.pluginCa({ ...base, title: `Plug-in CA (Secret ${o.ref.namespace}/${o.ref.name}, kubernetes.io/tls layout)` }, { cert: v('tls.crt'), key: v('tls.key'), chain: [v('tls.crt'), v('ca.crt')].filter((x): x is Value => !!x), root: v('ca.crt') }, 'tls');
      } else {
        await run.pluginCa({ ...base, title: `Plug-in CA (Secret ${o.ref.namespace}/${o.ref.name}, istiod file layout)` }, { cert: v('ca-cert.pem'), key: v('ca-key.pem'), chain: [v('cert-chain.pem')].filter((x): x is Value => !!x), root: v('root-cert.pem'), crl: v('ca-crl.pem') }, 'istiod');
      }
      continue;
    }
    if (o.ref.name.endsWith('-cacert') || ((keys.has('cacert') || keys.has('ca.crt')) && !keys.has('cert') && !keys.has('tls.crt') && !keys.has('key') && !keys.has('tls.key') && o.values.size <= 3)) {
      await run.gatewayCa(o);
      continue;
    }
    if (keys.has('cert') || keys.has('key') || keys.has('tls.crt') || keys.has('tls.key') || o.type === 'kubernetes.io/tls' || run.opts.credentialUsers.some((u) => u.secretNamespace === o.ref.namespace && u.servers.some((s) => credentialSecretName(s.credentialName) === o.ref.name))) {
      await run.gatewayCredential(o);
      continue;
    }
    if (keys.has('cert-chain.pem') && keys.has('key.pem')) {
      await run.workload({ ...base, title: `Workload certificates (Secret ${o.ref.namespace}/${o.ref.name})` }, { cert: v('cert-chain.pem'), key: v('key.pem'), chain: [v('cert-chain.pem')!], root: v('root-cert.pem') });
      continue;
    }
    if (o.labels['istio/multiCluster'] === 'true') continue;
    run.scenario({
      kind: 'generic-secret',
      title: `Secret ${o.ref.namespace}/${o.ref.name}`,
      source: o.origin.input,
      object: base.object,
      verdict: { ok: true, text: 'no Istio key layout recognised' },
      steps: [{ name: 'key names', status: 'info', detail: `found: ${[...keys].sort().join(', ') || 'none'}. Istio reads cacerts (${CACERTS_KEYS.join(', ')} or tls.crt, tls.key, ca.crt), gateway credentials (cert/key or tls.crt/tls.key, and cacert or ca.crt), istio-ca-secret (ca-cert.pem, ca-key.pem)` }],
      chains: [],
    });
  }
  // Remote secrets.
  const remoteSecrets = new Map<string, number>();
  for (const r of d.remotes) remoteSecrets.set(`${r.secret.namespace}/${r.secret.name}`, (remoteSecrets.get(`${r.secret.namespace}/${r.secret.name}`) ?? 0) + 1);
  for (const [name, n] of remoteSecrets) {
    const rs = d.remotes.filter((r) => `${r.secret.namespace}/${r.secret.name}` === name);
    const steps: CheckStep[] = rs.map((r) => ({ name: `cluster ${r.clusterId}`, status: r.error ? 'fail' : 'pass', detail: r.error ? r.error : `${r.server} (${r.auth})`, error: r.error }));
    run.scenario({ kind: 'remote-secret', title: `Remote secret ${name} (${n} cluster${n === 1 ? '' : 's'})`, source: rs[0]!.origin.input, verdict: { ok: rs.every((r) => !r.error), text: rs.every((r) => !r.error) ? 'every kubeconfig is readable' : 'a kubeconfig is malformed' }, steps, chains: [], object: { kind: 'Secret', namespace: rs[0]!.secret.namespace, name: rs[0]!.secret.name, line: rs[0]!.origin.line, input: rs[0]!.origin.input } });
  }
  // Dumps.
  for (const dump of d.dumps) {
    for (const s of dump.secrets) {
      for (const v of [s.certificateChain, s.trustedCa, s.crl, ...s.spiffe.map((x) => x.bundle)]) if (v) run.covered.add(v);
      run.role(s.certificateChain, 'workload', 'first');
      run.role(s.trustedCa, 'trust-bundle');
      for (const b of s.spiffe) run.role(b.bundle, 'trust-bundle');
    }
    // Every trust bundle of the dump (ROOTCA, SPIFFE bundles, `-cacert` secrets) and the input's own roots.
    const rootCerts = [...new Set([...dump.secrets.flatMap((s) => [...run.certsOf(s.trustedCa), ...s.spiffe.flatMap((b) => run.certsOf(b.bundle))]), ...run.trustAnchors()])];
    const chains: string[] = [];
    for (const s of dump.secrets) {
      const certs = run.certsOf(s.certificateChain);
      if (certs.length === 0) continue;
      chains.push((await run.chain(certs[0]!, `${s.name} (${s.status})`, rootCerts, certs, ['any'])).id);
    }
    run.scenario({ kind: 'envoy-dump', title: dump.style === 'config_dump' ? 'Envoy config dump (secrets)' : 'istioctl proxy-config secret -o json', source: dump.origin.input, verdict: { ok: true, text: `${dump.secrets.length} secret(s)` }, steps: dump.secrets.map((s) => ({ name: `${s.name} (${s.status}${s.versionInfo === 'uninitialized' ? ', uninitialized' : ''})`, status: s.status === 'WARMING' ? 'warn' : 'info', detail: s.certificateChain ? `certificate chain: ${run.certsOf(s.certificateChain).length} certificate(s); key ${s.privateKey === 'redacted-in-link' ? 'redacted in this link' : (s.privateKey ?? 'absent')}` : s.trustedCa ? `trusted CA: ${run.certsOf(s.trustedCa).length} certificate(s)` : s.spiffe.length ? `SPIFFE bundles: ${s.spiffe.map((b) => b.trustDomain).join(', ')}` : s.certificateChainFile ? `certificate file ${s.certificateChainFile}` : 'no certificate (not yet delivered)' })), chains });
  }
  for (const z of d.ztunnel) {
    const chains: string[] = [];
    for (const id of z.identities) {
      const chainCerts = id.certChain.flatMap((c) => run.certsOf(c.value));
      const roots = id.rootCerts.flatMap((c) => run.certsOf(c.value));
      for (const c of [...id.certChain, ...id.rootCerts]) run.covered.add(c.value);
      if (chainCerts[0]) {
        run.role(id.certChain[0]!.value, 'workload', 'first');
        const r = roots.length > 0 ? roots : chainCerts.slice(-1);
        chains.push((await run.chain(chainCerts[0], id.identity, r, chainCerts, ['any'])).id);
      }
    }
    run.scenario({ kind: 'ztunnel', title: 'ztunnel certificates', source: z.origin.input, verdict: { ok: z.identities.every((i) => i.state === 'Available'), text: `${z.identities.length} identit${z.identities.length === 1 ? 'y' : 'ies'}` }, steps: z.identities.map((i) => ({ name: i.identity, status: i.state === 'Available' ? 'pass' : i.state === 'Initializing' ? 'info' : 'fail', detail: `${i.state}: ${i.certChain.length} chain certificate(s), ${i.rootCerts.length} root(s)` })), chains });
  }
  // Loose files named like Istio's mounts.
  const files = d.values.filter((v) => !run.covered.has(v) && v.origin.path.length <= 2 && !v.origin.object);
  // Grouped by directory: `cluster1/ca-cert.pem` and `cluster2/ca-cert.pem` are two CAs, and a
  // workload's `…/cert-chain.pem` is not the CA's.
  const byDir = new Map<string, Map<string, Value>>();
  for (const f of files) {
    const dir = dirName(f.origin.input);
    const m = mapAt(byDir, dir);
    m.set(baseName(f.origin.input), f);
  }
  for (const [dir, byName] of byDir) {
    const at = dir ? ` in ${dir}/` : '';
    if (byName.has('ca-cert.pem') && byName.has('ca-key.pem')) {
      await run.pluginCa({ title: `Plug-in CA (files ca-cert.pem, ca-key.pem, cert-chain.pem, root-cert.pem${at})`, source: byName.get('ca-cert.pem')!.origin.input }, { cert: byName.get('ca-cert.pem'), key: byName.get('ca-key.pem'), chain: [byName.get('cert-chain.pem')].filter((x): x is Value => !!x), root: byName.get('root-cert.pem'), crl: byName.get('ca-crl.pem') }, 'istiod');
    }
    if (byName.has('cert-chain.pem') && byName.has('key.pem')) {
      await run.workload({ title: `Workload certificates (files cert-chain.pem, key.pem, root-cert.pem${at})`, source: byName.get('cert-chain.pem')!.origin.input }, { cert: byName.get('cert-chain.pem'), key: byName.get('key.pem'), chain: [byName.get('cert-chain.pem')!], root: byName.get('root-cert.pem') });
    }
  }
  // Everything else: PEM bundles. A key with the certificates it belongs to, roots as anchors.
  const rest = d.values.filter((v) => !run.covered.has(v) && v.artefacts.some((a) => a.kind === 'certificate'));
  if (rest.length > 0) {
    const anchors = run.trustAnchors();
    const all = run.allCerts();
    const issuers = new Set<string>();
    for (const c of all) for (const i of run.certsOfIssuers(c)) issuers.add(i.facts.sha256FingerprintHex);
    const leaves: Certificate[] = [];
    for (const v of rest) {
      const certs = run.certsOf(v);
      certs.forEach((c, i) => {
        const e = run.entry(c);
        if (!c.facts.isCA && !(c.facts.version === 1 && c.facts.selfSigned)) {
          e.roles.add(c.facts.spiffe.length > 0 ? 'workload' : 'leaf');
          leaves.push(c);
        } else if (c.facts.selfSigned) e.roles.add('root');
        else if (i === 0 && run.keys.some((k) => k.facts?.publicKey?.spkiSha256 === c.facts.publicKey.spkiSha256)) e.roles.add('signing-cert');
        else e.roles.add('intermediate');
      });
    }
    const bottoms = leaves.length > 0 ? leaves : rest.flatMap((v) => run.certsOf(v)).filter((c) => !issuers.has(c.facts.sha256FingerprintHex) && !c.facts.selfSigned);
    const seen = new Set<string>();
    const chains: string[] = [];
    for (const leaf of bottoms) {
      if (seen.has(leaf.facts.sha256FingerprintHex) || seen.size >= 50) continue;
      seen.add(leaf.facts.sha256FingerprintHex);
      const view = await run.chain(leaf, leaf.facts.spiffe[0]?.uri ?? leaf.facts.subjectCommonName ?? (leaf.facts.subject || 'certificate'), anchors, all, ['any']);
      chains.push(view.id);
    }
    const onlyRoots = rest.every((v) => run.certsOf(v).every((c) => c.facts.selfSigned));
    if (onlyRoots) for (const v of rest) run.trustBundle(`Trust bundle (${originLabel(v.origin)})`, v.origin.input, v);
    else {
      const steps: CheckStep[] = [];
      for (const id of chains) {
        const ch = run.chains.find((c) => c.id === id)!;
        steps.push({ name: ch.title, status: ch.go.ok ? 'pass' : 'fail', detail: ch.go.ok ? `verifies to a root of the input (${ch.path.length} certificate${ch.path.length === 1 ? '' : 's'})` : (ch.go.error ?? 'does not verify'), error: ch.go.error ?? undefined });
      }
      const keyless = run.keys.filter((k) => k.facts?.publicKey);
      for (const k of keyless) {
        const m = [...run.certs.values()].filter((e) => e.cert.facts.publicKey.spkiSha256 === k.facts!.publicKey!.spkiSha256);
        steps.push({ name: `key ${k.origin.label}`, status: m.length > 0 ? 'pass' : 'fail', detail: m.length > 0 ? `belongs to ${m.map((e) => e.cert.facts.subjectCommonName ?? e.cert.facts.spiffe[0]?.uri ?? e.cert.facts.subject).join(', ')}` : 'matches no certificate of the input (KEY_MISMATCH)' });
      }
      run.scenario({ kind: 'pem-bundle', title: 'PEM bundle', source: rest.map((v) => v.origin.input).filter((x, i, a) => a.indexOf(x) === i).join(', '), verdict: { ok: steps.every((s) => s.status !== 'fail'), text: steps.every((s) => s.status !== 'fail') ? 'every chain verifies to a root of the input' : 'a chain or key check fails' }, steps, chains });
      // Workload pairs: will they trust each other?
      const spiffeLeaves = [...new Map(leaves.filter((l) => l.facts.spiffe.length > 0).map((l) => [l.facts.sha256FingerprintHex, l])).values()];
      const pairs: Array<[Certificate, Certificate]> = [];
      for (let i = 0; i < spiffeLeaves.length && pairs.length < 3; i++) for (let j = i + 1; j < spiffeLeaves.length && pairs.length < 3; j++) pairs.push([spiffeLeaves[i]!, spiffeLeaves[j]!]);
      await run.mutualTrust(pairs);
    }
  }
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

function dirName(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}
