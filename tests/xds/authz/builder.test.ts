// The authz builder: filters per action and their order, dry-run, CUSTOM providers and
// ext_authz (pilot/pkg/security/authz/builder).
import { describe, expect, it } from 'vitest';
import {
  AuthzBuilder,
  AuthzLogger,
  listAuthorizationPolicies,
  newBundle,
  policyMatcherForProxy,
  processExtensionProviders,
  type AuthorizationPolicyInput,
  type EnvoyFilter,
  type ServiceLookup,
} from '../../../src/core/xds/authz/index.ts';

const PROXY = policyMatcherForProxy({ namespace: 'foo', labels: { app: 'a' } });
const SERVICES: ServiceLookup = (h) =>
  h === 'authz.foo.svc.cluster.local'
    ? [{ hostname: h, namespace: 'foo' }]
    : h === 'dup.example.com'
      ? [
          { hostname: h, namespace: 'a' },
          { hostname: h, namespace: 'b' },
        ]
      : [];

function pol(name: string, spec: object, annotations: Record<string, string> = {}, namespace = 'foo'): AuthorizationPolicyInput {
  return { name, namespace, annotations, spec };
}

function local(policies: AuthorizationPolicyInput[], log?: AuthzLogger, tcp = false): EnvoyFilter[] {
  const b = new AuthzBuilder('local', listAuthorizationPolicies(policies, PROXY, 'istio-system'), { trustDomainBundle: newBundle('cluster.local', []) });
  return tcp ? b.buildTCP(log) : b.buildHTTP(log);
}

function custom(policies: AuthorizationPolicyInput[], providers: unknown[], opts: { tcp?: boolean; multi?: boolean; log?: AuthzLogger } = {}): EnvoyFilter[] {
  const b = new AuthzBuilder('custom', listAuthorizationPolicies(policies, PROXY, 'istio-system'), {
    trustDomainBundle: newBundle('cluster.local', []),
    extensions: processExtensionProviders(providers, SERVICES),
    enableMultipleCustomAuthzProviders: opts.multi,
  });
  return opts.tcp ? b.buildTCP(opts.log) : b.buildHTTP(opts.log);
}

const ALLOW_ALL_RULE = { permissions: [{ andRules: { rules: [{ any: true }] } }], principals: [{ andIds: { ids: [{ any: true }] } }] };
const NEVER = { permissions: [{ notRule: { any: true } }], principals: [{ notId: { any: true } }] };
const RBAC = 'type.googleapis.com/envoy.extensions.filters.http.rbac.v3.RBAC';

describe('local actions', () => {
  it('no policy, no filter', () => {
    expect(local([])).toEqual([]);
    expect(local([pol('c', { action: 'CUSTOM', provider: { name: 'x' }, rules: [{}] })])).toEqual([]);
  });

  it('one RBAC filter per action, AUDIT then DENY then ALLOW', () => {
    const f = local([pol('allow', { rules: [{}] }), pol('deny', { action: 'DENY', rules: [{}] }), pol('audit', { action: 'AUDIT', rules: [{}] })]);
    expect(f.map((x) => x.name)).toEqual(['envoy.filters.http.rbac', 'envoy.filters.http.rbac', 'envoy.filters.http.rbac']);
    expect(f[0]?.typedConfig).toEqual({
      '@type': RBAC,
      rules: { action: 'LOG', policies: { 'ns[foo]-policy[audit]-rule[0]': ALLOW_ALL_RULE } },
      shadowRulesStatPrefix: 'istio_dry_run_allow_',
    });
    expect(f[1]?.typedConfig).toEqual({
      '@type': RBAC,
      rules: { action: 'DENY', policies: { 'ns[foo]-policy[deny]-rule[0]': ALLOW_ALL_RULE } },
      shadowRulesStatPrefix: 'istio_dry_run_allow_',
    });
    // ALLOW is the proto3 default: no `action` field.
    expect(f[2]?.typedConfig).toEqual({
      '@type': RBAC,
      rules: { policies: { 'ns[foo]-policy[allow]-rule[0]': ALLOW_ALL_RULE } },
      shadowRulesStatPrefix: 'istio_dry_run_allow_',
    });
  });

  it('TCP filters carry stat_prefix tcp.', () => {
    const [f] = local([pol('deny', { action: 'DENY', rules: [{}] })], undefined, true);
    expect(f).toEqual({
      name: 'envoy.filters.network.rbac',
      typedConfig: {
        '@type': 'type.googleapis.com/envoy.extensions.filters.network.rbac.v3.RBAC',
        rules: { action: 'DENY', policies: { 'ns[foo]-policy[deny]-rule[0]': ALLOW_ALL_RULE } },
        statPrefix: 'tcp.',
        shadowRulesStatPrefix: 'istio_dry_run_allow_',
      },
    });
  });

  it('a policy without rules never matches; a nil rule is skipped with an error', () => {
    const log = new AuthzLogger();
    const [f] = local([pol('none', {}), pol('nil', { rules: [null, {}] })], log);
    expect(f?.typedConfig.rules).toEqual({ policies: { 'ns[foo]-policy[none]-rule[0]': NEVER, 'ns[foo]-policy[nil]-rule[1]': ALLOW_ALL_RULE } });
    expect(log.entries).toContainEqual({ level: 'error', message: 'skipped nil rule ns[foo]-policy[nil]-rule[0]' });
  });

  it('an ALLOW rule dropped on TCP leaves an empty rule set (allows nothing)', () => {
    const log = new AuthzLogger();
    const [f] = local([pol('http', { rules: [{ to: [{ operation: { methods: ['GET'] } }] }] })], log, true);
    expect(f?.typedConfig.rules).toEqual({});
    expect(log.entries).toContainEqual({ level: 'debug', message: 'skipped rule ns[foo]-policy[http]-rule[0] on TCP filter chain: ":method" is HTTP only' });
  });

  it('an invalid rule is skipped with an error', () => {
    const log = new AuthzLogger();
    local([pol('bad', { rules: [{ when: [{ key: 'nope', values: ['x'] }] }] })], log);
    expect(log.entries).toContainEqual({ level: 'error', message: 'skipped invalid rule ns[foo]-policy[bad]-rule[0]: unknown attribute nope' });
  });
});

