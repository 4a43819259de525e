// "Compare dump" in the Proxy config tab: a real Envoy /config_dump (or `istioctl proxy-config
// all -o json`) kept as a workspace file, compared in the worker with the config generated for
// the picked proxy: listeners, routes, clusters and endpoints only in the dump, only generated,
// or different, with the fields that differ. A pasted or uploaded dump becomes a workspace file
// (nothing leaves the tab); the dump's node id suggests which proxy it came from. On a shared
// link (read-only) only the dumps it carries can be compared.
import { useMemo, useState, type ReactNode } from 'react';
import { useWorkerQuery } from '../common/useWorkerQuery.ts';
import { useWorkspace, fileText } from '../../state/workspace.ts';
import { parseDumpText } from '../../core/xds/configdump/dump.ts';
import type { ProxyConfigResult, ResolvedProvenance } from '../../core/queries/views.ts';
import type { DumpDifference } from '../../core/xds/dumpDiff.ts';
import { RUNTIME_ONLY_FIELDS } from '../../core/xds/dumpDiff.ts';
import { reveal, type TableTab } from './shared.ts';

const STATUS_LABEL: Record<DumpDifference['status'], string> = { 'only-in-dump': 'only in dump', 'only-generated': 'only generated', differs: 'differs' };
const TYPES = ['listener', 'route', 'cluster', 'endpoints'] as const;
const TABLES: { id: TableTab; label: string }[] = [
  { id: 'listeners', label: 'Listeners' },
  { id: 'routes', label: 'Routes' },
  { id: 'clusters', label: 'Clusters' },
  { id: 'endpoints', label: 'Endpoints' },
  { id: 'secrets', label: 'Secrets' },
];
const NO_PROVENANCE: ProxyConfigResult['provenance'] = {
  listeners: {},
  filterChains: {},
  clusters: {},
  routeConfigs: {},
  virtualHosts: {},
  routes: {},
  endpoints: {},
};

function sourceText(r: ResolvedProvenance): string {
  return `${r.kind ? `${r.kind} ${r.namespace}/${r.name}` : r.resourceKey}${r.fieldPath ? ` ${r.fieldPath}` : ''} (${r.file}:${r.line})`;
}

