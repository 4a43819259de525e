// The report, the last job of an inspection: each certificate's lints for the roles it plays,
// bundle order, blocks Go skips, keys (and the certificates they belong to), CRLs and what they
// revoke, CSRs, istioctl's tables, remote secrets, the certificate cards, and the counts. The
// result is plain data (report.ts).
import type { Certificate } from './cert.ts';
import { originLabel } from './input.ts';
import { humanSpan, KEY_REDACTED_IN_LINK, nameKey, reportOrigin, type Inspection } from './inspection.ts';
import { crlSignedBy } from './istio.ts';
import { bundleOrder, LINTS, lintCertificate, type Finding } from './lints.ts';
import { encodePem } from './pem.ts';
import type { CertsReport, CertView, CrlView, CsrView, IstioctlSecretRow, KeyView, ProblemView, RemoteView } from './report.ts';
import { spiffeHost } from './spiffe.ts';
import { istioctlSecretTables, ztunnelTables } from './tables.ts';
import { CertPool, goVerify } from './verify.ts';

/** The report of an inspection whose inputs are collected and scenarios checked. */
export async function buildReport(run: Inspection): Promise<CertsReport> {
  const now = run.ctx.now;
  // Per-certificate lints, with the roles they play.
  for (const e of run.certs.values()) {
    if (e.roles.size === 0) {
      const f = e.cert.facts;
      e.roles.add(f.isCA ? (f.selfSigned ? 'root' : 'intermediate') : f.version === 1 && f.selfSigned ? 'root' : 'leaf');
    }
    const crlFromIt = run.crls.some((c) => nameKey(c.crl.issuerDer) === nameKey(e.cert.subjectDer));
    for (const l of lintCertificate(e.cert, {
      now,
      roles: e.roles,
      profile: run.opts.profile,
      trustDomain: e.roles.has('workload') || e.cert.facts.spiffe.length > 0 ? run.opts.trustDomain : undefined,
      aliases: run.opts.aliases,
    })) {
      const severity = l.id === 'CA_KU_NO_CRLSIGN' && crlFromIt ? 'error' : l.severity;
      const f: Finding = {
        id: l.id,
        severity,
        message: `${LINTS[l.id]?.title ?? l.id}${l.detail ? `: ${l.detail}` : ''}`,
        subject: {
          kind: 'certificate',
          id: e.cert.facts.sha256FingerprintHex,
          label: e.cert.facts.subjectCommonName ?? (e.cert.facts.subject || e.cert.facts.sha256FingerprintHex.slice(0, 16)),
        },
      };
      e.findings.push(f);
      run.findings.push(f);
    }
  }
  // Bundles: order of the certificates in each value holding two or more.
  for (const v of run.decoded.values) {
    const certs = run.certsOf(v);
    if (certs.length < 2) continue;
    const order = bundleOrder(certs, (i, c) => run.issued(i, c));
    const origin = reportOrigin(v.origin);
    run.bundles.push({ origin, certs: certs.map((c) => c.facts.sha256FingerprintHex), order });
    for (const id of order.lints) run.finding(id, 'warning', `${origin.label}: ${LINTS[id]!.title}`, { kind: 'value', id: origin.label, label: origin.label });
  }
  // Values: blocks Go's decoder skips.
  for (const p of run.decoded.problems)
    if (/Go's PEM decoder (skips|would skip|does not see)/.test(p.message))
      run.finding('PEM_BLOCK_SKIPPED_BY_GO', 'warning', `${originLabel(p.origin)}: ${p.message}`, { kind: 'value', id: originLabel(p.origin) });
  // Keys.
  const keys: KeyView[] = run.keys.map((k) => {
    const matches = k.facts?.publicKey
      ? [...run.certs.values()]
          .filter((e) => e.cert.facts.publicKey.spkiSha256 === k.facts!.publicKey!.spkiSha256)
          .map((e) => e.cert.facts.sha256FingerprintHex)
      : [];
    if (k.state === 'redacted')
      run.finding('KEY_REDACTED', 'info', `${k.origin.label}: key redacted by Envoy; key checks skipped`, { kind: 'key', id: k.id, label: k.origin.label });
    if (k.state === KEY_REDACTED_IN_LINK)
      run.finding('KEY_REDACTED_IN_LINK', 'info', `${k.origin.label}: key redacted in this link; key checks skipped`, {
        kind: 'key',
        id: k.id,
        label: k.origin.label,
      });
    const pk = k.facts?.publicKey;
    if (pk && pk.type === 'RSA' && pk.bits < 2048)
      run.finding('KEY_WEAK', pk.bits < 1024 ? 'error' : 'warning', `${k.origin.label}: RSA key of ${pk.bits} bits`, {
        kind: 'key',
        id: k.id,
        label: k.origin.label,
      });
    if (k.facts && k.facts.istioParsePemEncodedKey !== 'supported')
      run.finding('KEY_UNSUPPORTED_PEM_TYPE', 'error', `${k.origin.label}: ${k.facts.istioParsePemEncodedKey}`, {
        kind: 'key',
        id: k.id,
        label: k.origin.label,
      });
    return {
      id: k.id,
      origin: k.origin,
      encoding: k.facts?.encoding ?? null,
      pemType: k.pemType,
      publicKey: pk ?? null,
      istio:
        k.facts?.istioParsePemEncodedKey ?? (k.state === 'redacted' ? 'redacted' : k.state === KEY_REDACTED_IN_LINK ? 'redacted in this link' : 'unreadable'),
      matches,
      state: k.state,
      masked: k.state === KEY_REDACTED_IN_LINK ? '••••••••' : keyMask(k.pemType, k.size),
    };
  });
  // A key next to certificates it belongs to none of.
  for (const k of keys) {
    if (!k.publicKey || k.matches.length > 0) continue;
    const siblings = [...run.certs.values()].filter((e) =>
      e.occurrences.some((o) => o.input === k.origin.input && JSON.stringify(o.object ?? null) === JSON.stringify(k.origin.object ?? null)),
    );
    if (siblings.length === 0) continue;
    run.finding(
      'KEY_MISMATCH',
      'error',
      `${k.origin.label}: the private key matches none of the ${siblings.length} certificate(s) next to it (the cert does not match the key)`,
      { kind: 'key', id: k.id, label: k.origin.label },
    );
    // On the card of the certificate the key should belong to: a signing cert or a leaf next to it, else the first.
    const target =
      siblings.find((e) => e.roles.has('signing-cert')) ??
      siblings.find((e) => !e.cert.facts.isCA) ??
      siblings.find((e) => !e.cert.facts.selfSigned) ??
      siblings[0]!;
    if (!target.findings.some((f) => f.id === 'KEY_MISMATCH'))
      target.findings.push({
        id: 'KEY_MISMATCH',
        severity: 'error',
        message: `the private key ${k.origin.label} does not match this certificate (the cert does not match the key: tls: private key does not match public key)`,
        subject: { kind: 'certificate', id: target.cert.facts.sha256FingerprintHex, label: target.cert.facts.subjectCommonName ?? target.cert.facts.subject },
      });
  }
  // CRLs.
  const crls: CrlView[] = [];
  for (const c of run.crls) {
    const signedBy: CrlView['signedBy'] = [];
    for (const e of run.certs.values()) {
      if (nameKey(e.cert.subjectDer) !== nameKey(c.crl.issuerDer)) continue;
      const s = await run.ctx.signatures.crl({ der: c.crl.der, sigOid: c.crl.facts.signatureAlgorithmOid }, e.cert);
      if (s.status === 'verified') {
        signedBy.push({ id: e.cert.facts.sha256FingerprintHex, subject: e.cert.facts.subject });
        const go = await crlSignedBy(run.ctx, c.crl, e.cert);
        if (go)
          run.finding('CRL_ISSUER_NO_CRLSIGN', 'error', `${c.origin.label}: ${e.cert.facts.subject} signed it, but Go refuses it as a CRL issuer (${go})`, {
            kind: 'crl',
            id: c.id,
            label: c.origin.label,
          });
      }
    }
    const expired = c.crl.nextUpdate !== null && c.crl.nextUpdate.getTime() < now.getTime();
    if (expired)
      run.finding('CRL_EXPIRED', 'warning', `${c.origin.label}: nextUpdate ${c.crl.facts.nextUpdate} is in the past (Istio does not check this)`, {
        kind: 'crl',
        id: c.id,
        label: c.origin.label,
      });
    for (const e of run.certs.values()) {
      if (c.crl.facts.revokedSerials.includes(e.cert.facts.serialHex) && nameKey(e.cert.issuerDer) === nameKey(c.crl.issuerDer))
        run.finding('CRL_REVOKES_INPUT', 'error', `${c.origin.label}: revokes ${e.cert.facts.subject} (serial ${e.cert.facts.serialHex})`, {
          kind: 'crl',
          id: c.id,
          label: c.origin.label,
        });
    }
    crls.push({ id: c.id, origin: c.origin, facts: c.crl.facts, signedBy, expired });
  }
  const csrs: CsrView[] = [];
  for (const c of run.csrs) {
    const s = await run.ctx.signatures.csr({ der: c.csr.der, sigOid: c.csr.sigOid }, c.csr.spkiDer, c.csr.facts.publicKey);
    csrs.push({ id: c.id, origin: c.origin, facts: c.csr.facts, signatureValid: s.status === 'verified' ? true : s.status === 'failed' ? false : null });
  }
  const tables = [...istioctlSecretTables(run.decoded.dumps, run.ctx, now), ...ztunnelTables(run.decoded.ztunnel, now)];
  const remotes = await remoteViews(run);
  const certificates: CertView[] = [...run.certs.values()].map((e) => {
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
      expiresIn:
        now > e.cert.notAfter
          ? `expired ${humanSpan(e.cert.notAfter.getTime() - now.getTime())}`
          : now < e.cert.notBefore
            ? `valid ${humanSpan(e.cert.notBefore.getTime() - now.getTime())}`
            : `expires ${humanSpan(e.cert.notAfter.getTime() - now.getTime())}`,
      pem: encodePem('CERTIFICATE', e.cert.der),
    };
  });
  const problems: ProblemView[] = run.decoded.problems.map((p) => ({
    severity: p.severity,
    message: p.message,
    where: originLabel(p.origin),
    line: p.origin.line,
    input: p.origin.input,
  }));
  const all = [...run.findings, ...problems.map((p) => ({ severity: p.severity }))];
  return {
    at: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    trustDomain: run.opts.trustDomain,
    aliases: run.opts.aliases,
    profile: run.opts.profile,
    certificates,
    keys,
    crls,
    csrs,
    scenarios: run.scenarios,
    chains: run.chains,
    bundles: run.bundles,
    findings: run.findings,
    tables,
    remotes,
    problems,
    hints: run.decoded.hints,
    privateKeys: run.keys.some((k) => k.state !== 'redacted' && k.state !== KEY_REDACTED_IN_LINK),
    counts: {
      errors: all.filter((f) => f.severity === 'error').length,
      warnings: all.filter((f) => f.severity === 'warning').length,
      infos: all.filter((f) => f.severity === 'info').length,
    },
    signatureChecks: run.ctx.signatures.checks,
  };
}

