// Pieces shared by outbound, inbound and gateway listeners: filter chain options and their
// matches, listener addresses, and the TCP proxy network filter stacks (networkfilter.go).
import type { Json } from '../types.ts';
import type { GenContext } from '../context.ts';
import type { IstioProtocol } from '../../config/protocol.ts';
import type { DestinationRuleSpec, RouteDestination } from '../../config/api/networking.ts';
import { TCP_LISTENER_MX, TCP_PROXY_NAME, TCP_PROXY_TYPE, networkFilter, statsFilter } from '../filters.ts';
import { cidrRange, maskedPrefix, parsePrefix } from '../net.ts';
import { durationJson } from '../duration.ts';
import { isObj } from '../../document/read.ts';
import type { ProvenanceRef } from '../types.ts';
import { scopeDestinationRule } from '../scope.ts';
import { destinationCluster } from '../routes/translate.ts';
import type { ConfigMeta } from '../pushContext.ts';
import { configInfoPath } from '../pushContext.ts';
import type { HttpOpts } from './hcm.ts';

/** filterChainOpts: one filter chain before it becomes Envoy JSON. */
export interface ChainOpts {
  sniHosts?: readonly string[];
  destinationCidrs?: readonly string[];
  applicationProtocols?: readonly string[];
  transportProtocol?: string;
  metadata?: Json;
  tlsContext?: Json;
  httpOpts?: HttpOpts;
  networkFilters?: Json[];
  prov?: ProvenanceRef[];
}

export function isMatchAll(c: ChainOpts): boolean {
  return (
    (!c.sniHosts || c.sniHosts.length === 0 || c.sniHosts.includes('*')) &&
    (!c.applicationProtocols || c.applicationProtocols.length === 0) &&
    !c.transportProtocol &&
    (!c.destinationCidrs || c.destinationCidrs.length === 0)
  );
}

/** toFilterChainMatch (undefined for a match-all chain). */
export function filterChainMatch(c: ChainOpts): Json | undefined {
  if (isMatchAll(c)) return undefined;
  const m: Json = {};
  if (c.destinationCidrs && c.destinationCidrs.length > 0) {
    const ranges: Json[] = [];
    for (const d of [...c.destinationCidrs].sort()) {
      const r = cidrRange(d);
      if (r && r.addressPrefix !== '0.0.0.0') ranges.push(r);
    }
    if (ranges.length > 0) m.prefixRanges = ranges;
  }
  if (c.sniHosts && c.sniHosts.length > 0 && !c.sniHosts.includes('*')) m.serverNames = [...c.sniHosts].sort();
  if (c.transportProtocol) m.transportProtocol = c.transportProtocol;
  if (c.applicationProtocols && c.applicationProtocols.length > 0) m.applicationProtocols = [...c.applicationProtocols];
  return m;
}

function sniSet(sni: readonly string[] | undefined): string[] | undefined {
  if (!sni || sni.length === 0) return undefined;
  return [...new Set(sni.filter((s) => s !== '*'))].sort();
}

function cidrSet(cidrs: readonly string[] | undefined): string[] | undefined {
  if (!cidrs || cidrs.length === 0) return undefined;
  const out = new Set<string>();
  for (const s of cidrs) {
    const p = parsePrefix(s);
    if (!p || p.address === '0.0.0.0' || s === '*') continue;
    out.add(maskedPrefix(p));
  }
  return [...out].sort();
}

/** filterChainOpts.conflictsWith: same transport, ALPN, SNI set and masked CIDR set. */
export function chainsConflict(a: ChainOpts, b: ChainOpts): boolean {
  if ((a.transportProtocol ?? '') !== (b.transportProtocol ?? '')) return false;
  if (JSON.stringify(a.applicationProtocols ?? []) !== JSON.stringify(b.applicationProtocols ?? [])) return false;
  if (JSON.stringify(sniSet(a.sniHosts) ?? null) !== JSON.stringify(sniSet(b.sniHosts) ?? null)) return false;
  return JSON.stringify(cidrSet(a.destinationCidrs) ?? null) === JSON.stringify(cidrSet(b.destinationCidrs) ?? null);
}

