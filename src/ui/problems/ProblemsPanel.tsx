// Bottom panel: every diagnostic, filterable by level, code and free text.
// Clicking a row opens the file and selects the offending field in the editor. A finding on a
// workload with a proxy (a pod, the Deployment or other controller of injected pods, a
// Gateway's deployed pods) offers that proxy's generated Envoy config.
import { useShareView } from '../../state/shareOpen.ts';
import { memo, Suspense, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { Diagnostic, Level } from '../../core/document/types.ts';
import { LEVEL_ORDER } from '../../core/document/types.ts';
import { filterDiagnostics, useAnalysis } from '../../state/analysis.ts';
import { useWorkspace } from '../../state/workspace.ts';
import { LevelIcon } from '../common/LevelIcon.tsx';
import { menuItems, useCommandRegistry } from '../../state/commands.ts';
import { commandMenuItems } from '../common/menuItems.ts';
import { deferredComponent } from '../deferred.ts';
import { useRoving } from '../common/roving.ts';
import { useWorkerQuery } from '../common/useWorkerQuery.ts';
import { useViews } from '../../state/views.ts';
import { useProxyView } from '../../state/proxyView.ts';
import type { ProxySummary } from '../../core/queries/views.ts';
import './problems.css';
import { openAt } from '../../state/navigation.ts';

// The popup menu's code comes with the rest of the page after the first results (ui/deferred.ts).
const Menu = deferredComponent('Menu');

const LEVELS: Level[] = ['Error', 'Warning', 'Info'];
/** The level toggles' visible words: "Errors", "Warnings", "Info". */
const levelLabel = (l: Level) => (l === 'Info' ? 'Info' : `${l}s`);
const MAX_ROWS = 2000;
/**
 * Rows rendered per task: a new result shows its first rows at once and the rest in further
 * chunks, so a workspace with thousands of problems never blocks the page for long.
 */
const ROW_CHUNK = 150;

function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] ||
      (a.file ?? '\uffff').localeCompare(b.file ?? '\uffff') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      a.code.localeCompare(b.code),
  );
}

export function openDiagnostic(d: Diagnostic): void {
  if (!d.file) return;
  const ws = useWorkspace.getState();
  if (!ws.files.some((f) => f.path === d.file)) return;
  openAt(d.file, { range: d.range, line: d.line });
}

/**
 * The proxy whose Envoy config shows a finding's resource, by the finding's origin (istioctl's
 * `Kind namespace/name`): a pod is its own proxy; a Deployment, StatefulSet, DaemonSet, Job…
 * or a Kubernetes Gateway istiod deploys is the proxy of its first pod. Resources that only
 * configure proxies (VirtualServices, Istio Gateways…) have none of their own.
 */
function proxiesByOrigin(items: readonly ProxySummary[]): Map<string, ProxySummary> {
  const out = new Map<string, ProxySummary>();
  for (const p of items) {
    const own = `Pod ${p.namespace}/${p.name}`;
    if (!p.derived && !out.has(own)) out.set(own, p);
    if (p.derivedFrom && !out.has(p.derivedFrom)) out.set(p.derivedFrom, p);
  }
  return out;
}

/** Opens the Proxy config view on a proxy (src/state/proxyView.ts keeps which one). */
function showEnvoyConfig(proxyId: string): void {
  useProxyView.getState().setProxy(proxyId);
  useViews.getState().openView('proxy');
}

