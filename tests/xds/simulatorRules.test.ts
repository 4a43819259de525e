// The request simulator's rules one by one, for issue #28 (mutation survivors of
// src/core/xds/simulate.ts). Expected values are those of Istio's harness,
// pilot/pkg/simulation/traffic.go (istio/istio 86c9f01f; "traffic.go:N" below is its line),
// of pilot/test/xdstest/test.go EvaluateListenerFilterPredicates, and, for the Host with
// ignore_port_in_host_matching, of Envoy's HeaderUtility::getPortStart
// (source/common/http/header_utility.cc) as RouteMatcher::findVirtualHost uses it.
// Listeners and routes are written by hand, as in simulatorEdges.test.ts.
import { describe, expect, it } from 'vitest';
import type { SimCall } from '../../src/core/xds/simulate.ts';
import type { Json } from '../../src/core/xds/types.ts';
import { HCM, HTTP_INSPECTOR, TCP, TLS_INSPECTOR, listener, run, tcpChain } from './simulatorFixtures.ts';

const withFilters = (...names: string[]): Json => ({ listenerFilters: names.map((name) => ({ name })) });
const one = (chains: Json[], call: Partial<SimCall> = {}, extra: Json = {}) => run([listener('l', '0.0.0.0', 80, chains, extra)], { port: 80, ...call });
/** The chain (named after its cluster) a call lands on, or the error. */
const pick = (chains: Json[], call: Partial<SimCall>, extra: Json = {}) => {
  const r = one(chains, call, extra);
  return r.error ?? r.cluster;
};
const alpnChains = (...alpns: string[]) => [...alpns.map((a) => tcpChain(`alpn:${a}`, { applicationProtocols: [a] })), tcpChain('none')];

