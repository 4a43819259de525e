// AuthorizationPolicy rule families → Envoy RBAC permissions and principals, value by value,
// as pilot/pkg/security/authz/model builds them.
import { describe, expect, it } from 'vitest';
import {
  Model,
  Refusal,
  type RbacAction,
  type RbacPolicy,
  type RuleInput,
  type SourceInput,
  type OperationInput,
} from '../../../src/core/xds/authz/rbacRule.ts';
import { newBundle, type TrustDomainBundle } from '../../../src/core/xds/authz/trustDomain.ts';

const EMPTY_SOURCE: SourceInput = {
  principals: [],
  notPrincipals: [],
  requestPrincipals: [],
  notRequestPrincipals: [],
  namespaces: [],
  notNamespaces: [],
  ipBlocks: [],
  notIpBlocks: [],
  remoteIpBlocks: [],
  notRemoteIpBlocks: [],
  serviceAccounts: [],
  notServiceAccounts: [],
  trustDomains: [],
  notTrustDomains: [],
};
const EMPTY_OP: OperationInput = { hosts: [], notHosts: [], ports: [], notPorts: [], methods: [], notMethods: [], paths: [], notPaths: [] };

type When = { key: string; values?: string[]; notValues?: string[] };

function rule(r: { from?: Partial<SourceInput>[]; to?: Partial<OperationInput>[]; when?: When[] }): RuleInput {
  return {
    from: (r.from ?? []).map((s) => ({ source: { ...EMPTY_SOURCE, ...s } })),
    to: (r.to ?? []).map((o) => ({ operation: { ...EMPTY_OP, ...o } })),
    when: (r.when ?? []).map((w) => ({ key: w.key, values: w.values ?? [], notValues: w.notValues ?? [] })),
  };
}

interface GenOpts {
  action?: RbacAction;
  tcp?: boolean;
  bundle?: TrustDomainBundle;
  filterState?: boolean;
  ns?: string;
}

function gen(r: RuleInput, o: GenOpts = {}): RbacPolicy | Refusal {
  const m = Model.build(o.ns ?? 'foo', r);
  if (m instanceof Refusal) return m;
  m.migrateTrustDomain(o.bundle ?? { trustDomains: [] });
  return m.generate(o.tcp ?? false, !o.filterState, o.action ?? 'ALLOW');
}

function policy(r: RuleInput, o: GenOpts = {}): RbacPolicy {
  const p = gen(r, o);
  if (p instanceof Refusal) throw new Error(`refused: ${p.message}`);
  return p;
}

/** The AND-ed entries of the first permission. */
function perm(r: RuleInput, o: GenOpts = {}): unknown[] {
  return (policy(r, o).permissions[0] as { andRules: { rules: unknown[] } }).andRules.rules;
}

/** The AND-ed entries of the first principal. */
function prin(r: RuleInput, o: GenOpts = {}): unknown[] {
  return (policy(r, o).principals[0] as { andIds: { ids: unknown[] } }).andIds.ids;
}

const authn = (m: object) => ({ authenticated: { principalName: m } });
const jwt = (claim: string, m: object) => ({
  metadata: { filter: 'envoy.filters.http.jwt_authn', path: [{ key: 'payload' }, { key: claim }], value: { stringMatch: m } },
});

describe('empty rules', () => {
  it('an empty rule matches everything', () => {
    expect(policy(rule({}))).toEqual({ permissions: [{ andRules: { rules: [{ any: true }] } }], principals: [{ andIds: { ids: [{ any: true }] } }] });
  });

  it('one permission per `to` and one principal per `from`', () => {
    const p = policy(rule({ from: [{ namespaces: ['a'] }, { namespaces: ['b'] }], to: [{ ports: ['1'] }, { ports: ['2'] }, {}] }));
    expect(p.permissions).toHaveLength(3);
    expect(p.principals).toHaveLength(2);
    expect(p.permissions[2]).toEqual({ andRules: { rules: [{ any: true }] } });
  });
});

