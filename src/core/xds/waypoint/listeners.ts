// A waypoint's listeners (pilot/pkg/networking/core/listener_waypoint.go buildWaypointInbound):
// `connect_terminate` (0.0.0.0:15008, HBONE: mTLS + HTTP/2 CONNECT to the main_internal
// cluster), `main_internal` (an internal listener whose filter chain matcher sends a service
// VIP and port to the service's chain, and a bound workload's address to `direct-tcp` /
// `direct-http`), and `connect_originate` (an internal listener that tunnels to the backend's
// ztunnel over HBONE). Service chains are named after their cluster
// (`inbound-vip|<port>|<tcp|http>|<host>`) and carry the service's authorization policies.
import type { Json } from '../types.ts';
import type { GenContext } from '../context.ts';
import type { Service, VirtualServiceConfig } from '../pushContext.ts';
import type { RouteDestination, TCPRoute, TLSRoute } from '../../config/api/networking.ts';
import type { ServicePortInfo } from '../../config/services.ts';
import {
  DOWNSTREAM_TLS_TYPE,
  GRPC_STATS,
  GRPC_WEB,
  FAULT,
  CORS,
  HCM_NAME,
  HCM_TYPE,
  HTTP_INSPECTOR,
  HTTP_INSPECTOR_NAME,
  ORIGINAL_DST,
  TCP_LISTENER_MX,
  TCP_PROXY_NAME,
  TCP_PROXY_TYPE,
  TLS_INSPECTOR,
  TLS_INSPECTOR_NAME,
  networkFilter,
  routerFilter,
} from '../filters.ts';
import { isHttp, isHttp2, isTls, isUnsupported } from '../protocol.ts';
import { hcmFilter, proxyHeaders } from '../listeners/hcm.ts';
import { listenerPredicateExclude } from '../listeners/inbound.ts';
import { buildAddress, additionalAddresses } from '../listeners/common.ts';
import { subsetKey, UNKNOWN_SERVICE_CLUSTER } from '../names.ts';
import { scopeDestinationRule } from '../scope.ts';
import { durationJson } from '../duration.ts';
import { cidrRange } from '../net.ts';
import { defaultOutboundRoute, isCatchAllRoute, translateRoute, type RouteOptions } from '../routes/translate.ts';
import { hashForDestination, MAX_DIRECT_RESPONSE_BODY } from '../routes/sidecar.ts';
import { builtin, mark, ref } from '../provenance.ts';
import { isObj } from '../../document/read.ts';
import { hostMatches } from '../../config/hosts.ts';
import type { ProxyAuthzFilters } from '../authz/index.ts';
import { waypointAuthzFor, waypointPolicyResources } from './policies.ts';
import type { WaypointResources } from './resources.ts';
import {
  CONNECT_AUTHORITY_HTTP,
  CONNECT_AUTHORITY_NETWORK,
  DESTINATION_IP_INPUT,
  DESTINATION_PORT_INPUT,
  IP_MATCHER_TYPE,
  WAYPOINT_DOWNSTREAM_PEER_METADATA,
  WAYPOINT_UPSTREAM_PEER_METADATA,
  appProtocolMatcher,
  connectCommonTlsContext,
  mapMatcher,
  toChain,
  toMatcher,
  waypointStatsFilter,
} from './filters.ts';
import { mapAt } from '../../document/maps.ts';

export const CONNECT_TERMINATE = 'connect_terminate';
export const MAIN_INTERNAL = 'main_internal';
export const CONNECT_ORIGINATE = 'connect_originate';
export const ENCAP = 'encap';
export const DIRECT_TCP_CHAIN = 'direct-tcp';
export const DIRECT_HTTP_CHAIN = 'direct-http';
export const HBONE_INBOUND_PORT = 15008;
const MESH_GATEWAYS: ReadonlySet<string> = new Set(['mesh']);

// ---- authorization per service -----------------------------------------------------------

