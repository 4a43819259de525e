// LISTENER / LISTENER_FILTER / FILTER_CHAIN / NETWORK_FILTER / HTTP_FILTER patches, transcribed
// from Istio's TestApplyListenerPatches (pilot/pkg/networking/core/envoyfilter/
// listener_patch_test.go): all five cases, "gateway lds", "gateway lds with priority", "sidecar
// outbound lds", "sidecar outbound lds - skip adds" and "sidecar inbound virtual", with the test's sidecarProxy/gatewayProxy
// (Istio 1.2.2, metadata foo=sidecar, bar=proxy). Go structs are written as proto3 JSON.
import { describe, expect, it } from 'vitest';
import { applyListenerPatches } from '../../../src/core/xds/envoyfilter/listeners.ts';
import type { Json } from '../../../src/core/xds/types.ts';
import type { Resource } from '../../../src/core/document/types.ts';
import { clone, HCM, proxyOf, runFor } from './helpers.ts';
import { LISTENER_PATCHES, PRIORITIES, PRIORITY_PATCHES } from './listenerPatchData.ts';

const T = 'type.googleapis.com/';
const DOWNSTREAM_TLS = `${T}envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext`;

// The raw node metadata comes from the pod's ISTIO_META_* environment.
const pod = {
  key: 'core/Pod/not-default/p',
  name: 'p',
  namespace: 'not-default',
  labels: {},
  annotations: {},
  body: {
    spec: {
      containers: [
        {
          name: 'istio-proxy',
          env: [
            { name: 'ISTIO_META_foo', value: 'sidecar' },
            { name: 'ISTIO_META_bar', value: 'proxy' },
          ],
        },
      ],
    },
  },
} as unknown as Resource;
const sidecarProxy = proxyOf({ type: 'sidecar', istioVersion: '1.2.2', workload: pod });
const gatewayProxy = proxyOf({ type: 'router', istioVersion: '1.2.2', workload: pod });

const port = (n: number): Json => ({ socketAddress: { portValue: n } });
const hcm = (httpFilters: Json[], extra: Json = {}): Json => ({
  name: 'envoy.filters.network.http_connection_manager',
  typedConfig: { '@type': HCM, ...extra, ...(httpFilters.length ? { httpFilters } : {}) },
});
const named = (...names: string[]): Json[] => names.map((name) => ({ name }));

const gatewayIn: Json[] = [
  {
    name: '80',
    address: port(80),
    filterChains: [{ filterChainMatch: { serverNames: ['match.com', '*.foo.com'] }, filters: [hcm(named('http-filter1', 'http-filter2'))] }],
  },
  {
    name: 'another-listener',
    address: port(443),
    filterChains: [{ filterChainMatch: { serverNames: ['nomatch.com', '*.foo.com'] }, filters: named('network-filter') }],
  },
];
const gatewayOut: Json[] = [
  {
    name: '80',
    address: port(80),
    listenerFilters: named('foo'),
    filterChains: [
      {
        filterChainMatch: { serverNames: ['match.com', '*.foo.com', 'foo.com'] },
        filters: [hcm(named('http-filter1', 'http-filter2', 'http-filter3', 'http-filter-to-be-removed-then-add'))],
      },
    ],
  },
  {
    name: 'another-listener',
    address: port(443),
    filterChains: [{ filterChainMatch: { serverNames: ['nomatch.com', '*.foo.com'] }, filters: named('network-filter') }],
  },
];

const TLS_INSPECTOR = `${T}envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector`;
const gatewayPriorityIn: Json[] = [
  {
    name: '80',
    address: port(80),
    filterChains: [{ filters: [hcm([])] }],
    listenerFilters: [{ name: 'envoy.filters.listener.tls_inspector', typedConfig: { '@type': TLS_INSPECTOR } }],
  },
];
const gatewayPriorityOut: Json[] = [
  {
    name: '80',
    address: port(80),
    filterChains: [{ filters: [hcm(named('http-filter-to-be-removed-then-add'))] }],
    listenerFilters: [{ name: 'envoy.filters.listener.tls_inspector', typedConfig: { '@type': TLS_INSPECTOR, initialReadBufferSize: 8192 } }],
  },
];

