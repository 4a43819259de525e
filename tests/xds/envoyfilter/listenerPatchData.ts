// The config patches of Istio's TestApplyListenerPatches
// (pilot/pkg/networking/core/envoyfilter/listener_patch_test.go), in order: patch i lives in
// EnvoyFilter test-envoyfilter-<i>, so istiod applies them in the string order of those names.
// Converted from the Go structs to the EnvoyFilter's JSON form; `{listener_filters: nil}`, which
// the Go test's buildPatchStruct cannot parse, is the empty value it becomes there.
export const LISTENER_PATCHES: unknown[] = [
  /* 0 */ {
    applyTo: 'LISTENER',
    match: { context: 'SIDECAR_OUTBOUND', proxy: { metadata: { foo: 'sidecar' } } },
    patch: { operation: 'ADD', value: { name: 'new-outbound-listener1' } },
  },
  /* 1 */ {
    applyTo: 'NETWORK_FILTER',
    match: {
      context: 'SIDECAR_OUTBOUND',
      listener: { portNumber: 12345, filterChain: { filter: { name: 'filter1' } } },
      proxy: { proxyVersion: '^1\\.[2-9](.*?)$' },
    },
    patch: { operation: 'INSERT_BEFORE', value: { name: 'filter0' } },
  },
  /* 2 */ {
    applyTo: 'NETWORK_FILTER',
    match: {
      context: 'SIDECAR_OUTBOUND',
      listener: { portNumber: 12345, filterChain: { filter: { name: 'filter1' } } },
      proxy: { proxyVersion: '^1\\.[5-9](.*?)$' },
    },
    patch: { operation: 'INSERT_FIRST', value: { name: 'filter0' } },
  },
  /* 3 */ {
    applyTo: 'NETWORK_FILTER',
    match: { context: 'SIDECAR_OUTBOUND', listener: { portNumber: 12345, filterChain: { filter: { name: 'filter2' } } } },
    patch: { operation: 'REMOVE' },
  },
  /* 4 */ { applyTo: 'LISTENER', match: { context: 'SIDECAR_INBOUND', listener: { portNumber: 12345 } }, patch: { operation: 'REMOVE' } },
  /* 5 */ { applyTo: 'LISTENER', match: { context: 'SIDECAR_INBOUND', listener: { portNumber: 80 } }, patch: { operation: 'MERGE', value: {} } },
  /* 6 */ {
    applyTo: 'FILTER_CHAIN',
    match: { context: 'SIDECAR_INBOUND', listener: { portNumber: 80, filterChain: { transportProtocol: 'tls' } } },
    patch: { operation: 'REMOVE' },
  },
  /* 7 */ {
    applyTo: 'LISTENER',
    match: { context: 'GATEWAY', listener: { portNumber: 80 } },
    patch: { operation: 'MERGE', value: { listener_filters: [{ name: 'foo' }] } },
  },
  /* 8 */ {
    applyTo: 'FILTER_CHAIN',
    match: { context: 'GATEWAY', listener: { portNumber: 80, filterChain: { sni: '*.foo.com' } } },
    patch: { operation: 'MERGE', value: { filter_chain_match: { server_names: ['foo.com'] } } },
  },
  /* 9 */ {
    applyTo: 'NETWORK_FILTER',
    match: { listener: { filterChain: { filter: { name: 'envoy.filters.network.redis_proxy' } } } },
    patch: {
      operation: 'MERGE',
      value: {
        name: 'envoy.filters.network.redis_proxy',
        typed_config: { '@type': 'type.googleapis.com/envoy.extensions.filters.network.redis_proxy.v3.RedisProxy', settings: { op_timeout: '0.2s' } },
      },
    },
  },
  /* 10 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'GATEWAY',
      listener: {
        portNumber: 80,
        filterChain: { sni: '*.foo.com', filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter2' } } },
      },
    },
    patch: { operation: 'INSERT_AFTER', value: { name: 'http-filter3' } },
  },
  /* 11 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'GATEWAY',
      listener: {
        portNumber: 80,
        filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter-to-be-removed-then-add' } } },
      },
    },
    patch: { operation: 'REMOVE' },
  },
  /* 12 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'GATEWAY',
      listener: {
        portNumber: 80,
        filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter-to-be-removed-then-add' } } },
      },
    },
    patch: { operation: 'ADD', value: { name: 'http-filter-to-be-removed-then-add' } },
  },
  /* 13 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'SIDECAR_INBOUND',
      listener: { portNumber: 80, filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter2' } } } },
    },
    patch: { operation: 'INSERT_BEFORE', value: { name: 'http-filter3' } },
  },
  /* 14 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'SIDECAR_INBOUND',
      listener: { filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter3' } } } },
    },
    patch: { operation: 'INSERT_BEFORE', value: { name: 'http-filter-to-be-removed2' } },
  },
  /* 15 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'SIDECAR_INBOUND',
      listener: {
        portNumber: 80,
        filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter-to-be-removed2' } } },
      },
    },
    patch: { operation: 'REMOVE' },
  },
  /* 16 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'SIDECAR_INBOUND',
      listener: { portNumber: 80, filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter2' } } } },
    },
    patch: { operation: 'INSERT_AFTER', value: { name: 'http-filter4' } },
  },
  /* 17 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'SIDECAR_INBOUND',
      listener: {
        portNumber: 80,
        filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter-to-be-removed' } } },
      },
    },
    patch: { operation: 'REMOVE' },
  },
  /* 18 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'SIDECAR_INBOUND',
      listener: {
        portNumber: 80,
        filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter-to-be-removed-then-add' } } },
      },
    },
    patch: { operation: 'REMOVE' },
  },
  /* 19 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'SIDECAR_INBOUND',
      listener: {
        portNumber: 80,
        filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter-to-be-removed-then-add' } } },
      },
    },
    patch: { operation: 'ADD', value: { name: 'http-filter-to-be-removed-then-add' } },
  },
  /* 20 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'SIDECAR_INBOUND',
      listener: {
        portNumber: 80,
        filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'envoy.filters.http.fault' } } },
      },
    },
    patch: {
      operation: 'MERGE',
      value: {
        name: 'envoy.filters.http.fault',
        typed_config: { '@type': 'type.googleapis.com/envoy.extensions.filters.http.fault.v3.HTTPFault', downstreamNodes: ['foo'] },
      },
    },
  },
  /* 21 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'SIDECAR_INBOUND',
      listener: { portNumber: 80, filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter2' } } } },
    },
    patch: { operation: 'INSERT_FIRST', value: { name: 'http-filter0' } },
  },
  /* 22 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'SIDECAR_INBOUND',
      listener: {
        portNumber: 80,
        filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'envoy.filters.http.fault' } } },
      },
    },
    patch: {
      operation: 'MERGE',
      value: { typed_config: { '@type': 'type.googleapis.com/envoy.extensions.filters.http.fault.v3.HTTPFault', upstream_cluster: 'scooby' } },
    },
  },
  /* 23 */ {
    applyTo: 'NETWORK_FILTER',
    match: { context: 'SIDECAR_INBOUND', listener: { portNumber: 80, filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager' } } } },
    patch: {
      operation: 'MERGE',
      value: {
        name: 'envoy.filters.network.http_connection_manager',
        typed_config: {
          '@type': 'type.googleapis.com/type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
          xffNumTrustedHops: '4',
        },
      },
    },
  },
  /* 24 */ {
    applyTo: 'NETWORK_FILTER',
    match: { context: 'SIDECAR_INBOUND', listener: { portNumber: 80, filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager' } } } },
    patch: {
      operation: 'MERGE',
      value: {
        name: 'envoy.filters.network.http_connection_manager',
        typed_config: {
          '@type': 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
          mergeSlashes: true,
          alwaysSetRequestIdInResponse: true,
        },
      },
    },
  },
  /* 25 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'SIDECAR_INBOUND',
      listener: { portNumber: 80, filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter2' } } } },
    },
    patch: { operation: 'INSERT_AFTER', value: { name: 'http-filter-5' } },
  },
  /* 26 */ {
    applyTo: 'NETWORK_FILTER',
    match: { listener: { portNumber: 6379, filterChain: { filter: { name: 'filter1' } } } },
    patch: {
      operation: 'REPLACE',
      value: {
        name: 'envoy.redis_proxy',
        typed_config: {
          '@type': 'type.googleapis.com/envoy.extensions.filters.network.redis_proxy.v3.RedisProxy',
          stat_prefix: 'redis_stats',
          prefix_routes: { catch_all_route: { cluster: 'custom-redis-cluster' } },
        },
      },
    },
  },
  /* 27 */ {
    applyTo: 'NETWORK_FILTER',
    match: { listener: { portNumber: 6381, filterChain: { filter: { name: 'default-network-filter' } } } },
    patch: { operation: 'REPLACE', value: { name: 'default-network-filter-replaced' } },
  },
  /* 28 */ {
    applyTo: 'NETWORK_FILTER',
    match: { listener: { portNumber: 6381, filterChain: { filter: { name: 'default-network-filter-removed' } } } },
    patch: { operation: 'REMOVE' },
  },
  /* 29 */ {
    applyTo: 'NETWORK_FILTER',
    match: { listener: { portNumber: 6380, filterChain: { filter: { name: 'network-filter-should-not-be-replaced-not-match' } } } },
    patch: { operation: 'REPLACE', value: { name: 'network-filter-replaced-should-not-be-applied' } },
  },
  /* 30 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      listener: {
        name: 'listener-http-filter-to-be-replaced',
        filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter-to-be-replaced' } } },
      },
    },
    patch: { operation: 'REPLACE', value: { name: 'http-filter-replaced' } },
  },
  /* 31 */ {
    applyTo: 'HTTP_FILTER',
    match: {
      listener: {
        name: 'listener-http-filter-to-be-replaced-not-found',
        filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter-should-not-be-replaced-not-match' } } },
      },
    },
    patch: { operation: 'REPLACE', value: { name: 'http-filter-replaced-should-not-be-applied' } },
  },
  /* 32 */ {
    applyTo: 'NETWORK_FILTER',
    match: { listener: { name: 'virtualInbound', filterChain: { destinationPort: 6380, filter: { name: 'network-filter-to-be-replaced' } } } },
    patch: {
      operation: 'REPLACE',
      value: {
        name: 'envoy.redis_proxy',
        typed_config: {
          '@type': 'type.googleapis.com/envoy.extensions.filters.network.redis_proxy.v3.RedisProxy',
          stat_prefix: 'redis_stats',
          prefix_routes: { catch_all_route: { cluster: 'custom-redis-cluster' } },
        },
      },
    },
  },
  /* 33 */ {
    applyTo: 'FILTER_CHAIN',
    match: { context: 'SIDECAR_OUTBOUND', listener: { portNumber: 12345, filterChain: { transportProtocol: 'tls' } } },
    patch: {
      operation: 'MERGE',
      value: {
        transport_socket: {
          name: 'envoy.transport_sockets.tls',
          typed_config: {
            '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext',
            common_tls_context: { tls_params: { tls_maximum_protocol_version: 'TLSv1_3', tls_minimum_protocol_version: 'TLSv1_2' } },
          },
        },
      },
    },
  },
  /* 34 */ {
    applyTo: 'FILTER_CHAIN',
    match: { context: 'SIDECAR_OUTBOUND', listener: { portNumber: 12345, filterChain: { applicationProtocols: 'http/1.1' } } },
    patch: { operation: 'REMOVE' },
  },
  /* 35 */ { applyTo: 'LISTENER_FILTER', match: { context: 'SIDECAR_OUTBOUND', listener: { portNumber: 12345 } }, patch: { operation: 'REMOVE' } },
  /* 36 */ {
    applyTo: 'LISTENER_FILTER',
    match: { context: 'SIDECAR_OUTBOUND', listener: { portNumber: 12345 } },
    patch: { operation: 'ADD', value: { name: 'http-filter-to-be-removed-then-add' } },
  },
  /* 37 */ {
    applyTo: 'FILTER_CHAIN',
    match: { context: 'SIDECAR_OUTBOUND', listener: { portNumber: 7777 } },
    patch: {
      operation: 'MERGE',
      value: {
        transport_socket: {
          name: 'transport_sockets.alts',
          typed_config: {
            '@type': 'type.googleapis.com/udpa.type.v1.TypedStruct',
            type_url: 'type.googleapis.com/envoy.extensions.transport_sockets.alts.v3.Alts',
            value: { handshaker_service: '1.2.3.4' },
          },
        },
      },
    },
  },
  /* 38 */ {
    applyTo: 'FILTER_CHAIN',
    match: { context: 'SIDECAR_OUTBOUND', listener: { portNumber: 7778 } },
    patch: {
      operation: 'MERGE',
      value: {
        transport_socket: {
          name: 'transport_sockets.alts',
          typed_config: {
            '@type': 'type.googleapis.com/udpa.type.v1.TypedStruct',
            type_url: 'type.googleapis.com/envoy.extensions.transport_sockets.alts.v3.Alts',
            value: { handshaker_service: '1.2.3.4' },
          },
        },
      },
    },
  },
  /* 39 */ {
    applyTo: 'NETWORK_FILTER',
    match: { listener: { name: 'virtualInbound', filterChain: { name: 'filter-chain-name-match', filter: { name: 'custom-network-filter-2' } } } },
    patch: { operation: 'REMOVE' },
  },
  /* 40 */ {
    applyTo: 'NETWORK_FILTER',
    match: { listener: { name: 'virtualInbound', filterChain: { name: 'filter-chain-name-match', filter: { name: 'custom-network-filter-1' } } } },
    patch: { operation: 'INSERT_BEFORE', value: { name: 'network-filter-to-be-removed' } },
  },
  /* 41 */ {
    applyTo: 'NETWORK_FILTER',
    match: { listener: { name: 'virtualInbound', filterChain: { name: 'filter-chain-name-match', filter: { name: 'network-filter-to-be-removed' } } } },
    patch: { operation: 'REMOVE' },
  },
  /* 42 */ {
    applyTo: 'FILTER_CHAIN',
    match: { context: 'SIDECAR_INBOUND', listener: { portNumber: 80 } },
    patch: {
      operation: 'MERGE',
      value: {
        transport_socket: {
          name: 'envoy.transport_sockets.tls',
          typed_config: {
            '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext',
            common_tls_context: { alpn_protocols: ['h2-80', 'http/1.1-80'] },
          },
        },
      },
    },
  },
  /* 43 */ {
    applyTo: 'FILTER_CHAIN',
    match: { context: 'SIDECAR_INBOUND', listener: { portNumber: 6380 } },
    patch: {
      operation: 'MERGE',
      value: {
        transport_socket: {
          name: 'envoy.transport_sockets.tls',
          typed_config: {
            '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext',
            common_tls_context: { alpn_protocols: ['h2-6380', 'http/1.1-6380'] },
          },
        },
      },
    },
  },
  /* 44 */ {
    applyTo: 'LISTENER_FILTER',
    match: { context: 'SIDECAR_OUTBOUND', listener: { portNumber: 12345 } },
    patch: { operation: 'ADD', value: { name: 'envoy.filters.listener.proxy_protocol' } },
  },
  /* 45 */ {
    applyTo: 'LISTENER_FILTER',
    match: { context: 'SIDECAR_OUTBOUND', listener: { portNumber: 12345, listenerFilter: 'envoy.filters.listener.proxy_protocol' } },
    patch: { operation: 'INSERT_BEFORE', value: { name: 'before proxy_protocol' } },
  },
  /* 46 */ {
    applyTo: 'LISTENER_FILTER',
    match: { context: 'SIDECAR_OUTBOUND', listener: { portNumber: 12345, listenerFilter: 'envoy.filters.listener.proxy_protocol' } },
    patch: { operation: 'INSERT_AFTER', value: { name: 'after proxy_protocol' } },
  },
  /* 47 */ {
    applyTo: 'LISTENER_FILTER',
    match: { context: 'SIDECAR_OUTBOUND', listener: { portNumber: 6381, listenerFilter: 'filter-to-be-removed' } },
    patch: { operation: 'REMOVE' },
  },
  /* 48 */ {
    applyTo: 'LISTENER_FILTER',
    match: { context: 'SIDECAR_OUTBOUND', listener: { portNumber: 6381, listenerFilter: 'filter-before-replace' } },
    patch: { operation: 'REPLACE', value: { name: 'filter-after-replace' } },
  },
];

/** configPatchesPriorities, with priorities 2, 1, 0. */
export const PRIORITY_PATCHES: unknown[] = [
  {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'GATEWAY',
      listener: {
        portNumber: 80,
        filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter-to-be-removed-then-add' } } },
      },
    },
    patch: { operation: 'ADD', value: { name: 'http-filter-to-be-removed-then-add' } },
  },
  {
    applyTo: 'HTTP_FILTER',
    match: {
      context: 'GATEWAY',
      listener: {
        portNumber: 80,
        filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'http-filter-to-be-removed-then-add' } } },
      },
    },
    patch: { operation: 'REMOVE' },
  },
  {
    applyTo: 'LISTENER_FILTER',
    match: { context: 'GATEWAY', listener: { portNumber: 80, listenerFilter: 'envoy.filters.listener.tls_inspector' } },
    patch: {
      operation: 'MERGE',
      value: {
        name: 'envoy.filters.listener.tls_inspector',
        typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector', initialReadBufferSize: 8192 },
      },
    },
  },
];
export const PRIORITIES = [2, 1, 0];
