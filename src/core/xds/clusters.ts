// CDS (cluster.go, cluster_builder.go, cluster_traffic_policy.go, cluster_tls.go; spec §2.6,
// §4.4): outbound clusters per service port and DestinationRule subset with the rule's traffic
// policy (connection pool, outlier detection, load balancer, TLS and auto-mTLS), BlackHole,
// Passthrough and InboundPassthrough clusters, inbound clusters, and the SNI-DNAT clusters of
// AUTO_PASSTHROUGH gateways.
import type { Json } from './types.ts';
import type { GenContext } from './context.ts';
import type { ClientTLSSettings, Subset, TrafficPolicy } from '../config/api/networking.ts';
import type { ConsolidatedDestRule, DestinationRuleConfig, Service } from './pushContext.ts';
import { configInfoPath } from './pushContext.ts';
import { scopeDestinationRule } from './scope.ts';
import { dnsSrvSubsetKey, inboundClusterName, subsetKey, BLACKHOLE_CLUSTER, PASSTHROUGH_CLUSTER, INBOUND_PASSTHROUGH_CLUSTER } from './names.ts';
import { isHttp, isHttp2, isTcp, isUnsupported } from './protocol.ts';
import { durationJson, durationSeconds } from './duration.ts';
import { HTTP_PROTOCOL_OPTIONS_KEY, HTTP_PROTOCOL_OPTIONS_TYPE, RAW_BUFFER_SOCKET, TCP_CLUSTER_MX, UPSTREAM_TLS_TYPE } from './filters.ts';
import { sdsSecretConfig, credentialSdsConfig, credentialSdsConfigs, SDS_DEFAULT, SDS_ROOT, orderCommon } from './tlsContext.ts';
import { localityLbEndpoints, effectiveLocalitySetting } from './endpoints.ts';
import { namespaceMtlsMode } from './peerAuthn.ts';
import { isObj, str } from '../document/read.ts';
import { isIPv4, isIPv6, selectDnsLookupFamily } from './net.ts';
import type { ServicePortInfo } from '../config/services.ts';
import type { MtlsMode } from './pushContext.ts';
import { builtin, mark, ref } from './provenance.ts';
import { ALLOW_ANY_DYNAMIC_DNS_CLUSTER, dnsCacheConfig } from './dynamicDns.ts';
import type { ServiceTarget } from './proxy.ts';
import { parseProtocol as parseProtocolSafe } from '../config/protocol.ts';
import { listAt } from '../document/maps.ts';
import { forcesSupportUnhealthyEndpoints, supportsUnhealthyEndpoints } from './unhealthy.ts';

const MAX_UINT32 = 4294967295;

type Mode = 'outbound' | 'sni-dnat';

/** A cluster being built, with its HTTP protocol options kept apart until the end (clusterWrapper). */
interface ClusterWrapper {
  c: Json;
  httpOptions?: Json;
}

function dnsLookupFamily(ctx: GenContext): string {
  return selectDnsLookupFamily(ctx.proxy.ipAddresses, ctx.features.ISTIO_DUAL_STACK);
}

/** convertResolution. */
export function discoveryType(ctx: GenContext, svc: Service): string {
  switch (svc.resolution) {
    case 'ClientSideLB':
      return 'EDS';
    case 'DNS':
      return 'STRICT_DNS';
    case 'DNSRoundRobin':
      return 'LOGICAL_DNS';
    case 'Passthrough':
      if (ctx.proxy.type === 'router') return 'EDS';
      if (svc.registry === 'Kubernetes' && ctx.features.PILOT_ENABLE_EDS_FOR_HEADLESS_SERVICES) return 'EDS';
      return 'ORIGINAL_DST';
    default:
      return 'EDS';
  }
}

function setH2(w: ClusterWrapper): void {
  w.httpOptions ??= {};
  if (!w.httpOptions.explicitHttpConfig && !w.httpOptions.useDownstreamProtocolConfig) w.httpOptions.explicitHttpConfig = { http2ProtocolOptions: {} };
}

function isH2Cluster(w: ClusterWrapper): boolean {
  return isObj(w.httpOptions?.explicitHttpConfig) && (w.httpOptions?.explicitHttpConfig as Json).http2ProtocolOptions !== undefined;
}

function setUseDownstream(w: ClusterWrapper): void {
  w.httpOptions ??= {};
  const explicit = isObj(w.httpOptions.explicitHttpConfig) ? w.httpOptions.explicitHttpConfig : undefined;
  const h1 = explicit && isObj(explicit.httpProtocolOptions) ? explicit.httpProtocolOptions : {};
  delete w.httpOptions.explicitHttpConfig;
  w.httpOptions.useDownstreamProtocolConfig = { httpProtocolOptions: h1, http2ProtocolOptions: {} };
}

function serviceMetadata(svc: Service): Json {
  return { host: svc.hostname, name: svc.name, namespace: svc.namespace };
}

function istioMetadata(c: Json): Json {
  const md = (c.metadata ??= { filterMetadata: {} }) as Json;
  const fm = md.filterMetadata as Json;
  return (fm.istio ??= {}) as Json;
}