describe('Call.FillDefaults (traffic.go:133-161)', () => {
  const tlsOn = withFilters(TLS_INSPECTOR);
  // traffic.go:154-156 protocolToMTLSAlpn (traffic.go:638-647): istio-http/1.1, istio-h2, else istio.
  it('gives mTLS calls the istio ALPN of their protocol', () => {
    const chains = alpnChains('istio-http/1.1', 'istio-h2', 'istio');
    expect(pick(chains, { tls: 'mtls', protocol: 'http' }, tlsOn)).toBe('alpn:istio-http/1.1');
    expect(pick(chains, { tls: 'mtls', protocol: 'http2' }, tlsOn)).toBe('alpn:istio-h2');
    expect(pick(chains, { tls: 'mtls', protocol: 'tcp' }, tlsOn)).toBe('alpn:istio');
    expect(pick(chains, { tls: 'mtls' }, tlsOn)).toBe('alpn:istio');
  });

  // traffic.go:157-159 protocolToTLSAlpn (traffic.go:649-658): http/1.1, h2, else "".
  it('gives TLS calls the ALPN of their protocol, and none for TCP', () => {
    const chains = alpnChains('http/1.1', 'h2', '');
    expect(pick(chains, { tls: 'tls', protocol: 'http', host: 'x' }, tlsOn)).toBe('alpn:http/1.1');
    expect(pick(chains, { tls: 'tls', protocol: 'http2', host: 'x' }, tlsOn)).toBe('alpn:h2');
    // sets.New(appProtocols...).Contains("") (traffic.go:561): a chain listing "" takes an empty ALPN.
    expect(pick(chains, { tls: 'tls', protocol: 'tcp', host: 'x' }, tlsOn)).toBe('alpn:');
  });

  // `if c.TLS == MTLS && c.Alpn == ""`: an ALPN the call gives is kept.
  it('keeps an ALPN the call sets, for TLS and mTLS', () => {
    const chains = alpnChains('custom', 'http/1.1', 'istio-http/1.1');
    expect(pick(chains, { tls: 'mtls', protocol: 'http', alpn: 'custom' }, tlsOn)).toBe('alpn:custom');
    expect(pick(chains, { tls: 'tls', protocol: 'http', alpn: 'custom', host: 'x' }, tlsOn)).toBe('alpn:custom');
  });

  // traffic.go:150-153: the address defaults to 1.3.3.7.
  it('calls from 1.3.3.7 when no address is given', () => {
    const chains = [
      tcpChain('mine', { prefixRanges: [{ addressPrefix: '1.3.3.7', prefixLen: 32 }] }),
      tcpChain('other', { prefixRanges: [{ addressPrefix: '10.0.0.0', prefixLen: 8 }] }),
    ];
    expect(pick(chains, {})).toBe('mine');
    expect(run([listener('exact', '1.3.3.7', 80, [tcpChain('e')]), listener('any', '0.0.0.0', 80, [tcpChain('a')])], { port: 80 }).listener).toBe('exact');
  });

  // traffic.go:141-143: only TLS calls take the Host as SNI; a call without Host sends an empty SNI.
  it('sets the SNI from the Host for TLS calls only', () => {
    const chains = [tcpChain('named', { serverNames: ['a.foo.com'] }), tcpChain('empty', { serverNames: [''] }), tcpChain('none')];
    expect(pick(chains, { tls: 'tls', host: 'a.foo.com' }, tlsOn)).toBe('named');
    expect(pick(chains, { tls: 'mtls', host: 'a.foo.com' }, tlsOn)).toBe('empty');
    expect(pick(chains, { tls: 'tls' }, tlsOn)).toBe('empty');
    expect(pick(chains, { tls: 'mtls' }, tlsOn)).toBe('empty');
    expect(pick(chains, { tls: 'tls', host: 'a.foo.com', sni: 'b.foo.com' }, tlsOn)).toBe('none');
  });

  // A call without Host has Host "" (traffic.go:364-367), which no wildcard domain matches
  // (each needs len(host) >= len(d), traffic.go:472 and 488) but a "" domain does exactly.
  it('sends no Host header when none is given', () => {
    const hcm = { name: 'h', filters: [{ name: HCM, typedConfig: { rds: { routeConfigName: 'rc' } } }] };
    const rc = (domains: string[][]) => [
      { name: 'rc', virtualHosts: domains.map((d, i) => ({ name: `vh${i}`, domains: d, routes: [{ match: { prefix: '/' }, route: { cluster: `c${i}` } }] })) },
    ];
    const call = { port: 80, protocol: 'http' as const };
    expect(run([listener('l', '0.0.0.0', 80, [hcm])], call, rc([['s*', '*!', '*e!']])).error).toBe('ErrNoVirtualHost');
    expect(run([listener('l', '0.0.0.0', 80, [hcm])], call, rc([['s*'], ['']])).virtualHost).toBe('vh1');
  });
});

describe('matchListener / matchAddress (traffic.go:671-710)', () => {
  // l.GetAddress().GetSocketAddress() is "" / 0 when the listener has no socket address.
  it('skips listeners without a socket address and finds virtualOutbound by name', () => {
    const ls = [
      { name: 'noaddr', filterChains: [tcpChain('x')] },
      { name: 'virtualOutbound', address: { pipe: { path: '/p' } }, filterChains: [tcpChain('vo')] },
    ];
    expect(run(ls, { port: 80 })).toMatchObject({ listener: 'virtualOutbound', cluster: 'vo' });
  });

  it('reads a missing address as "" and a missing port as 0', () => {
    const ls = [
      { name: 'noip', address: { socketAddress: { portValue: 80 } }, filterChains: [tcpChain('a')] },
      { name: 'noport', address: { socketAddress: { address: '0.0.0.0' } }, filterChains: [tcpChain('b')] },
    ];
    expect(run(ls, { port: 80, address: 'Stryker was here!' }).error).toBe('ErrNoListener');
    expect(run(ls, { port: 0 }).listener).toBe('noport');
  });

  it('names a listener without a name ""', () => {
    const r = run([{ address: { socketAddress: { address: '0.0.0.0', portValue: 80 } }, filterChains: [tcpChain('a')] }], { port: 80 });
    expect(r.listener).toBe('');
    expect(r.trace[0]).toBe('listener ');
  });
});