describe('dry-run', () => {
  const dry = { 'istio.io/dry-run': 'true' };

  it('dry-run policies go to shadow rules; rules are left out when all are dry-run', () => {
    const [f] = local([pol('d', { rules: [{}] }, dry)]);
    expect(f?.typedConfig).toEqual({
      '@type': RBAC,
      shadowRules: { policies: { 'ns[foo]-policy[d]-rule[0]': ALLOW_ALL_RULE } },
      shadowRulesStatPrefix: 'istio_dry_run_allow_',
    });
  });

  it('the shadow stat prefix follows the action: deny, allow, none for audit', () => {
    expect(local([pol('d', { action: 'DENY', rules: [{}] }, dry)])[0]?.typedConfig.shadowRulesStatPrefix).toBe('istio_dry_run_deny_');
    expect(local([pol('a', { action: 'AUDIT', rules: [{}] }, dry)])[0]?.typedConfig).not.toHaveProperty('shadowRulesStatPrefix');
    // Without dry-run policies the prefix is the ALLOW one, whatever the action.
    expect(local([pol('a', { action: 'AUDIT', rules: [{}] })])[0]?.typedConfig.shadowRulesStatPrefix).toBe('istio_dry_run_allow_');
  });

  it('the annotation is a Go bool; anything else is an error and not dry-run', () => {
    expect(local([pol('d', { rules: [{}] }, { 'istio.io/dry-run': 'T' })])[0]?.typedConfig).toHaveProperty('shadowRules');
    const log = new AuthzLogger();
    const [f] = local([pol('d', { rules: [{}] }, { 'istio.io/dry-run': 'yes' })], log);
    expect(f?.typedConfig).toHaveProperty('rules');
    expect(f?.typedConfig).not.toHaveProperty('shadowRules');
    expect(log.entries).toContainEqual({
      level: 'error',
      message: 'failed to parse the value of istio.io/dry-run: strconv.ParseBool: parsing "yes": invalid syntax',
    });
  });
});

