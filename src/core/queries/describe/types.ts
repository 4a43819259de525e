// The structured description of a pod (or a Service) that `describe` returns: every fact
// istioctl x describe prints, each with the resource and field that produced it, plus the
// resources that almost apply. Plain data, so it crosses the worker boundary; text.ts prints
// it as istioctl does.

/** A resource, and optionally the field of it, that a fact comes from. */
export interface DescribeRef {
  kind: string;
  namespace: string;
  name: string;
  /** The store key (`<kindId>/<namespace>/<name>`), for linking. */
  resourceKey: string;
  /** Dotted field path inside the object (`spec.subsets[1].labels.version`). */
  fieldPath?: string;
}

export interface PodPortFact {
  port: number;
  /** The container port's protocol as the object holds it (TCP when the API server defaulted it). */
  protocol: string;
  container: string;
  source: DescribeRef;
}

/** A warning line of printPod (container readiness, UID 1337, not meshed, missing labels). */
export interface PodWarning {
  type: 'uid1337Container' | 'uid1337Pod' | 'containerNotReady' | 'initContainerNotReady' | 'notMeshed' | 'noCanonicalName' | 'noCanonicalRevision';
  container?: string;
  source?: DescribeRef;
}

export interface PodFacts {
  ref: DescribeRef;
  /** istioctl's kname: `name` in the describe namespace, else `name.namespace`. */
  kname: string;
  /** For a pod derived from a controller: the controller (the facts' field paths are the template's). */
  derivedFrom?: { kind: string; namespace: string; name: string };
  /** GetRevisionFromPodAnnotation: the `istio.io/rev` annotation, else the injector status' revision ('' when neither). */
  revision: string;
  ports: PodPortFact[];
  /** status.phase ('' when the object has no status: taken as Running, as the files describe live pods). */
  phase: string;
  /** How the pod joins the mesh (istioctl only knows sidecars; ambient pods read as not meshed to it). */
  meshMode: 'sidecar' | 'ambient' | 'none';
  meshReason: string;
  /** Whether istioctl sees a sidecar (an `istio-proxy` container or init container). */
  hasSidecar: boolean;
  warnings: PodWarning[];
}

export interface ServicePortFact {
  name: string;
  port: number;
  protocol: string;
  /** findProtocolForPort: `auto-detect`, or Istio's protocol of the port. */
  istioProtocol: string;
  /** The pod port it targets (FindPort), or the error istioctl prints in its place. */
  targetPort?: number;
  error?: string;
  /** UDP (or any non-TCP) ports are skipped by istioctl's printService. */
  skipped: boolean;
  source: DescribeRef;
}

export interface SubsetFact {
  name: string;
  matches: boolean;
  source: DescribeRef;
}

export interface TrafficPolicyFacts {
  tlsMode?: string;
  /** `load balancer`, `connection pool`, `outlier detection`, in that order, when set. */
  policies: string[];
  portLevel?: Array<{ port: number; tlsMode?: string; policies: string[]; source: DescribeRef }>;
  source: DescribeRef;
}

export interface DestinationRuleFacts {
  ref: DescribeRef;
  kname: string;
  host: string;
  subsets: SubsetFact[];
  trafficPolicy?: TrafficPolicyFacts;
}

/** One fact istioctl prints about a VirtualService route (httpRouteMatchSvc / tcpRouteMatchSvc). */
export type RouteFact =
  | { type: 'destination'; host: string; subset: string; weight: number; source: DescribeRef }
  | { type: 'otherHost'; host: string; weight: number; source: DescribeRef }
  | { type: 'invalidConfig'; host: string; source: DescribeRef }
  | { type: 'conditions'; fault?: string; matches: string[]; source: DescribeRef }
  | { type: 'tcpMatch'; text: string; source: DescribeRef }
  | { type: 'nonMatchingSubset'; subset: string; matches: string; source: DescribeRef }
  | { type: 'noDestinationRule'; subset: string; source: DescribeRef }
  | { type: 'unknownSubset'; subset: string; destinationRule: string; source: DescribeRef };

export interface RouteFacts {
  protocol: 'http' | 'tcp';
  index: number;
  /** Whether a destination of the route reaches the pod. */
  reaches: boolean;
  facts: RouteFact[];
}

