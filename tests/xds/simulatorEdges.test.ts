// The request simulator's matching rules at their edges, from Istio's harness
// (pilot/pkg/simulation/traffic.go, istio/istio HEAD 86c9f01f) and what it calls
// (pkg/config/host/name.go, pilot/test/xdstest/test.go, pilot/pkg/networking/core/listener_inbound.go).
// Listeners and routes are written by hand so each rule is tested on its own; the expected
// results are what the Go code does, read from the source.
import { describe, expect, it } from 'vitest';
import type { SimCall } from '../../src/core/xds/simulate.ts';
import { listenerPredicateExclude } from '../../src/core/xds/listeners/inbound.ts';
import type { Json } from '../../src/core/xds/types.ts';
import { HCM, HTTP_INSPECTOR, TLS_INSPECTOR, listener, run, tcpChain } from './simulatorFixtures.ts';

describe('listener matching (traffic.go matchListener / matchAddress)', () => {
  const ls = [
    listener('0.0.0.0_80', '0.0.0.0', 80, [tcpChain('wild')]),
    listener('10.0.0.1_80', '10.0.0.1', 80, [tcpChain('exact')]),
    listener('virtualOutbound', '0.0.0.0', 15001, [tcpChain('passthrough')]),
  ];

  it('prefers the exact address and port, even when listed after the wildcard', () => {
    expect(run(ls, { port: 80, address: '10.0.0.1' })).toMatchObject({ listener: '10.0.0.1_80', cluster: 'exact' });
  });

  it('falls back to 0.0.0.0 on the same port, then to virtualOutbound', () => {
    expect(run(ls, { port: 80, address: '10.0.0.2' })).toMatchObject({ listener: '0.0.0.0_80' });
    expect(run(ls, { port: 81, address: '10.0.0.1' })).toMatchObject({ listener: 'virtualOutbound' });
  });

  it('gives ErrNoListener when nothing matches and there is no virtualOutbound', () => {
    expect(run(ls.slice(0, 2), { port: 81 }).error).toBe('ErrNoListener');
  });

  // CallModeInbound → ExtractListener(VirtualInboundListenerName): the port does not pick the listener.
  it('sends inbound calls to virtualInbound whatever the port', () => {
    const vi = listener('virtualInbound', '0.0.0.0', 15006, [tcpChain('in')]);
    expect(run([...ls, vi], { mode: 'inbound', port: 80, address: '10.0.0.1' })).toMatchObject({ listener: 'virtualInbound', cluster: 'in' });
  });
});

