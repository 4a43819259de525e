// The inspector's "Certificates" tab: what the workspace's certificate material comes to, in
// a few lines, and a button that opens the full view in the main area (CertificatesView).
import { useWorkerQuery } from '../common/useWorkerQuery.ts';
import { useViews } from '../../state/views.ts';
import './certs.css';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function CertificatesSummary() {
  const { data, error } = useWorkerQuery('certificates', { inputs: [], workspace: true, profile: 'default' });
  const r = data?.report;
  return (
    <div className="certs-summary-panel" data-testid="certs-summary-panel">
      {error && !r ? (
        <div className="field-error">{error}</div>
      ) : !r ? (
        <p className="muted">Inspecting the workspace’s certificates…</p>
      ) : (
        <>
          <p data-testid="certs-summary-counts">
            Workspace: {plural(r.certificates.length, 'certificate')}, {plural(r.keys.length, 'key')}
            {r.scenarios.length > 0 && `, ${plural(r.scenarios.length, 'CA setup')}`} · trust domain {r.trustDomain}
          </p>
          {(r.counts.errors > 0 || r.counts.warnings > 0 || data.missing.length > 0) && (
            <p className={r.counts.errors > 0 || data.missing.length > 0 ? 'certs-error' : 'muted'}>
              {plural(r.counts.errors, 'error')}, {plural(r.counts.warnings, 'warning')}
              {data.missing.length > 0 && `, ${plural(data.missing.length, 'credentialName')} naming no Secret`}
            </p>
          )}
        </>
      )}
      <div>
        <button type="button" className="button" data-testid="open-view-certs" onClick={() => useViews.getState().openView('certs')}>
          Open Certificates
        </button>
      </div>
      <p className="muted">
        Paste or upload certificates, keys or dumps, check Istio’s CA setups and chains, or generate a test PKI in the main area, beside the files.
      </p>
    </div>
  );
}