describe('CUSTOM', () => {
  const grpc = { name: 'ext', envoyExtAuthzGrpc: { service: 'authz.foo.svc.cluster.local', port: 9000 } };
  const http = {
    name: 'web',
    envoyExtAuthzHttp: { service: 'foo/authz.foo.svc.cluster.local', port: 8000, pathPrefix: '/check', includeHeadersInCheck: ['x-a', 'x-b*'] },
  };
  const cpol = (name: string, provider: string, annotations: Record<string, string> = {}) =>
    pol(name, { action: 'CUSTOM', provider: { name: provider }, rules: [{ to: [{ operation: { paths: ['/admin'] } }] }] }, annotations);

  it('gRPC provider: shadow RBAC + ext_authz (HTTP and TCP)', () => {
    const f = custom([cpol('c', 'ext')], [grpc]);
    expect(f.map((x) => x.name)).toEqual(['envoy.filters.http.rbac', 'envoy.filters.http.ext_authz']);
    expect(f[0]?.typedConfig).toEqual({
      '@type': RBAC,
      shadowRules: { action: 'DENY', policies: { 'istio-ext-authz-ext-ns[foo]-policy[c]-rule[0]': expect.any(Object) } },
      shadowRulesStatPrefix: 'istio_ext_authz_',
    });
    expect(f[1]?.typedConfig).toEqual({
      '@type': 'type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthz',
      grpcService: { envoyGrpc: { clusterName: 'outbound|9000||authz.foo.svc.cluster.local', authority: 'authz.foo.svc.cluster.local' }, timeout: '600s' },
      filterEnabledMetadata: {
        filter: 'envoy.filters.http.rbac',
        path: [{ key: 'istio_ext_authz_shadow_effective_policy_id' }],
        value: { stringMatch: { prefix: 'istio-ext-authz-ext' } },
      },
      transportApiVersion: 'V3',
    });
    const t = custom([cpol('c', 'ext')], [grpc], { tcp: true });
    expect(t.map((x) => x.name)).toEqual(['envoy.filters.network.rbac', 'envoy.filters.network.ext_authz']);
    expect(t[0]?.typedConfig.statPrefix).toBe('tcp.');
    expect(t[1]?.typedConfig).toMatchObject({ statPrefix: 'tcp.', filterEnabledMetadata: { filter: 'envoy.filters.network.rbac' } });
  });

  it('HTTP provider: http_service, deprecated includeHeadersInCheck as allowed headers; nothing on TCP', () => {
    const f = custom([cpol('c', 'web')], [http]);
    expect(f[1]?.typedConfig).toEqual({
      '@type': 'type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthz',
      transportApiVersion: 'V3',
      httpService: {
        pathPrefix: '/check',
        serverUri: { uri: 'http://authz.foo.svc.cluster.local', cluster: 'outbound|8000||authz.foo.svc.cluster.local', timeout: '600s' },
      },
      filterEnabledMetadata: expect.any(Object),
      allowedHeaders: {
        patterns: [
          { exact: 'x-a', ignoreCase: true },
          { prefix: 'x-b', ignoreCase: true },
        ],
      },
    });
    const log = new AuthzLogger();
    expect(custom([cpol('c', 'web')], [http], { tcp: true, log })).toEqual([]);
    expect(log.entries).toContainEqual({ level: 'debug', message: 'ignored CUSTOM action with HTTP provider on TCP filter chain for provider web' });
  });

  it('dry-run CUSTOM policies go to the RBAC rules (still only recorded, never enforced)', () => {
    const f = custom([cpol('c', 'ext'), cpol('d', 'ext', { 'istio.io/dry-run': 'true' })], [grpc]);
    expect(Object.keys(f[0]?.typedConfig.rules as object)).toEqual(['action', 'policies']);
    expect(Object.keys((f[0]?.typedConfig.rules as { policies: object }).policies)).toEqual(['istio-ext-authz-ext-ns[foo]-policy[d]-rule[0]']);
    expect(Object.keys((f[0]?.typedConfig.shadowRules as { policies: object }).policies)).toEqual(['istio-ext-authz-ext-ns[foo]-policy[c]-rule[0]']);
  });

  it('an unknown provider denies what the policy would have sent to it', () => {
    const log = new AuthzLogger();
    const f = custom([cpol('c', 'missing')], [grpc], { log });
    expect(f).toEqual([
      {
        name: 'envoy.filters.http.rbac',
        typedConfig: {
          '@type': RBAC,
          rules: { action: 'DENY', policies: { 'istio-ext-authz-missing-ns[foo]-policy[c]-rule[0]-deny-due-to-bad-CUSTOM-action': expect.any(Object) } },
        },
      },
    ]);
    expect(log.entries.some((e) => e.level === 'error' && e.message.includes('available providers are [ext] but found "missing"'))).toBe(true);
  });

  it('a provider whose service is not in the registry, or is ambiguous, is invalid', () => {
    for (const service of ['nowhere.svc', 'dup.example.com']) {
      const f = custom([cpol('c', 'ext')], [{ name: 'ext', envoyExtAuthzGrpc: { service, port: 9000 } }]);
      expect(f).toHaveLength(1);
      expect(f[0]?.typedConfig.rules).toMatchObject({ action: 'DENY' });
    }
  });

  it('several providers need PILOT_ENABLE_MULTIPLE_CUSTOM_AUTHZ_PROVIDERS, else every one denies', () => {
    const policies = [cpol('b', 'web'), cpol('a', 'ext')];
    const denied = custom(policies, [grpc, http]);
    expect(denied.map((x) => Object.keys((x.typedConfig.rules as { policies: object }).policies))).toEqual([
      ['istio-ext-authz-ext-ns[foo]-policy[a]-rule[0]-deny-due-to-bad-CUSTOM-action'],
      ['istio-ext-authz-web-ns[foo]-policy[b]-rule[0]-deny-due-to-bad-CUSTOM-action'],
    ]);
    const both = custom(policies, [grpc, http], { multi: true });
    expect(both.map((x) => x.name)).toEqual([
      'envoy.filters.http.rbac',
      'envoy.filters.http.ext_authz',
      'envoy.filters.http.rbac',
      'envoy.filters.http.ext_authz',
    ]);
    expect((both[1]?.typedConfig.filterEnabledMetadata as { value: object }).value).toEqual({ stringMatch: { prefix: 'istio-ext-authz-ext' } });
    expect((both[3]?.typedConfig.filterEnabledMetadata as { value: object }).value).toEqual({ stringMatch: { prefix: 'istio-ext-authz-web' } });
  });
});