const sidecarOutboundInNoAdd: Json[] = [
  {
    name: '12345',
    address: port(12345),
    filterChains: [
      {
        filterChainMatch: { transportProtocol: 'tls' },
        transportSocket: { name: 'envoy.transport_sockets.tls', typedConfig: { '@type': DOWNSTREAM_TLS } },
        filters: named('envoy.transport_sockets.tls'),
      },
      { filterChainMatch: { applicationProtocols: ['http/1.1', 'h2c'] }, filters: named('filter1') },
      { filters: named('filter1', 'filter2') },
    ],
  },
  { name: 'another-listener' },
];
const sidecarOutboundOutNoAdd: Json[] = [
  {
    name: '12345',
    address: port(12345),
    filterChains: [
      {
        filterChainMatch: { transportProtocol: 'tls' },
        transportSocket: {
          name: 'envoy.transport_sockets.tls',
          typedConfig: {
            '@type': DOWNSTREAM_TLS,
            commonTlsContext: { tlsParams: { tlsMaximumProtocolVersion: 'TLSv1_3', tlsMinimumProtocolVersion: 'TLSv1_2' } },
          },
        },
        filters: named('envoy.transport_sockets.tls'),
      },
      { filters: named('filter0', 'filter1') },
    ],
    listenerFilters: named('http-filter-to-be-removed-then-add', 'before proxy_protocol', 'envoy.filters.listener.proxy_protocol', 'after proxy_protocol'),
  },
  { name: 'another-listener' },
];

const ALTS_SOCKET: Json = {
  name: 'transport_sockets.alts',
  typedConfig: {
    '@type': `${T}udpa.type.v1.TypedStruct`,
    typeUrl: `${T}envoy.extensions.transport_sockets.alts.v3.Alts`,
    value: { handshaker_service: '1.2.3.4' },
  },
};
const REDIS_REPLACED: Json = {
  name: 'envoy.redis_proxy',
  typedConfig: {
    '@type': `${T}envoy.extensions.filters.network.redis_proxy.v3.RedisProxy`,
    statPrefix: 'redis_stats',
    prefixRoutes: { catchAllRoute: { cluster: 'custom-redis-cluster' } },
  },
};
const redisWithTimeout = (opTimeout: string): Json => ({
  name: 'envoy.filters.network.redis_proxy',
  typedConfig: { '@type': `${T}envoy.extensions.filters.network.redis_proxy.v3.RedisProxy`, settings: { opTimeout } },
});
const httpListener = (name: string, filters: string[]): Json => ({
  name,
  filterChains: [{ filterChainMatch: { destinationPort: 80 }, filters: [hcm(named(...filters))] }],
});

