// The authz inputs for a proxy, read from a ConfigView: the mesh's AuthorizationPolicies and
// RequestAuthentications, the mesh config, and the service registry of config/services.ts.
import type { ConfigView } from '../../config/configView.ts';
import { servicesByHostname } from '../../config/services.ts';
import { KINDS } from '../../document/kinds.ts';
import type { Resource } from '../../document/types.ts';
import { isObj, str, strList } from '../../document/read.ts';
import type { ServiceLookup } from './extAuthz.ts';
import type { AuthzMeshSettings, ProxyAuthzInputs } from './inputs.ts';
import type { PolicyProxy } from './selection.ts';

function creationTimestamp(r: Resource): string | undefined {
  const md = r.body.metadata;
  return isObj(md) && typeof md.creationTimestamp === 'string' ? md.creationTimestamp : undefined;
}

function specOf(r: Resource): unknown {
  return r.body.spec;
}

/** push.ServiceIndex.HostnameAndNamespace over the registry: one entry per namespace defining the host. */
export function serviceLookupFromView(view: ConfigView): ServiceLookup {
  const byHost = servicesByHostname(view);
  return (hostname) => {
    const seen = new Set<string>();
    const out: { hostname: string; namespace: string }[] = [];
    for (const s of byHost.get(hostname) ?? []) {
      if (seen.has(s.namespace)) continue;
      seen.add(s.namespace);
      out.push({ hostname: s.hostname, namespace: s.namespace });
    }
    return out;
  };
}

/** The mesh config fields authorization reads. */
export function authzMeshSettings(view: ConfigView): AuthzMeshSettings {
  const m = view.meshConfig;
  return {
    rootNamespace: str(m.rootNamespace),
    trustDomain: str(m.trustDomain) || 'cluster.local',
    trustDomainAliases: strList(m.trustDomainAliases),
    extensionProviders: Array.isArray(m.extensionProviders) ? m.extensionProviders : [],
  };
}

/** Everything buildProxyAuthz needs for `proxy`, from the workspace. */
export function proxyAuthzInputsFromView(view: ConfigView, proxy: PolicyProxy): ProxyAuthzInputs {
  return {
    proxy,
    authorizationPolicies: view.list(KINDS.AuthorizationPolicy).map((r) => ({
      name: r.name,
      namespace: r.namespace,
      annotations: r.annotations,
      creationTimestamp: creationTimestamp(r),
      spec: specOf(r),
    })),
    requestAuthentications: view.list(KINDS.RequestAuthentication).map((r) => ({
      name: r.name,
      namespace: r.namespace,
      creationTimestamp: creationTimestamp(r),
      spec: specOf(r),
    })),
    mesh: authzMeshSettings(view),
    services: serviceLookupFromView(view),
  };
}
