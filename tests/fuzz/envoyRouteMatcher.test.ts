// The xds-simulate oracle's own Envoy route matcher (fuzz/oracles/envoyRouteMatcher.ts), on
// hand-written RouteConfigurations: each rule as Envoy's docs and router sources state it.
import { describe, expect, it } from 'vitest';
import { matchRouteConfiguration, re2FullMatcher, type RouterRequest } from '../../fuzz/oracles/envoyRouteMatcher.ts';
import { disagreement, routeOracleReport, routerRequest } from '../../fuzz/oracles/routeOracle.ts';

const req = (authority: string, path = '/', headers: Record<string, string> = {}, method = 'GET'): RouterRequest => ({
  authority,
  path,
  method,
  headers: new Map(Object.entries(headers)),
});
const vh = (name: string, domains: string[], routes: unknown[] = [{ match: { prefix: '/' }, route: { cluster: name } }]) => ({ name, domains, routes });
const rc = (...virtualHosts: unknown[]) => ({ name: 'rc', virtualHosts, ignorePortInHostMatching: true });
const vhostOf = (c: unknown, authority: string) => {
  const o = matchRouteConfiguration(c, req(authority));
  return o.kind === 'route' || o.kind === 'no-route' ? o.virtualHost : o.kind;
};

describe('virtual host selection', () => {
  const c = rc(vh('exact', ['www.foo.com']), vh('suffix', ['*.foo.com']), vh('longer-suffix', ['*-bar.foo.com']), vh('prefix', ['www.*']), vh('any', ['*']));
  it('takes an exact domain, then the longest suffix wildcard, then the longest prefix wildcard, then *', () => {
    expect(vhostOf(c, 'www.foo.com')).toBe('exact');
    expect(vhostOf(c, 'a-bar.foo.com')).toBe('longer-suffix');
    expect(vhostOf(c, 'a.foo.com')).toBe('suffix');
    expect(vhostOf(c, 'www.bar.org')).toBe('prefix');
    expect(vhostOf(c, 'other')).toBe('any');
  });
  it('needs a wildcard to stand for at least one character', () => {
    expect(vhostOf(c, '.foo.com')).toBe('any');
    expect(vhostOf(c, 'www.')).toBe('any');
  });
  it('ignores case and, when told to, the port (not inside an IPv6 literal)', () => {
    expect(vhostOf(c, 'WWW.Foo.COM:8080')).toBe('exact');
    expect(vhostOf({ ...c, ignorePortInHostMatching: false }, 'www.foo.com:80')).toBe('prefix');
    expect(vhostOf(rc(vh('v6', ['[::1]']), vh('x', ['a'])), '[::1]')).toBe('v6');
    expect(vhostOf(rc(vh('v6', ['[::1]']), vh('x', ['a'])), '[::1]:80')).toBe('v6');
  });
  it('has no virtual host without *, and reads a duplicate domain as unknown', () => {
    expect(vhostOf(rc(vh('a', ['a'])), 'b')).toBe('no-virtual-host');
    expect(vhostOf(rc(vh('a', ['a']), vh('b', ['A'])), 'a')).toBe('unknown');
  });
});