describe('extension providers', () => {
  const run = (p: object) => processExtensionProviders([p], SERVICES);

  it('statusOnError: the enum name, Empty for 0, an error for unknown codes', () => {
    expect(
      run({ name: 'e', envoyExtAuthzGrpc: { service: 'authz.foo.svc.cluster.local', port: 1, statusOnError: '503' } }).get('e')?.http?.statusOnError,
    ).toEqual({ code: 'ServiceUnavailable' });
    expect(
      run({ name: 'e', envoyExtAuthzGrpc: { service: 'authz.foo.svc.cluster.local', port: 1, statusOnError: '0' } }).get('e')?.http?.statusOnError,
    ).toEqual({});
    expect(
      run({ name: 'e', envoyExtAuthzGrpc: { service: 'authz.foo.svc.cluster.local', port: 1, statusOnError: '499' } }).get('e')?.errors.length,
    ).toBeGreaterThan(0);
  });

  it('timeouts are printed as protobuf durations', () => {
    const e = run({ name: 'e', envoyExtAuthzGrpc: { service: 'authz.foo.svc.cluster.local', port: 1, timeout: '1.5s' } }).get('e');
    expect((e?.http?.grpcService as { timeout: string }).timeout).toBe('1.500s');
    // istiod reads mesh config durations with time.ParseDuration: `1m` is a minute.
    const m = run({ name: 'e', envoyExtAuthzGrpc: { service: 'authz.foo.svc.cluster.local', port: 1, timeout: '1m' } }).get('e');
    expect((m?.http?.grpcService as { timeout: string }).timeout).toBe('60s');
  });

  it('HTTP provider: sorted additional headers, response header lists, body settings', () => {
    const e = run({
      name: 'e',
      envoyExtAuthzHttp: {
        service: 'authz.foo.svc.cluster.local',
        port: 80,
        includeAdditionalHeadersInCheck: { 'x-b': '2', 'x-a': '1' },
        headersToDownstreamOnDeny: ['*-deny'],
        includeRequestBodyInCheck: { maxRequestBytes: 10 },
      },
    }).get('e');
    expect(e?.http?.httpService).toEqual({
      serverUri: { uri: 'http://authz.foo.svc.cluster.local', cluster: 'outbound|80||authz.foo.svc.cluster.local', timeout: '600s' },
      authorizationRequest: {
        headersToAdd: [
          { key: 'x-a', value: '1' },
          { key: 'x-b', value: '2' },
        ],
      },
      authorizationResponse: { allowedClientHeaders: { patterns: [{ suffix: '-deny', ignoreCase: true }] } },
    });
    expect(e?.http?.withRequestBody).toEqual({ maxRequestBytes: 10 });
    expect(e?.tcp).toBeUndefined();
  });

  it('invalid providers: bad names, a single wildcard header, a relative path prefix, duplicates', () => {
    const svc = 'authz.foo.svc.cluster.local';
    const m = processExtensionProviders(
      [
        { name: 'Upper', envoyExtAuthzGrpc: { service: svc, port: 1 } },
        { name: 'wild', envoyExtAuthzHttp: { service: svc, port: 1, includeRequestHeadersInCheck: ['*'] } },
        { name: 'rel', envoyExtAuthzHttp: { service: svc, port: 1, pathPrefix: 'check' } },
        { name: 'ok', envoyExtAuthzGrpc: { service: svc, port: 1 } },
        { name: 'ok', envoyExtAuthzGrpc: { service: svc, port: 1 } },
        { name: 'tracing', zipkin: { service: svc, port: 1 } },
      ],
      SERVICES,
    );
    expect(m.get('Upper')?.errors[0]).toContain('uppercase letters not allowed');
    expect(m.get('wild')?.errors[0]).toContain('a single wildcard ("*") is not supported');
    expect(m.get('rel')?.errors[0]).toContain('pathPrefix should begin with `/`');
    expect(m.get('ok')?.errors[0]).toBe('extension provider name must be unique, found duplicate: ok');
    expect(m.has('tracing')).toBe(false);
  });
});
