// CLUSTER patches, transcribed from Istio's
// pilot/pkg/networking/core/envoyfilter/cluster_patch_test.go (Test_clusterMatch,
// TestClusterPatching): Go structs written as proto3 JSON, zero values left out as protojson does.
import { describe, expect, it } from 'vitest';
import { applyClusterMerge, clusterMatch, insertedClusters } from '../../../src/core/xds/envoyfilter/clusters.ts';
import { envoyFilterWrapper } from '../../../src/core/xds/envoyfilter/wrapper.ts';
import type { Json } from '../../../src/core/xds/types.ts';
import type { Resource } from '../../../src/core/document/types.ts';
import { clone, proxyOf, runFor, UPSTREAM_TLS } from './helpers.ts';

function patchOf(match: unknown): ReturnType<typeof envoyFilterWrapper>['patches'][number] {
  const r = {
    key: 'k',
    name: 'f',
    namespace: 'ns',
    kindId: 'networking.istio.io/EnvoyFilter',
    labels: {},
    annotations: {},
    body: { spec: { configPatches: [{ applyTo: 'CLUSTER', match, patch: { operation: 'MERGE' } }] } },
  } as unknown as Resource;
  return envoyFilterWrapper(r).patches[0]!;
}

describe('Test_clusterMatch', () => {
  const cases: { name: string; match: unknown; cluster: string; host?: string; want: boolean }[] = [
    { name: 'name mismatch', match: { cluster: { name: 'scooby' } }, cluster: 'scrappy', want: false },
    { name: 'subset mismatch', match: { cluster: { portNumber: 80, service: 'foo.bar', subset: 'v1' } }, cluster: 'outbound|80|v2|foo.bar', want: false },
    { name: 'service mismatch', match: { cluster: { portNumber: 80, service: 'foo.bar', subset: 'v1' } }, cluster: 'outbound|80|v1|google.com', want: false },
    { name: 'service name match for inbound cluster', match: { cluster: { service: 'foo.bar' } }, cluster: 'inbound|80||', host: 'foo.bar', want: true },
    { name: 'port mismatch', match: { cluster: { portNumber: 80, service: 'foo.bar', subset: 'v1' } }, cluster: 'outbound|90|v1|foo.bar', want: false },
    { name: 'full match', match: { cluster: { portNumber: 80, service: 'foo.bar', subset: 'v1' } }, cluster: 'outbound|80|v1|foo.bar', want: true },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(clusterMatch({ name: c.cluster }, patchOf(c.match), [c.host ?? ''])).toBe(c.want);
    });
  }
});

