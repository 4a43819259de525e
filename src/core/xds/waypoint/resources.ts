// What a waypoint proxy serves (pilot/pkg/networking/core/waypoint.go findWaypointResources):
// the services bound to it and the workloads bound to it. Which object uses which waypoint
// (`istio.io/use-waypoint` on the object or its namespace, `istio.io/use-waypoint-namespace`,
// `istio.io/waypoint-for`, allowedRoutes) is decided once, in config/waypoints.ts, and read here
// through the ambient model, so the Data plane tab and the waypoint's xDS agree.
import type { Proxy } from '../types.ts';
import type { PushContext, Service } from '../pushContext.ts';
import { ambientModel } from '../../ambient/dataPlane.ts';
import type { Waypoint } from '../../config/waypoints.ts';
import { GATEWAY_NAME_LABEL } from '../../config/wellKnown.ts';
import { mapAt } from '../../document/maps.ts';

export interface WaypointResources {
  /** The waypoint (`namespace/name` of its Gateway), when the proxy is one istiod knows. */
  waypoint?: Waypoint;
  /** Services bound to the waypoint, oldest first (SortServicesByCreationTime). */
  services: Service[];
  /** Hostname → owned service (waypointServices.services). */
  byHostname: ReadonlyMap<string, Service>;
  /** Addresses of the workloads bound to the waypoint (waypoint-for workload or all). */
  workloadIps: string[];
  /** True for an address ztunnel reaches over HBONE (an ambient workload or a waypoint). */
  supportsTunnel(ip: string): boolean;
}

function compare(a: Service, b: Service): number {
  if (a.creationTime !== b.creationTime) return a.creationTime - b.creationTime;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  if (a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
  return 0;
}

/** Per push context and ambient model (an edit of a namespace label rebuilds the model, not always the push context). */
const cache = new WeakMap<PushContext, WeakMap<object, Map<string, WaypointResources>>>();

/** The waypoint's Gateway key (`namespace/name`) from the pod's `gateway.networking.k8s.io/gateway-name` label. */
export function waypointKeyOf(proxy: Proxy): string {
  const name = proxy.labels[GATEWAY_NAME_LABEL];
  return name ? `${proxy.namespace}/${name}` : '';
}

/** findWaypointResources for a waypoint proxy. */
export function waypointResources(push: PushContext, proxy: Proxy): WaypointResources {
  const key = waypointKeyOf(proxy);
  const model = ambientModel(push.view);
  let byModel = cache.get(push);
  if (!byModel) cache.set(push, (byModel = new WeakMap()));
  const byKey = mapAt(byModel, model);
  const hit = byKey.get(key);
  if (hit) return hit;
  const waypoint = model.cluster.waypoints.get(key);
  const bound = (w: Waypoint | undefined) => w !== undefined && waypoint !== undefined && w.namespace === waypoint.namespace && w.name === waypoint.name;
  const owned = new Map<string, Service>();
  if (waypoint) {
    for (const rec of model.ztunnel.services) {
      if (!bound(rec.binding.waypoint)) continue;
      const svc = push.hostnameAndNamespace.get(rec.hostname)?.get(rec.namespace);
      if (!svc) continue;
      // DYNAMIC_DNS is supported only for MESH_EXTERNAL services.
      if (svc.resolution === 'DynamicDNS' && !svc.meshExternal) continue;
      owned.set(svc.hostname, svc);
    }
  }
  const workloadIps: string[] = [];
  if (waypoint) for (const w of model.ztunnel.workloads) if (bound(w.waypoint.waypoint)) workloadIps.push(...w.json.workloadIps);
  const hbone = new Set<string>();
  for (const w of model.ztunnel.workloads) if (w.protocol === 'HBONE') for (const ip of w.json.workloadIps) hbone.add(ip);
  for (const p of model.cluster.pods) if (p.role === 'waypoint') for (const ip of p.ips) hbone.add(ip);
  const out: WaypointResources = {
    ...(waypoint ? { waypoint } : {}),
    services: [...owned.values()].sort(compare),
    byHostname: owned,
    workloadIps,
    supportsTunnel: (ip) => hbone.has(ip),
  };
  byKey.set(key, out);
  return out;
}
