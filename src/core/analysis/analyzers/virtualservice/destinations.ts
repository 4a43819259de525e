// The destinations a VirtualService routes or mirrors to, with where each one sits.
import type { Resource } from '../../../document/types.ts';
import { virtualService, type Destination } from '../../../config/api/networking.ts';

export interface RouteDestination {
  /** `http`, `tcp`, `tls`, `http.mirror` or `http.mirrors` (Istio's RouteRule label). */
  rule: string;
  /** Index of the rule (http[i], tcp[i], tls[i]). */
  ruleIndex: number;
  /** Index inside `route` (or `mirrors`); 0 for `mirror`. */
  destIndex: number;
  /** The destination; undefined when the route has none (`- {}`). */
  destination: Destination | undefined;
}

/** Route destinations in Istio's order: every tcp rule, then tls, then http. */
export function routeDestinations(vs: Resource): RouteDestination[] {
  const spec = virtualService(vs);
  const out: RouteDestination[] = [];
  for (const rule of ['tcp', 'tls', 'http'] as const) {
    spec[rule].forEach((r, i) => {
      r.route.forEach((rd, j) => {
        out.push({ rule, ruleIndex: i, destIndex: j, destination: rd.destination });
      });
    });
  }
  return out;
}

/** Mirror destinations of the http rules: `mirror`, then each `mirrors[j].destination`. */
export function mirrorDestinations(vs: Resource): RouteDestination[] {
  const out: RouteDestination[] = [];
  virtualService(vs).http.forEach((r, i) => {
    if (r.mirror) out.push({ rule: 'http.mirror', ruleIndex: i, destIndex: 0, destination: r.mirror });
    r.mirrors.forEach((m, j) => {
      out.push({ rule: 'http.mirrors', ruleIndex: i, destIndex: j, destination: m.destination });
    });
  });
  return out;
}

/** Istio's field key for a route destination host: `spec.<rule>[i].route[j].destination.host`. */
export function destinationHostPath(rule: string, ruleIndex: number, destIndex: number): string {
  return `spec.${rule}[${ruleIndex}].route[${destIndex}].destination.host`;
}

/** Istio's field key for a mirror host (used for `mirrors` entries too). */
export function mirrorHostPath(ruleIndex: number): string {
  return `spec.http[${ruleIndex}].mirror.host`;
}
