// The xds oracle's known causes (scripts/oracle/xdsCompare.ts) that stand for istiod's own run-to-run
// choices, not generator differences. The istiod routes below are xds-oracle's output for the
// oracle-xds fuzz target's minimised inputs (reports/oracle/fuzz-oracle-xds.json), cut to the
// fields that matter.
import { describe, expect, it } from 'vitest';
import { knownResourceCause, knownCause, fieldDiff, type Obj, type WorkspaceFacts } from '../../scripts/oracle/xdsCompare.ts';

const facts = (shared: string[] = [], autoClusters: string[] = []): WorkspaceFacts => ({
  applyTo: new Set(),
  sharedServiceEntryHosts: new Set(shared),
  autoServiceEntryClusters: new Set(autoClusters),
});

const vhost = (host: string, domains: string[], cluster = `outbound|443||${host}`): Obj => ({
  name: `${host}:443`,
  domains,
  routes: [{ name: 'default', match: { prefix: '/' }, route: { cluster } }],
});
const route = (...vhosts: Obj[]): Obj => ({ name: '443', virtualHosts: [...vhosts, { name: 'allow_any', domains: ['*'] }] });

describe('vhost-address-in-go-map-order', () => {
  // A ServiceEntry with hosts [db.internal, legacy.svc] and address 10.96.200.10: istiod's
  // route.BuildSidecarVirtualHostWrapper ranges over a map of services, and dedupeDomains
  // (httproute.go) leaves the address with the virtual host built first. Run to run, istiod put
  // it under legacy.svc (this answer) or under db.internal (as ours does).
  const istiod = route(vhost('db.internal', ['db.internal', 'db.internal.']), vhost('legacy.svc', ['legacy.svc', 'legacy.svc.', '10.96.200.10']));
  const ours = route(vhost('db.internal', ['db.internal', 'db.internal.', '10.96.200.10']), vhost('legacy.svc', ['legacy.svc', 'legacy.svc.']));

  it('explains an address in another virtual host', () => {
    expect(fieldDiff(istiod, ours).length).toBeGreaterThan(0);
    expect(knownCause('routes', fieldDiff(istiod, ours), facts())).toBeUndefined();
    expect(knownResourceCause('routes', '443', istiod, ours, facts())).toBe('vhost-address-in-go-map-order');
  });

  it('does not explain a host name in another virtual host, a lost address or another difference', () => {
    const movedName = route(vhost('db.internal', ['db.internal']), vhost('legacy.svc', ['legacy.svc', 'legacy.svc.', '10.96.200.10', 'db.internal.']));
    expect(knownResourceCause('routes', '443', istiod, movedName, facts())).toBeUndefined();
    const lost = route(vhost('db.internal', ['db.internal', 'db.internal.']), vhost('legacy.svc', ['legacy.svc', 'legacy.svc.']));
    expect(knownResourceCause('routes', '443', istiod, lost, facts())).toBeUndefined();
    const otherCluster = route(
      vhost('db.internal', ['db.internal', 'db.internal.', '10.96.200.10'], 'outbound|443|v1|db.internal'),
      vhost('legacy.svc', ['legacy.svc', 'legacy.svc.']),
    );
    expect(knownResourceCause('routes', '443', istiod, otherCluster, facts())).toBeUndefined();
  });
});

