// The data-plane diagram's layout, computed by ELK (elkjs, layered algorithm): each cluster
// node is a box holding its ztunnel and its pods; Services sit outside the nodes with an
// edge to the waypoint they are bound to. The result is plain geometry in absolute
// coordinates for the SVG. elkjs is loaded on first use, so it stays out of the first load.
import type { ElkNode, ElkExtendedEdge } from 'elkjs/lib/elk-api';
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
const SVC_W = 150;
const SVC_H = 30;
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
export function buildGraph(o: DataPlaneOverview): { graph: ElkNode; hidden: number; binds: Array<{ id: string; from: string; to: string }> } {
  let hidden = 0;
  const drawn = new Set<string>();
  const roles = new Map(o.pods.map((p) => [p.key, p.role]));
  const children: ElkNode[] = o.nodes.map((n) => {
    const pods = n.pods.filter((k) => roles.get(k) !== 'ztunnel');
    const shown = pods.slice(0, MAX_PODS_PER_NODE);
    hidden += pods.length - shown.length;
    for (const k of shown) drawn.add(k);
    return {
      id: nodeId(n.name),
      layoutOptions: {
        'elk.layered.layering.layerConstraint': 'LAST',
        'elk.algorithm': 'rectpacking',
        'elk.padding': '[top=26,left=10,bottom=10,right=10]',
        'elk.spacing.nodeNode': '8',
        'elk.aspectRatio': '1.2',
      },
      children: [{ id: ztunnelId(n.name), width: POD_W * 2 + 8, height: ZT_H }, ...shown.map((k) => ({ id: podId(k), width: POD_W, height: POD_H }))],
    };
  });
  const waypointPod = new Map<string, string>();
  for (const p of o.pods) if (p.waypointOf && drawn.has(p.key) && !waypointPod.has(p.waypointOf)) waypointPod.set(p.waypointOf, p.key);
  const services: ElkNode[] = [];
  const edges: ElkExtendedEdge[] = [];
  const binds: Array<{ id: string; from: string; to: string }> = [];
  const nodeOf = new Map<string, string>();
  for (const n of o.nodes) for (const k of n.pods) nodeOf.set(k, n.name);
  for (const s of o.services) {
    if (o.waypoints.some((w) => w.key === `${s.namespace}/${s.name}`)) continue; // the waypoint's own Service
    services.push({ id: serviceId(s.key), width: SVC_W, height: SVC_H, layoutOptions: { 'elk.layered.layering.layerConstraint': 'FIRST' } });
    const wp = s.waypoint ? waypointPod.get(s.waypoint) : undefined;
    if (wp) binds.push({ id: `bind:${s.key}`, from: serviceId(s.key), to: podId(wp) });
    // ELK sees the Service above the node that runs its waypoint or its first endpoint (an
    // edge between top-level boxes: the nodes' insides are packed by another algorithm).
    const anchor = wp ?? s.endpoints.find((k) => drawn.has(k));
    const node = anchor ? nodeOf.get(anchor) : undefined;
    if (node) edges.push({ id: `place:${s.key}`, sources: [serviceId(s.key)], targets: [nodeId(node)] });
  }
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.spacing.nodeNode': '24',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.padding': '[top=8,left=8,bottom=8,right=8]',
    },
    children: [...services, ...children],
    edges,
  };
  return { graph, hidden, binds };
}

/** Runs ELK and flattens its nested coordinates. */
export async function layoutDiagram(o: DataPlaneOverview): Promise<DiagramLayout> {
  const { graph, hidden, binds } = buildGraph(o);
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
