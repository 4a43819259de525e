// The call site of the authorization and request-authentication filters
// (AuthorizationPolicy → RBAC / ext_authz, RequestAuthentication → jwt_authn; spec §3.5).
//
// src/core/xds/authz/ builds the filters (buildProxyAuthz); this module gives it the proxy's
// inputs and splits the result the way the listener builders place it.
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import type { ConfigView } from '../config/configView.ts';
import { authorizationPolicy, requestAuthentication } from '../config/api/security.ts';
import { selectorMatches } from '../config/labels.ts';
import type { Json, Proxy } from './types.ts';
import type { MeshSettings } from './mesh.ts';
import { buildProxyAuthz, proxyAuthzInputsFromView, type ProxyAuthzInputs } from './authz/index.ts';

/** What the authz builders take (plain inputs, as agreed in the brief). */
export interface AuthzInputs {
  /** The proxy's namespace and labels. */
  namespace: string;
  labels: Readonly<Record<string, string>>;
  proxyType: Proxy['type'];
  /** AuthorizationPolicies that apply to the proxy (root namespace and own namespace, selector matched). */
  policies: readonly Resource[];
  /** RequestAuthentications that apply to the proxy. */
  requestAuthentications: readonly Resource[];
  trustDomain: string;
  trustDomainAliases: readonly string[];
  /** meshConfig.extensionProviders, for CUSTOM policies. */
  extensionProviders: readonly unknown[];
  rootNamespace: string;
  /** The same, as src/core/xds/authz takes them (every policy of the mesh; selection happens there). */
  authz: ProxyAuthzInputs;
}

export interface AuthzFilters {
  /** HTTP: CUSTOM (shadow RBAC + ext_authz), then jwt_authn, then RBAC AUDIT/DENY/ALLOW. */
  httpCustom: Json[];
  httpJwt: Json[];
  httpRbac: Json[];
  /** Network: CUSTOM, then RBAC. */
  tcpCustom: Json[];
  tcpRbac: Json[];
}

function applies(r: Resource, selector: Readonly<Record<string, string>> | undefined, proxy: Proxy, root: string): boolean {
  if (r.namespace !== root && r.namespace !== proxy.namespace) return false;
  if (!selector || Object.keys(selector).length === 0) return true;
  return selectorMatches(selector, proxy.labels);
}

/** The inputs for a proxy: the policies that select it. */
export function authzInputs(view: ConfigView, proxy: Proxy, mesh: MeshSettings): AuthzInputs {
  const root = mesh.rootNamespace;
  const policies = view.list(KINDS.AuthorizationPolicy).filter((r) => applies(r, authorizationPolicy(r).selector?.matchLabels, proxy, root));
  const requestAuthentications = view.list(KINDS.RequestAuthentication).filter((r) => applies(r, requestAuthentication(r).selector?.matchLabels, proxy, root));
  const providers = Array.isArray(view.meshConfig.extensionProviders) ? view.meshConfig.extensionProviders : [];
  return {
    namespace: proxy.namespace,
    labels: proxy.labels,
    proxyType: proxy.type,
    policies,
    requestAuthentications,
    trustDomain: mesh.trustDomain,
    trustDomainAliases: mesh.trustDomainAliases,
    extensionProviders: providers,
    rootNamespace: root,
    authz: {
      ...proxyAuthzInputsFromView(view, { namespace: proxy.namespace, labels: proxy.labels, type: proxy.type }),
      mesh: { rootNamespace: root, trustDomain: mesh.trustDomain, trustDomainAliases: mesh.trustDomainAliases, extensionProviders: providers },
    },
  };
}

/** The filters for a proxy (waypoints: the per-service filters are the waypoint builder's). */
export function buildAuthzFilters(inputs: AuthzInputs): AuthzFilters {
  const f = buildProxyAuthz(inputs.authz);
  // EnvoyFilter objects are plain proto3 JSON.
  const j = (x: readonly unknown[]) => x as Json[];
  return { httpCustom: j(f.customHttp), httpJwt: j(f.jwtHttp), httpRbac: j(f.localHttp), tcpCustom: j(f.customTcp), tcpRbac: j(f.localTcp) };
}

/** True when the authz filters are still a stub (the dump says so). */
export const AUTHZ_NOT_IMPLEMENTED = false;
