// The state of one inspection, shared by its jobs: the certificates, keys, CRLs and CSRs of the
// decoded inputs (filled by collect.ts), and what the checks found (scenarios, chains, findings,
// bundles), with the small helpers every job uses. The jobs are functions of this context:
// collect.ts (what the inputs hold), chains.ts (chains as Go builds them), scenarios.ts (Istio's
// checklists), scenarioDetection.ts (which inputs form which scenario), reportBuild.ts (the
// report); inspect.ts runs them in that order.
import type { Certificate } from './cert.ts';
import { originLabel, type Artefact, type Decoded, type Origin, type Value } from './input.ts';
import { PkiContext } from './istio.ts';
import type { PrivateKeyFacts } from './keys.ts';
import type { CertRole, Finding, Profile } from './lints.ts';
import { SignatureChecker } from './sig.ts';
import type { Crl, Csr } from './crl.ts';
import type { BundleView, ChainView, ReportOrigin, ScenarioView } from './report.ts';

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

/** A certificate of the inspection (by SHA-256 fingerprint): where it occurs, the roles it plays, the input certificates whose name matches its issuer (with the signature check), and its findings. */
export interface CertEntry {
  cert: Certificate;
  occurrences: ReportOrigin[];
  roles: Set<CertRole>;
  issuers: Array<{ cert: Certificate; status: string }>;
  findings: Finding[];
}

/** A private key of the inputs (or a key that was redacted: facts null, state says why). */
export interface KeyEntry {
  id: string;
  origin: ReportOrigin;
  facts: PrivateKeyFacts | null;
  state: string | null;
  size: number;
  pemType: string | null;
}

const DAY = 86400000;

export function reportOrigin(o: Origin, a?: { block: number | null; offset: number | null }): ReportOrigin {
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
  const unit =
    abs >= 365 * DAY
      ? [365 * DAY, 'year']
      : abs >= 30 * DAY
        ? [30 * DAY, 'month']
        : abs >= DAY
          ? [DAY, 'day']
          : abs >= 3600000
            ? [3600000, 'hour']
            : [60000, 'minute'];
  const n = Math.floor(abs / (unit[0] as number));
  const text = `${n} ${unit[1]}${n === 1 ? '' : 's'}`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

/** A key's state when a share link removed it (Envoy's own redaction is `redacted`). */
export const KEY_REDACTED_IN_LINK = 'redacted-in-link';

/** What stands for a value a share link removed, in step details and verdicts. */
export function redactedWhat(v: Value): string {
  return `${v.origin.key ?? v.origin.input} was redacted in this link`;
}

/** A distinguished name's DER as a map key: names match when their encodings are equal, as Go compares them. */
export function nameKey(der: Uint8Array): string {
  let s = '';
  for (const b of der) s += String.fromCharCode(b);
  return s;
}

/** One inspection: its inputs and options, what they hold, and what the jobs found so far. */
export class Inspection {
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

  /** The entry of a certificate the inspection holds (an error for one it never registered). */
  entry(c: Certificate): CertEntry {
    const e = this.certs.get(c.facts.sha256FingerprintHex);
    if (!e) throw new Error('certificate not registered');
    return e;
  }

  /** The certificates a value holds, as the context's one instance of each (PkiContext.adopt). */
  certsOf(v: Value | undefined): Certificate[] {
    if (!v) return [];
    return v.artefacts.filter((a): a is Extract<Artefact, { kind: 'certificate' }> => a.kind === 'certificate').map((a) => this.ctx.adopt(a.cert));
  }

  /** Marks the certificates of a value (or its first one) as playing `role`. */
  role(v: Value | undefined, role: CertRole, which: 'all' | 'first' = 'all'): void {
    const list = this.certsOf(v);
    for (const c of which === 'first' ? list.slice(0, 1) : list) this.certs.get(c.facts.sha256FingerprintHex)?.roles.add(role);
  }

  /** Records a finding of the inspection (not one of a certificate's card). */
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
    for (let i = 0; i < count; i++)
      this.keys.push({ id: `key-${this.keys.length + 1}`, origin, facts: null, state: KEY_REDACTED_IN_LINK, size: 0, pemType: null });
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

  /** Every certificate the inspection holds. */
  allCerts(): Certificate[] {
    return [...this.certs.values()].map((e) => e.cert);
  }

  /** Self-signed CAs of the input and every certificate of a trust bundle value. */
  trustAnchors(): Certificate[] {
    const out = new Set<Certificate>();
    for (const e of this.certs.values()) if (e.cert.facts.selfSigned || e.roles.has('trust-bundle') || e.roles.has('root')) out.add(e.cert);
    return [...out];
  }

  /** Gives a certificate a chain passes through an entry, when the inputs did not (every id of a chain has one). */
  register(c: Certificate): void {
    if (!this.certs.has(c.facts.sha256FingerprintHex))
      this.certs.set(c.facts.sha256FingerprintHex, { cert: c, occurrences: [], roles: new Set(), issuers: [], findings: [] });
  }

  /** The id of the next chain view (`chain-1`, `chain-2`, … in the order they are built). */
  nextChainId(): string {
    return `chain-${++this.chainCount}`;
  }

  /** Records a scenario, numbered in the order found (`scenario-1`, …); findings about a scenario being checked name the next number. */
  scenario(s: Omit<ScenarioView, 'id'>): ScenarioView {
    const v: ScenarioView = { id: `scenario-${this.scenarios.length + 1}`, ...s };
    this.scenarios.push(v);
    return v;
  }
}
