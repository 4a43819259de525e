// Findings in the proxy-config tables, read from a dump. Expected values come from Envoy's
// documented semantics:
// - route_components.proto, WeightedCluster: each entry gets weight / (sum of the weights) of
//   the requests (total_weight is deprecated; the sum is used).
// - RouteAction.cluster_not_found_response_code: SERVICE_UNAVAILABLE (503) by default,
//   NOT_FOUND (404) or INTERNAL_SERVER_ERROR (500) when set; the router sets response flag NC
//   ("no cluster found", docs: access log %RESPONSE_FLAGS%).
// - A cluster without a host: the router answers 503 with flag UH ("no healthy upstream hosts").
// - The connection manager with no route for the request: 404 with flag NR ("no route configured").
// - Istio names a route's destination outbound|port|subset|host whether or not the subset's
//   cluster exists, and builds subset clusters only for the DestinationRule's subsets
//   (pilot/pkg/networking/core/cluster_builder.go); the bookinfo case below comes from our generator.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { configDumpFromValue, tableFindings, findingsByRow, formatShare, type ConfigDump } from '../../src/core/xds/configdump/index.ts';
import { configDump } from '../../src/core/xds/dump.ts';
import { viewOf, generateFor } from './helpers.ts';

const T = 'type.googleapis.com/envoy.admin.v3.';
const V1 = 'outbound|9080|v1|reviews.bookinfo.svc.cluster.local';
const V3 = 'outbound|9080|v3|reviews.bookinfo.svc.cluster.local';

function eds(name: string) {
  return { cluster: { name, type: 'EDS', edsClusterConfig: { serviceName: name } } };
}
function cla(name: string, addresses: string[]) {
  return {
    endpointConfig: {
      clusterName: name,
      endpoints: addresses.length
        ? [{ lbEndpoints: addresses.map((a) => ({ endpoint: { address: { socketAddress: { address: a, portValue: 9080 } } } })) }]
        : [],
    },
  };
}
function route(action: Record<string, unknown>) {
  return { match: { prefix: '/' }, route: action };
}
function dumpOf(parts: { clusters?: unknown[]; endpoints?: unknown[] | null; routes?: unknown[]; listeners?: unknown[] }): ConfigDump {
  const configs: unknown[] = [
    { '@type': `${T}ClustersConfigDump`, dynamicActiveClusters: parts.clusters ?? [] },
    { '@type': `${T}RoutesConfigDump`, dynamicRouteConfigs: (parts.routes ?? []).map((r) => ({ routeConfig: r })) },
    { '@type': `${T}ListenersConfigDump`, dynamicListeners: (parts.listeners ?? []).map((l) => ({ activeState: { listener: l } })) },
  ];
  if (parts.endpoints !== null) configs.push({ '@type': `${T}EndpointsConfigDump`, dynamicEndpointConfigs: parts.endpoints ?? [] });
  const r = configDumpFromValue({ configs });
  if (!r.ok) throw new Error(r.error);
  return r.dump;
}
const rc = (name: string, routes: unknown[]) => ({ name, virtualHosts: [{ name: 'reviews.bookinfo.svc.cluster.local:9080', domains: ['reviews'], routes }] });

