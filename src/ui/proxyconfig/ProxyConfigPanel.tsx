// The "Proxy config" inspector tab: pick a proxy (sidecar, gateway, waypoint) and see the
// Envoy config istiod would send it, as `istioctl proxy-config` tables (same columns, same
// order), with each row's JSON and a link to the config line that made it; a request
// simulator; and "what changes" against a pinned baseline.
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { useWorkerQuery } from '../common/useWorkerQuery.ts';
import { query } from '../../state/queries.ts';
import { useWorkspace } from '../../state/workspace.ts';
import { useEditorUi } from '../../state/analysis.ts';
import { configDumpFromValue, listenerTable, waypointListenerTable, routeTable, clusterTable, edsTable, secretSummary, type ConfigDump, type Table } from '../../core/xds/configdump/index.ts';
import { diffResources, resourcesOfDump, type ConfigChange, type ResourceSet } from '../../core/xds/diff.ts';
import type { ProxyConfigResult, ProxySecretInfo, ResolvedProvenance, SimulateArgs, SimulateResult } from '../../core/queries/views.ts';
import { DumpCompare } from './DumpCompare.tsx';
import type { ProvenanceKey } from '../../core/xds/request.ts';
import { RouteTestsView } from './RouteTests.tsx';
import './proxyConfig.css';

type TabId = 'listeners' | 'routes' | 'clusters' | 'endpoints' | 'secrets' | 'simulate' | 'changes' | 'dump' | 'routeTests';
const TABS: { id: TabId; label: string }[] = [
  { id: 'listeners', label: 'Listeners' },
  { id: 'routes', label: 'Routes' },
  { id: 'clusters', label: 'Clusters' },
  { id: 'endpoints', label: 'Endpoints' },
  { id: 'secrets', label: 'Secrets' },
  { id: 'simulate', label: 'Simulate' },
  { id: 'changes', label: 'What changes' },
  { id: 'dump', label: 'Compare dump' },
  { id: 'routeTests', label: 'Route tests' },
];

/** Where a secret's certificate comes from, in a few words (the row's SOURCE column). */
function secretSource(info: ProxySecretInfo | undefined): string {
  if (!info) return '';
  switch (info.source) {
    case 'istiod':
      return 'issued at run time by istiod (not in the workspace)';
    case 'file':
      return 'file mounted in the proxy (not in the workspace)';
    case 'credential':
      return info.served ? `${info.ref?.kind ?? 'Secret'} ${info.ref?.namespace}/${info.ref?.name}` : `not served: ${info.ref ? `${info.ref.kind} ${info.ref.namespace}/${info.ref.name}` : info.name}${info.from ? ' unreadable' : ' not in the workspace'}`;
    default:
      return info.note;
  }
}

const TYPE_LABEL = { sidecar: 'sidecar', router: 'gateway', waypoint: 'waypoint' } as const;

type Provenance = ProxyConfigResult['provenance'];

/** The best source of a piece of config: a resource line, preferring a field over a whole resource. */
function bestSource(refs: readonly ResolvedProvenance[] | undefined): ResolvedProvenance | undefined {
  if (!refs) return undefined;
  const located = refs.filter((r) => r.file && r.line);
  return located.find((r) => r.fieldPath) ?? located[0];
}

function reveal(src: ResolvedProvenance): void {
  if (!src.file) return;
  useWorkspace.getState().openFile(src.file);
  useEditorUi.getState().requestReveal(src.file, undefined, src.line);
}

function describeSource(r: ResolvedProvenance): string {
  if (r.kind) return `${r.kind} ${r.namespace}/${r.name}${r.fieldPath ? ` ${r.fieldPath}` : ''}`;
  return r.note ?? 'built in';
}

interface RowModel {
  key: string;
  cells: string[];
  json: unknown;
  sources: ResolvedProvenance[];
  extra?: string;
}

