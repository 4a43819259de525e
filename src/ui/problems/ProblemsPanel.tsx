// Bottom panel: every diagnostic, filterable by level, code and free text.
// Clicking a row opens the file and selects the offending field in the editor. A finding on a
// workload with a proxy (a pod, the Deployment or other controller of injected pods, a
// Gateway's deployed pods) offers that proxy's generated Envoy config.
import { type LinkedDiagnostic, useShareView } from '../../state/shareOpen.ts';
import {
  type CSSProperties,
  type FocusEvent,
  type ReactElement,
  type KeyboardEvent,
  memo,
  type RefObject,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { Diagnostic, Level } from '../../core/document/types.ts';
import { filterDiagnostics, useAnalysis } from '../../state/analysis.ts';
import { diagnosticSummary } from '../../state/diagnosticSummary.ts';
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
import { type RowWindow, rowForKey, rowsPerPage, rowWindow, scrollTopToReveal } from './virtualRows.ts';

// The popup menu's code comes with the rest of the page after the first results (ui/deferred.ts).
const Menu = deferredComponent('Menu');

const LEVELS: Level[] = ['Error', 'Warning', 'Info'];
/** The level toggles' visible words: "Errors", "Warnings", "Info". */
const levelLabel = (l: Level) => (l === 'Info' ? 'Info' : `${l}s`);
/**
 * A longer list renders only the rows in view and OVERSCAN more each side (VS Code's Problems
 * view does the same): a whole-cluster dump has tens of thousands of problems, and laying out
 * that many rows takes the page away for seconds. A shorter list renders every row, so a row
 * out of view can still be found in the page (Ctrl+F, tests).
 */
const WINDOWED_ABOVE = 500;
/** A windowed list's row height in pixels: its rows are one line (problems.css). */
const ROW_HEIGHT = 28;
const OVERSCAN = 20;
/**
 * Rows rendered per task in a list that is not windowed: a new result shows its first rows at
 * once and the rest in further chunks (500 rows at once take a task of 300 ms and more).
 */
const ROW_CHUNK = 150;

/** The diagnostic a shared link points at (its row is highlighted and scrolled to). */
function isLinkedTo(linked: LinkedDiagnostic | null, d: Diagnostic): boolean {
  return !!linked && linked.code === d.code && linked.file === d.file && (linked.line === undefined || linked.line === d.line);
}

/** The scroll box's position and height in row space (below the sticky header; virtualRows.ts). */
function rowViewport(box: HTMLElement): { scrollTop: number; viewportHeight: number } {
  const header = box.querySelector('thead')?.offsetHeight ?? 0;
  return { scrollTop: box.scrollTop, viewportHeight: Math.max(0, box.clientHeight - header) };
}

/**
 * The rows of a windowed list to render, kept in step with the scroll box's scroll position
 * (once a frame at most) and its height. `reveal` scrolls a row of the whole list into view
 * and renders it at once, so it can be focused in the same task.
 */
function useRowWindow(box: RefObject<HTMLDivElement | null>, total: number, enabled: boolean) {
  const [win, setWin] = useState<RowWindow>({ start: 0, end: 0 });
  const measure = useCallback(() => {
    const el = box.current;
    if (!el) return;
    const next = rowWindow({ ...rowViewport(el), rowHeight: ROW_HEIGHT, overscan: OVERSCAN, total });
    // The same rows (a scroll of less than a row): no render.
    setWin((w) => (w.start === next.start && w.end === next.end ? w : next));
  }, [box, total]);
  const reveal = useCallback(
    (index: number) => {
      const el = box.current;
      if (!el) return;
      const { scrollTop, viewportHeight } = rowViewport(el);
      el.scrollTop = scrollTopToReveal(index, scrollTop, viewportHeight, ROW_HEIGHT);
      measure();
    },
    [box, measure],
  );
  useEffect(() => {
    const el = box.current;
    if (!enabled || !el) return;
    let frame = 0;
    const schedule = () => {
      if (!frame) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          measure();
        });
      }
    };
    el.addEventListener('scroll', schedule, { passive: true });
    const resize = new ResizeObserver(schedule);
    resize.observe(el);
    return () => {
      el.removeEventListener('scroll', schedule);
      resize.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [box, enabled, measure]);
  return { win, measure, reveal };
}

export function openDiagnostic(d: Diagnostic): void {
  if (!d.file) return;
  const ws = useWorkspace.getState();
  if (!ws.files.some((f) => f.path === d.file)) return;
  openAt(d.file, { range: d.range, line: d.line });
}

/**
 * The proxy whose Envoy config shows a finding's resource, by the finding's origin (istioctl's
 * `Kind namespace/name`, the worker's `origin` of each proxy): a controller's first pod.
 * Resources that only configure proxies (VirtualServices, Istio Gateways…) have none of their own.
 */
