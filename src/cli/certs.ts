// `mesh-workbench certs`: inspect certificates, keys, CRLs, Secrets and dumps offline — the
// chains Go (and so Istio) builds, Istio's own verdicts with its error texts, lints, and
// istioctl's tables for pasted dumps. Private keys are only ever described, never printed.
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { flagHelp, parseArgs, UsageError, type FlagSpec } from './args.ts';
import { EXIT_ERROR, EXIT_ISSUES, EXIT_OK, EXIT_PARSE, type CliIo } from './analyze.ts';
import { InputTooLargeError, readCapped } from './readCapped.ts';
import { inspect, type CertsReport, type InputFile } from '../core/pki/index.ts';
import { MAX_INPUT_BYTES as MAX_CERT_INPUT_BYTES } from '../core/pki/input.ts';
import type { CertView, ChainView, ScenarioView } from '../core/pki/report.ts';

export const CERTS_FLAGS: FlagSpec[] = [
  { long: 'at', kind: 'string', arg: 'date', help: 'Check validity as of this date (RFC 3339 or YYYY-MM-DD, UTC) instead of now.' },
  { long: 'trust-domain', kind: 'string', arg: 'domain', help: 'The mesh trust domain SPIFFE identities must carry (default "cluster.local").' },
  { long: 'trust-domain-alias', kind: 'list', arg: 'domain', help: 'A trust domain alias (meshConfig.trustDomainAliases). Can be repeated.' },
  { long: 'profile', kind: 'string', arg: 'name', help: 'Lint profile: "default" or "production" (best-practice findings become warnings).' },
  { long: 'output', short: 'o', kind: 'string', arg: 'format', help: 'Output format: one of [text json] (default "text").' },
  { long: 'help', short: 'h', kind: 'bool', help: 'Help for certs.' },
];

export function certsHelp(): string {
  return `Inspect certificates as Istio would check them: chains (Go's verification, which Istio
runs), Istio's plug-in CA, self-signed CA, gateway credential and workload checks with
Istio's error texts, lints, and istioctl's tables for Envoy and ztunnel dumps.

Usage:
  mesh-workbench certs [flags] <file|directory|->...

Inputs: PEM (any number of blocks, indented, CRLF, JSON-escaped, openssl -text dumps), DER,
base64 of DER or PEM, Kubernetes Secrets and ConfigMaps (YAML or JSON, lists, several
documents), Envoy /config_dump, istioctl proxy-config secret -o json, istioctl
ztunnel-config certificates -o json, and Istio multi-cluster remote secrets. Files named
ca-cert.pem, ca-key.pem, cert-chain.pem and root-cert.pem are checked as a plug-in CA.

Examples:
  # Is this a valid plug-in CA?
  mesh-workbench certs ca-cert.pem ca-key.pem cert-chain.pem root-cert.pem

  # A cacerts Secret, as of the day of the upgrade
  kubectl get secret cacerts -n istio-system -o yaml | mesh-workbench certs --at 2027-03-01 -

Flags:
${flagHelp(CERTS_FLAGS)}

Exit codes: 0 when nothing is wrong, 79 when a check fails or an error-level finding is
reported, 65 when an input holds nothing that could be read or is over the 32 MB limit
(inputs are read up to it, devices, FIFOs and stdin too), 64 on a bad flag, 1 when a path
cannot be read.
`;
}

/** Positional arguments after `certs` (flags are parsed with the certs flags). */
export function parseAt(value: string): Date {
  const v = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const d = new Date(v);
  if (!/^\d{4}-\d{2}-\d{2}(T|$)/.test(value) || Number.isNaN(d.getTime()))
    throw new UsageError(`invalid argument "${value}" for "--at" flag: use RFC 3339 (2026-12-01T00:00:00Z) or YYYY-MM-DD`);
  return d;
}

async function gather(args: string[], io: CliIo): Promise<InputFile[]> {
  const out: InputFile[] = [];
  const walk = async (abs: string, name: string): Promise<void> => {
    let st;
    try {
      st = await stat(abs);
    } catch {
      throw new Error(`open ${name}: no such file or directory`);
    }
    if (st.isDirectory()) {
      for (const e of (await readdir(abs)).sort()) await walk(join(abs, e), join(name, e));
      return;
    }
    try {
      // Certificate inputs have their own cap (src/core/pki/input.ts), applied while reading too.
      out.push({ name, bytes: new Uint8Array(await readCapped(abs, name, MAX_CERT_INPUT_BYTES)) });
    } catch (e) {
      if (e instanceof InputTooLargeError) throw e;
      throw new Error(`open ${name}: ${(e as Error).message}`);
    }
  };
  for (const a of args) {
    if (a === '-') out.push({ name: 'stdin', text: await io.stdin() });
    else await walk(resolve(io.cwd, a), a);
  }
  return out;
}

