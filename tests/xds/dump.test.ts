import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { at, generateFor, list, viewOf } from './helpers.ts';
import { configDump, DUMP_TYPES } from '../../src/core/xds/dump.ts';

const SHOP = readFileSync(new URL('./fixtures/shop.yaml', import.meta.url), 'utf8');
const GATEWAY = readFileSync(new URL('./fixtures/gateway.yaml', import.meta.url), 'utf8');

describe('config dump assembly', () => {
  const gen = generateFor(viewOf(SHOP), 'productpage-1', 'shop');
  const { dump, provenance } = configDump(gen);

  it('has the sections of /config_dump?include_eds in Envoy order', () => {
    expect(dump.configs.map((c) => c['@type'])).toEqual([
      DUMP_TYPES.bootstrap,
      DUMP_TYPES.clusters,
      DUMP_TYPES.endpoints,
      DUMP_TYPES.listeners,
      DUMP_TYPES.scopedRoutes,
      DUMP_TYPES.routes,
      DUMP_TYPES.secrets,
    ]);
  });

  it('wraps each resource with its type and keeps the bootstrap static resources apart', () => {
    const clusters = dump.configs[1];
    expect(list(at(clusters, 'staticClusters')).map((c) => at(c, 'cluster', 'name'))).toEqual(['prometheus_stats', 'agent', 'sds-grpc', 'xds-grpc', 'zipkin']);
    const dynamic = list(at(clusters, 'dynamicActiveClusters'));
    expect(dynamic.length).toBe(gen.clusters.length);
    expect(at(dynamic[0], 'cluster', '@type')).toBe(DUMP_TYPES.cluster);
    const listeners = dump.configs[3];
    expect(list(at(listeners, 'staticListeners')).map((l) => at(l, 'listener', 'name'))).toEqual(['0.0.0.0_15090', '0.0.0.0_15021']);
    expect(list(at(listeners, 'dynamicListeners')).map((l) => l.name)).toEqual(gen.listeners.map((l) => l.name));
    expect(at(listeners, 'dynamicListeners', 0, 'activeState', 'listener', '@type')).toBe(DUMP_TYPES.listener);
    expect(at(dump.configs[5], 'dynamicRouteConfigs', 0, 'routeConfig', 'name')).toBe('9080');
    expect(at(dump.configs[0], 'bootstrap', 'node', 'id')).toBe('sidecar~10.1.0.1~productpage-1.shop~shop.svc.cluster.local');
    expect(at(dump.configs[0], 'bootstrap', 'node', 'metadata', 'ISTIO_VERSION')).toBe(gen.proxy.istioVersion);
  });

  it('lists the SDS secrets by name', () => {
    expect(list(at(dump.configs[6], 'dynamicActiveSecrets')).map((s) => s.name)).toEqual(['default', 'ROOTCA', 'file-root:system']);
  });

  it('says which resources produced each piece', () => {
    expect(provenance.virtualHosts['9080/reviews.shop.svc.cluster.local:9080']?.map((r) => r.resourceKey)).toEqual(
      expect.arrayContaining([expect.stringMatching(/VirtualService\/shop\/reviews$/)]),
    );
    expect(provenance.routes['9080/reviews.shop.svc.cluster.local:9080/0']).toEqual([expect.objectContaining({ fieldPath: 'spec.http[0].match[0]' })]);
    expect(provenance.routes['9080/reviews.shop.svc.cluster.local:9080/1']).toEqual([expect.objectContaining({ fieldPath: 'spec.http[1]' })]);
    expect(provenance.clusters['outbound|9080|v2|reviews.shop.svc.cluster.local']?.map((r) => r.resourceKey)).toEqual(
      expect.arrayContaining([expect.stringMatching(/Service\/shop\/reviews$/), expect.stringMatching(/DestinationRule\/shop\/reviews$/)]),
    );
    expect(provenance.listeners['10.96.0.20_5432']?.map((r) => r.resourceKey)).toEqual([expect.stringMatching(/Service\/shop\/db$/)]);
    expect(provenance.endpoints['outbound|9080|v1|reviews.shop.svc.cluster.local']?.map((r) => r.resourceKey)).toEqual(
      expect.arrayContaining([expect.stringMatching(/Pod\/shop\/reviews-v1$/)]),
    );
  });

  it('lists gateway credentials among the secrets', () => {
    const gw = configDump(generateFor(viewOf(GATEWAY), 'istio-ingressgateway-1', 'istio-system')).dump;
    const secrets = list(
      at(
        gw.configs.find((c) => c['@type'] === DUMP_TYPES.secrets),
        'dynamicActiveSecrets',
      ),
    ).map((s) => s.name);
    expect(secrets).toContain('kubernetes://web-cert');
  });
});