describe('listener filter predicates (xdstest.EvaluateListenerFilterPredicates)', () => {
  const chains = [tcpChain('tls', { transportProtocol: 'tls' }), tcpChain('raw', { transportProtocol: 'raw_buffer' })];
  const inbound = (disabled: unknown, port = 80) =>
    run([listener('virtualInbound', '0.0.0.0', 15006, chains, { listenerFilters: [{ name: TLS_INSPECTOR, filterDisabled: disabled }] })], {
      mode: 'inbound',
      port,
      tls: 'tls',
      sni: 'x',
    }).cluster;

  // OrMatch: `matches := false; for … matches = matches || Evaluate(r)`: no rules, no match.
  it('reads an or_match without rules as false (the inspector stays on)', () => {
    expect(inbound({ orMatch: {} })).toBe('tls');
    expect(inbound({ orMatch: { rules: [] } })).toBe('tls');
  });

  // `if predicate == nil { return true }`: a rule that is not a predicate counts as matching.
  it('reads an or_match rule that is not an object as true', () => {
    expect(inbound({ orMatch: { rules: [null] } })).toBe('raw');
  });

  // A predicate with none of not_match, or_match, destination_port_range (Envoy's any_match: true) matches.
  it('reads any_match as matching every port', () => {
    expect(inbound({ anyMatch: true })).toBe('raw');
    expect(inbound({ notMatch: { anyMatch: true } })).toBe('tls');
  });
});

describe('filterRank (traffic.go:596-636)', () => {
  // reflect.Value.IsZero: null (protojson's unset), "" and [] are unset fields.
  it('counts null, "" and [] as unset', () => {
    expect(pick([tcpChain('null', { destinationPort: null }), tcpChain('p81', { destinationPort: 81 })], {})).toBe('null');
    expect(pick([tcpChain('empty', { transportProtocol: '' }), tcpChain('tls', { transportProtocol: 'tls' })], {}, withFilters(TLS_INSPECTOR))).toBe('empty');
    expect(
      pick([tcpChain('none', { serverNames: [] }), tcpChain('x', { serverNames: ['x.com'] })], { tls: 'tls', sni: 'y.com' }, withFilters(TLS_INSPECTOR)),
    ).toBe('none');
  });

  // `best := slices.Max(maps.Keys(resByRank))`: only the best rank stays, whatever the order.
  it('keeps only the best rank when a worse match comes after it', () => {
    const chains = [
      tcpChain('slash32', { prefixRanges: [{ addressPrefix: '10.0.0.1', prefixLen: 32 }] }),
      tcpChain('slash8', { prefixRanges: [{ addressPrefix: '10.0.0.0', prefixLen: 8 }] }),
      tcpChain('slash16', { prefixRanges: [{ addressPrefix: '10.0.0.0', prefixLen: 16 }] }),
    ];
    expect(pick(chains, { address: '10.0.0.1' })).toBe('slash32');
    expect(pick(chains, { address: '10.0.9.9' })).toBe('slash16');
  });

  it("ranks the longest of a chain's prefixes, skipping entries that are not prefixes", () => {
    const chains = [
      tcpChain('mixed', {
        prefixRanges: [null, 'x', { addressPrefix: 'bogus', prefixLen: 8 }, { prefixLen: 8 }, { addressPrefix: '10.0.0.0', prefixLen: 24 }],
      }),
      tcpChain('slash16', { prefixRanges: [{ addressPrefix: '10.0.0.0', prefixLen: 16 }] }),
    ];
    expect(pick(chains, { address: '10.0.0.5' })).toBe('mixed');
    // netip.MustParseAddr(input.Address): a call from a name is in no prefix.
    expect(one(chains, { address: 'host.example' }).error).toBe('ErrNoFilterChain');
  });

  it('skips server names that are not strings', () => {
    expect(pick([tcpChain('x', { serverNames: [7, null, 'x.com'] }), tcpChain('none')], { tls: 'tls', sni: 'x.com' }, withFilters(TLS_INSPECTOR))).toBe('x');
  });

  // TransportProtocol with a TLS inspector: only "tls" and "raw_buffer" can match (traffic.go:552-558).
  it('matches no other transport protocol', () => {
    const chains = [tcpChain('quic', { transportProtocol: 'quic' }), tcpChain('none')];
    expect(pick(chains, {}, withFilters(TLS_INSPECTOR))).toBe('none');
    expect(pick(chains, { tls: 'tls', sni: 'x' }, withFilters(TLS_INSPECTOR))).toBe('none');
  });
});

