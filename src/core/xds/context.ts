// Everything a builder needs while generating for one proxy.
import type { Proxy, FeatureFlags } from './types.ts';
import type { PushContext } from './pushContext.ts';
import type { MeshSettings } from './mesh.ts';
import { sidecarScope, type SidecarScope } from './scope.ts';
import { serviceTargets, wildcardsAndLocalhost, type ServiceTarget } from './proxy.ts';
import { authzInputs, buildAuthzFilters, type AuthzFilters } from './authzHook.ts';

export interface GenContext {
  push: PushContext;
  proxy: Proxy;
  scope: SidecarScope;
  mesh: MeshSettings;
  features: FeatureFlags;
  targets: readonly ServiceTarget[];
  wildcards: readonly string[];
  localhosts: readonly string[];
  authz: AuthzFilters;
}

export function genContext(push: PushContext, proxy: Proxy): GenContext {
  const { wildcards, localhosts } = wildcardsAndLocalhost(proxy, push.features.ISTIO_DUAL_STACK);
  return {
    push,
    proxy,
    scope: sidecarScope(push, proxy),
    mesh: push.mesh,
    features: push.features,
    targets: serviceTargets(push, proxy),
    wildcards,
    localhosts,
    authz: buildAuthzFilters(authzInputs(push.view, proxy, push.mesh)),
  };
}