export interface VirtualServiceFacts {
  ref: DescribeRef;
  kname: string;
  routes: RouteFacts[];
  httpRoutes: number;
  tcpRoutes: number;
  tlsRoutes: number;
  /**
   * printVirtualService's verdict: no route reaches the pod (`none`), some do (`some`, with
   * how many do not), or all do (`all`).
   */
  verdict: 'none' | 'some' | 'all';
}

export interface StaleWarning {
  kind: 'destination rule' | 'virtual service' | 'gateway';
  namespace: string;
  name: string;
}

export interface ServicePortDescription {
  port: number;
  destinationRule?: DestinationRuleFacts;
  virtualService?: VirtualServiceFacts;
  /** RBAC policy names on the inbound HTTP connection manager (`ns[default]-policy[x]-rule[0]`). */
  rbacPolicies: string[];
  stale: StaleWarning[];
}

export interface ServiceDescription {
  ref: DescribeRef;
  kname: string;
  ports: ServicePortFact[];
  byPort: ServicePortDescription[];
}

export interface PeerAuthenticationFacts {
  mode: string;
  perPort: Array<{ port: number; mode: string }>;
  /** The PeerAuthentications whose selector matches the pod (root namespace's, then the pod's), as istioctl lists them. */
  applied: DescribeRef[];
  /** The policies that decided the effective mode. */
  decidedBy: DescribeRef[];
}

export interface IngressExposure {
  service: DescribeRef;
  /** `http://<ip>[:port]` lines of printIngressService. */
  urls: string[];
  ip: string;
}

/** One thing printIngressInfo prints, in its order. */
export type IngressEvent =
  | { type: 'exposure'; gateway: DescribeRef; ingresses: IngressExposure[]; virtualService: VirtualServiceFacts }
  /** A Gateway without a selector: istioctl says it "be applied all workloads" (without a newline). */
  | { type: 'selectorless'; gateway: DescribeRef }
  | { type: 'stale'; stale: StaleWarning };

export interface IngressFacts {
  /** Why istioctl skips the gateway part: no gateway pods (it stops), or no gateway Service (it says so and goes on). */
  skipped?: 'no ingress gateway pods' | 'no ingress gateway service';
  events: IngressEvent[];
  /** Why a gateway's Envoy config could not be read (istioctl fails there). */
  error?: string;
}

/** Why a resource nearly applies to the pod. */
export type AlmostReason =
  | { type: 'labelValue'; key: string; want: string; have: string; fieldPath: string }
  | { type: 'labelKey'; key: string; podKey: string; value: string; fieldPath: string }
  | { type: 'namespace'; resourceNamespace: string; podNamespace: string }
  | { type: 'exportTo'; exportTo: string[]; podNamespace: string; fieldPath: string }
  | { type: 'host'; host: string; service: string; fieldPath: string };

export interface AlmostApplies {
  ref: DescribeRef;
  /** What it would do: select the pod, define a subset of it, route to its Service. */
  what: string;
  reasons: AlmostReason[];
  /** One sentence. */
  message: string;
}

export interface PodDescription {
  /** The namespace names are printed relative to (istioctl's -n, default `default`). */
  describeNamespace: string;
  pod: PodFacts;
  /** The Services whose selector matches the pod, by name. */
  services: ServiceDescription[];
  /** istioctl's "No Kubernetes Services select pod" warning. */
  noServices: boolean;
  /** Why there is no Envoy config to read (no sidecar, or generation failed); istioctl fails there. */
  proxyError?: string;
  peerAuthentication?: PeerAuthenticationFacts;
  ingress?: IngressFacts;
  almostApplies: AlmostApplies[];
  /** Where this description departs from what istioctl would read on a cluster. */
  notes: string[];
}

export interface ServiceOnlyDescription {
  describeNamespace: string;
  service: DescribeRef;
  kname: string;
  /** istioctl's early outcomes: no pods at all, or none with a ready sidecar. */
  outcome: 'described' | 'noPods' | 'noIstioPods';
  selectedPods: number;
  /** Per-pod lines istioctl prints while filtering the selected pods. */
  podLines: string[];
  services: ServiceDescription[];
  proxyError?: string;
  ingress?: IngressFacts;
}
