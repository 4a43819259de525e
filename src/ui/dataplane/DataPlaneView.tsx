// The "Data plane" view (a tab of the main area, src/state/views.ts): the ambient data plane
// simulated from the files (worker queries `dataplane`, `ztunnelConfig`, `dataplaneTrace`). A
// diagram of the nodes with their ztunnel and pods coloured by mode (hover a pod for why),
// waypoints and Services with their binding; "what if" namespace label toggles (temporary
// overrides, never edits of the files); one node's ztunnel view; a request trace drawn across
// the diagram with its hops listed. The inspector's tab shows DataPlaneSummary instead.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AmbientSettings } from '../../core/ambient/settings.ts';
import type { DataPlaneOverview, DataPlanePod, DataPlaneTraceResult } from '../../core/queries/views.ts';
import type { SourceLocation } from '../../core/queries/location.ts';
import { useWorkerQuery } from '../common/useWorkerQuery.ts';
import './dataplane.css';
import { centre, labelLines, layoutDiagram, podId, serviceId, ztunnelId, LINE_H, type Box, type DiagramLayout, type TextMeasure } from './layout.ts';
import { openAt } from '../../state/navigation.ts';
import { TraceSteps } from './TraceSteps.tsx';

export const MODE_LABEL: Record<DataPlanePod['mode'], string> = { ambient: 'ambient', sidecar: 'sidecar', none: 'none', pending: 'pending' };
const MODE_LABEL_KEY = 'istio.io/dataplane-mode';

type NsOverrides = Record<string, Record<string, string | null>>;

function reveal(loc: SourceLocation | undefined): void {
  if (!loc) return;
  openAt(loc.file, { line: loc.line });
}

/** The Data plane view: fills the main area's panel and scrolls inside it. */
export function DataPlaneView() {
  return (
    <div className="dp-view">
      <DataPlaneContent />
    </div>
  );
}

