// Waypoint generation (listener_waypoint.go, cluster_waypoint.go): which services a waypoint
// owns (istio.io/use-waypoint and friends), and the structure and names of what it gets.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { at, byName, list, obj, viewOf } from './helpers.ts';
import { findProxy, listProxies, proxyForPod } from '../../src/core/xds/proxy.ts';
import { generateForProxy } from '../../src/core/xds/generate.ts';
import { configDump, DUMP_TYPES } from '../../src/core/xds/dump.ts';
import { readConfigDump } from '../../src/core/xds/configdump/dump.ts';
import { waypointListenerTable } from '../../src/core/xds/configdump/index.ts';
import { checkEnvoyResource, formatProblems } from '../../src/core/xds/proto/index.ts';
import type { Json } from '../../src/core/xds/types.ts';
import { simulateRequest } from '../../src/core/xds/request.ts';

const FIXTURE = readFileSync(new URL('./fixtures/waypoint.yaml', import.meta.url), 'utf8');
const view = viewOf(FIXTURE);

function waypointGen(name: string) {
  const ref = listProxies(view).find((p) => p.type === 'waypoint' && p.pod.name.startsWith(`${name}-`));
  if (!ref) throw new Error(`no waypoint ${name}`);
  return generateForProxy(view, proxyForPod(view, ref));
}

const gen = waypointGen('waypoint');
const mainInternal = byName(gen.listeners, 'main_internal');
const chains = list(mainInternal.filterChains);
const chainNames = chains.map((c) => c.name);
const clusterNames = gen.clusters.map((c) => c.name as string);

/** The HCM of a main_internal chain. */
function hcmOf(chain: string): Json {
  const c = byName(chains, chain);
  const f = list(c.filters).find((x) => x.name === 'envoy.filters.network.http_connection_manager');
  if (!f) throw new Error(`no HCM in ${chain}`);
  return obj(f.typedConfig);
}

/** Every `ranges` entry of main_internal's IP matcher with what it leads to. */
function ipRanges(): { cidr: string; onMatch: Json }[] {
  const custom = at(mainInternal, 'filterChainMatcher', 'matcherTree', 'customMatch', 'typedConfig');
  const out: { cidr: string; onMatch: Json }[] = [];
  for (const rm of list(at(custom, 'rangeMatchers') ?? []))
    for (const r of list(rm.ranges)) out.push({ cidr: `${r.addressPrefix}/${r.prefixLen}`, onMatch: obj(rm.onMatch) });
  return out;
}

