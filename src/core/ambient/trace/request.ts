// What a trace is asked and what it answers: the request, the hops, the enforcement points.
export interface TraceInput {
  /** Source pod, `namespace/name`. */
  from: string;
  /** `host:port` or `ip:port`. */
  to: string;
  /** `GET /path`, `POST /`, or `TCP` (default `GET /`). */
  request?: string;
  method?: string;
  path?: string;
  headers?: Readonly<Record<string, string>>;
  /** Pick this endpoint pod (`namespace/name`) when a service has several. */
  endpoint?: string;
}

export type HopComponent =
  | 'client'
  | 'dns'
  | 'ztunnel-outbound'
  | 'sidecar-outbound'
  | 'gateway'
  | 'kube-proxy'
  | 'waypoint'
  | 'ztunnel-inbound'
  | 'sidecar-inbound'
  | 'app'
  | 'external';

export interface PolicyCheck {
  /** `ns/name` of the policy as the enforcing component names it. */
  key: string;
  /** The resource it comes from (`core/...` store key), to open its YAML; absent for synthetic ones. */
  resourceKey?: string;
  action: string;
  scope?: string;
  matched: boolean;
  why: string;
}

export interface TraceHop {
  component: HopComponent;
  /** Who acts: `ztunnel@node-a`, `waypoint shop/waypoint`, `client/curl`, … */
  actor: string;
  /** Anchors for the diagram. */
  node?: string;
  pod?: string;
  waypoint?: string;
  port?: number;
  protocol?: 'DNS' | 'plaintext' | 'HBONE mTLS' | 'Istio mTLS';
  /** Identity this hop presents, and the one it expects or sees from its peer. */
  identity?: string;
  peerIdentity?: string | null;
  text: string;
  policies?: PolicyCheck[];
  decision?: 'ALLOW' | 'DENY';
}

export interface Enforcement {
  point: string;
  /** The listener that received the connection (15008 HBONE, 15006 plaintext) at a ztunnel. */
  listener?: number;
  layer: 'L4' | 'L7';
  sourceIdentity: string | null;
  policies: string[];
  decision: 'ALLOW' | 'DENY';
  why: string;
}

export interface TraceResult {
  result: 'ALLOW' | 'DENY' | 'ERROR';
  hops: TraceHop[];
  enforcement: Enforcement[];
  deniedAt?: { point: string; listener?: number; layer: 'L4' | 'L7'; policy?: string; scope?: string; text: string };
  /** What the client observes (from Envoy and curl, not the simulated components). */
  clientSees: string;
  /** The waypoint the traffic went through (`ns/name`), or null. */
  waypointUsed: string | null;
  source?: { pod: string; class: SourceClass };
  notes: string[];
  error?: string;
}

export type SourceClass = 'ambient' | 'sidecar' | 'gateway' | 'uncaptured';

export interface Request {
  http: boolean;
  method: string;
  path: string;
  headers: Readonly<Record<string, string>>;
  text: string;
}

export function parseRequest(input: TraceInput): Request {
  const raw = (input.request ?? '').trim();
  if (/^tcp$/i.test(raw)) return { http: false, method: '', path: '', headers: {}, text: 'TCP' };
  const m = /^([A-Za-z]+)\s+(\S+)/.exec(raw);
  const method = (input.method ?? m?.[1] ?? 'GET').toUpperCase();
  const path = input.path ?? m?.[2] ?? '/';
  return { http: true, method, path, headers: input.headers ?? {}, text: `${method} ${path}` };
}

/** Splits `host:port` (IPv6 in brackets). */
export function parseTarget(to: string): { host: string; port: number } | undefined {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(to) ?? /^([^:]+):(\d+)$/.exec(to);
  if (!m) return undefined;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: (m[1] as string).replace(/\.$/, ''), port } : undefined;
}