/** The dump file's own tables (istioctl's), read in the page. */
function DumpTables({
  file,
  renderTable,
}: {
  file: string;
  renderTable: (tab: TableTab, data: Pick<ProxyConfigResult, 'dump' | 'provenance' | 'secrets'>) => ReactNode;
}) {
  const [tab, setTab] = useState<TableTab>('listeners');
  const text = fileText(file) ?? '';
  const parsed = useMemo(() => parseDumpText(text), [text]);
  const data = useMemo(() => (parsed.ok ? { dump: parsed.value as ProxyConfigResult['dump'], provenance: NO_PROVENANCE } : undefined), [parsed]);
  if (!parsed.ok || !data) return <div className="field-error">{parsed.ok ? '' : parsed.error}</div>;
  return (
    <div data-testid="dump-tables">
      <div className="proxy-tabs" role="tablist" aria-label="Dump tables">
        {TABLES.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={t.id === tab}
            className={`proxy-tab${t.id === tab ? ' active' : ''}`}
            data-testid={`dump-tab-${t.id}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {renderTable(tab, data)}
    </div>
  );
}

/** Workspace files that hold an Envoy config dump (a cheap look at the text; the worker reads it properly). */
function useDumpFiles(): string[] {
  const files = useWorkspace((s) => s.files);
  return useMemo(
    () =>
      files
        .filter((f) => f.kind === 'text' && /\.(json|ya?ml)$/i.test(f.path))
        .filter((f) => {
          const text = fileText(f.path) ?? '';
          return /envoy\.admin\.v3\.\w*ConfigDump/.test(text.slice(0, 1 << 20));
        })
        .map((f) => f.path),
    [files],
  );
}

function freeName(taken: readonly string[], base: string): string {
  if (!taken.includes(base)) return base;
  const dot = base.lastIndexOf('.');
  for (let i = 2; ; i++) {
    const name = `${base.slice(0, dot)}-${i}${base.slice(dot)}`;
    if (!taken.includes(name)) return name;
  }
}

export function DumpCompare({
  proxy,
  onPick,
  renderTable,
}: {
  proxy: string;
  onPick: (id: string) => void;
  renderTable: (tab: TableTab, data: Pick<ProxyConfigResult, 'dump' | 'provenance' | 'secrets'>) => ReactNode;
}) {
  const [view, setView] = useState<'diff' | 'tables'>('diff');
  const dumpFiles = useDumpFiles();
  const readOnly = useWorkspace((s) => s.readOnly);
  const [chosen, setChosen] = useState('');
  const [paste, setPaste] = useState('');
  const [filter, setFilter] = useState<'all' | DumpDifference['status']>('all');
  const file = dumpFiles.includes(chosen) ? chosen : (dumpFiles[0] ?? '');
  const diff = useWorkerQuery('proxyDumpDiff', { proxy, file }, file !== '' && proxy !== '');
  const data = diff.data && diff.data.file === file && diff.data.proxy === proxy ? diff.data : undefined;
  // Whether the dump's own proxy is in the workspace (then it can be compared with that one).
  const dumpProxy = data?.dumpProxy ?? '';
  const known = useWorkerQuery('proxies', { limit: 0, include: dumpProxy }, dumpProxy !== '' && dumpProxy !== proxy);
  const dumpProxyKnown = known.data?.items.some((p) => p.id === dumpProxy) === true;

  const addDump = (text: string, name: string) => {
    const taken = useWorkspace.getState().files.map((f) => f.path);
    const path = freeName(taken, name);
    useWorkspace.getState().addFiles([{ path, text }]);
    setChosen(path);
  };
  const upload = async (list: FileList | null) => {
    const f = list?.[0];
    if (!f) return;
    addDump(await f.text(), /\.(json|ya?ml)$/i.test(f.name) ? f.name : `${f.name}.json`);
  };

  const shown = data ? data.differences.filter((d) => filter === 'all' || d.status === filter) : [];
  return (
    <div className="proxy-dump" data-testid="proxy-dump">
      <p className="muted">
        Compare a real Envoy config dump (<code>/config_dump?include_eds</code> or <code>istioctl proxy-config all -o json</code>) with the config generated for
        this proxy. Ignored as runtime-only: {RUNTIME_ONLY_FIELDS.join(', ')}.
      </p>
      <div className="dump-controls">
        <label className="proxy-picker">
          <span>Dump</span>
          <select
            className="text-input"
            aria-label="Dump file"
            data-testid="dump-file"
            value={file}
            onChange={(e) => setChosen(e.target.value)}
            disabled={dumpFiles.length === 0}
          >
            {dumpFiles.length === 0 && <option value="">No dump in the workspace</option>}
            {dumpFiles.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        {!readOnly && (
          <label className="button dump-upload-label">
            Upload dump…
            <input
              type="file"
              accept=".json,.yaml,.yml,application/json"
              data-testid="dump-upload"
              className="dump-upload"
              onChange={(e) => void upload(e.target.files)}
            />
          </label>
        )}
      </div>
      {!readOnly && (
        <details className="dump-paste-box" open={dumpFiles.length === 0}>
          <summary>Paste a dump</summary>
          <textarea
            className="dump-paste"
            data-testid="dump-paste"
            aria-label="Paste an Envoy config dump"
            placeholder='{"configs": [ … ]} (kept as a workspace file; nothing leaves this tab)'
            value={paste}
            spellCheck={false}
            onChange={(e) => setPaste(e.target.value)}
          />
          <button
            type="button"
            className="button primary"
            data-testid="dump-add"
            disabled={!paste.trim()}
            onClick={() => {
              addDump(paste, 'config_dump.json');
              setPaste('');
            }}
          >
            Add to workspace and compare
          </button>
        </details>
      )}
      {file !== '' && (
        <div className="proxy-tabs" role="tablist" aria-label="Dump views">
          <button
            type="button"
            role="tab"
            aria-selected={view === 'diff'}
            className={`proxy-tab${view === 'diff' ? ' active' : ''}`}
            data-testid="dump-view-diff"
            onClick={() => setView('diff')}
          >
            Differences
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={view === 'tables'}
            className={`proxy-tab${view === 'tables' ? ' active' : ''}`}
            data-testid="dump-view-tables"
            onClick={() => setView('tables')}
          >
            The dump&apos;s tables
          </button>
        </div>
      )}
      {view === 'tables' && file !== '' && <DumpTables file={file} renderTable={renderTable} />}
      {view === 'diff' && diff.error && !diff.loading && (
        <div className="field-error" data-testid="dump-error">
          {diff.error}
        </div>
      )}
      {view === 'diff' && file !== '' && !data && !diff.error && <p className="muted">Comparing…</p>}
      {view === 'diff' && data && (
        <div data-testid="dump-result">
          {data.dumpProxy && data.dumpProxy !== proxy && (
            <p className="proxy-note" data-testid="dump-other-proxy">
              This dump comes from <code>{data.dumpProxy}</code>.{' '}
              {dumpProxyKnown && (
                <button type="button" className="link-button" onClick={() => onPick(data.dumpProxy!)}>
                  Compare with that proxy
                </button>
              )}
            </p>
          )}
          <table className="proxy-table dump-counts" data-testid="dump-counts">
            <thead>
              <tr>
                <th>TYPE</th>
                <th>IN DUMP</th>
                <th>GENERATED</th>
                <th>SAME</th>
                <th>DIFFER</th>
                <th>ONLY IN DUMP</th>
                <th>ONLY GENERATED</th>
              </tr>
            </thead>
            <tbody>
              {TYPES.map((t) => {
                const c = data.counts[t];
                return (
                  <tr key={t}>
                    <td>{t}</td>
                    <td>{c.dump}</td>
                    <td>{c.generated}</td>
                    <td>{c.same}</td>
                    <td>{c.differs}</td>
                    <td>{c.onlyInDump}</td>
                    <td>{c.onlyGenerated}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {data.notes.length > 0 && (
            <ul className="muted dump-notes">
              {data.notes.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          )}
          <div className="changes-head">
            <select
              className="text-input"
              aria-label="Show"
              data-testid="dump-filter"
              value={filter}
              onChange={(e) => setFilter(e.target.value as typeof filter)}
            >
              <option value="all">All differences ({data.differences.length})</option>
              <option value="differs">Different</option>
              <option value="only-in-dump">Only in the dump</option>
              <option value="only-generated">Only generated</option>
            </select>
          </div>
          {data.differences.length === 0 ? (
            <p className="muted" data-testid="dump-none">
              The dump and the generated config have the same listeners, routes, clusters and endpoints.
            </p>
          ) : (
            <ul className="change-list">
              {shown.map((d) => (
                <li key={`${d.type}/${d.name}`} className={`change dump-${d.status}`} data-testid="dump-row" data-type={d.type} data-status={d.status}>
                  <div>
                    <span className="change-kind">{STATUS_LABEL[d.status]}</span> {d.type} <code>{d.name}</code>
                    {(data.sources[`${d.type}/${d.name}`] ?? []).slice(0, 2).map((src, i) => (
                      <span key={i}>
                        {' '}
                        <button
                          type="button"
                          className="link-button"
                          data-testid="dump-source"
                          title="Open the config that makes the generated side"
                          onClick={() => reveal(src)}
                        >
                          from {sourceText(src)}
                        </button>
                      </span>
                    ))}
                  </div>
                  {d.fields.length > 0 && (
                    <ul className="change-fields">
                      {d.fields.map((f, i) => (
                        <li key={i}>
                          <code>{f.path}</code>: generated {f.before ?? '(absent)'} · dump {f.after ?? '(absent)'}
                        </li>
                      ))}
                      {d.moreFields > 0 && <li className="muted">and {d.moreFields} more</li>}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