describe('ALPN after the listener filters (traffic.go:298-310)', () => {
  // Without a TLS inspector the ALPN is cleared: input.Alpn = "".
  it('clears the ALPN without a TLS inspector', () => {
    expect(pick(alpnChains('http/1.1', ''), { tls: 'tls', protocol: 'http', host: 'x' })).toBe('alpn:');
  });

  // The HTTP inspector sets http/1.1 or h2c on plaintext only.
  it('lets the HTTP inspector set the ALPN of plaintext calls only', () => {
    const chains = alpnChains('h2', 'h2c', '');
    const both = withFilters(TLS_INSPECTOR, HTTP_INSPECTOR);
    expect(pick(chains, { tls: 'tls', protocol: 'http2', host: 'x' }, both)).toBe('alpn:h2');
    expect(pick(chains, { protocol: 'http2' }, both)).toBe('alpn:h2c');
    expect(pick(chains, { protocol: 'tcp' }, withFilters(HTTP_INSPECTOR))).toBe('alpn:');
  });
});

describe('the default filter chain and ErrNoFilterChain (traffic.go:571-576)', () => {
  it('says in the trace when the default chain applies, and not otherwise', () => {
    const r = one([tcpChain('a', { destinationPort: 81 })], {}, { defaultFilterChain: tcpChain('dflt') });
    expect(r.trace).toEqual([
      'listener l',
      'destination port: no chain matched; 0 chain(s) do not set it',
      'no filter chain matched: the default filter chain applies',
      'filter chain dflt',
      'cluster dflt',
    ]);
    const none = one([tcpChain('a', { destinationPort: 81 })]);
    expect(none).toEqual({ error: 'ErrNoFilterChain', listener: 'l', trace: ['listener l', 'destination port: no chain matched; 0 chain(s) do not set it'] });
  });
});

describe('requiresMTLS (traffic.go:395-415)', () => {
  const chain = (typedConfig: Json | undefined) => ({
    name: 'c',
    transportSocket: { name: 'envoy.transport_sockets.tls', ...(typedConfig ? { typedConfig } : {}) },
    filters: [{ name: TCP, typedConfig: { cluster: 'c' } }],
  });
  const sds = (name: string) => ({ commonTlsContext: { tlsCertificateSdsSecretConfigs: [{ name }] } });
  const verdict = (typedConfig: Json | undefined, call: Partial<SimCall> = {}) => [
    pick([chain(typedConfig)], { tls: 'tls', sni: 'x', ...call }),
    pick([chain(typedConfig)], { tls: 'mtls', ...call }),
  ];

  it('requires mTLS only with the first certificate named "default" and require_client_certificate true', () => {
    expect(verdict({ ...sds('default'), requireClientCertificate: true })).toEqual(['ErrMTLSError', 'c']);
    expect(verdict({ ...sds('default') })).toEqual(['c', 'ErrMTLSError']);
    expect(verdict({ ...sds('default'), requireClientCertificate: false })).toEqual(['c', 'ErrMTLSError']);
    expect(verdict({ ...sds('other'), requireClientCertificate: true })).toEqual(['c', 'ErrMTLSError']);
    expect(verdict({ commonTlsContext: { tlsCertificateSdsSecretConfigs: [{ name: 'other' }, { name: 'default' }] }, requireClientCertificate: true })).toEqual(
      ['c', 'ErrMTLSError'],
    );
  });

  it("compares the first certificate with the call's mtlsSecretConfigName", () => {
    expect(verdict({ ...sds('other'), requireClientCertificate: true }, { mtlsSecretConfigName: 'other' })).toEqual(['ErrMTLSError', 'c']);
  });

  it('does not require mTLS without certificates or without a typed config', () => {
    expect(verdict({ commonTlsContext: {}, requireClientCertificate: true })).toEqual(['c', 'ErrMTLSError']);
    expect(verdict({ requireClientCertificate: true })).toEqual(['c', 'ErrMTLSError']);
    expect(verdict(undefined)).toEqual(['c', 'ErrMTLSError']);
  });
});

