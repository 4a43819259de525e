// Whether istiod sends a service's unhealthy endpoints, which decides the clusters' panic
// threshold (pilot/pkg/model/service.go SupportsUnhealthyEndpoints / ForcesSupportUnhealthyEndpoints,
// and GetTrafficDistribution for the Kubernetes-native traffic distribution that forces it).
import type { ConfigView } from '../config/configView.ts';
import { KINDS } from '../document/kinds.ts';
import { isObj } from '../document/read.ts';
import type { FeatureFlags } from './types.ts';
import type { Service } from './pushContext.ts';

export type TrafficDistribution = 'Any' | 'PreferSameZone' | 'PreferSameNode';

const ANNOTATION = 'networking.istio.io/traffic-distribution';

function fromValue(v: string): TrafficDistribution {
  const l = v.toLowerCase();
  if (l === 'preferclose' || l === 'prefersamezone') return 'PreferSameZone';
  if (l === 'prefersamenode') return 'PreferSameNode';
  return 'Any';
}

/**
 * model.GetTrafficDistribution: the Service's spec.trafficDistribution (PreferClose /
 * PreferSameZone / PreferSameNode; any other value falls through), then the service's
 * annotation, then its namespace's annotation (an unknown annotation value is Any and stops there).
 * A ServiceEntry has no spec field (serviceentry/conversion.go passes nil).
 */
export function trafficDistribution(view: ConfigView, svc: Service): TrafficDistribution {
  const r = svc.resource;
  if (svc.registry === 'Kubernetes' && r.kindId === KINDS.Service.id) {
    const spec = isObj(r.body.spec) ? r.body.spec : {};
    if (typeof spec.trafficDistribution === 'string') {
      const td = fromValue(spec.trafficDistribution);
      if (td !== 'Any') return td;
    }
  }
  const own = r.annotations[ANNOTATION];
  if (own) return fromValue(own);
  const ns = view.find(KINDS.Namespace, '', r.namespace);
  const nsValue = ns?.annotations[ANNOTATION];
  return nsValue ? fromValue(nsValue) : 'Any';
}

/** ForcesSupportUnhealthyEndpoints: PILOT_SEND_UNHEALTHY_ENDPOINTS, or a traffic distribution other than Any. */
export function forcesSupportUnhealthyEndpoints(view: ConfigView, features: FeatureFlags, svc: Service): boolean {
  if (features.PILOT_SEND_UNHEALTHY_ENDPOINTS) return true;
  return trafficDistribution(view, svc) !== 'Any';
}

/** SupportsUnhealthyEndpoints: PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS (default true), or ForcesSupportUnhealthyEndpoints. */
export function supportsUnhealthyEndpoints(view: ConfigView, features: FeatureFlags, svc: Service): boolean {
  return features.PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS || forcesSupportUnhealthyEndpoints(view, features, svc);
}
