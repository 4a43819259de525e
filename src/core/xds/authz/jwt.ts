// RequestAuthentication → envoy.filters.http.jwt_authn (pilot/pkg/security/authn/
// policy_applier.go): every JWT rule of the RequestAuthentications that apply to the proxy
// becomes a provider `origins-<i>` (rules sorted by issuer); a request with a token must
// satisfy one of them, a request without one is let through (authorization decides).
//
// Istio at this snapshot adds no `istio_authn` filter: the jwt_authn filter is the only
// HTTP filter RequestAuthentication produces.
import { goQuote } from '../../go/fmt.ts';
import { RequestAuthenticationSpec } from '../../config/api/security.ts';
import { isObj } from '../../document/read.ts';
import { goParseURL } from '../../validation/webhook/goUrl.ts';
import { durationJson } from '../duration.ts';
import { lookupCluster, type ServiceLookup } from './extAuthz.ts';
import type { AuthzLogger, EnvoyFilter } from './builder.ts';
import type { JsonObject } from './matcher.ts';
import { JWT_FILTER_NAME, JWT_FILTER_PAYLOAD } from './rbacRule.ts';
import { targetingOf } from './policies.ts';
import { compareByCreationTime, shouldAttachPolicy, uniqueInOrder, type SelectionFlags, type WorkloadPolicyMatcher } from './selection.ts';

export const JWT_AUTHN_TYPE = 'type.googleapis.com/envoy.extensions.filters.http.jwt_authn.v3.JwtAuthentication';

/**
 * The JWKS istiod inlines when it cannot fetch an issuer's keys (model.PublicOnlyJwks): a
 * public RSA key whose private half was discarded, so every token is rejected (fail closed).
 */
export const PUBLIC_ONLY_JWKS = `{
  "keys": [
    {
      "kty": "RSA",
      "e": "AQAB",
      "n": "0xObjM0UvS_oaazjpEYlAbwctEJ4L8pH3OuTb7qth7gUwqet-EzQB4dgFdvSdMgrLnSncQGRjpEYz3F3viIbH-3EN3TxSlPNviHxeOdyiBVfumN8dMxbLvVJUpfNOnvmMxJcl-8NNjAwcOjk4otSALaYgYYyOPyvKtgVdrQr-FoubWX4yrjxW-MJ2-7OBeepUUNOsVwGV23YX03sVkkyvY3otRflkBcY3_HKpBxJl9wk2GyOShN4_PNUF9-vwfnvOXMbCDX-w4PTef4geeb_GiT40YCKHTKMSPVanGRn5GExIWmki-mmqh94-mPTJyBR74ShspL3BxPZitDL574T1w"
    }
  ]
}`;

/** A RequestAuthentication as plain input. */
export interface RequestAuthenticationInput {
  name: string;
  namespace: string;
  creationTimestamp?: string;
  spec: unknown;
}

/** PILOT_JWT_ENABLE_REMOTE_JWKS: who fetches keys named by `jwksUri` (default istiod). */
export type JwksFetchMode = 'istiod' | 'hybrid' | 'envoy';

/** jwt.ConvertToJwksFetchMode: `istiod`/`false` → istiod, `hybrid`/`true` → hybrid, `envoy` → envoy (default istiod). */
export function jwksFetchModeOf(v: string | undefined): JwksFetchMode {
  switch ((v ?? '').toLowerCase()) {
    case 'hybrid':
    case 'true':
      return 'hybrid';
    case 'envoy':
      return 'envoy';
    default:
      return 'istiod';
  }
}

export interface JwtFilterOptions {
  /** The service registry, for `jwksUri` hosts served in the mesh (remote JWKS). */
  services: ServiceLookup;
  jwksFetchMode?: JwksFetchMode;
  /**
   * The keys istiod would fetch for an issuer (jwksUri, else OpenID discovery). We run
   * offline: without an answer the keys are shown as istiod's fail-closed placeholder.
   */
  resolveJwks?: (issuer: string, jwksUri: string) => string | undefined;
  /** True except for sidecars: gateways and waypoints clear the route cache after validation. */
  clearRouteCache: boolean;
  log?: AuthzLogger;
}

/** The JWT rules of a RequestAuthentication, as the filter reads them. */
type JwtRule = ReturnType<typeof RequestAuthenticationSpec.readOrEmpty>['jwtRules'][number];