describe('HTTP connection manager (traffic.go:344-388)', () => {
  const hcmChain = (typedConfig: Json, name?: string): Json => ({ ...(name === undefined ? {} : { name }), filters: [{ name: HCM, typedConfig }] });
  const rds = (name: string) => ({ rds: { routeConfigName: name } });
  const vh = (routes: unknown[], extra: Json = {}): Json => ({ name: 'vh', domains: ['*'], routes, ...extra });
  const http = (chain: Json, routes: Json[], call: Partial<SimCall> = {}) =>
    run([listener('l', '0.0.0.0', 80, [chain])], { port: 80, protocol: 'http', host: 'h', ...call }, routes);
  const byPath = (routes: unknown[], path: string) => {
    const r = http(hcmChain(rds('rc')), [{ name: 'rc', virtualHosts: [vh(routes)] }], { path });
    return r.error ?? r.route;
  };

  // `if input.Protocol != HTTP && input.Protocol != HTTP2`: HTTP/2 goes through.
  it('accepts HTTP/2 as well as HTTP/1.1', () => {
    expect(
      http(hcmChain(rds('rc'), 'c'), [{ name: 'rc', virtualHosts: [vh([{ name: 'r', match: { prefix: '/' }, route: { cluster: 'x' } }])] }], {
        protocol: 'http2',
      }),
    ).toMatchObject({ route: 'r', cluster: 'x' });
  });

  it('writes each step to the trace, unnamed ones as (unnamed)', () => {
    const r = http(hcmChain(rds('rc')), [{ name: 'rc', virtualHosts: [vh([{ match: { prefix: '/' }, route: { cluster: 'x' } }])] }]);
    expect(r).toEqual({
      listener: 'l',
      filterChain: '',
      filterChainIndex: 0,
      routeConfig: 'rc',
      virtualHost: 'vh',
      route: '',
      routeIndex: 0,
      cluster: 'x',
      trace: ['listener l', 'filter chain (unnamed)', 'route configuration rc', 'virtual host vh', 'route (unnamed)', 'cluster x'],
    });
    const named = http(hcmChain(rds('rc'), 'fc'), [{ name: 'rc', virtualHosts: [vh([{ name: 'r', match: { prefix: '/' }, route: { cluster: 'x' } }])] }]);
    expect(named.trace).toEqual(['listener l', 'filter chain fc', 'route configuration rc', 'virtual host vh', 'route r', 'cluster x']);
  });

  // hcm.GetRds().RouteConfigName is "" without RDS; no route configuration → no virtual host.
  it('reads a missing RDS name as "" and says a route configuration was not generated', () => {
    expect(http(hcmChain({}), [])).toEqual({
      error: 'ErrNoVirtualHost',
      listener: 'l',
      filterChain: '',
      filterChainIndex: 0,
      routeConfig: '',
      trace: ['listener l', 'filter chain (unnamed)', 'route configuration  (not generated)'],
    });
    expect(http(hcmChain({ rds: {} }), []).routeConfig).toBe('');
    expect(http(hcmChain({ rds: { routeConfigName: 5 } }), [{ name: 5, virtualHosts: [vh([])] }]).routeConfig).toBe('');
    expect(http(hcmChain(rds('gone')), []).trace).toEqual(['listener l', 'filter chain (unnamed)', 'route configuration gone (not generated)']);
  });

  it('names a virtual host without a name ""', () => {
    const r = http(hcmChain(rds('rc')), [{ name: 'rc', virtualHosts: [{ domains: ['*'], routes: [{ match: { prefix: '/' } }] }] }]);
    expect(r.virtualHost).toBe('');
    expect(r.trace).toContain('virtual host ');
  });

  // `switch t := r.GetAction().(type) { case *route.Route_Route: … GetCluster() }`: no cluster otherwise.
  it('gives no cluster for routes without a cluster name', () => {
    for (const action of [
      { route: { weightedClusters: { clusters: [{ name: 'a', weight: 1 }] } } },
      { redirect: { pathRedirect: '/x' } },
      { route: { cluster: 7 } },
    ]) {
      const r = http(hcmChain(rds('rc')), [{ name: 'rc', virtualHosts: [vh([{ name: 'r', match: { prefix: '/' }, ...action }])] }]);
      expect(r.route).toBe('r');
      expect('cluster' in r).toBe(false);
      expect(r.trace.at(-1)).toBe('route r');
    }
  });

  // traffic.go:374: `vh.RequireTls == route.VirtualHost_ALL && input.TLS == Plaintext` → ErrTLSRedirect only then.
  it('redirects only plaintext calls, and only when the virtual host requires TLS for ALL', () => {
    const tlsChain = { ...hcmChain(rds('rc'), 'tls'), transportSocket: { name: 'envoy.transport_sockets.tls', typedConfig: {} } };
    const routes = (requireTls: string) => [
      { name: 'rc', virtualHosts: [vh([{ name: 'r', match: { prefix: '/' }, route: { cluster: 'x' } }], { requireTls })] },
    ];
    expect(http(hcmChain(rds('rc')), routes('ALL')).error).toBe('ErrTLSRedirect');
    expect(http(tlsChain, routes('ALL'), { tls: 'tls' })).toMatchObject({ route: 'r', cluster: 'x' });
    expect(http(hcmChain(rds('rc')), routes('EXTERNAL_ONLY'))).toMatchObject({ route: 'r', cluster: 'x' });
  });

  // matchRoute (traffic.go:417-450).
  it('treats path_separated_prefix as a plain prefix', () => {
    const routes = [
      { name: 'sep', match: { pathSeparatedPrefix: '/api' } },
      { name: 'rest', match: { prefix: '/b' } },
    ];
    expect(byPath(routes, '/api/v1')).toBe('sep');
    expect(byPath(routes, '/apix')).toBe('sep');
    expect(byPath(routes, '/v1/api')).toBe('ErrNoRoute');
    expect(byPath(routes, '/b')).toBe('rest');
  });

  it('skips routes that are not objects', () => {
    expect(byPath([null, 'x', { name: 'r', match: { prefix: '/' } }], '/a')).toBe('r');
  });

  // regexp.Compile / sim.t.Fatalf: an invalid regex or another path type stops the run with a message.
  it('says why when a route cannot be matched', () => {
    expect(byPath([{ name: 'bad', match: { safeRegex: { regex: '(' } } }], '/a')).toBe('invalid regex (');
    expect(byPath([{ name: 'odd', match: { headers: [] } }], '/a')).toBe('unknown route path type in {"headers":[]}');
    expect(byPath([{ name: 'none' }], '/a')).toBe('unknown route path type in {}');
  });

  // GetRegex() is "" for a safe_regex without regex: it matches every path.
  it('matches every path with an empty regex', () => {
    expect(byPath([{ name: 'all', match: { safeRegex: {} } }], '/anything')).toBe('all');
  });

  describe('Go regexp syntax (regexp.Compile; MatchString finds the pattern anywhere)', () => {
    const re = (regex: string, path: string) => byPath([{ name: 'hit', match: { safeRegex: { regex } } }], path);
    it('reads leading (?i), (?s), (?m) and their combinations as flags', () => {
      expect(re('(?i)^/api$', '/API')).toBe('hit');
      expect(re('^/api$', '/API')).toBe('ErrNoRoute');
      expect(re('(?s)^/a.b$', '/a\nb')).toBe('hit');
      expect(re('^/a.b$', '/a\nb')).toBe('ErrNoRoute');
      expect(re('(?m)^/b$', '/a\n/b')).toBe('hit');
      expect(re('^/b$', '/a\n/b')).toBe('ErrNoRoute');
      expect(re('(?is)^/A.B$', '/a\nb')).toBe('hit');
      expect(re('(?U)^/a+$', '/aa')).toBe('hit');
    });
    it('sets only the flags the group names', () => {
      expect(re('(?s)^/a$', '/A')).toBe('ErrNoRoute');
      expect(re('(?i)^/a.b$', '/a\nb')).toBe('ErrNoRoute');
      expect(re('(?i)^/b$', '/a\n/b')).toBe('ErrNoRoute');
      expect(re('(?U)^/a$', '/A')).toBe('ErrNoRoute');
    });
    it('keeps (?i) that does not lead the pattern as Go text', () => {
      expect(re('^/[(?i)]$', '/i')).toBe('hit');
    });
    it('reads (?P<name>…) groups and \\z', () => {
      expect(re('^/(?P<v>[0-9]+)$', '/12')).toBe('hit');
      expect(re('^/a\\z', '/a')).toBe('hit');
      expect(re('^/a\\z', '/ab')).toBe('ErrNoRoute');
    });
  });
});