describe('routes to a cluster the proxy does not have: NC for that entry share', () => {
  it('weights 80/20 with the 20% entry missing: 503 NC for 20% of requests, on the route row', () => {
    const dump = dumpOf({
      clusters: [eds(V1)],
      endpoints: [cla(V1, ['10.0.0.1'])],
      routes: [
        rc('9080', [
          route({
            weightedClusters: {
              clusters: [
                { name: V1, weight: 80 },
                { name: V3, weight: 20 },
              ],
            },
          }),
        ]),
      ],
    });
    const f = tableFindings(dump);
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({
      table: 'routes',
      key: '9080/reviews.bookinfo.svc.cluster.local:9080/0',
      flag: 'NC',
      status: 503,
      share: 20,
      target: V3,
      consequence: '503 NC (no cluster) for 20% of requests',
    });
    expect(f[0]!.detail).toContain(`finds no cluster ${V3} and answers 503 with response flag NC`);
    expect(f[0]!.detail).toContain('subset v3 of reviews.bookinfo.svc.cluster.local');
    expect(f[0]!.detail).toContain('(this proxy has v1)');
  });

  it('a single cluster is 100%; the share is weight over the sum of weights (not over 100)', () => {
    const single = dumpOf({ clusters: [], routes: [rc('80', [route({ cluster: V3 })])] });
    expect(tableFindings(single)[0]).toMatchObject({ share: 100, consequence: '503 NC (no cluster) for 100% of requests' });
    // 1 of 3 equal weights: a third of requests.
    const third = dumpOf({
      clusters: [eds(V1)],
      endpoints: [cla(V1, ['10.0.0.1'])],
      routes: [
        rc('80', [
          route({
            weightedClusters: {
              clusters: [
                { name: V1, weight: 2 },
                { name: V3, weight: 1 },
              ],
            },
          }),
        ]),
      ],
    });
    const f = tableFindings(third);
    expect(f[0]!.share).toBeCloseTo(100 / 3);
    expect(f[0]!.consequence).toBe('503 NC (no cluster) for 33.3% of requests');
  });

  it('each missing entry is its own finding; zero-weight entries get no requests', () => {
    const dump = dumpOf({
      clusters: [eds(V1)],
      endpoints: [cla(V1, ['10.0.0.1'])],
      routes: [
        rc('80', [
          route({
            weightedClusters: {
              clusters: [
                { name: V1, weight: 50 },
                { name: 'outbound|9080|v2|r', weight: 30 },
                { name: V3, weight: 20 },
                { name: 'outbound|9080|v4|r', weight: 0 },
              ],
            },
          }),
        ]),
      ],
    });
    expect(tableFindings(dump).map((x) => [x.target, x.share])).toEqual([
      ['outbound|9080|v2|r', 30],
      [V3, 20],
    ]);
  });

  it('honours cluster_not_found_response_code (NOT_FOUND: 404, INTERNAL_SERVER_ERROR: 500)', () => {
    const dump = dumpOf({
      routes: [
        rc('80', [
          route({ cluster: V3, clusterNotFoundResponseCode: 'NOT_FOUND' }),
          route({ cluster: V3, clusterNotFoundResponseCode: 'INTERNAL_SERVER_ERROR' }),
        ]),
      ],
    });
    expect(tableFindings(dump).map((x) => x.consequence)).toEqual(['404 NC (no cluster) for 100% of requests', '500 NC (no cluster) for 100% of requests']);
  });

  it('redirects, direct responses and routes to present clusters are not findings; a host the proxy has no cluster for is said so', () => {
    const dump = dumpOf({
      clusters: [eds(V1)],
      endpoints: [cla(V1, ['10.0.0.1'])],
      routes: [
        rc('80', [
          { match: { prefix: '/a' }, redirect: { hostRedirect: 'x' } },
          { match: { prefix: '/b' }, directResponse: { status: 418 } },
          route({ cluster: V1 }),
          route({ cluster: 'outbound|80||ratings.bookinfo.svc.cluster.local' }),
        ]),
      ],
    });
    const f = tableFindings(dump);
    expect(f.map((x) => x.key)).toEqual(['80/reviews.bookinfo.svc.cluster.local:9080/3']);
    expect(f[0]!.detail).toContain('no cluster for ratings.bookinfo.svc.cluster.local port 80');
  });
});

describe('EDS clusters with no endpoint: 503 UH', () => {
  it('marks the cluster, and routes to it with their share', () => {
    const dump = dumpOf({
      clusters: [eds(V1), eds(V3), { cluster: { name: 'BlackHoleCluster', type: 'STATIC' } }],
      endpoints: [cla(V1, ['10.0.0.1']), cla(V3, [])],
      routes: [
        rc('9080', [
          route({
            weightedClusters: {
              clusters: [
                { name: V1, weight: 75 },
                { name: V3, weight: 25 },
              ],
            },
          }),
        ]),
      ],
    });
    const f = tableFindings(dump);
    expect(f.map((x) => [x.table, x.key, x.flag, x.status, x.share, x.consequence])).toEqual([
      ['clusters', V3, 'UH', 503, 100, '503 UH: no healthy upstream'],
      ['routes', '9080/reviews.bookinfo.svc.cluster.local:9080/0', 'UH', 503, 25, '503 UH (no healthy upstream) for 25% of requests'],
    ]);
  });

  it('looks the load assignment up by eds_cluster_config.service_name, and says nothing without an EDS section', () => {
    const named = dumpOf({
      clusters: [{ cluster: { name: 'c', type: 'EDS', edsClusterConfig: { serviceName: 'svc' } } }],
      endpoints: [cla('svc', ['10.0.0.2'])],
    });
    expect(tableFindings(named)).toEqual([]);
    // A dump taken without include_eds has no endpoints to judge by.
    const noEds = dumpOf({ clusters: [eds(V3)], endpoints: null });
    expect(tableFindings(noEds)).toEqual([]);
  });
});

