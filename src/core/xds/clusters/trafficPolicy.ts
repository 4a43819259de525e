// A DestinationRule's traffic policy applied to a cluster (cluster_traffic_policy.go): connection
// pool, outlier detection, load balancer, proxy protocol, with port-level and subset merging.
import type { Json } from '../types.ts';
import type { GenContext } from '../context.ts';
import type { ClientTLSSettings, TrafficPolicy } from '../../config/api/networking.ts';
import type { Service } from '../pushContext.ts';
import { isHttp } from '../protocol.ts';
import { durationJson, durationSeconds } from '../duration.ts';
import { RAW_BUFFER_SOCKET } from '../filters.ts';
import { effectiveLocalitySetting } from '../endpoints.ts';
import { isObj, str } from '../../document/read.ts';
import type { ServicePortInfo } from '../../config/services.ts';
import type { MtlsMode } from '../pushContext.ts';
import { forcesSupportUnhealthyEndpoints, supportsUnhealthyEndpoints } from '../unhealthy.ts';
import { type ClusterWrapper, MAX_UINT32, type Mode, setH2, setUseDownstream } from './builder.ts';
import { applyUpstreamTls, upstreamTlsSettings } from './tls.ts';

/** The parts of a TrafficPolicy as parsed (raw sub-objects). */
export interface Policy {
  connectionPool?: Json;
  outlierDetection?: Json;
  loadBalancer?: Json;
  tls?: ClientTLSSettings;
  proxyProtocol?: Json;
  retryBudget?: Json;
}

function policyOf(tp: TrafficPolicy | undefined): Policy | undefined {
  if (!tp) return undefined;
  return {
    ...(isObj(tp.connectionPool) ? { connectionPool: tp.connectionPool as unknown as Json } : {}),
    ...(isObj(tp.outlierDetection) ? { outlierDetection: tp.outlierDetection } : {}),
    ...(isObj(tp.loadBalancer) ? { loadBalancer: tp.loadBalancer as unknown as Json } : {}),
    ...(tp.tls ? { tls: tp.tls } : {}),
    ...(isObj(tp.proxyProtocol) ? { proxyProtocol: tp.proxyProtocol } : {}),
    ...(isObj(tp.retryBudget) ? { retryBudget: tp.retryBudget } : {}),
  };
}

/** GetPortLevelTrafficPolicy: a matching port-level setting replaces the policy wholesale. */
export function portLevelPolicy(tp: TrafficPolicy | undefined, port: number): { policy: Policy | undefined; portLevel: boolean } {
  if (!tp) return { policy: undefined, portLevel: false };
  const p = tp.portLevelSettings.find((s) => s.port?.number === port);
  if (!p) return { policy: policyOf(tp), portLevel: false };
  return {
    policy: {
      ...(isObj(p.connectionPool) ? { connectionPool: p.connectionPool as unknown as Json } : {}),
      ...(isObj(p.outlierDetection) ? { outlierDetection: p.outlierDetection } : {}),
      ...(isObj(p.loadBalancer) ? { loadBalancer: p.loadBalancer as unknown as Json } : {}),
      ...(p.tls ? { tls: p.tls } : {}),
    },
    portLevel: true,
  };
}

/** MergeSubsetTrafficPolicy. */
export function mergeSubsetPolicy(original: Policy | undefined, subset: TrafficPolicy | undefined, port: number): Policy | undefined {
  if (!subset) return original;
  const { policy: sp, portLevel } = portLevelPolicy(subset, port);
  if (!original) return sp;
  const merged: Policy = { ...original };
  if (!sp) return merged;
  if (sp.connectionPool || portLevel) merged.connectionPool = sp.connectionPool;
  if (sp.outlierDetection || portLevel) merged.outlierDetection = sp.outlierDetection;
  if (sp.loadBalancer || portLevel) merged.loadBalancer = sp.loadBalancer;
  if (sp.tls || portLevel) merged.tls = sp.tls;
  if (sp.proxyProtocol) merged.proxyProtocol = sp.proxyProtocol;
  if (sp.retryBudget) merged.retryBudget = sp.retryBudget;
  return merged;
}

/** applyDefaultTrafficPolicy: the mesh's default connection pool and outlier detection fill the gaps. */
export function applyMeshDefaults(ctx: GenContext, p: Policy | undefined): Policy | undefined {
  const d = ctx.mesh.defaultTrafficPolicy;
  if (!d) return p;
  const cp = isObj(d.connectionPool) ? d.connectionPool : undefined;
  const od = isObj(d.outlierDetection) ? d.outlierDetection : undefined;
  const needCp = cp && !p?.connectionPool;
  const needOd = od && !p?.outlierDetection;
  if (!needCp && !needOd) return p;
  return { ...p, ...(needCp ? { connectionPool: cp } : {}), ...(needOd ? { outlierDetection: od } : {}) };
}

