// One certificate: who it is (subject with the CN emphasised, issuer, the SPIFFE identity
// broken down), a validity bar with "now" and the rotation point, key and signature, its
// lint findings, and on demand every field: serial in three spellings, fingerprints and
// key identifiers (with copy buttons), SANs by type, constraints, usages, every extension
// decoded, time encodings and a PEM download.
import { useState } from 'react';
import type { CertView } from '../../core/pki/report.ts';
import { CopyButton, DownloadLink } from './common.tsx';

function keyText(c: CertView): string {
  const pk = c.facts.publicKey;
  return pk.type === 'EC' ? `EC ${pk.curve}` : pk.type === 'RSA' || pk.type === 'RSA-PSS' ? `${pk.type} ${pk.bits}` : pk.type;
}

function ValidityBar({ c, at }: { c: CertView; at: string }) {
  const nb = Date.parse(c.facts.notBefore);
  const na = Date.parse(c.facts.notAfter);
  const now = Date.parse(at);
  const span = na - nb || 1;
  const pos = Math.min(1, Math.max(0, (now - nb) / span));
  const expired = now > na;
  const early = now < nb;
  return (
    <div className="certs-validity" data-testid="certs-validity">
      <div className={`certs-bar ${expired ? 'expired' : early ? 'early' : ''}`} title={`${c.facts.notBefore} → ${c.facts.notAfter}`}>
        <div className="certs-bar-used" style={{ width: `${pos * 100}%` }} />
        {!c.facts.isCA && <div className="certs-bar-rotate" style={{ left: '50%' }} title="rotation point (50% of the lifetime)" />}
        <div className="certs-bar-now" style={{ left: `${pos * 100}%` }} title={`at ${at}`} />
      </div>
      <div className="certs-bar-labels">
        <span>{c.facts.notBefore.slice(0, 10)}</span>
        <span className={expired ? 'certs-error' : ''} data-testid="certs-expires">
          {c.expiresIn}
        </span>
        <span>{c.facts.notAfter.slice(0, 10)}</span>
      </div>
    </div>
  );
}

function Row({ k, v, copy }: { k: string; v: string; copy?: boolean }) {
  return (
    <div className="certs-kv">
      <span className="certs-k">{k}</span>
      <span className="certs-v">
        <code>{v}</code>
        {copy && v && <CopyButton text={v} />}
      </span>
    </div>
  );
}