/** The authn/authz filters of a chain: the waypoint's own policies, or those attached to `svc` (targetRefs). */
function waypointAuthz(ctx: GenContext, svc: Service | undefined): ProxyAuthzFilters {
  return waypointAuthzFor(ctx.push.view, ctx.proxy, svc);
}

/** The authz builders' filters are plain proto3-JSON objects. */
function asJson(filters: readonly object[]): Json[] {
  return filters as Json[];
}

function policyRefs(f: ProxyAuthzFilters, ctx: GenContext): ReturnType<typeof ref>[] {
  return waypointPolicyResources(ctx.push.view, f).map((r) => ref(r.key));
}

// ---- connect_terminate -------------------------------------------------------------------

/** buildWaypointInboundConnectTerminate. */
export function connectTerminateListener(ctx: GenContext): Json {
  const ph = proxyHeaders(ctx, 'inbound');
  const route = { match: { connectMatcher: {} }, route: { cluster: MAIN_INTERNAL, upgradeConfigs: [{ upgradeType: 'CONNECT', connectConfig: {} }] } };
  const filters: Json[] = [
    ...asJson(waypointAuthz(ctx, undefined).tcpRulesAsHttp),
    WAYPOINT_DOWNSTREAM_PEER_METADATA,
    CONNECT_AUTHORITY_HTTP,
    routerFilter(ph.suppressDebugHeaders),
  ];
  const hcm: Json = {
    '@type': HCM_TYPE,
    statPrefix: CONNECT_TERMINATE,
    routeConfig: { name: 'default', virtualHosts: [{ name: 'default', domains: ['*'], routes: [route] }] },
    httpFilters: filters,
    ...(ph.serverName !== '' ? { serverName: ph.serverName } : {}),
    useRemoteAddress: false,
    forwardClientCertDetails: ph.forwardClientCert,
    setCurrentClientCertDetails: { subject: true, dns: true, uri: true },
    upgradeConfigs: [{ upgradeType: 'CONNECT' }],
    streamIdleTimeout: '0s',
    http2ProtocolOptions: { maxConcurrentStreams: 100, allowConnect: true, connectionKeepalive: { interval: '10s', timeout: '20s' } },
  };
  const l: Json = {
    name: CONNECT_TERMINATE,
    address: buildAddress(ctx.wildcards[0] as string, HBONE_INBOUND_PORT),
    filterChains: [
      {
        name: 'default',
        transportSocket: {
          name: 'tls',
          typedConfig: { '@type': DOWNSTREAM_TLS_TYPE, commonTlsContext: connectCommonTlsContext(ctx.mesh), requireClientCertificate: true },
        },
        filters: [{ name: HCM_NAME, typedConfig: hcm }],
      },
    ],
    connectionBalanceConfig: { exactBalance: {} },
  };
  if (ctx.wildcards.length > 1) l.additionalAddresses = additionalAddresses(ctx.wildcards.slice(1), HBONE_INBOUND_PORT);
  return mark(l, builtin("HBONE termination: ztunnel tunnels traffic for the waypoint's services to port 15008"));
}

// ---- connect_originate -------------------------------------------------------------------

/** buildWaypointConnectOriginateListener: tunnel the inner connection to the backend's ztunnel. */
export function connectOriginateListener(): Json {
  const tcp: Json = {
    '@type': TCP_PROXY_TYPE,
    statPrefix: CONNECT_ORIGINATE,
    cluster: CONNECT_ORIGINATE,
    tunnelingConfig: { hostname: '%DOWNSTREAM_LOCAL_ADDRESS%' },
  };
  return mark(
    {
      name: CONNECT_ORIGINATE,
      useOriginalDst: false,
      internalListener: {},
      listenerFilters: [ORIGINAL_DST],
      filterChains: [{ filters: [networkFilter(TCP_PROXY_NAME, tcp)] }],
    },
    builtin("HBONE origination to the backend's ztunnel"),
  );
}

// ---- main_internal: chains --------------------------------------------------------------

