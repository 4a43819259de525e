// The ALLOW_ANY_DYNAMIC_DNS outbound traffic policy as istiod builds it for a sidecar
// (pilot/pkg/networking/core: listener_builder.go buildOutboundCatchAllNetworkFilterChains and
// buildAllowAnyDynamicDNSHTTPFilterChain, the HTTP inspector on virtualOutbound, the DFP HTTP
// filter before the router of every sidecar outbound HCM; cluster_builder.go
// buildAllowAnyDFPCluster; networkfilter.go buildAllowAnyDynamicDNSDNSCacheConfig; httproute.go
// buildCatchAllVirtualHost; util.IsAllowAnyDynamicDNSOutbound: sidecars only). istiod's own
// output for Bookinfo in this mode agrees resource by resource (npm run oracle -- xds,
// workspace bookinfo+dynamic-dns).
import { describe, expect, it } from 'vitest';
import { at, byName, CLIENT_WEB_MESH, generateFor, list, obj, viewOf } from './helpers.ts';
import { simulateRequest } from '../../src/core/xds/request.ts';
import type { Json } from '../../src/core/xds/types.ts';

const DYNAMIC = { outboundTrafficPolicy: { mode: 'ALLOW_ANY_DYNAMIC_DNS' } };

function httpFilterNames(listener: Json): string[][] {
  const chains = [...list(listener.filterChains ?? []), ...(listener.defaultFilterChain ? [obj(listener.defaultFilterChain)] : [])];
  return chains.flatMap((c) =>
    list(c.filters ?? [])
      .filter((f) => f.name === 'envoy.filters.network.http_connection_manager')
      .map((f) => list(at(f, 'typedConfig', 'httpFilters')).map((h) => String(h.name))),
  );
}