const sidecarOutboundIn: Json[] = [
  {
    name: '12345',
    address: port(12345),
    filterChains: [
      {
        filterChainMatch: { transportProtocol: 'tls' },
        transportSocket: {
          name: 'envoy.transport_sockets.tls',
          typedConfig: { '@type': DOWNSTREAM_TLS, commonTlsContext: { tlsParams: { ecdhCurves: ['X25519'], tlsMaximumProtocolVersion: 'TLSv1_1' } } },
        },
        filters: named('envoy.transport_sockets.tls'),
      },
      { filterChainMatch: { applicationProtocols: ['http/1.1', 'h2c'] }, filters: named('filter1') },
      { filters: named('filter1', 'filter2') },
    ],
  },
  { name: 'network-filter-to-be-replaced', address: port(6379), filterChains: [{ filters: named('filter1', 'filter2') }] },
  { name: 'redis-proxy', filterChains: [{ filterChainMatch: { destinationPort: 9999 }, filters: [redisWithTimeout('5s')] }] },
  { name: 'network-filter-to-be-replaced-not-found', address: port(6380), filterChains: [{ filters: named('network-filter-should-not-be-replaced') }] },
  {
    name: 'default-filter-chain',
    address: port(6381),
    filterChains: [{ filters: named('network-filter') }],
    defaultFilterChain: { filters: named('default-network-filter', 'default-network-filter-removed') },
    listenerFilters: named('filter-to-be-removed', 'filter-before-replace'),
  },
  { name: 'another-listener' },
  httpListener('listener-http-filter-to-be-replaced', ['http-filter-to-be-replaced', 'another-http-filter']),
  httpListener('listener-http-filter-to-be-replaced-not-found', ['http-filter-should-not-be-replaced', 'another-http-filter']),
  {
    name: 'custom-tls-replacement',
    address: port(7777),
    filterChains: [
      {
        transportSocket: { name: 'envoy.transport_sockets.tls', typedConfig: { '@type': DOWNSTREAM_TLS, commonTlsContext: { tlsParams: {} } } },
        filters: named('filter'),
      },
    ],
  },
  { name: 'custom-tls-addition', address: port(7778), filterChains: [{ filters: named('filter') }] },
];
const sidecarOutboundOut: Json[] = [
  {
    name: '12345',
    address: port(12345),
    filterChains: [
      {
        filterChainMatch: { transportProtocol: 'tls' },
        transportSocket: {
          name: 'envoy.transport_sockets.tls',
          typedConfig: {
            '@type': DOWNSTREAM_TLS,
            commonTlsContext: { tlsParams: { ecdhCurves: ['X25519'], tlsMaximumProtocolVersion: 'TLSv1_3', tlsMinimumProtocolVersion: 'TLSv1_2' } },
          },
        },
        filters: named('envoy.transport_sockets.tls'),
      },
      { filters: named('filter0', 'filter1') },
    ],
    listenerFilters: named('http-filter-to-be-removed-then-add', 'before proxy_protocol', 'envoy.filters.listener.proxy_protocol', 'after proxy_protocol'),
  },
  { name: 'network-filter-to-be-replaced', address: port(6379), filterChains: [{ filters: [REDIS_REPLACED, { name: 'filter2' }] }] },
  { name: 'redis-proxy', filterChains: [{ filterChainMatch: { destinationPort: 9999 }, filters: [redisWithTimeout('0.2s')] }] },
  { name: 'network-filter-to-be-replaced-not-found', address: port(6380), filterChains: [{ filters: named('network-filter-should-not-be-replaced') }] },
  {
    name: 'default-filter-chain',
    address: port(6381),
    filterChains: [{ filters: named('network-filter') }],
    defaultFilterChain: { filters: named('default-network-filter-replaced') },
    listenerFilters: named('filter-after-replace'),
  },
  { name: 'another-listener' },
  httpListener('listener-http-filter-to-be-replaced', ['http-filter-replaced', 'another-http-filter']),
  httpListener('listener-http-filter-to-be-replaced-not-found', ['http-filter-should-not-be-replaced', 'another-http-filter']),
  { name: 'custom-tls-replacement', address: port(7777), filterChains: [{ transportSocket: ALTS_SOCKET, filters: named('filter') }] },
  { name: 'custom-tls-addition', address: port(7778), filterChains: [{ transportSocket: ALTS_SOCKET, filters: named('filter') }] },
  { name: 'new-outbound-listener1' },
];

