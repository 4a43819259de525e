// CDS (cluster.go; spec §2.6, §4.4): outbound clusters per service port and DestinationRule
// subset, BlackHole, Passthrough and InboundPassthrough clusters, inbound clusters, and the
// SNI-DNAT clusters of AUTO_PASSTHROUGH gateways. Building one cluster, applying a traffic
// policy and upstream TLS are in clusters/ (builder, trafficPolicy, tls), as in Istio's
// cluster_builder.go, cluster_traffic_policy.go and cluster_tls.go.
import type { Json } from './types.ts';
import type { GenContext } from './context.ts';
import type { Subset } from '../config/api/networking.ts';
import type { DestinationRuleConfig, Service } from './pushContext.ts';
import { scopeDestinationRule } from './scope.ts';
import { dnsSrvSubsetKey, inboundClusterName, subsetKey, BLACKHOLE_CLUSTER, PASSTHROUGH_CLUSTER, INBOUND_PASSTHROUGH_CLUSTER } from './names.ts';
import { isHttp, isTcp, isUnsupported } from './protocol.ts';
import { HTTP_PROTOCOL_OPTIONS_KEY, HTTP_PROTOCOL_OPTIONS_TYPE, RAW_BUFFER_SOCKET } from './filters.ts';
import { localityLbEndpoints } from './endpoints.ts';
import { isObj, str } from '../document/read.ts';
import { isIPv4, isIPv6 } from './net.ts';
import type { ServicePortInfo } from '../config/services.ts';
import { builtin, mark, ref } from './provenance.ts';
import { ALLOW_ANY_DYNAMIC_DNS_CLUSTER, dnsCacheConfig } from './dynamicDns.ts';
import type { ServiceTarget } from './proxy.ts';
import { parseProtocol as parseProtocolSafe } from '../config/protocol.ts';
import { listAt } from '../document/maps.ts';
import {
  CLUSTER_ORDER,
  type ClusterWrapper,
  type Mode,
  addAlpnOverride,
  addConfigMetadata,
  buildCluster,
  carry,
  discoveryType,
  drRefs,
  edsConfig,
  finish,
  istioMetadata,
  metadataExchange,
  serviceMetadata,
  setH2,
} from './clusters/builder.ts';
import { inferServiceMtlsMode, upstreamTlsContext } from './clusters/tls.ts';
import {
  type ApplyOpts,
  type Policy,
  applyConnectionPool,
  applyLoadBalancer,
  applyMeshDefaults,
  applyOutlierDetection,
  applyTrafficPolicy,
  mergeSubsetPolicy,
  portLevelPolicy,
  shouldH2Upgrade,
} from './clusters/trafficPolicy.ts';

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