/** buildCluster: the cluster's type, name, endpoints for DNS/STATIC clusters, protocol options and telemetry metadata. */
function buildCluster(
  ctx: GenContext,
  name: string,
  type: string,
  endpoints: Json[] | undefined,
  direction: 'inbound' | 'outbound',
  port: ServicePortInfo | undefined,
  svc: Service | undefined,
  inbound: readonly ServiceTarget[],
): ClusterWrapper | undefined {
  const c: Json = { name, type };
  if (type === 'STRICT_DNS' || type === 'LOGICAL_DNS') {
    c.dnsLookupFamily = dnsLookupFamily(ctx);
    c.typedDnsResolverConfig = {
      name: 'envoy.network.dns_resolver.cares',
      typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.network.dns_resolver.cares.v3.CaresDnsResolverConfig', udpMaxQueries: 100 },
    };
    c.dnsJitter = '0.100s';
    c.dnsRefreshRate = ctx.mesh.dnsRefreshRate;
    c.respectDnsTtl = true;
  }
  if (type === 'STRICT_DNS' || type === 'LOGICAL_DNS' || type === 'STATIC') {
    if (!endpoints || endpoints.length === 0) return undefined;
    c.loadAssignment = { clusterName: name, endpoints };
  }
  if (type === 'ORIGINAL_DST' && svc?.passthroughTargetPorts && port && svc.passthroughTargetPorts[port.port] !== undefined) {
    c.originalDstLbConfig = { upstreamPortOverride: svc.passthroughTargetPorts[port.port] };
  }
  c.commonLbConfig = {};
  c.altStatName = `${name};`;
  const w: ClusterWrapper = { c };
  if (port) {
    if (isHttp2(port.protocol)) setH2(w);
    else if ((ctx.proxy.type === 'sidecar' || ctx.proxy.type === 'waypoint') && isUnsupported(port.protocol)) setUseDownstream(w);
  }
  if (ctx.features.PILOT_ENABLE_TELEMETRY_LABEL) {
    if (direction === 'outbound' && svc) istioMetadata(c).services = [serviceMetadata(svc)];
    if (direction === 'inbound' && inbound.length > 0 && !(inbound[0] as ServiceTarget).service.meshExternal && port) {
      const list: Json[] = [];
      const have = new Set<string>();
      for (const t of inbound) {
        if (t.port.port !== port.port || have.has(t.service.hostname)) continue;
        have.add(t.service.hostname);
        list.push(serviceMetadata(t.service));
      }
      istioMetadata(c).services = list;
    }
  }
  return w;
}

// ---- traffic policy --------------------------------------------------------------------

