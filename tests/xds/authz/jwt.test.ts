// RequestAuthentication → envoy.filters.http.jwt_authn (pilot/pkg/security/authn).
import { describe, expect, it } from 'vitest';
import {
  AuthzLogger,
  PUBLIC_ONLY_JWKS,
  buildJwtFilter,
  jwksFetchModeOf,
  listRequestAuthentications,
  policyMatcherForProxy,
  type JwtFilterOptions,
  type RequestAuthenticationInput,
  type ServiceLookup,
} from '../../../src/core/xds/authz/index.ts';

const SERVICES: ServiceLookup = (h) => (h === 'jwks.auth.svc.cluster.local' ? [{ hostname: h, namespace: 'auth' }] : []);

function ra(name: string, jwtRules: object[], extra: object = {}, namespace = 'shop'): RequestAuthenticationInput {
  return { name, namespace, spec: { jwtRules, ...extra } };
}

const opts = (o: Partial<JwtFilterOptions> = {}): JwtFilterOptions => ({ services: SERVICES, clearRouteCache: false, ...o });

describe('jwt_authn filter', () => {
  it('no rules, no filter', () => {
    expect(buildJwtFilter([], opts())).toBeUndefined();
    expect(buildJwtFilter([ra('a', [])], opts())).toBeUndefined();
  });

  it('one rule: requires the provider or no token', () => {
    const f = buildJwtFilter(
      [
        ra('a', [
          {
            issuer: 'iss-1',
            jwks: '{"keys":[]}',
            audiences: ['aud'],
            fromHeaders: [{ name: 'x-jwt', prefix: 'Bearer ' }, { name: 'x-raw' }],
            fromParams: ['tok'],
            outputPayloadToHeader: 'x-payload',
            forwardOriginalToken: true,
            outputClaimToHeaders: [{ header: 'x-sub', claim: 'sub' }],
          },
        ]),
      ],
      opts(),
    );
    expect(f).toEqual({
      name: 'envoy.filters.http.jwt_authn',
      typedConfig: {
        '@type': 'type.googleapis.com/envoy.extensions.filters.http.jwt_authn.v3.JwtAuthentication',
        providers: {
          'origins-0': {
            issuer: 'iss-1',
            audiences: ['aud'],
            forward: true,
            forwardPayloadHeader: 'x-payload',
            payloadInMetadata: 'payload',
            normalizePayloadInMetadata: { spaceDelimitedClaims: ['permission', 'scope'] },
            claimToHeaders: [{ headerName: 'x-sub', claimName: 'sub' }],
            fromHeaders: [{ name: 'x-jwt', valuePrefix: 'Bearer ' }, { name: 'x-raw' }],
            fromParams: ['tok'],
            localJwks: { inlineString: '{"keys":[]}' },
          },
        },
        rules: [{ match: { prefix: '/' }, requires: { requiresAny: { requirements: [{ providerName: 'origins-0' }, { allowMissing: {} }] } } }],
        bypassCorsPreflight: true,
      },
    });
  });

  it('several rules, sorted by issuer: any single provider, or all of (provider or missing)', () => {
    const f = buildJwtFilter([ra('a', [{ issuer: 'z', jwks: 'k' }]), ra('b', [{ issuer: 'a', jwks: 'k' }])], opts());
    const cfg = f?.typedConfig as unknown as { providers: Record<string, { issuer: string }>; rules: { requires: unknown }[] };
    expect(cfg.providers['origins-0']?.issuer).toBe('a');
    expect(cfg.providers['origins-1']?.issuer).toBe('z');
    const either = (n: string) => ({ requiresAny: { requirements: [{ providerName: n }, { allowMissing: {} }] } });
    expect(cfg.rules[0]?.requires).toEqual({
      requiresAny: {
        requirements: [
          { providerName: 'origins-0' },
          { providerName: 'origins-1' },
          { requiresAll: { requirements: [either('origins-0'), either('origins-1')] } },
        ],
      },
    });
  });

  it('space-delimited claims are merged with the defaults and sorted; gateways clear the route cache', () => {
    const f = buildJwtFilter([ra('a', [{ issuer: 'i', jwks: 'k', spaceDelimitedClaims: ['roles', 'scope'] }])], opts({ clearRouteCache: true }));
    const p = (f?.typedConfig.providers as Record<string, Record<string, unknown>>)['origins-0'];
    expect(p?.normalizePayloadInMetadata).toEqual({ spaceDelimitedClaims: ['permission', 'roles', 'scope'] });
    expect(p?.clearRouteCache).toBe(true);
  });

  it('keys named by jwksUri are fetched by istiod: offline they are the fail-closed JWKS, with a warning', () => {
    const log = new AuthzLogger();
    const f = buildJwtFilter([ra('a', [{ issuer: 'i', jwksUri: 'https://idp.example.com/jwks' }])], opts({ log }));
    const p = (f?.typedConfig.providers as Record<string, Record<string, unknown>>)['origins-0'];
    expect(p?.localJwks).toEqual({ inlineString: PUBLIC_ONLY_JWKS });
    expect(log.entries[0]?.level).toBe('warn');
    const resolved = buildJwtFilter([ra('a', [{ issuer: 'i', jwksUri: 'https://idp.example.com/jwks' }])], opts({ resolveJwks: () => '{"keys":[1]}' }));
    expect((resolved?.typedConfig.providers as Record<string, Record<string, unknown>>)['origins-0']?.localJwks).toEqual({ inlineString: '{"keys":[1]}' });
  });

  it('with remote JWKS, a mesh-served jwksUri is fetched by Envoy through its cluster', () => {
    const rule = { issuer: 'i', jwksUri: 'http://jwks.auth.svc.cluster.local:8080/keys', timeout: '2s' };
    const envoy = buildJwtFilter([ra('a', [rule])], opts({ jwksFetchMode: 'envoy' }));
    expect((envoy?.typedConfig.providers as Record<string, Record<string, unknown>>)['origins-0']?.remoteJwks).toEqual({
      httpUri: { uri: 'http://jwks.auth.svc.cluster.local:8080/keys', cluster: 'outbound|8080||jwks.auth.svc.cluster.local', timeout: '2s' },
      cacheDuration: '300s',
    });
    // Not in the mesh: envoy mode still points at the would-be cluster; hybrid falls back to istiod.
    const ext = { issuer: 'i', jwksUri: 'https://idp.example.com/jwks' };
    expect(
      (buildJwtFilter([ra('a', [ext])], opts({ jwksFetchMode: 'envoy' }))?.typedConfig.providers as Record<string, Record<string, unknown>>)['origins-0']
        ?.remoteJwks,
    ).toEqual({
      httpUri: { uri: 'https://idp.example.com/jwks', cluster: 'outbound|443||idp.example.com', timeout: '5s' },
      cacheDuration: '300s',
    });
    expect(
      (buildJwtFilter([ra('a', [ext])], opts({ jwksFetchMode: 'hybrid' }))?.typedConfig.providers as Record<string, Record<string, unknown>>)['origins-0'],
    ).toHaveProperty('localJwks');
    expect(jwksFetchModeOf('true')).toBe('hybrid');
    expect(jwksFetchModeOf(undefined)).toBe('istiod');
  });

  it('selection: the workload namespace, then the root namespace; selectors and targetRefs as for authz', () => {
    const all = [
      ra('root', [{ issuer: 'r' }], {}, 'istio-system'),
      ra('mine', [{ issuer: 'm' }], { selector: { matchLabels: { app: 'cart' } } }),
      ra('not-mine', [{ issuer: 'n' }], { selector: { matchLabels: { app: 'web' } } }),
      ra('gw', [{ issuer: 'g' }], { targetRefs: [{ kind: 'Gateway', group: 'gateway.networking.k8s.io', name: 'x' }] }),
    ];
    const got = listRequestAuthentications(all, policyMatcherForProxy({ namespace: 'shop', labels: { app: 'cart' } }), 'istio-system');
    expect(got.map((p) => p.name)).toEqual(['mine', 'root']);
  });
});
