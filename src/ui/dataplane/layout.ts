// The data-plane diagram's layout, computed by ELK (elkjs, layered algorithm): each cluster
// node is a box holding its ztunnel and its pods; Services sit outside the nodes with an
// edge to the waypoint they are bound to. The result is plain geometry in absolute
// coordinates for the SVG. elkjs is loaded on first use, so it stays out of the first load.
// Labels are never cut: a name too long for its box wraps (at `/`, `.` and `-` first) and
// the box grows to hold its lines. The nodes are packed for the width the diagram has, so
// a wider window or panel gets a wider, flatter diagram.
import type { ElkNode } from 'elkjs/lib/elk-api';
import type { DataPlaneOverview } from '../../core/queries/dataplaneViews.ts';

export interface Box {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DiagramLayout {
  width: number;
  height: number;
  nodes: Box[];
  ztunnels: Box[];
  pods: Box[];
  services: Box[];
  edges: Array<{ id: string; from: string; to: string; points: Array<{ x: number; y: number }> }>;
  /** Pods left out of the drawing (past the per-node limit). */
  hidden: number;
}

export const POD_W = 150;
export const POD_H = 34;
const ZT_H = 26;
export const SVC_W = 150;
const SVC_H = 30;
/** Distance between two baselines of a box's text (11px and 10px type). */
export const LINE_H = 13;
const LABEL_PX = 11;
const SUB_PX = 10;
/** Room for text in a box: its width less the text's left inset and a right margin. */
const POD_TEXT_W = POD_W - 12;
const SVC_TEXT_W = SVC_W - 18;

/** Width of `text` set at `px` pixels in the diagram's font. */
export type TextMeasure = (text: string, px: number) => number;

/** A box's text: its label (the name) and the line(s) under it, already wrapped. */
export interface BoxText {
  label: string[];
  sub: string[];
}

/**
 * Breaks `text` into lines no wider than `max`: after `/`, `.` or `-` where it can (a
 * Kubernetes name's own joints), inside a part only when the part alone is too wide.
 */
export function wrapText(text: string, max: number, px: number, measure: TextMeasure): string[] {
  const parts = text.match(/[^/.-]+[/.-]*|[/.-]+/g) ?? [text];
  const lines: string[] = [];
  let cur = '';
  for (const part of parts) {
    if (measure(cur + part, px) <= max) {
      cur += part;
      continue;
    }
    if (cur) lines.push(cur);
    cur = '';
    let rest = part;
    while (measure(rest, px) > max) {
      let n = rest.length - 1;
      while (n > 1 && measure(rest.slice(0, n), px) > max) n--;
      lines.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    cur = rest;
  }
  if (cur || lines.length === 0) lines.push(cur);
  return lines;
}

/** The wrapped text of every pod and Service box, by box id. */
export function labelLines(o: DataPlaneOverview, measure: TextMeasure): Map<string, BoxText> {
  const out = new Map<string, BoxText>();
  for (const p of o.pods) {
    if (p.role === 'ztunnel') continue;
    const name = p.role === 'waypoint' ? (p.waypointOf ?? p.name) : `${p.namespace}/${p.name}`;
    const sub = `${p.role === 'waypoint' ? 'waypoint' : p.mode}${p.overridden ? ' · what if' : ''}`;
    out.set(podId(p.key), { label: wrapText(name, POD_TEXT_W, LABEL_PX, measure), sub: wrapText(sub, POD_TEXT_W, SUB_PX, measure) });
  }
  for (const s of o.services) {
    const sub = s.waypoint ? `→ ${s.waypoint}` : s.kind === 'ServiceEntry' ? 'ServiceEntry' : 'no waypoint';
    out.set(serviceId(s.key), { label: wrapText(s.name, SVC_TEXT_W, LABEL_PX, measure), sub: wrapText(sub, SVC_TEXT_W, SUB_PX, measure) });
  }
  return out;
}

/** A pod box's height for its lines of text (34 for a name and a mode on one line each). */
const podHeight = (t: BoxText | undefined) => (t ? 8 + LINE_H * (t.label.length + t.sub.length) : POD_H);
const serviceHeight = (t: BoxText | undefined) => (t ? 5 + LINE_H * (t.label.length + t.sub.length) : SVC_H);

export interface LayoutOptions {
  /** The diagram's width on screen: the nodes are packed to share it. */
  availableWidth?: number;
  /** Wrapped box text (labelLines): boxes grow to hold it. */
  labels?: ReadonlyMap<string, BoxText>;
}

/** Space ELK leaves around and between boxes (the layout options below). */
const ROOT_PAD = 16;
const NODE_GAP = 24;
const NODE_PAD_X = 20;
const BOX_GAP = 8;

/**
 * The width of a node's insides when the nodes sit side by side in the width `available`
 * (never narrower than the ztunnel box, two pods wide). ELK's rectpacking packs to it.
 */
function nodeContentWidth(available: number, nodes: number): number {
  const share = (available - ROOT_PAD - NODE_GAP * Math.max(0, nodes - 1)) / Math.max(1, nodes) - NODE_PAD_X;
  return Math.max(POD_W * 2 + BOX_GAP, Math.floor(share));
}

/** Above this many pods on a node, the rest are counted, not drawn. */
export const MAX_PODS_PER_NODE = 60;

export const nodeId = (n: string) => `node:${n}`;
export const ztunnelId = (n: string) => `zt:${n}`;
export const podId = (key: string) => `pod:${key}`;
export const serviceId = (key: string) => `svc:${key}`;

type ElkLike = { layout(graph: ElkNode): Promise<ElkNode> };
let elk: Promise<ElkLike> | undefined;

function loadElk(): Promise<ElkLike> {
  elk ??= import('elkjs/lib/elk.bundled.js').then((m) => {
    const Ctor = (m as unknown as { default: new () => ElkLike }).default;
    return new Ctor();
  });
  return elk;
}

/** Builds the ELK graph for an overview (exported for tests of the graph's shape). */
export function buildGraph(
  o: DataPlaneOverview,
  opts: LayoutOptions = {},
): { graph: ElkNode; hidden: number; binds: Array<{ id: string; from: string; to: string }> } {
  let hidden = 0;
  const drawn = new Set<string>();
  const roles = new Map(o.pods.map((p) => [p.key, p.role]));
  const children: ElkNode[] = o.nodes.map((n) => {
    const pods = n.pods.filter((k) => roles.get(k) !== 'ztunnel');
    const shown = pods.slice(0, MAX_PODS_PER_NODE);
    hidden += pods.length - shown.length;
    for (const k of shown) drawn.add(k);
    const boxes = [
      { id: ztunnelId(n.name), width: POD_W * 2 + BOX_GAP, height: ZT_H },
      ...shown.map((k) => ({ id: podId(k), width: POD_W, height: podHeight(opts.labels?.get(podId(k))) })),
    ];
    return {
      id: nodeId(n.name),
      layoutOptions: {
        'elk.algorithm': 'rectpacking',
        'elk.padding': '[top=26,left=10,bottom=10,right=10]',
        'elk.spacing.nodeNode': String(BOX_GAP),
        ...(opts.availableWidth
          ? {
              'elk.rectpacking.widthApproximation.strategy': 'TARGET_WIDTH',
              'elk.rectpacking.widthApproximation.targetWidth': String(nodeContentWidth(opts.availableWidth, o.nodes.length)),
            }
          : { 'elk.aspectRatio': '1.2' }),
      },
      children: boxes,
    };
  });
  const waypointPod = new Map<string, string>();
  for (const p of o.pods) if (p.waypointOf && drawn.has(p.key) && !waypointPod.has(p.waypointOf)) waypointPod.set(p.waypointOf, p.key);
  const services: ElkNode[] = [];
  const binds: Array<{ id: string; from: string; to: string }> = [];
  for (const s of o.services) {
    if (o.waypoints.some((w) => w.key === `${s.namespace}/${s.name}`)) continue; // the waypoint's own Service
    services.push({ id: serviceId(s.key), width: SVC_W, height: serviceHeight(opts.labels?.get(serviceId(s.key))) });
    const wp = s.waypoint ? waypointPod.get(s.waypoint) : undefined;
    if (wp) binds.push({ id: `bind:${s.key}`, from: serviceId(s.key), to: podId(wp) });
  }
  // Two rows, each packed to the width the diagram has: the Services on top, the nodes under
  // them (wrapping to a further row when they do not fit side by side). A layered layout of
  // Services and nodes together put a node under a Service that points at another node.
  const row = (id: string, boxes: ElkNode[]): ElkNode => ({
    id,
    layoutOptions: {
      'elk.algorithm': 'rectpacking',
      'elk.padding': '[top=0,left=0,bottom=0,right=0]',
      'elk.spacing.nodeNode': String(NODE_GAP),
      ...(opts.availableWidth
        ? {
            'elk.rectpacking.widthApproximation.strategy': 'TARGET_WIDTH',
            'elk.rectpacking.widthApproximation.targetWidth': String(Math.max(POD_W * 2, opts.availableWidth - ROOT_PAD)),
          }
        : {}),
    },
    children: boxes,
  });
  const rows = [...(services.length > 0 ? [row('row:services', services)] : []), row('row:nodes', children)];
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.padding': '[top=8,left=8,bottom=8,right=8]',
    },
    children: rows,
    edges: rows.length === 2 ? [{ id: 'rows', sources: ['row:services'], targets: ['row:nodes'] }] : [],
  };
  return { graph, hidden, binds };
}