/** util.BuildAddress: a socket address, or a pipe for `unix://` binds. */
export function buildAddress(bind: string, port: number): Json {
  if (port === 0 || bind.startsWith('unix://')) return { pipe: { path: bind.replace(/^unix:\/\//, '') } };
  return { socketAddress: { address: bind, portValue: port } };
}

export function additionalAddresses(extra: readonly string[], port: number): Json[] | undefined {
  const out = extra.filter((e) => e !== '').map((e) => ({ address: buildAddress(e, port) }));
  return out.length > 0 ? out : undefined;
}

/** util.BuildConfigInfoMetadata. */
export function configMetadata(meta: ConfigMeta): Json {
  return { filterMetadata: { istio: { config: configInfoPath(meta) } } };
}

/** Telemetry network filters of a listener class (istio.stats with a Prometheus provider). */
export function metricsNetworkFilters(ctx: GenContext, cls: 'outbound' | 'inbound' | 'gateway'): Json[] {
  return ctx.mesh.prometheusMetrics ? [statsFilter(cls !== 'outbound')] : [];
}

/** buildNetworkFiltersStack: mongo before tcp_proxy on Mongo ports. */
function protocolStack(ctx: GenContext, p: IstioProtocol, tcp: Json, statPrefix: string): Json[] {
  if (p === 'Mongo' && ctx.features.PILOT_ENABLE_MONGO_FILTER) {
    return [
      networkFilter('envoy.filters.network.mongo_proxy', {
        '@type': 'type.googleapis.com/envoy.extensions.filters.network.mongo_proxy.v3.MongoProxy',
        statPrefix,
      }),
      tcp,
    ];
  }
  return [tcp];
}

/** buildCompleteNetworkFilters: [MX] + authz (gateways and inbound) + stats + the protocol stack. */
export function completeNetworkFilters(
  ctx: GenContext,
  cls: 'outbound' | 'inbound' | 'gateway',
  stack: Json[],
  includeMx: boolean,
  withAuthz: boolean,
): Json[] {
  const out: Json[] = [];
  if (includeMx && ctx.features.PILOT_ENABLE_METADATA_EXCHANGE) out.push(TCP_LISTENER_MX);
  if (withAuthz) {
    out.push(...ctx.authz.tcpCustom);
    out.push(...ctx.authz.tcpRbac);
  }
  out.push(...metricsNetworkFilters(ctx, cls));
  out.push(...stack);
  return out;
}

function tcpSettings(dr: DestinationRuleSpec | undefined): { idleTimeout?: string; maxDownstreamConnectionDuration?: string } {
  const cp = dr?.trafficPolicy?.connectionPool;
  const tcp = cp && isObj(cp.tcp) ? cp.tcp : undefined;
  const out: { idleTimeout?: string; maxDownstreamConnectionDuration?: string } = {};
  const idle = tcp?.idleTimeout !== undefined ? durationJson(tcp.idleTimeout) : undefined;
  if (idle) out.idleTimeout = idle;
  const mcd = tcp?.maxConnectionDuration !== undefined ? durationJson(tcp.maxConnectionDuration) : undefined;
  if (mcd) out.maxDownstreamConnectionDuration = mcd;
  return out;
}

/** maybeSetHashPolicy: `source_ip` when the DestinationRule hashes on the source IP. */
function sourceIpHash(dr: DestinationRuleSpec | undefined, subset: string): Json[] | undefined {
  if (!dr) return undefined;
  const lb = dr.trafficPolicy?.loadBalancer;
  let useSourceIp = isObj(lb?.consistentHash) && lb.consistentHash.useSourceIp === true;
  for (const ss of dr.subsets) {
    if (ss.name !== subset) continue;
    const slb = ss.trafficPolicy?.loadBalancer;
    if (slb) useSourceIp = isObj(slb.consistentHash) ? slb.consistentHash.useSourceIp === true : false;
    break;
  }
  return useSourceIp ? [{ sourceIp: {} }] : undefined;
}

/** buildOutboundNetworkFiltersWithSingleDestination. */
export function singleDestinationFilters(
  ctx: GenContext,
  cls: 'outbound' | 'gateway',
  statPrefix: string,
  cluster: string,
  subset: string,
  protocol: IstioProtocol,
  dr: DestinationRuleSpec | undefined,
  includeMx: boolean,
  withAuthz: boolean,
): Json[] {
  const settings = tcpSettings(dr);
  const tcp: Json = { '@type': TCP_PROXY_TYPE, statPrefix, cluster };
  const idle = settings.idleTimeout ?? (ctx.proxy.metadata.idleTimeout ? durationJson(ctx.proxy.metadata.idleTimeout) : undefined);
  if (idle) tcp.idleTimeout = idle;
  const hp = sourceIpHash(dr, subset);
  if (hp) tcp.hashPolicy = hp;
  if (settings.maxDownstreamConnectionDuration) tcp.maxDownstreamConnectionDuration = settings.maxDownstreamConnectionDuration;
  return completeNetworkFilters(ctx, cls, protocolStack(ctx, protocol, networkFilter(TCP_PROXY_NAME, tcp), statPrefix), includeMx, withAuthz);
}

/** buildOutboundNetworkFilters: one destination, or weighted clusters named after the VirtualService. */
export function outboundNetworkFilters(
  ctx: GenContext,
  cls: 'outbound' | 'gateway',
  routes: readonly RouteDestination[],
  port: { port: number; protocol: IstioProtocol },
  meta: ConfigMeta,
  includeMx: boolean,
  withAuthz: boolean,
): Json[] {
  const first = routes[0]?.destination;
  const service = first ? ctx.scope.servicesByHostname.get(first.host) : undefined;
  const dr = service ? scopeDestinationRule(ctx.scope, 'outbound', ctx.proxy, service.hostname)?.rule.spec : undefined;
  if (routes.length === 1) {
    const cluster = destinationCluster(first, service, port.port);
    return singleDestinationFilters(ctx, cls, cluster, cluster, first?.subset ?? '', port.protocol, dr, includeMx, withAuthz);
  }
  const statPrefix = `${meta.name}.${meta.namespace}`;
  const clusters: Json[] = [];
  for (const r of routes) {
    if (r.weight <= 0) continue;
    const svc = r.destination ? ctx.scope.servicesByHostname.get(r.destination.host) : undefined;
    clusters.push({ name: destinationCluster(r.destination, svc, port.port), weight: r.weight });
  }
  const settings = tcpSettings(dr);
  const tcp: Json = { '@type': TCP_PROXY_TYPE, statPrefix, weightedClusters: { clusters } };
  const idle = settings.idleTimeout ?? (ctx.proxy.metadata.idleTimeout ? durationJson(ctx.proxy.metadata.idleTimeout) : undefined);
  if (idle) tcp.idleTimeout = idle;
  const hp = sourceIpHash(dr, '');
  if (hp) tcp.hashPolicy = hp;
  if (settings.maxDownstreamConnectionDuration) tcp.maxDownstreamConnectionDuration = settings.maxDownstreamConnectionDuration;
  return completeNetworkFilters(ctx, cls, protocolStack(ctx, port.protocol, networkFilter(TCP_PROXY_NAME, tcp), statPrefix), includeMx, withAuthz);
}