const FAULT = `${T}envoy.extensions.filters.http.fault.v3.HTTPFault`;
const TCP_PROXY = `${T}envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy`;
const REDIS = `${T}envoy.extensions.filters.network.redis_proxy.v3.RedisProxy`;
const blackholeChain: Json = {
  name: 'virtualInbound-blackhole',
  filterChainMatch: { destinationPort: 15006 },
  filters: [{ name: 'envoy.filters.network.tcp_proxy', typedConfig: { '@type': TCP_PROXY, statPrefix: 'BlackHoleCluster', cluster: 'BlackHoleCluster' } }],
};
const virtualInbound = (chains: Json[]): Json => ({
  name: 'virtualInbound',
  useOriginalDst: true,
  trafficDirection: 'INBOUND',
  address: port(15006),
  filterChains: chains,
});
const sidecarVirtualInboundIn: Json[] = [
  virtualInbound([
    blackholeChain,
    {
      filterChainMatch: { destinationPort: 80 },
      filters: [
        hcm([
          { name: 'envoy.filters.http.fault', typedConfig: { '@type': FAULT, upstreamCluster: 'foobar' } },
          ...named('http-filter2', 'http-filter-to-be-removed'),
        ]),
      ],
    },
    { filterChainMatch: { addressSuffix: '0.0.0.0' }, filters: named('network-filter-should-not-be-replaced') },
    { filterChainMatch: { destinationPort: 6380 }, filters: named('network-filter-to-be-replaced') },
    { name: 'filter-chain-name-not-match', filters: named('custom-network-filter-1', 'custom-network-filter-2') },
    { name: 'filter-chain-name-match', filters: named('custom-network-filter-1', 'custom-network-filter-2') },
    { name: 'catch-all', filterChainMatch: {}, filters: [hcm(named('base'))] },
  ]),
];
const sidecarVirtualInboundOut: Json[] = [
  virtualInbound([
    blackholeChain,
    {
      filterChainMatch: { destinationPort: 80 },
      transportSocket: {
        name: 'envoy.transport_sockets.tls',
        typedConfig: { '@type': DOWNSTREAM_TLS, commonTlsContext: { alpnProtocols: ['h2-80', 'http/1.1-80'] } },
      },
      filters: [
        hcm(
          [
            { name: 'http-filter0' },
            { name: 'envoy.filters.http.fault', typedConfig: { '@type': FAULT, upstreamCluster: 'scooby', downstreamNodes: ['foo'] } },
            ...named('http-filter3', 'http-filter2', 'http-filter-5', 'http-filter4', 'http-filter-to-be-removed-then-add'),
          ],
          { xffNumTrustedHops: 4, mergeSlashes: true, alwaysSetRequestIdInResponse: true },
        ),
      ],
    },
    { filterChainMatch: { addressSuffix: '0.0.0.0' }, filters: named('network-filter-should-not-be-replaced') },
    {
      filterChainMatch: { destinationPort: 6380 },
      transportSocket: {
        name: 'envoy.transport_sockets.tls',
        typedConfig: { '@type': DOWNSTREAM_TLS, commonTlsContext: { alpnProtocols: ['h2-6380', 'http/1.1-6380'] } },
      },
      filters: [
        {
          name: 'envoy.redis_proxy',
          typedConfig: { '@type': REDIS, statPrefix: 'redis_stats', prefixRoutes: { catchAllRoute: { cluster: 'custom-redis-cluster' } } },
        },
      ],
    },
    { name: 'filter-chain-name-not-match', filters: named('custom-network-filter-1', 'custom-network-filter-2') },
    { name: 'filter-chain-name-match', filters: named('custom-network-filter-1') },
    { name: 'catch-all', filterChainMatch: {}, filters: [hcm(named('base'))] },
  ]),
];

describe('TestApplyListenerPatches', () => {
  const cases = [
    { name: 'gateway lds', ctx: 'GATEWAY' as const, proxy: gatewayProxy, priorities: false, input: gatewayIn, skipAdds: false, want: gatewayOut },
    {
      name: 'gateway lds with priority',
      ctx: 'GATEWAY' as const,
      proxy: gatewayProxy,
      priorities: true,
      input: gatewayPriorityIn,
      skipAdds: false,
      want: gatewayPriorityOut,
    },
    {
      name: 'sidecar outbound lds',
      ctx: 'SIDECAR_OUTBOUND' as const,
      proxy: sidecarProxy,
      priorities: false,
      input: sidecarOutboundIn,
      skipAdds: false,
      want: sidecarOutboundOut,
    },
    {
      name: 'sidecar outbound lds - skip adds',
      ctx: 'SIDECAR_OUTBOUND' as const,
      proxy: sidecarProxy,
      priorities: false,
      input: sidecarOutboundInNoAdd,
      skipAdds: true,
      want: sidecarOutboundOutNoAdd,
    },
    {
      name: 'sidecar inbound virtual',
      ctx: 'SIDECAR_INBOUND' as const,
      proxy: sidecarProxy,
      priorities: false,
      input: sidecarVirtualInboundIn,
      skipAdds: false,
      want: sidecarVirtualInboundOut,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const run = c.priorities ? runFor(PRIORITY_PATCHES, c.proxy, { priorities: PRIORITIES }) : runFor(LISTENER_PATCHES, c.proxy);
      expect(applyListenerPatches(run, c.ctx, clone(c.input), c.skipAdds)).toEqual(c.want);
    });
  }
});
