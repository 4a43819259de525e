// The Describe view (a tab of the main area, src/state/views.ts): `istioctl x describe pod` for
// a chosen pod, from the worker's `describe` query. Its Services and ports, revision and mesh
// mode (with why), the DestinationRule and its subsets, the VirtualService routes that reach
// the pod, mTLS and the AuthorizationPolicies; for an ambient pod, ztunnel's view instead (the
// waypoints, L4 policies and a request traced hop by hop). The resources that almost apply,
// and istioctl's own text to compare with. Every fact links to its YAML line.
import { useEffect, useRef, useState } from 'react';
import { useWorkerQuery } from '../common/useWorkerQuery.ts';
import { useDescribeView, type DescribeScope } from '../../state/describeView.ts';
import { useViews } from '../../state/views.ts';
import type { AlmostApplies, DescribeResult, PodWarning } from './types.ts';
import { RefLink, SourcesContext, Src } from './links.tsx';
import { SidecarFacts } from './SidecarFacts.tsx';
import { AmbientFacts } from './AmbientFacts.tsx';
import './describe.css';

const PICKER_LIMIT = 200;

const MODE_LABEL = { sidecar: 'sidecar', ambient: 'ambient', none: 'not in the mesh' } as const;

export function DescribeView() {
  const pod = useDescribeView((s) => s.pod);
  const scope = useDescribeView((s) => s.scope);
  const traceFrom = useDescribeView((s) => s.traceFrom);
  // Asked only while the view shows: describing generates the pod's Envoy config after every edit.
  const shown = useViews((s) => s.active === 'describe');
  const { data, error, loading } = useWorkerQuery('describe', { pod, ...(traceFrom ? { traceFrom } : {}) }, pod !== '' && shown);
  // An answer for another pod (before the new one lands) is not shown as this one's.
  const current = data && (!loading || data.pod.key === pod || `${data.pod.namespace}/${data.pod.name}` === pod) ? data : undefined;
  return (
    <div className="describe-view" data-testid="describe-view" data-state={current && !loading ? 'ready' : 'loading'}>
      <PodPicker pod={current?.pod.key ?? pod} scope={scope} shown={shown} />
      {pod === '' && (
        <p className="muted" data-testid="describe-choose">
          Choose a pod to see what <code>istioctl x describe pod</code> would print for it, each fact linked to its YAML, and what almost applies to it.
        </p>
      )}
      {pod !== '' && error && !loading && <div className="field-error">{error}</div>}
      {pod !== '' && !current && !error && <p className="muted">Describing…</p>}
      {current && (
        <SourcesContext.Provider value={current.sources}>
          <Description data={current} />
        </SourcesContext.Provider>
      )}
    </div>
  );
}

