// Envoy resources as istiod writes them for a sidecar (proto3 JSON names, Istio's names), for
// the proto check's tests.

export const T = 'type.googleapis.com/';

/** A cluster as istiod writes it for a sidecar (proto3 JSON names). */
// biome-ignore lint/suspicious/noExplicitAny: tests edit these Envoy fixtures at any depth
export function cluster(): Record<string, any> {
  return {
    '@type': `${T}envoy.config.cluster.v3.Cluster`,
    name: 'outbound|9080|v1|reviews.default.svc.cluster.local',
    type: 'EDS',
    edsClusterConfig: {
      edsConfig: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' },
      serviceName: 'outbound|9080|v1|reviews.default.svc.cluster.local',
    },
    connectTimeout: '10s',
    lbPolicy: 'LEAST_REQUEST',
    circuitBreakers: {
      thresholds: [{ maxConnections: 4294967295, maxPendingRequests: 4294967295, maxRequests: 4294967295, maxRetries: 4294967295, trackRemaining: true }],
    },
    commonLbConfig: {},
    metadata: { filterMetadata: { istio: { services: [{ host: 'reviews.default.svc.cluster.local', name: 'reviews', namespace: 'default' }], subset: 'v1' } } },
    filters: [
      {
        name: 'istio.metadata_exchange',
        typedConfig: {
          '@type': `${T}udpa.type.v1.TypedStruct`,
          typeUrl: `${T}envoy.tcp.metadataexchange.config.MetadataExchange`,
          value: { protocol: 'istio-peer-exchange', enable_discovery: true },
        },
      },
    ],
    typedExtensionProtocolOptions: {
      'envoy.extensions.upstreams.http.v3.HttpProtocolOptions': {
        '@type': `${T}envoy.extensions.upstreams.http.v3.HttpProtocolOptions`,
        useDownstreamProtocolConfig: { httpProtocolOptions: {}, http2ProtocolOptions: {} },
      },
    },
  };
}

/** An outbound HTTP listener with its HTTP connection manager. */
// biome-ignore lint/suspicious/noExplicitAny: tests edit these Envoy fixtures at any depth
export function listener(): Record<string, any> {
  return {
    '@type': `${T}envoy.config.listener.v3.Listener`,
    name: '0.0.0.0_9080',
    address: { socketAddress: { address: '0.0.0.0', portValue: 9080 } },
    filterChains: [
      {
        filterChainMatch: { transportProtocol: 'raw_buffer', applicationProtocols: ['http/1.1', 'h2c'] },
        filters: [
          {
            name: 'envoy.filters.network.http_connection_manager',
            typedConfig: {
              '@type': `${T}envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager`,
              statPrefix: 'outbound_0.0.0.0_9080',
              rds: { configSource: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' }, routeConfigName: '9080' },
              httpFilters: [
                {
                  name: 'istio.metadata_exchange',
                  typedConfig: {
                    '@type': `${T}udpa.type.v1.TypedStruct`,
                    typeUrl: `${T}io.istio.http.peer_metadata.Config`,
                    value: { upstream_discovery: [{ istio_headers: {} }, { workload_discovery: {} }], upstream_propagation: [{ istio_headers: {} }] },
                  },
                },
                {
                  name: 'istio.alpn',
                  typedConfig: {
                    '@type': `${T}istio.envoy.config.filter.http.alpn.v2alpha1.FilterConfig`,
                    alpnOverride: [{ alpnOverride: ['istio-http/1.0', 'istio'] }, { upstreamProtocol: 'HTTP11', alpnOverride: ['istio-http/1.1', 'istio'] }],
                  },
                },
                { name: 'istio.stats', typedConfig: { '@type': `${T}stats.PluginConfig`, reporter: 'SERVER_GATEWAY', disableHostHeaderFallback: true } },
                { name: 'envoy.filters.http.router', typedConfig: { '@type': `${T}envoy.extensions.filters.http.router.v3.Router` } },
              ],
              tracing: { clientSampling: { value: 100 }, randomSampling: { value: 1 }, overallSampling: { value: 100 } },
              useRemoteAddress: false,
              upgradeConfigs: [{ upgradeType: 'websocket' }],
              streamIdleTimeout: '0s',
              normalizePath: true,
              requestIdExtension: {
                typedConfig: { '@type': `${T}envoy.extensions.request_id.uuid.v3.UuidRequestIdConfig`, useRequestIdForTraceSampling: true },
              },
              pathWithEscapedSlashesAction: 'KEEP_UNCHANGED',
            },
          },
        ],
      },
    ],
    listenerFilters: [
      { name: 'envoy.filters.listener.tls_inspector', typedConfig: { '@type': `${T}envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector` } },
    ],
    trafficDirection: 'OUTBOUND',
    bindToPort: false,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: tests edit these Envoy fixtures at any depth
export function routeConfig(): Record<string, any> {
  return {
    '@type': `${T}envoy.config.route.v3.RouteConfiguration`,
    name: '9080',
    virtualHosts: [
      {
        name: 'reviews.default.svc.cluster.local:9080',
        domains: ['reviews.default.svc.cluster.local', 'reviews', 'reviews.default.svc', 'reviews.default', '10.96.0.12'],
        routes: [
          {
            name: 'default',
            match: { prefix: '/' },
            route: {
              weightedClusters: {
                clusters: [
                  { name: 'outbound|9080|v1|reviews.default.svc.cluster.local', weight: 80 },
                  { name: 'outbound|9080|v2|reviews.default.svc.cluster.local', weight: 20 },
                ],
              },
              timeout: '0s',
              retryPolicy: {
                retryOn: 'connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes',
                numRetries: 2,
                retryHostPredicate: [
                  {
                    name: 'envoy.retry_host_predicates.previous_hosts',
                    typedConfig: { '@type': `${T}envoy.extensions.retry.host.previous_hosts.v3.PreviousHostsPredicate` },
                  },
                ],
                hostSelectionRetryMaxAttempts: '5',
              },
            },
            decorator: { operation: 'reviews.default.svc.cluster.local:9080/*' },
          },
        ],
        includeRequestAttemptCount: true,
      },
    ],
    validateClusters: false,
  };
}
