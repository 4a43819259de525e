// EDS (pilot/pkg/xds/endpoints/endpoint_builder.go; spec §5): the ClusterLoadAssignment of a
// cluster, endpoints filtered by service port and subset labels, grouped by locality, with
// health, weight, the tlsMode transport-socket match and Istio's workload metadata; locality
// failover priorities when the DestinationRule enables outlier detection.
import type { Json } from './types.ts';
import type { GenContext } from './context.ts';
import type { PortEndpoint, Service } from './pushContext.ts';
import { parseSubsetKey } from './names.ts';
import { scopeDestinationRule } from './scope.ts';
import { composePeerAuthentication, mtlsModeForPort, type MergedPeerAuthentication } from './peerAuthn.ts';
import { canonicalService, DEFAULT_CLUSTER_ID, type Endpoint } from '../config/services.ts';
import { isIP } from './net.ts';
import { splitLocality } from '../config/locality.ts';
import { isObj, str, arr } from '../document/read.ts';
import type { DestinationRuleSpec, TrafficPolicy } from '../config/api/networking.ts';
import { mark, ref } from './provenance.ts';
import { waypointResources } from './waypoint/resources.ts';
import { GATEWAY_MANAGED_LABEL, MESH_GATEWAY_CONTROLLER } from '../config/wellKnown.ts';

// endpoint_builder.go buildEnvoyLbEndpoint: HealthStatus = corev3.HealthStatus(e.HealthStatus); Istio's 0 is Envoy's UNKNOWN (omitted).
const HEALTH: Readonly<Record<string, string>> = {
  HEALTHY: 'HEALTHY',
  UNHEALTHY: 'UNHEALTHY',
  DRAINING: 'DRAINING',
  TERMINATING: 'UNKNOWN',
  UNKNOWN: 'UNKNOWN',
};

function subsetPolicy(dr: DestinationRuleSpec | undefined, subset: string): TrafficPolicy | undefined {
  if (!dr) return undefined;
  if (subset !== '') {
    const ss = dr.subsets.find((s) => s.name === subset);
    if (ss?.trafficPolicy) return ss.trafficPolicy;
  }
  return dr.trafficPolicy;
}

function portPolicy(tp: TrafficPolicy | undefined, port: number): { tls?: string; outlier?: unknown; lb?: unknown } {
  if (!tp) return {};
  const pls = tp.portLevelSettings.find((p) => p.port?.number === port);
  if (pls) return { ...(pls.tls ? { tls: pls.tls.mode } : {}), outlier: pls.outlierDetection, lb: pls.loadBalancer };
  return { ...(tp.tls ? { tls: tp.tls.mode } : {}), outlier: tp.outlierDetection, lb: tp.loadBalancer };
}

/** tlsModeForDestinationRule: the TLS mode of the subset (or the rule) on this port, when set. */
function drTlsMode(dr: DestinationRuleSpec | undefined, subset: string, port: number): string | undefined {
  if (!dr) return undefined;
  const forTp = (tp: TrafficPolicy | undefined): string | undefined => {
    if (!tp) return undefined;
    let mode = tp.tls?.mode;
    for (const p of tp.portLevelSettings) {
      if (p.port?.number === port && p.tls) {
        mode = p.tls.mode;
        break;
      }
    }
    return mode;
  };
  if (subset === '') return forTp(dr.trafficPolicy);
  const ss = dr.subsets.find((s) => s.name === subset);
  if (!ss) return undefined;
  return forTp(ss.trafficPolicy) ?? forTp(dr.trafficPolicy);
}

/** The PeerAuthentication in effect for each endpoint's workload, per push context. */
const peerAuthnCache = new WeakMap<object, WeakMap<Endpoint, MergedPeerAuthentication>>();

/** Whether an endpoint can be reached with mTLS (mtlsChecker.checkMtlsEnabled). */
function mtlsEnabled(ctx: GenContext, pe: PortEndpoint, drMode: string | undefined): boolean {
  if (drMode !== undefined) return drMode === 'ISTIO_MUTUAL';
  if (pe.ep.tlsMode !== 'istio') return false;
  let byEp = peerAuthnCache.get(ctx.push);
  if (!byEp) peerAuthnCache.set(ctx.push, (byEp = new WeakMap()));
  let pa = byEp.get(pe.ep);
  if (!pa) byEp.set(pe.ep, (pa = composePeerAuthentication(ctx.push, pe.ep.namespace, pe.ep.labels)));
  return mtlsModeForPort(pa, pe.port) !== 'DISABLE';
}