function u32(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0;
}

function keepalive(c: Json, ka: unknown): void {
  if (!isObj(ka)) return;
  const uco = (c.upstreamConnectionOptions ??= { tcpKeepalive: {} }) as Json;
  const tk = uco.tcpKeepalive as Json;
  if (u32(ka.probes) > 0) tk.keepaliveProbes = u32(ka.probes);
  const t = durationSeconds(ka.time);
  if (t !== undefined) tk.keepaliveTime = t;
  const i = durationSeconds(ka.interval);
  if (i !== undefined) tk.keepaliveInterval = i;
}

/** applyConnectionPool: circuit breakers, connect timeout, keepalive and HTTP protocol options. */
export function applyConnectionPool(ctx: GenContext, w: ClusterWrapper, cp: Json, retryBudget: Json | undefined): void {
  const t: Json = { maxConnections: MAX_UINT32, maxPendingRequests: MAX_UINT32, maxRequests: MAX_UINT32, maxRetries: MAX_UINT32 };
  if (retryBudget) {
    const rb: Json = { budgetPercent: { value: isObj(retryBudget.percent) && typeof retryBudget.percent.value === 'number' ? retryBudget.percent.value : 20 } };
    const bi = durationJson(retryBudget.budgetInterval);
    if (bi) rb.budgetInterval = bi;
    rb.minRetryConcurrency = u32(retryBudget.minRetryConcurrency) > 0 ? u32(retryBudget.minRetryConcurrency) : 3;
    t.retryBudget = rb;
  }
  let idleTimeout: string | undefined;
  let maxRequestsPerConnection = 0;
  let maxConcurrentStreams = 0;
  let maxConnectionDuration: string | undefined;
  let h2Keepalive: Json | undefined;
  const http = isObj(cp.http) ? cp.http : undefined;
  const tcp = isObj(cp.tcp) ? cp.tcp : undefined;
  if (http) {
    if (u32(http.http2MaxRequests) > 0) t.maxRequests = u32(http.http2MaxRequests);
    if (u32(http.http1MaxPendingRequests) > 0) t.maxPendingRequests = u32(http.http1MaxPendingRequests);
    if (u32(http.maxRetries) > 0) t.maxRetries = u32(http.maxRetries);
    idleTimeout = durationJson(http.idleTimeout);
    maxRequestsPerConnection = u32(http.maxRequestsPerConnection);
    maxConcurrentStreams = u32(http.maxConcurrentStreams);
    if (isObj(http.h2UpgradePolicy)) void 0;
    if (isObj(http.http2KeepAlive)) h2Keepalive = http.http2KeepAlive;
  }
  w.c.connectTimeout = ctx.mesh.connectTimeout;
  if (tcp) {
    const ct = durationJson(tcp.connectTimeout);
    if (ct) w.c.connectTimeout = ct;
    if (u32(tcp.maxConnections) > 0) t.maxConnections = u32(tcp.maxConnections);
    const mcd = durationJson(tcp.maxConnectionDuration);
    if (mcd) maxConnectionDuration = mcd;
    if (idleTimeout === undefined) idleTimeout = durationJson(tcp.idleTimeout);
  }
  keepalive(w.c, ctx.mesh.tcpKeepalive);
  if (tcp) keepalive(w.c, tcp.tcpKeepalive);
  w.c.circuitBreakers = { thresholds: [t] };
  if (maxConnectionDuration || idleTimeout || maxRequestsPerConnection > 0 || maxConcurrentStreams > 0 || h2Keepalive) {
    w.httpOptions ??= {};
    const common = (w.httpOptions.commonHttpProtocolOptions ??= {}) as Json;
    if (idleTimeout) common.idleTimeout = idleTimeout;
    if (maxRequestsPerConnection > 0) common.maxRequestsPerConnection = maxRequestsPerConnection;
    if (maxConnectionDuration) common.maxConnectionDuration = maxConnectionDuration;
    const explicit = isObj(w.httpOptions.explicitHttpConfig) ? w.httpOptions.explicitHttpConfig : undefined;
    const h2 = explicit && isObj(explicit.http2ProtocolOptions) ? explicit.http2ProtocolOptions : undefined;
    if (h2 && maxConcurrentStreams > 0) h2.maxConcurrentStreams = maxConcurrentStreams;
    if (h2 && h2Keepalive) {
      const ka: Json = {};
      const iv = durationJson(h2Keepalive.interval);
      if (iv) ka.interval = iv;
      const to = durationJson(h2Keepalive.timeout);
      if (to) ka.timeout = to;
      h2.connectionKeepalive = ka;
    }
  }
  if (http && http.useClientProtocol === true) setUseDownstream(w);
}

