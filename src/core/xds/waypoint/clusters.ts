// A waypoint's own clusters (pilot/pkg/networking/core/cluster_waypoint.go
// buildWaypointInboundClusters): `main_internal` and `encap` (static clusters whose single
// endpoint is an internal listener), the `inbound-vip` clusters of the services it owns
// (clusters.ts), and `connect_originate` (ORIGINAL_DST to the backend's ztunnel on 15008,
// HBONE mTLS). Plus the outbound clusters of services its routes send to but it does not own
// (filterWaypointOutboundServices).
import type { Json } from '../types.ts';
import type { GenContext } from '../context.ts';
import type { Service } from '../pushContext.ts';
import { HTTP_PROTOCOL_OPTIONS_KEY, HTTP_PROTOCOL_OPTIONS_TYPE, RAW_BUFFER_SOCKET, UPSTREAM_TLS_TYPE } from '../filters.ts';
import { builtin, mark } from '../provenance.ts';
import { outboundClusters, waypointInboundVipClusters } from '../clusters.ts';
import { connectCommonTlsContext } from './filters.ts';
import { CONNECT_ORIGINATE, ENCAP, HBONE_INBOUND_PORT, MAIN_INTERNAL } from './listeners.ts';
import type { WaypointResources } from './resources.ts';

const MAX_UINT32 = 4294967295;
const DEFAULT_THRESHOLDS: Json = { maxConnections: MAX_UINT32, maxPendingRequests: MAX_UINT32, maxRequests: MAX_UINT32, maxRetries: MAX_UINT32 };
const INTERNAL_UPSTREAM: Json = {
  name: 'internal_upstream',
  typedConfig: {
    '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.internal_upstream.v3.InternalUpstreamTransport',
    transportSocket: { name: 'raw_buffer', typedConfig: RAW_BUFFER_SOCKET.typedConfig },
  },
};

/** passthroughHttpProtocolOptions: the downstream's protocol, 5 minute idle timeout. */
function passthroughHttpOptions(): Json {
  return {
    [HTTP_PROTOCOL_OPTIONS_KEY]: {
      '@type': HTTP_PROTOCOL_OPTIONS_TYPE,
      commonHttpProtocolOptions: { idleTimeout: '300s' },
      useDownstreamProtocolConfig: { httpProtocolOptions: {}, http2ProtocolOptions: {} },
    },
  };
}

/** buildInternalUpstreamCluster: STATIC, one endpoint that is the internal listener `listener`. */
function internalUpstreamCluster(name: string, listener: string): Json {
  return {
    name,
    circuitBreakers: { thresholds: [DEFAULT_THRESHOLDS] },
    transportSocket: INTERNAL_UPSTREAM,
    altStatName: `${name};`,
    loadAssignment: {
      clusterName: name,
      endpoints: [{ lbEndpoints: [{ endpoint: { address: { envoyInternalAddress: { serverListenerName: listener } } } }] }],
    },
    typedExtensionProtocolOptions: passthroughHttpOptions(),
  };
}

/** buildWaypointConnectOriginate: HBONE to the destination's ztunnel, whose certificate must be of the waypoint's namespace's trust domain. */
export function connectOriginateCluster(ctx: GenContext): Json {
  const prefix = `spiffe://${ctx.mesh.trustDomain}/ns/${ctx.proxy.namespace}/sa/`;
  return mark(
    {
      name: CONNECT_ORIGINATE,
      type: 'ORIGINAL_DST',
      connectTimeout: ctx.mesh.connectTimeout,
      lbPolicy: 'CLUSTER_PROVIDED',
      circuitBreakers: { thresholds: [DEFAULT_THRESHOLDS] },
      cleanupInterval: '60s',
      transportSocket: { name: 'tls', typedConfig: { '@type': UPSTREAM_TLS_TYPE, commonTlsContext: connectCommonTlsContext(ctx.mesh, [prefix]) } },
      altStatName: `${CONNECT_ORIGINATE};`,
      originalDstLbConfig: {
        upstreamPortOverride: HBONE_INBOUND_PORT,
        metadataKey: { key: 'envoy.filters.listener.original_dst', path: [{ key: 'waypoint' }] },
      },
      typedExtensionProtocolOptions: {
        [HTTP_PROTOCOL_OPTIONS_KEY]: {
          '@type': HTTP_PROTOCOL_OPTIONS_TYPE,
          commonHttpProtocolOptions: { idleTimeout: '3600s' },
          explicitHttpConfig: { http2ProtocolOptions: { allowConnect: true } },
        },
      },
    },
    builtin('HBONE origination (port 15008 of the destination)'),
  );
}

/**
 * filterWaypointOutboundServices: services that mesh VirtualServices written for an owned
 * service's host (push.ServicesAttachedToMesh: every namespace, exact host) route to, and that
 * the waypoint does not own (or owns as MESH_EXTERNAL).
 */
export function waypointOutboundServices(ctx: GenContext, res: WaypointResources): Service[] {
  const wanted = new Set<string>();
  for (const vs of ctx.push.virtualServices) {
    if (vs.gateways.length > 0 && !vs.gateways.includes('mesh')) continue;
    if (!vs.hosts.some((h) => res.byHostname.has(h))) continue;
    const dests = [
      ...vs.http.flatMap((h) => [...h.route.map((r) => r.destination?.host ?? ''), h.mirror?.host ?? '', ...h.mirrors.map((m) => m.destination?.host ?? '')]),
      ...vs.tcp.flatMap((t) => t.route.map((r) => r.destination?.host ?? '')),
      ...vs.tls.flatMap((t) => t.route.map((r) => r.destination?.host ?? '')),
    ];
    for (const d of dests) {
      if (d === '') continue;
      const owned = res.byHostname.get(d);
      if (!owned || owned.meshExternal) wanted.add(d);
    }
  }
  return ctx.scope.services.filter((s) => wanted.has(s.hostname));
}

/** The waypoint's CDS: outbound clusters it needs, then main_internal, encap, inbound-vip clusters and connect_originate. */
export function waypointClusters(ctx: GenContext, res: WaypointResources): Json[] {
  return [
    ...outboundClusters(ctx, waypointOutboundServices(ctx, res)),
    mark(internalUpstreamCluster(MAIN_INTERNAL, MAIN_INTERNAL), builtin('to the main_internal listener (after HBONE termination)')),
    mark(internalUpstreamCluster(ENCAP, CONNECT_ORIGINATE), builtin('to the connect_originate listener (direct workload traffic)')),
    ...waypointInboundVipClusters(ctx, res.services),
    connectOriginateCluster(ctx),
  ];
}