/** The `istio.workload` endpoint metadata (workload;namespace;canonical name;revision;cluster). */
const workloadLabels = new WeakMap<Endpoint, Json>();

function workloadMetadata(ep: Endpoint): Json {
  let m = workloadLabels.get(ep);
  if (!m) {
    const cs = canonicalService(ep.labels, ep.workloadName);
    const rev = cs.revision === 'latest' ? '' : cs.revision;
    m = { workload: `${ep.workloadName};${ep.namespace};${cs.name};${rev};${DEFAULT_CLUSTER_ID}` };
    workloadLabels.set(ep, m);
  }
  return m;
}

const TLS_MODE_MATCH = new Map<string, Json>();

function tlsModeMatch(mode: string): Json {
  let m = TLS_MODE_MATCH.get(mode);
  if (!m) TLS_MODE_MATCH.set(mode, (m = { tlsMode: mode }));
  return m;
}

function lbEndpoint(ctx: GenContext, pe: PortEndpoint, mtls: boolean, tunnel: boolean): Json {
  const fm: Json = {};
  if (mtls && pe.ep.tlsMode !== '' && pe.ep.tlsMode !== 'disabled') fm['envoy.transport_socket_match'] = tlsModeMatch(pe.ep.tlsMode);
  if (ctx.features.PILOT_ENABLE_TELEMETRY_LABEL && ctx.features.PILOT_ENDPOINT_TELEMETRY_LABEL) fm.istio = workloadMetadata(pe.ep);
  let address: Json = { socketAddress: { address: pe.ep.address, portValue: pe.port } };
  if (tunnel) {
    // HBONE (waypoint inbound-vip clusters): through the connect_originate internal listener to the pod's ztunnel.
    const target = `${pe.ep.address.includes(':') ? `[${pe.ep.address}]` : pe.ep.address}:${pe.port}`;
    address = { envoyInternalAddress: { serverListenerName: 'connect_originate', endpointId: target } };
    fm['envoy.filters.listener.original_dst'] = { local: target };
  }
  const out: Json = { endpoint: { address } };
  const health = HEALTH[pe.ep.health] ?? 'HEALTHY';
  if (health !== 'UNKNOWN') out.healthStatus = health;
  out.metadata = { filterMetadata: fm };
  out.loadBalancingWeight = pe.ep.weight > 0 ? pe.ep.weight : 1;
  return out;
}

interface LocalityGroup {
  locality: string;
  endpoints: Json[];
  weight: number;
}

/** Builds the locality groups of a cluster's endpoints (EndpointBuilder.generate). */
function localityGroups(
  ctx: GenContext,
  svc: Service,
  eps: readonly PortEndpoint[],
  drMode: string | undefined,
  supportsUnhealthy: boolean,
  tunnel?: (pe: PortEndpoint) => boolean,
): LocalityGroup[] {
  const byLocality = new Map<string, LocalityGroup>();
  for (const pe of eps) {
    if (pe.ep.address === '') continue;
    if (!supportsUnhealthy && pe.ep.health === 'UNHEALTHY') continue;
    if (pe.ep.health === 'TERMINATING') continue;
    if (pe.ep.health === 'DRAINING') continue;
    void svc;
    const le = lbEndpoint(ctx, pe, mtlsEnabled(ctx, pe, drMode), tunnel !== undefined && tunnel(pe));
    let g = byLocality.get(pe.ep.locality);
    if (!g) byLocality.set(pe.ep.locality, (g = { locality: pe.ep.locality, endpoints: [], weight: 0 }));
    g.endpoints.push(le);
    g.weight += le.loadBalancingWeight as number;
  }
  return [...byLocality.values()].sort((a, b) => (a.locality < b.locality ? -1 : a.locality > b.locality ? 1 : 0));
}

function localityJson(label: string): Json | undefined {
  if (label === '') return undefined;
  const l = splitLocality(label);
  const out: Json = {};
  if (l.region) out.region = l.region;
  if (l.zone) out.zone = l.zone;
  if (l.subzone) out.subZone = l.subzone;
  return out;
}