describe('TCP proxy (traffic.go:389-391)', () => {
  it("gives the TCP proxy's cluster, and none without a cluster name or without filters", () => {
    expect(pick([tcpChain('t')], {})).toBe('t');
    const weighted = one([{ name: 'w', filters: [{ name: TCP, typedConfig: { weightedClusters: { clusters: [{ name: 'a', weight: 1 }] } } }] }]);
    expect(weighted).toEqual({ listener: 'l', filterChain: 'w', filterChainIndex: 0, trace: ['listener l', 'filter chain w'] });
    expect('cluster' in weighted).toBe(false);
    expect(one([{ name: 'empty' }])).toEqual({ listener: 'l', filterChain: 'empty', filterChainIndex: 0, trace: ['listener l', 'filter chain empty'] });
  });
});

describe("the filter chain trace (shown as the filter chain step's detail)", () => {
  it("lists each field that some chain sets, in Envoy's order, with how many chains matched", () => {
    const chains = [
      tcpChain('a', {
        destinationPort: 80,
        prefixRanges: [{ addressPrefix: '10.0.0.0', prefixLen: 8 }],
        serverNames: ['x.com'],
        transportProtocol: 'tls',
        applicationProtocols: ['h2'],
      }),
      tcpChain('b', { destinationPort: 80, prefixRanges: [{ addressPrefix: '10.0.0.0', prefixLen: 8 }], serverNames: ['x.com'], transportProtocol: 'tls' }),
    ];
    const r = one(chains, { address: '10.1.1.1', tls: 'tls', sni: 'x.com', protocol: 'http2' }, withFilters(TLS_INSPECTOR));
    expect(r.cluster).toBe('a');
    expect(r.trace).toEqual([
      'listener l',
      'destination port: 2 chain(s) matched',
      'destination prefix: 2 chain(s) matched',
      'server names: 2 chain(s) matched',
      'transport protocol: 2 chain(s) matched',
      'application protocols: 1 chain(s) matched',
      'filter chain a',
      'cluster a',
    ]);
  });

  it('says nothing about fields no chain sets', () => {
    expect(one([tcpChain('a')]).trace).toEqual(['listener l', 'filter chain a', 'cluster a']);
  });
});

