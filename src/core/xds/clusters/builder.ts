// Building one cluster (cluster_builder.go): its discovery type, metadata, HTTP protocol options,
// EDS config, and the field order and provenance marks of the finished JSON.
import type { Json } from '../types.ts';
import type { GenContext } from '../context.ts';
import type { ConsolidatedDestRule, DestinationRuleConfig, Service } from '../pushContext.ts';
import { configInfoPath } from '../pushContext.ts';
import { isHttp2, isUnsupported } from '../protocol.ts';
import { HTTP_PROTOCOL_OPTIONS_KEY, HTTP_PROTOCOL_OPTIONS_TYPE, TCP_CLUSTER_MX } from '../filters.ts';
import { isObj } from '../../document/read.ts';
import { selectDnsLookupFamily } from '../net.ts';
import type { ServicePortInfo } from '../../config/services.ts';
import { mark, ref } from '../provenance.ts';
import type { ServiceTarget } from '../proxy.ts';

export const MAX_UINT32 = 4294967295;

export type Mode = 'outbound' | 'sni-dnat';

/** A cluster being built, with its HTTP protocol options kept apart until the end (clusterWrapper). */
export interface ClusterWrapper {
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

export function setH2(w: ClusterWrapper): void {
  w.httpOptions ??= {};
  if (!w.httpOptions.explicitHttpConfig && !w.httpOptions.useDownstreamProtocolConfig) w.httpOptions.explicitHttpConfig = { http2ProtocolOptions: {} };
}

export function isH2Cluster(w: ClusterWrapper): boolean {
  return isObj(w.httpOptions?.explicitHttpConfig) && (w.httpOptions?.explicitHttpConfig as Json).http2ProtocolOptions !== undefined;
}

export function setUseDownstream(w: ClusterWrapper): void {
  w.httpOptions ??= {};
  const explicit = isObj(w.httpOptions.explicitHttpConfig) ? w.httpOptions.explicitHttpConfig : undefined;
  const h1 = explicit && isObj(explicit.httpProtocolOptions) ? explicit.httpProtocolOptions : {};
  delete w.httpOptions.explicitHttpConfig;
  w.httpOptions.useDownstreamProtocolConfig = { httpProtocolOptions: h1, http2ProtocolOptions: {} };
}

export function serviceMetadata(svc: Service): Json {
  return { host: svc.hostname, name: svc.name, namespace: svc.namespace };
}

export function istioMetadata(c: Json): Json {
  const md = (c.metadata ??= { filterMetadata: {} }) as Json;
  const fm = md.filterMetadata as Json;
  return (fm.istio ??= {}) as Json;
}

/** buildCluster: the cluster's type, name, endpoints for DNS/STATIC clusters, protocol options and telemetry metadata. */
export function buildCluster(
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

export function edsConfig(c: Json): void {
  if (c.type !== 'EDS') return;
  c.edsClusterConfig = { edsConfig: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' }, serviceName: c.name };
}

export function metadataExchange(ctx: GenContext, c: Json): void {
  if (ctx.features.PILOT_ENABLE_METADATA_EXCHANGE) c.filters = [...((c.filters as Json[] | undefined) ?? []), TCP_CLUSTER_MX];
}

export function addConfigMetadata(c: Json, dr: DestinationRuleConfig): void {
  istioMetadata(c).config = configInfoPath(dr.meta);
}

export function addAlpnOverride(c: Json, mode: string | undefined): void {
  if (mode !== 'SIMPLE' && mode !== 'MUTUAL') return;
  istioMetadata(c).alpn_override = 'false';
}

/** Cluster fields in proto field order. */
export const CLUSTER_ORDER = [
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
export function finish(w: ClusterWrapper): Json {
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

export function carry(c: Json, ...refs: ReturnType<typeof ref>[]): void {
  const l = marksCarry.get(c) ?? [];
  l.push(...refs);
  marksCarry.set(c, l);
}

export function drRefs(cdr: ConsolidatedDestRule | undefined): ReturnType<typeof ref>[] {
  return cdr ? cdr.from.map((m) => ref(m.resource.key)) : [];
}
