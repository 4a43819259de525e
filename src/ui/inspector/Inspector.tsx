// Right pane: short summaries of the capability views (each opens its full view in the main
// area), the Share tab, the inputs the analysis assumed, and the user's suppressions.
import { useState } from 'react';
import { useRoving } from '../common/roving.ts';
import { useSelections } from '../../state/selections.ts';
import { SharePanel } from '../share/SharePanel.tsx';
import { useAnalysis } from '../../state/analysis.ts';
import { useWorkspace } from '../../state/workspace.ts';
import { parseSuppressions } from '../../core/analysis/suppress.ts';
import type { MeshMode, WorkloadSummary } from '../../core/queries/views.ts';
import { useWorkerQuery } from '../common/useWorkerQuery.ts';
import { ProxyConfigSummary } from '../proxyconfig/ProxyConfigSummary.tsx';
import { CertificatesSummary } from '../certs/CertificatesPanel.tsx';
import { DataPlaneSummary } from '../dataplane/DataPlanePanel.tsx';
import { openAt } from '../../state/navigation.ts';
import { openDescribe } from '../../state/describeView.ts';

const TABS = [
  { id: 'proxy', label: 'Proxy config' },
  { id: 'certs', label: 'Certificates' },
  { id: 'dataplane', label: 'Data plane' },
  { id: 'share', label: 'Share' },
] as const;

