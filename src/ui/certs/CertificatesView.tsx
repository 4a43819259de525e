// The Certificates view (a tab of the main area, src/state/views.ts): what the user pasted or
// uploaded, and the certificate material of the workspace (Secrets, the istio-ca-root-cert
// ConfigMap, the Secrets Gateways name with credentialName), inspected by the worker's
// `certificates` query: Istio's scenarios with their checklists, chain diagrams, a card per
// certificate, keys (masked), CRLs, istioctl's tables and remote clusters. Nothing pasted
// leaves the view, and private keys are never shown, stored or shared. The inspector's tab
// shows CertificatesSummary instead.
import { useEffect, useMemo, useRef, useState } from 'react';
import { query } from '../../state/queries.ts';
import { useAnalysis } from '../../state/analysis.ts';
import type { CertificatesArgs, CertificatesInput, CertificatesResult } from '../../core/queries/views.ts';
import type { CertsReport, CertView, ScenarioView } from '../../core/pki/report.ts';
import { encodeBase64Std } from '../../core/pki/base64.ts';
import { isPrintableUtf8 } from '../../core/pki/bytes.ts';
import { ChainDiagram } from './ChainDiagram.tsx';
import { CertCard } from './CertCard.tsx';
import { GeneratePki } from './GeneratePki.tsx';
import { CopyButton } from './common.tsx';
import './certs.css';
import { openAt } from '../../state/navigation.ts';

const MARK: Record<string, string> = { pass: '✓', fail: '✗', skipped: '–', warn: '!', info: '·' };

/** `datetime-local` value (UTC) of a date. */
function localValue(d: Date): string {
  return d.toISOString().slice(0, 16);
}

/** The Certificates view: fills the main area's panel and scrolls inside it. */
export function CertificatesView() {
  return (
    <div className="certs-view">
      <CertificatesContent />
    </div>
  );
}

