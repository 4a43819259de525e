// Proto merge over proto3 JSON. TestMerge* are transcribed from Istio's
// pkg/proto/merge/merge_test.go; the rest state protobuf-go's proto.Merge contract (populated
// scalars copied, singular messages merged recursively, lists appended, map entries replaced,
// setting a oneof member clears the others) and protojson's non-strict reading of a patch value.
import { describe, expect, it } from 'vitest';
import { mergeAnyWithAny, mergeMessage, readMessage } from '../../../src/core/xds/envoyfilter/protoJson.ts';

const LISTENER = 'envoy.config.listener.v3.Listener';
const CLUSTER = 'envoy.config.cluster.v3.Cluster';

describe('istio pkg/proto/merge', () => {
  it('TestMerge: a Duration is replaced whole, the source left as it was', () => {
    const dst = { listenerFiltersTimeout: '789.000000999s' };
    const src = { listenerFiltersTimeout: '123.000000456s' };
    expect(mergeMessage(dst, src, LISTENER)).toEqual({ listenerFiltersTimeout: '123.000000456s' });
    expect(dst).toEqual({ listenerFiltersTimeout: '789.000000999s' });
  });
  it('TestMerge_AppendsList', () => {
    const out = mergeMessage({ listenerFilters: [{ name: 'a' }, { name: 'b' }] }, { listenerFilters: [{ name: 'c' }] }, LISTENER);
    expect(out.listenerFilters).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
  });
  it('TestMergeWithReplaceList', () => {
    const out = mergeMessage({ name: 'keep-me', listenerFilters: [{ name: 'a' }, { name: 'b' }] }, { listenerFilters: [{ name: 'c' }] }, LISTENER, {
      replaceList: true,
    });
    expect(out).toEqual({ name: 'keep-me', listenerFilters: [{ name: 'c' }] });
  });
  it('TestMergeWithReplaceList_EmptyListNotCleared', () => {
    const out = mergeMessage({ listenerFilters: [{ name: 'a' }] }, { name: 'set-name' }, LISTENER, { replaceList: true });
    expect(out).toEqual({ name: 'set-name', listenerFilters: [{ name: 'a' }] });
  });
  it('TestMergeWithReplaceList_Nested', () => {
    const out = mergeMessage({ filterChains: [{ filters: [{ name: 'f1' }, { name: 'f2' }] }] }, { filterChains: [{ filters: [{ name: 'f3' }] }] }, LISTENER, {
      replaceList: true,
    });
    expect(out.filterChains).toEqual([{ filters: [{ name: 'f3' }] }]);
  });
});

describe('proto.Merge contract over JSON', () => {
  it('merges singular messages field by field', () => {
    const out = mergeMessage(
      { commonLbConfig: { healthyPanicThreshold: { value: 10 }, ignoreNewHostsUntilFirstHc: true } },
      { commonLbConfig: { closeConnectionsOnHostSetChange: true } },
      CLUSTER,
    );
    expect(out.commonLbConfig).toEqual({ healthyPanicThreshold: { value: 10 }, ignoreNewHostsUntilFirstHc: true, closeConnectionsOnHostSetChange: true });
  });
  it('setting one member of a oneof clears the other', () => {
    // Cluster.cluster_discovery_type: type vs cluster_type.
    const out = mergeMessage({ name: 'c', clusterType: { name: 'envoy.clusters.dynamic_forward_proxy' } }, { type: 'EDS' }, CLUSTER);
    expect(out).toEqual({ name: 'c', type: 'EDS' });
  });
  it('replaces map entries by key', () => {
    const dst = {
      typedExtensionProtocolOptions: {
        a: { '@type': 'type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions', commonHttpProtocolOptions: { idleTimeout: '1s' } },
        b: { '@type': 'x' },
      },
    };
    const src = {
      typedExtensionProtocolOptions: {
        a: { '@type': 'type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions', explicitHttpConfig: { http2ProtocolOptions: {} } },
      },
    };
    expect(mergeMessage(dst, src, CLUSTER).typedExtensionProtocolOptions).toEqual({ a: src.typedExtensionProtocolOptions.a, b: { '@type': 'x' } });
  });
  it('replaces an Any field whole when the patch carries a payload', () => {
    const T = 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext';
    const out = mergeMessage(
      { transportSocket: { name: 'tls', typedConfig: { '@type': T, sni: 'a', allowRenegotiation: true } } },
      { transportSocket: { typedConfig: { '@type': T, sni: 'b' } } },
      CLUSTER,
    );
    expect(out.transportSocket).toEqual({ name: 'tls', typedConfig: { '@type': T, sni: 'b' } });
  });
});

describe('reading a patch value (protojson, unknown fields discarded)', () => {
  it('takes either field spelling, drops unknown fields and zero values of implicit-presence fields', () => {
    const { value } = readMessage({ connect_timeout: '1s', lbPolicy: 'ROUND_ROBIN', bogus: 1, per_connection_buffer_limit_bytes: '1024', name: '' }, CLUSTER);
    // ROUND_ROBIN is enum value 0 and name '' is empty: neither is "set", so a merge never sees them.
    expect(value).toEqual({ connectTimeout: '1s', perConnectionBufferLimitBytes: 1024 });
  });
  it('resolves Any payloads by @type and reads them as that message', () => {
    const { value } = readMessage(
      { name: 'f', typed_config: { '@type': 'type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua', inline_code: 'x' } },
      'envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter',
    );
    expect(value).toEqual({ name: 'f', typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua', inlineCode: 'x' } });
  });
  it('refuses a value of the wrong JSON type, as protojson does (istiod then drops the patch)', () => {
    expect(() => readMessage({ name: { nested: true } }, CLUSTER)).toThrow();
    expect(() => readMessage({ name: 1 }, CLUSTER)).toThrow();
    expect(() => readMessage({ respect_dns_ttl: 'true' }, CLUSTER)).toThrow();
    expect(() => readMessage({ per_connection_buffer_limit_bytes: 1.5 }, CLUSTER)).toThrow();
  });
  it('discards an unknown enum name like an unknown field', () => {
    expect(readMessage({ name: 'x', lb_policy: 'NOT_A_POLICY' }, CLUSTER).value).toEqual({ name: 'x' });
  });
});

describe('MergeAnyWithAny', () => {
  const HCM = 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager';
  it('merges payloads of one type as messages', () => {
    const r = mergeAnyWithAny(
      { '@type': HCM, statPrefix: 'a', httpFilters: [{ name: 'x' }] },
      { '@type': HCM, mergeSlashes: true, httpFilters: [{ name: 'y' }] },
    );
    expect(r).toEqual({ ok: true, value: { '@type': HCM, statPrefix: 'a', httpFilters: [{ name: 'x' }, { name: 'y' }], mergeSlashes: true } });
  });
  it('fails for payloads of different types (istiod panics there)', () => {
    expect(mergeAnyWithAny({ '@type': HCM }, { '@type': 'type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua' }).ok).toBe(false);
  });
});
