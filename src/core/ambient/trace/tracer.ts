// The state of one trace as it is built, and the lookups every hop shares.
import type { Resource } from '../../document/types.ts';
import { KINDS } from '../../document/kinds.ts';
import { isObj } from '../../document/read.ts';
import type { ConfigView } from '../../config/configView.ts';
import { authorizationPolicy } from '../../config/api/security.ts';
import { isHttpProtocol, type IstioProtocol } from '../../config/protocol.ts';
import { selectorMatches } from '../../config/labels.ts';
import { waypointDestination, type Waypoint } from '../../config/waypoints.ts';
import type { SimPod } from '../cluster.ts';
import type { L4Decision } from '../authz.ts';
import type { EnvoyDecision } from '../envoyAuthz.ts';
import { serviceEndpoints, type ServiceRecord, type WorkloadRecord } from '../ztunnel.ts';
import type { AmbientModel } from '../dataPlane.ts';
import type { Request, TraceHop, Enforcement, TraceResult, TraceInput, SourceClass, PolicyCheck } from './request.ts';

export class Tracer {
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

export const ztunnelAt = (node: string) => `ztunnel@${node || '(no node)'}`;

export function podOfWorkload(w: WorkloadRecord | undefined): SimPod | undefined {
  return w?.pod;
}

export function sourceClass(p: SimPod): SourceClass {
  if (p.role === 'gateway' || p.role === 'waypoint') return 'gateway';
  if (p.mode === 'ambient') return 'ambient';
  if (p.mode === 'sidecar') return 'sidecar';
  return 'uncaptured';
}

/** Kubernetes Service name forms relative to a namespace: `svc`, `svc.ns`, `svc.ns.svc`, FQDN. */
export function kubeServiceFor(model: AmbientModel, host: string, fromNs: string): ServiceRecord | undefined {
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

export function serviceEntryFor(model: AmbientModel, host: string, fromNs: string): ServiceRecord | undefined {
  const h = host.toLowerCase();
  const all = model.ztunnel.services.filter((s) => s.kind === 'ServiceEntry');
  const exact = all.filter((s) => s.hostname.toLowerCase() === h);
  const pick = (l: ServiceRecord[]) => l.find((s) => s.namespace === fromNs) ?? l[0];
  if (exact.length > 0) return pick(exact);
  const wild = all.filter((s) => s.hostname.startsWith('*') && h.endsWith(s.hostname.slice(1).toLowerCase()));
  return pick(wild);
}

export function serviceByVip(model: AmbientModel, ip: string, fromNs: string): ServiceRecord | undefined {
  const l = model.ztunnel.servicesByVip.get(ip);
  if (!l || l.length === 0) return undefined;
  return l.find((s) => s.namespace === fromNs) ?? l[0];
}

export function portOf(s: ServiceRecord, port: number) {
  return s.ports.find((p) => p.servicePort === port);
}

/**
 * An endpoint of a service that serves the port: the one asked for, else the first (by
 * namespace/name). `podsOnly`: kube-proxy's view, the EndpointSlices Kubernetes fills from Pods
 * (a WorkloadEntry is an endpoint only to Istio).
 */
export function pickEndpoint(
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

export function wlName(w: WorkloadRecord): string {
  return w.kind === 'Pod' ? w.json.name : `${w.json.name} (${w.kind})`;
}

export interface Delivery {
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

export function waypointPod(model: AmbientModel, w: Waypoint): { pod: SimPod; ip: string } | undefined {
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
export function waypointPolicies(view: ConfigView, model: AmbientModel, w: Waypoint, service: ServiceRecord | undefined): Resource[] {
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
export function sidecarPolicies(view: ConfigView, model: AmbientModel, pod: SimPod): Resource[] {
  const root = model.cluster.rootNamespace;
  return view.list(KINDS.AuthorizationPolicy).filter((p) => {
    const spec = authorizationPolicy(p);
    if (spec.targetRefs.length > 0 || spec.targetRef) return false;
    if (p.namespace !== pod.namespace && p.namespace !== root) return false;
    const hasSelector = isObj(p.body.spec) && isObj((p.body.spec as Record<string, unknown>).selector);
    return !hasSelector || selectorMatches(spec.selector?.matchLabels ?? {}, pod.labels);
  });
}

export function envoyChecks(d: EnvoyDecision): PolicyCheck[] {
  return d.evaluated.map((e) => ({ key: e.key, resourceKey: e.resourceKey, action: e.action, matched: e.matched, why: e.why }));
}

export function l4Checks(model: AmbientModel, d: L4Decision): PolicyCheck[] {
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

export function protocolName(p: IstioProtocol | undefined): string {
  return p ?? 'unknown';
}

/** What chain an Envoy (waypoint or sidecar) uses for a port: HTTP for HTTP-family ports, TCP for explicit TCP/TLS, sniffing otherwise. */
export function chainFor(p: IstioProtocol | undefined, req: Request): { http: boolean; text: string } {
  if (p && isHttpProtocol(p)) return { http: req.http, text: 'HTTP chain' };
  if (p && p !== 'UnsupportedProtocol') return { http: false, text: `${p} chain (no HTTP attributes)` };
  return { http: req.http, text: req.http ? 'protocol sniffing detects HTTP -> HTTP chain' : 'protocol sniffing finds no HTTP -> TCP chain' };
}

export function requestWords(req: Request, http: boolean): string {
  return http ? `method ${req.method}, path ${req.path}` : 'TCP (no HTTP attributes)';
}
