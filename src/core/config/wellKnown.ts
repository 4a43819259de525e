// Istio's well-known label, annotation and object names, in one place.

/** Namespace label that turns sidecar injection on (`enabled`) or off (anything else). */
export const INJECTION_LABEL = 'istio-injection';
export const INJECTION_ENABLED = 'enabled';
/** Revision label on namespaces and pods: which control plane injects them. */
export const REVISION_LABEL = 'istio.io/rev';
/** Pod label (and legacy annotation) that forces injection on or off for one pod. */
export const SIDECAR_INJECT = 'sidecar.istio.io/inject';
/** Namespace or pod label enrolling workloads in ambient mode (`ambient`, or `none` to opt out). */
export const DATAPLANE_MODE_LABEL = 'istio.io/dataplane-mode';
export const DATAPLANE_MODE_AMBIENT = 'ambient';
export const DATAPLANE_MODE_NONE = 'none';
/** Pod annotation istio-cni writes on pods whose traffic it redirects to ztunnel. */
export const AMBIENT_REDIRECTION_ANNOTATION = 'ambient.istio.io/redirection';
export const AMBIENT_REDIRECTION_ENABLED = 'enabled';
/** Annotation the injector writes on the pods it injected. */
export const SIDECAR_STATUS_ANNOTATION = 'sidecar.istio.io/status';
/** Labels the injector adds. */
export const TLS_MODE_LABEL = 'security.istio.io/tlsMode';
export const CANONICAL_NAME_LABEL = 'service.istio.io/canonical-name';
export const CANONICAL_REVISION_LABEL = 'service.istio.io/canonical-revision';
/** Label binding a namespace, service or pod to a waypoint. */
export const USE_WAYPOINT_LABEL = 'istio.io/use-waypoint';
/** Pod annotation naming a proxy image that overrides the injector's. */
export const PROXY_IMAGE_ANNOTATION = 'sidecar.istio.io/proxyImage';
/** Pod annotation holding a ProxyConfig (YAML or JSON) for the pod's proxy. */
export const PROXY_CONFIG_ANNOTATION = 'proxy.istio.io/config';
/** Label on objects Istio's gateway controllers create, naming the controller. */
export const GATEWAY_MANAGED_LABEL = 'gateway.istio.io/managed';
export const GATEWAY_CONTROLLER = 'istio.io-gateway-controller';
/** Waypoints. */
export const MESH_GATEWAY_CONTROLLER = 'istio.io-mesh-controller';
export const EASTWEST_GATEWAY_CONTROLLER = 'istio.io-eastwest-controller';

/** Service annotation limiting the namespaces that see a Kubernetes Service (`.`, `*` or names, comma-separated). */
export const EXPORT_TO_ANNOTATION = 'networking.istio.io/exportTo';

/** Node topology labels that give a workload its locality, and the node's hostname label. */
export const TOPOLOGY_REGION_LABEL = 'topology.kubernetes.io/region';
export const TOPOLOGY_ZONE_LABEL = 'topology.kubernetes.io/zone';
export const TOPOLOGY_SUBZONE_LABEL = 'topology.istio.io/subzone';
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
/** Labels Istio's registry adds to endpoints for their cluster and network. */
export const TOPOLOGY_CLUSTER_LABEL = 'topology.istio.io/cluster';
export const TOPOLOGY_NETWORK_LABEL = 'topology.istio.io/network';

/** Istio's control plane namespace (constants.IstioSystemNamespace), where some policies apply mesh-wide. */
export const ISTIO_SYSTEM_NAMESPACE = 'istio-system';
export const ISTIO_PROXY_CONTAINER = 'istio-proxy';
/** The init container that sets up traffic redirection when istio-cni does not. */
export const ISTIO_INIT_CONTAINER = 'istio-init';
/** The container of Istio's (legacy) in-cluster operator. */
export const ISTIO_OPERATOR_CONTAINER = 'istio-operator';
export const INJECTOR_CONFIGMAP = 'istio-sidecar-injector';
/** The user id of the proxy; applications must not run as it. */
export const PROXY_UID = 1337;

/** Namespaces the injector never injects. */
export const INJECTION_IGNORED_NAMESPACES = new Set(['kube-system', 'kube-public', 'kube-node-lease', 'local-path-storage']);

/** Label the Gateway API deployment controller puts on a Kubernetes Gateway's pods (value: the Gateway's name). */
export const GATEWAY_NAME_LABEL = 'gateway.networking.k8s.io/gateway-name';
/** Annotation on Gateway API CRDs giving the release bundle they come from. */
export const GATEWAY_API_BUNDLE_VERSION_ANNOTATION = 'gateway.networking.k8s.io/bundle-version';
/** Label on the Secrets that hold remote clusters' kubeconfigs (`true`); each data key names a cluster. */
export const MULTICLUSTER_SECRET_LABEL = 'istio/multiCluster';