describe('HTTP filter chains whose RDS route config is missing: 404 NR', () => {
  const hcm = (rds: string) => ({
    name: 'envoy.filters.network.http_connection_manager',
    typedConfig: {
      '@type': 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
      rds: { configSource: { ads: {}, initialFetchTimeout: '0s' }, routeConfigName: rds },
    },
  });
  it('keys the chain as provenance does (index, or "default") and names the route config', () => {
    const dump = dumpOf({
      routes: [rc('9080', [])],
      listeners: [
        { name: '0.0.0.0_8080', filterChains: [{ filters: [hcm('9080')] }, { filters: [hcm('8080')] }], defaultFilterChain: { filters: [hcm('gone')] } },
      ],
    });
    const f = tableFindings(dump);
    expect(f.map((x) => [x.key, x.flag, x.status, x.consequence])).toEqual([
      ['0.0.0.0_8080/1', 'NR', 404, '404 NR: route config 8080 missing'],
      ['0.0.0.0_8080/default', 'NR', 404, '404 NR: route config gone missing'],
    ]);
    expect(f[0]!.detail).toContain('initial_fetch_timeout is 0s');
    expect(findingsByRow(f).listeners.get('0.0.0.0_8080/1')).toHaveLength(1);
  });
});

describe('the generated config of Bookinfo with the reporter mistake', () => {
  it('productpage: the reviews route sends 20% to subset v3, which the DestinationRule lacks', () => {
    const dir = join(import.meta.dirname, '../../public/samples/bookinfo-mistakes');
    const text = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => {
        const t = readFileSync(join(dir, f), 'utf8');
        if (f === 'destination-rules.yaml') return t.replace('    - name: v3\n      labels:\n        version: v3\n', '');
        if (f === 'networking.yaml')
          return t.replace(
            / {12}host: reviews\n {12}subset: v1\n {10}weight: 75\n {8}- destination:\n {12}host: reviews2\n {10}weight: 25\n/,
            '            host: reviews\n            subset: v1\n          weight: 80\n        - destination:\n            host: reviews\n            subset: v3\n          weight: 20\n',
          );
        return t;
      })
      .join('\n---\n');
    const gen = generateFor(viewOf(text), 'productpage-v1', 'bookinfo');
    const read = configDumpFromValue(configDump(gen).dump);
    if (!read.ok) throw new Error(read.error);
    const nc = tableFindings(read.dump).filter((f) => f.flag === 'NC');
    expect(nc.length).toBeGreaterThan(0);
    expect(nc.every((f) => f.target === V3 && f.share === 20 && f.consequence === '503 NC (no cluster) for 20% of requests')).toBe(true);
    expect(nc.some((f) => f.key.startsWith('9080/reviews.bookinfo.svc.cluster.local:9080/'))).toBe(true);
  });

  it('formats shares as people write them', () => {
    expect(formatShare(20)).toBe('20');
    expect(formatShare(100 / 3)).toBe('33.3');
  });
});

describe('inline route configurations (waypoints, some gateways)', () => {
  it('puts a missing cluster of an inline route on the listener chain, with the route it is on', () => {
    const inline = {
      name: 'envoy.filters.network.http_connection_manager',
      typedConfig: {
        routeConfig: {
          name: 'inline',
          virtualHosts: [
            {
              name: 'inbound|http|9080',
              domains: ['*'],
              routes: [
                {
                  match: { prefix: '/api' },
                  route: {
                    weightedClusters: {
                      clusters: [
                        { name: V1, weight: 90 },
                        { name: V3, weight: 10 },
                      ],
                    },
                  },
                },
              ],
            },
          ],
        },
      },
    };
    const dump = dumpOf({
      clusters: [eds(V1)],
      endpoints: [cla(V1, ['10.0.0.1'])],
      listeners: [{ name: 'main_internal', filterChains: [{ filters: [inline] }] }],
    });
    const f = tableFindings(dump);
    expect(f.map((x) => [x.table, x.key, x.flag, x.share, x.consequence])).toEqual([
      ['listeners', 'main_internal/0', 'NC', 10, '503 NC (no cluster) for 10% of requests on inbound|http|9080 /api*'],
    ]);
  });
});