const MARK: Record<string, string> = { pass: '✓', fail: '✗', skipped: '–', warn: '!', info: '·' };

function certLine(c: CertView | undefined): string {
  if (!c) return '(unknown certificate)';
  const f = c.facts;
  const who = f.spiffe[0]?.uri ?? f.subjectCommonName ?? (f.subject || '(empty subject)');
  const key = f.publicKey.type === 'EC' ? `EC ${f.publicKey.curve}` : `${f.publicKey.type} ${f.publicKey.bits}`;
  return `${who}  [${f.isCA ? 'CA' : 'leaf'}${f.selfSigned ? ', self-signed' : ''}; ${key}; ${f.signatureAlgorithm}; ${c.expiresIn}]`;
}

function chainText(ch: ChainView, byId: Map<string, CertView>): string[] {
  const lines = [`  Chain: ${ch.title}`];
  ch.path.forEach((id, i) => {
    lines.push(`    ${i === 0 ? 'leaf' : i === ch.path.length - 1 ? 'top ' : 'int '}  ${certLine(byId.get(id))}`);
    const link = ch.links[i];
    if (link) {
      const bad = link.checks.filter((c) => c.status !== 'ok' && c.status !== 'info');
      lines.push(
        `      ↑ ${link.status === 'ok' ? 'ok' : link.status}${bad.length ? `: ${bad.map((c) => `${c.name}: ${c.detail}`).join('; ')}` : ` (${link.checks.map((c) => c.name).join(', ')})`}`,
      );
    }
  });
  if (ch.anchor) lines.push(`      ${ch.anchor.trusted ? `trusted: ${ch.anchor.where ?? 'in the roots supplied'}` : 'NOT in the supplied trust bundle'}`);
  lines.push(`    Go (${ch.go.usages.join(', ')}): ${ch.go.ok ? 'verified' : ch.go.error}`);
  if (ch.opensslNote && ch.openssl)
    lines.push(
      `    openssl verify: ${ch.openssl.ok ? 'OK' : `error ${ch.openssl.error!.code} at depth ${ch.openssl.error!.depth}: ${ch.openssl.error!.message}`} — ${ch.opensslNote}`,
    );
  return lines;
}

function scenarioText(s: ScenarioView, r: CertsReport, byId: Map<string, CertView>): string[] {
  const lines = [`${s.title}: ${s.verdict.text}`];
  for (const st of s.steps) {
    lines.push(`  ${MARK[st.status] ?? ' '} ${st.name}: ${st.detail}${st.error && st.status === 'fail' ? `\n      ${st.error}` : ''}`);
  }
  for (const id of s.chains) {
    const ch = r.chains.find((c) => c.id === id);
    if (ch) lines.push(...chainText(ch, byId));
  }
  return lines;
}