/** Runs ELK and flattens its nested coordinates. */
export async function layoutDiagram(o: DataPlaneOverview, opts: LayoutOptions = {}): Promise<DiagramLayout> {
  const { graph, hidden, binds } = buildGraph(o, opts);
  const laid = await (await loadElk()).layout(graph);
  const out: DiagramLayout = { width: laid.width ?? 0, height: laid.height ?? 0, nodes: [], ztunnels: [], pods: [], services: [], edges: [], hidden };
  const abs = new Map<string, Box>();
  const walk = (n: ElkNode, ox: number, oy: number) => {
    for (const c of n.children ?? []) {
      const b: Box = { id: c.id, x: ox + (c.x ?? 0), y: oy + (c.y ?? 0), width: c.width ?? 0, height: c.height ?? 0 };
      abs.set(c.id, b);
      if (c.id.startsWith('node:')) out.nodes.push(b);
      else if (c.id.startsWith('zt:')) out.ztunnels.push(b);
      else if (c.id.startsWith('pod:')) out.pods.push(b);
      else if (c.id.startsWith('svc:')) out.services.push(b);
      walk(c, b.x, b.y);
    }
  };
  walk(laid, 0, 0);
  for (const e of binds) {
    const a = abs.get(e.from);
    const b = abs.get(e.to);
    if (a && b) out.edges.push({ ...e, points: [bottomCentre(a), topCentre(b)] });
  }
  return out;
}

export const centre = (b: Box) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
const bottomCentre = (b: Box) => ({ x: b.x + b.width / 2, y: b.y + b.height });
const topCentre = (b: Box) => ({ x: b.x + b.width / 2, y: b.y });