/**
 * The clusters of remote secrets, and whether each one's CA signs its client certificate. A
 * kubeconfig's certificate-authority-data is the CA client-go trusts for the API server's own
 * certificate; the API server checks client certificates against its client CA
 * (--client-ca-file), which is often the same CA (kubeadm) but need not be (managed clusters):
 * a client certificate that CA does not sign is a note, not an error.
 */
async function remoteViews(run: Inspection): Promise<RemoteView[]> {
  const out: RemoteView[] = [];
  for (const r of run.decoded.remotes) {
    const ca = run.certsOf(r.ca);
    const client = run.certsOf(r.clientCert);
    let verifies: boolean | null = null;
    if (ca.length > 0 && client.length > 0) {
      const res = await goVerify(client[0]!, {
        roots: new CertPool(ca),
        intermediates: new CertPool(client),
        now: run.ctx.now,
        keyUsages: ['any'],
        signatures: run.ctx.signatures,
      });
      verifies = res.ok;
      if (!res.ok)
        run.finding(
          'REMOTE_CLIENT_CA',
          'info',
          `remote secret ${r.secret.namespace}/${r.secret.name} cluster "${r.clusterId}": the kubeconfig's CA does not sign the client certificate (${res.error}); the API server accepts it only if its own client CA does`,
          { kind: 'value', id: originLabel(r.origin), label: originLabel(r.origin) },
        );
    }
    for (const v of [r.ca, r.clientCert, r.clientKey]) if (v) run.covered.add(v);
    const view: RemoteView = {
      secret: `${r.secret.namespace}/${r.secret.name}`,
      clusterId: r.clusterId,
      server: r.server,
      auth: r.auth,
      ca: ca.map((c) => c.facts.sha256FingerprintHex),
      clientCert: client.map((c) => c.facts.sha256FingerprintHex),
      caVerifiesClient: verifies,
      input: r.origin.input,
    };
    if (r.error) view.error = r.error;
    if (r.origin.line !== undefined) view.line = r.origin.line;
    out.push(view);
  }
  return out;
}

/** What stands for a key's body in the report (its PEM type and size). */
function keyMask(pemType: string | null, size: number): string {
  return `${pemType ? `-----BEGIN ${pemType}----- ` : ''}•••••••• (${size.toLocaleString('en-US')} bytes, masked)`;
}

/** A certificate as a row of `istioctl proxy-config secret`. */
export function istioctlRow(c: Certificate, now: Date): IstioctlSecretRow {
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