describe('filter chain matching (traffic.go matchFilterChain / filterRank)', () => {
  const one = (chains: Json[], call: Partial<SimCall> = {}, extra: Json = {}) => run([listener('l', '0.0.0.0', 80, chains, extra)], { port: 80, ...call });

  // `if len(chains) > 1 { return nil, ErrMultipleFilterChain }`.
  it('gives ErrMultipleFilterChain for two equally good chains', () => {
    expect(one([tcpChain('a', { destinationPort: 80 }), tcpChain('b', { destinationPort: 80 })]).error).toBe('ErrMultipleFilterChain');
    expect(one([tcpChain('a'), tcpChain('b')]).error).toBe('ErrMultipleFilterChain');
    expect(
      one(
        [tcpChain('a', { serverNames: ['*.foo.com'] }), tcpChain('b', { serverNames: ['*.bar.foo.com', '*.foo.com'] })],
        { tls: 'tls', sni: 'x.foo.com' },
        { listenerFilters: [{ name: TLS_INSPECTOR }] },
      ).error,
    ).toBe('ErrMultipleFilterChain');
  });

  // `if len(chains) == 0 { if defaultChain != nil { return defaultChain } ; return ErrNoFilterChain }`.
  it('falls back to the default filter chain, else ErrNoFilterChain', () => {
    expect(one([tcpChain('a', { destinationPort: 81 })]).error).toBe('ErrNoFilterChain');
    expect(one([tcpChain('a', { destinationPort: 81 })], {}, { defaultFilterChain: tcpChain('dflt') })).toMatchObject({
      cluster: 'dflt',
      filterChainIndex: -1,
    });
  });

  // filterRank: when some chains set a field and none of them match, the chains that do not set it remain.
  it('keeps the chains without the field when no chain setting it matches', () => {
    expect(one([tcpChain('port81', { destinationPort: 81 }), tcpChain('any')])).toMatchObject({ cluster: 'any' });
    expect(one([tcpChain('port80', { destinationPort: 80 }), tcpChain('any')])).toMatchObject({ cluster: 'port80' });
  });

  // PrefixRanges ranked by cidr.Bits(): "A /32 should match before a /8 even if they both match".
  it('ranks destination prefixes by length', () => {
    const chains = [
      tcpChain('slash8', { prefixRanges: [{ addressPrefix: '10.0.0.0', prefixLen: 8 }] }),
      tcpChain('slash32', { prefixRanges: [{ addressPrefix: '10.0.0.1', prefixLen: 32 }] }),
    ];
    expect(one(chains, { address: '10.0.0.1' })).toMatchObject({ cluster: 'slash32' });
    expect(one(chains, { address: '10.9.9.9' })).toMatchObject({ cluster: 'slash8' });
  });

  // ServerNames: exact SNI = math.MaxInt; otherwise sni.SubsetOf(s) ranked by len(s).
  describe('server names', () => {
    const tlsListener = { listenerFilters: [{ name: TLS_INSPECTOR }] };
    const sni = (chains: Json[], name: string) => one(chains, { tls: 'tls', sni: name }, tlsListener);

    it('prefers an exact name over a longer wildcard', () => {
      const chains = [tcpChain('wild', { serverNames: ['*.very.long.foo.com'] }), tcpChain('exact', { serverNames: ['a.very.long.foo.com'] })];
      expect(sni(chains, 'a.very.long.foo.com')).toMatchObject({ cluster: 'exact' });
    });

    it('prefers the longer of two matching wildcards', () => {
      const chains = [tcpChain('short', { serverNames: ['*.com'] }), tcpChain('long', { serverNames: ['*.foo.com'] })];
      expect(sni(chains, 'a.foo.com')).toMatchObject({ cluster: 'long' });
      expect(sni(chains, 'a.bar.com')).toMatchObject({ cluster: 'short' });
    });

    // host.Name.SubsetOf with only o wildcarded: strings.HasSuffix(n, o[1:]) — ".foo.com" is a
    // subset of "*.foo.com" (no character needed before the dot), but "foo.com" is not.
    it('counts ".foo.com" as covered by "*.foo.com", and "foo.com" as not', () => {
      const chains = [tcpChain('wild', { serverNames: ['*.foo.com'] }), tcpChain('other')];
      expect(sni(chains, '.foo.com')).toMatchObject({ cluster: 'wild' });
      expect(sni(chains, 'foo.com')).toMatchObject({ cluster: 'other' });
    });
  });

  // TransportProtocol: without a TLS inspector only raw_buffer matches; with it tls ↔ TLS/MTLS, raw_buffer ↔ plaintext.
  describe('transport protocol', () => {
    const chains = [tcpChain('tls', { transportProtocol: 'tls' }), tcpChain('raw', { transportProtocol: 'raw_buffer' })];
    it('matches tls or raw_buffer by the call when the TLS inspector runs', () => {
      const ex = { listenerFilters: [{ name: TLS_INSPECTOR }] };
      expect(one(chains, { tls: 'tls', sni: 'x' }, ex)).toMatchObject({ cluster: 'tls' });
      expect(one(chains, { tls: 'plaintext' }, ex)).toMatchObject({ cluster: 'raw' });
    });
    it('sees every connection as raw_buffer without a TLS inspector', () => {
      expect(one(chains, { tls: 'tls', sni: 'x' })).toMatchObject({ cluster: 'raw' });
    });
  });

  // hasFilterOnPort → xdstest.EvaluateListenerFilterPredicates: DestinationPortRange is
  // `port >= Start && port < End`, and listener_inbound.go listenerPredicateExcludePorts writes
  // [p, p+1) ("Range is [start, end)"): the inspector is off on p only.
  describe('listener filter port ranges', () => {
    const chains = [tcpChain('tls', { transportProtocol: 'tls' }), tcpChain('raw', { transportProtocol: 'raw_buffer' })];
    const vi = (disabled: Json) => [
      listener('virtualInbound', '0.0.0.0', 15006, chains, { listenerFilters: [{ name: TLS_INSPECTOR, filterDisabled: disabled }] }),
    ];
    const inbound = (ls: Json[], port: number) => run(ls, { mode: 'inbound', port, tls: 'tls', sni: 'x' }).cluster;

    it('disables a filter from start inclusive to end exclusive', () => {
      const ls = vi({ destinationPortRange: { start: 8080, end: 8082 } });
      expect(inbound(ls, 8079)).toBe('tls');
      expect(inbound(ls, 8080)).toBe('raw');
      expect(inbound(ls, 8081)).toBe('raw');
      expect(inbound(ls, 8082)).toBe('tls');
    });

    it('evaluates or_match and not_match', () => {
      const or = vi({ orMatch: { rules: [{ destinationPortRange: { start: 80, end: 81 } }, { destinationPortRange: { start: 90, end: 91 } }] } });
      expect([inbound(or, 80), inbound(or, 85), inbound(or, 90)]).toEqual(['raw', 'tls', 'raw']);
      const not = vi({ notMatch: { destinationPortRange: { start: 80, end: 81 } } });
      expect([inbound(not, 80), inbound(not, 81)]).toEqual(['tls', 'raw']);
    });

    it('excludes exactly the listed ports with the predicate generation writes', () => {
      expect(listenerPredicateExclude([8080])).toEqual({ destinationPortRange: { start: 8080, end: 8081 } });
      const ls = vi(listenerPredicateExclude([8080, 9090]));
      expect([inbound(ls, 8080), inbound(ls, 8081), inbound(ls, 9089), inbound(ls, 9090), inbound(ls, 9091)]).toEqual(['raw', 'tls', 'tls', 'raw', 'tls']);
    });
  });

  // ApplicationProtocols after the HTTP inspector: plaintext HTTP gets ALPN http/1.1 (h2c for HTTP/2).
  it('matches application protocols set by the HTTP inspector', () => {
    const chains = [tcpChain('h1', { applicationProtocols: ['http/1.1'] }), tcpChain('h2', { applicationProtocols: ['h2c'] }), tcpChain('tcp')];
    const ex = { listenerFilters: [{ name: HTTP_INSPECTOR }] };
    expect(one(chains, { protocol: 'http' }, ex)).toMatchObject({ cluster: 'h1' });
    expect(one(chains, { protocol: 'http2' }, ex)).toMatchObject({ cluster: 'h2' });
    expect(one(chains, { protocol: 'tcp' }, ex)).toMatchObject({ cluster: 'tcp' });
    // Without the HTTP inspector no ALPN is set: only the chain without the field remains.
    expect(one(chains, { protocol: 'http' })).toMatchObject({ cluster: 'tcp' });
  });

  // Run: "invalid call, ALPN can only be sent in TLS requests".
  it('refuses ALPN on a plaintext call', () => {
    expect(one([tcpChain('a')], { alpn: 'h2' }).error).toBe('invalid call, ALPN can only be sent in TLS requests');
  });
});

