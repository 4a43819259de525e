// The Gateway API conversion's inputs and outputs (convert.ts exports them): the options and service
// registry it reads, and the Istio config and statuses it writes.
import type { Json } from './objects.ts';

/** A service as istiod's registry knows it (model.Service plus its endpoints). */
export interface RegistryService {
  hostname: string;
  namespace: string;
  ports: readonly { name: string; port: number }[];
  /** Endpoint (workload) ports behind each service port number; absent or empty: no endpoints. */
  endpointPorts: ReadonlyMap<number, readonly number[]>;
  /** Cluster VIPs. */
  addresses: readonly string[];
  /** LoadBalancer ingress / external IPs. */
  externalAddresses: readonly string[];
  loadBalancer: boolean;
  labels: Readonly<Record<string, string>>;
}

export interface ServiceRegistry {
  /** Every service with this hostname, one per namespace that defines it. */
  byHostname(hostname: string): readonly RegistryService[];
}

export interface ConvertOptions {
  domainSuffix: string;
  registry: ServiceRegistry;
  /** Written as every condition's lastTransitionTime. */
  now: string;
  /** EnableAmbient: routes report the ResolvedWaypoints condition. */
  ambient?: boolean;
  /** EnableAmbientWaypoints (default true): the `istio-waypoint` class. */
  waypoints?: boolean;
  /** PILOT_MULTI_NETWORK_DISCOVER_GATEWAY_API (default true): the `istio-remote` class. */
  multiNetwork?: boolean;
  /** EnableAmbientMultiNetwork (default false): the `istio-east-west` class. */
  eastWest?: boolean;
  /** PILOT_ENABLE_ALPHA_GATEWAY_API (default false): XBackend and XBackendTrafficPolicy. */
  alpha?: boolean;
  /** ENABLE_GATEWAY_API_INFERENCE_EXTENSION (default false): InferencePool backends. */
  inferenceExtension?: boolean;
}

/** An Istio config object generated from Gateway API objects. */
export interface IstioConfig {
  apiVersion: string;
  kind: 'Gateway' | 'VirtualService' | 'DestinationRule';
  metadata: { annotations: Record<string, string>; creationTimestamp?: string; name: string; namespace: string };
  spec: Json;
  /** Creation time of the object it came from (ms), for istiod's ordering. */
  created: number;
}

/** A status istiod writes back, in the shape of the object it belongs to. */
export interface StatusWrite {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  created: number;
  status: Json;
}

export interface GatewayApiResult {
  /** Istio Gateways (valid listeners only), sorted by creation time, namespace, name. */
  gateways: IstioConfig[];
  virtualServices: IstioConfig[];
  destinationRules: IstioConfig[];
  statuses: StatusWrite[];
  /** Every GatewayClass used: given ones and the built-in ones assumed (`assumed: true`). */
  classes: { name: string; controller: string; assumed: boolean }[];
}