interface ChainConfig {
  clusterName: string;
  port: { name: string; port: number; protocol: ServicePortInfo['protocol'] };
  svc: Service | undefined;
}

/** inboundChainConfig.StatPrefix for the waypoint's chains (bind 0.0.0.0, target port = service port). */
function statPrefix(cc: ChainConfig): string {
  return `inbound_0.0.0.0_${cc.port.port};`;
}

/** The waypoint's HTTP filters: [authz CUSTOM, jwt, RBAC] + HCM defaults + [upstream peer metadata, stats] + router. */
function waypointHttpFilters(ctx: GenContext, svc: Service | undefined, protocol: ServicePortInfo['protocol']): Json[] {
  const az = waypointAuthz(ctx, svc);
  const ph = proxyHeaders(ctx, 'inbound');
  const out: Json[] = asJson([...az.customHttp, ...az.jwtHttp, ...az.localHttp]);
  if (protocol === 'GRPC-Web') out.push(GRPC_WEB);
  out.push(GRPC_STATS, FAULT, CORS, WAYPOINT_UPSTREAM_PEER_METADATA);
  if (ctx.mesh.prometheusMetrics) out.push(waypointStatsFilter());
  out.push(routerFilter(ph.suppressDebugHeaders));
  return out;
}

/** getVirtualServiceForWaypoint: mesh VirtualServices in the waypoint's or the service's namespace whose hosts match the service. */
export function virtualServicesForWaypoint(ctx: GenContext, svc: Service): VirtualServiceConfig[] {
  const m = mapAt(vsCache, ctx);
  let out = m.get(svc);
  if (!out) {
    const all = ctx.scope.egressListeners[0]?.virtualServices ?? [];
    out = all.filter(
      (vs) => (vs.meta.namespace === ctx.proxy.configNamespace || vs.meta.namespace === svc.namespace) && vs.hosts.some((h) => hostMatches(h, svc.hostname)),
    );
    m.set(svc, out);
  }
  return out;
}

const vsCache = new WeakMap<GenContext, Map<Service, VirtualServiceConfig[]>>();

/** portToSubset: `http`/`tcp` by the service port's protocol, plus `/<subset>`. */
function portToSubset(service: Service | undefined, port: number, subset: string): string {
  const p = service?.ports.find((x) => x.port === port);
  if (!p) return subset !== '' ? `http/${subset}` : 'http';
  let s = isHttp(p.protocol) || isUnsupported(p.protocol) ? 'http' : 'tcp';
  if (subset !== '') s += `/${subset}`;
  return s;
}

/** getWaypointDestinationCluster: `inbound-vip` for services this waypoint owns, `outbound` for the others. */
export function waypointDestinationCluster(
  res: WaypointResources,
  dest: { host: string; subset: string; port?: { number: number } } | undefined,
  service: Service | undefined,
  listenerPort: number,
): string {
  if (!dest || dest.host === '') return UNKNOWN_SERVICE_CLUSTER;
  let port = listenerPort;
  if (dest.port !== undefined && dest.port.number !== 0) port = dest.port.number;
  else if (service && service.ports.length === 1) port = (service.ports[0] as ServicePortInfo).port;
  if (service && !res.byHostname.has(service.hostname)) return subsetKey('outbound', dest.subset, dest.host, port);
  return subsetKey('inbound-vip', portToSubset(service, port, dest.subset), dest.host, port);
}

function routeOptions(ctx: GenContext, res: WaypointResources): RouteOptions {
  return {
    isTls: false,
    mesh: ctx.mesh,
    lookupService: (h) => ctx.scope.servicesByHostname.get(h),
    lookupHash: (d) => hashForDestination(ctx.scope, ctx.proxy, d),
    lookupDestinationCluster: (d, s, p) => waypointDestinationCluster(res, d, s, p),
  };
}