describe('routes', () => {
  const route = (match: unknown, cluster = 'c') => ({ match, route: { cluster } });
  const first = (routes: unknown[], r: RouterRequest) => {
    const o = matchRouteConfiguration(rc(vh('v', ['*'], routes)), r);
    return o.kind === 'route' ? o.index : o.kind;
  };
  it('takes the first route that matches, on the path without its query', () => {
    expect(first([route({ path: '/a' }), route({ prefix: '/' })], req('h', '/a?x=1'))).toBe(0);
    expect(first([route({ prefix: '/b' }), route({ prefix: '/' })], req('h', '/a'))).toBe(1);
  });
  it('applies case_sensitive to prefix, path and path_separated_prefix, not to regexes', () => {
    expect(first([route({ prefix: '/A', caseSensitive: false })], req('h', '/abc'))).toBe(0);
    expect(first([route({ path: '/A', caseSensitive: true })], req('h', '/a'))).toBe('no-route');
    expect(first([route({ pathSeparatedPrefix: '/Api', caseSensitive: false })], req('h', '/api/x'))).toBe(0);
    expect(first([route({ safeRegex: { regex: '/A' }, caseSensitive: false })], req('h', '/a'))).toBe('no-route');
  });
  it('matches path_separated_prefix on whole segments', () => {
    const r = [route({ pathSeparatedPrefix: '/api' })];
    expect(first(r, req('h', '/api'))).toBe(0);
    expect(first(r, req('h', '/api/v1?x'))).toBe(0);
    expect(first(r, req('h', '/apiv1'))).toBe('no-route');
  });
  it('full-matches safe_regex, and declines syntax JavaScript may read differently', () => {
    expect(first([route({ safeRegex: { regex: '/r[a-z]*' } })], req('h', '/rat'))).toBe(0);
    expect(first([route({ safeRegex: { regex: '/r' } })], req('h', '/rat'))).toBe('no-route');
    expect(first([route({ safeRegex: { regex: '(?i)/R' } })], req('h', '/r'))).toBe('unknown');
    expect(() => re2FullMatcher('[[:alpha:]]')).toThrow();
    expect(() => re2FullMatcher('a\\sb')).toThrow();
  });
  it('reads header matchers as HeaderUtility::matchHeaders does', () => {
    const h = (m: Record<string, unknown>) => [route({ prefix: '/', headers: [{ name: 'x', ...m }] })];
    expect(first(h({ stringMatch: { exact: 'a' } }), req('h', '/', { x: 'a' }))).toBe(0);
    // A missing header: only presence matchers hold, inverted or not.
    expect(first(h({ stringMatch: { exact: 'a' }, invertMatch: true }), req('h'))).toBe('no-route');
    expect(first(h({ stringMatch: { exact: 'a' }, invertMatch: true, treatMissingHeaderAsEmpty: true }), req('h'))).toBe(0);
    expect(first(h({ presentMatch: true, invertMatch: true }), req('h'))).toBe(0);
    expect(first(h({ presentMatch: false }), req('h'))).toBe(0);
    expect(first(h({ exactMatch: '' }), req('h', '/', { x: 'anything' }))).toBe(0);
    expect(first(h({ stringMatch: { prefix: 'AB', ignoreCase: true } }), req('h', '/', { x: 'abc' }))).toBe(0);
    expect(first([route({ prefix: '/', headers: [{ name: ':method', stringMatch: { exact: 'POST' } }] })], req('h', '/', {}, 'POST'))).toBe(0);
    expect(first([route({ prefix: '/', headers: [{ name: ':scheme', stringMatch: { exact: 'http' } }] })], req('h'))).toBe('unknown');
  });
  it('reads query parameters undecoded, on the first value of a name', () => {
    const q = (m: Record<string, unknown>) => [route({ prefix: '/', queryParameters: [{ name: 'v', ...m }] })];
    expect(first(q({ stringMatch: { exact: '1' } }), req('h', '/?v=1&v=2'))).toBe(0);
    expect(first(q({ stringMatch: { exact: '2' } }), req('h', '/?v=1&v=2'))).toBe('no-route');
    expect(first(q({ presentMatch: true }), req('h', '/?v'))).toBe(0);
    expect(first(q({ stringMatch: { exact: 'a b' } }), req('h', '/?v=a%20b'))).toBe('no-route');
  });
  it('names the action: clusters with weight > 0, redirect, direct response', () => {
    const one = (r: unknown) => matchRouteConfiguration(rc(vh('v', ['*'], [{ match: { prefix: '/' }, ...(r as object) }])), req('h'));
    expect(
      one({
        route: {
          weightedClusters: {
            clusters: [
              { name: 'a', weight: 100 },
              { name: 'b', weight: 0 },
            ],
          },
        },
      }),
    ).toMatchObject({ action: { kind: 'clusters', clusters: ['a'] } });
    expect(one({ redirect: { pathRedirect: '/x' } })).toMatchObject({ action: { kind: 'redirect' } });
    expect(one({ directResponse: { status: 418 } })).toMatchObject({ action: { kind: 'direct', status: 418 } });
  });
});

describe('the oracle around the matcher', () => {
  it('fails a run that compared nothing', () => {
    expect(routeOracleReport().failure).toBe('the route oracle compared no input');
  });
  it('takes only well-formed HTTP requests', () => {
    const base = { host: 'reviews', protocol: 'http', method: 'GET', path: '/', headers: {} };
    expect(routerRequest(base)).toMatchObject({ authority: 'reviews', method: 'GET' });
    expect(routerRequest({ ...base, path: '/a/../b' })).toBe('path normalization could change the path');
    expect(routerRequest({ ...base, host: 'é.example' })).toBe('Host is not a valid authority');
    expect(routerRequest({ ...base, headers: { Host: 'x' } })).toBe('a header name that is not a token, or Host');
    expect(routerRequest({ ...base, protocol: 'grpc' })).toMatchObject({ headers: new Map([['content-type', 'application/grpc']]) });
  });
  it('reports a different route, or different clusters, as a disagreement', () => {
    const answer = { ok: true, virtualHost: 'v', routeKey: 'rc/v/1', clusters: [{ name: 'a', weight: 100 }], steps: [] };
    const expected = { kind: 'route' as const, virtualHost: 'v', index: 1, action: { kind: 'clusters' as const, clusters: ['a'] } };
    expect(disagreement(expected, answer, 'rc')).toBeUndefined();
    expect(disagreement({ ...expected, index: 0 }, answer, 'rc')).toContain('route #0');
    expect(disagreement({ ...expected, action: { kind: 'clusters', clusters: ['b'] } }, answer, 'rc')).toContain('Envoy sends to ["b"]');
  });
});
