// A request traced hop by hop through the ambient data plane: name resolution (ztunnel's DNS
// proxy or cluster DNS), the client side (the source pod's ztunnel, its sidecar, a gateway,
// or nothing), the waypoint, and the destination side (its ztunnel, its sidecar, or nothing),
// with the identity presented at each hop, the peer identity seen, and every policy
// evaluated with its result. Follows ztunnel's outbound.rs/inbound.rs and istiod's endpoint
// builder for sidecars and gateways. Envoy's L7 routing (VirtualService, HTTPRoute,
// DestinationRule) is not simulated here: waypoints and sidecars are taken to send to the
// addressed Service's endpoints.
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import { isObj } from '../document/read.ts';
import type { ConfigView } from '../config/configView.ts';
import { authorizationPolicy } from '../config/api/security.ts';
import { isHttpProtocol, type IstioProtocol } from '../config/protocol.ts';
import { selectorMatches } from '../config/labels.ts';
import { waypointDestination, type Waypoint } from '../config/waypoints.ts';
import type { SimPod } from './cluster.ts';
import { applicablePolicies, effectiveMtls, evaluateL4, type L4Decision, type RbacScope } from './authz.ts';
import { parseIpv4 } from '../config/addresses.ts';
import { evaluateEnvoy, type EnvoyDecision } from './envoyAuthz.ts';
import { serviceEndpoints, type ServiceRecord, type WorkloadRecord } from './ztunnel.ts';
import type { AmbientModel } from './dataPlane.ts';

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

type SourceClass = 'ambient' | 'sidecar' | 'gateway' | 'uncaptured';

interface Request {
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

class Tracer {
  hops: TraceHop[] = [];
  enforcement: Enforcement[] = [];
  notes: string[] = [];
  waypointUsed: string | null = null;
  deniedAt?: TraceResult['deniedAt'];
  clientSees = '';
  result: TraceResult['result'] = 'ALLOW';

  constructor(
    readonly view: ConfigView,
    readonly model: AmbientModel,
    readonly req: Request,
    readonly input: TraceInput,
  ) {}

  hop(h: TraceHop): void {
    this.hops.push(h);
  }

  deny(point: string, layer: 'L4' | 'L7', clientSees: string, opts: { listener?: number; policy?: string; scope?: string } = {}): void {
    this.result = 'DENY';
    let text = `${point} (${layer})`;
    if (opts.policy) text += `, policy ${opts.policy}${opts.scope && opts.scope !== 'WorkloadSelector' ? ` (scope ${opts.scope})` : ''}`;
    this.deniedAt = {
      point,
      layer,
      text,
      ...(opts.listener !== undefined ? { listener: opts.listener } : {}),
      ...(opts.policy ? { policy: opts.policy } : {}),
      ...(opts.scope ? { scope: opts.scope } : {}),
    };
    this.clientSees = clientSees;
  }