/**
 * GetJwtPoliciesForWorkload: RequestAuthentications of the workload's namespace, the root
 * namespace and the service's namespace (each oldest first) that attach to the workload.
 */
export function listRequestAuthentications(
  policies: readonly RequestAuthenticationInput[],
  matcher: WorkloadPolicyMatcher,
  rootNamespace: string,
  flags: SelectionFlags = {},
): RequestAuthenticationInput[] {
  const sorted = [...policies].sort(compareByCreationTime);
  const out: RequestAuthenticationInput[] = [];
  const m = { ...matcher, rootNamespace };
  for (const ns of uniqueInOrder([matcher.workloadNamespace, rootNamespace, ...matcher.services.map((s) => s.namespace)])) {
    for (const p of sorted) {
      if (p.namespace !== ns) continue;
      if (shouldAttachPolicy(m, p.namespace, targetingOf(p.spec), flags)) out.push(p);
    }
  }
  return out;
}

/** buildSpaceDelimitedClaims: `permission` and `scope`, plus the rule's own, sorted. */
function spaceDelimitedClaims(list: readonly string[]): string[] {
  if (list.length === 0) return ['permission', 'scope'];
  return [...new Set([...list, 'permission', 'scope'])].sort();
}

/** security.ParseJwksURI: hostname and port (80 for http, 443 for https) of a JWKS URI. */
function parseJwksUri(uri: string): { hostname: string; port: number } | { error: string } {
  const u = goParseURL(uri);
  if (typeof u === 'string') return { error: u };
  let port: number;
  if (u.scheme === 'http') port = 80;
  else if (u.scheme === 'https') port = 443;
  else return { error: `URI scheme ${goQuote(u.scheme)} is not supported` };
  let host = u.host;
  let explicitPort = '';
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    explicitPort = host.slice(i + 1).replace(/^:/, '');
    host = host.slice(1, i);
  } else {
    const i = host.lastIndexOf(':');
    if (i >= 0) {
      explicitPort = host.slice(i + 1);
      host = host.slice(0, i);
    }
  }
  if (explicitPort !== '') {
    const n = Number(explicitPort);
    if (!/^[0-9]+$/.test(explicitPort) || !Number.isSafeInteger(n)) return { error: `strconv.Atoi: parsing ${goQuote(explicitPort)}: invalid syntax` };
    port = n;
  }
  return { hostname: host, port };
}

/** JwksResolver.BuildLocalJwks: the given keys, else the ones istiod fetches. */
function localJwks(rule: JwtRule, inline: string, opts: JwtFilterOptions): JsonObject {
  let key = inline;
  if (key === '') {
    const fetched = opts.resolveJwks?.(rule.issuer, rule.jwksUri);
    if (fetched !== undefined) key = fetched;
    else {
      opts.log?.warn(
        `JWKS for issuer ${rule.issuer}${rule.jwksUri ? ` (${rule.jwksUri})` : ''} is not fetched offline: istiod would inline the keys it fetches; ` +
          'shown is the public-only JWKS istiod inlines when the fetch fails (every token is rejected)',
      );
      key = PUBLIC_ONLY_JWKS;
    }
  }
  return { localJwks: { inlineString: key } };
}

function remoteJwks(uri: string, cluster: string, timeout: string): JsonObject {
  return { remoteJwks: { httpUri: { uri, cluster, timeout }, cacheDuration: '300s' } };
}

