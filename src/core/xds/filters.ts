// Istio's standard Envoy filters (pilot/pkg/xds/filters), in proto3 JSON with `@type`.
import type { Json } from './types.ts';

const T = 'type.googleapis.com/';

export const HCM_NAME = 'envoy.filters.network.http_connection_manager';
export const HCM_TYPE = `${T}envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager`;
export const TCP_PROXY_NAME = 'envoy.filters.network.tcp_proxy';
export const TCP_PROXY_TYPE = `${T}envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy`;
export const TLS_TRANSPORT_SOCKET = 'envoy.transport_sockets.tls';
export const DOWNSTREAM_TLS_TYPE = `${T}envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext`;
export const UPSTREAM_TLS_TYPE = `${T}envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext`;
export const HTTP_PROTOCOL_OPTIONS_KEY = 'envoy.extensions.upstreams.http.v3.HttpProtocolOptions';
export const HTTP_PROTOCOL_OPTIONS_TYPE = `${T}envoy.extensions.upstreams.http.v3.HttpProtocolOptions`;
export const TLS_INSPECTOR_NAME = 'envoy.filters.listener.tls_inspector';
export const HTTP_INSPECTOR_NAME = 'envoy.filters.listener.http_inspector';
export const TYPED_STRUCT = `${T}udpa.type.v1.TypedStruct`;

function typedStruct(typeUrl: string, value: Json): Json {
  return { '@type': TYPED_STRUCT, typeUrl, value };
}

export const TLS_INSPECTOR: Json = {
  name: TLS_INSPECTOR_NAME,
  typedConfig: { '@type': `${T}envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector`, initialReadBufferSize: 512 },
};

export const HTTP_INSPECTOR: Json = {
  name: HTTP_INSPECTOR_NAME,
  typedConfig: { '@type': `${T}envoy.extensions.filters.listener.http_inspector.v3.HttpInspector` },
};

export const ORIGINAL_DST: Json = {
  name: 'envoy.filters.listener.original_dst',
  typedConfig: { '@type': `${T}envoy.extensions.filters.listener.original_dst.v3.OriginalDst` },
};

export const ORIGINAL_SRC: Json = {
  name: 'envoy.filters.listener.original_src',
  typedConfig: { '@type': `${T}envoy.extensions.filters.listener.original_src.v3.OriginalSrc`, mark: 1337 },
};

export const PROXY_PROTOCOL: Json = {
  name: 'envoy.filters.listener.proxy_protocol',
  typedConfig: { '@type': `${T}envoy.extensions.filters.listener.proxy_protocol.v3.ProxyProtocol` },
};

const MX_TCP = typedStruct(`${T}envoy.tcp.metadataexchange.config.MetadataExchange`, { protocol: 'istio-peer-exchange', enable_discovery: true });

/** istio.metadata_exchange as a network filter (inbound chains, ISTIO_MUTUAL gateway TCP servers). */
export const TCP_LISTENER_MX: Json = { name: 'istio.metadata_exchange', typedConfig: MX_TCP };
/** istio.metadata_exchange as a cluster filter. */
export const TCP_CLUSTER_MX: Json = { name: 'istio.metadata_exchange', typedConfig: MX_TCP };

const PEER_METADATA = `${T}io.istio.http.peer_metadata.Config`;

export const SIDECAR_OUTBOUND_MX: Json = {
  name: 'istio.metadata_exchange',
  typedConfig: typedStruct(PEER_METADATA, {
    upstream_discovery: [{ istio_headers: {} }, { workload_discovery: {} }],
    upstream_propagation: [{ istio_headers: {} }],
  }),
};

export const SIDECAR_OUTBOUND_MX_SKIP_HEADERS: Json = {
  name: 'istio.metadata_exchange',
  typedConfig: typedStruct(PEER_METADATA, {
    upstream_discovery: [{ istio_headers: {} }, { workload_discovery: {} }],
    upstream_propagation: [{ istio_headers: { skip_external_clusters: true } }],
  }),
};

export const SIDECAR_INBOUND_MX: Json = {
  name: 'istio.metadata_exchange',
  typedConfig: typedStruct(PEER_METADATA, {
    downstream_discovery: [{ istio_headers: {} }, { workload_discovery: {} }],
    downstream_propagation: [{ istio_headers: {} }],
  }),
};

export const GRPC_STATS: Json = {
  name: 'envoy.filters.http.grpc_stats',
  typedConfig: { '@type': `${T}envoy.extensions.filters.http.grpc_stats.v3.FilterConfig`, emitFilterState: true, statsForAllMethods: false },
};

export const GRPC_WEB: Json = {
  name: 'envoy.filters.http.grpc_web',
  typedConfig: { '@type': `${T}envoy.extensions.filters.http.grpc_web.v3.GrpcWeb` },
};

export const ALPN: Json = {
  name: 'istio.alpn',
  typedConfig: {
    '@type': `${T}istio.envoy.config.filter.http.alpn.v2alpha1.FilterConfig`,
    alpnOverride: [
      { alpnOverride: ['istio-http/1.0', 'istio', 'http/1.0'] },
      { upstreamProtocol: 'HTTP11', alpnOverride: ['istio-http/1.1', 'istio', 'http/1.1'] },
      { upstreamProtocol: 'HTTP2', alpnOverride: ['istio-h2', 'istio', 'h2'] },
    ],
  },
};

export const FAULT: Json = { name: 'envoy.filters.http.fault', typedConfig: { '@type': `${T}envoy.extensions.filters.http.fault.v3.HTTPFault` } };
export const CORS: Json = { name: 'envoy.filters.http.cors', typedConfig: { '@type': `${T}envoy.extensions.filters.http.cors.v3.Cors` } };

export function routerFilter(suppressEnvoyHeaders: boolean): Json {
  return {
    name: 'envoy.filters.http.router',
    typedConfig: { '@type': `${T}envoy.extensions.filters.http.router.v3.Router`, ...(suppressEnvoyHeaders ? { suppressEnvoyHeaders: true } : {}) },
  };
}

/** istio.stats (HTTP or network) for the Prometheus metrics provider. */
export function statsFilter(disableHostHeaderFallback: boolean): Json {
  return { name: 'istio.stats', typedConfig: { '@type': `${T}stats.PluginConfig`, ...(disableHostHeaderFallback ? { disableHostHeaderFallback: true } : {}) } };
}

export const UUID_REQUEST_ID: Json = {
  typedConfig: { '@type': `${T}envoy.extensions.request_id.uuid.v3.UuidRequestIdConfig`, useRequestIdForTraceSampling: true },
};

export const RAW_BUFFER_SOCKET: Json = {
  name: 'envoy.transport_sockets.raw_buffer',
  typedConfig: { '@type': `${T}envoy.extensions.transport_sockets.raw_buffer.v3.RawBuffer` },
};

/** A network filter with its typed config. */
export function networkFilter(name: string, typedConfig: Json): Json {
  return { name, typedConfig };
}

/** A tcp_proxy filter to one cluster. */
export function tcpProxyFilter(statPrefix: string, cluster: string, extra: Json = {}): Json {
  return networkFilter(TCP_PROXY_NAME, { '@type': TCP_PROXY_TYPE, statPrefix, cluster, ...extra });
}