function weightsOf(route: unknown): string {
  if (typeof route !== 'object' || route === null) return '';
  const action = (route as { route?: { cluster?: string; weightedClusters?: { clusters?: { name?: string; weight?: number }[] } } }).route;
  if (!action) return (route as { redirect?: unknown }).redirect ? 'redirect' : (route as { directResponse?: { status?: number } }).directResponse ? `direct response ${(route as { directResponse?: { status?: number } }).directResponse?.status ?? ''}` : '';
  if (action.cluster) return action.cluster;
  return (action.weightedClusters?.clusters ?? []).map((c) => `${c.name} ${c.weight ?? 0}%`).join(' · ');
}

function rowsFor(tab: TabId, dump: ConfigDump, prov: Provenance, secrets: readonly ProxySecretInfo[] = [], waypoint = false): { columns: string[]; rows: RowModel[] } {
  const refs = (table: keyof Provenance, key: string) => prov[table][key] ?? [];
  switch (tab) {
    case 'listeners': {
      if (waypoint) {
        // `istioctl proxy-config listeners --waypoint`: internal listeners, chains and how main_internal's matcher reaches them.
        const t = waypointListenerTable(dump);
        return {
          columns: t.columns,
          rows: t.rows.map((r, i) => {
            const chains = Array.isArray(r.entry.listener.filterChains) ? (r.entry.listener.filterChains as unknown[]) : [];
            const idx = chains.indexOf(r.chainConfig);
            return { key: `${i}`, cells: t.cells[i]!, json: r.chainConfig, sources: [...refs('filterChains', `${r.entry.name}/${idx === -1 ? 'default' : idx}`), ...refs('listeners', r.entry.name)], extra: r.entry.name };
          }),
        };
      }
      const t = listenerTable(dump);
      return {
        columns: t.columns,
        rows: t.rows.map((r, i) => {
          const chains = Array.isArray(r.entry.listener.filterChains) ? (r.entry.listener.filterChains as unknown[]) : [];
          const idx = r.chain ? chains.indexOf(r.chain) : -2;
          const chainKey = `${r.entry.name}/${idx === -1 ? 'default' : idx}`;
          return { key: `${i}`, cells: t.cells[i]!, json: r.chain ?? r.entry.listener, sources: [...refs('filterChains', chainKey), ...refs('listeners', r.entry.name)], extra: r.entry.name };
        }),
      };
    }
    case 'routes': {
      const t = routeTable(dump);
      return {
        columns: [...t.columns, 'ROUTE TO'],
        rows: t.rows.map((r, i) => {
          const vh = r.virtualHost;
          const routes = vh && Array.isArray(vh.routes) ? (vh.routes as unknown[]) : [];
          const idx = r.route ? routes.indexOf(r.route) : -1;
          const vhKey = `${r.entry.name}/${String(vh?.name ?? '')}`;
          const sources = idx >= 0 ? [...refs('routes', `${vhKey}/${idx}`), ...refs('virtualHosts', vhKey)] : refs('virtualHosts', vhKey);
          return { key: `${i}`, cells: [...t.cells[i]!, weightsOf(r.route)], json: r.route ?? vh ?? r.entry.routeConfig, sources };
        }),
      };
    }
    case 'clusters': {
      const t: Table<{ entry: { name: string; cluster: unknown } }> = clusterTable(dump);
      return { columns: t.columns, rows: t.rows.map((r, i) => ({ key: `${i}`, cells: t.cells[i]!, json: r.entry.cluster, sources: refs('clusters', r.entry.name), extra: r.entry.name })) };
    }
    case 'endpoints': {
      const t = edsTable(dump);
      return { columns: t.columns, rows: t.rows.map((r, i) => ({ key: `${i}`, cells: t.cells[i]!, json: r.lbEndpoint, sources: [...refs('endpoints', r.entry.clusterName), ...refs('clusters', r.entry.clusterName)] })) };
    }
    case 'secrets': {
      const summary = secretSummary(dump, { now: new Date() });
      const t = summary.table;
      if (!t) return { columns: [], rows: [] };
      const byName = new Map(secrets.map((x) => [x.name, x]));
      return {
        columns: [...t.columns, 'SOURCE'],
        rows: t.rows.map((r, i) => {
          const info = byName.get(r.name);
          return { key: `${i}`, cells: [...t.cells[i]!, secretSource(info)], json: info ? { ...r.secret, source: info.note } : r.secret, sources: info?.from ? [info.from] : [], extra: r.name };
        }),
      };
    }
    default:
      return { columns: [], rows: [] };
  }
}