function lbPriority(proxy: { region: string; zone: string; subzone: string }, ep: { region: string; zone: string; subzone: string }): number {
  if (proxy.region === ep.region) {
    if (proxy.zone === ep.zone) return proxy.subzone === ep.subzone ? 0 : 1;
    return 2;
  }
  return 3;
}

/** ApplyLocalityLoadBalancer for the common cases: `distribute` weights, or region/zone failover priorities. */
function applyLocality(ctx: GenContext, groups: Json[], setting: Json | undefined, outlier: boolean): void {
  if (!setting) return;
  if (setting.enabled === false) return;
  const proxyLoc = ctx.proxy.locality;
  const distribute = arr(setting.distribute).filter(isObj);
  if (distribute.length > 0) {
    const matches = (loc: { region: string; zone: string; subzone: string }, rule: string) => {
      const r = splitLocality(rule);
      return (
        (r.region === '*' || loc.region === r.region) &&
        (r.zone === '*' || r.zone === '' || loc.zone === r.zone) &&
        (r.subzone === '*' || r.subzone === '' || loc.subzone === r.subzone)
      );
    };
    for (const d of distribute) {
      if (!matches(proxyLoc, str(d.from))) continue;
      const mismatched = new Set(groups.map((_, i) => i));
      const to = isObj(d.to) ? d.to : {};
      for (const [loc, w] of Object.entries(to)) {
        const weight = typeof w === 'number' ? w : 0;
        const dest = new Map<number, number>();
        let total = 0;
        groups.forEach((g, i) => {
          if (!mismatched.has(i)) return;
          const gl = isObj(g.locality)
            ? { region: str(g.locality.region), zone: str(g.locality.zone), subzone: str(g.locality.subZone) }
            : { region: '', zone: '', subzone: '' };
          if (matches(gl, loc)) {
            mismatched.delete(i);
            const v = typeof g.loadBalancingWeight === 'number' ? g.loadBalancingWeight : 1;
            dest.set(i, v);
            total += v;
          }
        });
        for (const [i, orig] of dest) {
          const dw = (orig * weight) / total;
          if (dw > 0) (groups[i] as Json).loadBalancingWeight = Math.ceil(dw);
        }
      }
      for (const i of mismatched) delete (groups[i] as Json).lbEndpoints;
      break;
    }
    return;
  }
  if (!outlier) return;
  const failover = arr(setting.failover).filter(isObj);
  const prio = groups.map((g) => {
    const gl = isObj(g.locality)
      ? { region: str(g.locality.region), zone: str(g.locality.zone), subzone: str(g.locality.subZone) }
      : { region: '', zone: '', subzone: '' };
    let p = lbPriority(proxyLoc, gl);
    if (p === 3) {
      for (const f of failover) {
        if (str(f.from) === proxyLoc.region) {
          if (gl.region !== str(f.to)) p = 4;
          break;
        }
      }
    }
    return p;
  });
  const distinct = [...new Set(prio)].sort((a, b) => a - b);
  groups.forEach((g, i) => {
    const p = distinct.indexOf(prio[i] as number);
    if (p > 0) g.priority = p;
    else delete g.priority;
  });
}

/** The locality LB setting in effect for a cluster (GetEffectiveLbSetting, without zone-aware routing). */
export function effectiveLocalitySetting(ctx: GenContext, lb: unknown): Json | undefined {
  if (isObj(lb) && isObj(lb.localityLbSetting)) return lb.localityLbSetting.enabled === false ? undefined : lb.localityLbSetting;
  const mesh = ctx.mesh.localityLbSetting;
  if (mesh && mesh.enabled === false) return undefined;
  return mesh;
}