function CertificatesContent() {
  const resultVersion = useAnalysis((s) => s.resultVersion);
  const [paste, setPaste] = useState('');
  const [pasteName, setPasteName] = useState('');
  const [inputs, setInputs] = useState<CertificatesInput[]>([]);
  const [workspace, setWorkspace] = useState(true);
  const [at, setAt] = useState<string | null>(null);
  const [trustDomain, setTrustDomain] = useState('');
  const [profile, setProfile] = useState<'default' | 'production'>('default');
  const [generating, setGenerating] = useState(false);
  const [state, setState] = useState<{ data?: CertificatesResult; error?: string; loading: boolean }>({ loading: true });
  const seq = useRef(0);

  const args = useMemo<CertificatesArgs>(() => {
    const a: CertificatesArgs = { inputs, workspace: workspace || inputs.length === 0, profile };
    if (at) a.at = new Date(`${at}:00Z`).toISOString();
    if (trustDomain.trim()) a.trustDomain = trustDomain.trim();
    return a;
  }, [inputs, workspace, at, trustDomain, profile]);

  useEffect(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    query('certificates', args).then(
      (data) => seq.current === mine && setState({ data, loading: false }),
      (e: unknown) =>
        seq.current === mine && setState((s) => ({ data: s.data, error: e instanceof Error ? e.message : 'The certificates query failed.', loading: false })),
    );
  }, [args, resultVersion]);

  const inspectPaste = () => {
    if (!paste.trim()) return;
    // A name such as ca-cert.pem gives the paste its role (Istio reads files by name); pastes
    // with different names add up, the same name replaces.
    const name = pasteName.trim() || 'paste';
    setInputs((list) => [...list.filter((i) => i.name !== name), { name, text: paste }]);
    setPaste('');
    setPasteName('');
  };
  const upload = async (files: FileList | null) => {
    if (!files) return;
    const read: CertificatesInput[] = [];
    for (const f of Array.from(files)) {
      const bytes = new Uint8Array(await f.arrayBuffer());
      // Binary (DER) travels as base64 text; the reader recognises it.
      read.push(isPrintableUtf8(bytes) ? { name: f.name, text: new TextDecoder().decode(bytes) } : { name: f.name, text: encodeBase64Std(bytes) });
    }
    setInputs((list) => [...list.filter((i) => !read.some((r) => r.name === i.name)), ...read]);
  };

  const report = state.data?.report;
  return (
    <div className="certs-panel" data-testid="certs-panel">
      <div className="certs-controls">
        <textarea
          className="certs-paste"
          data-testid="certs-paste"
          aria-label="Paste certificates, keys, Secrets or dumps"
          placeholder="Paste PEM, base64, a Secret, a config dump… (stays in this tab)"
          value={paste}
          spellCheck={false}
          onChange={(e) => setPaste(e.target.value)}
        />
        <div className="certs-row">
          <input
            className="text-input certs-paste-name"
            data-testid="certs-paste-name"
            aria-label="File name of the paste (optional), e.g. ca-cert.pem"
            placeholder="as file… (e.g. ca-key.pem)"
            value={pasteName}
            onChange={(e) => setPasteName(e.target.value)}
          />
          <button type="button" className="button primary" data-testid="certs-inspect" onClick={inspectPaste} disabled={!paste.trim()}>
            Inspect
          </button>
          <label className="button certs-upload-label">
            Upload…
            <input type="file" multiple data-testid="certs-upload" className="certs-upload" onChange={(e) => void upload(e.target.files)} />
          </label>
          <button type="button" className="button" data-testid="certs-generate" onClick={() => setGenerating(!generating)} aria-expanded={generating}>
            Generate test PKI
          </button>
          {inputs.length > 0 && (
            <button
              type="button"
              className="link-button"
              data-testid="certs-clear"
              onClick={() => {
                setInputs([]);
                setPaste('');
              }}
            >
              Clear ({inputs.map((i) => i.name).join(', ')})
            </button>
          )}
        </div>
        <div className="certs-row certs-settings">
          <label title="Check validity as of this time (UTC)">
            At{' '}
            <input
              type="datetime-local"
              className="text-input"
              data-testid="certs-at"
              value={at ?? localValue(new Date())}
              onChange={(e) => setAt(e.target.value || null)}
            />
          </label>
          <button type="button" className="link-button" data-testid="certs-now" onClick={() => setAt(null)} disabled={at === null}>
            Now
          </button>
          <label>
            Trust domain{' '}
            <input
              className="text-input certs-td"
              data-testid="certs-trust-domain"
              placeholder={report?.trustDomain ?? 'cluster.local'}
              value={trustDomain}
              onChange={(e) => setTrustDomain(e.target.value)}
            />
          </label>
          <label>
            Profile{' '}
            <select
              className="text-input"
              data-testid="certs-profile"
              value={profile}
              onChange={(e) => setProfile(e.target.value === 'production' ? 'production' : 'default')}
            >
              <option value="default">default</option>
              <option value="production">production</option>
            </select>
          </label>
          <label className="checkbox certs-inline">
            <input type="checkbox" data-testid="certs-workspace" checked={workspace} onChange={(e) => setWorkspace(e.target.checked)} />
            <span>Workspace Secrets</span>
          </label>
        </div>
      </div>
      {generating && (
        <GeneratePki
          onInspect={(files) => {
            setInputs((list) => [...list.filter((i) => !files.some((f) => f.name === i.name)), ...files]);
            setGenerating(false);
          }}
        />
      )}
      {state.error && <div className="field-error">{state.error}</div>}
      {state.loading && !report && <p className="muted">Inspecting…</p>}
      {report && <ReportView result={state.data!} loading={state.loading} />}
    </div>
  );
}

function reveal(file: string | undefined, line: number | undefined) {
  if (!file) return;
  openAt(file, { line });
}

