// The request simulator's HTTP routing where the xds-simulate fuzz target's independent
// oracle (fuzz/oracles/envoyRouteMatcher.ts) found it unlike Envoy. Each case is a minimised
// counterexample of that target; the expected answers are Envoy's, from its docs and sources:
// - RouteMatcher::findVirtualHost (source/common/router/config_impl.cc) lowercases the Host
//   ("hostnames are case insensitive") and the domains; route_components.proto VirtualHost.domains.
// - ConfigUtility::QueryParameterMatcher::matches (source/common/router/config_utility.cc)
//   matches a repeated query parameter on its first value only (QueryParamsMulti::getFirstValue).
// - HeaderUtility::matchHeaders (source/common/http/header_utility.cc) reads a header sent more
//   than once as its values joined with ',' (getAllOfHeaderAsString); header names are
//   case-insensitive (RFC 9110 §5.1), so `X-User` and `x-user` are one header.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { viewOf, generateFor } from './helpers.ts';
import { simulateRequest, type RequestInput } from '../../src/core/xds/request.ts';
import { simulate } from '../../src/core/xds/simulate.ts';

const BOOKINFO = ['platform.yaml', 'bookinfo.yaml', 'destination-rules.yaml', 'pods.yaml']
  .map((f) => readFileSync(new URL(`../../public/samples/bookinfo/${f}`, import.meta.url), 'utf8'))
  .join('\n---\n');

function reviewsRoutes(http: string): string {
  return `${BOOKINFO}
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews, namespace: bookinfo}
spec:
  hosts: [reviews]
  http:
${http}
    - route: [{destination: {host: reviews, subset: v1}}]
`;
}

function fromProductpage(text: string, input: Partial<RequestInput>) {
  const view = viewOf(text);
  return simulateRequest(view, generateFor(view, 'productpage-v1', 'bookinfo'), { host: 'reviews', port: 9080, path: '/', ...input });
}

const v3 = 'outbound|9080|v3|reviews.bookinfo.svc.cluster.local';
const v1 = 'outbound|9080|v1|reviews.bookinfo.svc.cluster.local';

describe('virtual host selection ignores case (Envoy RouteMatcher::findVirtualHost)', () => {
  // Fuzz input: {"sample":"routes","proxy":1,"host":"Ratings.Bookinfo.Svc.Cluster.Local","port":80,...}
  it('sends a Host in capitals to the service virtual host, not allow_any', () => {
    const r = fromProductpage(reviewsRoutes(''), { host: 'REVIEWS.Bookinfo:9080' });
    expect(r.virtualHost).toBe('reviews.bookinfo.svc.cluster.local:9080');
    expect(r.clusters.map((c) => c.name)).toEqual([v1]);
  });

  it('compares lower-cased domains in the route configuration too', () => {
    const listeners = [
      {
        name: '0.0.0.0_80',
        address: { socketAddress: { address: '0.0.0.0', portValue: 80 } },
        filterChains: [{ filters: [{ name: 'envoy.filters.network.http_connection_manager', typedConfig: { rds: { routeConfigName: '80' } } }] }],
      },
    ];
    const routes = [
      {
        name: '80',
        virtualHosts: [
          { name: 'a', domains: ['*.Example.COM'], routes: [{ match: { prefix: '/' }, route: { cluster: 'a' } }] },
          { name: 'any', domains: ['*'], routes: [{ match: { prefix: '/' }, route: { cluster: 'any' } }] },
        ],
      },
    ];
    expect(simulate({ listeners, routes }, { port: 80, protocol: 'http', host: 'www.EXAMPLE.com' })).toMatchObject({ virtualHost: 'a', cluster: 'a' });
  });
});

describe('a repeated query parameter matches on its first value (Envoy QueryParameterMatcher)', () => {
  const text = reviewsRoutes(`    - match: [{queryParams: {version: {prefix: v}}}]
      route: [{destination: {host: reviews, subset: v3}}]`);
  // Fuzz input: {"sample":"routes","proxy":1,"host":"Reviews","port":9080,"path":"/rat?version=v1&version=x",...}
  it('version=v1&version=x matches prefix v', () => {
    expect(fromProductpage(text, { path: '/rat?version=v1&version=x' }).clusters.map((c) => c.name)).toEqual([v3]);
  });
  it('version=x&version=v1 does not', () => {
    expect(fromProductpage(text, { path: '/rat?version=x&version=v1' }).clusters.map((c) => c.name)).toEqual([v1]);
  });
});

describe('a header sent twice is read as its values joined with "," (Envoy HeaderUtility::matchHeaders)', () => {
  // Fuzz input: {"sample":"routes","proxy":1,"host":"Reviews","port":9080,"path":"/productpage","headers":{"x-user":"atest","X-User":"jason"}}
  it('x-user: atest and X-User: jason match the regex a.* as "atest,jason"', () => {
    const text = reviewsRoutes(`    - match: [{headers: {x-user: {regex: "a.*"}}}]
      route: [{destination: {host: reviews, subset: v3}}]`);
    expect(fromProductpage(text, { path: '/productpage', headers: { 'x-user': 'atest', 'X-User': 'jason' } }).clusters.map((c) => c.name)).toEqual([v3]);
  });
  it('and no longer match exact jason', () => {
    const text = reviewsRoutes(`    - match: [{headers: {x-user: {exact: jason}}}]
      route: [{destination: {host: reviews, subset: v3}}]`);
    expect(fromProductpage(text, { headers: { 'x-user': 'atest', 'X-User': 'jason' } }).clusters.map((c) => c.name)).toEqual([v1]);
    expect(fromProductpage(text, { headers: { 'X-User': 'jason' } }).clusters.map((c) => c.name)).toEqual([v3]);
  });
});