// Envoy's RouteMatcher::findVirtualHost with ignore_port_in_host_matching strips what
// HeaderUtility::getPortStart finds: from the last ':' unless a ']' follows it. Istio writes
// IPv6 domains in brackets (util.IPv6Compliant, pilot/pkg/networking/core/httproute.go).
describe('the Host without its port (ignore_port_in_host_matching)', () => {
  const hcm = { name: 'h', filters: [{ name: HCM, typedConfig: { rds: { routeConfigName: 'rc' } } }] };
  const vhost = (host: string, domains: string[]) => {
    const routes = [
      { name: 'rc', ignorePortInHostMatching: true, virtualHosts: domains.map((d) => ({ name: d, domains: [d], routes: [{ match: { prefix: '/' } }] })) },
    ];
    const r = run([listener('l', '0.0.0.0', 80, [hcm])], { port: 80, protocol: 'http', host }, routes);
    return r.error ?? r.virtualHost;
  };
  it('keeps the brackets of an IPv6 literal', () => {
    expect(vhost('[fd00::1]:80', ['[fd00::1]', 'fd00::1'])).toBe('[fd00::1]');
    expect(vhost('[fd00::1]', ['[fd00::1]', '[fd00:'])).toBe('[fd00::1]');
    expect(vhost('[fd00::1]:', ['[fd00::1]'])).toBe('[fd00::1]');
  });
  it('cuts at the last colon', () => {
    expect(vhost('a.com:8080', ['a.com', 'a.com:8080'])).toBe('a.com');
    expect(vhost('a:b:80', ['a:b', 'a'])).toBe('a:b');
    expect(vhost('a.com:', ['a.com'])).toBe('a.com');
    expect(vhost(':80', ['', ':80'])).toBe('');
  });
  it('leaves a Host without a colon alone', () => {
    expect(vhost('a.com', ['a.com', 'a.co'])).toBe('a.com');
    expect(vhost('x]', ['x]', 'x'])).toBe('x]');
  });
});