export function shouldH2Upgrade(ctx: GenContext, port: ServicePortInfo | undefined, cp: Json): boolean {
  const http = isObj(cp.http) ? cp.http : undefined;
  if (http) {
    if (http.useClientProtocol === true) return false;
    if (http.h2UpgradePolicy === 'UPGRADE') return true;
    if (http.h2UpgradePolicy === 'DO_NOT_UPGRADE') return false;
  }
  if (port && !isHttp(port.protocol)) return false;
  return ctx.mesh.h2UpgradePolicy === 'UPGRADE';
}

export function applyOutlierDetection(ctx: GenContext, svc: Service, c: Json, od: Json | undefined): void {
  if (!od) return;
  const out: Json = {};
  // Only consecutive5xxErrors: Istio ignores the deprecated consecutiveErrors here (it is a validation warning).
  const c5 = od.consecutive5xxErrors;
  if (c5 !== undefined && c5 !== null) {
    const v = u32(isObj(c5) ? c5.value : c5);
    out.consecutive5xx = v;
    out.enforcingConsecutive5xx = v > 0 ? 100 : 0;
  }
  if (od.consecutiveGatewayErrors !== undefined && od.consecutiveGatewayErrors !== null) {
    const v = u32(isObj(od.consecutiveGatewayErrors) ? od.consecutiveGatewayErrors.value : od.consecutiveGatewayErrors);
    out.consecutiveGatewayFailure = v;
    out.enforcingConsecutiveGatewayFailure = v > 0 ? 100 : 0;
  }
  const interval = durationJson(od.interval);
  if (interval) out.interval = interval;
  const bet = durationJson(od.baseEjectionTime);
  if (bet) out.baseEjectionTime = bet;
  if (u32(od.maxEjectionPercent) > 0) out.maxEjectionPercent = u32(od.maxEjectionPercent);
  out.enforcingSuccessRate = 0;
  if (od.splitExternalLocalOriginErrors === true) {
    out.splitExternalLocalOriginErrors = true;
    const clo = u32(isObj(od.consecutiveLocalOriginFailures) ? od.consecutiveLocalOriginFailures.value : od.consecutiveLocalOriginFailures);
    if (clo > 0) {
      out.consecutiveLocalOriginFailure = clo;
      out.enforcingConsecutiveLocalOriginFailure = 100;
    }
    out.enforcingLocalOriginSuccessRate = 0;
  }
  c.outlierDetection = out;
  const mhp = typeof od.minHealthPercent === 'number' ? od.minHealthPercent : 0;
  // cluster_traffic_policy.go:543-551: a service that must get unhealthy endpoints gets panic threshold 0.
  if (mhp >= 0) (c.commonLbConfig as Json).healthyPanicThreshold = { value: forcesSupportUnhealthyEndpoints(ctx.push.view, ctx.features, svc) ? 0 : mhp };
}

function slowStart(lb: Json): Json | undefined {
  if (isObj(lb.warmup)) {
    const w = lb.warmup;
    const out: Json = {};
    const d = durationJson(w.duration);
    if (d) out.slowStartWindow = d;
    out.aggression = {
      defaultValue: isObj(w.aggression) && typeof w.aggression.value === 'number' ? w.aggression.value : typeof w.aggression === 'number' ? w.aggression : 1,
      runtimeKey: '(',
    };
    out.minWeightPercent = {
      value:
        isObj(w.minimumPercent) && typeof w.minimumPercent.value === 'number'
          ? w.minimumPercent.value
          : typeof w.minimumPercent === 'number'
            ? w.minimumPercent
            : 10,
    };
    return out;
  }
  const d = durationJson(lb.warmupDurationSecs);
  return d ? { slowStartWindow: d } : undefined;
}

