import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { at, byName, generateFor, list, obj, viewOf } from './helpers.ts';
import { simulate } from '../../src/core/xds/simulate.ts';
import { routeNamesFromListeners } from '../../src/core/xds/generate.ts';

const SHOP = readFileSync(new URL('./fixtures/shop.yaml', import.meta.url), 'utf8');

describe('sidecar generation (shop fixture)', () => {
  const view = viewOf(SHOP);
  const gen = generateFor(view, 'productpage-1', 'shop');

  it('builds the listeners Istio builds, outbound first, then the virtual ones', () => {
    const names = gen.listeners.map((l) => l.name);
    // HTTP ports listen on the wildcard, TCP ports on the service VIP, TLS (no VIP) on the wildcard.
    expect(new Set(names.slice(0, 3))).toEqual(new Set(['0.0.0.0_9080', '10.96.0.20_5432', '0.0.0.0_443']));
    expect(names.slice(3)).toEqual(['virtualOutbound', 'virtualInbound']);
  });

  it('names clusters outbound|port|subset|host, with one per DestinationRule subset', () => {
    const names = gen.clusters.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'outbound|9080||reviews.shop.svc.cluster.local',
        'outbound|9080|v1|reviews.shop.svc.cluster.local',
        'outbound|9080|v2|reviews.shop.svc.cluster.local',
        'outbound|5432||db.shop.svc.cluster.local',
        'outbound|443||api.payments.example',
        'BlackHoleCluster',
        'PassthroughCluster',
        'InboundPassthroughCluster',
        'inbound|9080||',
      ]),
    );
  });

  it('applies the DestinationRule traffic policy, subset policy over the top-level one', () => {
    const base = byName(gen.clusters, 'outbound|9080||reviews.shop.svc.cluster.local');
    expect(base.type).toBe('EDS');
    expect(base.lbPolicy).toBe('LEAST_REQUEST');
    expect(base.connectTimeout).toBe('3s');
    expect(at(base, 'circuitBreakers', 'thresholds', 0)).toEqual({
      maxConnections: 100,
      maxPendingRequests: 10,
      maxRequests: 4294967295,
      maxRetries: 4294967295,
    });
    expect(at(base, 'outlierDetection')).toMatchObject({
      consecutive5xx: 7,
      enforcingConsecutive5xx: 100,
      interval: '300s',
      baseEjectionTime: '900s',
      enforcingSuccessRate: 0,
    });
    expect(at(base, 'metadata', 'filterMetadata', 'istio', 'config')).toBe('/apis/networking.istio.io/v1/namespaces/shop/destination-rule/reviews');
    expect(at(base, 'metadata', 'filterMetadata', 'istio', 'services')).toEqual([
      { host: 'reviews.shop.svc.cluster.local', name: 'reviews', namespace: 'shop' },
    ]);
    const v2 = byName(gen.clusters, 'outbound|9080|v2|reviews.shop.svc.cluster.local');
    expect(v2.lbPolicy).toBe('RANDOM');
    expect(at(v2, 'metadata', 'filterMetadata', 'istio', 'subset')).toBe('v2');
    expect(at(v2, 'edsClusterConfig', 'serviceName')).toBe('outbound|9080|v2|reviews.shop.svc.cluster.local');
  });

  it('uses auto mTLS: an istio tlsMode match with Istio certificates, and plaintext otherwise', () => {
    const c = byName(gen.clusters, 'outbound|9080||reviews.shop.svc.cluster.local');
    const matches = list(c.transportSocketMatches);
    expect(matches.map((m) => m.name)).toEqual(['tlsMode-istio', 'tlsMode-disabled']);
    expect(at(matches[0], 'match')).toEqual({ tlsMode: 'istio' });
    const tls = obj(at(matches[0], 'transportSocket', 'typedConfig'));
    expect(tls.sni).toBe('outbound_.9080_._.reviews.shop.svc.cluster.local');
    expect(at(tls, 'commonTlsContext', 'alpnProtocols')).toEqual(['istio-peer-exchange', 'istio']);
    expect(at(tls, 'commonTlsContext', 'tlsCertificateSdsSecretConfigs', 0, 'name')).toBe('default');
    expect(at(tls, 'commonTlsContext', 'combinedValidationContext', 'validationContextSdsSecretConfig', 'name')).toBe('ROOTCA');
  });

  it('originates TLS for a DestinationRule in SIMPLE mode', () => {
    const c = byName(gen.clusters, 'outbound|443||api.payments.example');
    expect(c.type).toBe('STRICT_DNS');
    expect(at(c, 'transportSocket', 'typedConfig', 'sni')).toBe('api.payments.example');
    expect(c.transportSocketMatches).toBeUndefined();
    expect(at(c, 'loadAssignment', 'endpoints', 0, 'lbEndpoints', 0, 'endpoint', 'address', 'socketAddress')).toEqual({
      address: 'api.payments.example',
      portValue: 443,
    });
  });

  it('gives subset clusters only the endpoints with the subset labels, with tlsMode and workload metadata', () => {
    const cla = gen.endpoints.find((e) => e.clusterName === 'outbound|9080|v1|reviews.shop.svc.cluster.local');
    const eps = list(at(cla, 'endpoints', 0, 'lbEndpoints'));
    expect(eps.map((e) => at(e, 'endpoint', 'address', 'socketAddress', 'address'))).toEqual(['10.1.0.2']);
    // The namespace injects sidecars, so the pods get the injector's tlsMode label.
    expect(at(eps[0], 'metadata', 'filterMetadata')).toEqual({
      'envoy.transport_socket_match': { tlsMode: 'istio' },
      istio: { workload: 'reviews-v1;shop;reviews;v1;Kubernetes' },
    });
    const all = gen.endpoints.find((e) => e.clusterName === 'outbound|9080||reviews.shop.svc.cluster.local');
    expect(list(at(all, 'endpoints', 0, 'lbEndpoints')).length).toBe(2);
  });

  it('routes a VirtualService in order with weights, retries, timeouts and faults', () => {
    const rc = byName(gen.routes, '9080');
    const vh = list(rc.virtualHosts).find((v) => v.name === 'reviews.shop.svc.cluster.local:9080');
    expect(vh?.domains).toEqual([
      'reviews.shop.svc.cluster.local',
      'reviews.shop.svc.cluster.local.',
      'reviews',
      'reviews.shop.svc',
      'reviews.shop',
      '10.96.0.10',
    ]);
    const routes = list(vh?.routes);
    expect(routes[0]?.name).toBe('jason');
    expect(at(routes[0], 'match', 'headers')).toEqual([{ name: 'end-user', stringMatch: { exact: 'jason' } }]);
    expect(at(routes[0], 'route', 'cluster')).toBe('outbound|9080|v2|reviews.shop.svc.cluster.local');
    expect(at(routes[0], 'route', 'timeout')).toBe('2s');
    expect(at(routes[0], 'route', 'retryPolicy')).toMatchObject({ retryOn: '5xx', numRetries: 3, perTryTimeout: '1s' });
    expect(at(routes[1], 'route', 'weightedClusters', 'clusters')).toEqual([
      { name: 'outbound|9080|v1|reviews.shop.svc.cluster.local', weight: 75 },
      { name: 'outbound|9080|v2|reviews.shop.svc.cluster.local', weight: 25 },
    ]);
    expect(at(routes[1], 'decorator', 'operation')).toBe('reviews:9080/*');
    expect(at(routes[1], 'typedPerFilterConfig', 'envoy.filters.http.fault', 'delay')).toEqual({
      fixedDelay: '5s',
      percentage: { numerator: 100000, denominator: 'MILLION' },
    });
    // Istio's default retry policy where the VirtualService sets none.
    expect(at(routes[1], 'route', 'retryPolicy', 'retryOn')).toBe('connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes');
    expect(at(routes[1], 'route', 'timeout')).toBe('0s');
    // The catch-all virtual host of ALLOW_ANY.
    expect(list(rc.virtualHosts).at(-1)).toMatchObject({ name: 'allow_any', domains: ['*'] });
  });

  it('asks RDS for the routes of its HTTP listeners', () => {
    expect(routeNamesFromListeners(gen.listeners)).toEqual(['9080']);
    expect(gen.routes.map((r) => r.name)).toEqual(['9080']);
  });

  it('sends traffic through the generated config as Envoy would (simulation)', () => {
    const sim = (call: Parameters<typeof simulate>[1]) => simulate({ listeners: gen.listeners, routes: gen.routes }, call);
    expect(sim({ port: 9080, protocol: 'http', host: 'reviews', address: '10.96.0.10' })).toMatchObject({
      listener: '0.0.0.0_9080',
      routeConfig: '9080',
      virtualHost: 'reviews.shop.svc.cluster.local:9080',
      route: 'jason',
      cluster: 'outbound|9080|v2|reviews.shop.svc.cluster.local',
    });
    expect(sim({ port: 5432, protocol: 'tcp', address: '10.96.0.20' })).toMatchObject({
      listener: '10.96.0.20_5432',
      cluster: 'outbound|5432||db.shop.svc.cluster.local',
    });
    expect(sim({ port: 9999, protocol: 'tcp', address: '8.8.8.8' })).toMatchObject({ listener: 'virtualOutbound', cluster: 'PassthroughCluster' });
    // STRICT is not set in this namespace, so plaintext reaches the inbound cluster.
    expect(sim({ mode: 'inbound', port: 9080, protocol: 'http' })).toMatchObject({
      listener: 'virtualInbound',
      filterChain: '0.0.0.0_9080',
      cluster: 'inbound|9080||',
    });
    expect(sim({ mode: 'inbound', port: 9080, protocol: 'http', tls: 'mtls' })).toMatchObject({ cluster: 'inbound|9080||' });
  });
});

