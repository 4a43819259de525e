// The result of an inspection, as plain data: it crosses the worker boundary by structured
// clone, is printed by the CLI (`-o json`) and compared by the conformance runner. Private
// keys appear only as their type, size and public-key digest, never as key material.
import type { CertificateFacts, PublicKeyFacts } from './cert.ts';
import type { CrlFacts, CsrFacts } from './crl.ts';
import type { Severity } from './input.ts';
import type { CheckStep, IstioVerdict } from './istio.ts';
import type { BundleOrder, CertRole, Finding, Profile } from './lints.ts';
import type { OpensslVerdict } from './openssl.ts';

export interface ReportOrigin {
  /** `input › Secret ns/name › key › block 2`. */
  label: string;
  input: string;
  path: string[];
  object?: { kind: string; namespace: string; name: string };
  key?: string;
  line?: number;
  block?: number | null;
  offset?: number | null;
}

export interface CertView {
  /** SHA-256 fingerprint (hex): the certificate's id in the report. */
  id: string;
  facts: CertificateFacts;
  /** Every place the same certificate appears. */
  occurrences: ReportOrigin[];
  roles: CertRole[];
  /** Certificates of the input whose subject is this one's issuer, and whether their key signed it. */
  issuers: Array<{ id: string; signature: string }>;
  /** istioctl proxy-config secret's view of it (null when Go cannot parse it). */
  istioctl: IstioctlSecretRow | null;
  findings: Finding[];
  /** Lifetime used, 0..1 (null outside the validity window), for the validity bar. */
  lifeUsed: number | null;
  /** Human remaining time at `at` ("expires in 3 days", "expired 2 years ago"). */
  expiresIn: string;
  /** PEM of the certificate (public), for copy and download. */
  pem: string;
}

export interface KeyView {
  id: string;
  origin: ReportOrigin;
  encoding: string | null;
  pemType: string | null;
  publicKey: PublicKeyFacts | null;
  /** Istio's ParsePemEncodedKey verdict (`supported` or its error). */
  istio: string;
  /** Certificates (ids) whose public key this is. */
  matches: string[];
  /** `encrypted`, `redacted` (by Envoy), `redacted-in-link` (by a share link), `unsupported` or null. */
  state: string | null;
  /** A masked rendering, e.g. `-----BEGIN RSA PRIVATE KEY----- ••••••• (1,675 bytes)`. */
  masked: string;
}

export interface CrlView {
  id: string;
  origin: ReportOrigin;
  facts: CrlFacts;
  signedBy: Array<{ id: string; subject: string }>;
  expired: boolean;
}

export interface CsrView {
  id: string;
  origin: ReportOrigin;
  facts: CsrFacts;
  signatureValid: boolean | null;
}

export interface LinkCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail' | 'info';
  detail: string;
}

export interface ChainLink {
  child: string;
  parent: string;
  status: 'ok' | 'warn' | 'fail';
  checks: LinkCheck[];
}

export interface ChainView {
  id: string;
  title: string;
  /** Leaf first. */
  path: string[];
  links: ChainLink[];
  /** The Go verdict (Istio's verification). */
  go: { ok: boolean; error: string | null; usages: string[] };
  /** openssl verify's verdict (shown when it differs from Go's). */
  openssl: OpensslVerdict | null;
  /** A one-line explanation when OpenSSL and Go disagree. */
  opensslNote?: string;
  anchor: { id: string; trusted: boolean; where?: string } | null;
  /** The trust bundle this chain was checked against (ids). */
  roots: string[];
}

export interface ScenarioView {
  id: string;
  kind:
    | 'plugin-ca'
    | 'self-signed-ca'
    | 'gateway-credential'
    | 'gateway-ca'
    | 'trust-bundle'
    | 'workload'
    | 'mutual-trust'
    | 'envoy-dump'
    | 'ztunnel'
    | 'remote-secret'
    | 'pem-bundle'
    | 'generic-secret';
  title: string;
  source: string;
  object?: { kind: string; namespace: string; name: string; line?: number; input: string };
  /** Istio's overall verdict in words ("istiod would refuse this bundle: …"). */
  verdict: { ok: boolean; text: string };
  steps: CheckStep[];
  /** Chains (ids) this scenario checked. */
  chains: string[];
  /** Istio verdicts by layer (plug-in CA: Verify and start-up; workload: VerifyCertificate). */
  istio?: { keyCertBundleVerify?: IstioVerdict; pluggedCaLoad?: IstioVerdict; workloadVerify?: IstioVerdict };
}

export interface IstioctlSecretRow {
  'RESOURCE NAME': string;
  TYPE: string;
  STATUS: string;
  'VALID CERT': boolean;
  'SERIAL NUMBER': string;
  'NOT AFTER': string;
  'NOT BEFORE': string;
  'TRUST DOMAIN'?: string;
}

export interface IstioctlTable {
  source: string;
  columns: string[];
  rows: Array<Record<string, string | boolean>>;
  /** The table as istioctl prints it. */
  text: string;
  /** Rows istioctl shows ACTIVE although Envoy never initialised them. */
  notes: string[];
}

export interface RemoteView {
  secret: string;
  clusterId: string;
  server: string;
  auth: string;
  ca: string[];
  clientCert: string[];
  /** The CA verifies the client certificate (null when either is absent). */
  caVerifiesClient: boolean | null;
  error?: string;
  line?: number;
  input: string;
}

export interface ProblemView {
  severity: Severity;
  message: string;
  where: string;
  line?: number;
  input: string;
}

export interface BundleView {
  origin: ReportOrigin;
  certs: string[];
  order: BundleOrder;
}

export interface CertsReport {
  at: string;
  trustDomain: string;
  aliases: string[];
  profile: Profile;
  certificates: CertView[];
  keys: KeyView[];
  crls: CrlView[];
  csrs: CsrView[];
  scenarios: ScenarioView[];
  chains: ChainView[];
  bundles: BundleView[];
  findings: Finding[];
  tables: IstioctlTable[];
  remotes: RemoteView[];
  problems: ProblemView[];
  hints: string[];
  /** The input holds private key material (the view shows a banner). */
  privateKeys: boolean;
  counts: { errors: number; warnings: number; infos: number };
  /** Signature checks run through WebCrypto. */
  signatureChecks: number;
}
