// Typed views of the Gateway API kinds (gateway.networking.k8s.io).
import { int, list, message, optional, raw, string, strings, type Infer } from '../shape.ts';
import { bodyReader, specReader } from '../views.ts';
import { Condition } from './kube.ts';

export const ParentReference = message({
  group: optional(string),
  kind: optional(string),
  namespace: optional(string),
  name: string,
  sectionName: optional(string),
  port: optional(int),
});
export type ParentReference = NonNullable<Infer<typeof ParentReference>>;

export const Listener = message({
  name: string,
  hostname: optional(string),
  port: int,
  protocol: string,
  tls: raw,
  allowedRoutes: raw,
});

export const KubernetesGatewaySpec = message({
  gatewayClassName: string,
  listeners: list(Listener),
  addresses: list(message({ type: optional(string), value: string })),
  infrastructure: message({ labels: strings, annotations: strings, parametersRef: raw }),
});
export const kubernetesGateway = specReader(KubernetesGatewaySpec);

export const GatewayClassSpec = message({ controllerName: string, parametersRef: raw, description: optional(string) });
export const gatewayClass = specReader(GatewayClassSpec);

export const BackendRef = message({
  group: optional(string),
  kind: optional(string),
  name: string,
  namespace: optional(string),
  port: optional(int),
  weight: optional(int),
  filters: raw,
});

export const HTTPRouteSpec = message({
  parentRefs: list(ParentReference),
  hostnames: list(string),
  rules: list(message({ name: optional(string), matches: raw, filters: raw, backendRefs: list(BackendRef), timeouts: raw })),
});
export const httpRoute = specReader(HTTPRouteSpec);

/** A route's status: conditions per parent it attaches to (HTTPRoute, GRPCRoute, …). */
export const RouteStatus = message({
  parents: list(message({ parentRef: ParentReference, controllerName: string, conditions: list(Condition) })),
});
export const routeStatus = bodyReader(RouteStatus, 'status');
