// The plain inputs of buildProxyAuthz (index.ts), in their own module so that fromView.ts
// and index.ts do not import each other.
import type { ServiceLookup } from './extAuthz.ts';
import type { RequestAuthenticationInput } from './jwt.ts';
import type { AuthorizationPolicyInput } from './policies.ts';
import type { PolicyProxy } from './selection.ts';

/** The mesh config fields authorization reads. */
export interface AuthzMeshSettings {
  rootNamespace: string;
  trustDomain: string;
  trustDomainAliases: readonly string[];
  /** `meshConfig.extensionProviders` as written (only ext_authz providers are used). */
  extensionProviders: readonly unknown[];
}

export interface ProxyAuthzInputs {
  proxy: PolicyProxy;
  authorizationPolicies: readonly AuthorizationPolicyInput[];
  requestAuthentications: readonly RequestAuthenticationInput[];
  mesh: AuthzMeshSettings;
  services: ServiceLookup;
}