function proxiesByOrigin(items: readonly ProxySummary[]): Map<string, ProxySummary> {
  const out = new Map<string, ProxySummary>();
  for (const p of items) if (p.origin !== undefined && !out.has(p.origin)) out.set(p.origin, p);
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

  const summary = diagnosticSummary(diagnostics);
  const counts = summary.levels;
  const codes = summary.codes;
  // Filtering keeps the summary's order: the list is sorted once per result.
  const rows = useMemo(() => filterDiagnostics(summary.sorted, { ...filters, text: deferredText }), [summary, filters, deferredText]);
  const windowed = rows.length > WINDOWED_ABOVE;
  const scrollBox = useRef<HTMLDivElement>(null);
  // One Tab stop for the list (its current row); arrows, Home and End move between rows. Until
  // the user picks a row, a windowed list's stop is the first row in view, not the first of
  // the rows rendered above it.
  const body = useRoving({
    items: 'tr.problem-row',
    inner: true,
    lazy: true,
    initial: (items) => {
      const el = scrollBox.current;
      if (!windowed || !el) return undefined;
      const firstInView = Math.floor(rowViewport(el).scrollTop / ROW_HEIGHT);
      return items.find((i) => Number(i.getAttribute('aria-rowindex')) - 2 >= firstInView);
    },
  });
  const { win, measure, reveal } = useRowWindow(scrollBox, rows.length, windowed);
  const linked = useShareView((s) => s.linked);
  const wasWindowed = useRef(false);
  const filterKey = JSON.stringify([filters.levels, filters.code, deferredText]);
  const lastFilterKey = useRef(filterKey);
  // A windowed list whose filters changed starts at the top, or at the row a shared link points
  // at; a new result under the same filters (an edit) keeps the place. Before paint, so the
  // old scroll position never shows the new rows.
  useLayoutEffect(() => {
    const el = scrollBox.current;
    if (!el) return;
    const refiltered = lastFilterKey.current !== filterKey;
    lastFilterKey.current = filterKey;
    if ((windowed || wasWindowed.current) && (refiltered || windowed !== wasWindowed.current)) el.scrollTop = 0;
    wasWindowed.current = windowed;
    if (!windowed) return;
    const linkedIndex = linked ? rows.findIndex((d) => isLinkedTo(linked, d)) : -1;
    if (linkedIndex >= 0) reveal(linkedIndex);
    else measure();
  }, [rows, windowed, linked, measure, reveal, filterKey]);
  // The row a key moved to, focused once it is rendered.
  const pendingFocus = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (pendingFocus.current === null) return;
    const row = scrollBox.current?.querySelector<HTMLElement>(`tr.problem-row[aria-rowindex="${pendingFocus.current + 2}"]`);
    if (!row) return;
    pendingFocus.current = null;
    row.focus({ preventScroll: true });
  });
  // Windowed, the roving keys move through the whole list, not only the rendered rows. This
  // runs in the capture phase, before roving's own listener on the tbody, and stops the key.
  const onRowsKeyDownCapture = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const row = e.target as HTMLElement;
    const el = scrollBox.current;
    if (!windowed || !el || !row.matches('tr.problem-row') || e.altKey || e.ctrlKey || e.metaKey) return;
    const index = Number(row.getAttribute('aria-rowindex')) - 2;
    const to = rowForKey(e.key, index, rows.length, rowsPerPage(rowViewport(el).viewportHeight, ROW_HEIGHT));
    if (to === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    reveal(to);
    const target = el.querySelector<HTMLElement>(`tr.problem-row[aria-rowindex="${to + 2}"]`);
    if (target) target.focus({ preventScroll: true });
    else pendingFocus.current = to;
  };
  const [limit, setLimit] = useState(ROW_CHUNK);
  // A new list starts again from the first chunk; the rest follows, a chunk per task.
  const [rowsSeen, setRowsSeen] = useState(rows);
  if (rowsSeen !== rows) {
    setRowsSeen(rows);
    setLimit(ROW_CHUNK);
  }
  useEffect(() => {
    if (windowed || limit >= rows.length) return;
    const t = setTimeout(() => setLimit((l) => l + ROW_CHUNK), 0);
    return () => clearTimeout(t);
  }, [limit, rows.length, windowed]);
  const start = windowed ? Math.min(win.start, rows.length) : 0;
  const end = windowed ? Math.min(Math.max(win.end, start), rows.length) : Math.min(limit, rows.length);
  const shown = start > 0 || end < rows.length ? rows.slice(start, end) : rows;
  // The proxies of the rows on screen only (a whole cluster has 100,000), asked when there are rows.
  const origins = useMemo(() => [...new Set(shown.flatMap((d) => (d.origin ? [d.origin] : [])))].sort(), [shown]);
  const proxies = useWorkerQuery('proxies', { origins }, origins.length > 0);
  const proxyOf = useMemo(() => proxiesByOrigin(proxies.data?.items ?? []), [proxies.data]);
  // A windowed list keeps the focused row in the page while it scrolls out of the window, so
  // focus (and the Tab stop) stays on it.
  const [focusedRow, setFocusedRow] = useState<number | null>(null);
  const onRowsFocus = (e: FocusEvent<HTMLTableSectionElement>) => {
    const row = (e.target as HTMLElement).closest('tr.problem-row');
    const index = row ? Number(row.getAttribute('aria-rowindex')) - 2 : Number.NaN;
    if (windowed && index >= 0) setFocusedRow(index);
  };
  const onRowsBlur = (e: FocusEvent<HTMLTableSectionElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocusedRow(null);
  };
  const extra = windowed && focusedRow !== null && focusedRow < rows.length && (focusedRow < start || focusedRow >= end) ? focusedRow : null;
  const rowAt = (index: number) => {
    const d = rows[index] as Diagnostic;
    return (
      <ProblemRow
        key={`${d.code}|${d.file}|${d.line}|${d.origin}|${index}`}
        d={d}
        proxy={d.origin ? proxyOf.get(d.origin)?.id : undefined}
        rowIndex={windowed ? index + 2 : undefined}
      />
    );
  };
  // One keyed list, spacers included: the focused row keeps its element (and focus) as it
  // leaves the window.
  const bodyRows: ReactElement[] = [];
  const spacer = (key: string, n: number) => {
    if (n > 0) bodyRows.push(<SpacerRow key={key} rows={n} />);
  };
  if (extra !== null && extra < start) {
    spacer('above-focused', extra);
    bodyRows.push(rowAt(extra));
    spacer('top', start - extra - 1);
  } else spacer('top', start);
  for (let i = start; i < Math.min(end, rows.length); i++) bodyRows.push(rowAt(i));
  if (extra !== null && extra >= end) {
    spacer('bottom', extra - end);
    bodyRows.push(rowAt(extra));
    spacer('below-focused', rows.length - extra - 1);
  } else if (windowed) spacer('bottom', rows.length - end);

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
      <div className="problems-body" ref={scrollBox}>
        {diagnostics.length === 0 ? (
          <div className="empty-state small" data-testid="problems-empty">
            {resultVersion === 0 ? 'Analyzing…' : 'No problems found in the workspace.'}
          </div>
        ) : (
          <table
            className={`problems-table${windowed ? ' windowed' : ''}`}
            data-testid="problems-table"
            // Windowed, assistive tech learns the list's size and each row's place from these
            // (the header row is row 1).
            aria-rowcount={windowed ? rows.length + 1 : undefined}
            style={windowed ? ({ '--problem-row-height': `${ROW_HEIGHT}px` } as CSSProperties) : undefined}
          >
            <thead>
              <tr aria-rowindex={windowed ? 1 : undefined}>
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
            <tbody ref={body} data-pane-focus="" onKeyDownCapture={onRowsKeyDownCapture} onFocus={onRowsFocus} onBlur={onRowsBlur}>
              {bodyRows}
            </tbody>
          </table>
        )}
        {diagnostics.length > 0 && rows.length === 0 && <div className="empty-state small">No problems match the filters.</div>}
      </div>
    </section>
  );
}

