// The Istio config the conversion generates: the internal annotations istiod sets on it, its metadata,
// and the creation order istiod sorts it in (conversion.go sortConfigByCreationTime); with the deep copy
// and stable sort the conversion steps use.
import type { GwObject, Json } from './objects.ts';
import type { IstioConfig } from './types.ts';

export const ANNOTATION_PARENTS = 'internal.istio.io/parents';
export const ANNOTATION_PARENT_NAMESPACE = 'internal.istio.io/parent-namespace';
export const ANNOTATION_ROUTE_SEMANTICS = 'internal.istio.io/route-semantics';
export const ANNOTATION_GATEWAY_SEMANTICS = 'internal.istio.io/gateway-semantics';
export const ANNOTATION_GATEWAY_SERVICE = 'internal.istio.io/gateway-service';
export const ANNOTATION_SERVICE_ACCOUNT = 'internal.istio.io/service-account-name';

export function istioConfig(
  kind: IstioConfig['kind'],
  name: string,
  namespace: string,
  annotations: Record<string, string>,
  specBody: Json,
  created: number,
): IstioConfig {
  const metadata: IstioConfig['metadata'] = { annotations, name, namespace };
  // Kubernetes writes times to the second (RFC 3339); a zero time is left out.
  if (created) metadata.creationTimestamp = new Date(created).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { apiVersion: 'networking.istio.io/v1', kind, metadata, spec: specBody, created };
}

export function routeMeta(route: GwObject): Record<string, string> {
  return { [ANNOTATION_PARENTS]: `${route.kind}/${route.name}.${route.namespace}`, [ANNOTATION_ROUTE_SEMANTICS]: 'gateway' };
}

export function sortByCreation<T extends { created: number; namespace: string; name: string }>(xs: T[]): T[] {
  return xs.sort((a, b) => a.created - b.created || cmp(a.namespace, b.namespace) || cmp(a.name, b.name));
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

export function stableSortBy<T>(xs: T[], key: (x: T) => string | number): T[] {
  return xs
    .map((x, i) => ({ x, i, k: key(x) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i))
    .map((e) => e.x);
}
