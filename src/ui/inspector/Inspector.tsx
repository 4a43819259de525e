// Right pane: views that arrive in later releases (honest empty states), the inputs the
// analysis assumed, and the user's suppressions.
import { useState } from 'react';
import { useAnalysis } from '../../state/analysis.ts';
import { parseSuppressions } from '../../core/analysis/suppress.ts';

const TABS = [
  { id: 'proxy', label: 'Proxy config', empty: 'Proxy (xDS) config views arrive in a later release.' },
  { id: 'certs', label: 'Certificates', empty: 'Certificate inspection arrives in a later release.' },
  { id: 'dataplane', label: 'Data plane', empty: 'Data plane (sidecar and ambient) views arrive in a later release.' },
  { id: 'share', label: 'Share', empty: 'Sharing a workspace arrives in a later release.' },
] as const;

export function Inspector() {
  const [tab, setTab] = useState<(typeof TABS)[number]['id']>('proxy');
  const current = TABS.find((t) => t.id === tab)!;
  return (
    <div className="panel inspector" data-testid="inspector">
      <div className="inspector-tabs" role="tablist" aria-label="Inspector">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={t.id === tab}
            className={`inspector-tab${t.id === tab ? ' active' : ''}`}
            data-testid={`inspector-tab-${t.id}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="inspector-tabpanel" role="tabpanel" aria-label={current.label}>
        <p className="empty-line" data-testid="inspector-empty">
          {current.empty}
        </p>
      </div>
      <div className="inspector-scroll">
        <Assumptions />
        <SkippedAnalyzers />
        <DerivedWorkloads />
        <Suppressions />
      </div>
    </div>
  );
}

function Assumptions() {
  const assumptions = useAnalysis((s) => s.assumptions);
  const includePlaceholders = useAnalysis((s) => s.settings.includePlaceholders);
  return (
    <section className="inspector-section" aria-labelledby="assumed-title" data-testid="assumptions">
      <h3 id="assumed-title" className="section-title">
        Assumed inputs
      </h3>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={includePlaceholders}
          data-testid="include-placeholders"
          onChange={(e) => useAnalysis.getState().setSettings({ includePlaceholders: e.target.checked })}
        />
        <span>Assume an ingress gateway (Istio's default chart) when the workspace has none</span>
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
  if (skipped.length === 0) return null;
  const kinds = [...new Set(skipped.flatMap((s) => s.missing))];
  return (
    <section className="inspector-section" aria-labelledby="skipped-title" data-testid="skipped-analyzers">
      <h3 id="skipped-title" className="section-title">
        Skipped analyzers ({skipped.length})
      </h3>
      <p className="muted">
        Your files hold no {kinds.map((k) => `${k}s`).join(', ')}. Like istioctl, these analyzers need them and were not run; add the
        objects (for example <code>kubectl get {kinds.map((k) => `${k.toLowerCase()}s`).join(',')} -A -o yaml</code>) to run them.
      </p>
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

function DerivedWorkloads() {
  const pods = useAnalysis((s) => s.derivedPods);
  if (pods.length === 0) return null;
  return (
    <section className="inspector-section" aria-labelledby="derived-title" data-testid="derived-workloads">
      <h3 id="derived-title" className="section-title">
        Derived pods ({pods.length})
      </h3>
      <p className="muted">
        These controllers' pods are not in your files, so the analysis assumes them from the pod templates. Names and IPs are
        ours, not your cluster's.
      </p>
      <ul className="assumption-list">
        {pods.map((p) => (
          <li key={`${p.namespace}/${p.name}`} data-testid="derived-pod">
            <code>
              {p.namespace}/{p.name}
            </code>{' '}
            {p.ip} · {p.mode === 'sidecar' ? 'sidecar injected' : p.mode === 'ambient' ? 'ambient' : 'not in the mesh'} · from {p.from}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Suppressions() {
  const suppressions = useAnalysis((s) => s.settings.suppressions);
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
        <p className="muted">None. Use “Suppress” on a problem, or add a rule (istioctl -S).</p>
      ) : (
        <ul className="suppression-list">
          {suppressions.map((s) => (
            <li key={s}>
              <code>{s}</code>
              <button type="button" className="icon-button small" aria-label={`Remove suppression ${s}`} title="Remove" onClick={() => set(suppressions.filter((x) => x !== s))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="suppression-form"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <input className="text-input" placeholder="IST0102=Namespace default" aria-label="New suppression" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit" className="button">
          Add
        </button>
      </form>
      {error && <div className="field-error">{error}</div>}
      {note && !error && (
        <p className="muted" data-testid="suppression-note">
          {note}
        </p>
      )}
    </section>
  );
}
