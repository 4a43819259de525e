// Shared types of the xDS generator: plain JSON objects in Envoy's proto3 JSON form
// (lowerCamelCase field names, enum names as strings, `@type` on Any), the proxy being
// generated for, and the generation options.
import type { Resource } from '../document/types.ts';
import type { LabelMap } from '../config/labels.ts';
import type { Obj } from '../document/read.ts';

/** A JSON object as Envoy's proto3 JSON mapping writes it. */
/** An untyped JSON object: the one such type (document/read.ts Obj), under the name this module has always used. */
export type Json = Obj;

export type ProxyType = 'sidecar' | 'router' | 'waypoint';
export type InterceptionMode = 'REDIRECT' | 'TPROXY' | 'NONE';

/** Istio's model.Proxy: what generation reads of the proxy it generates for (spec §0.2). */
export interface Proxy {
  /** `<pod>.<namespace>` (the xDS node id without the type and IP). */
  id: string;
  type: ProxyType;
  /** First is the pod IP; the IP family decides the wildcard (`0.0.0.0` or `::`). */
  ipAddresses: readonly string[];
  /** Namespace used for Sidecar, VirtualService and DestinationRule scoping. */
  configNamespace: string;
  /** The workload's namespace (metadata namespace): policy selection. */
  namespace: string;
  labels: LabelMap;
  /** `<ns>.svc.<domain suffix>`: drives short-name virtual host domains. */
  dnsDomain: string;
  istioVersion: string;
  interceptionMode: InterceptionMode;
  locality: { region: string; zone: string; subzone: string };
  network: string;
  /** The cluster the proxy runs in ('' = none: every service's default address is used). */
  clusterId: string;
  serviceAccount: string;
  /** The Pod the proxy runs in (real or derived), when it comes from the workspace. */
  workload?: Resource;
  workloadName: string;
  nodeName: string;
  /** Proxy metadata that changes generation (ISTIO_META_DNS_CAPTURE, …). */
  metadata: {
    dnsCapture?: boolean;
    dnsAutoAllocate?: boolean;
    httpProxyPort?: number;
    idleTimeout?: string;
    http10?: boolean;
    /** ENVOY_STATUS_PORT / ENVOY_PROMETHEUS_PORT: the agent's static listeners (15021, 15090; unset in Istio's test harness). */
    envoyStatusPort?: number;
    envoyPrometheusPort?: number;
    /** UNPRIVILEGED_POD: the proxy cannot bind ports below 1024. */
    unprivileged?: boolean;
    /** MESH_ID (ISTIO_META_MESH_ID, which the injector sets to global.meshID or the trust domain). */
    meshId?: string;
  };
}

/** Generation options beyond the workspace (harness quirks and feature flags). */
export interface GenerateOptions {
  /**
   * The domain suffix short host names in Istio config objects expand with
   * (`reviews` → `reviews.<ns>.svc.<suffix>`). Istio's unit-test harness loads config without
   * one, so `reviews` becomes `reviews.<ns>` there; real clusters use `cluster.local`.
   */
  configDomainSuffix?: string;
  /** Feature flags (spec §0.4) that differ from this snapshot's defaults. */
  features?: Partial<FeatureFlags>;
  /**
   * Give Kubernetes Services written without `spec.clusterIP` the address the API server would
   * allocate (config/services.ts assumedClusterIps; default true). Istio's unit-test harness
   * has no API server, so those services keep `0.0.0.0` there.
   */
  assumeClusterIps?: boolean;
  /**
   * Add the Service (and pods) istiod's deployment controller creates for each Kubernetes
   * Gateway of class `istio` whose objects the files do not hold (config/services.ts
   * assumedGatewayDeployments). Defaults to `assumeClusterIps`: Istio's unit-test harness runs
   * no deployment controller either.
   */
  assumeGatewayDeployments?: boolean;
}

export interface FeatureFlags {
  ISTIO_DUAL_STACK: boolean;
  PILOT_ENABLE_HEADLESS_FILTER_CHAIN_LISTENER: boolean;
  PILOT_ENABLE_EDS_FOR_HEADLESS_SERVICES: boolean;
  PILOT_HTTP10: boolean;
  PILOT_SIDECAR_USE_REMOTE_ADDRESS: boolean;
  PILOT_FILTER_GATEWAY_CLUSTER_CONFIG: boolean;
  ENABLE_TLS_ON_SIDECAR_INGRESS: boolean;
  PILOT_ENABLE_ABSOLUTE_FQDN_VHOST_DOMAIN: boolean;
  PILOT_ENABLE_ROUTE_COLLAPSE_OPTIMIZATION: boolean;
  PILOT_ENABLE_METADATA_EXCHANGE: boolean;
  PILOT_ENABLE_ALPN_FILTER: boolean;
  PILOT_ENABLE_TELEMETRY_LABEL: boolean;
  PILOT_ENDPOINT_TELEMETRY_LABEL: boolean;
  PILOT_ENABLE_MONGO_FILTER: boolean;
  PILOT_ENABLE_IP_AUTOALLOCATE: boolean;
  /** pilot/pkg/features/experimental.go: send unhealthy endpoints for every service (default true). */
  PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS: boolean;
  /** pilot/pkg/features/experimental.go: force sending unhealthy endpoints process-wide (default false). */
  PILOT_SEND_UNHEALTHY_ENDPOINTS: boolean;
}

export const DEFAULT_FEATURES: FeatureFlags = {
  ISTIO_DUAL_STACK: false,
  PILOT_ENABLE_HEADLESS_FILTER_CHAIN_LISTENER: false,
  PILOT_ENABLE_EDS_FOR_HEADLESS_SERVICES: false,
  PILOT_HTTP10: false,
  PILOT_SIDECAR_USE_REMOTE_ADDRESS: false,
  PILOT_FILTER_GATEWAY_CLUSTER_CONFIG: false,
  ENABLE_TLS_ON_SIDECAR_INGRESS: false,
  PILOT_ENABLE_ABSOLUTE_FQDN_VHOST_DOMAIN: true,
  PILOT_ENABLE_ROUTE_COLLAPSE_OPTIMIZATION: true,
  PILOT_ENABLE_METADATA_EXCHANGE: true,
  PILOT_ENABLE_ALPN_FILTER: true,
  PILOT_ENABLE_TELEMETRY_LABEL: true,
  PILOT_ENDPOINT_TELEMETRY_LABEL: true,
  PILOT_ENABLE_MONGO_FILTER: true,
  PILOT_ENABLE_IP_AUTOALLOCATE: true,
  PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS: true,
  PILOT_SEND_UNHEALTHY_ENDPOINTS: false,
};

/** Where a piece of generated config comes from: a resource, and the field that made it. */
export interface ProvenanceRef {
  /** The Resource key (`<kindId>/<namespace>/<name>`), or '' for built-in defaults. */
  resourceKey: string;
  /** A path in the resource (`spec.http[0].route[1]`). */
  fieldPath?: string;
  /** What the piece is, when there is no resource (e.g. "default route", "mesh config"). */
  note?: string;
}
