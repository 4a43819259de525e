// Authorization and request authentication for one proxy, as istiod builds them:
// AuthorizationPolicy → envoy.filters.{http,network}.rbac and ext_authz filters
// (pilot/pkg/security/authz), RequestAuthentication → envoy.filters.http.jwt_authn
// (pilot/pkg/security/authn). Pure TypeScript over plain inputs; every filter is a plain
// proto3-JSON object as it appears in a config dump (`{name, typedConfig: {'@type', …}}`).
//
// ENTRY POINTS
//
//   buildProxyAuthz(inputs, opts?) → ProxyAuthzFilters
//     Everything a listener builder needs for one proxy (and, for waypoints, one service):
//       .http  — HTTP filters to put in an HCM, in istiod's order:
//                [CUSTOM shadow RBAC + ext_authz per provider] [jwt_authn] [RBAC AUDIT, DENY, ALLOW]
//                (split as .customHttp, .jwtHttp, .localHttp). Goes right after
//                istio.metadata_exchange (the MX filter comes first) and before grpc_stats /
//                fault / cors / istio.stats / router. istiod adds them on inbound and gateway
//                HCMs, never on sidecar outbound ones (ListenerClassSidecarOutbound → none).
//       .tcp   — network filters for a TCP chain, in istiod's order:
//                [CUSTOM shadow RBAC + ext_authz (gRPC providers only)] [RBAC AUDIT, DENY, ALLOW]
//                (split as .customTcp, .localTcp). Goes after istio.metadata_exchange and before
//                istio.stats / tcp_proxy. istiod's buildCompleteNetworkFilters adds them on every
//                TCP chain it builds — inbound, gateway and sidecar outbound alike. Inbound HTTP
//                chains get no TCP RBAC (the HCM carries the HTTP filters instead).
//       .tcpRulesAsHttp — the waypoint's HBONE termination layer (connect_terminate HCM):
//                local policies with TCP semantics in HTTP RBAC filters, selected as for a
//                plain workload; only with ENABLE_LAYERED_WAYPOINT_AUTHORIZATION_POLICIES
//                (default off, so empty by default).
//       .log   — what istiod would log while building (skipped rules, bad providers, …).
//     inputs (ProxyAuthzInputs): the proxy (config namespace, labels, type), every
//       AuthorizationPolicy and RequestAuthentication of the mesh (selection happens here),
//       mesh settings (rootNamespace, trustDomain, trustDomainAliases, extensionProviders) and a
//       ServiceLookup for CUSTOM providers and JWKS hosts.
//     opts: `service` (waypoints: the Service/ServiceEntry a chain is built for, so policies
//       attached by targetRef to it apply), feature flags.
//
//   proxyAuthzInputsFromView(view, proxy) (fromView.ts) builds the inputs from a ConfigView:
//     policies from the store, mesh config, and the registry of config/services.ts.
//
//   Lower-level pieces, for tests and custom wiring:
//     listAuthorizationPolicies(policies, matcher, rootNamespace) → {custom, deny, allow, audit}
//     policyMatcherForProxy(proxy, {service, rootNamespace}) and shouldAttachPolicy(...)
//     new AuthzBuilder('local' | 'custom', selected, {trustDomainBundle, useFilterState,
//       extensions, …}).buildHTTP() / .buildTCP() / .buildTCPRulesAsHTTPFilter()
//     processExtensionProviders(meshConfig.extensionProviders, services)
//     listRequestAuthentications(...) and buildJwtFilter(selected, opts)
//     newBundle(trustDomain, aliases)
//
// Policy names in the RBAC maps are `ns[<ns>]-policy[<name>]-rule[<i>]` (CUSTOM:
// `istio-ext-authz-<provider>-…`), so an RBAC verdict can be traced back to its policy rule.
import { AuthzBuilder, AuthzLogger, type AuthzLogEntry, type EnvoyFilter } from './builder.ts';
import { processExtensionProviders } from './extAuthz.ts';
import { buildJwtFilter, listRequestAuthentications, type JwksFetchMode, type RequestAuthenticationInput } from './jwt.ts';
import { listAuthorizationPolicies, readAuthorizationPolicy, type AuthzPolicy } from './policies.ts';
import { policyMatcherForProxy, type PolicyService } from './selection.ts';
import { newBundle } from './trustDomain.ts';
import type { ProxyAuthzInputs } from './inputs.ts';