/** waypointInboundRoute: a VirtualService's HTTP rules for the port; matches with sourceLabels are dropped (not supported in ambient). */
function waypointVsRoutes(ctx: GenContext, res: WaypointResources, vs: VirtualServiceConfig, port: number): Json[] {
  const out: Json[] = [];
  const opts = routeOptions(ctx, res);
  for (const h of vs.http) {
    if (h.match.length === 0) {
      const r = translateRoute(ctx.proxy, h, undefined, port, vs, MESH_GATEWAYS, opts);
      if (r) out.push(r);
      break;
    }
    let catchAll = false;
    for (const m of h.match) {
      if (Object.keys(m.sourceLabels).length > 0) continue;
      const r = translateRoute(ctx.proxy, h, m, port, vs, MESH_GATEWAYS, opts);
      if (r) {
        out.push(r);
        if (isCatchAllRoute(r)) {
          catchAll = true;
          break;
        }
      }
    }
    if (catchAll) break;
  }
  return out;
}

/** buildWaypointInboundHTTPRouteConfig: routes of the VirtualServices bound to the service, else one default route to the chain's cluster. */
export function waypointRouteConfig(ctx: GenContext, res: WaypointResources, cc: ChainConfig): Json {
  const svc = cc.svc;
  const domains = svc && svc.resolution === 'DynamicDNS' ? [svc.hostname] : ['*'];
  const vhostName = `inbound|http|${cc.port.port}`;
  if (svc) {
    const routes: Json[] = [];
    for (const vs of virtualServicesForWaypoint(ctx, svc)) {
      if (vs.http.length === 0) continue;
      routes.push(...waypointVsRoutes(ctx, res, vs, cc.port.port));
    }
    if (routes.length > 0) return { name: cc.clusterName, virtualHosts: [{ name: vhostName, domains, routes }], validateClusters: false };
  }
  // buildSidecarInboundHTTPRouteConfig for a waypoint: the outbound-style default route.
  const host = svc?.hostname ?? '';
  let hash: Json | undefined;
  if (svc) {
    const lb = scopeDestinationRule(ctx.scope, 'inbound', ctx.proxy, svc.hostname)?.rule.spec.trafficPolicy?.loadBalancer;
    if (lb && isObj(lb.consistentHash)) hash = lb.consistentHash;
  }
  const route = defaultOutboundRoute(cc.clusterName, `${host}:${cc.port.port}/*`, ctx.mesh, hash);
  return {
    name: cc.clusterName,
    virtualHosts: [{ name: vhostName, domains, routes: [route] }],
    maxDirectResponseBodySizeBytes: MAX_DIRECT_RESPONSE_BODY,
    validateClusters: false,
  };
}

/** buildWaypointInboundHTTPFilters: the HCM of an HTTP chain. */
function httpChainFilters(ctx: GenContext, res: WaypointResources, cc: ChainConfig): Json[] {
  const ph = proxyHeaders(ctx, 'inbound');
  const extra: Json = {};
  if (ph.serverName !== '') extra.serverName = ph.serverName;
  if (isHttp2(cc.port.protocol)) extra.http2ProtocolOptions = {};
  if (ctx.features.PILOT_HTTP10 || ctx.proxy.metadata.http10) extra.httpProtocolOptions = { acceptHttp10: true };
  const f = hcmFilter(ctx, {
    routeConfig: waypointRouteConfig(ctx, res, cc),
    statPrefix: statPrefix(cc),
    protocol: cc.port.protocol,
    class: 'inbound',
    useRemoteAddress: false,
    extra,
  });
  (f.typedConfig as Json).httpFilters = waypointHttpFilters(ctx, cc.svc, cc.port.protocol);
  return [f];
}

function l4Matches(
  m: { gateways: readonly string[]; sourceLabels: Readonly<Record<string, string>>; port: number; sourceNamespace: string },
  port: number,
): boolean {
  const gw = m.gateways.length === 0 || m.gateways.some((g) => MESH_GATEWAYS.has(g));
  return gw && Object.keys(m.sourceLabels).length === 0 && (m.port === 0 || m.port === port) && m.sourceNamespace === '';
}