function DataPlaneContent() {
  const [nsOverrides, setNsOverrides] = useState<NsOverrides>({});
  const [wide, setWide] = useState(false);
  const wideButton = useRef<HTMLButtonElement>(null);
  const settings: AmbientSettings = useMemo(() => (Object.keys(nsOverrides).length > 0 ? { overrides: { namespaceLabels: nsOverrides } } : {}), [nsOverrides]);
  const { data, error } = useWorkerQuery('dataplane', { settings });
  const [trace, setTrace] = useState<{ from: string; to: string; request: string } | null>(null);
  const traced = useWorkerQuery(
    'dataplaneTrace',
    { from: trace?.from ?? '', to: trace?.to ?? '', request: trace?.request ?? 'GET /', settings },
    trace !== null,
  );
  const [hovered, setHovered] = useState<string | null>(null);
  // The wide view covers the window like a dialog: Escape closes it, as it closes one, and
  // the focus goes back to the button that opened it.
  useEffect(() => {
    if (!wide) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      setWide(false);
      wideButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [wide]);

  if (error && !data) return <div className="field-error">{error}</div>;
  if (!data) return <p className="muted">Simulating the data plane…</p>;
  if (data.pods.filter((p) => p.role !== 'ztunnel').length === 0) {
    return (
      <p className="muted" data-testid="dataplane-empty">
        No pods, and no Deployments or other controllers to derive them from. Load the “Ambient shop” sample (Samples menu) to see an ambient data plane.
      </p>
    );
  }
  const hoveredPod = hovered ? data.pods.find((p) => p.key === hovered) : undefined;
  return (
    <div
      className={`dataplane${wide ? ' dataplane-wide' : ''}`}
      data-testid="dataplane"
      {...(wide ? { role: 'dialog', 'aria-modal': false, 'aria-label': 'Data plane, wide view' } : {})}
    >
      <div className="dataplane-head">
        <span className="muted" data-testid="dataplane-counts">
          {data.counts.pods} pods: {data.counts.ambient} ambient, {data.counts.sidecar} sidecar, {data.counts.none} none
          {data.counts.pending > 0 && `, ${data.counts.pending} pending`}
        </span>
        <button
          type="button"
          ref={wideButton}
          className="link-button"
          data-testid="dataplane-wide"
          onClick={() => setWide(!wide)}
          title={wide ? 'Close the wide view (Escape)' : 'Show the data plane over the whole window'}
        >
          {wide ? 'Close wide view' : 'Wide view'}
        </button>
      </div>
      <WhatIf data={data} overrides={nsOverrides} onChange={setNsOverrides} />
      <Diagram data={data} trace={trace ? traced.data : undefined} onHover={setHovered} />
      <div className="dp-hover" data-testid="dp-hover">
        {hoveredPod ? <PodWhy pod={hoveredPod} /> : <span className="muted">Hover a pod to see why it has its mode.</span>}
      </div>
      <TraceForm data={data} onRun={setTrace} />
      {trace && traced.error && <div className="field-error">{traced.error}</div>}
      {trace && traced.data && <TraceSteps result={traced.data} />}
      <NodeView data={data} settings={settings} />
      <EnrollmentTable data={data} onHover={setHovered} />
      <details className="dp-details">
        <summary>Assumed ({data.assumptions.length})</summary>
        <ul className="assumption-list" data-testid="dataplane-assumptions">
          {data.assumptions.map((a, i) => (
            <li key={i}>{a}</li>
          ))}
        </ul>
      </details>
    </div>
  );
}

function PodWhy({ pod }: { pod: DataPlanePod }) {
  return (
    <div data-testid="dp-why">
      <strong>
        {pod.key}: {MODE_LABEL[pod.mode]}
      </strong>{' '}
      <code>{pod.code}</code>
      <div>{pod.reason}</div>
      {pod.role === 'waypoint' && <div>Waypoint proxy of {pod.waypointOf}.</div>}
      <div className="muted">
        node {pod.node}
        {pod.nodeAssumed ? ' (assumed)' : ''} · {pod.ips.join(', ') || 'no IP'}
        {pod.ipAssumed ? ' (assumed)' : ''} · {pod.identity}
      </div>
      {pod.waypoint && <div>Workload waypoint: {pod.waypoint}</div>}
      {pod.overridden && <div className="dp-override-note">Changed by a “what if” override.</div>}
    </div>
  );
}

/** Temporary namespace label toggles: applied to the simulation, never to the files. */
function WhatIf({ data, overrides, onChange }: { data: DataPlaneOverview; overrides: NsOverrides; onChange: (o: NsOverrides) => void }) {
  const namespaces = data.namespaces.filter((n) => !n.excluded && n.name !== 'istio-system');
  if (namespaces.length === 0) return null;
  const toggle = (ns: string, on: boolean) => onChange({ ...overrides, [ns]: { [MODE_LABEL_KEY]: on ? 'ambient' : null } });
  return (
    <details className="dp-details" open>
      <summary>What if: namespace labels</summary>
      <ul className="dp-whatif" data-testid="dp-whatif">
        {namespaces.map((n) => (
          <li key={n.name}>
            <label className="checkbox">
              <input
                type="checkbox"
                data-testid="dp-whatif-ns"
                data-ns={n.name}
                checked={n.labels[MODE_LABEL_KEY] === 'ambient'}
                onChange={(e) => toggle(n.name, e.target.checked)}
              />
              <span>
                <code>{n.name}</code> {MODE_LABEL_KEY}=ambient{n.overridden && <em className="dp-override-note"> (what if)</em>}
              </span>
            </label>
          </li>
        ))}
      </ul>
      {Object.keys(overrides).length > 0 && (
        <button type="button" className="link-button" data-testid="dp-whatif-reset" onClick={() => onChange({})}>
          Back to the files
        </button>
      )}
    </details>
  );
}

/**
 * Text widths for the labels, measured with the diagram's own font (a canvas, so no layout
 * pass). Without a canvas (tests), an estimate that errs wide, so a label never overflows.
 */
function useTextMeasure(): TextMeasure {
  return useMemo(() => {
    const ctx = typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d') : null;
    const family = typeof document !== 'undefined' ? getComputedStyle(document.body).fontFamily || 'system-ui, sans-serif' : 'sans-serif';
    const cache = new Map<string, number>();
    return (text: string, size: number) => {
      const k = `${size}|${text}`;
      let w = cache.get(k);
      if (w === undefined) {
        if (ctx) {
          ctx.font = `${size}px ${family}`;
          w = ctx.measureText(text).width;
        } else w = text.length * size * 0.62;
        cache.set(k, w);
      }
      return w;
    };
  }, []);
}

/** The width the diagram may use: its box's, followed as the window or the panel resizes. */
function useAvailableWidth(el: React.RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => {
      // Steps of 40px: a resize by a few pixels does not lay the diagram out again.
      const w = Math.max(0, Math.floor(node.clientWidth / 40) * 40);
      setWidth((old) => (old === w ? old : w));
    };
    read();
    const ro = new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(read, 120);
    });
    ro.observe(node);
    return () => {
      clearTimeout(timer);
      ro.disconnect();
    };
  }, [el]);
  return width;
}