export function ProxyConfigPanel() {
  const proxies = useWorkerQuery('proxies', {});
  const [picked, setPicked] = useState('');
  const [filter, setFilter] = useState('');
  const items = proxies.data?.items ?? [];
  // Nothing is generated until a proxy is picked: on a large mesh generation costs the worker
  // time after every edit, so it runs only for a proxy someone is looking at.
  const proxy = items.some((p) => p.id === picked) ? picked : '';
  const [tab, setTab] = useState<TabId>('routes');
  const config = useWorkerQuery('proxyConfig', { proxy }, proxy !== '');
  const data = config.data && config.data.proxy.id === proxy ? config.data : undefined;

  if (proxies.error) return <div className="field-error">{proxies.error}</div>;
  if (proxies.data && items.length === 0) {
    return (
      <p className="empty-line" data-testid="proxy-none">
        No proxies: add pods (or Deployments) in a namespace with sidecar injection, or a gateway.
      </p>
    );
  }
  const summary = data?.proxy;
  return (
    <div className="proxy-config" data-testid="proxy-config">
      <div className="proxy-picker-row">
        <label className="proxy-picker">
          <span>Proxy</span>
          <select className="text-input" value={proxy} data-testid="proxy-picker" aria-label="Proxy" onChange={(e) => setPicked(e.target.value)}>
            {proxy === '' && <option value="">Choose a proxy…</option>}
            <ProxyOptions items={items} picked={proxy} filter={filter} />
          </select>
        </label>
        {items.length > PICKER_LIMIT && (
          <input
            type="search"
            className="text-input proxy-picker-filter"
            placeholder={`Filter ${items.length.toLocaleString('en')} proxies`}
            aria-label="Filter proxies"
            data-testid="proxy-picker-filter"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
        )}
      </div>
      {summary && (summary.syntheticAddress || summary.derived) && (
        <p className="muted proxy-note" data-testid="proxy-synthetic">
          {[summary.derived ? `Pod derived from ${summary.derivedFrom ?? 'its controller'} (not in your files).` : '', summary.syntheticAddress ? 'The pod has no IP in your files, so it gets a deterministic synthetic one.' : ''].filter((x) => x !== '').join(' ')}
        </p>
      )}
      <div className="proxy-tabs" role="tablist" aria-label="Proxy config views">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" aria-selected={t.id === tab} className={`proxy-tab${t.id === tab ? ' active' : ''}`} data-testid={`proxy-tab-${t.id}`} onClick={() => setTab(t.id)}>
            {t.label}
          </button>
        ))}
      </div>
      {tab === 'routeTests' && <RouteTestsView />}
      {proxy === '' && tab !== 'routeTests' && (
        <p className="muted" data-testid="proxy-choose">
          Pick a sidecar, gateway or waypoint to see the Envoy config istiod would send it ({items.length} in the workspace).
        </p>
      )}
      {config.error && <div className="field-error">{config.error}</div>}
      {proxy !== '' && !data && !config.error && tab !== 'routeTests' && <p className="muted">Generating…</p>}
      {data && tab === 'simulate' && <Simulator proxy={proxy} provenance={data.provenance} />}
      {data && <Changes proxy={proxy} data={data} visible={tab === 'changes'} />}
      {data && tab === 'dump' && <DumpCompare proxy={proxy} proxies={items.map((p) => p.id)} onPick={setPicked} renderTable={(t, d) => <ConfigTable tab={t} data={d} />} />}
      {data && tab !== 'simulate' && tab !== 'changes' && tab !== 'dump' && tab !== 'routeTests' && <ConfigTable tab={tab} data={data} />}
      {data && data.notes.length > 0 && tab !== 'changes' && tab !== 'simulate' && tab !== 'dump' && tab !== 'routeTests' && (
        <details className="proxy-notes">
          <summary>Notes ({data.notes.length})</summary>
          <ul>
            {data.notes.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

type ProxyItem = NonNullable<ReturnType<typeof useWorkerQuery<'proxies'>>['data']>['items'][number];

/**
 * How many proxies the picker lists at once. A mesh of Deployments derives thousands of
 * pods, and a native list of 10,000 options took the page most of a second to build (on
 * every load of the file); past this many, a filter box narrows the list instead.
 */
const PICKER_LIMIT = 200;

/** The proxies the picker lists: the picked one, then those matching the filter, at most PICKER_LIMIT. */
function pickerItems<T extends { id: string }>(items: readonly T[], picked: string, filter: string): { shown: T[]; hidden: number } {
  const needle = filter.trim().toLowerCase();
  const matching = needle === '' ? items : items.filter((p) => p.id.toLowerCase().includes(needle));
  const shown = matching.slice(0, PICKER_LIMIT);
  const current = items.find((p) => p.id === picked);
  if (current && !shown.includes(current)) shown.unshift(current);
  return { shown, hidden: matching.length - Math.min(matching.length, PICKER_LIMIT) };
}

/** The picker's options, rendered again only when the list, the pick or the filter changes (every analysis re-renders this panel). */
const ProxyOptions = memo(function ProxyOptions({ items, picked, filter }: { items: readonly ProxyItem[]; picked: string; filter: string }) {
  const { shown, hidden } = pickerItems(items, picked, filter);
  return (
    <>
      {shown.map((p) => (
        <option key={p.id} value={p.id}>
          {p.id} ({TYPE_LABEL[p.type]})
        </option>
      ))}
      {hidden > 0 && (
        <option value="" disabled data-testid="proxy-picker-more">
          … {hidden.toLocaleString('en')} more: type in the filter box
        </option>
      )}
    </>
  );
});

/** What a table needs: a dump, and (for generated config) provenance and the secrets' sources. */
export type TableData = Pick<ProxyConfigResult, 'dump' | 'provenance' | 'secrets'> & { proxy?: Pick<ProxyConfigResult['proxy'], 'type'> };

function ConfigTable({ tab, data }: { tab: TabId; data: TableData }) {
  const [open, setOpen] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const model = useMemo(() => {
    const read = configDumpFromValue(data.dump);
    if (!read.ok) return { error: read.error, columns: [], rows: [] as RowModel[] };
    try {
      return { error: undefined, ...rowsFor(tab, read.dump, data.provenance, data.secrets, data.proxy?.type === 'waypoint') };
    } catch (e) {
      // An imported dump may lack a section (istioctl's message, e.g. "config dump has no configuration type …").
      return { error: e instanceof Error ? e.message : String(e), columns: [], rows: [] as RowModel[] };
    }
  }, [tab, data]);
  if (model.error) return <div className="field-error">{model.error}</div>;
  const needle = filter.trim().toLowerCase();
  const rows = needle ? model.rows.filter((r) => r.cells.some((c) => c.toLowerCase().includes(needle))) : model.rows;
  return (
    <div className="proxy-table-wrap">
      <input className="text-input proxy-filter" placeholder="Filter rows" aria-label="Filter rows" data-testid="proxy-filter" value={filter} onChange={(e) => setFilter(e.target.value)} />
      <table className="proxy-table" data-testid={`proxy-table-${tab}`}>
        <thead>
          <tr>
            {model.columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const src = bestSource(r.sources);
            return (
              <RowView key={r.key} row={r} src={src} open={open === r.key} onToggle={() => setOpen(open === r.key ? null : r.key)} columns={model.columns.length} />
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 && <p className="muted">Nothing to show.</p>}
    </div>
  );
}

function RowView({ row, src, open, onToggle, columns }: { row: RowModel; src: ResolvedProvenance | undefined; open: boolean; onToggle: () => void; columns: number }) {
  return (
    <>
      <tr
        className={`proxy-row${src ? ' linked' : ''}`}
        data-testid="proxy-row"
        title={src ? `From ${describeSource(src)} (${src.file}:${src.line})` : 'Built in (no resource of the workspace)'}
        onClick={src ? () => reveal(src) : undefined}
      >
        {row.cells.map((c, i) => (
          <td key={i}>{c}</td>
        ))}
        <td className="proxy-row-actions">
          <button
            type="button"
            className="link-button"
            data-testid="proxy-row-json"
            aria-expanded={open}
            onClick={(e) => {
              e.stopPropagation();
              onToggle();
            }}
          >
            JSON
          </button>
        </td>
      </tr>
      {open && (
        <tr className="proxy-json-row">
          <td colSpan={columns + 1}>
            {row.sources.length > 0 && (
              <ul className="proxy-sources" data-testid="proxy-sources">
                {row.sources.map((s, i) => (
                  <li key={i}>
                    {s.file ? (
                      <button type="button" className="link-button" onClick={() => reveal(s)}>
                        {describeSource(s)} ({s.file}:{s.line})
                      </button>
                    ) : (
                      describeSource(s)
                    )}
                  </li>
                ))}
              </ul>
            )}
            <pre className="proxy-json" data-testid="proxy-json">
              {JSON.stringify(row.json, null, 2)}
            </pre>
          </td>
        </tr>
      )}
    </>
  );
}

function Simulator({ proxy, provenance }: { proxy: string; provenance: Provenance }) {
  const [form, setForm] = useState<Omit<SimulateArgs, 'proxy'>>({ method: 'GET', host: '', path: '/', port: 80, protocol: 'http' });
  const [headerText, setHeaderText] = useState('');
  const [result, setResult] = useState<SimulateResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = () => {
    setError(null);
    query('simulate', { ...form, headers: parseHeaders(headerText), proxy }).then(setResult, (e: unknown) => {
      setResult(null);
      setError(e instanceof Error ? e.message : 'The simulation failed.');
    });
  };
  const set = (patch: Partial<Omit<SimulateArgs, 'proxy'>>) => setForm({ ...form, ...patch });
  const sourceOf = (at: ProvenanceKey | undefined) => (at ? bestSource(provenance[at.table][at.key]) : undefined);
  const stepsRef = useRef<HTMLOListElement>(null);
  const showStep = (i: number) => {
    const li = stepsRef.current?.children[i];
    if (li instanceof HTMLElement) {
      li.scrollIntoView({ block: 'nearest' });
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
        <select className="text-input" aria-label="Protocol" data-testid="sim-protocol" value={form.protocol} onChange={(e) => set({ protocol: e.target.value as SimulateArgs['protocol'] })}>
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
        <input className="text-input" aria-label="Host" placeholder="host or IP" data-testid="sim-host" value={form.host} onChange={(e) => set({ host: e.target.value })} />
        <input className="text-input sim-port" aria-label="Port" type="number" data-testid="sim-port" value={form.port} onChange={(e) => set({ port: Number(e.target.value) })} />
        <input className="text-input" aria-label="Path" placeholder="/path" data-testid="sim-path" value={form.path} onChange={(e) => set({ path: e.target.value })} />
        <input className="text-input" aria-label="Headers" placeholder="headers: name: value; …" data-testid="sim-headers" value={headerText} onChange={(e) => setHeaderText(e.target.value)} />
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
                <li key={i} tabIndex={-1} className={`sim-step sim-${s.kind}${failing ? ' sim-step-failing' : ''}`} data-testid={`sim-step-${s.kind}`} data-status={failing ? 'fail' : 'ok'}>
                  <span className="sim-step-num" data-testid="sim-step-num" aria-hidden="true">
                    {i + 1}.
                  </span>
                  <div className="sim-step-body">
                    <span className="sim-kind">{s.kind}</span>{' '}
                    {failing && <span className="sim-fail-badge">failed</span>}{' '}
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
          <button type="button" className="link-button sim-verdict-step sim-step-failing" data-testid="sim-verdict-step" data-status="fail" title="Show this step in the list" onClick={() => onShowStep(failAt)}>
            step {failAt + 1}: {v.endedAt}
          </button>
        </div>
      )}
      {!result.ok && (
        <p className="field-error sim-failure" data-testid="sim-failure">
          {result.failure}
        </p>
      )}
      {v.causes.filter((c) => result.ok || c !== result.failure).length > 0 && (
        <ul className="sim-verdict-causes" data-testid="sim-verdict-causes">
          {v.causes
            .filter((c) => result.ok || c !== result.failure)
            .map((c, i) => (
              <li key={i} data-testid="sim-verdict-cause">
                {c}
              </li>
            ))}
        </ul>
      )}
    </section>
  );
}

/** `end-user: jason; x-env: dev` → headers (entries without a name are dropped). */
function parseHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(/[;\n]/)) {
    const i = part.indexOf(':', part.startsWith(':') ? 1 : 0);
    const name = (i < 0 ? part : part.slice(0, i)).trim();
    if (name !== '') out[name] = i < 0 ? '' : part.slice(i + 1).trim();
  }
  return out;
}

function Changes({ proxy, data, visible }: { proxy: string; data: ProxyConfigResult; visible: boolean }) {
  const current = useMemo(() => resourcesOfDump(data.dump), [data]);
  const [baseline, setBaseline] = useState<{ proxy: string; resources: ResourceSet; at: string } | null>(null);
  // The first config seen for a proxy becomes its baseline; "Pin" moves it to now.
  useEffect(() => {
    if (!baseline || baseline.proxy !== proxy) setBaseline({ proxy, resources: current, at: new Date().toLocaleTimeString() });
  }, [proxy, current, baseline]);
  const changes: ConfigChange[] = useMemo(() => (baseline && baseline.proxy === proxy ? diffResources(baseline.resources, current) : []), [baseline, current, proxy]);
  if (!visible) return null;
  return (
    <div className="proxy-changes" data-testid="proxy-changes">
      <div className="changes-head">
        <span className="muted">Compared with the baseline pinned at {baseline?.at ?? '—'}.</span>
        <button type="button" className="button" data-testid="changes-pin" onClick={() => setBaseline({ proxy, resources: current, at: new Date().toLocaleTimeString() })}>
          Pin current as baseline
        </button>
      </div>
      {changes.length === 0 ? (
        <p className="muted" data-testid="changes-none">
          No listener, route, cluster or endpoint changed since the baseline.
        </p>
      ) : (
        <ul className="change-list">
          {changes.map((c) => (
            <li key={`${c.type}/${c.name}`} className={`change change-${c.change}`} data-testid="change-row" data-type={c.type} data-change={c.change}>
              <div>
                <span className="change-kind">{c.change}</span> {c.type} <code>{c.name}</code>
              </div>
              {c.fields.length > 0 && (
                <ul className="change-fields">
                  {c.fields.map((f, i) => (
                    <li key={i}>
                      <code>{f.path}</code>: {f.before ?? '(absent)'} → {f.after ?? '(absent)'}
                    </li>
                  ))}
                  {c.moreFields > 0 && <li className="muted">and {c.moreFields} more</li>}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