/** Stands in for the rows of a windowed list above or below the rendered ones. */
function SpacerRow({ rows }: { rows: number }) {
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: the spacer has no tabindex and nothing focusable in it; hidden, it is no row to count.
    <tr className="problem-spacer" aria-hidden="true" style={{ height: rows * ROW_HEIGHT }}>
      <td colSpan={6} />
    </tr>
  );
}

/** `rowIndex`: the row's aria-rowindex in a windowed list (1-based, the header is 1). */
const ProblemRow = memo(function ProblemRow({ d, proxy, rowIndex }: { d: Diagnostic; proxy: string | undefined; rowIndex: number | undefined }) {
  const [menu, setMenu] = useState<'fix' | 'suppress' | null>(null);
  const fixButton = useRef<HTMLButtonElement>(null);
  const suppressButton = useRef<HTMLButtonElement>(null);
  const editable = useWorkspace((s) => (d.file ? s.files.some((f) => f.path === d.file && f.kind === 'text') : false));
  // A shared link is read-only: no Fix and no Suppress (the registry offers neither then).
  const readOnly = useWorkspace((s) => s.readOnly);
  const linked = useShareView((s) => s.linked);
  const isLinked = isLinkedTo(linked, d);
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
      // A windowed list scrolls to the linked row's index instead (ProblemsPanel).
      ref={isLinked && rowIndex === undefined ? (el) => el?.scrollIntoView({ block: 'nearest' }) : undefined}
      aria-rowindex={rowIndex}
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