function ReportView({ result, loading }: { result: CertificatesResult; loading: boolean }) {
  const r = result.report;
  const byId = useMemo(() => new Map(r.certificates.map((c) => [c.id, c])), [r]);
  const nothing = r.certificates.length + r.keys.length + r.crls.length + r.tables.length + r.remotes.length + r.scenarios.length === 0;
  return (
    <div className={`certs-report${loading ? ' stale' : ''}`} data-testid="certs-report">
      {r.privateKeys && (
        <div className="certs-banner" data-testid="certs-key-banner" role="note">
          The input holds private keys. They are read only in this tab, shown masked, never stored and never put in share links.
        </div>
      )}
      <p className="muted certs-summary" data-testid="certs-summary">
        {r.certificates.length} certificate{r.certificates.length === 1 ? '' : 's'}, {r.keys.length} key{r.keys.length === 1 ? '' : 's'}
        {r.crls.length ? `, ${r.crls.length} CRL${r.crls.length === 1 ? '' : 's'}` : ''} · checked at {r.at} · trust domain {r.trustDomain}
        {r.aliases.length ? ` (+ ${r.aliases.join(', ')})` : ''} · {r.counts.errors} error{r.counts.errors === 1 ? '' : 's'}, {r.counts.warnings} warning
        {r.counts.warnings === 1 ? '' : 's'}
      </p>
      {nothing && <p className="muted">No certificates here yet: paste or upload some, generate a test PKI, or add Secrets to the workspace.</p>}
      {result.missing.map((m, i) => (
        <div key={i} className="certs-missing" data-testid="certs-missing">
          {m.user}: credentialName <code>{m.credentialName}</code> names no Secret in namespace {m.namespace} (IST0101)
        </div>
      ))}
      {r.problems.length > 0 && (
        <ul className="certs-problems" data-testid="certs-problems">
          {r.problems.map((p, i) => (
            <li key={i} className={`sev-${p.severity}`}>
              <span className="certs-sev">{p.severity}</span> {p.where}
              {p.line ? `:${p.line}` : ''}: {p.message}
            </li>
          ))}
        </ul>
      )}
      {r.hints.map((h, i) => (
        <p key={i} className="muted">
          {h}
        </p>
      ))}
      {r.scenarios.map((s) => (
        <Scenario key={s.id} s={s} report={r} byId={byId} />
      ))}
      {r.chains
        .filter((c) => !r.scenarios.some((s) => s.chains.includes(c.id)))
        .map((c) => (
          <ChainDiagram key={c.id} chain={c} byId={byId} />
        ))}
      {r.tables.map((t, i) => (
        <section key={i} className="certs-section" data-testid="certs-istioctl-table">
          <h4>istioctl view ({t.source})</h4>
          <div className="certs-table-wrap">
            <table className="certs-table">
              <thead>
                <tr>
                  {t.columns.map((c) => (
                    <th key={c}>{c}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {t.rows.map((row, j) => (
                  <tr key={j}>
                    {t.columns.map((c) => (
                      <td key={c}>{String(row[c])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {t.notes.map((n, j) => (
            <p key={j} className="muted">
              {n}
            </p>
          ))}
          <CopyButton text={t.text} label="Copy as istioctl prints it" />
        </section>
      ))}
      {r.remotes.length > 0 && (
        <section className="certs-section" data-testid="certs-remotes">
          <h4>Remote clusters</h4>
          <ul className="certs-list">
            {r.remotes.map((rc, i) => (
              <li key={i} className={rc.error ? 'sev-error' : ''} data-testid="certs-remote">
                <strong>{rc.clusterId}</strong> ({rc.secret}
                {rc.line ? `, line ${rc.line}` : ''}): {rc.server || 'no server'}, {rc.auth}
                {rc.ca.length > 0 && `; CA ${byId.get(rc.ca[0]!)?.facts.subject ?? ''} (${byId.get(rc.ca[0]!)?.expiresIn ?? ''})`}
                {rc.clientCert.length > 0 && `; client certificate ${byId.get(rc.clientCert[0]!)?.expiresIn ?? ''}`}
                {rc.error && <div className="certs-error">{rc.error}</div>}
              </li>
            ))}
          </ul>
        </section>
      )}
      {r.keys.length > 0 && (
        <section className="certs-section">
          <h4>Private keys</h4>
          <ul className="certs-list">
            {r.keys.map((k) => (
              <li key={k.id} data-testid="certs-key" className={k.publicKey && k.matches.length === 0 ? 'sev-error' : ''}>
                <code className="certs-masked">{k.masked}</code>
                <div>
                  {k.origin.label}:{' '}
                  {k.state === 'redacted'
                    ? 'redacted by Envoy (key checks skipped)'
                    : k.state === 'redacted-in-link'
                      ? 'key redacted in this link (key checks skipped)'
                      : k.state === 'encrypted'
                        ? 'encrypted: Istio cannot read it'
                        : k.publicKey
                          ? `${k.publicKey.type} ${k.publicKey.type === 'EC' ? k.publicKey.curve : `${k.publicKey.bits} bits`} (${k.encoding})`
                          : 'unreadable'}
                </div>
                {k.publicKey &&
                  (k.matches.length > 0 ? (
                    <div className="certs-ok">matches {k.matches.map((m) => certName(byId.get(m))).join(', ')}</div>
                  ) : (
                    <div className="certs-error">KEY_MISMATCH: matches no certificate of the input (the cert does not match the key)</div>
                  ))}
                {k.istio !== 'supported' && k.state !== 'redacted' && k.state !== 'redacted-in-link' && <div className="certs-error">{k.istio}</div>}
              </li>
            ))}
          </ul>
        </section>
      )}
      {r.crls.map((c) => (
        <section key={c.id} className="certs-section" data-testid="certs-crl">
          <h4>CRL · {c.origin.label}</h4>
          <p className="muted">
            issuer {c.facts.issuer}; this update {c.facts.thisUpdate}; next update {c.facts.nextUpdate ?? 'none'}
            {c.expired ? ' (expired)' : ''}; {c.facts.revokedSerials.length} revoked;{' '}
            {c.signedBy.length ? `signed by ${c.signedBy.map((s) => s.subject).join(', ')}` : 'signed by no certificate of the input'}
          </p>
        </section>
      ))}
      {r.csrs.map((c) => (
        <section key={c.id} className="certs-section" data-testid="certs-csr">
          <h4>Certificate request · {c.origin.label}</h4>
          <p className="muted">
            subject {c.facts.subject || '(empty)'}; {c.facts.publicKey.type}{' '}
            {c.facts.publicKey.type === 'EC' ? c.facts.publicKey.curve : c.facts.publicKey.bits}; requested SANs {c.facts.requestedSans.join(', ') || 'none'}
            {'; '}signature {c.signatureValid === null ? 'not checked' : c.signatureValid ? 'valid' : 'INVALID'}
          </p>
        </section>
      ))}
      {r.certificates.length > 0 && (
        <section className="certs-section">
          <h4>Certificates ({r.certificates.length})</h4>
          {r.certificates.map((c) => (
            <CertCard key={c.id} cert={c} at={r.at} onReveal={reveal} />
          ))}
        </section>
      )}
      <Findings report={r} />
    </div>
  );
}

export function certName(c: CertView | undefined): string {
  if (!c) return '(unknown)';
  const f = c.facts;
  return f.spiffe[0]?.uri ?? f.subjectCommonName ?? (f.subject || '(empty subject)');
}

function Scenario({ s, report, byId }: { s: ScenarioView; report: CertsReport; byId: Map<string, CertView> }) {
  const [open, setOpen] = useState(true);
  return (
    <section
      className={`certs-section certs-scenario ${s.verdict.ok ? 'ok' : 'bad'}`}
      data-testid="certs-scenario"
      data-kind={s.kind}
      data-ok={String(s.verdict.ok)}
    >
      <h4>
        <button type="button" className="section-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> {s.title}
        </button>
      </h4>
      {s.object?.input && s.object.line !== undefined && (
        <button type="button" className="link-button" onClick={() => reveal(s.object!.input, s.object!.line)}>
          {s.object.input}:{s.object.line}
        </button>
      )}
      <p className={`certs-verdict ${s.verdict.ok ? 'certs-ok' : 'certs-error'}`} data-testid="certs-verdict">
        {s.verdict.text}
      </p>
      {open && (
        <>
          <ol className="certs-steps">
            {s.steps.map((st, i) => (
              <li
                key={i}
                className={`step-${st.status}`}
                data-testid="certs-step"
                data-status={st.status}
                title={st.source ? `Istio: ${st.source}` : undefined}
              >
                <span className="certs-mark" role="img" aria-label={st.status}>
                  {MARK[st.status]}
                </span>{' '}
                <strong>{st.name}</strong>: {st.detail}
                {st.error && st.status === 'fail' && <div className="certs-error certs-quote">{st.error}</div>}
              </li>
            ))}
          </ol>
          {s.chains.map((id) => {
            const ch = report.chains.find((c) => c.id === id);
            return ch ? <ChainDiagram key={id} chain={ch} byId={byId} /> : null;
          })}
        </>
      )}
    </section>
  );
}

function Findings({ report }: { report: CertsReport }) {
  const rest = report.findings.filter((f) => f.subject.kind !== 'certificate');
  if (rest.length === 0) return null;
  return (
    <section className="certs-section" data-testid="certs-findings">
      <h4>Chain, bundle, key and CRL checks</h4>
      <ul className="certs-list">
        {rest.map((f, i) => (
          <li key={i} className={`sev-${f.severity}`} data-testid="certs-finding" data-id={f.id}>
            <span className="certs-sev">{f.severity}</span> <code>{f.id}</code> {f.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
