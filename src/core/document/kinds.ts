// Registry of the Kubernetes and Istio kinds we understand. An analyzer names its inputs
// by kind id; a document is mapped to a kind by group + kind, and its version must be the
// schema version or one of the accepted aliases (as Istio's collections do).
import { mapAt } from './maps.ts';

export interface KindInfo {
  /** `<group>/<Kind>`, with `core` for the empty group. */
  id: string;
  group: string;
  kind: string;
  /** Schema version (the one Istio stores). */
  version: string;
  /** Other versions that map to the same schema. */
  versionAliases: string[];
  clusterScoped: boolean;
  /** Synthetic kinds never come from files (MeshConfig, MeshNetworks). */
  synthetic?: boolean;
}

function kind(group: string, kindName: string, version: string, aliases: string[] = [], clusterScoped = false): KindInfo {
  return { id: `${group || 'core'}/${kindName}`, group, kind: kindName, version, versionAliases: aliases, clusterScoped };
}

const ISTIO_NET_ALIASES = ['v1beta1', 'v1alpha3'];
const ISTIO_SEC_ALIASES = ['v1beta1'];
const GW_API_ALIASES = ['v1beta1', 'v1alpha2'];

export const KINDS = {
  // Istio networking
  VirtualService: kind('networking.istio.io', 'VirtualService', 'v1', ISTIO_NET_ALIASES),
  DestinationRule: kind('networking.istio.io', 'DestinationRule', 'v1', ISTIO_NET_ALIASES),
  Gateway: kind('networking.istio.io', 'Gateway', 'v1', ISTIO_NET_ALIASES),
  ServiceEntry: kind('networking.istio.io', 'ServiceEntry', 'v1', ISTIO_NET_ALIASES),
  Sidecar: kind('networking.istio.io', 'Sidecar', 'v1', ISTIO_NET_ALIASES),
  WorkloadEntry: kind('networking.istio.io', 'WorkloadEntry', 'v1', ISTIO_NET_ALIASES),
  WorkloadGroup: kind('networking.istio.io', 'WorkloadGroup', 'v1', ISTIO_NET_ALIASES),
  EnvoyFilter: kind('networking.istio.io', 'EnvoyFilter', 'v1alpha3'),
  ProxyConfig: kind('networking.istio.io', 'ProxyConfig', 'v1beta1'),
  // Istio security / telemetry / extensions
  AuthorizationPolicy: kind('security.istio.io', 'AuthorizationPolicy', 'v1', ISTIO_SEC_ALIASES),
  PeerAuthentication: kind('security.istio.io', 'PeerAuthentication', 'v1', ISTIO_SEC_ALIASES),
  RequestAuthentication: kind('security.istio.io', 'RequestAuthentication', 'v1', ISTIO_SEC_ALIASES),
  Telemetry: kind('telemetry.istio.io', 'Telemetry', 'v1', ['v1alpha1']),
  WasmPlugin: kind('extensions.istio.io', 'WasmPlugin', 'v1alpha1'),
  TrafficExtension: kind('extensions.istio.io', 'TrafficExtension', 'v1alpha1'),
  // Gateway API
  KubernetesGateway: kind('gateway.networking.k8s.io', 'Gateway', 'v1', GW_API_ALIASES),
  GatewayClass: kind('gateway.networking.k8s.io', 'GatewayClass', 'v1', GW_API_ALIASES, true),
  HTTPRoute: kind('gateway.networking.k8s.io', 'HTTPRoute', 'v1', GW_API_ALIASES),
  GRPCRoute: kind('gateway.networking.k8s.io', 'GRPCRoute', 'v1', GW_API_ALIASES),
  TCPRoute: kind('gateway.networking.k8s.io', 'TCPRoute', 'v1', ['v1alpha2']),
  TLSRoute: kind('gateway.networking.k8s.io', 'TLSRoute', 'v1', ['v1alpha2']),
  UDPRoute: kind('gateway.networking.k8s.io', 'UDPRoute', 'v1alpha2'),
  ReferenceGrant: kind('gateway.networking.k8s.io', 'ReferenceGrant', 'v1beta1', ['v1alpha2']),
  BackendTLSPolicy: kind('gateway.networking.k8s.io', 'BackendTLSPolicy', 'v1', ['v1alpha3']),
  ListenerSet: kind('gateway.networking.k8s.io', 'ListenerSet', 'v1'),
  XBackend: kind('gateway.networking.x-k8s.io', 'XBackend', 'v1alpha1'),
  XBackendTrafficPolicy: kind('gateway.networking.x-k8s.io', 'XBackendTrafficPolicy', 'v1alpha1'),
  InferencePool: kind('inference.networking.k8s.io', 'InferencePool', 'v1'),
  // Kubernetes core
  Pod: kind('', 'Pod', 'v1'),
  Service: kind('', 'Service', 'v1'),
  Namespace: kind('', 'Namespace', 'v1', [], true),
  Node: kind('', 'Node', 'v1', [], true),
  Secret: kind('', 'Secret', 'v1'),
  ConfigMap: kind('', 'ConfigMap', 'v1'),
  Endpoints: kind('', 'Endpoints', 'v1'),
  ServiceAccount: kind('', 'ServiceAccount', 'v1'),
  EndpointSlice: kind('discovery.k8s.io', 'EndpointSlice', 'v1'),
  Deployment: kind('apps', 'Deployment', 'v1'),
  StatefulSet: kind('apps', 'StatefulSet', 'v1'),
  DaemonSet: kind('apps', 'DaemonSet', 'v1'),
  ReplicaSet: kind('apps', 'ReplicaSet', 'v1'),
  Job: kind('batch', 'Job', 'v1'),
  CronJob: kind('batch', 'CronJob', 'v1'),
  Ingress: kind('networking.k8s.io', 'Ingress', 'v1'),
  IngressClass: kind('networking.k8s.io', 'IngressClass', 'v1', [], true),
  MutatingWebhookConfiguration: kind('admissionregistration.k8s.io', 'MutatingWebhookConfiguration', 'v1', [], true),
  ValidatingWebhookConfiguration: kind('admissionregistration.k8s.io', 'ValidatingWebhookConfiguration', 'v1', [], true),
  CustomResourceDefinition: kind('apiextensions.k8s.io', 'CustomResourceDefinition', 'v1', [], true),
  // Synthetic inputs built from mesh config (never read from files as such)
  MeshConfig: { ...kind('', 'MeshConfig', 'v1alpha1'), id: 'synthetic/MeshConfig', synthetic: true },
  MeshNetworks: { ...kind('', 'MeshNetworks', 'v1alpha1'), id: 'synthetic/MeshNetworks', synthetic: true },
} satisfies Record<string, KindInfo>;

export type KindName = keyof typeof KINDS;

const byId = new Map<string, KindInfo>();
// By group, then kind: a lookup per resource, and two lookups with the parsed strings cost
// less than building and hashing a `group/kind` text each time.
const byGroupKind = new Map<string, Map<string, KindInfo>>();
for (const info of Object.values(KINDS) as KindInfo[]) {
  byId.set(info.id, info);
  if (!info.synthetic) mapAt(byGroupKind, info.group).set(info.kind, info);
}

export function kindById(id: string): KindInfo | undefined {
  return byId.get(id);
}

/** Splits `apiVersion` into group and version (`v1` → core group). */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.lastIndexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The registry entry for a group/kind, whatever its version. */
export function kindByGroupKind(group: string, kindName: string): KindInfo | undefined {
  return byGroupKind.get(group)?.get(kindName);
}

/** True when `version` is the schema version or an accepted alias of it. */
export function versionAccepted(info: KindInfo, version: string): boolean {
  return info.version === version || info.versionAliases.includes(version);
}

/** Namespaces Istio never analyzes (resources there are dropped from file input). */
export const IGNORED_NAMESPACES = new Set(['kube-system', 'kube-public', 'kube-node-lease', 'local-path-storage']);