function PodPicker({ pod, scope, shown }: { pod: string; scope: DescribeScope | null; shown: boolean }) {
  const [filter, setFilter] = useState('');
  const select = useRef<HTMLSelectElement>(null);
  const pickRequest = useDescribeView((s) => s.pickRequest);
  useEffect(() => {
    if (pickRequest > 0) select.current?.focus();
  }, [pickRequest]);
  const all = useWorkerQuery('workloads', { text: filter.trim() || undefined, limit: PICKER_LIMIT }, scope === null && shown);
  const options: Array<{ value: string; label: string }> = scope
    ? scope.pods.map((p) => ({ value: p.key, label: p.id }))
    : (all.data?.items ?? []).map((w) => ({ value: w.key, label: `${w.namespace}/${w.name} (${w.placeholder ? 'gateway' : MODE_LABEL[w.mesh]})` }));
  if (pod !== '' && !options.some((o) => o.value === pod)) options.unshift({ value: pod, label: pod.split('/').slice(-2).join('/') });
  const hidden = scope ? scope.total - scope.pods.length : (all.data?.total ?? 0) - (all.data?.items.length ?? 0);
  return (
    <div className="describe-picker">
      <label className="proxy-picker">
        <span>Pod</span>
        <select
          ref={select}
          className="text-input"
          data-testid="describe-picker"
          value={pod}
          onChange={(e) => useDescribeView.getState().setPod(e.target.value)}
        >
          {pod === '' && <option value="">Choose a pod…</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
          {hidden > 0 && (
            <option value="" disabled>
              … {hidden.toLocaleString('en')} more{scope ? '' : ': type in the filter box'}
            </option>
          )}
        </select>
      </label>
      {!scope && (all.data?.counts.all ?? 0) > PICKER_LIMIT && (
        <input
          type="search"
          className="text-input"
          placeholder="Filter pods: namespace/name"
          aria-label="Filter pods"
          data-testid="describe-picker-filter"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      )}
      {scope && (
        <span className="muted describe-scope" data-testid="describe-scope">
          {scope.total} {scope.total === 1 ? 'pod' : 'pods'} selected by <RefLinkPlain scope={scope} /> ({scope.how}){' '}
          <button type="button" className="link-button" data-testid="describe-scope-clear" onClick={() => useDescribeView.getState().setScope(null)}>
            List every pod
          </button>
        </span>
      )}
    </div>
  );
}

function RefLinkPlain({ scope }: { scope: DescribeScope }) {
  const r = scope.resource;
  return (
    <strong>
      {r.kind} {r.namespace ? `${r.namespace}/` : ''}
      {r.name}
    </strong>
  );
}

/** A warning istioctl prints for the pod, in words. */
function warningText(w: PodWarning, mode: string): string {
  switch (w.type) {
    case 'uid1337Container':
      return `Container ${w.container} runs as UID 1337, which is reserved for the sidecar proxy.`;
    case 'uid1337Pod':
      return 'The pod runs as UID 1337, which is reserved for the sidecar proxy.';
    case 'containerNotReady':
      return `Container ${w.container} is not ready.`;
    case 'initContainerNotReady':
      return `Init container ${w.container} is not ready.`;
    case 'notMeshed':
      return mode === 'ambient'
        ? 'istioctl says the pod is not part of the mesh (no Istio sidecar): it knows only sidecars; the pod is in ambient mode.'
        : 'The pod is not part of the mesh: no Istio sidecar.';
    case 'noCanonicalName':
      return 'Suggestion: add a service name label (app or app.kubernetes.io/name) for Istio telemetry.';
    case 'noCanonicalRevision':
      return 'Suggestion: add a service revision label (version or app.kubernetes.io/version) for Istio telemetry.';
  }
}

function Description({ data }: { data: DescribeResult }) {
  const d = data.description;
  const p = d.pod;
  const warnings = p.warnings.map((w) => ({ w, text: warningText(w, p.meshMode) }));
  return (
    <>
      <section className="describe-section" aria-labelledby="describe-pod" data-testid="describe-pod" data-mesh={p.meshMode}>
        <h3 id="describe-pod" className="section-title">
          Pod <RefLink of={p.ref} text={`${p.ref.namespace}/${p.ref.name}`} /> <span className={`mesh-pill mesh-${p.meshMode}`}>{MODE_LABEL[p.meshMode]}</span>
        </h3>
        <div className="describe-sub" data-testid="describe-mesh-reason">
          {p.meshReason}
        </div>
        <div className="describe-sub">
          Revision: {p.revision === '' ? <span className="muted">none (the empty revision istioctl prints)</span> : <code>{p.revision}</code>}
          {p.derivedFrom && (
            <span className="muted">
              {' '}
              · derived from {p.derivedFrom.kind} {p.derivedFrom.namespace}/{p.derivedFrom.name}: a real injected pod also lists port 15090 and the injector's
              revision
            </span>
          )}
        </div>
        <div className="describe-sub">
          Ports:{' '}
          {p.ports.length === 0 ? (
            <span className="muted">none exposed</span>
          ) : (
            p.ports.map((x, i) => (
              <span key={i} className="describe-inline">
                <Src of={x.source}>
                  {x.port}/{x.protocol || 'TCP'}
                </Src>{' '}
                <span className="muted">({x.container})</span>
              </span>
            ))
          )}
        </div>
        {p.phase !== '' && p.phase !== 'Running' && <div className="describe-warning">The pod is not running (phase {p.phase}).</div>}
      </section>
      {(warnings.length > 0 || d.noServices || d.proxyError) && (
        <section className="describe-section" aria-labelledby="describe-warnings" data-testid="describe-warnings">
          <h3 id="describe-warnings" className="section-title">
            Warnings
          </h3>
          <ul className="describe-list">
            {warnings.map(({ w, text }, i) => (
              <li key={i} className="describe-warning">
                {w.source ? <Src of={w.source}>{text}</Src> : text}
              </li>
            ))}
            {d.noServices && <li className="describe-warning">No Kubernetes Service selects the pod.</li>}
            {d.proxyError && p.meshMode !== 'ambient' && <li className="describe-warning">istioctl stops here: {d.proxyError}</li>}
          </ul>
        </section>
      )}
      {data.ambient ? <AmbientFacts a={data.ambient} /> : p.hasSidecar && !d.proxyError && <SidecarFacts data={data} />}
      <AlmostAppliesSection items={d.almostApplies} />
      {d.notes.length > 0 && (
        <ul className="assumption-list" data-testid="describe-notes">
          {d.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
      <IstioctlText data={data} />
    </>
  );
}

function AlmostAppliesSection({ items }: { items: readonly AlmostApplies[] }) {
  return (
    <section className="describe-section" aria-labelledby="describe-almost" data-testid="describe-almost">
      <h3 id="describe-almost" className="section-title">
        Almost applies ({items.length})
      </h3>
      {items.length === 0 ? (
        <p className="muted">Nothing nearly selects the pod (no label one edit away, no other namespace, no exportTo hiding, no host typo).</p>
      ) : (
        <ul className="describe-list">
          {items.map((a, i) => (
            <li key={i} data-testid="describe-almost-item" data-resource={a.ref.resourceKey}>
              <RefLink of={a.ref} /> would {a.what}, but:
              <ul className="describe-list">
                {a.reasons.map((r, j) => (
                  <li key={j}>
                    {'fieldPath' in r ? <Src of={{ resourceKey: a.ref.resourceKey, fieldPath: r.fieldPath }}>{reasonText(r)}</Src> : reasonText(r)}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function reasonText(r: AlmostApplies['reasons'][number]): string {
  switch (r.type) {
    case 'labelValue':
      return `${r.key}: "${r.want}", where the pod has "${r.have}"`;
    case 'labelKey':
      return `label key "${r.key}", where the pod has "${r.podKey}"`;
    case 'namespace':
      return `it is in namespace ${r.resourceNamespace}, the pod in ${r.podNamespace}`;
    case 'exportTo':
      return `exportTo [${r.exportTo.join(', ')}] hides it from namespace ${r.podNamespace}`;
    case 'host':
      return `host "${r.host}" is one edit away from ${r.service}`;
  }
}

function IstioctlText({ data }: { data: DescribeResult }) {
  const [copied, setCopied] = useState(false);
  const full = data.textError !== undefined ? `${data.text}Error: ${data.textError}\n` : data.text;
  const copy = () => {
    void navigator.clipboard?.writeText(full).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <details className="describe-text" data-testid="describe-text">
      <summary>istioctl x describe pod output</summary>
      <div className="describe-text-head">
        <span className="muted">
          <code>
            istioctl x describe pod {data.pod.name} -n {data.pod.namespace}
          </code>
          , from the Envoy config generated for the pod
        </span>
        <button type="button" className="button" data-testid="describe-copy" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre className="describe-pre" data-testid="describe-text-pre">
        {full}
      </pre>
    </details>
  );
}
