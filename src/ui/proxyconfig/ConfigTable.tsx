// One `istioctl proxy-config` table (Listeners, Routes, Clusters, Endpoints, Secrets) with a
// detail pane: a click selects a row and shows its JSON, what it does to requests and the
// config that made it; double-click or Enter opens that config line. The filter sits above the
// table, the header stays in view, columns wrap instead of widening the page. Selection,
// filter and scroll live in the proxy view's store, per table.
import { useLayoutEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { configDumpFromValue } from '../../core/xds/configdump/index.ts';
import type { TableFinding } from '../../core/xds/configdump/index.ts';
import type { ResolvedProvenance } from '../../core/queries/views.ts';
import { useProxyView, useTableUi } from '../../state/proxyView.ts';
import { bestSource, describeSource, reveal, type TableData, type TableTab } from './shared.ts';
import { rowText, tableModel, type RowModel, type TableModel } from './rows.ts';

const EMPTY: TableModel = { columns: [], rows: [], widths: [] };

export function ConfigTable({ tab, data, scope }: { tab: TableTab; data: TableData; scope: string }) {
  const ui = useTableUi(scope);
  const setUi = (patch: Parameters<ReturnType<typeof useProxyView.getState>['setTable']>[1]) => useProxyView.getState().setTable(scope, patch);
  const model = useMemo((): TableModel & { error?: string } => {
    const read = configDumpFromValue(data.dump);
    if (!read.ok) return { ...EMPTY, error: read.error };
    try {
      return tableModel(tab, read.dump, data.provenance, data.secrets, data.proxy?.type === 'waypoint');
    } catch (e) {
      // An imported dump may lack a section (istioctl's message, e.g. "config dump has no configuration type …").
      return { ...EMPTY, error: e instanceof Error ? e.message : String(e) };
    }
  }, [tab, data]);
  const needle = ui.filter.trim().toLowerCase();
  const rows = useMemo(() => (needle ? model.rows.filter((r) => rowText(r).includes(needle)) : model.rows), [model, needle]);
  const selected = rows.find((r) => r.key === ui.selected);
  const scroller = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);

  // Back where it was: the scroll position this table had when it was last shown.
  const restored = useRef(false);
  useLayoutEffect(() => {
    if (restored.current || !scroller.current || model.rows.length === 0) return;
    restored.current = true;
    scroller.current.scrollTop = useProxyView.getState().tables[scope]?.scrollTop ?? 0;
  }, [model, scope]);

  // The detail pane takes room from the table when a row opens: keep the selected row in sight
  // (not when the table is shown again: then it is where it was left).
  const selectedKey = selected?.key;
  const shown = useRef(false);
  useLayoutEffect(() => {
    const first = !shown.current;
    shown.current = true;
    if (first || selectedKey === undefined) return;
    body.current?.querySelector<HTMLElement>(`tr[data-key="${CSS.escape(selectedKey)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selectedKey]);

  if (model.error) return <div className="field-error">{model.error}</div>;

  const select = (row: RowModel, focus: boolean) => {
    setUi({ selected: row.key });
    if (!focus) return;
    const tr = body.current?.querySelector<HTMLElement>(`tr[data-key="${CSS.escape(row.key)}"]`);
    tr?.focus({ preventScroll: true });
    tr?.scrollIntoView({ block: 'nearest' });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (rows.length === 0) return;
    const at = selected ? rows.indexOf(selected) : -1;
    let next: number | undefined;
    if (e.key === 'ArrowDown') next = Math.min(rows.length - 1, at + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, at - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = rows.length - 1;
    else if (e.key === 'Enter' && selected) {
      e.preventDefault();
      const src = bestSource(selected.sources);
      if (src) reveal(src);
      return;
    }
    if (next === undefined) return;
    e.preventDefault();
    select(rows[next]!, true);
  };
  const total = model.widths.reduce((a, b) => a + b, 0) || 1;
  // One row takes Tab: the selected one, else the first.
  const tabStop = selected?.key ?? rows[0]?.key;
  return (
    <div className={`pc-table-pane${selected ? ' has-detail' : ''}`} data-testid={`proxy-pane-${tab}`}>
      <div className="pc-table-main">
        <div className="pc-table-toolbar">
          <input
            type="search"
            className="text-input proxy-filter"
            placeholder="Filter rows"
            aria-label="Filter rows"
            data-testid="proxy-filter"
            value={ui.filter}
            onChange={(e) => setUi({ filter: e.target.value })}
          />
          <span className="muted pc-count" data-testid="proxy-row-count">
            {rows.length === model.rows.length ? `${rows.length} row${rows.length === 1 ? '' : 's'}` : `${rows.length} of ${model.rows.length}`}
          </span>
        </div>
        {model.notes?.map((n, i) => (
          <p key={i} className="pc-table-note" role="note" data-testid="proxy-table-note">
            <span aria-hidden="true">⚠ </span>
            {n}
          </p>
        ))}
        <div className="pc-table-scroll" ref={scroller} onScroll={(e) => setUi({ scrollTop: Math.round(e.currentTarget.scrollTop) })}>
          <table className="proxy-table" data-testid={`proxy-table-${tab}`} aria-label={`${tab[0]!.toUpperCase()}${tab.slice(1)}`}>
            <colgroup>
              {model.widths.map((w, i) => (
                <col key={i} style={{ width: `${(w * 100) / total}%` }} />
              ))}
            </colgroup>
            <thead>
              <tr>
                {model.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody ref={body} onKeyDown={onKeyDown}>
              {rows.map((r) => (
                <Row key={r.key} row={r} selected={r.key === selected?.key} tabStop={r.key === tabStop} onSelect={() => select(r, false)} />
              ))}
            </tbody>
          </table>
          {rows.length === 0 && <p className="muted pc-empty">Nothing to show.</p>}
        </div>
      </div>
      <DetailPane row={selected} />
    </div>
  );
}

function FindingMark({ f, src }: { f: TableFinding; src: ResolvedProvenance | undefined }) {
  return (
    <div className="pc-finding" data-testid="proxy-row-finding" data-flag={f.flag} title={f.detail}>
      <span className="pc-finding-icon" aria-hidden="true">
        ⚠
      </span>
      <span className="visually-hidden">Problem: </span>
      {src ? (
        <button
          type="button"
          className="link-button pc-finding-link"
          tabIndex={-1}
          title={`${f.detail} Opens ${describeSource(src)} (${src.file}:${src.line}).`}
          onClick={() => reveal(src)}
        >
          {f.consequence}
        </button>
      ) : (
        <span>{f.consequence}</span>
      )}
    </div>
  );
}

function Row({ row, selected, tabStop, onSelect }: { row: RowModel; selected: boolean; tabStop: boolean; onSelect: () => void }) {
  const src = bestSource(row.sources);
  const last = row.cells.length - 1;
  return (
    <tr
      className={`proxy-row${src ? ' linked' : ''}${selected ? ' selected' : ''}${row.findings.length > 0 ? ' has-finding' : ''}`}
      data-testid="proxy-row"
      data-key={row.key}
      aria-selected={selected}
      tabIndex={tabStop ? 0 : -1}
      title={src ? `From ${describeSource(src)} (${src.file}:${src.line}). Double-click or Enter opens it.` : 'Built in (no resource of the workspace)'}
      onClick={onSelect}
      onFocus={(e) => {
        if (e.target === e.currentTarget && !selected) onSelect();
      }}
      onDoubleClick={src ? () => reveal(src) : undefined}
    >
      {row.cells.map((c, i) => (
        <td key={i}>
          {c}
          {row.extras?.[i]?.map((x, j) => (
            <div key={j} className="muted pc-match-extra" data-testid="proxy-match-extra">
              {x}
            </div>
          ))}
          {i === last && row.findings.map((f, j) => <FindingMark key={j} f={f} src={src} />)}
        </td>
      ))}
    </tr>
  );
}

function SourceList({ sources }: { sources: ResolvedProvenance[] }) {
  if (sources.length === 0) return <p className="muted">Built in: no resource of the workspace makes it.</p>;
  return (
    <ul className="proxy-sources" data-testid="proxy-sources">
      {sources.map((s, i) => (
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
  );
}

function DetailPane({ row }: { row: RowModel | undefined }) {
  if (!row) {
    return (
      <p className="muted pc-detail-hint" data-testid="proxy-detail-empty">
        Select a row to see its JSON and the config that made it (↑ ↓ move, Enter or double-click opens the config line).
      </p>
    );
  }
  const src = bestSource(row.sources);
  return (
    <section className="pc-detail" data-testid="proxy-detail" aria-label="Selected row">
      <div className="pc-detail-info">
        <div className="pc-detail-head">
          <strong className="pc-detail-title">
            {row.cells
              .filter((c) => c !== '')
              .slice(0, 2)
              .join(' · ') || row.key}
          </strong>
          {src && (
            <button
              type="button"
              className="button"
              data-testid="proxy-goto"
              title={`${describeSource(src)} (${src.file}:${src.line})`}
              onClick={() => reveal(src)}
            >
              Go to config
            </button>
          )}
        </div>
        {row.findings.map((f, i) => (
          <div key={i} className="pc-detail-finding" data-testid="proxy-detail-finding" data-flag={f.flag}>
            <strong>
              <span aria-hidden="true">⚠ </span>
              {f.consequence}
            </strong>
            <div>{f.detail}</div>
            {src && (
              <button type="button" className="link-button" onClick={() => reveal(src)}>
                The config that made it: {describeSource(src)} ({src.file}:{src.line})
              </button>
            )}
          </div>
        ))}
        <SourceList sources={row.sources} />
      </div>
      <pre className="proxy-json" data-testid="proxy-json" tabIndex={0} role="region" aria-label="JSON of the selected row">
        {JSON.stringify(row.json, null, 2)}
      </pre>
    </section>
  );
}