export function CertCard({ cert: c, at, onReveal }: { cert: CertView; at: string; onReveal: (file: string | undefined, line: number | undefined) => void }) {
  const [open, setOpen] = useState(false);
  const f = c.facts;
  const cnIndex = f.subject.lastIndexOf('CN=');
  const errors = c.findings.filter((x) => x.severity === 'error').length;
  const warnings = c.findings.filter((x) => x.severity === 'warning').length;
  const infos = c.findings.length - errors - warnings;
  const serialDecimal = f.serialDecimal;
  return (
    <article
      id={`cert-${c.id}`}
      className={`certs-card${errors ? ' has-errors' : ''}`}
      data-testid="certs-card"
      data-cert-id={c.id}
      data-roles={c.roles.join(' ')}
    >
      <header className="certs-card-head">
        <div className="certs-chips">
          {c.roles.map((r) => (
            <span key={r} className="certs-chip">
              {r}
            </span>
          ))}
          <span className="certs-chip">{f.isCA ? 'CA' : 'leaf'}</span>
          {f.selfSigned && <span className="certs-chip">self-signed</span>}
          <span className="certs-chip">{keyText(c)}</span>
          <span className="certs-chip">{f.signatureAlgorithm}</span>
          {errors > 0 && (
            <span className="certs-chip chip-bad">
              {errors} error{errors === 1 ? '' : 's'}
            </span>
          )}
          {warnings > 0 && (
            <span className="certs-chip chip-warn">
              {warnings} warning{warnings === 1 ? '' : 's'}
            </span>
          )}
          {infos > 0 && (
            <span className="certs-chip">
              {infos} note{infos === 1 ? '' : 's'}
            </span>
          )}
        </div>
        <div className="certs-subject" data-testid="certs-subject">
          {f.subject === '' ? (
            <em>(empty subject)</em>
          ) : cnIndex >= 0 ? (
            <>
              {f.subject.slice(0, cnIndex)}
              <strong>{f.subject.slice(cnIndex).split(', ')[0]}</strong>
              {f.subject.slice(cnIndex).split(', ').slice(1).length ? `, ${f.subject.slice(cnIndex).split(', ').slice(1).join(', ')}` : ''}
            </>
          ) : (
            f.subject
          )}
        </div>
        <div className="certs-issuer muted">issued by {f.issuer || '(empty)'}</div>
        {f.spiffe.map((s) => (
          <div key={s.uri} className="certs-spiffe" data-testid="certs-spiffe">
            <code>{s.uri}</code>
            {s.istioIdentityFormat && (
              <span className="muted">
                {' '}
                trust domain <strong>{s.trustDomain}</strong> · namespace <strong>{s.namespace}</strong> · service account <strong>{s.serviceAccount}</strong>
              </span>
            )}
          </div>
        ))}
        {f.spiffe.length === 0 && f.subjectAltName.dns[0] && (
          <div className="certs-spiffe muted">
            DNS {f.subjectAltName.dns.slice(0, 3).join(', ')}
            {f.subjectAltName.dns.length > 3 ? ` +${f.subjectAltName.dns.length - 3}` : ''}
          </div>
        )}
        <ValidityBar c={c} at={at} />
        <div className="certs-where muted">
          {c.occurrences.slice(0, 3).map((o, i) => (
            <span key={i}>
              {i > 0 && '; '}
              {o.line !== undefined ? (
                <button type="button" className="link-button" onClick={() => onReveal(o.input, o.line)}>
                  {o.label}
                </button>
              ) : (
                o.label
              )}
            </span>
          ))}
          {c.occurrences.length > 3 && ` and ${c.occurrences.length - 3} more`}
        </div>
      </header>
      {c.findings.length > 0 && (
        <ul className="certs-card-findings">
          {c.findings.map((x, i) => (
            <li key={i} className={`sev-${x.severity}`} data-testid="certs-card-finding" data-id={x.id}>
              <span className="certs-sev">{x.severity}</span> <code>{x.id}</code> {x.message}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="link-button" aria-expanded={open} data-testid="certs-card-toggle" onClick={() => setOpen(!open)}>
        {open ? 'Hide details' : 'Details'}
      </button>
      {open && (
        <div className="certs-details">
          <Row k="serial (openssl)" v={f.serialHex} copy />
          <Row k="serial (istioctl)" v={f.serialIstioctl ?? '(Go cannot parse it)'} />
          <Row k="serial (decimal)" v={serialDecimal} />
          <Row k="SHA-256" v={f.sha256Fingerprint} copy />
          <Row k="SHA-1" v={f.sha1Fingerprint} copy />
          <Row k="SPKI SHA-256" v={f.publicKey.spkiSha256} copy />
          <Row k="version" v={String(f.version)} />
          <Row k="key" v={`${keyText(c)}${f.publicKey.exponent ? `, e=${f.publicKey.exponent}` : ''}`} />
          <Row
            k="validity"
            v={`${f.notBefore} (${f.notBeforeEncoding}) → ${f.notAfter} (${f.notAfterEncoding}), ${Math.round(f.validitySeconds / 86400)} days`}
          />
          {f.subjectAltName.present && (
            <>
              {f.subjectAltName.dns.length > 0 && <Row k="SAN DNS" v={f.subjectAltName.dns.join(', ')} />}
              {f.subjectAltName.uri.length > 0 && <Row k="SAN URI" v={f.subjectAltName.uri.join(', ')} />}
              {f.subjectAltName.ip.length > 0 && <Row k="SAN IP" v={f.subjectAltName.ip.join(', ')} />}
              {f.subjectAltName.email.length > 0 && <Row k="SAN email" v={f.subjectAltName.email.join(', ')} />}
              {f.subjectAltName.other.length > 0 && <Row k="SAN other" v={f.subjectAltName.other.join(', ')} />}
            </>
          )}
          <Row
            k="basic constraints"
            v={
              f.basicConstraints.present
                ? `CA:${f.basicConstraints.ca ? 'TRUE' : 'FALSE'}${f.basicConstraints.pathLen !== null ? `, pathLen ${f.basicConstraints.pathLen}` : ''}${f.basicConstraints.critical ? ' (critical)' : ''}`
                : 'absent'
            }
          />
          <Row k="key usage" v={f.keyUsage.present ? `${f.keyUsage.usages.join(', ')}${f.keyUsage.critical ? ' (critical)' : ''}` : 'absent'} />
          <Row
            k="extended key usage"
            v={f.extKeyUsage.present ? `${f.extKeyUsage.usages.join(', ')}${f.extKeyUsage.critical ? ' (critical)' : ''}` : 'absent'}
          />
          <Row k="SKI" v={f.subjectKeyIdentifier ?? 'absent'} copy={!!f.subjectKeyIdentifier} />
          <Row k="AKI" v={f.authorityKeyIdentifier ?? 'absent'} copy={!!f.authorityKeyIdentifier} />
          {f.nameConstraints.present && <Row k="name constraints" v={f.nameConstraints.text.join('; ')} />}
          <div className="certs-k">extensions</div>
          <ul className="certs-ext">
            {f.extensions.map((e, i) => (
              <li key={i}>
                <strong>{e.name}</strong>
                {e.critical ? ' (critical)' : ''}: {e.text ?? ''}
              </li>
            ))}
            {f.extensions.length === 0 && <li>none (a v{f.version} certificate)</li>}
          </ul>
          {c.issuers.length > 0 && <Row k="issuers in the input" v={c.issuers.map((i) => `${i.id.slice(0, 16)}… (${i.signature})`).join(', ')} />}
          <div className="certs-row">
            <CopyButton text={c.pem} label="Copy PEM" />
            <DownloadLink name={`${(f.subjectCommonName ?? 'certificate').replace(/[^\w.-]+/g, '_')}.pem`} text={c.pem} label="Download PEM" />
          </div>
        </div>
      )}
    </article>
  );
}