function provider(rule: JwtRule, opts: JwtFilterOptions): JsonObject {
  const out: JsonObject = { issuer: rule.issuer };
  if (rule.audiences.length > 0) out.audiences = [...rule.audiences];
  if (rule.forwardOriginalToken === true) out.forward = true;
  if (rule.outputPayloadToHeader !== '') out.forwardPayloadHeader = rule.outputPayloadToHeader;
  out.payloadInMetadata = JWT_FILTER_PAYLOAD;
  out.normalizePayloadInMetadata = { spaceDelimitedClaims: spaceDelimitedClaims(rule.spaceDelimitedClaims) };
  if (opts.clearRouteCache) out.clearRouteCache = true;
  if (rule.outputClaimToHeaders.length > 0) out.claimToHeaders = rule.outputClaimToHeaders.map((c) => ({ headerName: c.header, claimName: c.claim }));
  if (rule.fromHeaders.length > 0) {
    out.fromHeaders = rule.fromHeaders.map((h) => {
      const o: JsonObject = { name: h.name };
      if (h.prefix !== '') o.valuePrefix = h.prefix;
      return o;
    });
  }
  if (rule.fromParams.length > 0) out.fromParams = [...rule.fromParams];
  if (rule.fromCookies.length > 0) out.fromCookies = [...rule.fromCookies];

  let timeout = '5s';
  if (rule.timeout !== undefined) {
    const written = durationJson(rule.timeout);
    if (written !== undefined) timeout = written;
    else opts.log?.warn(`invalid timeout ${goQuote(rule.timeout)} in the JWT rule for ${rule.issuer}: not a duration; shown with 5s`);
  }

  const mode = opts.jwksFetchMode ?? 'istiod';
  if (mode !== 'istiod' && rule.jwksUri !== '') {
    const info = parseJwksUri(rule.jwksUri);
    if ('error' in info) opts.log?.error(`Failed to parse jwt rule jwks uri ${info.error}`);
    const hostname = 'error' in info ? '' : info.hostname;
    const port = 'error' in info ? 0 : info.port;
    const cl = lookupCluster(opts.services, hostname, port);
    if (!('error' in cl) && cl.cluster !== '') {
      // The JWKS server is in the mesh: Envoy fetches the keys through its cluster.
      Object.assign(out, remoteJwks(rule.jwksUri, cl.cluster, timeout));
    } else if (mode === 'hybrid') {
      // Istio passes no inline keys here: istiod fetches jwksUri even when `jwks` is set.
      Object.assign(out, localJwks(rule, '', opts));
    } else {
      opts.log?.error(
        `Failed to look up Envoy cluster ${'error' in cl ? cl.error : ''}. Please create ServiceEntry to register external JWKs server or set PILOT_JWT_ENABLE_REMOTE_JWKS to hybrid/istiod mode.`,
      );
      Object.assign(out, remoteJwks(rule.jwksUri, `outbound|${port}||${hostname}`, timeout));
    }
  } else {
    Object.assign(out, localJwks(rule, rule.jwks, opts));
  }
  return out;
}

/** convertToEnvoyJwtConfig: the JwtAuthentication config for the rules (sorted by issuer by the caller). */
export function jwtAuthentication(rules: readonly JwtRule[], opts: JwtFilterOptions): JsonObject | undefined {
  if (rules.length === 0) return undefined;
  const providers: JsonObject = {};
  const innerAnd: JsonObject[] = [];
  const outerOr: JsonObject[] = [];
  rules.forEach((rule, i) => {
    const name = `origins-${i}`;
    providers[name] = provider(rule, opts);
    innerAnd.push({ requiresAny: { requirements: [{ providerName: name }, { allowMissing: {} }] } });
    outerOr.push({ providerName: name });
  });
  const requires =
    innerAnd.length === 1 ? (innerAnd[0] as JsonObject) : { requiresAny: { requirements: [...outerOr, { requiresAll: { requirements: innerAnd } }] } };
  return {
    '@type': JWT_AUTHN_TYPE,
    providers,
    rules: [{ match: { prefix: '/' }, requires }],
    bypassCorsPreflight: true,
  };
}

/**
 * The jwt_authn HTTP filter for the RequestAuthentications that apply (already listed for the
 * proxy), or undefined when they hold no JWT rule. Not used on sidecar outbound listeners.
 */
export function buildJwtFilter(policies: readonly RequestAuthenticationInput[], opts: JwtFilterOptions): EnvoyFilter | undefined {
  const rules: JwtRule[] = [];
  for (const p of policies) rules.push(...RequestAuthenticationSpec.readOrEmpty(isObj(p.spec) ? p.spec : undefined).jwtRules);
  // Sorted by issuer for a deterministic config (a stable sort keeps policy order for equal issuers).
  const sorted = rules.map((r, i) => ({ r, i })).sort((a, b) => (a.r.issuer < b.r.issuer ? -1 : a.r.issuer > b.r.issuer ? 1 : a.i - b.i));
  const cfg = jwtAuthentication(
    sorted.map((x) => x.r),
    opts,
  );
  if (!cfg) return undefined;
  return { name: JWT_FILTER_NAME, typedConfig: cfg as EnvoyFilter['typedConfig'] };
}