/** The parts of a TrafficPolicy as parsed (raw sub-objects). */
interface Policy {
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
function portLevelPolicy(tp: TrafficPolicy | undefined, port: number): { policy: Policy | undefined; portLevel: boolean } {
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
function mergeSubsetPolicy(original: Policy | undefined, subset: TrafficPolicy | undefined, port: number): Policy | undefined {
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
function applyMeshDefaults(ctx: GenContext, p: Policy | undefined): Policy | undefined {
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
function applyConnectionPool(ctx: GenContext, w: ClusterWrapper, cp: Json, retryBudget: Json | undefined): void {
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

function shouldH2Upgrade(ctx: GenContext, port: ServicePortInfo | undefined, cp: Json): boolean {
  const http = isObj(cp.http) ? cp.http : undefined;
  if (http) {
    if (http.useClientProtocol === true) return false;
    if (http.h2UpgradePolicy === 'UPGRADE') return true;
    if (http.h2UpgradePolicy === 'DO_NOT_UPGRADE') return false;
  }
  if (port && !isHttp(port.protocol)) return false;
  return ctx.mesh.h2UpgradePolicy === 'UPGRADE';
}

function applyOutlierDetection(ctx: GenContext, svc: Service, c: Json, od: Json | undefined): void {
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
function applyLoadBalancer(ctx: GenContext, svc: Service, c: Json, lb: Json | undefined): void {
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

// ---- TLS -------------------------------------------------------------------------------

interface TlsChoice {
  tls: ClientTLSSettings | undefined;
  auto: boolean;
}

function istioMutual(sans: readonly string[], sni: string, insecure?: boolean): ClientTLSSettings {
  return {
    mode: 'ISTIO_MUTUAL',
    clientCertificate: '',
    privateKey: '',
    caCertificates: '',
    credentialName: '',
    subjectAltNames: sans,
    sni,
    ...(insecure !== undefined ? { insecureSkipVerify: insecure } : { insecureSkipVerify: undefined }),
    caCrl: '',
  };
}

/** buildUpstreamTLSSettings: the DR's TLS, or auto-mTLS (ISTIO_MUTUAL) when the service accepts mTLS. */
function upstreamTlsSettings(
  tls: ClientTLSSettings | undefined,
  serviceAccounts: readonly string[],
  sni: string,
  autoMtls: boolean,
  meshExternal: boolean,
  mode: MtlsMode,
): TlsChoice {
  if (tls) {
    if (tls.mode === 'DISABLE' || tls.mode === 'SIMPLE' || tls.mode !== 'ISTIO_MUTUAL') return { tls, auto: false };
    return { tls: istioMutual(tls.subjectAltNames.length > 0 ? tls.subjectAltNames : serviceAccounts, tls.sni || sni, tls.insecureSkipVerify), auto: false };
  }
  if (meshExternal || !autoMtls || mode === 'UNKNOWN' || mode === 'DISABLE') return { tls: undefined, auto: false };
  return { tls: istioMutual(serviceAccounts, sni), auto: true };
}

function setAutoSniAndSan(w: ClusterWrapper, tls: ClientTLSSettings): void {
  const insecure = tls.insecureSkipVerify === true;
  const autoSni = tls.sni === '';
  const autoSan = autoSni && tls.subjectAltNames.length === 0 && !insecure;
  if (autoSni || autoSan) {
    w.httpOptions ??= {};
    const u = (w.httpOptions.upstreamHttpProtocolOptions ??= {}) as Json;
    if (autoSni) u.autoSni = true;
    if (autoSan) u.autoSanValidation = true;
  }
}

/** buildUpstreamClusterTLSContext. */
function upstreamTlsContext(
  ctx: GenContext,
  w: ClusterWrapper,
  tls: ClientTLSSettings,
  opts: { isDrWithSelector: boolean; registry: string; serviceAccounts: readonly string[] },
): Json | undefined {
  const privileged = tls.credentialName !== '' && !tls.credentialName.startsWith('configmap://');
  if (privileged && ctx.proxy.type === 'sidecar' && !opts.isDrWithSelector && (tls.mode === 'SIMPLE' || tls.mode === 'MUTUAL')) return undefined;
  if (tls.mode === 'DISABLE') return undefined;
  const common: Json = { tlsParams: { tlsMinimumProtocolVersion: 'TLSv1_2', tlsMaximumProtocolVersion: 'TLSv1_3' } };
  const ctxJson: Json = { '@type': UPSTREAM_TLS_TYPE, commonTlsContext: common };
  if (tls.mode === 'ISTIO_MUTUAL') {
    common.tlsCertificateSdsSecretConfigs = [sdsSecretConfig(SDS_DEFAULT)];
    const dvc: Json = {};
    if (tls.subjectAltNames.length > 0) dvc.matchSubjectAltNames = tls.subjectAltNames.map((s) => ({ exact: s }));
    common.combinedValidationContext = { defaultValidationContext: dvc, validationContextSdsSecretConfig: sdsSecretConfig(SDS_ROOT) };
    ctxJson.sni = tls.sni || (w.c.name as string);
    const mx = ctx.features.PILOT_ENABLE_METADATA_EXCHANGE;
    common.alpnProtocols = isH2Cluster(w) ? (mx ? ['istio-peer-exchange', 'istio', 'h2'] : ['istio', 'h2']) : mx ? ['istio-peer-exchange', 'istio'] : ['istio'];
  } else {
    if (tls.sni !== '') ctxJson.sni = tls.sni;
    setAutoSniAndSan(w, tls);
    let sans = tls.subjectAltNames;
    if (opts.registry === 'External' && sans.length === 0) sans = opts.serviceAccounts;
    if (tls.credentialName !== '') {
      if (tls.mode === 'MUTUAL') common.tlsCertificateSdsSecretConfigs = credentialSdsConfigs([tls.credentialName], ctx.push.externalSds);
      if (tls.insecureSkipVerify !== true) {
        const dvc: Json = {};
        if (sans.length > 0) dvc.matchSubjectAltNames = sans.map((s) => ({ exact: s }));
        common.combinedValidationContext = {
          defaultValidationContext: dvc,
          validationContextSdsSecretConfig: credentialSdsConfig(`${tls.credentialName}-cacert`, ctx.push.externalSds),
        };
      }
    } else {
      const ca = tls.caCertificates || 'system';
      if (tls.mode === 'MUTUAL') {
        if (tls.clientCertificate === '' || tls.privateKey === '') return undefined;
        common.tlsCertificateSdsSecretConfigs = [sdsSecretConfig(`file-cert:${tls.clientCertificate}~${tls.privateKey}`)];
      }
      if (tls.insecureSkipVerify === true) common.validationContext = {};
      else {
        const dvc: Json = {};
        if (sans.length > 0) dvc.matchSubjectAltNames = sans.map((s) => ({ exact: s }));
        if (tls.caCrl !== '') dvc.crl = { filename: tls.caCrl };
        common.combinedValidationContext = { defaultValidationContext: dvc, validationContextSdsSecretConfig: sdsSecretConfig(`file-root:${ca}`) };
      }
    }
    if (isH2Cluster(w)) common.alpnProtocols = ['h2'];
  }
  ctxJson.commonTlsContext = orderCommon(common);
  return ctxJson;
}

function applyUpstreamTls(
  ctx: GenContext,
  w: ClusterWrapper,
  choice: TlsChoice,
  opts: { isDrWithSelector: boolean; registry: string; serviceAccounts: readonly string[] },
): void {
  if (!choice.tls) return;
  const tlsCtx = upstreamTlsContext(ctx, w, choice.tls, opts);
  if (tlsCtx) w.c.transportSocket = { name: 'envoy.transport_sockets.tls', typedConfig: tlsCtx };
  const autoDetected = choice.tls.mode === 'ISTIO_MUTUAL' && choice.auto;
  if (w.c.type !== 'ORIGINAL_DST' && autoDetected) {
    const ts = w.c.transportSocket;
    delete w.c.transportSocket;
    w.c.transportSocketMatches = [
      { name: 'tlsMode-istio', match: { tlsMode: 'istio' }, transportSocket: ts },
      { name: 'tlsMode-disabled', match: {}, transportSocket: RAW_BUFFER_SOCKET },
    ];
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

interface ApplyOpts {
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
function applyTrafficPolicy(ctx: GenContext, w: ClusterWrapper, svc: Service | undefined, o: ApplyOpts): void {
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

/** BestEffortInferServiceMTLSMode. */
function inferServiceMtlsMode(ctx: GenContext, tp: TrafficPolicy | undefined, svc: Service, port: number): MtlsMode {
  if (svc.meshExternal) return 'UNKNOWN';
  const lb = tp?.loadBalancer;
  if (svc.resolution === 'Passthrough' || (lb && str(lb.simple) === 'PASSTHROUGH')) {
    // push_context.go BestEffortInferServiceMTLSMode: ServiceEndpointsByPort.
    const eps = ctx.push.serviceEndpointsByPort(svc, port);
    if (eps.length === 0) return 'DISABLE';
    if (eps.some((e) => e.ep.tlsMode === 'disabled')) return 'DISABLE';
  }
  const m = namespaceMtlsMode(ctx.push, svc.namespace);
  return m !== 'UNKNOWN' ? m : 'PERMISSIVE';
}

function edsConfig(c: Json): void {
  if (c.type !== 'EDS') return;
  c.edsClusterConfig = { edsConfig: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' }, serviceName: c.name };
}

function metadataExchange(ctx: GenContext, c: Json): void {
  if (ctx.features.PILOT_ENABLE_METADATA_EXCHANGE) c.filters = [...((c.filters as Json[] | undefined) ?? []), TCP_CLUSTER_MX];
}

function addConfigMetadata(c: Json, dr: DestinationRuleConfig): void {
  istioMetadata(c).config = configInfoPath(dr.meta);
}

function addAlpnOverride(c: Json, mode: string | undefined): void {
  if (mode !== 'SIMPLE' && mode !== 'MUTUAL') return;
  istioMetadata(c).alpn_override = 'false';
}

/** Cluster fields in proto field order. */
const CLUSTER_ORDER = [
  'name',
  'type',
  'edsClusterConfig',
  'connectTimeout',
  'lbPolicy',
  'circuitBreakers',
  'dnsRefreshRate',
  'dnsLookupFamily',
  'outlierDetection',
  'cleanupInterval',
  'upstreamBindConfig',
  'ringHashLbConfig',
  'transportSocket',
  'metadata',
  'commonLbConfig',
  'altStatName',
  'upstreamConnectionOptions',
  'loadAssignment',
  'originalDstLbConfig',
  'typedExtensionProtocolOptions',
  'leastRequestLbConfig',
  'clusterType',
  'respectDnsTtl',
  'filters',
  'transportSocketMatches',
  'maglevLbConfig',
  'typedDnsResolverConfig',
  'roundRobinLbConfig',
  'dnsJitter',
];

/** clusterWrapper.build: HTTP protocol options into typed_extension_protocol_options, fields ordered. */
function finish(w: ClusterWrapper): Json {
  if (w.httpOptions) {
    const ho = w.httpOptions;
    if (!ho.explicitHttpConfig && !ho.useDownstreamProtocolConfig) ho.explicitHttpConfig = { httpProtocolOptions: {} };
    const ordered: Json = { '@type': HTTP_PROTOCOL_OPTIONS_TYPE };
    for (const k of ['commonHttpProtocolOptions', 'upstreamHttpProtocolOptions', 'explicitHttpConfig', 'useDownstreamProtocolConfig'])
      if (ho[k] !== undefined) ordered[k] = ho[k];
    w.c.typedExtensionProtocolOptions = { [HTTP_PROTOCOL_OPTIONS_KEY]: ordered };
  }
  const out: Json = {};
  for (const k of CLUSTER_ORDER) if (w.c[k] !== undefined) out[k] = w.c[k];
  for (const k of Object.keys(w.c)) if (!(k in out)) out[k] = w.c[k];
  if (out.type === 'STATIC') delete out.type;
  if (out.lbPolicy === 'ROUND_ROBIN') delete out.lbPolicy;
  for (const m of [w.c]) for (const r of marksCarry.get(m) ?? []) mark(out, r);
  return out;
}

const marksCarry = new WeakMap<Json, ReturnType<typeof ref>[]>();

function carry(c: Json, ...refs: ReturnType<typeof ref>[]): void {
  const l = marksCarry.get(c) ?? [];
  l.push(...refs);
  marksCarry.set(c, l);
}

function drRefs(cdr: ConsolidatedDestRule | undefined): ReturnType<typeof ref>[] {
  return cdr ? cdr.from.map((m) => ref(m.resource.key)) : [];
}

/** applyDestinationRule plus subset clusters, for one service port. */
function outboundPortClusters(ctx: GenContext, svc: Service, port: ServicePortInfo, mode: Mode): Json[] {
  const cdr = scopeDestinationRule(ctx.scope, 'outbound', ctx.proxy, svc.hostname);
  const dr = cdr?.rule;
  const name = mode === 'sni-dnat' ? dnsSrvSubsetKey('outbound', '', svc.hostname, port.port) : subsetKey('outbound', '', svc.hostname, port.port);
  const type = discoveryType(ctx, svc);
  const dnsEndpoints = type === 'STRICT_DNS' || type === 'LOGICAL_DNS' ? localityLbEndpoints(ctx, svc, port.port, '', true) : undefined;
  const w = buildCluster(ctx, name, type, dnsEndpoints, 'outbound', port, svc, []);
  if (!w) return [];
  carry(w.c, ref(svc.resource.key), ...drRefs(cdr));
  const tp = dr?.spec.trafficPolicy;
  const policy = applyMeshDefaults(ctx, portLevelPolicy(tp, port.port).policy);
  const serviceAccounts = ctx.push.serviceAccounts(svc);
  const base: ApplyOpts = {
    policy,
    port,
    direction: 'outbound',
    mode,
    serviceAccounts: mode === 'outbound' ? serviceAccounts : [],
    sni: mode === 'outbound' ? dnsSrvSubsetKey('outbound', '', svc.hostname, port.port) : '',
    meshExternal: mode === 'outbound' ? svc.meshExternal : false,
    serviceMtlsMode: mode === 'outbound' ? inferServiceMtlsMode(ctx, tp, svc, port.port) : 'UNKNOWN',
    isDrWithSelector: dr?.spec.workloadSelector !== undefined,
    registry: mode === 'outbound' ? svc.registry : '',
  };
  applyTrafficPolicy(ctx, w, svc, base);
  edsConfig(w.c);
  metadataExchange(ctx, w.c);
  if (svc.meshExternal && mode === 'outbound') istioMetadata(w.c).external = true;
  if (dr) {
    addConfigMetadata(w.c, dr);
    addAlpnOverride(w.c, policy?.tls?.mode);
  }
  const out = [finish(w)];
  for (const subset of dr?.spec.subsets ?? []) {
    // buildSubsetCluster takes the default cluster's type after its traffic policy was applied
    // (a PASSTHROUGH load balancer made it ORIGINAL_DST), not the discovery type.
    const sc = subsetCluster(ctx, svc, port, mode, subset, dr as DestinationRuleConfig, base, typeof w.c.type === 'string' ? w.c.type : type);
    if (sc) {
      carry(sc.c, ref(svc.resource.key), ...drRefs(cdr), ref(dr?.meta.resource.key ?? '', `spec.subsets[${dr?.spec.subsets.indexOf(subset)}]`));
      out.push(finish(sc));
    }
  }
  return out;
}

function subsetCluster(
  ctx: GenContext,
  svc: Service,
  port: ServicePortInfo,
  mode: Mode,
  subset: Subset,
  dr: DestinationRuleConfig,
  base: ApplyOpts,
  parentType: string,
): ClusterWrapper | undefined {
  const name =
    mode === 'outbound' ? subsetKey('outbound', subset.name, svc.hostname, port.port) : dnsSrvSubsetKey('outbound', subset.name, svc.hostname, port.port);
  const sni = mode === 'outbound' ? dnsSrvSubsetKey('outbound', subset.name, svc.hostname, port.port) : '';
  const passthrough = isObj(subset.trafficPolicy?.loadBalancer) && str(subset.trafficPolicy?.loadBalancer?.simple) === 'PASSTHROUGH';
  const type = passthrough ? 'ORIGINAL_DST' : parentType;
  const endpoints = !passthrough && type !== 'EDS' ? localityLbEndpoints(ctx, svc, port.port, subset.name, true) : undefined;
  const w = buildCluster(ctx, name, type, endpoints, 'outbound', port, svc, []);
  if (!w) return undefined;
  const policy = mergeSubsetPolicy(base.policy, subset.trafficPolicy, port.port);
  applyTrafficPolicy(ctx, w, svc, {
    ...base,
    policy,
    sni,
    serviceMtlsMode: mode === 'outbound' ? inferServiceMtlsMode(ctx, subset.trafficPolicy, svc, port.port) : base.serviceMtlsMode,
    isDrWithSelector: dr.spec.workloadSelector !== undefined,
  });
  edsConfig(w.c);
  metadataExchange(ctx, w.c);
  addConfigMetadata(w.c, dr);
  istioMetadata(w.c).subset = subset.name;
  addAlpnOverride(w.c, policy?.tls?.mode);
  return w;
}

/** buildOutboundClusters. */
export function outboundClusters(ctx: GenContext, services: readonly Service[], mode: Mode = 'outbound'): Json[] {
  const out: Json[] = [];
  for (const svc of services) {
    if (svc.resolution === 'Alias') continue;
    if (mode === 'sni-dnat' && svc.meshExternal) continue;
    if (svc.hostname.startsWith('*') && svc.resolution === 'DynamicDNS') {
      // TODO: dynamic forward proxy clusters for DYNAMIC_DNS wildcard ServiceEntries.
      continue;
    }
    for (const port of svc.ports) {
      if (port.protocol === 'UDP') continue;
      out.push(...outboundPortClusters(ctx, svc, port, mode));
    }
  }
  return out;
}

export function blackHoleCluster(ctx: GenContext): Json {
  return mark({ name: BLACKHOLE_CLUSTER, connectTimeout: ctx.mesh.connectTimeout, altStatName: `${BLACKHOLE_CLUSTER};` }, builtin('BlackHoleCluster'));
}

function passthroughHttpOptions(): Json {
  return {
    [HTTP_PROTOCOL_OPTIONS_KEY]: {
      '@type': HTTP_PROTOCOL_OPTIONS_TYPE,
      commonHttpProtocolOptions: { idleTimeout: '300s' },
      useDownstreamProtocolConfig: { httpProtocolOptions: {}, http2ProtocolOptions: {} },
    },
  };
}

export function passthroughCluster(ctx: GenContext): Json {
  const w: ClusterWrapper = {
    c: {
      name: PASSTHROUGH_CLUSTER,
      type: 'ORIGINAL_DST',
      connectTimeout: ctx.mesh.connectTimeout,
      lbPolicy: 'CLUSTER_PROVIDED',
      typedExtensionProtocolOptions: passthroughHttpOptions(),
      altStatName: `${PASSTHROUGH_CLUSTER};`,
    },
  };
  const cp = isObj(ctx.mesh.defaultTrafficPolicy?.connectionPool) ? (ctx.mesh.defaultTrafficPolicy?.connectionPool as Json) : {};
  applyConnectionPool(ctx, w, cp, undefined);
  metadataExchange(ctx, w.c);
  const out = finish(w);
  return mark(out, builtin('PassthroughCluster (outbound traffic policy ALLOW_ANY)'));
}

/** buildAllowAnyDFPCluster: where the dynamic forward proxy sends plaintext HTTP to unknown hosts (ALLOW_ANY_DYNAMIC_DNS). */
export function allowAnyDynamicDnsCluster(ctx: GenContext): Json {
  const w: ClusterWrapper = {
    c: {
      name: ALLOW_ANY_DYNAMIC_DNS_CLUSTER,
      clusterType: {
        name: 'envoy.clusters.dynamic_forward_proxy',
        typedConfig: {
          '@type': 'type.googleapis.com/envoy.extensions.clusters.dynamic_forward_proxy.v3.ClusterConfig',
          dnsCacheConfig: dnsCacheConfig(ctx),
          allowInsecureClusterOptions: true,
        },
      },
      connectTimeout: ctx.mesh.connectTimeout,
      lbPolicy: 'CLUSTER_PROVIDED',
      typedExtensionProtocolOptions: passthroughHttpOptions(),
      altStatName: `${ALLOW_ANY_DYNAMIC_DNS_CLUSTER};`,
    },
  };
  // Istio's high circuit-breaker defaults, as on PassthroughCluster (an empty pool, not the mesh's).
  applyConnectionPool(ctx, w, {}, undefined);
  metadataExchange(ctx, w.c);
  return mark(finish(w), builtin('AllowAnyDynamicDNSCluster (outbound traffic policy ALLOW_ANY_DYNAMIC_DNS)'));
}

export function inboundPassthroughCluster(ctx: GenContext): Json {
  const c = passthroughCluster(ctx);
  // cluster_builder.go:761-762: only the name changes; AltStatName stays buildDefaultPassthroughCluster's
  // DelimitedStatsPrefix(PassthroughCluster) (:803).
  const out: Json = { ...c, name: INBOUND_PASSTHROUGH_CLUSTER };
  delete out.filters;
  const v4 = ctx.proxy.ipAddresses.length === 0 || ctx.proxy.ipAddresses.some(isIPv4);
  const v6 = ctx.proxy.ipAddresses.some(isIPv6);
  out.upstreamBindConfig = {
    sourceAddress: { address: v4 ? '127.0.0.6' : '::6', portValue: 0 },
    ...(v4 && v6 ? { extraSourceAddresses: [{ address: { address: '::6', portValue: 0 } }] } : {}),
  };
  const ordered: Json = {};
  for (const k of CLUSTER_ORDER) if (out[k] !== undefined) ordered[k] = out[k];
  return mark(ordered, builtin('InboundPassthroughCluster'));
}

/** buildInboundCluster: ORIGINAL_DST to the pod (PASSTHROUGH), or STATIC to localhost. */
function inboundCluster(ctx: GenContext, clusterPort: number, bind: string, targets: readonly ServiceTarget[]): Json | undefined {
  const inst = targets[0];
  if (!inst) return undefined;
  const endpoints =
    bind !== ''
      ? [
          {
            lbEndpoints: [
              {
                endpoint: {
                  address: bind.startsWith('unix://') ? { pipe: { path: bind.slice(7) } } : { socketAddress: { address: bind, portValue: inst.targetPort } },
                },
              },
            ],
          },
        ]
      : undefined;
  const type = endpoints ? 'STATIC' : 'ORIGINAL_DST';
  const name = inboundClusterName(clusterPort);
  const w = buildCluster(ctx, name, type, endpoints, 'inbound', inst.port, inst.service, targets);
  if (!w) return undefined;
  if (type === 'ORIGINAL_DST') w.c.cleanupInterval = '9223372035s';
  let policy: Policy | undefined;
  const cdr = scopeDestinationRule(ctx.scope, 'inbound', ctx.proxy, inst.service.hostname);
  if (cdr?.rule.spec.trafficPolicy) {
    policy = portLevelPolicy(cdr.rule.spec.trafficPolicy, inst.port.port).policy;
    addConfigMetadata(w.c, cdr.rule);
  }
  policy = applyMeshDefaults(ctx, policy);
  const sc = ctx.scope.sidecar?.spec;
  if (sc) {
    const ing = sc.ingress.find((i) => i.port?.number === clusterPort && isObj(i.connectionPool));
    const pool = ing ? (ing.connectionPool as Json) : isObj(sc.inboundConnectionPool) ? sc.inboundConnectionPool : undefined;
    if (pool) policy = { ...policy, connectionPool: pool };
  }
  applyTrafficPolicy(ctx, w, undefined, {
    policy,
    port: inst.port,
    direction: 'inbound',
    mode: 'outbound',
    serviceAccounts: [],
    sni: '',
    meshExternal: false,
    serviceMtlsMode: 'UNKNOWN',
    isDrWithSelector: false,
    registry: '',
  });
  if (bind !== '127.0.0.1' && bind !== '::1') {
    const v4 = ctx.proxy.ipAddresses.length === 0 || ctx.proxy.ipAddresses.some(isIPv4);
    w.c.upstreamBindConfig = { sourceAddress: { address: v4 ? '127.0.0.6' : '::6', portValue: 0 } };
  }
  carry(w.c, ...targets.map((t) => ref(t.service.resource.key)), ...drRefs(cdr));
  return finish(w);
}

/** buildInboundClusters: per target port, or per Sidecar ingress port. */
export function inboundClusters(ctx: GenContext): Json[] {
  const out: Json[] = [];
  const sc = ctx.scope.sidecar;
  const ingress = sc?.spec.ingress ?? [];
  if (ingress.length === 0) {
    if (ctx.proxy.interceptionMode === 'NONE') return out;
    const byPort = new Map<number, ServiceTarget[]>();
    for (const t of ctx.targets) {
      listAt(byPort, t.targetPort).push(t);
    }
    const bind = ctx.mesh.inboundTrafficPolicy === 'PASSTHROUGH' ? '' : (ctx.localhosts[0] as string);
    for (const [port, targets] of byPort) {
      const c = inboundCluster(ctx, port, bind, targets);
      if (c) out.push(c);
    }
    return out;
  }
  ingress.forEach((i, idx) => {
    const n = i.port?.number ?? 0;
    let endpointAddress = '';
    let port = 0;
    const de = i.defaultEndpoint;
    if (de.startsWith('unix://')) endpointAddress = de;
    else if (de !== '') {
      const colon = de.lastIndexOf(':');
      if (colon < 0) return;
      const host = de.slice(0, colon);
      port = Number(de.slice(colon + 1));
      if (!Number.isInteger(port)) return;
      if (host === '0.0.0.0') endpointAddress = ctx.proxy.ipAddresses.find(isIPv4) ?? '127.0.0.1';
      else if (host === '[::]') endpointAddress = ctx.proxy.ipAddresses.find(isIPv6) ?? '::1';
      else if (host === '127.0.0.1') endpointAddress = ctx.localhosts.find(isIPv4) ?? ctx.localhosts[0] ?? '';
      else if (host === '[::1]') endpointAddress = ctx.localhosts.find(isIPv6) ?? ctx.localhosts[0] ?? '';
    }
    const real = ctx.targets.find((t) => t.targetPort === n);
    const svc =
      real?.service ??
      ({
        hostname: `${sc?.meta.name}.${sc?.meta.namespace}`,
        name: sc?.meta.name ?? '',
        namespace: sc?.meta.namespace ?? '',
        meshExternal: true,
        resource: sc?.meta.resource,
      } as unknown as Service);
    const target: ServiceTarget = {
      service: svc,
      port: { name: i.port?.name ?? '', port: n, protocol: parseProtocolSafe(i.port?.protocol ?? ''), targetPort: port },
      targetPort: port,
    };
    const c = inboundCluster(ctx, n, endpointAddress, [target]);
    if (c) out.push(mark(c, ref(sc?.meta.resource.key ?? '', `spec.ingress[${idx}]`)));
  });
  return out;
}

/** Dedupe by name, first wins (normalizeClusters). */
export function normalizeClusters(clusters: readonly Json[]): Json[] {
  const seen = new Set<string>();
  const out: Json[] = [];
  for (const c of clusters) {
    const n = c.name as string;
    if (seen.has(n)) continue;
    seen.add(n);
    out.push(c);
  }
  return out;
}

// ---- waypoint inbound VIP clusters (cluster_waypoint.go) -------------------------------

const INTERNAL_UPSTREAM_TYPE = 'type.googleapis.com/envoy.extensions.transport_sockets.internal_upstream.v3.InternalUpstreamTransport';
const RAW_BUFFER_NAMED: Json = { name: 'raw_buffer', typedConfig: RAW_BUFFER_SOCKET.typedConfig };

/** util.WaypointInternalUpstreamTransportSocket: internal_upstream passing the original-dst and istio host metadata through. */
export function waypointInternalUpstreamSocket(inner: Json = RAW_BUFFER_NAMED): Json {
  return {
    name: 'internal_upstream',
    typedConfig: {
      '@type': INTERNAL_UPSTREAM_TYPE,
      passthroughMetadata: [
        { kind: { host: {} }, name: 'envoy.filters.listener.original_dst' },
        { kind: { host: {} }, name: 'istio' },
      ],
      transportSocket: inner,
    },
  };
}

/** buildWaypointInboundVIPCluster: one `inbound-vip|port|<tcp|http>[/subset]|host` cluster (EDS to the service's pods through connect_originate). */
function waypointVipCluster(
  ctx: GenContext,
  svc: Service,
  port: ServicePortInfo,
  subset: string,
  policy: Policy | undefined,
  dr: DestinationRuleConfig | undefined,
  refs: ReturnType<typeof ref>[],
): Json | undefined {
  const name = subsetKey('inbound-vip', subset, svc.hostname, port.port);
  const type = discoveryType(ctx, svc);
  const realSubset = subset.replace(/^(http|tcp)\/?/, '');
  const dnsEndpoints = type === 'STRICT_DNS' || type === 'LOGICAL_DNS' ? localityLbEndpoints(ctx, svc, port.port, realSubset, true) : undefined;
  const w = buildCluster(ctx, name, type, dnsEndpoints, 'outbound', port, svc, []);
  if (!w) return undefined;
  istioMetadata(w.c).services = [serviceMetadata(svc)];
  if (policy && dr) addConfigMetadata(w.c, dr);
  if (subset !== '') istioMetadata(w.c).subset = subset;
  const cp = policy?.connectionPool ?? {};
  applyConnectionPool(ctx, w, cp, policy?.retryBudget);
  if (shouldH2Upgrade(ctx, port, cp)) setH2(w);
  applyOutlierDetection(ctx, svc, w.c, policy?.outlierDetection);
  applyLoadBalancer(ctx, svc, w.c, policy?.loadBalancer);
  if (w.c.type === 'ORIGINAL_DST') w.c.lbPolicy = 'CLUSTER_PROVIDED';
  edsConfig(w.c);
  // buildWaypointTLSContext: only SIMPLE and MUTUAL originate TLS (ISTIO_MUTUAL is HBONE's job).
  let inner: Json = RAW_BUFFER_NAMED;
  const tls = policy?.tls;
  if (tls && (tls.mode === 'SIMPLE' || tls.mode === 'MUTUAL')) {
    const tc = upstreamTlsContext(ctx, w, tls, { isDrWithSelector: false, registry: svc.registry, serviceAccounts: ctx.push.serviceAccounts(svc) });
    if (tc) inner = { name: 'envoy.transport_sockets.tls', typedConfig: tc };
  }
  if (policy?.proxyProtocol) {
    const version = str(policy.proxyProtocol.version) === 'V2' ? 'V2' : undefined;
    inner = {
      name: 'envoy.transport_sockets.upstream_proxy_protocol',
      typedConfig: {
        '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.proxy_protocol.v3.ProxyProtocolUpstreamTransport',
        config: version ? { version } : {},
        transportSocket: inner,
      },
    };
  }
  delete w.c.transportSocketMatches;
  w.c.transportSocket = waypointInternalUpstreamSocket(inner);
  carry(w.c, ...refs);
  return finish(w);
}

/** buildWaypointInboundVIP: per owned service and non-UDP port, a `tcp` and/or `http` cluster by protocol, and the same per DestinationRule subset. */
export function waypointInboundVipClusters(ctx: GenContext, services: readonly Service[]): Json[] {
  const out: Json[] = [];
  for (const svc of services) {
    if (svc.resolution === 'DynamicDNS') continue; // dynamic forward proxy clusters are not generated (see generate notes)
    const cdr = scopeDestinationRule(ctx.scope, 'inbound', ctx.proxy, svc.hostname);
    const dr = cdr?.rule;
    const refs = [ref(svc.resource.key), ...drRefs(cdr)];
    for (const port of svc.ports) {
      if (port.protocol === 'UDP') continue;
      const tcp = isUnsupported(port.protocol) || isTcp(port.protocol);
      const http = isUnsupported(port.protocol) || isHttp(port.protocol);
      const policy = portLevelPolicy(dr?.spec.trafficPolicy, port.port).policy;
      const push = (c: Json | undefined) => {
        if (c) out.push(c);
      };
      if (tcp) push(waypointVipCluster(ctx, svc, port, 'tcp', policy, dr, refs));
      if (http) push(waypointVipCluster(ctx, svc, port, 'http', policy, dr, refs));
      for (const ss of dr?.spec.subsets ?? []) {
        const sp = mergeSubsetPolicy(policy, ss.trafficPolicy, port.port);
        const srefs = [...refs, ref(dr?.meta.resource.key ?? '', `spec.subsets[${dr?.spec.subsets.indexOf(ss)}]`)];
        if (tcp) push(waypointVipCluster(ctx, svc, port, `tcp/${ss.name}`, sp, dr, srefs));
        if (http) push(waypointVipCluster(ctx, svc, port, `http/${ss.name}`, sp, dr, srefs));
      }
    }
  }
  return out;
}