/** getWaypointTCPRoutes: TLS routes (SNI = the service host) first, then TCP routes. */
function waypointTcpRoutes(vss: readonly VirtualServiceConfig[], host: string, port: number): readonly RouteDestination[] | undefined {
  for (const vs of vss) {
    for (const rule of vs.tls as readonly TLSRoute[]) {
      if (rule.match.length === 0) return rule.route;
      for (const m of rule.match) if (m.sniHosts.length === 1 && m.sniHosts[0] === host && l4Matches(m, port)) return rule.route;
    }
  }
  for (const vs of vss) {
    for (const rule of vs.tcp as readonly TCPRoute[]) {
      if (rule.match.length === 0) return rule.route;
      for (const m of rule.match) if (l4Matches(m, port)) return rule.route;
    }
  }
  return undefined;
}

/** buildWaypointNetworkFilters: tcp_proxy to the chain's cluster (or the VirtualService's TCP/TLS route), with the service's L4 authorization. */
function tcpChainFilters(ctx: GenContext, res: WaypointResources, cc: ChainConfig): Json[] {
  const tcp: Json = { '@type': TCP_PROXY_TYPE, statPrefix: cc.clusterName, cluster: cc.clusterName };
  let drHost = '';
  let subset = '';
  if (cc.svc) {
    drHost = cc.svc.hostname;
    const routes = waypointTcpRoutes(virtualServicesForWaypoint(ctx, cc.svc), cc.svc.hostname, cc.port.port);
    if (routes && routes.length > 0) drHost = routes[0]?.destination?.host ?? drHost;
    if (routes && routes.length === 1) {
      const d = routes[0]?.destination;
      subset = d?.subset ?? '';
      tcp.cluster = waypointDestinationCluster(res, d, d ? ctx.scope.servicesByHostname.get(d.host) : undefined, cc.port.port);
    } else if (routes && routes.length > 1) {
      delete tcp.cluster;
      const clusters: Json[] = [];
      for (const r of routes) {
        if (r.weight <= 0) continue;
        const d = r.destination;
        clusters.push({ name: waypointDestinationCluster(res, d, d ? ctx.scope.servicesByHostname.get(d.host) : undefined, cc.port.port), weight: r.weight });
      }
      tcp.weightedClusters = { clusters };
    }
  }
  const dr = drHost !== '' ? scopeDestinationRule(ctx.scope, 'outbound', ctx.proxy, drHost)?.rule.spec : undefined;
  const tcpPool = dr?.trafficPolicy?.connectionPool && isObj(dr.trafficPolicy.connectionPool.tcp) ? dr.trafficPolicy.connectionPool.tcp : undefined;
  const idle =
    (tcpPool ? durationJson(tcpPool.idleTimeout) : undefined) ?? (ctx.proxy.metadata.idleTimeout ? durationJson(ctx.proxy.metadata.idleTimeout) : undefined);
  if (idle) tcp.idleTimeout = idle;
  const mcd = tcpPool ? durationJson(tcpPool.maxConnectionDuration) : undefined;
  if (mcd) tcp.maxDownstreamConnectionDuration = mcd;
  let sourceIp = isObj(dr?.trafficPolicy?.loadBalancer?.consistentHash) && (dr?.trafficPolicy?.loadBalancer?.consistentHash as Json).useSourceIp === true;
  const ss = subset !== '' ? dr?.subsets.find((s) => s.name === subset) : undefined;
  if (ss?.trafficPolicy?.loadBalancer)
    sourceIp = isObj(ss.trafficPolicy.loadBalancer.consistentHash) && (ss.trafficPolicy.loadBalancer.consistentHash as Json).useSourceIp === true;
  if (sourceIp) tcp.hashPolicy = [{ sourceIp: {} }];
  const az = waypointAuthz(ctx, cc.svc);
  const out: Json[] = [];
  if (ctx.features.PILOT_ENABLE_METADATA_EXCHANGE) out.push(TCP_LISTENER_MX);
  out.push(...asJson([...az.customTcp, ...az.localTcp]));
  if (ctx.mesh.prometheusMetrics) out.push(waypointStatsFilter());
  if (cc.port.protocol === 'Mongo' && ctx.features.PILOT_ENABLE_MONGO_FILTER)
    out.push(
      networkFilter('envoy.filters.network.mongo_proxy', {
        '@type': 'type.googleapis.com/envoy.extensions.filters.network.mongo_proxy.v3.MongoProxy',
        statPrefix: cc.clusterName,
      }),
    );
  out.push(networkFilter(TCP_PROXY_NAME, tcp));
  return out;
}