/** The locality endpoints of a service port and subset (for EDS and for DNS clusters' inline assignment). */
export function localityLbEndpoints(
  ctx: GenContext,
  svc: Service,
  port: number,
  subset: string,
  forDns: boolean,
  tunnel?: (pe: PortEndpoint) => boolean,
): Json[] {
  const cdr = scopeDestinationRule(ctx.scope, tunnel ? 'inbound' : 'outbound', ctx.proxy, svc.hostname);
  const dr = cdr?.rule.spec;
  const labels = subset !== '' ? (dr?.subsets.find((s) => s.name === subset)?.labels ?? {}) : {};
  // CDS (forDns) reads the push context's endpoints by service key and port
  // (endpoint_builder.go FromServiceEndpoints: ServiceEndpointsByPort); EDS matches the shards by
  // port name (BuildClusterLoadAssignment).
  let eps = forDns ? ctx.push.serviceEndpointsByPort(svc, port, labels) : ctx.push.endpointsByPort(svc, port, labels);
  if (!forDns) eps = eps.filter((pe) => !(pe.ep.address !== '' && pe.port !== 0 && !isIP(pe.ep.address)));
  const tp = subsetPolicy(dr, subset);
  const pp = portPolicy(tp, port);
  const minHealth = isObj(pp.outlier) && typeof pp.outlier.minHealthPercent === 'number' ? pp.outlier.minHealthPercent : 0;
  const supportsUnhealthy =
    svc.registry === 'Kubernetes' && isObj(svc.resource.body.spec) && svc.resource.body.spec.publishNotReadyAddresses === true && !(minHealth > 0);
  const groups = localityGroups(ctx, svc, eps, drTlsMode(dr, subset, port), supportsUnhealthy, tunnel).map((g) => {
    const o: Json = {};
    const loc = localityJson(g.locality);
    if (loc) o.locality = loc;
    o.lbEndpoints = g.endpoints;
    o.loadBalancingWeight = g.weight;
    return o;
  });
  applyLocality(ctx, groups, effectiveLocalitySetting(ctx, pp.lb), pp.outlier !== undefined);
  return groups;
}

/** supportTunnel for a waypoint's VIP clusters: the endpoint is a waypoint, asks for an HTTP tunnel, or is an ambient (HBONE) workload. */
function waypointTunnel(ctx: GenContext): (pe: PortEndpoint) => boolean {
  const res = waypointResources(ctx.push, ctx.proxy);
  return (pe) =>
    pe.ep.labels[GATEWAY_MANAGED_LABEL] === MESH_GATEWAY_CONTROLLER ||
    (pe.ep.labels['networking.istio.io/tunnel'] ?? '').split(',').includes('http') ||
    res.supportsTunnel(pe.ep.address);
}

function endpointAddressed(groups: readonly Json[], address: string): boolean {
  for (const g of groups) {
    for (const e of Array.isArray(g.lbEndpoints) ? (g.lbEndpoints as Json[]) : []) {
      const addr = (e.endpoint as Json).address as Json;
      const a = isObj(addr.socketAddress)
        ? addr.socketAddress.address
        : isObj(addr.envoyInternalAddress)
          ? str(addr.envoyInternalAddress.endpointId).replace(/^\[?(.*?)\]?:\d+$/, '$1')
          : undefined;
      if (a === address) return true;
    }
  }
  return false;
}

/** The ClusterLoadAssignment of an EDS cluster (an empty one when nothing is known of it). */
export function clusterLoadAssignment(ctx: GenContext, clusterName: string): Json {
  const key = parseSubsetKey(clusterName);
  if (!key) return { clusterName };
  const svc = ctx.scope.servicesByHostname.get(key.host);
  if (!svc?.ports.some((p) => p.port === key.port)) return { clusterName };
  if (svc.resolution === 'DNS' || svc.resolution === 'DNSRoundRobin') return { clusterName };
  // Waypoint `inbound-vip|port|http/v1|host`: the subset after the protocol, endpoints over HBONE where the pod supports it.
  const vip = key.direction === 'inbound-vip';
  const subset = vip ? key.subset.replace(/^(http|tcp)\/?/, '') : key.subset;
  const tunnel = vip ? waypointTunnel(ctx) : undefined;
  const endpoints = localityLbEndpoints(ctx, svc, key.port, subset, false, tunnel);
  const cla: Json = { clusterName };
  if (endpoints.length > 0) cla.endpoints = endpoints;
  // Provenance: the service, then the workloads behind the endpoints.
  mark(cla, ref(svc.resource.key));
  const seen = new Set<string>();
  for (const ep of svc.endpoints) {
    const w = ep.workload;
    if (w && !seen.has(w.key) && endpointAddressed(endpoints, ep.address)) {
      seen.add(w.key);
      mark(cla, ref(w.key));
    }
  }
  return cla;
}
