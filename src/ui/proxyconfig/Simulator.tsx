// The request simulator: a request typed in, the steps Envoy takes for it (listener, chain,
// virtual host, route, cluster, endpoints…) each linked to the config line, and the verdict on
// top. The form is kept in the proxy view's store, so it is still filled in after a reload.
import { useRef, useState } from 'react';
import { query } from '../../state/queries.ts';
import { useProxyView } from '../../state/proxyView.ts';
import type { SimulateArgs, SimulateResult } from '../../core/queries/views.ts';
import type { ProvenanceKey } from '../../core/xds/request.ts';
import { bestSource, describeSource, reveal, type Provenance } from './shared.ts';

/** `end-user: jason; x-env: dev` → headers (entries without a name are dropped). */
export function parseHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(/[;\n]/)) {
    const i = part.indexOf(':', part.startsWith(':') ? 1 : 0);
    const name = (i < 0 ? part : part.slice(0, i)).trim();
    if (name !== '') out[name] = i < 0 ? '' : part.slice(i + 1).trim();
  }
  return out;
}

export function Simulator({ proxy, provenance }: { proxy: string; provenance: Provenance }) {
  const form = useProxyView((s) => s.sim);
  const set = (patch: Partial<typeof form>) => useProxyView.getState().setSim(patch);
  const [result, setResult] = useState<SimulateResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = () => {
    setError(null);
    const { headers, ...rest } = form;
    query('simulate', { ...rest, headers: parseHeaders(headers), proxy }).then(setResult, (e: unknown) => {
      setResult(null);
      setError(e instanceof Error ? e.message : 'The simulation failed.');
    });
  };
  const sourceOf = (at: ProvenanceKey | undefined) => (at ? bestSource(provenance[at.table][at.key]) : undefined);
  const stepsRef = useRef<HTMLOListElement>(null);
  const showStep = (i: number) => {
    const li = stepsRef.current?.children[i];
    if (li instanceof HTMLElement) {
      // Centred: at an edge a fraction of a pixel may stay cut off.
      li.scrollIntoView({ block: 'center' });
      li.focus({ preventScroll: true });
    }
  };
  return (
    <div className="proxy-sim" data-testid="proxy-simulator">
      <form
        className="sim-form"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <select
          className="text-input"
          aria-label="Protocol"
          data-testid="sim-protocol"
          value={form.protocol}
          onChange={(e) => set({ protocol: e.target.value as SimulateArgs['protocol'] & string })}
        >
          {['http', 'http2', 'grpc', 'tcp', 'tls'].map((p) => (
            <option key={p} value={p}>
              {p === 'http' ? 'HTTP/1.1' : p === 'http2' ? 'HTTP/2' : p === 'grpc' ? 'gRPC' : p.toUpperCase()}
            </option>
          ))}
        </select>
        <select className="text-input" aria-label="Method" data-testid="sim-method" value={form.method} onChange={(e) => set({ method: e.target.value })}>
          {['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'].map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <input
          className="text-input"
          aria-label="Host"
          placeholder="host or IP"
          data-testid="sim-host"
          value={form.host}
          onChange={(e) => set({ host: e.target.value })}
        />
        <input
          className="text-input sim-port"
          aria-label="Port"
          type="number"
          data-testid="sim-port"
          value={form.port}
          onChange={(e) => set({ port: Number(e.target.value) })}
        />
        <input
          className="text-input"
          aria-label="Path"
          placeholder="/path"
          data-testid="sim-path"
          value={form.path}
          onChange={(e) => set({ path: e.target.value })}
        />
        <input
          className="text-input"
          aria-label="Headers"
          placeholder="headers: name: value; …"
          data-testid="sim-headers"
          value={form.headers}
          onChange={(e) => set({ headers: e.target.value })}
        />
        <button type="submit" className="button" data-testid="sim-run">
          Simulate
        </button>
      </form>
      {error && <div className="field-error">{error}</div>}
      {result && (
        <div className="sim-result" data-testid="sim-result" data-ok={result.ok ? 'true' : 'false'}>
          <SimVerdict result={result} onShowStep={showStep} />
          <ol className="sim-steps" aria-label="Steps" ref={stepsRef}>
            {result.steps.map((s, i) => {
              const src = s.source?.file ? s.source : sourceOf(s.at);
              const failing = s.status === 'fail' || s.kind === 'failure';
              return (
                <li
                  key={i}
                  tabIndex={-1}
                  className={`sim-step sim-${s.kind}${failing ? ' sim-step-failing' : ''}`}
                  data-testid={`sim-step-${s.kind}`}
                  data-status={failing ? 'fail' : 'ok'}
                >
                  <span className="sim-step-num" data-testid="sim-step-num" aria-hidden="true">
                    {i + 1}.
                  </span>
                  <div className="sim-step-body">
                    <span className="sim-kind">{s.kind}</span> {failing && <span className="sim-fail-badge">failed</span>}{' '}
                    {src ? (
                      <button type="button" className="link-button" title={`From ${describeSource(src)} (${src.file}:${src.line})`} onClick={() => reveal(src)}>
                        {s.title}
                      </button>
                    ) : (
                      <code>{s.title}</code>
                    )}
                    {s.detail && <div className="muted sim-detail">{s.detail}</div>}
                  </div>
                </li>
              );
            })}
          </ol>
        </div>
      )}
    </div>
  );
}

/** The verdict, above the steps: the result, status, response flags, where it ended, and why. */
function SimVerdict({ result, onShowStep }: { result: SimulateResult; onShowStep: (index: number) => void }) {
  const v = result.verdict;
  // The step where it fails, shown here too: the list below may start under the fold.
  const failAt = v.failingSteps[0];
  const causes = v.causes.filter((c) => result.ok || c !== result.failure);
  return (
    <section className={`sim-verdict sim-verdict-${v.outcome}`} data-testid="sim-verdict" data-outcome={v.outcome} aria-label="Verdict">
      <div className="sim-verdict-head">
        <strong className="sim-verdict-summary" data-testid="sim-verdict-summary">
          {v.summary}
        </strong>
        {v.status !== undefined && (
          <span className="sim-verdict-chip" data-testid="sim-verdict-status" title="HTTP status Envoy answers with">
            {v.status}
          </span>
        )}
        {v.flags.map((f) => (
          <span key={f} className="sim-verdict-chip" data-testid="sim-verdict-flag" title="Envoy response flag (%RESPONSE_FLAGS% in the access log)">
            {f}
          </span>
        ))}
      </div>
      {v.endedAt !== '' && (v.outcome === 'ok' || failAt === undefined) && (
        <div className="sim-verdict-where" data-testid="sim-verdict-ended">
          {v.outcome === 'ok' ? 'Ends at' : 'Fails at'} <code>{v.endedAt}</code>
        </div>
      )}
      {v.outcome !== 'ok' && failAt !== undefined && (
        <div className="sim-verdict-where" data-testid="sim-verdict-ended">
          Fails at{' '}
          <button
            type="button"
            className="link-button sim-verdict-step sim-step-failing"
            data-testid="sim-verdict-step"
            data-status="fail"
            title="Show this step in the list"
            onClick={() => onShowStep(failAt)}
          >
            step {failAt + 1}: {v.endedAt}
          </button>
        </div>
      )}
      {!result.ok && (
        <p className="field-error sim-failure" data-testid="sim-failure">
          {result.failure}
        </p>
      )}
      {causes.length > 0 && (
        <ul className="sim-verdict-causes" data-testid="sim-verdict-causes">
          {causes.map((c, i) => (
            <li key={i} data-testid="sim-verdict-cause">
              {c}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