// ---- main_internal -----------------------------------------------------------------------

function ipRanges(ips: readonly string[]): Json[] {
  const out: Json[] = [];
  for (const ip of ips) {
    const r = cidrRange(ip);
    if (r) out.push(r);
  }
  return out;
}

/** buildWaypointInternal: main_internal. */
export function mainInternalListener(ctx: GenContext, res: WaypointResources): Json {
  const chains: Json[] = [];
  const rangeMatchers: Json[] = [];
  // Per port: served as HTTP, as TCP, or needing protocol sniffing (both, or unknown).
  const portProtocols = new Map<number, 'http' | 'tcp' | 'sniff'>();
  const http10 = ctx.features.PILOT_HTTP10;
  for (const svc of res.services) {
    const vips = [...new Set(svcAddresses(svc))].sort();
    const portMap: Record<string, Json> = {};
    for (const port of svc.ports) {
      if (port.protocol === 'UDP') continue;
      const tcpName = subsetKey('inbound-vip', 'tcp', svc.hostname, port.port);
      const httpName = subsetKey('inbound-vip', 'http', svc.hostname, port.port);
      const p = { name: port.name, port: port.port, protocol: port.protocol };
      const tcpChain = (): Json =>
        mark(
          { filters: tcpChainFilters(ctx, res, { clusterName: tcpName, port: p, svc }), name: tcpName },
          ref(svc.resource.key),
          ...policyRefs(waypointAuthz(ctx, svc), ctx),
        );
      const httpChain = (): Json =>
        mark(
          { filters: httpChainFilters(ctx, res, { clusterName: httpName, port: p, svc }), name: httpName },
          ref(svc.resource.key),
          ...policyRefs(waypointAuthz(ctx, svc), ctx),
          ...virtualServicesForWaypoint(ctx, svc).map((vs) => ref(vs.meta.sourceKey)),
        );
      const key = String(port.port);
      const prev = portProtocols.get(port.port);
      if (isUnsupported(port.protocol)) {
        chains.push(tcpChain(), httpChain());
        portMap[key] = toMatcher(appProtocolMatcher(toChain(tcpName), toChain(httpName), http10));
        portProtocols.set(port.port, 'sniff');
      } else if (isHttp(port.protocol)) {
        chains.push(httpChain());
        portMap[key] = toChain(httpName);
        portProtocols.set(port.port, prev !== undefined && prev !== 'http' ? 'sniff' : 'http');
      } else {
        if (isTls(port.protocol) && svc.hostname.startsWith('*') && svc.resolution === 'DynamicDNS') continue;
        chains.push(tcpChain());
        portMap[key] = toChain(tcpName);
        portProtocols.set(port.port, prev !== undefined && prev !== 'tcp' ? 'sniff' : 'tcp');
      }
    }
    if (Object.keys(portMap).length > 0 && vips.length > 0) {
      rangeMatchers.push({ ranges: ipRanges(vips), onMatch: toMatcher(mapMatcher(DESTINATION_PORT_INPUT, portMap)) });
    }
  }
  // Direct pod access: workloads bound to this waypoint (waypoint-for workload or all).
  const direct = { clusterName: ENCAP, port: { name: 'unknown', port: 0, protocol: 'TCP' as const }, svc: undefined };
  const directTcp = mark(
    { filters: [CONNECT_AUTHORITY_NETWORK, ...tcpChainFilters(ctx, res, direct)], name: DIRECT_TCP_CHAIN },
    builtin('traffic addressed to a workload bound to this waypoint'),
  );
  const directHttp = mark(
    { filters: [CONNECT_AUTHORITY_NETWORK, ...httpChainFilters(ctx, res, direct)], name: DIRECT_HTTP_CHAIN },
    builtin('traffic addressed to a workload bound to this waypoint'),
  );
  chains.push(directTcp, directHttp);
  const wlRanges = ipRanges(res.workloadIps);
  if (wlRanges.length > 0)
    rangeMatchers.push({ ranges: wlRanges, onMatch: toMatcher(appProtocolMatcher(toChain(DIRECT_TCP_CHAIN), toChain(DIRECT_HTTP_CHAIN), http10)) });

  let httpInspector: Json = HTTP_INSPECTOR;
  if (res.workloadIps.length === 0) {
    const ports = [...portProtocols.entries()]
      .filter(([, v]) => v !== 'sniff')
      .map(([p]) => p)
      .sort((a, b) => a - b);
    if (ports.length > 0)
      httpInspector = { name: HTTP_INSPECTOR_NAME, typedConfig: HTTP_INSPECTOR.typedConfig, filterDisabled: listenerPredicateExclude(ports) };
  }
  const listenerFilters: Json[] = [ORIGINAL_DST, httpInspector];
  const tlsPorts = new Set<number>();
  const nonTls = new Set<number>();
  for (const s of res.services) for (const p of s.ports) (isTls(p.protocol) ? tlsPorts : nonTls).add(p.port);
  if (tlsPorts.size > 0) {
    const excl = [...nonTls].filter((p) => !tlsPorts.has(p)).sort((a, b) => a - b);
    listenerFilters.push(
      excl.length > 0 ? { name: TLS_INSPECTOR_NAME, typedConfig: TLS_INSPECTOR.typedConfig, filterDisabled: listenerPredicateExclude(excl) } : TLS_INSPECTOR,
    );
  }
  const ipMatcher: Json = { '@type': IP_MATCHER_TYPE };
  if (rangeMatchers.length > 0) ipMatcher.rangeMatchers = rangeMatchers;
  return mark(
    {
      name: MAIN_INTERNAL,
      filterChains: chains,
      listenerFilters,
      trafficDirection: 'INBOUND',
      internalListener: {},
      filterChainMatcher: { matcherTree: { input: DESTINATION_IP_INPUT, customMatch: { name: 'ip', typedConfig: ipMatcher } } },
    },
    builtin("the waypoint's services (istio.io/use-waypoint) and workloads"),
    ...res.services.map((s) => ref(s.resource.key)),
  );
}

/** The service's addresses for this proxy (GetAllAddressesForProxy): its VIPs, or an auto-allocated one; none for 0.0.0.0. */
function svcAddresses(svc: Service): string[] {
  const out: string[] = [];
  for (const list of Object.values(svc.clusterVips)) for (const a of list) if (a !== '' && a !== '0.0.0.0' && a !== 'None') out.push(a);
  if (out.length === 0 && svc.defaultAddress !== '' && svc.defaultAddress !== '0.0.0.0') out.push(svc.defaultAddress);
  if (out.length === 0 && svc.autoAllocatedV4) out.push(svc.autoAllocatedV4);
  if (out.length === 0 && svc.autoAllocatedV6) out.push(svc.autoAllocatedV6);
  return out;
}

/** buildWaypointInbound: connect_terminate, main_internal, connect_originate. */
export function waypointListeners(ctx: GenContext, res: WaypointResources): Json[] {
  return [connectTerminateListener(ctx), mainInternalListener(ctx, res), connectOriginateListener()];
}