describe('ALLOW_ANY_DYNAMIC_DNS', () => {
  it("adds the dynamic forward proxy cluster with its DNS cache (1024 hosts, the proxy's address family)", () => {
    const gen = generateFor(viewOf(CLIENT_WEB_MESH, DYNAMIC), 'client-1', 'app');
    const names = gen.clusters.map((c) => c.name);
    // After BlackHoleCluster and PassthroughCluster, before the inbound ones.
    expect(names.indexOf('AllowAnyDynamicDNSCluster')).toBe(names.indexOf('PassthroughCluster') + 1);
    const c = byName(gen.clusters, 'AllowAnyDynamicDNSCluster');
    expect(c.lbPolicy).toBe('CLUSTER_PROVIDED');
    expect(at(c, 'clusterType', 'name')).toBe('envoy.clusters.dynamic_forward_proxy');
    expect(at(c, 'clusterType', 'typedConfig', 'allowInsecureClusterOptions')).toBe(true);
    expect(at(c, 'clusterType', 'typedConfig', 'dnsCacheConfig')).toEqual({ name: 'allow_any_dfp_dns_cache', dnsLookupFamily: 'V4_ONLY', maxHosts: 1024 });
    expect(c.altStatName).toBe('AllowAnyDynamicDNSCluster;');
  });

  it("resolves through istio-agent's DNS proxy (127.0.0.1:15053) when the proxy captures DNS", () => {
    const captured = CLIENT_WEB_MESH.replace(
      'metadata: {name: client-1, namespace: app, labels: {app: client}}',
      'metadata: {name: client-1, namespace: app, labels: {app: client}, annotations: {proxy.istio.io/config: "proxyMetadata: {ISTIO_META_DNS_CAPTURE: \\"true\\"}"}}',
    );
    const gen = generateFor(viewOf(captured, DYNAMIC), 'client-1', 'app');
    const cache = at(byName(gen.clusters, 'AllowAnyDynamicDNSCluster'), 'clusterType', 'typedConfig', 'dnsCacheConfig');
    expect(at(cache, 'typedDnsResolverConfig', 'name')).toBe('envoy.network.dns_resolver.cares');
    expect(at(cache, 'typedDnsResolverConfig', 'typedConfig', 'resolvers')).toEqual([{ socketAddress: { address: '127.0.0.1', portValue: 15053 } }]);
  });

  it('puts plaintext HTTP on virtualOutbound through the forward proxy, and the DFP filter before every outbound router', () => {
    const gen = generateFor(viewOf(CLIENT_WEB_MESH, DYNAMIC), 'client-1', 'app');
    const vo = byName(gen.listeners, 'virtualOutbound');
    expect(list(vo.filterChains).map((c) => c.name)).toEqual([
      'virtualOutbound-blackhole',
      'virtualOutbound-catchall-tcp-http',
      'virtualOutbound-catchall-tcp',
    ]);
    expect(list(vo.listenerFilters).map((f) => f.name)).toEqual(['envoy.filters.listener.http_inspector']);
    const http = list(vo.filterChains)[1]!;
    expect(at(http, 'filterChainMatch', 'applicationProtocols')).toEqual(['http/1.1', 'h2c']);
    const rc = obj(at(list(http.filters)[0], 'typedConfig', 'routeConfig'));
    expect(rc.name).toBe('allow_any_dynamic_dns');
    expect(at(rc, 'virtualHosts', 0, 'routes', 0, 'route', 'cluster')).toBe('AllowAnyDynamicDNSCluster');
    // The TCP catch-all still passes through (non-HTTP traffic is not the forward proxy's).
    expect(JSON.stringify(list(vo.filterChains)[2])).toContain('"cluster":"PassthroughCluster"');
    for (const l of gen.listeners) {
      const direction = l.trafficDirection;
      for (const filters of httpFilterNames(l)) {
        const dfp = filters.indexOf('envoy.filters.http.dynamic_forward_proxy');
        if (direction === 'OUTBOUND') expect(dfp, String(l.name)).toBe(filters.length - 2);
        else expect(dfp, String(l.name)).toBe(-1);
      }
    }
    // Route configurations end in the allow_any_dynamic_dns virtual host.
    for (const r of gen.routes)
      expect(
        list(r.virtualHosts).map((v) => v.name),
        String(r.name),
      ).toContain('allow_any_dynamic_dns');
  });

  it('leaves ALLOW_ANY and REGISTRY_ONLY as they were', () => {
    for (const mode of ['ALLOW_ANY', 'REGISTRY_ONLY']) {
      const gen = generateFor(viewOf(CLIENT_WEB_MESH, { outboundTrafficPolicy: { mode } }), 'client-1', 'app');
      expect(gen.clusters.map((c) => c.name)).not.toContain('AllowAnyDynamicDNSCluster');
      expect(list(byName(gen.listeners, 'virtualOutbound').filterChains).map((c) => c.name)).toEqual([
        'virtualOutbound-blackhole',
        'virtualOutbound-catchall-tcp',
      ]);
      expect(JSON.stringify(gen.listeners)).not.toContain('dynamic_forward_proxy');
    }
  });

  it('simulates plaintext HTTP to an unknown host reaching the forward proxy cluster, resolved at request time', () => {
    const view = viewOf(CLIENT_WEB_MESH, DYNAMIC);
    const gen = generateFor(view, 'client-1', 'app');
    const r = simulateRequest(view, gen, { host: 'example.com', port: 9999, protocol: 'http', path: '/' });
    expect(r.ok).toBe(true);
    expect(r.listener).toBe('virtualOutbound');
    expect(r.filterChain).toBe('virtualOutbound-catchall-tcp-http');
    expect(r.clusters.map((c) => c.name)).toEqual(['AllowAnyDynamicDNSCluster']);
    // In ALLOW_ANY the same request is passed through to its original address.
    const anyView = viewOf(CLIENT_WEB_MESH, { outboundTrafficPolicy: { mode: 'ALLOW_ANY' } });
    const passed = simulateRequest(anyView, generateFor(anyView, 'client-1', 'app'), { host: 'example.com', port: 9999, protocol: 'http', path: '/' });
    expect(passed.clusters.map((c) => c.name)).toEqual(['PassthroughCluster']);
  });
});