export function Inspector() {
  const saved = useSelections((s) => s.selections['inspector.tab']);
  const current = TABS.find((t) => t.id === saved) ?? TABS[0];
  const tab = current.id;
  const setTab = (id: string) => useSelections.getState().select('inspector.tab', id);
  // The ARIA tab pattern: one Tab stop, arrows/Home/End move and select.
  const strip = useRoving({ items: '[role="tab"]', orientation: 'horizontal', activateOnMove: true });
  return (
    <div className="panel inspector" data-testid="inspector">
      <div className="inspector-tabs" role="tablist" aria-label="Inspector views" ref={strip} data-pane-focus="">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`inspector-tab-${t.id}`}
            aria-controls="inspector-tabpanel"
            aria-selected={t.id === tab}
            className={`inspector-tab${t.id === tab ? ' active' : ''}`}
            data-testid={`inspector-tab-${t.id}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        className={`inspector-tabpanel${tab === 'certs' ? ' certs-tabpanel' : ''}`}
        role="tabpanel"
        id="inspector-tabpanel"
        aria-labelledby={`inspector-tab-${current.id}`}
        tabIndex={0}
      >
        {tab === 'proxy' ? <ProxyConfigSummary /> : tab === 'share' ? <SharePanel /> : tab === 'certs' ? <CertificatesSummary /> : <DataPlaneSummary />}
      </div>
      <div className="inspector-scroll">
        <Assumptions />
        <SkippedAnalyzers />
        <Workloads />
        <Suppressions />
      </div>
    </div>
  );
}

function Assumptions() {
  const assumptions = useAnalysis((s) => s.assumptions);
  const includePlaceholders = useAnalysis((s) => s.settings.includePlaceholders);
  const istioctlMode = useAnalysis((s) => s.settings.istioctlMode);
  const kialiPack = useAnalysis((s) => s.settings.kialiPack);
  // A shared link carries its settings (read-only): the reader sees what it was shared with.
  const readOnly = useWorkspace((s) => s.readOnly);
  return (
    <section className="inspector-section" aria-labelledby="assumed-title" data-testid="assumptions">
      <h3 id="assumed-title" className="section-title">
        Assumed inputs
      </h3>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={includePlaceholders}
          disabled={readOnly}
          data-testid="include-placeholders"
          onChange={(e) => useAnalysis.getState().setSettings({ includePlaceholders: e.target.checked })}
        />
        <span>Assume an ingress gateway (Istio's default chart) when the workspace has none</span>
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={istioctlMode}
          disabled={readOnly}
          data-testid="istioctl-mode"
          onChange={(e) => useAnalysis.getState().setSettings({ istioctlMode: e.target.checked })}
        />
        <span>
          istioctl file mode: report exactly what <code>istioctl analyze --use-kube=false</code> reports (no Pods, Services, Namespaces, Nodes or Secrets read
          from the files, the analyzers that need them skipped, no schema findings)
        </span>
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={kialiPack && !istioctlMode}
          disabled={readOnly || istioctlMode}
          data-testid="kiali-pack"
          onChange={(e) => useAnalysis.getState().setSettings({ kialiPack: e.target.checked })}
        />
        <span>
          Kiali's checks: report Kiali's validations (KIA codes) beside istioctl's, as a live Kiali would show them
          {istioctlMode ? ' (off in istioctl file mode)' : ''}
        </span>
      </label>
      {assumptions.length === 0 ? (
        <p className="muted">Nothing assumed: the analysis uses only your files.</p>
      ) : (
        <ul className="assumption-list">
          {assumptions.map((a, i) => (
            <li key={i}>{a}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SkippedAnalyzers() {
  const skipped = useAnalysis((s) => s.skipped);
  const istioctlMode = useAnalysis((s) => s.settings.istioctlMode);
  if (skipped.length === 0) return null;
  const kinds = [...new Set(skipped.flatMap((s) => s.missing))];
  return (
    <section className="inspector-section" aria-labelledby="skipped-title" data-testid="skipped-analyzers">
      <h3 id="skipped-title" className="section-title">
        Skipped analyzers ({skipped.length})
      </h3>
      {istioctlMode ? (
        <p className="muted">
          istioctl file mode: istioctl reads no {kinds.map((k) => `${k}s`).join(', ')} from files, so it skips these analyzers whatever the files hold.
        </p>
      ) : (
        <p className="muted">
          Your files hold no {kinds.map((k) => `${k}s`).join(', ')}. Like istioctl, these analyzers need them and were not run; add the objects (for example{' '}
          <code>kubectl get {kinds.map((k) => `${k.toLowerCase()}s`).join(',')} -A -o yaml</code>) to run them.
        </p>
      )}
      <ul className="assumption-list">
        {skipped.map((s) => (
          <li key={s.analyzer}>
            <code>{s.analyzer}</code> needs {s.missing.join(', ')}
          </li>
        ))}
      </ul>
    </section>
  );
}

const WORKLOAD_PAGE = 50;

const MESH_LABEL: Record<MeshMode, string> = { sidecar: 'sidecar', ambient: 'ambient', none: 'not in the mesh' };
const RESTART_NOTE: Record<MeshMode, string> = {
  sidecar: 'a restart would add a sidecar (injection is on for it)',
  ambient: 'a restart would enroll it in ambient mode',
  none: 'a restart would take it out of the mesh',
};

/**
 * Every workload of the mesh, from the worker's `workloads` query: pods from the files, pods
 * derived from controllers (whose names and IPs are ours), and the assumed gateway, with how
 * each joins the mesh and its SPIFFE identity. Asked only while the section is open.
 */
function Workloads() {
  const [open, setOpen] = useState(true);
  const [text, setText] = useState('');
  const [limit, setLimit] = useState(WORKLOAD_PAGE);
  const { data, error } = useWorkerQuery('workloads', { text: text.trim() || undefined, limit }, open);
  const counts = data?.counts;
  return (
    <section className="inspector-section" aria-labelledby="workloads-title" data-testid="workloads">
      <h3 id="workloads-title" className="section-title">
        <button type="button" className="section-toggle" aria-expanded={open} data-testid="workloads-toggle" onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> Workloads{counts ? ` (${counts.all})` : ''}
        </button>
      </h3>
      {open && (
        <>
          {error && <div className="field-error">{error}</div>}
          {counts && counts.all === 0 && <p className="muted">No pods, and no Deployments or other controllers to derive them from.</p>}
          {counts && counts.all > 0 && (
            <p className="muted" data-testid="workloads-summary">
              {counts.sidecar} with an Istio proxy, {counts.ambient} ambient, {counts.none} not in the mesh
              {counts.derived > 0 && (
                <> · {counts.derived} derived from controllers whose pods are not in your files (names and IPs are ours, not your cluster's)</>
              )}
            </p>
          )}
          {counts && counts.all > WORKLOAD_PAGE && (
            <input
              className="text-input workload-filter"
              placeholder="Filter: namespace/name"
              aria-label="Filter workloads"
              data-testid="workloads-filter"
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          )}
          {data && (
            <ul className="workload-list">
              {data.items.map((w) => (
                <WorkloadRow key={w.key} w={w} />
              ))}
            </ul>
          )}
          {data && data.total > data.items.length && (
            <button type="button" className="link-button" data-testid="workloads-more" onClick={() => setLimit(limit + 200)}>
              Show more ({data.total - data.items.length} not shown)
            </button>
          )}
        </>
      )}
    </section>
  );
}

function WorkloadRow({ w }: { w: WorkloadSummary }) {
  const source = w.source;
  const reveal = source
    ? () => {
        openAt(source.file, { line: source.line });
      }
    : undefined;
  return (
    <li className="workload" data-testid="workload-row" data-mesh={w.mesh} data-derived={w.derivedFrom ? 'true' : 'false'}>
      <div className="workload-head">
        {reveal ? (
          <button type="button" className="link-button workload-name" title={`Show in ${source!.file}:${source!.line}`} onClick={reveal}>
            {w.namespace}/{w.name}
          </button>
        ) : (
          <code className="workload-name">
            {w.namespace}/{w.name}
          </code>
        )}
        <span className={`mesh-pill mesh-${w.mesh}`}>{w.placeholder ? 'gateway' : MESH_LABEL[w.mesh]}</span>
        <button
          type="button"
          className="workload-describe"
          data-testid="workload-describe"
          aria-label={`Describe ${w.namespace}/${w.name}`}
          title={`Describe ${w.namespace}/${w.name}: what istioctl x describe pod prints, each fact linked to its YAML`}
          onClick={() => openDescribe(w.key)}
        >
          Describe
        </button>
      </div>
      <div className="workload-facts">
        {w.ip || 'no IP'}
        {w.node && ` · node ${w.node}`} · sa {w.serviceAccount}
      </div>
      <div className="workload-identity" title="SPIFFE identity">
        <code>{w.identity}</code>
      </div>
      {w.derivedFrom && <div className="workload-note">derived from {w.derivedFrom}</div>}
      {w.placeholder && <div className="workload-note">assumed ingress gateway (not in your files)</div>}
      {w.onRestart && <div className="workload-note">{RESTART_NOTE[w.onRestart]}</div>}
    </li>
  );
}

function Suppressions() {
  const suppressions = useAnalysis((s) => s.settings.suppressions);
  const readOnly = useWorkspace((s) => s.readOnly);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const set = (list: string[]) => useAnalysis.getState().setSettings({ suppressions: list });
  const add = () => {
    const v = draft.trim();
    if (!v) return;
    // The analysis reads rules with the same parser: `Kind ns/name` globs, and the legacy
    // `Kind name.namespace` form (matched as `Kind namespace/name`).
    const parsed = parseSuppressions([v], () => true);
    if (!/^[A-Z]+[\w-]*=.+/.test(v) || parsed.rules.length === 0) {
      setError('Use CODE=Kind namespace/name, e.g. IST0102=Namespace default (globs allowed; the legacy Kind name.namespace form works too).');
      return;
    }
    if (!suppressions.includes(v)) set([...suppressions, v]);
    setDraft('');
    setError(null);
    setNote(parsed.warnings[0] ?? null);
  };
  return (
    <section className="inspector-section" aria-labelledby="supp-title" data-testid="suppressions">
      <h3 id="supp-title" className="section-title">
        Suppressions
      </h3>
      {suppressions.length === 0 ? (
        <p className="muted">{readOnly ? 'None in this shared link.' : 'None. Use “Suppress” on a problem, or add a rule (istioctl -S).'}</p>
      ) : (
        <ul className="suppression-list">
          {suppressions.map((s) => (
            <li key={s}>
              <code>{s}</code>
              {!readOnly && (
                <button
                  type="button"
                  className="icon-button small"
                  aria-label={`Remove suppression ${s}`}
                  title="Remove"
                  onClick={() => set(suppressions.filter((x) => x !== s))}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!readOnly && (
        <form
          className="suppression-form"
          onSubmit={(e) => {
            e.preventDefault();
            add();
          }}
        >
          <input
            className="text-input"
            placeholder="IST0102=Namespace default"
            aria-label="New suppression"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
          <button type="submit" className="button">
            Add
          </button>
        </form>
      )}
      {error && <div className="field-error">{error}</div>}
      {note && !error && (
        <p className="muted" data-testid="suppression-note">
          {note}
        </p>
      )}
    </section>
  );
}