export type { AuthzMeshSettings, ProxyAuthzInputs } from './inputs.ts';

export { AuthzBuilder, AuthzLogger, isDryRun, HTTP_RBAC_TYPE, TCP_RBAC_TYPE, DRY_RUN_ANNOTATION } from './builder.ts';
export type { AuthzLogEntry, EnvoyFilter, BuilderOptions } from './builder.ts';
export {
  processExtensionProviders,
  lookupCluster,
  HTTP_RBAC_FILTER,
  TCP_RBAC_FILTER,
  HTTP_EXT_AUTHZ_FILTER,
  TCP_EXT_AUTHZ_FILTER,
  HTTP_EXT_AUTHZ_TYPE,
  TCP_EXT_AUTHZ_TYPE,
} from './extAuthz.ts';
export type { ServiceLookup, BuiltExtAuthz } from './extAuthz.ts';
export { buildJwtFilter, listRequestAuthentications, jwtAuthentication, jwksFetchModeOf, JWT_AUTHN_TYPE, PUBLIC_ONLY_JWKS } from './jwt.ts';
export type { RequestAuthenticationInput, JwksFetchMode, JwtFilterOptions } from './jwt.ts';
export { listAuthorizationPolicies, readAuthorizationPolicy, targetingOf } from './policies.ts';
export type { AuthorizationPolicyInput, AuthzPolicy, AuthorizationPoliciesResult, AuthzAction } from './policies.ts';
export { policyMatcherForProxy, shouldAttachPolicy, labelsSubsetOf } from './selection.ts';
export type { PolicyProxy, PolicyService, WorkloadPolicyMatcher, TargetablePolicy, PolicyTargetRef, SelectionFlags } from './selection.ts';
export { newBundle, replaceTrustDomainAliases, expandTrustDomainAliases } from './trustDomain.ts';
export type { TrustDomainBundle } from './trustDomain.ts';
export { JWT_FILTER_NAME } from './rbacRule.ts';

export interface ProxyAuthzOptions {
  /** Waypoints: the service a chain is built for (policies with a targetRef to it apply). */
  service?: PolicyService;
  /** Match peers by filter state instead of mTLS; default: true for waypoints. */
  useFilterState?: boolean;
  /** PILOT_ENABLE_MULTIPLE_CUSTOM_AUTHZ_PROVIDERS (default false). */
  enableMultipleCustomAuthzProviders?: boolean;
  /** ENABLE_SELECTOR_BASED_K8S_GATEWAY_POLICY (default true). */
  enableSelectorBasedK8sGatewayPolicy?: boolean;
  /** ENABLE_LAYERED_WAYPOINT_AUTHORIZATION_POLICIES (default false): fills `tcpRulesAsHttp` for waypoints. */
  enableLayeredWaypointAuthorizationPolicies?: boolean;
  /** PILOT_JWT_ENABLE_REMOTE_JWKS (default istiod). */
  jwksFetchMode?: JwksFetchMode;
  /** Keys istiod would fetch for an issuer; offline, unknown keys are shown as istiod's fail-closed JWKS. */
  resolveJwks?: (issuer: string, jwksUri: string) => string | undefined;
}