describe('virtual host domains', () => {
  const hcm = { name: 'h', filters: [{ name: HCM, typedConfig: { rds: { routeConfigName: 'rc' } } }] };
  const vhost = (host: string, domains: unknown[][]) => {
    const routes = [{ name: 'rc', virtualHosts: domains.map((d, i) => ({ name: `vh${i}`, domains: d, routes: [{ match: { prefix: '/' } }] })) }];
    const r = run([listener('l', '0.0.0.0', 80, [hcm])], { port: 80, protocol: 'http', host }, routes);
    return r.error ?? r.virtualHost;
  };
  it('skips domains that are not strings', () => {
    expect(vhost('a.com', [[7, null, 'a.com']])).toBe('vh0');
    expect(vhost('a.com', [[{}], ['*']])).toBe('vh1');
  });
  // traffic.go:472: `len(d) > longest` keeps the first of two equally long suffix wildcards.
  it('keeps the first of equally long wildcards', () => {
    expect(vhost('a.foo.com', [['*.foo.com'], ['*o.foo.com', '*.foo.com']])).toBe('vh0');
    expect(vhost('ba.foo.com', [['*.foo.com'], ['*a.foo.com']])).toBe('vh1');
    // traffic.go:488: the same for prefix wildcards, and the longest prefix wins.
    expect(vhost('api.foo.com', [['api.*'], ['api.*']])).toBe('vh0');
    expect(vhost('api.foo.com', [['api.*'], ['api.f*']])).toBe('vh1');
    expect(vhost('api.foo.com', [['api.f*'], ['api.*']])).toBe('vh0');
    expect(vhost('api.foo.com', [['x*', 'api.*']])).toBe('vh0');
  });
  // traffic.go:469: only a domain starting with '*' is a suffix wildcard.
  it('does not take a domain starting with a letter as a suffix wildcard', () => {
    expect(vhost('ba.com', [['xa.com']])).toBe('ErrNoVirtualHost');
  });
  it('does not take a domain ending in a letter as a prefix wildcard', () => {
    expect(vhost('api.foo.com', [['api.x'], ['*']])).toBe('vh1');
    expect(vhost('api.foo.com', [['api.fo'], ['api.*']])).toBe('vh1');
    expect(vhost('api.foo.com', [['ab*']])).toBe('ErrNoVirtualHost');
  });
});
