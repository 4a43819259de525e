// What the waypoint generator does not model, said in the dump's notes.
import type { Proxy } from '../types.ts';
import type { PushContext } from '../pushContext.ts';
import { waypointResources } from './resources.ts';

export function waypointNotes(push: PushContext, proxy: Proxy): string[] {
  const res = waypointResources(push, proxy);
  const out: string[] = [];
  if (!res.waypoint)
    out.push(
      `No ready waypoint Gateway for this pod (${proxy.labels['gateway.networking.k8s.io/gateway-name'] ?? 'no gateway-name label'}): only the HBONE listeners are generated.`,
    );
  else if (res.services.length === 0 && res.workloadIps.length === 0)
    out.push(
      `No Service, ServiceEntry or workload uses waypoint ${res.waypoint.namespace}/${res.waypoint.name} (istio.io/use-waypoint): main_internal has no chains for services.`,
    );
  out.push(
    'Waypoint: ambient multi-network (double HBONE, east-west gateways), baggage peer metadata, DYNAMIC_DNS services and Telemetry/WasmPlugin/TrafficExtension filters are not generated; routes are inline (waypoints get no RDS).',
  );
  return out;
}
