// The authorization of a waypoint's chains: policies attached to the waypoint itself, or to the
// Service a chain is for (targetRefs to the Service or ServiceEntry), built by xds/authz with
// peers matched by filter state. Shared by the listener builder and the request simulator.
import type { Resource } from '../../document/types.ts';
import { KINDS } from '../../document/kinds.ts';
import type { ConfigView } from '../../config/configView.ts';
import type { Proxy } from '../types.ts';
import type { Service } from '../pushContext.ts';
import { buildProxyAuthz, proxyAuthzInputsFromView, type ProxyAuthzFilters, type ProxyAuthzInputs } from '../authz/index.ts';

const cache = new WeakMap<Proxy, { inputs: ProxyAuthzInputs; byService: Map<string, ProxyAuthzFilters> }>();

/** The authn/authz filters of a waypoint chain for `svc` (undefined: the waypoint's own chains). */
export function waypointAuthzFor(view: ConfigView, proxy: Proxy, svc: Service | undefined): ProxyAuthzFilters {
  let c = cache.get(proxy);
  if (!c) {
    c = { inputs: proxyAuthzInputsFromView(view, { namespace: proxy.configNamespace, labels: proxy.labels, type: 'waypoint' }), byService: new Map() };
    cache.set(proxy, c);
  }
  const key = svc ? `${svc.namespace}/${svc.hostname}` : '';
  let f = c.byService.get(key);
  if (!f) {
    // A policy reaches a waypoint chain from the root namespace, the waypoint's namespace, or
    // (targetRefs) the service's own namespace: reading only those keeps a large mesh cheap.
    const namespaces = new Set([c.inputs.mesh.rootNamespace || 'istio-system', proxy.configNamespace, ...(svc ? [svc.namespace] : [])]);
    const inputs: ProxyAuthzInputs = {
      ...c.inputs,
      authorizationPolicies: c.inputs.authorizationPolicies.filter((p) => namespaces.has(p.namespace)),
      requestAuthentications: c.inputs.requestAuthentications.filter((p) => namespaces.has(p.namespace)),
    };
    // Attributes.ObjectName: the ServiceEntry's name; a Kubernetes Service's name.
    const service = svc ? { name: svc.registry === 'External' ? svc.resource.name : svc.name, namespace: svc.namespace, registry: svc.registry } : undefined;
    f = buildProxyAuthz(inputs, service ? { service } : {});
    c.byService.set(key, f);
  }
  return f;
}

/** The AuthorizationPolicy resources that apply to a chain (CUSTOM, DENY, ALLOW, AUDIT). */
export function waypointPolicyResources(view: ConfigView, f: ProxyAuthzFilters): Resource[] {
  const out: Resource[] = [];
  for (const list of [f.policies.custom, f.policies.deny, f.policies.allow, f.policies.audit]) {
    for (const p of list) {
      const r = view.find(KINDS.AuthorizationPolicy, p.namespace, p.name);
      if (r && !out.includes(r)) out.push(r);
    }
  }
  return out;
}