function Diagram({ data, trace, onHover }: { data: DataPlaneOverview; trace: DataPlaneTraceResult | undefined; onHover: (k: string | null) => void }) {
  const [layout, setLayout] = useState<DiagramLayout | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const width = useAvailableWidth(wrap);
  const measure = useTextMeasure();
  const labels = useMemo(() => labelLines(data, measure), [data, measure]);
  useEffect(() => {
    if (width <= 0) return;
    let live = true;
    layoutDiagram(data, { availableWidth: width, labels }).then(
      (l) => live && (setLayout(l), setFailed(null)),
      (e: unknown) => live && setFailed(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [data, width, labels]);
  const pods = useMemo(() => new Map(data.pods.map((p) => [p.key, p])), [data]);
  const services = useMemo(() => new Map(data.services.map((s) => [s.key, s])), [data]);
  const lines = useCallback((id: string) => labels.get(id) ?? { label: [], sub: [] }, [labels]);
  return (
    <div className="dp-diagram-wrap" ref={wrap}>
      {failed ? (
        <div className="field-error">The diagram could not be laid out: {failed}</div>
      ) : !layout ? (
        <p className="muted">Laying out the diagram…</p>
      ) : (
        <DiagramSvg data={data} layout={layout} trace={trace} pods={pods} services={services} lines={lines} onHover={onHover} />
      )}
      {layout && (
        <div className="dp-legend">
          <span className="dp-swatch dp-mode-ambient" /> ambient <span className="dp-swatch dp-mode-sidecar" /> sidecar{' '}
          <span className="dp-swatch dp-mode-none" /> none
          <span className="dp-swatch dp-waypoint" /> waypoint
          {layout.hidden > 0 && <span className="muted"> · {layout.hidden} more pods not drawn (see the table)</span>}
        </div>
      )}
    </div>
  );
}

/** Lines of text, one <tspan> each, from a first baseline down. */
function Lines({ x, y, lines, className }: { x: number; y: number; lines: readonly string[]; className: string }) {
  return (
    <text className={className} x={x} y={y}>
      {lines.map((l, i) => (
        <tspan key={i} x={x} dy={i === 0 ? 0 : LINE_H}>
          {l}
        </tspan>
      ))}
    </text>
  );
}

function DiagramSvg({
  data,
  layout,
  trace,
  pods,
  services,
  lines,
  onHover,
}: {
  data: DataPlaneOverview;
  layout: DiagramLayout;
  trace: DataPlaneTraceResult | undefined;
  pods: Map<string, DataPlanePod>;
  services: Map<string, DataPlaneOverview['services'][number]>;
  lines: (id: string) => { label: string[]; sub: string[] };
  onHover: (k: string | null) => void;
}) {
  const boxes = new Map<string, Box>([...layout.pods, ...layout.ztunnels, ...layout.services].map((b) => [b.id, b]));
  const path = trace ? tracePoints(trace, data, boxes) : [];
  const pad = 4;
  return (
    <svg
      className="dp-diagram"
      data-testid="dp-diagram"
      viewBox={`${-pad} ${-pad} ${layout.width + 2 * pad} ${layout.height + 2 * pad}`}
      width={layout.width + 2 * pad}
      role="img"
      aria-label="Nodes, ztunnels, pods and Services"
    >
      <defs>
        <marker id="dp-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M0 0 10 5 0 10z" className="dp-arrowhead" />
        </marker>
      </defs>
      {layout.nodes.map((n) => (
        <g key={n.id} data-testid="dp-node" data-node={n.id.slice(5)}>
          <title>{`node ${n.id.slice(5)}`}</title>
          <rect className="dp-node" x={n.x} y={n.y} width={n.width} height={n.height} rx={6} />
          <text className="dp-node-label" x={n.x + 8} y={n.y + 17}>
            node {n.id.slice(5)}
          </text>
        </g>
      ))}
      {layout.ztunnels.map((z) => (
        <g key={z.id} data-testid="dp-ztunnel" data-node={z.id.slice(3)}>
          <rect className="dp-ztunnel" x={z.x} y={z.y} width={z.width} height={z.height} rx={4} />
          <text className="dp-box-label" x={z.x + 6} y={z.y + 17}>
            ztunnel · {data.pods.filter((p) => p.node === z.id.slice(3) && p.mode === 'ambient').length} captured
          </text>
        </g>
      ))}
      {layout.edges.map((e) => (
        <line key={e.id} className="dp-bind" x1={e.points[0]!.x} y1={e.points[0]!.y} x2={e.points[1]!.x} y2={e.points[1]!.y} markerEnd="url(#dp-arrow)" />
      ))}
      {layout.services.map((b) => {
        const s = services.get(b.id.slice(4));
        if (!s) return null;
        const l = lines(b.id);
        return (
          <g key={b.id} data-testid="dp-service" data-service={`${s.namespace}/${s.name}`} data-waypoint={s.waypoint ?? ''}>
            <title>{`${s.kind} ${s.key} (${s.hostname})\n${s.bindingNote}`}</title>
            <rect className={`dp-service${s.waypoint ? ' dp-service-bound' : ''}`} x={b.x} y={b.y} width={b.width} height={b.height} rx={10} />
            <Lines className="dp-box-label" x={b.x + 10} y={b.y + 13} lines={l.label} />
            <Lines className="dp-box-sub" x={b.x + 10} y={b.y + 13 + l.label.length * LINE_H} lines={l.sub} />
          </g>
        );
      })}
      {layout.pods.map((b) => {
        const p = pods.get(b.id.slice(4));
        if (!p) return null;
        const l = lines(b.id);
        return (
          <g
            key={b.id}
            className="dp-pod-g"
            data-testid="dp-pod"
            data-pod={p.key}
            data-mode={p.mode}
            data-role={p.role}
            tabIndex={0}
            onMouseEnter={() => onHover(p.key)}
            onFocus={() => onHover(p.key)}
          >
            <title>{`${p.key}: ${MODE_LABEL[p.mode]} (${p.code})\n${p.reason}`}</title>
            <rect
              className={`dp-pod dp-mode-${p.mode}${p.role === 'waypoint' ? ' dp-waypoint' : ''}`}
              x={b.x}
              y={b.y}
              width={b.width}
              height={b.height}
              rx={4}
            />
            <Lines className="dp-box-label" x={b.x + 6} y={b.y + 14} lines={l.label} />
            <Lines className="dp-box-sub" x={b.x + 6} y={b.y + 14 + l.label.length * LINE_H} lines={l.sub} />
          </g>
        );
      })}
      {path.length > 1 && (
        <polyline
          key={path.map((pt) => `${pt.x},${pt.y}`).join(' ')}
          className={`dp-trace-path dp-trace-${trace!.result.toLowerCase()}`}
          data-testid="dp-trace-path"
          points={path.map((pt) => `${pt.x},${pt.y}`).join(' ')}
          markerEnd="url(#dp-arrow)"
        />
      )}
    </svg>
  );
}

/** The trace's path across the diagram: the boxes of the components each hop names. */
function tracePoints(t: DataPlaneTraceResult, data: DataPlaneOverview, boxes: Map<string, Box>): Array<{ x: number; y: number }> {
  const pts: Array<{ x: number; y: number }> = [];
  const push = (id: string | undefined) => {
    const b = id ? boxes.get(id) : undefined;
    if (!b) return;
    const c = centre(b);
    const last = pts[pts.length - 1];
    if (!last || last.x !== c.x || last.y !== c.y) pts.push(c);
  };
  const waypointPod = (w: string | undefined) => data.pods.find((p) => p.waypointOf === w)?.key;
  for (const h of t.hops) {
    switch (h.component) {
      case 'client':
      case 'sidecar-outbound':
      case 'gateway':
        push(h.pod ? podId(h.pod) : undefined);
        break;
      case 'dns':
        if (h.pod) push(podId(h.pod));
        break;
      case 'ztunnel-outbound':
      case 'ztunnel-inbound':
        push(h.node ? ztunnelId(h.node) : undefined);
        break;
      case 'waypoint': {
        const k = h.pod && data.pods.some((p) => p.key === h.pod && p.role === 'waypoint') ? h.pod : waypointPod(h.waypoint);
        push(k ? podId(k) : undefined);
        break;
      }
      case 'kube-proxy': {
        const s = data.services.find((x) => h.text.includes(x.hostname) || h.text.includes(`${x.namespace}/${x.name}`));
        push(s ? serviceId(s.key) : undefined);
        break;
      }
      case 'sidecar-inbound':
      case 'app':
        push(h.pod ? podId(h.pod) : undefined);
        break;
      default:
        break;
    }
  }
  return pts;
}

/** Ambient app pods first in the From list, then sidecars, then the rest; servers after clients. */
const rank = (p: DataPlanePod, servers: ReadonlySet<string>) =>
  p.role !== 'app' ? 4 : (p.mode === 'ambient' ? 0 : p.mode === 'sidecar' ? 1 : 2) + (servers.has(p.key) ? 0.5 : 0);

function TraceForm({ data, onRun }: { data: DataPlaneOverview; onRun: (t: { from: string; to: string; request: string }) => void }) {
  // Likely clients first: ambient pods that serve no Service.
  const servers = new Set(data.services.flatMap((s) => s.endpoints));
  const clients = data.pods.filter((p) => p.role === 'app' || p.role === 'gateway').sort((a, b) => rank(a, servers) - rank(b, servers));
  const isWaypointService = (s: DataPlaneOverview['services'][number]) => data.waypoints.some((w) => w.key === `${s.namespace}/${s.name}`);
  const candidates = data.services.filter((s) => s.kind === 'Service' && !isWaypointService(s) && s.ports.length > 0 && s.namespace !== 'istio-system');
  const firstService = candidates.find((s) => s.waypoint) ?? candidates[0];
  const [from, setFrom] = useState(clients[0]?.key ?? '');
  const [to, setTo] = useState(firstService ? `${firstService.hostname}:${firstService.ports[0]!.port}` : '');
  const [method, setMethod] = useState('GET');
  const [path, setPath] = useState('/');
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!clients.some((c) => c.key === from) && clients[0]) setFrom(clients[0].key);
  }, [clients, from]);
  const run = (e: React.FormEvent) => {
    e.preventDefault();
    if (!/^(\[[^\]]+\]|[^:\s]+):\d+$/.test(to.trim())) {
      setProblem('Give the destination as host:port (a Service host, a ServiceEntry host or an IP).');
      return;
    }
    setProblem(null);
    onRun({ from, to: to.trim(), request: method === 'TCP' ? 'TCP' : `${method} ${path.trim() || '/'}` });
  };
  return (
    <form className="dp-trace-form" data-testid="dp-trace-form" onSubmit={run}>
      <div className="section-title">Trace a request</div>
      <label>
        From pod
        <select className="select" data-testid="dp-trace-from" value={from} onChange={(e) => setFrom(e.target.value)}>
          {clients.map((c) => (
            <option key={c.key} value={c.key}>
              {c.key} ({MODE_LABEL[c.mode]})
            </option>
          ))}
        </select>
      </label>
      <label>
        To host:port
        <input className="text-input" data-testid="dp-trace-to" list="dp-trace-hosts" value={to} onChange={(e) => setTo(e.target.value)} />
        <datalist id="dp-trace-hosts">
          {data.services.flatMap((s) => s.ports.map((p) => <option key={`${s.key}:${p.port}`} value={`${s.hostname}:${p.port}`} />))}
        </datalist>
      </label>
      <div className="dp-trace-row">
        <label>
          Method
          <select className="select" data-testid="dp-trace-method" value={method} onChange={(e) => setMethod(e.target.value)}>
            {['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'TCP'].map((m) => (
              <option key={m} value={m}>
                {m === 'TCP' ? 'TCP (no HTTP)' : m}
              </option>
            ))}
          </select>
        </label>
        <label>
          Path
          <input className="text-input" data-testid="dp-trace-path-input" value={path} disabled={method === 'TCP'} onChange={(e) => setPath(e.target.value)} />
        </label>
        <button type="submit" className="button" data-testid="dp-trace-run">
          Trace
        </button>
      </div>
      {problem && <div className="field-error">{problem}</div>}
    </form>
  );
}