export function formatCertsText(r: CertsReport): string {
  const byId = new Map(r.certificates.map((c) => [c.id, c]));
  const out: string[] = [];
  out.push(
    `Checked at ${r.at}, trust domain ${r.trustDomain}${r.aliases.length ? ` (aliases ${r.aliases.join(', ')})` : ''}${r.profile === 'production' ? ', production profile' : ''}.`,
  );
  if (r.privateKeys) out.push('The input holds private keys: they are described below, never printed.');
  for (const s of r.scenarios) out.push('', ...scenarioText(s, r, byId));
  const shown = new Set(r.scenarios.flatMap((s) => s.chains));
  for (const ch of r.chains.filter((c) => !shown.has(c.id))) out.push('', ...chainText(ch, byId));
  for (const t of r.tables) out.push('', `istioctl view of ${t.source}:`, t.text.trimEnd(), ...t.notes.map((n) => `note: ${n}`));
  if (r.remotes.length > 0) {
    out.push('', 'Remote clusters:');
    for (const rc of r.remotes)
      out.push(
        `  ${rc.secret} cluster "${rc.clusterId}": ${rc.server || '(no server)'}, ${rc.auth}${rc.error ? ` — ERROR: ${rc.error}` : rc.caVerifiesClient === true ? ', CA verifies the client certificate' : rc.caVerifiesClient === false ? ", the kubeconfig's CA does not sign the client certificate (the API server may trust another client CA)" : ''}`,
      );
  }
  out.push('', `Certificates (${r.certificates.length}):`);
  for (const c of r.certificates) {
    const f = c.facts;
    out.push(`  ${f.subject || '(empty subject)'}`);
    out.push(`    issuer ${f.issuer || '(empty)'}; serial ${f.serialHex}; ${f.notBefore} → ${f.notAfter} (${c.expiresIn})`);
    out.push(
      `    ${f.publicKey.type === 'EC' ? `EC ${f.publicKey.curve}` : `${f.publicKey.type} ${f.publicKey.bits} bits`}, ${f.signatureAlgorithm}; SHA-256 ${f.sha256Fingerprint}`,
    );
    const sans = [
      ...f.subjectAltName.dns.map((d) => `DNS:${d}`),
      ...f.subjectAltName.uri.map((u) => `URI:${u}`),
      ...f.subjectAltName.ip.map((i) => `IP:${i}`),
      ...f.subjectAltName.email.map((e) => `email:${e}`),
    ];
    if (sans.length) out.push(`    SAN ${sans.join(', ')}`);
    for (const s of f.spiffe)
      if (s.istioIdentityFormat) out.push(`    SPIFFE trust domain ${s.trustDomain}, namespace ${s.namespace}, service account ${s.serviceAccount}`);
    out.push(`    found in ${c.occurrences.map((o) => o.label).join('; ') || '(derived)'}`);
    for (const l of c.findings) out.push(`    ${l.severity.padEnd(7)} ${l.id}: ${l.message}`);
  }
  if (r.keys.length) {
    out.push('', `Private keys (${r.keys.length}):`);
    for (const k of r.keys) {
      const pk = k.publicKey;
      out.push(
        `  ${k.origin.label}: ${k.state === 'redacted' ? 'redacted by Envoy' : k.state === 'redacted-in-link' ? 'redacted in this link' : k.state === 'encrypted' ? 'encrypted (Istio cannot read it)' : pk ? `${pk.type} ${pk.type === 'EC' ? pk.curve : `${pk.bits} bits`} (${k.encoding}), ${k.matches.length ? `matches ${k.matches.map((m) => byId.get(m)?.facts.subjectCommonName ?? byId.get(m)?.facts.spiffe[0]?.uri ?? m.slice(0, 16)).join(', ')}` : 'matches no certificate of the input'}` : 'unreadable'} ${k.masked}`,
      );
    }
  }
  for (const c of r.crls)
    out.push(
      '',
      `CRL ${c.origin.label}: issuer ${c.facts.issuer}, next update ${c.facts.nextUpdate ?? 'none'}${c.expired ? ' (expired)' : ''}, ${c.facts.revokedSerials.length} revoked, ${c.signedBy.length ? `signed by ${c.signedBy.map((s) => s.subject).join(', ')}` : 'signed by no certificate of the input'}`,
    );
  const other = r.findings.filter((f) => f.subject.kind !== 'certificate');
  if (other.length || r.problems.length) {
    out.push('', 'Findings:');
    for (const p of r.problems) out.push(`  ${p.severity.padEnd(7)} ${p.where}${p.line ? `:${p.line}` : ''}: ${p.message}`);
    for (const f of other) out.push(`  ${f.severity.padEnd(7)} ${f.id}: ${f.message}`);
  }
  for (const h of r.hints) out.push(`hint: ${h}`);
  out.push('', `${r.counts.errors} error(s), ${r.counts.warnings} warning(s), ${r.counts.infos} note(s).`);
  return out.join('\n') + '\n';
}

export async function runCerts(argv: readonly string[], io: CliIo, now: () => Date = () => new Date()): Promise<number> {
  const parsed = parseArgs(argv, CERTS_FLAGS);
  const args = parsed.positionals.slice(parsed.positionals[0] === 'certs' ? 1 : 0);
  if (parsed.values.get('help') === true) {
    io.stdout(certsHelp());
    return EXIT_OK;
  }
  const output = (parsed.values.get('output') as string | undefined) ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(`invalid argument "${output}" for "-o, --output" flag: use text or json`);
  const profile = (parsed.values.get('profile') as string | undefined) ?? 'default';
  if (profile !== 'default' && profile !== 'production') throw new UsageError(`invalid argument "${profile}" for "--profile" flag: use default or production`);
  const at = parsed.values.has('at') ? parseAt(parsed.values.get('at') as string) : now();
  if (args.length === 0) throw new UsageError('no input files: give files, directories or - for stdin');
  let files: InputFile[];
  try {
    files = await gather(args, io);
  } catch (e) {
    io.stderr(`Error: ${(e as Error).message}\n`);
    return e instanceof InputTooLargeError ? EXIT_PARSE : EXIT_ERROR;
  }
  const report = await inspect(files, {
    now: at,
    trustDomain: (parsed.values.get('trust-domain') as string | undefined) ?? 'cluster.local',
    aliases: (parsed.values.get('trust-domain-alias') as string[] | undefined) ?? [],
    profile,
  });
  io.stdout(output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatCertsText(report));
  const anything = report.certificates.length + report.keys.length + report.crls.length + report.csrs.length + report.tables.length + report.remotes.length;
  const failed = report.scenarios.some((s) => !s.verdict.ok) || report.counts.errors > 0;
  if (anything === 0) return EXIT_PARSE;
  if (failed) return EXIT_ISSUES;
  return EXIT_OK;
}