export interface ProxyAuthzFilters {
  /** customHttp + jwtHttp + localHttp: the HCM's authn/authz filters in order. */
  http: EnvoyFilter[];
  customHttp: EnvoyFilter[];
  jwtHttp: EnvoyFilter[];
  localHttp: EnvoyFilter[];
  /** customTcp + localTcp: a TCP chain's authz network filters in order. */
  tcp: EnvoyFilter[];
  customTcp: EnvoyFilter[];
  localTcp: EnvoyFilter[];
  /** Waypoint HBONE termination: local policies, TCP semantics, as HTTP filters. */
  tcpRulesAsHttp: EnvoyFilter[];
  /** The policies that apply, by action (for provenance and the simulator's RBAC verdict). */
  policies: { custom: AuthzPolicy[]; deny: AuthzPolicy[]; allow: AuthzPolicy[]; audit: AuthzPolicy[]; requestAuthentications: RequestAuthenticationInput[] };
  log: AuthzLogEntry[];
}

/** All authn/authz filters istiod would build for a proxy (see the header for where they go). */
export function buildProxyAuthz(inputs: ProxyAuthzInputs, opts: ProxyAuthzOptions = {}): ProxyAuthzFilters {
  const log = new AuthzLogger();
  const { proxy, mesh } = inputs;
  const flags = { enableSelectorBasedK8sGatewayPolicy: opts.enableSelectorBasedK8sGatewayPolicy };
  const read = inputs.authorizationPolicies.map(readAuthorizationPolicy);
  const matcher = policyMatcherForProxy(proxy, { service: opts.service, rootNamespace: mesh.rootNamespace });
  const selected = listAuthorizationPolicies(read, matcher, mesh.rootNamespace, flags, (m) => log.error(m));
  const bundle = newBundle(mesh.trustDomain, mesh.trustDomainAliases);
  const useFilterState = opts.useFilterState ?? proxy.type === 'waypoint';
  const local = new AuthzBuilder('local', selected, { trustDomainBundle: bundle, useFilterState });
  const extensions = selected.custom.length > 0 ? processExtensionProviders(mesh.extensionProviders, inputs.services) : new Map();
  const custom = new AuthzBuilder('custom', selected, {
    trustDomainBundle: bundle,
    useFilterState,
    extensions,
    enableMultipleCustomAuthzProviders: opts.enableMultipleCustomAuthzProviders,
  });

  // The HBONE termination layer selects policies as for a plain workload (IsWaypoint false).
  const terminationSelected = listAuthorizationPolicies(
    read,
    { ...policyMatcherForProxy(proxy, { rootNamespace: mesh.rootNamespace }), isWaypoint: false },
    mesh.rootNamespace,
    flags,
  );
  const termination = new AuthzBuilder('local', terminationSelected, { trustDomainBundle: bundle, useFilterState: false });

  const requestAuthns = listRequestAuthentications(inputs.requestAuthentications, matcher, mesh.rootNamespace, flags);
  const jwt = buildJwtFilter(requestAuthns, {
    services: inputs.services,
    jwksFetchMode: opts.jwksFetchMode,
    resolveJwks: opts.resolveJwks,
    clearRouteCache: (proxy.type ?? 'sidecar') !== 'sidecar',
    log,
  });

  const customHttp = custom.buildHTTP(log);
  const jwtHttp = jwt ? [jwt] : [];
  const localHttp = local.buildHTTP(log);
  const customTcp = custom.buildTCP(log);
  const localTcp = local.buildTCP(log);
  const tcpRulesAsHttp = proxy.type === 'waypoint' && opts.enableLayeredWaypointAuthorizationPolicies ? termination.buildTCPRulesAsHTTPFilter(log) : [];
  return {
    http: [...customHttp, ...jwtHttp, ...localHttp],
    customHttp,
    jwtHttp,
    localHttp,
    tcp: [...customTcp, ...localTcp],
    customTcp,
    localTcp,
    tcpRulesAsHttp,
    policies: { ...selected, requestAuthentications: requestAuthns },
    log: log.entries,
  };
}

export { proxyAuthzInputsFromView, serviceLookupFromView, authzMeshSettings } from './fromView.ts';