function NodeView({ data, settings }: { data: DataPlaneOverview; settings: AmbientSettings }) {
  const [open, setOpen] = useState(false);
  const [node, setNode] = useState(data.nodes[0]?.name ?? '');
  const [table, setTable] = useState<'workloads' | 'services' | 'policies' | 'certificates'>('workloads');
  const { data: zc, error } = useWorkerQuery('ztunnelConfig', { node, settings }, open);
  return (
    <details className="dp-details" data-testid="dp-nodeview" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>ztunnel view per node</summary>
      <div className="dp-trace-row">
        <label>
          Node
          <select className="select" data-testid="dp-node-select" value={node} onChange={(e) => setNode(e.target.value)}>
            {data.nodes.map((n) => (
              <option key={n.name} value={n.name}>
                {n.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Table
          <select className="select" data-testid="dp-table-select" value={table} onChange={(e) => setTable(e.target.value as typeof table)}>
            {(['workloads', 'services', 'policies', 'certificates'] as const).map((t) => (
              <option key={t} value={t}>
                ztunnel-config {t}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && <div className="field-error">{error}</div>}
      {zc && (
        <>
          <pre className="dp-table" data-testid="dp-ztunnel-table">
            {zc.text[table]}
          </pre>
          <div className="section-title">
            Captured on {zc.node} ({zc.capturedPods.length})
          </div>
          <ul className="dp-captured">
            {zc.capturedPods.map((c) => (
              <li key={c.pod}>
                <details>
                  <summary>
                    <code>{c.pod}</code> listeners {c.listeners.join(', ')}
                  </summary>
                  <ul className="dp-rules">
                    {c.rules.map((r, i) => (
                      <li key={i}>
                        <span className="muted">{r.chain}</span> {r.description}
                        <div>
                          <code>{r.iptables}</code>
                        </div>
                      </li>
                    ))}
                  </ul>
                </details>
              </li>
            ))}
          </ul>
        </>
      )}
    </details>
  );
}

const TABLE_PAGE = 200;

function EnrollmentTable({ data, onHover }: { data: DataPlaneOverview; onHover: (k: string | null) => void }) {
  const [limit, setLimit] = useState(TABLE_PAGE);
  const rows = data.pods.filter((p) => p.role !== 'ztunnel');
  return (
    <details className="dp-details" data-testid="dp-enrollment">
      <summary>Enrollment ({rows.length} pods)</summary>
      <table className="dp-enroll">
        <thead>
          <tr>
            <th>Pod</th>
            <th>Node</th>
            <th>Mode</th>
            <th>Why</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, limit).map((p) => (
            <tr key={p.key} data-testid="dp-enroll-row" data-pod={p.key} data-mode={p.mode} onMouseEnter={() => onHover(p.key)}>
              <td>
                {p.source ? (
                  <button type="button" className="link-button" onClick={() => reveal(p.source)}>
                    {p.key}
                  </button>
                ) : (
                  <code>{p.key}</code>
                )}
              </td>
              <td>{p.node}</td>
              <td>
                <span className={`dp-swatch dp-mode-${p.mode}`} /> {MODE_LABEL[p.mode]}
              </td>
              <td>
                <code>{p.code}</code> {p.reason}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > limit && (
        <button type="button" className="link-button" onClick={() => setLimit(limit + TABLE_PAGE)}>
          Show more ({rows.length - limit} not shown)
        </button>
      )}
    </details>
  );
}