describe('operation fields', () => {
  it('hosts: exact, suffix, prefix, presence — ignoring case', () => {
    expect(perm(rule({ to: [{ hosts: ['a.com', '*.b.com', 'c.*', '*'] }] }))).toEqual([
      {
        orRules: {
          rules: [
            { header: { name: ':authority', stringMatch: { exact: 'a.com', ignoreCase: true } } },
            { header: { name: ':authority', stringMatch: { suffix: '.b.com', ignoreCase: true } } },
            { header: { name: ':authority', stringMatch: { prefix: 'c.', ignoreCase: true } } },
            { header: { name: ':authority', presentMatch: true } },
          ],
        },
      },
    ]);
  });

  it('methods: case-sensitive header matchers on :method', () => {
    expect(perm(rule({ to: [{ methods: ['GET', 'P*', '*T', '*'] }] }))).toEqual([
      {
        orRules: {
          rules: [
            { header: { name: ':method', stringMatch: { exact: 'GET' } } },
            { header: { name: ':method', stringMatch: { prefix: 'P' } } },
            { header: { name: ':method', stringMatch: { suffix: 'T' } } },
            { header: { name: ':method', presentMatch: true } },
          ],
        },
      },
    ]);
  });

  it('paths: exact, prefix, suffix, any, and path templates', () => {
    expect(perm(rule({ to: [{ paths: ['/x', '/p/*', '*/s', '*', '/a/{*}/b', '/{**}/c', '/d/{*}/{**}'] }] }))).toEqual([
      {
        orRules: {
          rules: [
            { urlPath: { path: { exact: '/x' } } },
            { urlPath: { path: { prefix: '/p/' } } },
            { urlPath: { path: { suffix: '/s' } } },
            { urlPath: { path: { safeRegex: { regex: '.+' } } } },
            {
              uriTemplate: {
                name: 'uri-template',
                typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.path.match.uri_template.v3.UriTemplateMatchConfig', pathTemplate: '/a/*/b' },
              },
            },
            {
              uriTemplate: {
                name: 'uri-template',
                typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.path.match.uri_template.v3.UriTemplateMatchConfig', pathTemplate: '/**/c' },
              },
            },
            {
              uriTemplate: {
                name: 'uri-template',
                typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.path.match.uri_template.v3.UriTemplateMatchConfig', pathTemplate: '/d/*/**' },
              },
            },
          ],
        },
      },
    ]);
  });

  it('ports: destination_port numbers', () => {
    expect(perm(rule({ to: [{ ports: ['80', '8080'], notPorts: ['9000'] }] }))).toEqual([
      { orRules: { rules: [{ destinationPort: 80 }, { destinationPort: 8080 }] } },
      { notRule: { orRules: { rules: [{ destinationPort: 9000 }] } } },
    ]);
  });

  it('order inside a permission: hosts, methods, paths, ports, then `when` keys', () => {
    const rules = perm(rule({ to: [{ ports: ['1'], paths: ['/p'], methods: ['GET'], hosts: ['h'] }], when: [{ key: 'destination.port', values: ['2'] }] }));
    expect(JSON.stringify(rules[0])).toContain(':authority');
    expect(JSON.stringify(rules[1])).toContain(':method');
    expect(JSON.stringify(rules[2])).toContain('urlPath');
    expect(rules[3]).toEqual({ orRules: { rules: [{ destinationPort: 1 }] } });
    expect(rules[4]).toEqual({ orRules: { rules: [{ destinationPort: 2 }] } });
  });

  it('an invalid port drops the whole ALLOW rule, but only the value for DENY', () => {
    const r = rule({ to: [{ ports: ['http', '80'] }] });
    const refused = gen(r, { action: 'ALLOW' });
    expect(refused).toBeInstanceOf(Refusal);
    expect((refused as Refusal).message).toBe('invalid port http: strconv.ParseUint: parsing "http": invalid syntax');
    expect(perm(r, { action: 'DENY' })).toEqual([{ orRules: { rules: [{ destinationPort: 80 }] } }]);
    expect(perm(rule({ to: [{ ports: ['70000'] }] }), { action: 'DENY' })).toEqual([{ any: true }]);
  });
});

describe('source fields', () => {
  it('principals: exact, prefix, suffix and any, with the spiffe:// prefix', () => {
    expect(prin(rule({ from: [{ principals: ['td/ns/a/sa/b', 'pre*', '*suf.x', '*'] }] }))).toEqual([
      {
        orIds: {
          ids: [
            authn({ exact: 'spiffe://td/ns/a/sa/b' }),
            authn({ prefix: 'spiffe://pre' }),
            authn({ safeRegex: { regex: 'spiffe://.*suf\\.x' } }),
            authn({ safeRegex: { regex: '.+' } }),
          ],
        },
      },
    ]);
  });

  it('namespaces: a regex over the /ns/ segment, `*` as .*', () => {
    expect(prin(rule({ from: [{ namespaces: ['prod', 'team-*', '*.x', '*'] }] }))).toEqual([
      {
        orIds: {
          ids: [
            authn({ safeRegex: { regex: '.*/ns/prod/.*' } }),
            authn({ safeRegex: { regex: '.*/ns/team-.*/.*' } }),
            authn({ safeRegex: { regex: '.*/ns/.*\\.x/.*' } }),
            authn({ safeRegex: { regex: '.*/ns/.*/.*' } }),
          ],
        },
      },
    ]);
  });

  it("serviceAccounts: `ns/sa`, or `sa` in the policy's namespace", () => {
    expect(prin(rule({ from: [{ serviceAccounts: ['other/sa.1', 'mine'] }] }), { ns: 'pol-ns' })).toEqual([
      {
        orIds: {
          ids: [
            authn({ safeRegex: { regex: 'spiffe://.+/ns/other/(.+/|)sa/sa\\.1(/.+)?' } }),
            authn({ safeRegex: { regex: 'spiffe://.+/ns/pol-ns/(.+/|)sa/mine(/.+)?' } }),
          ],
        },
      },
    ]);
  });

  it('trustDomains: exact prefix, any, and one wildcard as a regex', () => {
    expect(prin(rule({ from: [{ trustDomains: ['td.local', '*', 'a*b.c', 'x*y*z'] }] }))).toEqual([
      {
        orIds: {
          ids: [
            authn({ prefix: 'spiffe://td.local/' }),
            authn({ prefix: 'spiffe://' }),
            authn({ safeRegex: { regex: 'spiffe://a[^/]*b\\.c/.*' } }),
            authn({ safeRegex: { regex: 'spiffe://x[^/]*y\\*z/.*' } }),
          ],
        },
      },
    ]);
  });

  it('ipBlocks → direct_remote_ip, remoteIpBlocks → remote_ip (CIDRs kept as written)', () => {
    expect(prin(rule({ from: [{ ipBlocks: ['1.2.3.4', '10.0.0.1/8'], remoteIpBlocks: ['2001:DB8::1', '::ffff:1.2.3.4/120'] }] }))).toEqual([
      { orIds: { ids: [{ remoteIp: { addressPrefix: '2001:db8::1', prefixLen: 128 } }, { remoteIp: { addressPrefix: '::ffff:1.2.3.4', prefixLen: 120 } }] } },
      { orIds: { ids: [{ directRemoteIp: { addressPrefix: '1.2.3.4', prefixLen: 32 } }, { directRemoteIp: { addressPrefix: '10.0.0.1', prefixLen: 8 } }] } },
    ]);
  });

  it('an invalid IP drops an ALLOW rule and only the value otherwise', () => {
    expect(gen(rule({ from: [{ ipBlocks: ['1.2.3'] }] }))).toBeInstanceOf(Refusal);
    expect(prin(rule({ from: [{ ipBlocks: ['1.2.3', '5.6.7.8'] }] }), { action: 'DENY' })).toEqual([
      { orIds: { ids: [{ directRemoteIp: { addressPrefix: '5.6.7.8', prefixLen: 32 } }] } },
    ]);
  });

  it('requestPrincipals: iss/sub split at the last slash, each value one AND of two metadata matchers', () => {
    const cases: [string, object, object][] = [
      ['*', { safeRegex: { regex: '.+' } }, { safeRegex: { regex: '.+' } }],
      ['foo*', { prefix: 'foo' }, { safeRegex: { regex: '.+' } }],
      ['foo/*', { exact: 'foo' }, { safeRegex: { regex: '.+' } }],
      ['foo/bar*', { exact: 'foo' }, { prefix: 'bar' }],
      ['*foo', { safeRegex: { regex: '.+' } }, { suffix: 'foo' }],
      ['*/foo', { safeRegex: { regex: '.+' } }, { exact: 'foo' }],
      ['*foo/bar', { suffix: 'foo' }, { exact: 'bar' }],
      ['https://example.com/path/sub', { exact: 'https://example.com/path' }, { exact: 'sub' }],
      ['no-slash', { exact: 'no-slash' }, { exact: '' }],
    ];
    for (const [value, iss, sub] of cases) {
      expect(prin(rule({ from: [{ requestPrincipals: [value] }] })), value).toEqual([{ andIds: { ids: [jwt('iss', iss), jwt('sub', sub)] } }]);
    }
  });

  it('several requestPrincipals are OR-ed; notRequestPrincipals negate the aggregate', () => {
    expect(prin(rule({ from: [{ requestPrincipals: ['a/b', 'c/d'], notRequestPrincipals: ['e/f'] }] }))).toEqual([
      {
        orIds: {
          ids: [
            { andIds: { ids: [jwt('iss', { exact: 'a' }), jwt('sub', { exact: 'b' })] } },
            { andIds: { ids: [jwt('iss', { exact: 'c' }), jwt('sub', { exact: 'd' })] } },
          ],
        },
      },
      { notId: { andIds: { ids: [jwt('iss', { exact: 'e' }), jwt('sub', { exact: 'f' })] } } },
    ]);
  });

  it('order inside a principal: principals, requestPrincipals, serviceAccounts, trustDomains, namespaces, remoteIpBlocks, ipBlocks', () => {
    const ids = prin(
      rule({
        from: [
          {
            ipBlocks: ['1.1.1.1'],
            remoteIpBlocks: ['2.2.2.2'],
            namespaces: ['n'],
            trustDomains: ['t'],
            serviceAccounts: ['s'],
            requestPrincipals: ['i/s'],
            principals: ['p'],
          },
        ],
      }),
    );
    const kinds = ids.map((x) => JSON.stringify(x));
    expect(kinds[0]).toContain('spiffe://p');
    expect(kinds[1]).toContain('jwt_authn');
    expect(kinds[2]).toContain('sa/s(');
    expect(kinds[3]).toContain('spiffe://t/');
    expect(kinds[4]).toContain('/ns/n/');
    expect(kinds[5]).toContain('remoteIp');
    expect(kinds[6]).toContain('directRemoteIp');
  });

  it('notX fields: NOT of an OR', () => {
    expect(prin(rule({ from: [{ notPrincipals: ['a', 'b'], notNamespaces: ['n'] }] }))).toEqual([
      { notId: { orIds: { ids: [authn({ exact: 'spiffe://a' }), authn({ exact: 'spiffe://b' })] } } },
      { notId: { orIds: { ids: [authn({ safeRegex: { regex: '.*/ns/n/.*' } })] } } },
    ]);
  });

  it('waypoints match the peer principal in filter state', () => {
    expect(prin(rule({ from: [{ principals: ['a'], namespaces: ['n'] }] }), { filterState: true })).toEqual([
      { orIds: { ids: [{ filterState: { key: 'io.istio.peer_principal', stringMatch: { exact: 'spiffe://a' } } }] } },
      { orIds: { ids: [{ filterState: { key: 'io.istio.peer_principal', stringMatch: { safeRegex: { regex: '.*/ns/n/.*' } } } }] } },
    ]);
  });
});

describe('when conditions', () => {
  it('request.headers[…] → header matcher (principal)', () => {
    expect(prin(rule({ when: [{ key: 'request.headers[X-Id]', values: ['a', 'b*', '*'], notValues: ['c'] }] }))).toEqual([
      {
        orIds: {
          ids: [
            { header: { name: 'X-Id', stringMatch: { exact: 'a' } } },
            { header: { name: 'X-Id', stringMatch: { prefix: 'b' } } },
            { header: { name: 'X-Id', presentMatch: true } },
          ],
        },
      },
      { notId: { orIds: { ids: [{ header: { name: 'X-Id', stringMatch: { exact: 'c' } } }] } } },
    ]);
  });

  it('a malformed request.headers key drops an ALLOW rule', () => {
    const r = gen(rule({ when: [{ key: 'request.headersX', values: ['a'] }] }));
    expect(r).toBeInstanceOf(Refusal);
    expect((r as Refusal).message).toBe('expecting format [<NAME>], but found X');
  });

  it('source.ip, remote.ip, source.namespace, source.principal, source.serviceAccount, source.trustDomain', () => {
    const ids = prin(
      rule({
        when: [
          { key: 'source.ip', values: ['10.0.0.0/16'] },
          { key: 'remote.ip', values: ['10.1.1.1'] },
          { key: 'source.namespace', values: ['ns'] },
          { key: 'source.principal', values: ['p'] },
          { key: 'source.serviceAccount', values: ['ns2/sa'] },
          { key: 'source.trustDomain', values: ['td'] },
        ],
      }),
    );
    expect(ids).toEqual([
      { orIds: { ids: [{ directRemoteIp: { addressPrefix: '10.0.0.0', prefixLen: 16 } }] } },
      { orIds: { ids: [{ remoteIp: { addressPrefix: '10.1.1.1', prefixLen: 32 } }] } },
      { orIds: { ids: [authn({ safeRegex: { regex: '.*/ns/ns/.*' } })] } },
      { orIds: { ids: [authn({ exact: 'spiffe://p' })] } },
      { orIds: { ids: [authn({ safeRegex: { regex: 'spiffe://.+/ns/ns2/(.+/|)sa/sa(/.+)?' } })] } },
      { orIds: { ids: [authn({ prefix: 'spiffe://td/' })] } },
    ]);
  });

  it('request.auth.principal / audiences / presenter / claims → one aggregated metadata matcher each', () => {
    const list = (claims: string[], value: object) => ({
      metadata: {
        filter: 'envoy.filters.http.jwt_authn',
        path: [{ key: 'payload' }, ...claims.map((key) => ({ key }))],
        value: { orMatch: { valueMatchers: [{ listMatch: { oneOf: value } }, value] } },
      },
    });
    const ids = prin(
      rule({
        when: [
          { key: 'request.auth.audiences', values: ['a1', 'a2'], notValues: ['a3'] },
          { key: 'request.auth.presenter', values: ['p*'] },
          { key: 'request.auth.claims[groups]', values: ['g'] },
          { key: 'request.auth.claims[n1][n2]', values: ['*'] },
        ],
      }),
    );
    expect(ids).toEqual([
      list(['aud'], { orMatch: { valueMatchers: [{ stringMatch: { exact: 'a1' } }, { stringMatch: { exact: 'a2' } }] } }),
      { notId: list(['aud'], { stringMatch: { exact: 'a3' } }) },
      list(['azp'], { stringMatch: { prefix: 'p' } }),
      list(['groups'], { stringMatch: { exact: 'g' } }),
      list(['n1', 'n2'], { stringMatch: { safeRegex: { regex: '.+' } } }),
    ]);
  });

  it('claims keys that are not nested brackets are read as one name', () => {
    const ids = prin(rule({ when: [{ key: 'request.auth.claims[a[b]', values: ['x'] }] }));
    expect(JSON.stringify(ids)).toContain('{"key":"a[b"}');
  });

  it('destination.ip, destination.port, connection.sni → permissions', () => {
    expect(
      perm(
        rule({
          when: [
            { key: 'destination.ip', values: ['10.0.0.1'], notValues: ['fe80::1%eth0'] },
            { key: 'destination.port', values: ['8080'] },
            { key: 'connection.sni', values: ['*.example.com'] },
          ],
        }),
      ),
    ).toEqual([
      { orRules: { rules: [{ destinationIp: { addressPrefix: '10.0.0.1', prefixLen: 32 } }] } },
      { notRule: { orRules: { rules: [{ destinationIp: { addressPrefix: 'fe80::1', prefixLen: 128 } }] } } },
      { orRules: { rules: [{ destinationPort: 8080 }] } },
      { orRules: { rules: [{ requestedServerName: { suffix: '.example.com' } }] } },
    ]);
  });

  it('experimental.envoy.filters.*: metadata matchers, `[v]` values as list matchers', () => {
    expect(perm(rule({ when: [{ key: 'experimental.envoy.filters.a.b[c]', values: ['v', '[w]'], notValues: ['x'] }] }))).toEqual([
      {
        metadata: {
          filter: 'envoy.filters.a.b',
          path: [{ key: 'c' }],
          value: { orMatch: { valueMatchers: [{ stringMatch: { exact: 'v' } }, { listMatch: { oneOf: { stringMatch: { exact: 'w' } } } }] } },
        },
      },
      { notRule: { metadata: { filter: 'envoy.filters.a.b', path: [{ key: 'c' }], value: { stringMatch: { exact: 'x' } } } } },
    ]);
    expect(gen(rule({ when: [{ key: 'experimental.envoy.filters.a.b', values: ['v'] }] }))).toBeInstanceOf(Refusal);
  });

  it('an unknown key makes the rule invalid for every action', () => {
    for (const action of ['ALLOW', 'DENY', 'LOG'] as const) {
      const r = gen(rule({ when: [{ key: 'request.method', values: ['GET'] }] }), { action });
      expect(r).toBeInstanceOf(Refusal);
      expect((r as Refusal).message).toBe('unknown attribute request.method');
    }
  });

  it('`when` principal keys come after the source fields of every `from`', () => {
    const p = policy(rule({ from: [{ namespaces: ['a'] }, { principals: ['b'] }], when: [{ key: 'source.ip', values: ['1.1.1.1'] }] }));
    for (const pr of p.principals) {
      const ids = (pr as { andIds: { ids: unknown[] } }).andIds.ids;
      expect(ids[ids.length - 1]).toEqual({ orIds: { ids: [{ directRemoteIp: { addressPrefix: '1.1.1.1', prefixLen: 32 } }] } });
    }
  });
});

describe('TCP filter chains', () => {
  const httpOnly = rule({
    from: [{ namespaces: ['n'], requestPrincipals: ['i/s'] }],
    to: [{ ports: ['80'], methods: ['GET'], hosts: ['h'], paths: ['/p'] }],
    when: [{ key: 'request.headers[x]', values: ['v'] }],
  });

  it('an ALLOW rule with an HTTP-only field is dropped', () => {
    const r = gen(httpOnly, { tcp: true });
    expect(r).toBeInstanceOf(Refusal);
    // Permissions are generated first: the first HTTP-only field met is the host.
    expect((r as Refusal).message).toBe('":authority" is HTTP only');
    expect((gen(rule({ from: [{ requestPrincipals: ['i/s'] }] }), { tcp: true }) as Refusal).message).toBe('"request.auth.principal" is HTTP only');
    expect((gen(rule({ to: [{ paths: ['/p'] }] }), { tcp: true }) as Refusal).message).toBe('"path-matcher" is HTTP only');
    expect((gen(rule({ to: [{ hosts: ['h'] }] }), { tcp: true }) as Refusal).message).toBe('":authority" is HTTP only');
    expect((gen(rule({ to: [{ methods: ['GET'] }] }), { tcp: true }) as Refusal).message).toBe('":method" is HTTP only');
  });

  it('for DENY and AUDIT only the HTTP-only fields are dropped (a wider rule)', () => {
    for (const action of ['DENY', 'LOG'] as const) {
      const p = policy(httpOnly, { tcp: true, action });
      expect(p.permissions).toEqual([{ andRules: { rules: [{ orRules: { rules: [{ destinationPort: 80 }] } }] } }]);
      expect(p.principals).toEqual([{ andIds: { ids: [{ orIds: { ids: [authn({ safeRegex: { regex: '.*/ns/n/.*' } })] } }] } }]);
      // Nothing left: the rule matches everything.
      expect(policy(rule({ to: [{ methods: ['GET'] }] }), { tcp: true, action })).toEqual({
        permissions: [{ andRules: { rules: [{ any: true }] } }],
        principals: [{ andIds: { ids: [{ any: true }] } }],
      });
    }
  });

  it('request.auth.* when keys are HTTP only too', () => {
    for (const key of ['request.auth.audiences', 'request.auth.presenter', 'request.auth.claims[x]', 'request.auth.principal']) {
      expect(gen(rule({ when: [{ key, values: ['v'] }] }), { tcp: true })).toBeInstanceOf(Refusal);
    }
  });
});

describe('trust domain aliases', () => {
  it('principals of a bundle member or cluster.local get one entry per bundle member', () => {
    const ids = prin(rule({ from: [{ principals: ['cluster.local/ns/a/sa/b', 'other/ns/a/sa/b', 'td1/ns/x/sa/y'] }] }), { bundle: newBundle('td1', ['td2']) });
    expect(ids).toEqual([
      {
        orIds: {
          ids: [
            authn({ exact: 'spiffe://td1/ns/a/sa/b' }),
            authn({ exact: 'spiffe://td2/ns/a/sa/b' }),
            authn({ exact: 'spiffe://other/ns/a/sa/b' }),
            authn({ exact: 'spiffe://td1/ns/x/sa/y' }),
            authn({ exact: 'spiffe://td2/ns/x/sa/y' }),
          ],
        },
      },
    ]);
  });

  it('with an empty bundle (Istio unit tests) cluster.local principals vanish', () => {
    expect(prin(rule({ from: [{ principals: ['cluster.local/ns/a/sa/b'] }] }))).toEqual([{ any: true }]);
  });

  it('trustDomains values that are bundle members expand to the whole bundle', () => {
    expect(prin(rule({ from: [{ trustDomains: ['td2', 'x'] }] }), { bundle: newBundle('td1', ['td2']) })).toEqual([
      { orIds: { ids: [authn({ prefix: 'spiffe://td1/' }), authn({ prefix: 'spiffe://td2/' }), authn({ prefix: 'spiffe://x/' })] } },
    ]);
  });

  it('a `when source.principal` shared by two `from` entries is rewritten once per entry (as in Istio)', () => {
    const p = policy(rule({ from: [{ namespaces: ['a'] }, { namespaces: ['b'] }], when: [{ key: 'source.principal', values: ['cluster.local/ns/a/sa/b'] }] }), {
      bundle: newBundle('td1', ['cluster.local']),
    });
    const last = (pr: unknown) => {
      const ids = (pr as { andIds: { ids: unknown[] } }).andIds.ids;
      return (ids[ids.length - 1] as { orIds: { ids: unknown[] } }).orIds.ids.length;
    };
    expect(last(p.principals[0])).toBe(4);
    expect(last(p.principals[1])).toBe(4);
  });
});
