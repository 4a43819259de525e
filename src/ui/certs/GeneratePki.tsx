// The "Generate test PKI" form: a root CA, one intermediate per cluster and workload
// certificates made in the tab with WebCrypto (the same hierarchy as Istio's tools/certs
// Makefiles), the workload side of Istio's CA flow (key pair, CSR, what the CA changed),
// and downloads: PEM files and a `cacerts` Secret per cluster. "Inspect" hands the files
// to the panel. The generator (and @peculiar/x509) load only when the form is used.
import { useState } from 'react';
import type { CertificatesInput } from '../../core/queries/views.ts';
import type { Breakage, GeneratedPki, GenKeyAlgorithm } from '../../core/pki/generate.ts';
import { DownloadLink } from './common.tsx';

export function GeneratePki({ onInspect }: { onInspect: (files: CertificatesInput[]) => void }) {
  const [alg, setAlg] = useState<GenKeyAlgorithm>('ECDSA-P256');
  const [trustDomain, setTrustDomain] = useState('cluster.local');
  const [clusters, setClusters] = useState('cluster1, cluster2');
  const [workloads, setWorkloads] = useState('default/sleep, default/httpbin');
  const [breakage, setBreakage] = useState<Breakage>('none');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pki, setPki] = useState<GeneratedPki | null>(null);
  const list = (s: string) =>
    s
      .split(/[,\s]+/)
      .map((x) => x.trim())
      .filter(Boolean);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const { generatePki } = await import('../../core/pki/generate.ts');
      setPki(
        await generatePki({
          keyAlgorithm: alg,
          trustDomain: trustDomain.trim() || 'cluster.local',
          clusters: list(clusters),
          workloads: list(workloads),
          breakage,
        }),
      );
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Generation failed.');
    } finally {
      setBusy(false);
    }
  };
  const first = pki ? (pki.files.find((f) => f.path.endsWith('/ca-cert.pem'))?.path.split('/')[0] ?? '') : '';
  return (
    <section className="certs-section certs-generate" data-testid="certs-generate-form">
      <h4>Generate test PKI</h4>
      <div className="certs-form">
        <label>
          Keys{' '}
          <select className="text-input" value={alg} data-testid="certs-generate-alg" onChange={(e) => setAlg(e.target.value as GenKeyAlgorithm)}>
            <option value="ECDSA-P256">ECDSA P-256</option>
            <option value="ECDSA-P384">ECDSA P-384</option>
            <option value="RSA-2048">RSA 2048</option>
            <option value="RSA-4096">RSA 4096 (slow)</option>
          </select>
        </label>
        <label>
          Trust domain <input className="text-input" value={trustDomain} onChange={(e) => setTrustDomain(e.target.value)} />
        </label>
        <label>
          Clusters <input className="text-input" value={clusters} onChange={(e) => setClusters(e.target.value)} />
        </label>
        <label>
          Workloads (ns/sa) <input className="text-input" value={workloads} onChange={(e) => setWorkloads(e.target.value)} />
        </label>
        <label>
          Break it{' '}
          <select className="text-input" value={breakage} data-testid="certs-generate-break" onChange={(e) => setBreakage(e.target.value as Breakage)}>
            <option value="none">no (valid PKI)</option>
            <option value="wrong-key">wrong CA key</option>
            <option value="expired">expired intermediate</option>
            <option value="wrong-trust-domain">wrong trust domain</option>
          </select>
        </label>
      </div>
      <div className="certs-row">
        <button type="button" className="button primary" data-testid="certs-generate-run" disabled={busy} onClick={() => void run()}>
          {busy ? 'Generating…' : 'Generate'}
        </button>
        {pki && (
          <button
            type="button"
            className="button"
            data-testid="certs-generate-inspect"
            onClick={() =>
              onInspect(
                pki.files
                  .filter((f) => f.path.startsWith(`${first}/`) && !f.path.includes('/workloads/') && !f.path.endsWith('.yaml'))
                  .map((f) => ({ name: f.path.slice(first.length + 1), text: f.text }))
                  .concat(
                    pki.files
                      .filter((f) => f.path.includes('/workloads/') && (f.path.endsWith('/cert-chain.pem') || f.path.endsWith('/csr.pem')))
                      .map((f) => ({ name: f.path, text: f.text })),
                  ),
              )
            }
          >
            Inspect {first}
          </button>
        )}
      </div>
      {error && <div className="field-error">{error}</div>}
      {pki && (
        <>
          {pki.broken && (
            <p className="certs-error" data-testid="certs-generate-broken">
              Broken on purpose: {pki.broken}
            </p>
          )}
          <ul className="certs-list" data-testid="certs-generate-files">
            {pki.files.map((f) => (
              <li key={f.path}>
                <DownloadLink name={f.path.replace(/\//g, '_')} text={f.text} label={f.path} testId="certs-generate-download" />
                {f.secret && <span className="muted"> (holds a private key)</span>}
              </li>
            ))}
          </ul>
          {pki.csrs.map((c) => (
            <details key={c.identity} className="certs-csr">
              <summary>CSR flow for {c.identity}</summary>
              <pre className="certs-pem">{c.csrPem}</pre>
              <ul>
                {c.changes.map((x, i) => (
                  <li key={i}>{x}</li>
                ))}
              </ul>
            </details>
          ))}
        </>
      )}
    </section>
  );
}