describe('serviceentries-sharing-a-host on routes', () => {
  // httpbin.example.org written by a DNS entry (HTTP 80) and a NONE entry (TLS 80) of one
  // namespace: BuildSidecarOutboundVirtualHosts keys services by hostname (the last one wins), so
  // istiod has the host's virtual host on route 80 when the HTTP entry came last (this answer),
  // and not when the TLS one did; with one creation time the order is Go map order.
  const gw = (d: string[]) => ({
    name: 'istio-ingressgateway.istio-system.svc.cluster.local:80',
    domains: d,
    routes: [{ route: { cluster: 'outbound|80||istio-ingressgateway.istio-system.svc.cluster.local' } }],
  });
  const gwDomains = ['istio-ingressgateway.istio-system.svc.cluster.local', '10.96.65.139'];
  const httpbin = {
    name: 'httpbin.example.org:80',
    domains: ['httpbin.example.org', 'httpbin.example.org.'],
    routes: [{ route: { cluster: 'outbound|80||httpbin.example.org' } }],
  };
  const istiod: Obj = { name: '80', virtualHosts: [httpbin, gw(gwDomains)] };
  const ours: Obj = { name: '80', virtualHosts: [gw(gwDomains)] };

  it("explains the shared host's virtual host on one side only", () => {
    expect(knownResourceCause('routes', '80', istiod, ours, facts(['httpbin.example.org']))).toBe('serviceentries-sharing-a-host');
  });

  it('not when the host is not shared, nor when another virtual host differs too', () => {
    expect(knownResourceCause('routes', '80', istiod, ours, facts(['other.example.org']))).toBeUndefined();
    const oursOther: Obj = { name: '80', virtualHosts: [gw([...gwDomains, 'x'])] };
    expect(knownResourceCause('routes', '80', istiod, oursOther, facts(['httpbin.example.org']))).toBeUndefined();
  });

  it("explains an address that moves to another host's virtual host with the shared host's", () => {
    // Seed 20261221: db.internal is written by three ServiceEntries of bookinfo, one of them with
    // legacy.svc and the address 10.96.200.10 on port 5432 (HTTP2). istiod picked an entry of
    // db.internal without that port, so route 5432 has no virtual host for it, and dedupeDomains
    // left the address with legacy.svc; ours picked the HTTP2 entry, whose virtual host came first.
    const vh = (host: string, extra: string[] = []) => ({
      name: `${host}:5432`,
      domains: [host, `${host}.`, ...extra],
      routes: [{ route: { cluster: `outbound|5432||${host}` } }],
    });
    const any = { name: 'allow_any', domains: ['*'] };
    const theirs: Obj = { name: '5432', virtualHosts: [vh('legacy.svc', ['10.96.200.10']), any] };
    const mine: Obj = { name: '5432', virtualHosts: [vh('db.internal', ['10.96.200.10']), vh('legacy.svc'), any] };
    expect(knownResourceCause('routes', '5432', theirs, mine, facts(['db.internal']))).toBe('serviceentries-sharing-a-host');
    // Not an address the shared host's virtual host does not hold, nor another host's name.
    const lost: Obj = { name: '5432', virtualHosts: [vh('db.internal'), vh('legacy.svc'), any] };
    expect(knownResourceCause('routes', '5432', theirs, lost, facts(['db.internal']))).toBeUndefined();
    const renamed: Obj = { name: '5432', virtualHosts: [vh('db.internal', ['10.96.200.10']), vh('legacy.svc', ['old.svc']), any] };
    expect(
      knownResourceCause('routes', '5432', { ...theirs, virtualHosts: [vh('legacy.svc', ['10.96.200.10']), any] }, renamed, facts(['db.internal'])),
    ).toBeUndefined();
  });

  it('explains a route cluster of the shared host on another port, field by field', () => {
    const fields = [
      {
        path: 'virtualHosts[0].routes[0].route.weightedClusters.clusters[1].name',
        istiod: 'outbound|443||httpbin.example.org',
        ours: 'outbound|80||httpbin.example.org',
      },
    ];
    expect(knownCause('routes', fields, facts(['httpbin.example.org']))).toBe('serviceentries-sharing-a-host');
    expect(knownCause('routes', fields, facts())).toBeUndefined();
  });
});

describe('auto-port-on-sniffed-wildcard-release-1.31', () => {
  // Seed 20261219's minimised input: ServiceEntry *.example.org (resolution NONE, port 443 HTTP2)
  // and ServiceEntry istio.io (DNS, port 443 named https, no protocol) in the proxy's namespace.
  // xds-oracle (release-1.31) answered 0.0.0.0_443 with the HTTP chain and the passthrough as
  // default chain; master at 86c9f01 merges istio.io's match-all TCP chain in (TCPOverAuto), and
  // with `protocol: TCP` written the oracle does too (its TCPOverAuto branch exists for TCP ports).
  const tcp = (cluster: string): Obj => ({
    filters: [
      {
        name: 'envoy.filters.network.tcp_proxy',
        typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy', cluster, statPrefix: cluster },
      },
    ],
  });
  const http: Obj = {
    filterChainMatch: { applicationProtocols: ['http/1.1', 'h2c'], transportProtocol: 'raw_buffer' },
    filters: [{ name: 'envoy.filters.network.http_connection_manager', typedConfig: { rds: { routeConfigName: '443' } } }],
  };
  const listener = (defaultFilterChain: Obj, ...extra: Obj[]): Obj => ({
    name: '0.0.0.0_443',
    filterChains: [http, ...extra],
    defaultFilterChain,
    listenerFilters: [{ name: 'envoy.filters.listener.http_inspector' }],
  });
  const passthrough = { filterChainMatch: {}, name: 'PassthroughFilterChain', ...tcp('PassthroughCluster') };
  const istiod = listener(passthrough);
  const ours = listener(tcp('outbound|443||istio.io'));
  const auto = facts([], ['outbound|443||istio.io']);

  it("explains ours' extra match-all TCP chain of a ServiceEntry port without a protocol", () => {
    expect(fieldDiff(istiod, ours).length).toBeGreaterThan(0);
    expect(knownResourceCause('listeners', '0.0.0.0_443', istiod, ours, auto)).toBe('auto-port-on-sniffed-wildcard-release-1.31');
  });

  it('not for a port with a protocol, another listener, a chain istiod has too, or another difference', () => {
    expect(knownResourceCause('listeners', '0.0.0.0_443', istiod, ours, facts())).toBeUndefined();
    expect(knownResourceCause('listeners', '10.96.0.5_443', istiod, ours, auto)).toBeUndefined();
    expect(knownResourceCause('listeners', '0.0.0.0_443', listener(tcp('outbound|443||istio.io')), ours, auto)).toBeUndefined();
    const otherRds = listener(tcp('outbound|443||istio.io'));
    otherRds.filterChains = [{ ...http, filterChainMatch: { transportProtocol: 'raw_buffer' } }];
    expect(knownResourceCause('listeners', '0.0.0.0_443', istiod, otherRds, auto)).toBeUndefined();
    const toOtherHost = listener(tcp('outbound|443||other.example'));
    expect(knownResourceCause('listeners', '0.0.0.0_443', istiod, toOtherHost, auto)).toBeUndefined();
  });
});