// TestClusterPatching: the config patches, each in its own EnvoyFilter.
const PATCHES = [
  { applyTo: 'CLUSTER', match: { context: 'SIDECAR_OUTBOUND' }, patch: { operation: 'ADD', value: { name: 'new-cluster1' } } },
  { applyTo: 'CLUSTER', match: { context: 'SIDECAR_OUTBOUND' }, patch: { operation: 'ADD', value: { name: 'new-cluster2' } } },
  { applyTo: 'CLUSTER', match: { context: 'GATEWAY', cluster: { service: 'gateway.com' } }, patch: { operation: 'REMOVE' } },
  { applyTo: 'CLUSTER', match: { context: 'SIDECAR_INBOUND', cluster: { portNumber: 9999 } }, patch: { operation: 'REMOVE' } },
  {
    applyTo: 'CLUSTER',
    match: { context: 'SIDECAR_INBOUND', cluster: { service: 'service.servicens' } },
    patch: { operation: 'MERGE', value: { type: 'EDS' } },
  },
  { applyTo: 'CLUSTER', match: { context: 'ANY' }, patch: { operation: 'MERGE', value: { dns_lookup_family: 'V6_ONLY' } } },
  { applyTo: 'CLUSTER', match: { context: 'ANY' }, patch: { operation: 'MERGE', value: { lb_policy: 'RING_HASH' } } },
  {
    applyTo: 'CLUSTER',
    match: { context: 'SIDECAR_OUTBOUND', cluster: { portNumber: 443 } },
    patch: {
      operation: 'MERGE',
      value: {
        transport_socket: {
          name: 'envoy.transport_sockets.tls',
          typed_config: { '@type': UPSTREAM_TLS, common_tls_context: { tls_params: { tls_minimum_protocol_version: 'TLSv1_3' } } },
        },
      },
    },
  },
  // Patch custom TLS type
  {
    applyTo: 'CLUSTER',
    match: { context: 'SIDECAR_OUTBOUND', cluster: { portNumber: 7777 } },
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
];

const PROVIDER = { instanceName: 'instance', certificateName: 'certificate' };
const tlsSocket = (tlsParams: Json, withProvider = true): Json => ({
  name: 'envoy.transport_sockets.tls',
  typedConfig: { '@type': UPSTREAM_TLS, commonTlsContext: { tlsParams, ...(withProvider ? { tlsCertificateCertificateProviderInstance: PROVIDER } : {}) } },
});
const ALTS_SOCKET: Json = {
  name: 'transport_sockets.alts',
  typedConfig: {
    '@type': 'type.googleapis.com/udpa.type.v1.TypedStruct',
    typeUrl: 'type.googleapis.com/envoy.extensions.transport_sockets.alts.v3.Alts',
    value: { handshaker_service: '1.2.3.4' },
  },
};

// ROUND_ROBIN and the other zero values are not in proto3 JSON.
const SIDECAR_OUTBOUND_IN: Json[] = [
  {
    name: 'outbound|443||cluster1',
    dnsLookupFamily: 'V4_ONLY',
    transportSocketMatches: [{ name: 'tlsMode-istio', transportSocket: tlsSocket({ ecdhCurves: ['X25519'], tlsMinimumProtocolVersion: 'TLSv1_1' }) }],
  },
  { name: 'outbound|443||cluster2', http2ProtocolOptions: { allowConnect: true, allowMetadata: true }, lbPolicy: 'MAGLEV' },
  { name: 'outbound|443||cluster3', dnsLookupFamily: 'V4_ONLY', transportSocket: tlsSocket({ ecdhCurves: ['X25519'], tlsMaximumProtocolVersion: 'TLSv1_3' }) },
  { name: 'outbound|7777||custom-tls-addition' },
  {
    name: 'outbound|7777||custom-tls-replacement',
    dnsLookupFamily: 'V4_ONLY',
    transportSocket: tlsSocket({ ecdhCurves: ['X25519'], tlsMinimumProtocolVersion: 'TLSv1_1' }),
  },
  {
    name: 'outbound|7777||custom-tls-replacement-tsm',
    dnsLookupFamily: 'V4_ONLY',
    transportSocketMatches: [{ name: 'tlsMode-istio', transportSocket: tlsSocket({ ecdhCurves: ['X25519'], tlsMinimumProtocolVersion: 'TLSv1_1' }) }],
  },
];

const SIDECAR_OUTBOUND_OUT: Json[] = [
  {
    name: 'outbound|443||cluster1',
    dnsLookupFamily: 'V6_ONLY',
    lbPolicy: 'RING_HASH',
    transportSocketMatches: [{ name: 'tlsMode-istio', transportSocket: tlsSocket({ ecdhCurves: ['X25519'], tlsMinimumProtocolVersion: 'TLSv1_3' }) }],
  },
  {
    name: 'outbound|443||cluster2',
    http2ProtocolOptions: { allowConnect: true, allowMetadata: true },
    lbPolicy: 'RING_HASH',
    dnsLookupFamily: 'V6_ONLY',
    transportSocket: tlsSocket({ tlsMinimumProtocolVersion: 'TLSv1_3' }, false),
  },
  {
    name: 'outbound|443||cluster3',
    dnsLookupFamily: 'V6_ONLY',
    lbPolicy: 'RING_HASH',
    transportSocket: tlsSocket({ ecdhCurves: ['X25519'], tlsMinimumProtocolVersion: 'TLSv1_3', tlsMaximumProtocolVersion: 'TLSv1_3' }),
  },
  { name: 'outbound|7777||custom-tls-addition', dnsLookupFamily: 'V6_ONLY', lbPolicy: 'RING_HASH', transportSocket: ALTS_SOCKET },
  { name: 'outbound|7777||custom-tls-replacement', dnsLookupFamily: 'V6_ONLY', lbPolicy: 'RING_HASH', transportSocket: ALTS_SOCKET },
  {
    name: 'outbound|7777||custom-tls-replacement-tsm',
    dnsLookupFamily: 'V6_ONLY',
    lbPolicy: 'RING_HASH',
    transportSocketMatches: [{ name: 'tlsMode-istio', transportSocket: tlsSocket({ ecdhCurves: ['X25519'], tlsMinimumProtocolVersion: 'TLSv1_1' }) }],
  },
  { name: 'new-cluster1' },
  { name: 'new-cluster2' },
];

describe('TestClusterPatching', () => {
  const cases = [
    {
      name: 'sidecar outbound cluster patch',
      input: SIDECAR_OUTBOUND_IN,
      type: 'sidecar' as const,
      ctx: 'SIDECAR_OUTBOUND' as const,
      host: '',
      output: SIDECAR_OUTBOUND_OUT,
    },
    {
      name: 'sidecar inbound cluster patch',
      input: [{ name: 'cluster1', dnsLookupFamily: 'V4_ONLY' }, { name: 'inbound|9999||mgmtCluster' }],
      type: 'sidecar' as const,
      ctx: 'SIDECAR_INBOUND' as const,
      host: '',
      output: [{ name: 'cluster1', dnsLookupFamily: 'V6_ONLY', lbPolicy: 'RING_HASH' }],
    },
    {
      name: 'sidecar inbound cluster patch with service name',
      input: [{ name: 'inbound|7443||', dnsLookupFamily: 'V4_ONLY' }],
      type: 'sidecar' as const,
      ctx: 'SIDECAR_INBOUND' as const,
      host: 'service.servicens',
      output: [{ name: 'inbound|7443||', type: 'EDS', dnsLookupFamily: 'V6_ONLY', lbPolicy: 'RING_HASH' }],
    },
    {
      name: 'gateway cds patch',
      input: [
        { name: 'cluster1', dnsLookupFamily: 'V4_ONLY' },
        { name: 'cluster2', http2ProtocolOptions: { allowConnect: true, allowMetadata: true }, lbPolicy: 'MAGLEV' },
        { name: 'outbound|443||gateway.com' },
      ],
      type: 'router' as const,
      ctx: 'GATEWAY' as const,
      host: '',
      output: [
        { name: 'cluster1', dnsLookupFamily: 'V6_ONLY', lbPolicy: 'RING_HASH' },
        { name: 'cluster2', http2ProtocolOptions: { allowConnect: true, allowMetadata: true }, lbPolicy: 'RING_HASH', dnsLookupFamily: 'V6_ONLY' },
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const run = runFor(PATCHES, proxyOf({ type: c.type }));
      const out: Json[] = [];
      for (const cl of clone(c.input as Json[])) {
        const p = applyClusterMerge(run, c.ctx, cl, [c.host]);
        if (p) out.push(p);
      }
      out.push(...insertedClusters(run, c.ctx));
      expect(out).toEqual(c.output);
    });
  }
});