export function ProblemsPanel() {
  const diagnostics = useAnalysis((s) => s.diagnostics);
  const filters = useAnalysis((s) => s.filters);
  const resultVersion = useAnalysis((s) => s.resultVersion);
  const { setFilters, toggleLevel } = useAnalysis.getState();
  const deferredText = useDeferredValue(filters.text);

  const counts = useMemo(() => {
    const c: Record<Level, number> = { Error: 0, Warning: 0, Info: 0 };
    for (const d of diagnostics) c[d.level]++;
    return c;
  }, [diagnostics]);
  const codes = useMemo(() => [...new Set(diagnostics.map((d) => d.code))].sort(), [diagnostics]);
  const rows = useMemo(() => sortDiagnostics(filterDiagnostics(diagnostics, { ...filters, text: deferredText })), [diagnostics, filters, deferredText]);
  // Only asked when there is something to show it for.
  const proxies = useWorkerQuery('proxies', {}, diagnostics.length > 0);
  const proxyOf = useMemo(() => proxiesByOrigin(proxies.data?.items ?? []), [proxies.data]);
  const [limit, setLimit] = useState(ROW_CHUNK);
  // A new list starts again from the first chunk; the rest follows, a chunk per task.
  const [rowsSeen, setRowsSeen] = useState(rows);
  if (rowsSeen !== rows) {
    setRowsSeen(rows);
    setLimit(ROW_CHUNK);
  }
  const cap = Math.min(rows.length, MAX_ROWS);
  useEffect(() => {
    if (limit >= cap) return;
    const t = setTimeout(() => setLimit((l) => l + ROW_CHUNK), 0);
    return () => clearTimeout(t);
  }, [limit, cap]);
  const shown = rows.length > Math.min(limit, MAX_ROWS) ? rows.slice(0, Math.min(limit, MAX_ROWS)) : rows;
  // One Tab stop for the list (its current row); arrows, Home and End move between rows.
  const body = useRoving({ items: 'tr.problem-row', inner: true, lazy: true });

  return (
    <section className="panel problems" aria-label="Problems" data-testid="problems" data-pane="problems">
      <div className="panel-header problems-header">
        <h2 className="panel-title">
          Problems{' '}
          <span className="count-pill" data-testid="problems-count">
            {diagnostics.length}
          </span>
        </h2>
        <div className="filters" role="toolbar" aria-label="Problem filters">
          {LEVELS.map((l) => (
            <button
              key={l}
              type="button"
              className={`toggle lvl-toggle-${l}`}
              aria-pressed={filters.levels[l]}
              data-testid={`filter-${l.toLowerCase()}`}
              title={`${filters.levels[l] ? 'Hide' : 'Show'} ${l.toLowerCase()} messages`}
              // The accessible name starts with the visible text, word for word (WCAG 2.5.3,
              // axe's label-content-name-mismatch): "Errors 3", with a space between the two
              // spans, so a speech user saying what they see ("click Errors 3") hits it. When
              // the panel is narrow only the count shows, and "3" is still in the name.
              aria-label={`${levelLabel(l)} ${counts[l]}`}
              onClick={() => toggleLevel(l)}
            >
              <LevelIcon level={l} />
              <span className="toggle-label">{levelLabel(l)}</span> <span className="toggle-count">{counts[l]}</span>
            </button>
          ))}
          <select
            className="select"
            aria-label="Filter by code"
            data-testid="filter-code"
            value={filters.code}
            onChange={(e) => setFilters({ code: e.target.value })}
          >
            <option value="">All codes</option>
            {codes.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
            {filters.code && !codes.includes(filters.code) && <option value={filters.code}>{filters.code}</option>}
          </select>
          <input
            className="text-input filter-text"
            type="search"
            placeholder="Filter (text, resource, file)"
            aria-label="Filter problems"
            data-testid="filter-text"
            value={filters.text}
            onChange={(e) => setFilters({ text: e.target.value })}
          />
        </div>
      </div>
      <div className="problems-body">
        {diagnostics.length === 0 ? (
          <div className="empty-state small" data-testid="problems-empty">
            {resultVersion === 0 ? 'Analyzing…' : 'No problems found in the workspace.'}
          </div>
        ) : (
          <table className="problems-table" data-testid="problems-table">
            <thead>
              <tr>
                <th className="col-level" scope="col">
                  <span className="visually-hidden">Level</span>
                </th>
                <th className="col-code" scope="col">
                  Code
                </th>
                <th className="col-message" scope="col">
                  Message
                </th>
                <th className="col-origin" scope="col">
                  Resource
                </th>
                <th className="col-loc" scope="col">
                  File
                </th>
                <th className="col-actions" scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody ref={body} data-pane-focus="">
              {shown.map((d, i) => (
                <ProblemRow key={`${d.code}|${d.file}|${d.line}|${d.origin}|${i}`} d={d} proxy={d.origin ? proxyOf.get(d.origin)?.id : undefined} />
              ))}
            </tbody>
          </table>
        )}
        {diagnostics.length > 0 && rows.length === 0 && <div className="empty-state small">No problems match the filters.</div>}
        {rows.length > MAX_ROWS && (
          <div className="empty-state small">
            Showing the first {MAX_ROWS} of {rows.length} problems; narrow the filters to see the rest.
          </div>
        )}
      </div>
    </section>
  );
}

const ProblemRow = memo(function ProblemRow({ d, proxy }: { d: Diagnostic; proxy: string | undefined }) {
  const [menu, setMenu] = useState<'fix' | 'suppress' | null>(null);
  const fixButton = useRef<HTMLButtonElement>(null);
  const suppressButton = useRef<HTMLButtonElement>(null);
  const editable = useWorkspace((s) => (d.file ? s.files.some((f) => f.path === d.file && f.kind === 'text') : false));
  // A shared link is read-only: no Fix and no Suppress (the registry offers neither then).
  const readOnly = useWorkspace((s) => s.readOnly);
  const linked = useShareView((s) => s.linked);
  const isLinked = !!linked && linked.code === d.code && linked.file === d.file && (linked.line === undefined || linked.line === d.line);
  useCommandRegistry((s) => s.version);
  // Both menus list the command registry's entries for this diagnostic.
  const fixes = editable && !readOnly ? menuItems('problem.fix', d) : [];
  const loc = d.file ? `${d.file}${d.line ? `:${d.line}` : ''}` : '';
  // The location is the line istioctl prints, so the row reads as `istioctl analyze` does. A
  // click selects the field the message is about, which can start on another line: istioctl
  // points some messages at another field than the one they name (IST0162 at the Gateway's
  // selector, while the port is the problem), at a mapping's key, or at a `---` above the
  // document its reader keeps. Then the row shows where the click lands too (→ line) and says why.
  const fieldLine = d.range?.startLine;
  const moved = !!d.line && fieldLine !== undefined && fieldLine !== d.line;
  const locTitle = moved ? `istioctl prints line ${d.line}; the field starts on line ${fieldLine}` : undefined;
  const fieldTitle = moved ? `A click selects the field the message is about, which starts on line ${fieldLine}; istioctl prints line ${d.line}` : undefined;
  const suppressItems = () =>
    commandMenuItems(menuItems('problem.suppress', d), (i) =>
      i.command.id === 'problems.suppressWithAnnotation'
        ? 'suppress-annotation'
        : i.command.id === 'problems.suppressWithRule'
          ? 'suppress-rule'
          : i.command.id,
    );
  return (
    <tr
      className={`problem-row lvl-row-${d.level}${d.file ? ' clickable' : ''}${menu ? ' menu-open' : ''}${isLinked ? ' linked' : ''}`}
      data-testid="problem-row"
      data-linked={isLinked ? 'true' : undefined}
      ref={isLinked ? (el) => el?.scrollIntoView({ block: 'nearest' }) : undefined}
      data-level={d.level}
      data-code={d.code}
      aria-label={`${d.level} ${d.code}: ${d.message}${loc ? ` (${loc}${moved ? `, the field on line ${fieldLine}` : ''})` : ''}`}
      tabIndex={-1}
      onClick={() => openDiagnostic(d)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && e.target === e.currentTarget) openDiagnostic(d);
      }}
      title={d.fieldPath ? `${d.message}\n(${d.fieldPath})` : d.message}
    >
      <td className="col-level">
        <LevelIcon level={d.level} />
      </td>
      <td className="col-code">
        {d.docUrl ? (
          <a
            href={d.docUrl}
            tabIndex={-1}
            target="_blank"
            rel="noreferrer noopener"
            onClick={(e) => e.stopPropagation()}
            title={`Open the documentation of ${d.code}`}
          >
            {d.code}
          </a>
        ) : (
          d.code
        )}
      </td>
      <td className="col-message">
        <div className="message-cell">
          <span className="message-text">{d.message}</span>
          {fixes.length > 0 && (
            <button
              type="button"
              ref={fixButton}
              tabIndex={-1}
              className="fix-action"
              data-testid="fix-button"
              title={fixes.length === 1 ? (fixes[0]?.title ?? 'Fix') : `${fixes.length} fixes`}
              aria-label={`Fix ${d.code}`}
              aria-haspopup="menu"
              aria-expanded={menu === 'fix'}
              onClick={(e) => {
                e.stopPropagation();
                setMenu(menu === 'fix' ? null : 'fix');
              }}
            >
              Fix
            </button>
          )}
        </div>
        {menu === 'fix' && (
          <Suspense fallback={null}>
            <Menu
              anchor={fixButton}
              label={`Fixes for ${d.code}`}
              testId="fix-menu"
              items={commandMenuItems(fixes, () => 'fix-item')}
              onClose={() => setMenu(null)}
            />
          </Suspense>
        )}
      </td>
      <td className="col-origin">{d.origin ?? ''}</td>
      <td className="col-loc">
        <span className="loc-text" data-testid="problem-location" title={locTitle}>
          {loc}
        </span>
        {moved && (
          <span className="loc-field" data-testid="problem-field-line" title={fieldTitle}>
            {' '}
            → {fieldLine}
          </span>
        )}
      </td>
      <td className="col-actions">
        {proxy && (
          <button
            type="button"
            tabIndex={-1}
            className="row-action"
            data-testid="envoy-config-button"
            data-proxy={proxy}
            title={`Show the Envoy config of this workload (proxy ${proxy})`}
            aria-label={`Show the Envoy config of ${d.origin} (proxy ${proxy})`}
            onClick={(e) => {
              e.stopPropagation();
              showEnvoyConfig(proxy);
            }}
          >
            Envoy config
          </button>
        )}
        {d.origin && !readOnly && (
          <button
            type="button"
            ref={suppressButton}
            tabIndex={-1}
            className="row-action"
            data-testid="suppress-button"
            title={`Suppress ${d.code} on ${d.origin}`}
            aria-label={`Suppress ${d.code} on ${d.origin}`}
            aria-haspopup="menu"
            aria-expanded={menu === 'suppress'}
            onClick={(e) => {
              e.stopPropagation();
              setMenu(menu === 'suppress' ? null : 'suppress');
            }}
          >
            Suppress
          </button>
        )}
        {menu === 'suppress' && (
          <Suspense fallback={null}>
            <Menu anchor={suppressButton} label={`Suppress ${d.code}`} testId="suppress-menu" items={suppressItems()} onClose={() => setMenu(null)} />
          </Suspense>
        )}
      </td>
    </tr>
  );
});