/** applyLoadBalancer: LEAST_REQUEST by default; the DR's simple/consistent-hash policy; locality weighting. */
export function applyLoadBalancer(ctx: GenContext, svc: Service, c: Json, lb: Json | undefined): void {
  if (c.lbPolicy === 'CLUSTER_PROVIDED') return;
  // cluster_traffic_policy.go:323-327: an unset panic threshold becomes 0 when the service supports
  // unhealthy endpoints (always, with PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS' default true).
  const common = c.commonLbConfig as Json;
  if (common.healthyPanicThreshold === undefined && supportsUnhealthyEndpoints(ctx.push.view, ctx.features, svc)) common.healthyPanicThreshold = { value: 0 };
  const setting = effectiveLocalitySetting(ctx, lb);
  if (setting) {
    const enableFailover = c.outlierDetection !== undefined;
    if ((enableFailover && (setting.failover !== undefined || setting.failoverPriority !== undefined)) || setting.distribute !== undefined) {
      (c.commonLbConfig as Json).localityWeightedLbConfig = {};
    }
  }
  if (c.type === 'ORIGINAL_DST') {
    c.lbPolicy = 'CLUSTER_PROVIDED';
    return;
  }
  const simple = lb ? str(lb.simple) : '';
  const ss = lb ? slowStart(lb) : undefined;
  switch (simple) {
    case 'LEAST_CONN':
    case 'LEAST_REQUEST':
      c.lbPolicy = 'LEAST_REQUEST';
      if (ss) c.leastRequestLbConfig = { slowStartConfig: ss };
      break;
    case 'RANDOM':
      c.lbPolicy = 'RANDOM';
      break;
    case 'ROUND_ROBIN':
      delete c.lbPolicy;
      if (ss) c.roundRobinLbConfig = { slowStartConfig: ss };
      break;
    case 'PASSTHROUGH':
      c.lbPolicy = 'CLUSTER_PROVIDED';
      c.type = 'ORIGINAL_DST';
      delete c.loadAssignment;
      break;
    default:
      c.lbPolicy = 'LEAST_REQUEST';
      if (ss) c.leastRequestLbConfig = { slowStartConfig: ss };
  }
  const ch = lb && isObj(lb.consistentHash) ? lb.consistentHash : undefined;
  if (ch) {
    delete c.leastRequestLbConfig;
    delete c.roundRobinLbConfig;
    if (isObj(ch.maglev)) {
      c.lbPolicy = 'MAGLEV';
      if (u32(ch.maglev.tableSize) !== 0) c.maglevLbConfig = { tableSize: String(u32(ch.maglev.tableSize)) };
    } else if (isObj(ch.ringHash)) {
      c.lbPolicy = 'RING_HASH';
      if (u32(ch.ringHash.minimumRingSize) !== 0) c.ringHashLbConfig = { minimumRingSize: String(u32(ch.ringHash.minimumRingSize)) };
    } else {
      c.lbPolicy = 'RING_HASH';
      c.ringHashLbConfig = { minimumRingSize: String(u32(ch.minimumRingSize) !== 0 ? u32(ch.minimumRingSize) : 1024) };
    }
  }
}

function applyProxyProtocol(w: ClusterWrapper, pp: Json | undefined): void {
  if (!pp) return;
  const version = str(pp.version) === 'V2' ? 'V2' : undefined;
  const wrap = (inner: Json) => ({
    name: 'envoy.transport_sockets.upstream_proxy_protocol',
    typedConfig: {
      '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.proxy_protocol.v3.ProxyProtocolUpstreamTransport',
      config: version ? { version } : {},
      transportSocket: inner,
    },
  });
  const c = w.c;
  if (!c.transportSocket && !c.transportSocketMatches) {
    c.transportSocket = wrap(RAW_BUFFER_SOCKET);
    return;
  }
  if (c.transportSocket) c.transportSocket = wrap(c.transportSocket as Json);
  if (Array.isArray(c.transportSocketMatches)) for (const m of c.transportSocketMatches as Json[]) m.transportSocket = wrap(m.transportSocket as Json);
}

export interface ApplyOpts {
  policy: Policy | undefined;
  port: ServicePortInfo | undefined;
  direction: 'inbound' | 'outbound';
  mode: Mode;
  serviceAccounts: readonly string[];
  sni: string;
  meshExternal: boolean;
  serviceMtlsMode: MtlsMode;
  isDrWithSelector: boolean;
  registry: string;
}

/** applyTrafficPolicy. */
export function applyTrafficPolicy(ctx: GenContext, w: ClusterWrapper, svc: Service | undefined, o: ApplyOpts): void {
  const p = o.policy ?? {};
  const cp = p.connectionPool ?? {};
  if (o.direction !== 'inbound' && shouldH2Upgrade(ctx, o.port, cp)) setH2(w);
  applyConnectionPool(ctx, w, cp, p.retryBudget);
  if (o.direction !== 'inbound' && svc) {
    applyOutlierDetection(ctx, svc, w.c, p.outlierDetection);
    applyLoadBalancer(ctx, svc, w.c, p.loadBalancer);
    if (o.mode !== 'sni-dnat') {
      const choice = upstreamTlsSettings(p.tls, o.serviceAccounts, o.sni, ctx.mesh.enableAutoMtls, o.meshExternal, o.serviceMtlsMode);
      applyUpstreamTls(ctx, w, choice, { isDrWithSelector: o.isDrWithSelector, registry: o.registry, serviceAccounts: o.serviceAccounts });
      applyProxyProtocol(w, p.proxyProtocol);
    }
  }
  if (w.c.type === 'ORIGINAL_DST') w.c.lbPolicy = 'CLUSTER_PROVIDED';
}