describe('PeerAuthentication on the inbound side', () => {
  const strict = `${SHOP}
---
apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: default, namespace: shop}
spec:
  mtls: {mode: STRICT}
`;
  const gen = generateFor(viewOf(strict), 'productpage-1', 'shop');
  const sim = (call: Parameters<typeof simulate>[1]) => simulate({ listeners: gen.listeners, routes: gen.routes }, call);

  it('accepts only Istio mTLS in STRICT mode', () => {
    expect(sim({ mode: 'inbound', port: 9080, protocol: 'http' }).error).toBe('ErrNoFilterChain');
    expect(sim({ mode: 'inbound', port: 9080, protocol: 'http', tls: 'tls' }).error).toBe('ErrMTLSError');
    expect(sim({ mode: 'inbound', port: 9080, protocol: 'http', tls: 'mtls' })).toMatchObject({ cluster: 'inbound|9080||' });
  });

  it('requires client certificates on the inbound chains', () => {
    const vi = byName(gen.listeners, 'virtualInbound');
    const chain = list(vi.filterChains).find((c) => c.name === '0.0.0.0_9080');
    expect(at(chain, 'transportSocket', 'typedConfig', 'requireClientCertificate')).toBe(true);
  });
});

describe('Sidecar egress scoping', () => {
  const scoped = `${SHOP}
---
apiVersion: networking.istio.io/v1
kind: Sidecar
metadata: {name: default, namespace: shop}
spec:
  egress:
  - hosts: ["./reviews.shop.svc.cluster.local"]
`;
  const gen = generateFor(viewOf(scoped), 'productpage-1', 'shop');

  it('keeps only the imported services', () => {
    const outbound = gen.clusters.map((c) => String(c.name)).filter((n) => n.startsWith('outbound|'));
    expect(outbound).toEqual([
      'outbound|9080||reviews.shop.svc.cluster.local',
      'outbound|9080|v1|reviews.shop.svc.cluster.local',
      'outbound|9080|v2|reviews.shop.svc.cluster.local',
    ]);
    expect(gen.listeners.map((l) => l.name)).toEqual(['0.0.0.0_9080', 'virtualOutbound', 'virtualInbound']);
  });
});

describe('REGISTRY_ONLY', () => {
  const gen = generateFor(viewOf(SHOP, { outboundTrafficPolicy: { mode: 'REGISTRY_ONLY' } }), 'productpage-1', 'shop');

  it('blackholes unknown destinations', () => {
    const sim = (call: Parameters<typeof simulate>[1]) => simulate({ listeners: gen.listeners, routes: gen.routes }, call);
    expect(sim({ port: 9999, protocol: 'tcp', address: '8.8.8.8' })).toMatchObject({ cluster: 'BlackHoleCluster' });
    expect(sim({ port: 9080, protocol: 'http', host: 'unknown.example' })).toMatchObject({ virtualHost: 'block_all' });
    expect(gen.clusters.some((c) => c.name === 'PassthroughCluster')).toBe(true);
  });
});