  error(message: string): void {
    this.result = 'ERROR';
    this.clientSees = message;
  }
}

const ztunnelAt = (node: string) => `ztunnel@${node || '(no node)'}`;

function podOfWorkload(w: WorkloadRecord | undefined): SimPod | undefined {
  return w?.pod;
}

function sourceClass(p: SimPod): SourceClass {
  if (p.role === 'gateway' || p.role === 'waypoint') return 'gateway';
  if (p.mode === 'ambient') return 'ambient';
  if (p.mode === 'sidecar') return 'sidecar';
  return 'uncaptured';
}

/** Kubernetes Service name forms relative to a namespace: `svc`, `svc.ns`, `svc.ns.svc`, FQDN. */
function kubeServiceFor(model: AmbientModel, host: string, fromNs: string): ServiceRecord | undefined {
  const h = host.toLowerCase();
  let name: string | undefined;
  let ns: string | undefined;
  const suffixes = ['.svc.cluster.local', '.svc'];
  let rest = h;
  for (const s of suffixes) if (rest.endsWith(s)) rest = rest.slice(0, -s.length);
  const parts = rest.split('.');
  if (parts.length === 1) [name, ns] = [parts[0], fromNs];
  else if (parts.length === 2) [name, ns] = parts;
  if (!name || !ns) return undefined;
  return model.ztunnel.services.find((s) => s.kind === 'Service' && s.name === name && s.namespace === ns);
}

function serviceEntryFor(model: AmbientModel, host: string, fromNs: string): ServiceRecord | undefined {
  const h = host.toLowerCase();
  const all = model.ztunnel.services.filter((s) => s.kind === 'ServiceEntry');
  const exact = all.filter((s) => s.hostname.toLowerCase() === h);
  const pick = (l: ServiceRecord[]) => l.find((s) => s.namespace === fromNs) ?? l[0];
  if (exact.length > 0) return pick(exact);
  const wild = all.filter((s) => s.hostname.startsWith('*') && h.endsWith(s.hostname.slice(1).toLowerCase()));
  return pick(wild);
}

function serviceByVip(model: AmbientModel, ip: string, fromNs: string): ServiceRecord | undefined {
  const l = model.ztunnel.servicesByVip.get(ip);
  if (!l || l.length === 0) return undefined;
  return l.find((s) => s.namespace === fromNs) ?? l[0];
}

function portOf(s: ServiceRecord, port: number) {
  return s.ports.find((p) => p.servicePort === port);
}

/**
 * An endpoint of a service that serves the port: the one asked for, else the first (by
 * namespace/name). `podsOnly`: kube-proxy's view, the EndpointSlices Kubernetes fills from Pods
 * (a WorkloadEntry is an endpoint only to Istio).
 */
function pickEndpoint(
  s: ServiceRecord,
  port: number,
  prefer: string | undefined,
  all = false,
  podsOnly = false,
): { w: WorkloadRecord; targetPort: number } | undefined {
  const eps = (all ? s.workloads : serviceEndpoints(s))
    .filter((w) => !podsOnly || w.kind === 'Pod')
    .map((w) => ({ w, p: w.services.get(s.key)?.find((x) => x.servicePort === port) }))
    .filter((x): x is { w: WorkloadRecord; p: { servicePort: number; targetPort: number } } => x.p !== undefined)
    .sort((a, b) => (`${a.w.json.namespace}/${a.w.json.name}` < `${b.w.json.namespace}/${b.w.json.name}` ? -1 : 1));
  const chosen = (prefer ? eps.find((e) => `${e.w.json.namespace}/${e.w.json.name}` === prefer) : undefined) ?? eps[0];
  if (!chosen) return undefined;
  const def = portOf(s, port);
  const targetPort = chosen.p.targetPort || def?.targetPort || port;
  return { w: chosen.w, targetPort };
}

function wlName(w: WorkloadRecord): string {
  return w.kind === 'Pod' ? w.json.name : `${w.json.name} (${w.kind})`;
}

interface Delivery {
  /** Who sends the last leg. */
  from: string;
  workload: WorkloadRecord;
  targetIp: string;
  targetPort: number;
  transport: 'hbone' | 'plaintext' | 'istio-mtls';
  peerIdentity: string | null;
  srcIp: string;
  service?: ServiceRecord;
  servicePort: number;
  /** True when the sender is a waypoint (for what the client sees on a deny). */
  viaWaypoint?: string;
}

function waypointPod(model: AmbientModel, w: Waypoint): { pod: SimPod; ip: string } | undefined {
  const dest = waypointDestination(w.address);
  const svc = model.ztunnel.servicesByKey.get(dest) ?? (w.address.ip ? serviceByVip(model, w.address.ip, w.namespace) : undefined);
  // ztunnel (state.rs fetch_waypoint, load_balance) connects to a healthy endpoint of the waypoint's
  // Service: a running pod that is not ready is no upstream. Without a Service, its running pod.
  const fromService = svc
    ? serviceEndpoints(svc)
        .map((e) => e.pod)
        .find((p): p is SimPod => p !== undefined && p.state === 'running')
    : undefined;
  // Without a Service at the address, ztunnel looks the IP up as a workload address: the pod
  // at that IP. Only when no pod has it (an address we derived for a waypoint whose Service no
  // file wrote) is the waypoint's own running pod taken.
  const atIp = !svc && w.address.ip ? model.cluster.pods.find((p) => p.ips.includes(w.address.ip as string) && p.state === 'running') : undefined;
  const pod = svc ? fromService : (atIp ?? model.cluster.pods.find((p) => p.waypointOf === `${w.namespace}/${w.name}` && p.state === 'running'));
  return pod?.ips[0] ? { pod, ip: pod.ips[0] } : undefined;
}

/** AuthorizationPolicies a waypoint applies for traffic to a service (policyattachment.go). */
function waypointPolicies(view: ConfigView, model: AmbientModel, w: Waypoint, service: ServiceRecord | undefined): Resource[] {
  const root = model.cluster.rootNamespace;
  return view.list(KINDS.AuthorizationPolicy).filter((p) => {
    const spec = authorizationPolicy(p);
    const refs = spec.targetRefs.length > 0 ? spec.targetRefs : spec.targetRef ? [spec.targetRef] : [];
    return refs.some((r) => {
      const group = r.group;
      if (r.kind === 'Gateway' && group === 'gateway.networking.k8s.io') return p.namespace === w.namespace && r.name === w.name;
      if (r.kind === 'GatewayClass' && group === 'gateway.networking.k8s.io') return p.namespace === root && r.name === w.className;
      if (service && service.binding.waypoint === w) {
        if (r.kind === 'Service' && group === '' && service.kind === 'Service') return p.namespace === service.namespace && r.name === service.name;
        if (r.kind === 'ServiceEntry' && group === 'networking.istio.io' && service.kind === 'ServiceEntry')
          return p.namespace === service.namespace && r.name === service.name;
      }
      return false;
    });
  });
}

/** AuthorizationPolicies a sidecar applies to its inbound traffic: selector ones matching it (its namespace or the root), and selector-less ones of its namespace and the root. */
function sidecarPolicies(view: ConfigView, model: AmbientModel, pod: SimPod): Resource[] {
  const root = model.cluster.rootNamespace;
  return view.list(KINDS.AuthorizationPolicy).filter((p) => {
    const spec = authorizationPolicy(p);
    if (spec.targetRefs.length > 0 || spec.targetRef) return false;
    if (p.namespace !== pod.namespace && p.namespace !== root) return false;
    const hasSelector = isObj(p.body.spec) && isObj((p.body.spec as Record<string, unknown>).selector);
    return !hasSelector || selectorMatches(spec.selector?.matchLabels ?? {}, pod.labels);
  });
}

function envoyChecks(d: EnvoyDecision): PolicyCheck[] {
  return d.evaluated.map((e) => ({ key: e.key, resourceKey: e.resourceKey, action: e.action, matched: e.matched, why: e.why }));
}

function l4Checks(model: AmbientModel, d: L4Decision): PolicyCheck[] {
  return d.evaluated.map((e) => {
    const [ns, name] = e.key.split('/') as [string, string];
    const ap = model.ztunnel.policies.conversions.find((c) => c.resource.namespace === ns && c.resource.name === name);
    let resourceKey = ap?.resource.key;
    if (!resourceKey) {
      for (const [paKey, conv] of model.ztunnel.policies.convertedPeerAuthns)
        if (`${conv.namespace}/${conv.name}` === e.key) resourceKey = `${KINDS.PeerAuthentication.id}/${paKey}`;
    }
    return { key: e.key, ...(resourceKey ? { resourceKey } : {}), action: e.action, scope: e.scope, matched: e.matched, why: e.why };
  });
}

function protocolName(p: IstioProtocol | undefined): string {
  return p ?? 'unknown';
}

/** What chain an Envoy (waypoint or sidecar) uses for a port: HTTP for HTTP-family ports, TCP for explicit TCP/TLS, sniffing otherwise. */
function chainFor(p: IstioProtocol | undefined, req: Request): { http: boolean; text: string } {
  if (p && isHttpProtocol(p)) return { http: req.http, text: 'HTTP chain' };
  if (p && p !== 'UnsupportedProtocol') return { http: false, text: `${p} chain (no HTTP attributes)` };
  return { http: req.http, text: req.http ? 'protocol sniffing detects HTTP -> HTTP chain' : 'protocol sniffing finds no HTTP -> TCP chain' };
}

function requestWords(req: Request, http: boolean): string {
  return http ? `method ${req.method}, path ${req.path}` : 'TCP (no HTTP attributes)';
}

/** The destination side: the arriving connection at the chosen workload. */
function deliver(t: Tracer, d: Delivery): void {
  const { model, view, req } = t;
  const pod = podOfWorkload(d.workload);
  const port = d.service ? portOf(d.service, d.servicePort) : undefined;
  if (!pod) {
    t.hop({ component: 'external', actor: wlName(d.workload), text: `${wlName(d.workload)} is not a pod of the cluster: no destination ztunnel, no policy.` });
    t.clientSees = req.http ? 'the upstream response' : 'the connection';
    return;
  }
  const node = pod.node;
  if (pod.mode === 'ambient') {
    const zt = ztunnelAt(node);
    if (d.transport === 'plaintext' && pod.bypassInboundCapture) {
      t.hop({
        component: 'app',
        actor: pod.key,
        pod: pod.key,
        node,
        port: d.targetPort,
        protocol: 'plaintext',
        text: `${pod.name} has ambient.istio.io/bypass-inbound-capture=true: inbound plaintext to ${d.targetIp}:${d.targetPort} is not redirected, so it reaches the app unchecked (no ztunnel, no policy).`,
      });
      t.clientSees = req.http ? 'the application response' : 'an open connection';
      return;
    }
    const hbone = d.transport === 'hbone' || d.transport === 'istio-mtls';
    const listener = hbone ? 15008 : 15006;
    const point = hbone ? `${zt} inbound` : `${zt} inbound plaintext :15006`;
    if (hbone) {
      t.hop({
        component: 'ztunnel-inbound',
        actor: zt,
        node,
        pod: pod.key,
        port: 15008,
        protocol: 'HBONE mTLS',
        identity: pod.identity,
        peerIdentity: d.peerIdentity,
        text: `${zt} inbound :15008 (listener inside ${pod.name} netns) presents ${pod.identity}; peer ${d.peerIdentity ?? 'none'} from ${d.srcIp}; CONNECT target ${d.targetIp}:${d.targetPort}`,
      });
    } else {
      t.hop({
        component: 'ztunnel-inbound',
        actor: zt,
        node,
        pod: pod.key,
        port: 15006,
        protocol: 'plaintext',
        peerIdentity: null,
        text: `in ${pod.name}'s netns, inbound TCP to a port other than 15008 is redirected to ${zt} :15006 (inbound plaintext); ${d.targetIp}:${d.targetPort} from ${d.srcIp}, no peer identity`,
      });
    }
    const keys = d.workload.json.authorizationPolicies ?? [];
    const policies = applicablePolicies(model.ztunnel.policies, pod.namespace, keys);
    const dec = evaluateL4(policies, { srcIp: d.srcIp, dstIp: d.targetIp, dstPort: d.targetPort, srcIdentity: d.peerIdentity });
    const names = policies.map((p) => `${p.namespace}/${p.name}`);
    const checks = l4Checks(model, dec);
    const describe =
      names.length === 0
        ? '[]'
        : checks
            .map(
              (c) =>
                `${c.key} (${c.action.toUpperCase()}${c.scope && c.scope !== 'WorkloadSelector' ? `, ${c.scope}` : ''}): ${c.matched ? 'matches' : 'no match'}`,
            )
            .join('; ');
    t.hop({
      component: 'ztunnel-inbound',
      actor: zt,
      node,
      pod: pod.key,
      port: listener,
      peerIdentity: d.peerIdentity,
      policies: checks,
      decision: dec.decision,
      text: `${zt} L4 authorization for ${pod.key}: src ${d.peerIdentity ?? 'no identity'}, src IP ${d.srcIp}, dst port ${d.targetPort} (the target port); policies ${describe} -> ${dec.decision}${dec.decision === 'DENY' ? ` (${dec.why})` : ''}`,
    });
    t.enforcement.push({ point, listener, layer: 'L4', sourceIdentity: d.peerIdentity, policies: names, decision: dec.decision, why: dec.why });
    if (dec.decision === 'DENY') {
      const seen = d.viaWaypoint
        ? req.http
          ? `HTTP 503 from waypoint ${d.viaWaypoint} (its upstream CONNECT is refused with 401)`
          : 'the connection is reset'
        : hbone
          ? 'connection reset (ztunnel answers 401 to the CONNECT; curl exit 56)'
          : 'connection closed (curl exit 56)';
      t.deny(point, 'L4', seen, {
        listener,
        ...(dec.policy ? { policy: dec.policy } : {}),
        ...(dec.policyScope && dec.policy ? { scope: dec.policyScope } : {}),
      });
      return;
    }
    t.hop({
      component: 'app',
      actor: pod.key,
      node,
      pod: pod.key,
      port: d.targetPort,
      text: `${zt} connects ${d.targetIp}:${d.targetPort} from source IP ${d.srcIp} (original source preserved)${hbone ? ' and returns 200 to the CONNECT' : ''}`,
    });
    t.clientSees = req.http ? 'the application response (e.g. HTTP 200)' : 'an open connection';
    return;
  }
  if (pod.mode === 'sidecar') {
    const point = `sidecar ${pod.key}`;
    const how =
      d.transport === 'hbone'
        ? `terminates HBONE on ${d.targetIp}:15008`
        : d.transport === 'istio-mtls'
          ? `terminates Istio mTLS on ${d.targetIp}:${d.targetPort}`
          : `receives plaintext on ${d.targetIp}:${d.targetPort}`;
    t.hop({
      component: 'sidecar-inbound',
      actor: point,
      node,
      pod: pod.key,
      port: d.transport === 'hbone' ? 15008 : d.targetPort,
      protocol: d.transport === 'plaintext' ? 'plaintext' : d.transport === 'hbone' ? 'HBONE mTLS' : 'Istio mTLS',
      identity: pod.identity,
      peerIdentity: d.peerIdentity,
      text: `${pod.name}'s sidecar Envoy ${how}; peer ${d.peerIdentity ?? 'none'}`,
    });
    const mtls = effectiveMtls(model.ztunnel.policies, pod.namespace, pod.labels);
    if (d.transport === 'plaintext' && mtls.mode === 'STRICT') {
      const check: PolicyCheck = {
        key: mtls.from ?? '',
        resourceKey: `${KINDS.PeerAuthentication.id}/${mtls.from ?? ''}`,
        action: 'STRICT',
        matched: true,
        why: 'plaintext is rejected under STRICT mTLS',
      };
      t.hop({
        component: 'sidecar-inbound',
        actor: point,
        node,
        pod: pod.key,
        policies: [check],
        decision: 'DENY',
        text: `PeerAuthentication ${mtls.from} makes ${pod.key} STRICT: the sidecar rejects the plaintext connection`,
      });
      t.enforcement.push({ point, layer: 'L4', sourceIdentity: null, policies: [mtls.from ?? ''], decision: 'DENY', why: 'STRICT mTLS rejects plaintext' });
      t.deny(point, 'L4', 'connection reset (TLS required)', { ...(mtls.from ? { policy: mtls.from } : {}) });
      return;
    }
    const chain = chainFor(port?.protocol, req);
    const policies = sidecarPolicies(view, model, pod);
    const dec = evaluateEnvoy(policies, {
      http: chain.http,
      method: req.method,
      path: req.path,
      host: d.service ? `${d.service.hostname}:${d.servicePort}` : `${d.targetIp}:${d.targetPort}`,
      headers: req.headers,
      sourceIdentity: d.peerIdentity,
      sourceIp: d.srcIp,
      destinationIp: d.targetIp,
      destinationPort: d.targetPort,
    });
    t.notes.push(...dec.notes);
    const layer = chain.http ? 'L7' : 'L4';
    t.hop({
      component: 'sidecar-inbound',
      actor: point,
      node,
      pod: pod.key,
      policies: envoyChecks(dec),
      decision: dec.decision,
      text: `${pod.name}'s sidecar authorization (${policies.length === 0 ? 'no policies' : policies.map((p) => `${p.namespace}/${p.name}`).join(', ')}): ${d.peerIdentity ? `principal ${d.peerIdentity.slice('spiffe://'.length)}` : 'no principal'}, ${requestWords(req, chain.http)} -> ${dec.decision}`,
    });
    t.enforcement.push({
      point,
      layer,
      sourceIdentity: d.peerIdentity,
      policies: policies.map((p) => `${p.namespace}/${p.name}`),
      decision: dec.decision,
      why: dec.why,
    });
    if (dec.decision === 'DENY') {
      t.deny(point, layer, chain.http ? "HTTP 403 'RBAC: access denied' from the sidecar" : 'connection closed', dec.policy ? { policy: dec.policy } : {});
      return;
    }
    t.hop({ component: 'app', actor: pod.key, node, pod: pod.key, port: d.targetPort, text: `the sidecar forwards to the app on 127.0.0.1:${d.targetPort}` });
    t.clientSees = req.http ? 'the application response (e.g. HTTP 200)' : 'an open connection';
    return;
  }
  t.hop({
    component: 'app',
    actor: pod.key,
    node,
    pod: pod.key,
    port: d.targetPort,
    protocol: 'plaintext',
    text: `${pod.name} is not captured: no inbound ztunnel, no Istio policy; the app gets ${d.targetIp}:${d.targetPort} from ${d.srcIp}`,
  });
  t.clientSees = req.http ? 'the application response' : 'an open connection';
}

/** Through a waypoint: HBONE from the client's proxy, the waypoint's L7 policies, then on to an endpoint. */
function viaWaypoint(
  t: Tracer,
  w: Waypoint,
  client: { actor: string; node?: string; identity: string; srcIp: string },
  target: { ip: string; port: number; service?: ServiceRecord; workload?: WorkloadRecord },
): void {
  const { model, view, req } = t;
  const wpKey = `${w.namespace}/${w.name}`;
  t.waypointUsed = wpKey;
  const wp = waypointPod(model, w);
  if (!wp) {
    t.hop({
      component: 'waypoint',
      actor: `waypoint ${wpKey}`,
      waypoint: wpKey,
      text: `waypoint ${wpKey} has no running, ready pod: ${client.actor} cannot connect (no healthy upstream)`,
    });
    t.error(`waypoint ${wpKey} has no running, ready pod`);
    return;
  }
  const dest = waypointDestination(w.address);
  t.hop({
    component: 'waypoint',
    actor: client.actor,
    node: client.node,
    waypoint: wpKey,
    port: 15008,
    protocol: 'HBONE mTLS',
    identity: client.identity,
    peerIdentity: wp.pod.identity,
    text: `${client.actor} -> ${wp.ip}:15008 (waypoint ${dest.includes('/') ? dest.split('/')[1] : dest}) mTLS as ${client.identity} (expects ${wp.pod.identity}); CONNECT :authority ${target.ip}:${target.port}${target.service ? ' (service VIP kept so the waypoint can route)' : ''}`,
  });
  const port = target.service ? portOf(target.service, target.port) : undefined;
  const chain = chainFor(port?.protocol, req);
  const actor = `waypoint ${wpKey}`;
  t.hop({
    component: 'waypoint',
    actor,
    node: wp.pod.node,
    waypoint: wpKey,
    pod: wp.pod.key,
    port: 15008,
    protocol: 'HBONE mTLS',
    identity: wp.pod.identity,
    peerIdentity: client.identity,
    text: `waypoint (Envoy, not captured) terminates HBONE; ${target.ip}:${target.port} is ${target.service ? `service ${target.service.name} port '${port?.name ?? target.port}' (${protocolName(port?.protocol)})` : `workload ${target.workload ? wlName(target.workload) : target.ip}`} -> ${chain.text}`,
  });
  const policies = waypointPolicies(view, model, w, target.service);
  const dec = evaluateEnvoy(policies, {
    http: chain.http,
    method: req.method,
    path: req.path,
    host: target.service ? `${target.service.hostname}:${target.port}` : `${target.ip}:${target.port}`,
    headers: req.headers,
    sourceIdentity: client.identity,
    sourceIp: client.srcIp,
    destinationIp: target.ip,
    destinationPort: target.port,
  });
  t.notes.push(...dec.notes);
  const layer = chain.http ? 'L7' : 'L4';
  const principal = client.identity.startsWith('spiffe://') ? client.identity.slice('spiffe://'.length) : client.identity;
  const ns = /\/ns\/([^/]+)\//.exec(client.identity)?.[1] ?? '';
  t.hop({
    component: 'waypoint',
    actor,
    node: wp.pod.node,
    waypoint: wpKey,
    policies: envoyChecks(dec),
    decision: dec.decision,
    text: `waypoint ${layer} authorization (${policies.length === 0 ? 'no policy attached' : policies.map((p) => `${p.namespace}/${p.name}`).join(', ')}): principal ${principal}, namespace ${ns}, ${requestWords(req, chain.http)} -> ${dec.decision}${dec.decision === 'DENY' ? ` (${dec.why})` : ''}`,
  });
  t.enforcement.push({
    point: actor,
    layer,
    sourceIdentity: client.identity,
    policies: policies.map((p) => `${p.namespace}/${p.name}`),
    decision: dec.decision,
    why: dec.why,
  });
  if (dec.decision === 'DENY') {
    t.deny(
      actor,
      layer,
      chain.http ? "HTTP 403 'RBAC: access denied' from the waypoint" : 'connection closed by the waypoint',
      dec.policy ? { policy: dec.policy } : {},
    );
    return;
  }
  t.notes.push(
    `L7 routing at waypoint ${wpKey} (HTTPRoute, VirtualService, DestinationRule) is not simulated yet: it is taken to send to the ${target.service ? 'service' : 'workload'}'s endpoints.`,
  );
  // Route to an endpoint.
  let ep: { w: WorkloadRecord; targetPort: number } | undefined;
  if (target.service) ep = pickEndpoint(target.service, target.port, t.input.endpoint);
  else if (target.workload) ep = { w: target.workload, targetPort: target.port };
  if (!ep) {
    t.hop({
      component: 'waypoint',
      actor,
      waypoint: wpKey,
      text: `waypoint ${wpKey} finds no healthy endpoint for ${target.service?.name ?? target.ip}:${target.port}`,
    });
    t.error('no healthy upstream at the waypoint (HTTP 503)');
    return;
  }
  if (ep.w.json.hostname && ep.w.json.workloadIps.length === 0) {
    t.hop({
      component: 'external',
      actor,
      waypoint: wpKey,
      port: target.port,
      text: `waypoint resolves ${ep.w.json.hostname} via DNS and sends plain ${chain.http ? 'HTTP' : 'TCP'} to <resolved IP>:${ep.targetPort} (add a DestinationRule with TLS origination for https)`,
    });
    t.clientSees = req.http ? 'the external response' : 'an open connection';
    return;
  }
  const epIp = ep.w.json.workloadIps[0] ?? '';
  if (ep.w.protocol === 'HBONE') {
    t.hop({
      component: 'waypoint',
      actor,
      node: wp.pod.node,
      waypoint: wpKey,
      port: 15008,
      protocol: 'HBONE mTLS',
      identity: wp.pod.identity,
      peerIdentity: ep.w.identity,
      text: `waypoint routes to ${wlName(ep.w)}: HBONE -> ${epIp}:15008 mTLS as ${wp.pod.identity}; CONNECT :authority ${epIp}:${ep.targetPort}`,
    });
    deliver(t, {
      from: actor,
      workload: ep.w,
      targetIp: epIp,
      targetPort: ep.targetPort,
      transport: 'hbone',
      peerIdentity: wp.pod.identity,
      srcIp: wp.ip,
      ...(target.service ? { service: target.service } : {}),
      servicePort: target.port,
      viaWaypoint: wpKey,
    });
  } else {
    t.hop({
      component: 'waypoint',
      actor,
      node: wp.pod.node,
      waypoint: wpKey,
      port: ep.targetPort,
      protocol: 'plaintext',
      text: `waypoint routes to ${wlName(ep.w)}: plain TCP -> ${epIp}:${ep.targetPort} (the endpoint does not speak HBONE)`,
    });
    deliver(t, {
      from: actor,
      workload: ep.w,
      targetIp: epIp,
      targetPort: ep.targetPort,
      transport: 'plaintext',
      peerIdentity: null,
      srcIp: wp.ip,
      ...(target.service ? { service: target.service } : {}),
      servicePort: target.port,
      viaWaypoint: wpKey,
    });
  }
}

/** A name only cluster DNS answers for: under `.svc` / `.cluster.local`, or a single label. */
function clusterLocalName(host: string): boolean {
  const h = host.toLowerCase();
  return !h.includes('.') || h.endsWith('.svc') || h.endsWith('.cluster.local');
}

/**
 * The source pod: `namespace/pod`, or `namespace/controller` (a Deployment, StatefulSet,
 * DaemonSet… whose pods were derived), which picks the controller's first pod by name.
 */
export function resolveSourcePod(model: AmbientModel, from: string): SimPod | undefined {
  const exact = model.cluster.podsByKey.get(from);
  if (exact) return exact;
  const slash = from.indexOf('/');
  if (slash <= 0) return undefined;
  const ns = from.slice(0, slash);
  const name = from.slice(slash + 1);
  const owned = model.cluster.pods.filter((p) => p.namespace === ns && p.resource.derivedFrom?.name === name && p.resource.derivedFrom.namespace === ns);
  owned.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return owned[0];
}

/** Traces one request. */
export function traceRequest(view: ConfigView, model: AmbientModel, input: TraceInput): TraceResult {
  const req = parseRequest(input);
  const t = new Tracer(view, model, req, input);
  const finish = (): TraceResult => ({
    result: t.result,
    hops: t.hops,
    enforcement: t.enforcement,
    ...(t.deniedAt ? { deniedAt: t.deniedAt } : {}),
    clientSees: t.clientSees,
    waypointUsed: t.waypointUsed,
    ...(src ? { source: { pod: src.key, class: sourceClass(src) } } : {}),
    notes: [...new Set(t.notes)],
    ...(t.result === 'ERROR' ? { error: t.clientSees } : {}),
  });
  const src = resolveSourcePod(model, input.from);
  if (src && src.key !== input.from) t.notes.push(`${input.from} is not a pod: traced from ${src.key}, its first pod.`);
  if (!src) {
    t.error(`no pod ${input.from} (give namespace/name of a pod, or of the Deployment, StatefulSet or DaemonSet that runs it)`);
    return finish();
  }
  const target = parseTarget(input.to);
  if (!target) {
    t.error(`cannot read the destination "${input.to}" (give host:port or ip:port)`);
    return finish();
  }
  if (src.state !== 'running') {
    t.error(`${src.key} is ${src.state === 'pending' ? 'pending (no IP yet)' : 'terminated'}`);
    return finish();
  }
  const cls = sourceClass(src);
  const srcIp = src.ips[0] as string;
  const zt = ztunnelAt(src.node);
  // Step 1: name resolution.
  let dstIp: string;
  let resolvedService: ServiceRecord | undefined;
  const isIp = parseIpv4(target.host) !== undefined || target.host.includes(':');
  if (isIp) {
    dstIp = target.host;
  } else {
    const kube = kubeServiceFor(model, target.host, src.namespace);
    const se = kube ? undefined : serviceEntryFor(model, target.host, src.namespace);
    const captured = cls === 'ambient' && src.dnsCapture;
    if (!kube && !se && clusterLocalName(target.host)) {
      // Kubernetes DNS is authoritative for the cluster domain: an unknown name there (or a
      // single label, after the search path) is NXDOMAIN, whoever forwards the query.
      t.hop({
        component: 'dns',
        actor: captured ? zt : 'cluster DNS',
        node: src.node,
        pod: src.key,
        ...(captured ? { port: 15053 } : {}),
        protocol: 'DNS',
        text: `${src.key} resolves ${target.host}: ${captured ? `${zt} :15053 does not know it and forwards the query to cluster DNS, which` : 'cluster DNS'} answers NXDOMAIN (no such Service in the files)`,
      });
      t.error(`${target.host} does not resolve (NXDOMAIN): no Service or ServiceEntry has that name (curl exits 6)`);
      return finish();
    }
    if (captured) {
      const svc = kube ?? se;
      const answer = svc ? (svc.vips.length > 0 ? svc.vips : svc.headless ? serviceEndpoints(svc).flatMap((w) => w.json.workloadIps) : []) : [];
      if (svc && answer.length > 0) {
        const kind =
          svc.kind === 'ServiceEntry'
            ? svc.addressAssumed
              ? "the ServiceEntry's auto-allocated VIP (approximate)"
              : "the ServiceEntry's VIP"
            : svc.headless
              ? "the headless Service's pod IPs"
              : 'the Service VIP';
        t.hop({
          component: 'dns',
          actor: zt,
          node: src.node,
          pod: src.key,
          port: 15053,
          protocol: 'DNS',
          text: `${src.key} resolves ${target.host}: DNS (udp/53) is redirected to ${zt} :15053, which answers ${answer.join(', ')} (${kind})`,
        });
        dstIp = answer[0] as string;
        // A headless Service's name resolves to pod IPs: the connection is addressed to a workload,
        // not a Service (spec §3.4; ztunnel outbound.rs looks the destination IP up).
        if (svc.vips.length > 0) resolvedService = svc;
      } else {
        // dns/server.rs find_server: a service without a VIP is dropped, so the query is forwarded
        // upstream as if it were not in the mesh, unless its host is in the cluster domain (a
        // headless Service): then ztunnel answers itself, with no records.
        const answersEmpty = svc !== undefined && clusterLocalName(svc.hostname);
        t.hop({
          component: 'dns',
          actor: zt,
          node: src.node,
          pod: src.key,
          port: 15053,
          protocol: 'DNS',
          text: answersEmpty
            ? `${src.key} resolves ${target.host}: ${zt} :15053 knows ${svc.kind} ${svc.namespace}/${svc.name} but has no address for it (no ready endpoint) and answers with no records`
            : `${src.key} resolves ${target.host}: ${zt} :15053 does not know it${svc ? ` (${svc.kind} ${svc.namespace}/${svc.name} has no address)` : ''} and forwards the query upstream`,
        });
        if (!answersEmpty) {
          t.hop({
            component: 'external',
            actor: src.key,
            text: `${target.host} is not in the mesh: it resolves to an external address we do not know, and ztunnel passes the connection through (plain TCP, no policy)`,
          });
          t.clientSees = 'whatever the external host answers';
          return finish();
        }
        t.error(`${target.host} has no address to connect to`);
        return finish();
      }
    } else {
      if (kube && (kube.vips.length > 0 || kube.headless)) {
        const answer = kube.vips.length > 0 ? kube.vips : serviceEndpoints(kube).flatMap((w) => w.json.workloadIps);
        if (answer.length === 0) {
          t.error(`headless Service ${kube.namespace}/${kube.name} has no ready endpoints`);
          return finish();
        }
        t.hop({
          component: 'dns',
          actor: 'cluster DNS',
          pod: src.key,
          node: src.node,
          protocol: 'DNS',
          text: `${src.key} resolves ${target.host} with cluster DNS${cls === 'ambient' ? ' (DNS capture is off for this pod)' : ''}: ${answer.join(', ')}`,
        });
        dstIp = answer[0] as string;
        // Headless: the pod IP is the destination (kube-proxy and ztunnel see a workload address).
        if (kube.vips.length > 0) resolvedService = kube;
      } else {
        t.hop({
          component: 'dns',
          actor: 'cluster DNS',
          pod: src.key,
          node: src.node,
          protocol: 'DNS',
          text: `${src.key} resolves ${target.host} with cluster DNS${se ? `: ServiceEntry ${se.namespace}/${se.name} gives it no DNS record (only ztunnel's or a sidecar's DNS proxy answers for it)` : ''}; it resolves (if at all) to an external address`,
        });
        if (cls === 'sidecar' || cls === 'gateway') {
          if (se) {
            resolvedService = se;
            dstIp = se.vips[0] ?? '';
          } else {
            t.hop({
              component: 'external',
              actor: src.key,
              text: `${target.host} is outside the mesh: the proxy passes it through to the external address (no policy)`,
            });
            t.clientSees = 'whatever the external host answers';
            return finish();
          }
        } else {
          t.hop({
            component: 'external',
            actor: src.key,
            text: `the connection to ${target.host}:${target.port} leaves as ordinary egress: no ztunnel, no policy`,
          });
          t.clientSees = 'whatever the external host answers';
          return finish();
        }
      }
    }
  }
  const port = target.port;
  const svc = resolvedService ?? serviceByVip(model, dstIp, src.namespace);
  const addressedWorkload = svc ? undefined : model.ztunnel.workloadsByIp.get(dstIp);
  // Step 2: the client side.
  if (cls === 'ambient') {
    t.hop({
      component: 'ztunnel-outbound',
      actor: zt,
      node: src.node,
      pod: src.key,
      port: 15001,
      text: `${src.key} connects ${dstIp}:${port}; iptables in ${src.name}'s netns redirects to ${zt} outbound :15001`,
    });
    if (svc) {
      const wb = svc.binding.waypoint;
      if (wb) {
        t.hop({
          component: 'ztunnel-outbound',
          actor: zt,
          node: src.node,
          text: `${zt}: Service ${svc.namespace}/${svc.name} has waypoint ${wb.namespace}/${wb.name} (${waypointDestination(wb.address).split('/')[1] ?? ''}:15008)`,
        });
        viaWaypoint(t, wb, { actor: zt, node: src.node, identity: src.identity, srcIp }, { ip: dstIp, port, service: svc });
        return finish();
      }
      const declared = portOf(svc, port);
      const ep = declared ? pickEndpoint(svc, port, input.endpoint) : undefined;
      if (!ep) {
        if (svc.passthrough) {
          t.hop({
            component: 'external',
            actor: zt,
            node: src.node,
            port,
            protocol: 'plaintext',
            text: `${zt}: ${svc.kind} ${svc.namespace}/${svc.name} is PASSTHROUGH (resolution NONE): plain TCP to the original ${dstIp}:${port} from ${srcIp}; no policy`,
          });
          t.clientSees = 'whatever the destination answers';
          return finish();
        }
        t.hop({
          component: 'ztunnel-outbound',
          actor: zt,
          node: src.node,
          text: `${zt}: ${dstIp} is Service ${svc.namespace}/${svc.name}, ${declared ? 'but no healthy endpoint serves port ' + port : `which declares no port ${port}`}: ztunnel refuses the connection (NoHealthyUpstream)`,
        });
        t.error(`connection refused by ${zt} (no healthy upstream for ${svc.name}:${port})`);
        return finish();
      }
      const ew = ep.w;
      if (ew.json.workloadIps.length === 0 && ew.json.hostname) {
        t.hop({
          component: 'ztunnel-outbound',
          actor: zt,
          node: src.node,
          text: `${zt}: Service ${svc.namespace}/${svc.name} (hostname ${svc.hostname}), no waypoint; its only endpoint is the implicit Workload ${ew.json.uid} (hostname, protocol TCP)`,
        });
        t.hop({
          component: 'external',
          actor: zt,
          node: src.node,
          port: ep.targetPort,
          protocol: 'plaintext',
          text: `${zt} resolves ${ew.json.hostname} with its own DNS resolver and opens plain TCP to <resolved IP>:${ep.targetPort} from ${srcIp}`,
        });
        t.hop({ component: 'external', actor: src.key, text: 'no destination ztunnel, no policy; traffic leaves the node as ordinary pod egress' });
        t.clientSees = req.http ? 'the external response' : 'an open connection';
        return finish();
      }
      const epIp = ew.json.workloadIps[0] as string;
      t.hop({
        component: 'ztunnel-outbound',
        actor: zt,
        node: src.node,
        text: `${zt}: ${dstIp} is Service ${svc.namespace}/${svc.name}, no waypoint; picks healthy endpoint ${wlName(ew)} ${epIp}, port ${port} -> targetPort ${ep.targetPort}; endpoint protocol ${ew.protocol}`,
      });
      if (ew.protocol === 'HBONE') {
        t.hop({
          component: 'ztunnel-outbound',
          actor: zt,
          node: src.node,
          port: 15008,
          protocol: 'HBONE mTLS',
          identity: src.identity,
          peerIdentity: ew.identity,
          text: `${zt} -> ${epIp}:15008 mTLS as ${src.identity} (expects peer ${ew.identity}); HTTP/2 CONNECT :authority ${epIp}:${ep.targetPort}`,
        });
        deliver(t, {
          from: zt,
          workload: ew,
          targetIp: epIp,
          targetPort: ep.targetPort,
          transport: 'hbone',
          peerIdentity: src.identity,
          srcIp,
          service: svc,
          servicePort: port,
        });
      } else {
        t.hop({
          component: 'ztunnel-outbound',
          actor: zt,
          node: src.node,
          port: ep.targetPort,
          protocol: 'plaintext',
          text: `${zt} opens plain TCP to ${epIp}:${ep.targetPort} with source IP ${srcIp} (no HBONE, no mTLS)`,
        });
        deliver(t, {
          from: zt,
          workload: ew,
          targetIp: epIp,
          targetPort: ep.targetPort,
          transport: 'plaintext',
          peerIdentity: null,
          srcIp,
          service: svc,
          servicePort: port,
        });
      }
      return finish();
    }
    if (addressedWorkload) {
      const ww = addressedWorkload.waypoint.waypoint;
      if (ww && addressedWorkload.pod?.role !== 'waypoint') {
        t.hop({
          component: 'ztunnel-outbound',
          actor: zt,
          node: src.node,
          text: `${zt}: ${dstIp} is workload ${wlName(addressedWorkload)}, addressed directly; it has workload waypoint ${ww.namespace}/${ww.name}`,
        });
        viaWaypoint(t, ww, { actor: zt, node: src.node, identity: src.identity, srcIp }, { ip: dstIp, port, workload: addressedWorkload });
        return finish();
      }
      t.hop({
        component: 'ztunnel-outbound',
        actor: zt,
        node: src.node,
        text: `${zt}: ${dstIp} is workload ${wlName(addressedWorkload)} (addressed by pod IP: no service waypoint is consulted); protocol ${addressedWorkload.protocol}`,
      });
      if (addressedWorkload.protocol === 'HBONE') {
        t.hop({
          component: 'ztunnel-outbound',
          actor: zt,
          node: src.node,
          port: 15008,
          protocol: 'HBONE mTLS',
          identity: src.identity,
          peerIdentity: addressedWorkload.identity,
          text: `${zt} -> ${dstIp}:15008 mTLS as ${src.identity} (expects peer ${addressedWorkload.identity}); HTTP/2 CONNECT :authority ${dstIp}:${port}`,
        });
        deliver(t, {
          from: zt,
          workload: addressedWorkload,
          targetIp: dstIp,
          targetPort: port,
          transport: 'hbone',
          peerIdentity: src.identity,
          srcIp,
          servicePort: port,
        });
      } else {
        t.hop({
          component: 'ztunnel-outbound',
          actor: zt,
          node: src.node,
          port,
          protocol: 'plaintext',
          text: `${zt} opens plain TCP to ${dstIp}:${port} with source IP ${srcIp}`,
        });
        deliver(t, {
          from: zt,
          workload: addressedWorkload,
          targetIp: dstIp,
          targetPort: port,
          transport: 'plaintext',
          peerIdentity: null,
          srcIp,
          servicePort: port,
        });
      }
      return finish();
    }
    t.hop({
      component: 'external',
      actor: zt,
      node: src.node,
      port,
      protocol: 'plaintext',
      text: `${zt}: ${dstIp} is neither a Service nor a workload it knows: passthrough, plain TCP to ${dstIp}:${port} with source IP ${srcIp}; no policy`,
    });
    t.clientSees = 'whatever the destination answers';
    return finish();
  }
  if (cls === 'sidecar' || cls === 'gateway') {
    const actor = cls === 'gateway' ? `gateway ${src.key}` : `sidecar ${src.key}`;
    t.notes.push(
      `${cls === 'gateway' ? 'The gateway' : 'The sidecar'}'s own routing (VirtualService, DestinationRule, outbound policies) is not simulated yet: it is taken to send to the addressed Service's endpoints.`,
    );
    if (svc) {
      const wb = svc.binding.waypoint;
      if (wb && cls === 'gateway' && svc.ingress.value) {
        t.hop({
          component: 'gateway',
          actor,
          node: src.node,
          pod: src.key,
          text: `${src.name}'s Envoy: Service ${svc.namespace}/${svc.name} has waypoint ${wb.namespace}/${wb.name} and istio.io/ingress-use-waypoint=true, so the gateway sends to the waypoint`,
        });
        viaWaypoint(t, wb, { actor, node: src.node, identity: src.identity, srcIp }, { ip: svc.vips[0] ?? dstIp, port, service: svc });
        return finish();
      }
      const ep = portOf(svc, port) ? pickEndpoint(svc, port, input.endpoint) : undefined;
      if (!ep) {
        t.error(`${actor} finds no healthy endpoint of ${svc.name}:${port} (HTTP 503)`);
        return finish();
      }
      const skip = wb
        ? ` (the Service's waypoint ${wb.namespace}/${wb.name} is skipped: ${cls === 'gateway' ? 'no istio.io/ingress-use-waypoint=true' : 'sidecars never use waypoints'})`
        : '';
      t.hop({
        component: cls === 'gateway' ? 'gateway' : 'sidecar-outbound',
        actor,
        node: src.node,
        pod: src.key,
        text: `${src.name}'s ${cls === 'gateway' ? 'gateway' : 'sidecar'} Envoy picks endpoint ${wlName(ep.w)} from its own EDS (client-side routing and policies)${skip}`,
      });
      sidecarSend(t, src, actor, ep.w, ep.targetPort, svc, port);
      return finish();
    }
    if (addressedWorkload) {
      t.hop({
        component: cls === 'gateway' ? 'gateway' : 'sidecar-outbound',
        actor,
        node: src.node,
        pod: src.key,
        text: `${src.name}'s Envoy sends to ${dstIp}:${port} (${wlName(addressedWorkload)}, addressed by pod IP; no waypoint)`,
      });
      sidecarSend(t, src, actor, addressedWorkload, port, undefined, port);
      return finish();
    }
    t.hop({ component: 'external', actor, node: src.node, text: `${dstIp}:${port} is not a known Service or workload: passthrough, no policy` });
    t.clientSees = 'whatever the destination answers';
    return finish();
  }
  // Uncaptured source: plain TCP, kube-proxy DNAT for Service VIPs.
  if (svc) {
    if (svc.kind === 'ServiceEntry') {
      t.hop({
        component: 'external',
        actor: src.key,
        text: `${src.key} is not captured: ${dstIp}:${port} (${svc.hostname}) goes out as plain egress; no ztunnel, no waypoint, no policy`,
      });
      t.clientSees = 'whatever the destination answers';
      return finish();
    }
    const ep = portOf(svc, port) ? pickEndpoint(svc, port, input.endpoint, false, true) : undefined;
    if (!ep || ep.w.json.workloadIps.length === 0) {
      t.error(`kube-proxy has no ready endpoint for ${svc.name}:${port} (connection refused)`);
      return finish();
    }
    const epIp = ep.w.json.workloadIps[0] as string;
    const skip = svc.binding.waypoint
      ? ` (the Service's waypoint ${svc.binding.waypoint.namespace}/${svc.binding.waypoint.name} is skipped: ztunnel never hairpins uncaptured traffic to it)`
      : '';
    t.hop({
      component: 'kube-proxy',
      actor: src.key,
      node: src.node,
      pod: src.key,
      port: ep.targetPort,
      protocol: 'plaintext',
      text: `${src.key} is not captured: plain TCP to ${dstIp}:${port} (Service ${svc.namespace}/${svc.name}), kube-proxy DNATs to ${epIp}:${ep.targetPort}${skip}`,
    });
    deliver(t, {
      from: src.key,
      workload: ep.w,
      targetIp: epIp,
      targetPort: ep.targetPort,
      transport: 'plaintext',
      peerIdentity: null,
      srcIp,
      service: svc,
      servicePort: port,
    });
    return finish();
  }
  if (addressedWorkload) {
    t.hop({
      component: 'client',
      actor: src.key,
      node: src.node,
      pod: src.key,
      port,
      protocol: 'plaintext',
      text: `${src.key} is not captured: plain TCP to ${dstIp}:${port}`,
    });
    deliver(t, {
      from: src.key,
      workload: addressedWorkload,
      targetIp: dstIp,
      targetPort: port,
      transport: 'plaintext',
      peerIdentity: null,
      srcIp,
      servicePort: port,
    });
    return finish();
  }
  t.hop({ component: 'external', actor: src.key, text: `${src.key} is not captured: plain TCP to ${dstIp}:${port}, outside the mesh` });
  t.clientSees = 'whatever the destination answers';
  return finish();
}

/** A sidecar or gateway Envoy sending to a chosen endpoint: HBONE when both sides can, Istio mTLS to a sidecar, else plaintext. */
function sidecarSend(t: Tracer, src: SimPod, actor: string, w: WorkloadRecord, targetPort: number, svc: ServiceRecord | undefined, servicePort: number): void {
  const srcHbone = (src.labels['networking.istio.io/tunnel'] ?? '').split(',').includes('http') || src.role === 'gateway';
  const ip = w.json.workloadIps[0] ?? '';
  const srcIp = src.ips[0] as string;
  const destPod = w.pod;
  if (w.json.workloadIps.length === 0 && w.json.hostname) {
    // A ServiceEntry endpoint given by host name (resolution DNS): Envoy's STRICT_DNS cluster
    // resolves it and connects to what it gets, outside the mesh (no ztunnel, no policy).
    t.hop({
      component: 'external',
      actor,
      node: src.node,
      pod: src.key,
      port: targetPort,
      protocol: 'plaintext',
      text: `${actor} resolves ${w.json.hostname} with DNS (its STRICT_DNS cluster for ${wlName(w)}) and connects to <resolved IP>:${targetPort}: no destination ztunnel, no policy`,
    });
    t.clientSees = t.req.http ? 'the external response' : 'an open connection';
    return;
  }
  if (w.protocol === 'HBONE' && srcHbone) {
    t.hop({
      component: src.role === 'gateway' ? 'gateway' : 'sidecar-outbound',
      actor,
      node: src.node,
      pod: src.key,
      port: 15008,
      protocol: 'HBONE mTLS',
      identity: src.identity,
      peerIdentity: w.identity,
      text: `${wlName(w)} is ${destPod?.mode === 'sidecar' ? 'a sidecar with HBONE' : 'ambient (HBONE capable)'} so the ${src.role === 'gateway' ? 'gateway' : 'sidecar'} tunnels: HBONE -> ${ip}:15008 as ${src.identity}`,
    });
    deliver(t, {
      from: actor,
      workload: w,
      targetIp: ip,
      targetPort,
      transport: 'hbone',
      peerIdentity: src.identity,
      srcIp,
      ...(svc ? { service: svc } : {}),
      servicePort,
    });
    return;
  }
  if (destPod?.mode === 'sidecar') {
    t.hop({
      component: 'sidecar-outbound',
      actor,
      node: src.node,
      pod: src.key,
      port: targetPort,
      protocol: 'Istio mTLS',
      identity: src.identity,
      peerIdentity: w.identity,
      text: `Istio mTLS sidecar to sidecar: ${ip}:${targetPort} as ${src.identity}`,
    });
    deliver(t, {
      from: actor,
      workload: w,
      targetIp: ip,
      targetPort,
      transport: 'istio-mtls',
      peerIdentity: src.identity,
      srcIp,
      ...(svc ? { service: svc } : {}),
      servicePort,
    });
    return;
  }
  t.hop({
    component: 'sidecar-outbound',
    actor,
    node: src.node,
    pod: src.key,
    port: targetPort,
    protocol: 'plaintext',
    text: `${wlName(w)} is ${destPod?.mode === 'ambient' ? 'ambient but this proxy has no HBONE' : 'not in the mesh'}: plaintext to ${ip}:${targetPort}`,
  });
  deliver(t, {
    from: actor,
    workload: w,
    targetIp: ip,
    targetPort,
    transport: 'plaintext',
    peerIdentity: null,
    srcIp,
    ...(svc ? { service: svc } : {}),
    servicePort,
  });
}

/** Where a resource of a trace's policy is, for links: the store key for its `ns/name`, if it is an AuthorizationPolicy. */
export function policyResourceKey(view: ConfigView, key: string): string | undefined {
  const [ns, name] = key.split('/');
  return ns && name ? view.find(KINDS.AuthorizationPolicy, ns, name)?.key : undefined;
}

export type { RbacScope };
