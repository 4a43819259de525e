// The xds oracle's known causes (scripts/oracle/xdsCompare.ts) that stand for istiod's own run-to-run
// choices, not generator differences. The istiod routes below are xds-oracle's output for the
// oracle-xds fuzz target's minimised inputs (reports/oracle/fuzz-oracle-xds.json), cut to the
// fields that matter.
import { describe, expect, it } from 'vitest';
import { knownResourceCause, knownCause, fieldDiff, type Obj, type WorkspaceFacts } from '../../scripts/oracle/xdsCompare.ts';

const facts = (shared: string[] = []): WorkspaceFacts => ({ applyTo: new Set(), passthroughDrHosts: new Set(), sharedServiceEntryHosts: new Set(shared) });

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