describe('waypoint proxies', () => {
  it('lists the pod istiod deploys for each waypoint Gateway, and no sidecar for ambient pods', () => {
    const types = listProxies(view).map((p) => `${p.pod.namespace}/${p.pod.labels['gateway.networking.k8s.io/gateway-name'] ?? p.pod.name}:${p.type}`);
    expect(types.sort()).toEqual(['store/waypoint:waypoint', 'store/workload-waypoint:waypoint']);
    const ref = findProxy(view, listProxies(view)[0]!.id);
    expect(ref && proxyForPod(view, ref).ipAddresses.length).toBe(1);
  });

  it('does not take an agentgateway waypoint for an Envoy proxy', () => {
    const v = viewOf(`apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: { name: agw, namespace: store }
spec:
  gatewayClassName: istio-agentgateway-waypoint
  listeners: [{ name: mesh, port: 15008, protocol: HBONE }]
`);
    expect(listProxies(v)).toEqual([]);
  });

  it("has istiod's three listeners: connect_terminate on 15008, main_internal and connect_originate (internal)", () => {
    expect(gen.listeners.map((l) => l.name)).toEqual(['connect_terminate', 'main_internal', 'connect_originate']);
    const ct = byName(gen.listeners, 'connect_terminate');
    expect(ct.address).toEqual({ socketAddress: { address: '0.0.0.0', portValue: 15008 } });
    expect(ct.connectionBalanceConfig).toEqual({ exactBalance: {} });
    const hcm = at(ct, 'filterChains', 0, 'filters', 0, 'typedConfig');
    expect(at(hcm, 'routeConfig', 'virtualHosts', 0, 'routes', 0, 'route', 'cluster')).toBe('main_internal');
    expect(at(hcm, 'upgradeConfigs')).toEqual([{ upgradeType: 'CONNECT' }]);
    expect(list(at(hcm, 'httpFilters')).map((f) => f.name)).toEqual(['waypoint_downstream_peer_metadata', 'connect_authority', 'envoy.filters.http.router']);
    const tls = at(ct, 'filterChains', 0, 'transportSocket', 'typedConfig');
    expect(at(tls, 'requireClientCertificate')).toBe(true);
    expect(at(tls, 'commonTlsContext', 'alpnProtocols')).toEqual(['h2']);
    expect(at(tls, 'commonTlsContext', 'tlsParams')).toEqual({ tlsMinimumProtocolVersion: 'TLSv1_3', tlsMaximumProtocolVersion: 'TLSv1_3' });
    expect(mainInternal.internalListener).toEqual({});
    expect(mainInternal.address).toBeUndefined();
    const co = byName(gen.listeners, 'connect_originate');
    expect(at(co, 'filterChains', 0, 'filters', 0, 'typedConfig', 'tunnelingConfig')).toEqual({ hostname: '%DOWNSTREAM_LOCAL_ADDRESS%' });
  });

  it("owns the namespace's services and the labelled ServiceEntry, not the opted-out or not-admitted ones", () => {
    const owned = new Set(chainNames.filter((n) => String(n).startsWith('inbound-vip')).map((n) => String(n).split('|')[3]));
    expect([...owned].sort()).toEqual(['payments.example.com', 'ratings.store.svc.cluster.local', 'reviews.store.svc.cluster.local']);
    expect(clusterNames.some((n) => n.startsWith('inbound-vip') && n.includes('legacy.store'))).toBe(false);
    expect(clusterNames.some((n) => n.includes('outsider.other'))).toBe(false);
  });

  it('names main_internal chains after their cluster, by port protocol (HTTP, TCP, or both when sniffed)', () => {
    expect(chainNames).toEqual(
      expect.arrayContaining([
        'inbound-vip|9080|http|reviews.store.svc.cluster.local',
        'inbound-vip|3306|tcp|reviews.store.svc.cluster.local',
        'inbound-vip|7000|tcp|reviews.store.svc.cluster.local',
        'inbound-vip|7000|http|reviews.store.svc.cluster.local',
        'inbound-vip|443|tcp|payments.example.com',
        'direct-tcp',
        'direct-http',
      ]),
    );
    expect(chainNames).not.toContain('inbound-vip|9080|tcp|reviews.store.svc.cluster.local');
    const tcp = byName(chains, 'inbound-vip|3306|tcp|reviews.store.svc.cluster.local');
    const proxy = list(tcp.filters).find((f) => f.name === 'envoy.filters.network.tcp_proxy');
    expect(at(proxy, 'typedConfig', 'cluster')).toBe('inbound-vip|3306|tcp|reviews.store.svc.cluster.local');
    const direct = byName(chains, 'direct-tcp');
    expect(list(direct.filters).map((f) => f.name)[0]).toBe('connect_authority');
    expect(at(list(direct.filters).at(-1), 'typedConfig', 'cluster')).toBe('encap');
  });

  it('matches the service VIP, then the port; sniffed ports by application protocol', () => {
    const reviews = ipRanges().find((r) => r.cidr === '10.96.10.10/32');
    expect(reviews).toBeDefined();
    const ports = obj(at(reviews?.onMatch, 'matcher', 'matcherTree'));
    expect(at(ports, 'input', 'typedConfig', '@type')).toBe('type.googleapis.com/envoy.extensions.matching.common_inputs.network.v3.DestinationPortInput');
    const map = obj(at(ports, 'exactMatchMap', 'map'));
    expect(Object.keys(map).sort()).toEqual(['3306', '7000', '9080']);
    expect(at(map['9080'], 'action', 'name')).toBe('inbound-vip|9080|http|reviews.store.svc.cluster.local');
    const sniff = obj(at(map['7000'], 'matcher'));
    expect(at(sniff, 'matcherTree', 'input', 'name')).toBe('application-protocol');
    expect(at(sniff, 'matcherTree', 'exactMatchMap', 'map', "'http/1.1'", 'action', 'name')).toBe('inbound-vip|7000|http|reviews.store.svc.cluster.local');
    expect(at(sniff, 'onNoMatch', 'action', 'name')).toBe('inbound-vip|7000|tcp|reviews.store.svc.cluster.local');
    expect(ipRanges().map((r) => r.cidr)).toContain('240.240.1.1/32');
    // The HTTP inspector is off on ports that need no sniffing.
    const inspector = list(mainInternal.listenerFilters).find((f) => f.name === 'envoy.filters.listener.http_inspector');
    expect(JSON.stringify(inspector?.filterDisabled)).not.toContain('"start":7000');
    expect(JSON.stringify(inspector?.filterDisabled)).toContain('"start":9080');
    expect(list(mainInternal.listenerFilters).some((f) => f.name === 'envoy.filters.listener.tls_inspector')).toBe(true);
  });

  it('routes by the VirtualService bound to the service: owned destinations to inbound-vip subsets, others outbound; sourceLabels matches dropped', () => {
    const rc = obj(hcmOf('inbound-vip|9080|http|reviews.store.svc.cluster.local').routeConfig);
    expect(rc.name).toBe('inbound-vip|9080|http|reviews.store.svc.cluster.local');
    const vh = obj(list(rc.virtualHosts)[0]);
    expect(vh.name).toBe('inbound|http|9080');
    expect(vh.domains).toEqual(['*']);
    const routes = list(vh.routes);
    expect(routes).toHaveLength(2);
    expect(at(routes[0], 'route', 'cluster')).toBe('outbound|9080||details.other.svc.cluster.local');
    expect(at(routes[1], 'route', 'weightedClusters', 'clusters')).toEqual([
      { name: 'inbound-vip|9080|http/v1|reviews.store.svc.cluster.local', weight: 90 },
      { name: 'inbound-vip|9080|http/v2|reviews.store.svc.cluster.local', weight: 10 },
    ]);
    expect(clusterNames).toContain('outbound|9080||details.other.svc.cluster.local');
  });

  it('routes by an HTTPRoute whose parent is the Service', () => {
    const routes = list(at(hcmOf('inbound-vip|8080|http|ratings.store.svc.cluster.local').routeConfig, 'virtualHosts', 0, 'routes'));
    const v2 = routes.find((r) => JSON.stringify(r.match).includes('/v2'));
    expect(at(v2, 'route', 'cluster')).toBe('inbound-vip|8080|http|ratings.store.svc.cluster.local');
    expect(at(v2, 'route', 'clusterNotFoundResponseCode')).toBe('INTERNAL_SERVER_ERROR');
    // The rule's `timeouts.request` (3s) is the route's timeout, as istiod's conversion makes it.
    expect(at(v2, 'route', 'timeout')).toBe('3s');
    expect(at(v2, 'route', 'maxGrpcTimeout')).toBe('3s');
  });

  it("routes only by VirtualServices of the waypoint's or the service's namespace, yet builds clusters for any mesh VirtualService of an owned host", () => {
    const routes = JSON.stringify(hcmOf('inbound-vip|8080|http|ratings.store.svc.cluster.local').routeConfig);
    expect(routes).not.toContain('legacy.store');
    expect(clusterNames).toContain('outbound|80||legacy.store.svc.cluster.local');
  });

  it("uses a default route to the chain's cluster when no route is bound", () => {
    const rc = obj(hcmOf('inbound-vip|7000|http|reviews.store.svc.cluster.local').routeConfig);
    // The reviews VirtualService has no port match, so it routes port 7000 too.
    expect(list(at(rc, 'virtualHosts', 0, 'routes')).length).toBeGreaterThan(0);
    const direct = obj(hcmOf('direct-http').routeConfig);
    expect(direct.name).toBe('encap');
    expect(at(direct, 'virtualHosts', 0, 'routes', 0, 'route', 'cluster')).toBe('encap');
  });

  it("attaches an AuthorizationPolicy with targetRefs to its Service's chain only, matching peers by filter state", () => {
    const filters = (chain: string) => list(hcmOf(chain).httpFilters).map((f) => f.name);
    const rbacText = (chain: string) => JSON.stringify(list(hcmOf(chain).httpFilters).filter((x) => x.name === 'envoy.filters.http.rbac'));
    expect(rbacText('inbound-vip|8080|http|ratings.store.svc.cluster.local')).toContain('ns[store]-policy[ratings-get-only]-rule[0]');
    expect(rbacText('inbound-vip|9080|http|reviews.store.svc.cluster.local')).not.toContain('ratings-get-only');
    // A policy attached to the waypoint Gateway is on every chain, the direct ones included.
    for (const chain of ['inbound-vip|8080|http|ratings.store.svc.cluster.local', 'inbound-vip|9080|http|reviews.store.svc.cluster.local', 'direct-http'])
      expect(rbacText(chain)).toContain('ns[store]-policy[no-admin]-rule[0]');
    const f = filters('inbound-vip|9080|http|reviews.store.svc.cluster.local');
    expect(f).not.toContain('istio.metadata_exchange');
    expect(f.indexOf('waypoint_upstream_peer_metadata')).toBeGreaterThan(f.indexOf('envoy.filters.http.cors'));
    expect(f.at(-1)).toBe('envoy.filters.http.router');
    expect(rbacText('inbound-vip|8080|http|ratings.store.svc.cluster.local')).toContain('io.istio.peer_principal');
  });

  it('has main_internal, encap, connect_originate and inbound-vip clusters per port and subset, and no BlackHole or Passthrough', () => {
    expect(clusterNames).toEqual(
      expect.arrayContaining([
        'main_internal',
        'encap',
        'connect_originate',
        'inbound-vip|9080|http|reviews.store.svc.cluster.local',
        'inbound-vip|9080|http/v1|reviews.store.svc.cluster.local',
        'inbound-vip|3306|tcp/v2|reviews.store.svc.cluster.local',
        'inbound-vip|7000|tcp/v1|reviews.store.svc.cluster.local',
        'inbound-vip|7000|http/v1|reviews.store.svc.cluster.local',
      ]),
    );
    expect(clusterNames).not.toContain('BlackHoleCluster');
    expect(clusterNames).not.toContain('PassthroughCluster');
    expect(at(byName(gen.clusters, 'main_internal'), 'loadAssignment', 'endpoints', 0, 'lbEndpoints', 0, 'endpoint', 'address')).toEqual({
      envoyInternalAddress: { serverListenerName: 'main_internal' },
    });
    expect(at(byName(gen.clusters, 'encap'), 'loadAssignment', 'endpoints', 0, 'lbEndpoints', 0, 'endpoint', 'address')).toEqual({
      envoyInternalAddress: { serverListenerName: 'connect_originate' },
    });
    const co = byName(gen.clusters, 'connect_originate');
    expect(co.type).toBe('ORIGINAL_DST');
    expect(at(co, 'originalDstLbConfig', 'upstreamPortOverride')).toBe(15008);
    expect(JSON.stringify(at(co, 'transportSocket'))).toContain('spiffe://cluster.local/ns/store/sa/');
    const v1 = byName(gen.clusters, 'inbound-vip|9080|http/v1|reviews.store.svc.cluster.local');
    expect(at(v1, 'transportSocket', 'name')).toBe('internal_upstream');
    expect(at(v1, 'metadata', 'filterMetadata', 'istio', 'subset')).toBe('http/v1');
    expect(at(v1, 'circuitBreakers', 'thresholds', 0, 'maxConnections')).toBe(50);
  });

  it('sends to ambient pods over HBONE through connect_originate, subsets by labels', () => {
    const eds = (name: string) => gen.endpoints.find((e) => e.clusterName === name);
    const all = list(at(eds('inbound-vip|9080|http|reviews.store.svc.cluster.local'), 'endpoints', 0, 'lbEndpoints'));
    expect(all).toHaveLength(2);
    const v1 = list(at(eds('inbound-vip|9080|http/v1|reviews.store.svc.cluster.local'), 'endpoints', 0, 'lbEndpoints'));
    expect(v1).toHaveLength(1);
    const addr = obj(at(v1[0], 'endpoint', 'address', 'envoyInternalAddress'));
    expect(addr.serverListenerName).toBe('connect_originate');
    expect(String(addr.endpointId)).toMatch(/^\d+\.\d+\.\d+\.\d+:9080$/);
    expect(at(v1[0], 'metadata', 'filterMetadata', 'envoy.filters.listener.original_dst', 'local')).toBe(addr.endpointId);
  });

  it('sends traffic for workloads bound to a workload waypoint to the direct chains', () => {
    const wg = waypointGen('workload-waypoint');
    const mi = byName(wg.listeners, 'main_internal');
    expect(list(mi.filterChains).map((c) => c.name)).toEqual(['direct-tcp', 'direct-http']);
    const rm = at(mi, 'filterChainMatcher', 'matcherTree', 'customMatch', 'typedConfig', 'rangeMatchers', 0);
    expect(at(rm, 'ranges')).toEqual([{ addressPrefix: '10.244.9.9', prefixLen: 32 }]);
    expect(at(rm, 'onMatch', 'matcher', 'onNoMatch', 'action', 'name')).toBe('direct-tcp');
  });

  it("passes the strict Envoy proto check, and istioctl's --waypoint view reads it", () => {
    const problems = [
      ...gen.listeners.flatMap((l) => checkEnvoyResource(l, DUMP_TYPES.listener)),
      ...gen.clusters.flatMap((c) => checkEnvoyResource(c, DUMP_TYPES.cluster)),
      ...gen.endpoints.flatMap((e) => checkEnvoyResource(e, DUMP_TYPES.clusterLoadAssignment)),
    ].filter((p) => p.code !== 'deprecated' && !p.path.endsWith('.dnsJitter') && !p.path.endsWith('.typedDnsResolverConfig.typedConfig.resolvers'));
    expect(formatProblems(problems)).toBe('');
    const read = readConfigDump(JSON.stringify(configDump(gen).dump));
    if (!read.ok) throw new Error(read.error);
    const rows = waypointListenerTable(read.dump).rows;
    const row = rows.find((r) => r.chain === 'inbound-vip|9080|http|reviews.store.svc.cluster.local');
    expect(row?.listener).toBe('envoy://main_internal');
    expect(row?.match).toBe('ip=10.96.10.10 -> port=9080');
  });

  it('simulates requests through the waypoint: matcher → chain → inline routes → cluster', () => {
    const jason = simulateRequest(view, gen, {
      host: 'reviews.store.svc.cluster.local',
      port: 9080,
      protocol: 'http',
      path: '/',
      headers: { 'end-user': 'jason' },
    });
    expect(jason.ok).toBe(true);
    expect(jason.listener).toBe('main_internal');
    expect(jason.filterChain).toBe('inbound-vip|9080|http|reviews.store.svc.cluster.local');
    expect(jason.clusters).toEqual([{ name: 'outbound|9080||details.other.svc.cluster.local', weight: 100 }]);
    const anyone = simulateRequest(view, gen, { host: 'reviews', port: 9080, protocol: 'http', path: '/reviews/1' });
    expect(anyone.clusters).toEqual([
      { name: 'inbound-vip|9080|http/v1|reviews.store.svc.cluster.local', weight: 90 },
      { name: 'inbound-vip|9080|http/v2|reviews.store.svc.cluster.local', weight: 10 },
    ]);
    expect(anyone.endpoints[0]?.addresses[0]).toMatch(/^internal:connect_originate\//);
    const sniffedTcp = simulateRequest(view, gen, { host: 'reviews.store.svc.cluster.local', port: 7000, protocol: 'tcp' });
    expect(sniffedTcp.filterChain).toBe('inbound-vip|7000|tcp|reviews.store.svc.cluster.local');
    // ratings allows only GET from reviews' identity; the simulator's client has none: denied by that policy.
    const ratings = simulateRequest(view, gen, { host: 'ratings.store.svc.cluster.local', port: 8080, protocol: 'http', method: 'GET', path: '/v2/x' });
    expect(ratings.ok).toBe(false);
    expect(ratings.failure).toContain('store/ratings-get-only');
    expect(anyone.steps.find((st) => st.title.startsWith('RBAC'))?.title).toBe('RBAC ALLOW');
    const admin = simulateRequest(view, gen, { host: 'reviews', port: 9080, protocol: 'http', path: '/admin/x' });
    expect(admin.ok).toBe(false);
    expect(admin.failure).toContain('store/no-admin');
    const notOwned = simulateRequest(view, gen, { host: 'legacy.store.svc.cluster.local', port: 80, protocol: 'http' });
    expect(notOwned.ok).toBe(false);
    expect(notOwned.failure).toContain('no filter chain');
  });
});