describe('after the filter chain (traffic.go Run)', () => {
  const socket = {
    transportSocket: {
      name: 'tls',
      typedConfig: { commonTlsContext: { tlsCertificateSdsSecretConfigs: [{ name: 'default' }] }, requireClientCertificate: true },
    },
  };
  const hcmChain = (extra: Json = {}): Json => ({ name: 'http', filters: [{ name: HCM, typedConfig: { rds: { routeConfigName: 'rc' } } }], ...extra });
  const rc = (vhs: Json[], extra: Json = {}): Json[] => [{ name: 'rc', virtualHosts: vhs, ...extra }];
  const vh = (name: string, domains: string[], routes: Json[] = [{ name: 'r', match: { prefix: '/' }, route: { cluster: name } }], extra: Json = {}): Json => ({
    name,
    domains,
    routes,
    ...extra,
  });
  const http = (chain: Json, routes: Json[], call: Partial<SimCall>) =>
    run([listener('l', '0.0.0.0', 80, [chain])], { port: 80, protocol: 'http', ...call }, routes);

  it('gives ErrTLSError for plaintext to a chain with a transport socket', () => {
    expect(http(hcmChain(socket), rc([vh('a', ['*'])]), {}).error).toBe('ErrTLSError');
  });

  // requiresMTLS(fc) != (input.TLS == MTLS) → ErrMTLSError.
  it('gives ErrMTLSError for TLS without a client certificate to an mTLS chain', () => {
    expect(http(hcmChain(socket), rc([vh('a', ['*'])]), { tls: 'tls', host: 'x' }).error).toBe('ErrMTLSError');
    expect(http(hcmChain(socket), rc([vh('a', ['*'])]), { tls: 'mtls', host: 'x' })).toMatchObject({ cluster: 'a' });
  });

  it('gives ErrProtocolError for TLS to an HCM without TLS termination, and for TCP to an HCM', () => {
    expect(http(hcmChain(), rc([vh('a', ['*'])]), { tls: 'tls', host: 'x' }).error).toBe('ErrProtocolError');
    expect(http(hcmChain(), rc([vh('a', ['*'])]), { protocol: 'tcp' }).error).toBe('ErrProtocolError');
  });

  // matchVirtualHost: exact; then `*suffix` (len(host) >= len(d), longest d); then `prefix*`; then "*".
  describe('virtual host matching', () => {
    const vhs = [
      vh('star', ['*']),
      vh('wild-foo', ['*.foo.com']),
      vh('wild-bar-foo', ['*.bar.foo.com']),
      vh('prefix', ['api.*']),
      vh('exact', ['a.bar.foo.com']),
    ];
    const host = (h: string, extra: Json = {}) => http(hcmChain(), rc(vhs, extra), { host: h }).virtualHost;

    it('prefers an exact domain over any wildcard', () => {
      expect(host('a.bar.foo.com')).toBe('exact');
    });

    it('prefers the longest matching suffix wildcard', () => {
      expect(host('b.bar.foo.com')).toBe('wild-bar-foo');
      expect(host('b.foo.com')).toBe('wild-foo');
    });

    // `len(host) >= len(d)`: "*.foo.com" needs at least one character before ".foo.com".
    it('does not match ".foo.com" or "foo.com" against "*.foo.com"', () => {
      expect(host('.foo.com')).toBe('star');
      expect(host('foo.com')).toBe('star');
    });

    // The suffix pass takes every domain starting with '*', "*" itself included (len 1, empty
    // suffix), so with a "*" domain present a prefix wildcard is never reached.
    it('tries prefix wildcards only after suffix wildcards, "*" counting as the shortest suffix wildcard', () => {
      expect(host('api.foo.com')).toBe('wild-foo');
      expect(host('api.example')).toBe('star');
      expect(host('other')).toBe('star');
      const noStar = (h: string) => http(hcmChain(), rc(vhs.slice(1)), { host: h }).virtualHost;
      expect(noStar('api.foo.com')).toBe('wild-foo');
      expect(noStar('api.example')).toBe('prefix');
      // `len(host) >= len(d)`: "api.*" needs at least one character after "api.".
      expect(noStar('api.x')).toBe('prefix');
      expect(http(hcmChain(), rc(vhs.slice(1)), { host: 'api.' }).error).toBe('ErrNoVirtualHost');
    });

    it('gives ErrNoVirtualHost without a "*" domain', () => {
      expect(http(hcmChain(), rc(vhs.slice(1)), { host: 'other' }).error).toBe('ErrNoVirtualHost');
    });

    // ignorePortInHostMatching: net.SplitHostPort, host kept as is when it has no port.
    it('drops the port from Host only with ignorePortInHostMatching', () => {
      // With the port the name ends in ":80": no suffix wildcard but "*" matches.
      expect(host('a.bar.foo.com:80')).toBe('star');
      expect(host('a.bar.foo.com:80', { ignorePortInHostMatching: true })).toBe('exact');
    });
  });

  it('gives ErrTLSRedirect for plaintext to a virtual host requiring TLS', () => {
    expect(http(hcmChain(), rc([vh('a', ['*'], undefined, { requireTls: 'ALL' })]), { host: 'x' }).error).toBe('ErrTLSRedirect');
  });

  // matchRoute: the first route whose path matches, in order; prefix, path (exact) and regex.
  it('takes the first matching route in order, else ErrNoRoute', () => {
    const routes = [
      { name: 'exact', match: { path: '/a' }, route: { cluster: 'c-exact' } },
      { name: 'prefix', match: { prefix: '/a' }, route: { cluster: 'c-prefix' } },
      { name: 'regex', match: { safeRegex: { regex: '^/b[0-9]+$' } }, route: { cluster: 'c-regex' } },
    ];
    const path = (p: string) => http(hcmChain(), rc([vh('v', ['*'], routes)]), { host: 'x', path: p });
    expect(path('/a')).toMatchObject({ route: 'exact', routeIndex: 0, cluster: 'c-exact' });
    expect(path('/ab')).toMatchObject({ route: 'prefix', routeIndex: 1 });
    expect(path('/b12')).toMatchObject({ route: 'regex', cluster: 'c-regex' });
    expect(path('/c').error).toBe('ErrNoRoute');
  });
});
