// Istio's analysis message catalog (codes, names, levels and Go fmt templates identical to
// pkg/config/analysis/msg/messages.yaml, so rendered text matches istioctl byte for byte).
// The descriptions are our own short explanations, shown on hover in the editor.
import type { Level } from '../document/types.ts';
import type { AnyMessageType, MessageType } from './types.ts';

/** The TypeScript type of a parameter, from its Go type in Istio's catalog. */
type ParamType<G extends string> = G extends 'string' | 'error'
  ? string
  : G extends 'int' | 'int32'
    ? number
    : G extends '[]string'
      ? readonly string[]
      : G extends '[]int' | '[]int32'
        ? readonly number[]
        : never;

type ParamsOf<A extends ReadonlyArray<readonly [string, string]>> = {
  -readonly [K in keyof A]: A[K] extends readonly [string, infer G extends string] ? ParamType<G> : never;
};

function msg<const A extends ReadonlyArray<readonly [string, string]>>(
  code: string,
  name: string,
  level: Level,
  template: string,
  args: A,
  description: string,
): MessageType<ParamsOf<A>> {
  const type: MessageType<ParamsOf<A>> = {
    code,
    name,
    level,
    template,
    args: args.map(([n, t]) => ({ name: n, type: t })),
    description,
    at: (resource, ...params) => ({ type, params, resource }),
  };
  return type;
}

export const MESSAGES = {
  InternalError: msg(
    'IST0001',
    'InternalError',
    'Error',
    'Internal error: %v',
    [['detail', 'string']],
    'The analyzer hit an unexpected problem and could not finish checking this resource, so results may be incomplete. It is usually not a mistake in your YAML; retry, and report it if it keeps happening.',
  ),
  Deprecated: msg(
    'IST0002',
    'Deprecated',
    'Warning',
    'Deprecated: %s',
    [['detail', 'string']],
    'This resource uses a field or setting that is deprecated and may be removed in a future Istio release. Move to the replacement named in the message before upgrading.',
  ),
  ReferencedResourceNotFound: msg(
    'IST0101',
    'ReferencedResourceNotFound',
    'Error',
    'Referenced %s not found: %q',
    [
      ['reftype', 'string'],
      ['refval', 'string'],
    ],
    'This resource points at another object (such as a Secret, Gateway, Service or subset) that does not exist where Istio looks for it. Fix the name or namespace in the reference, or create the missing object.',
  ),
  NamespaceNotInjected: msg(
    'IST0102',
    'NamespaceNotInjected',
    'Info',
    "The namespace is not enabled for Istio injection. Run 'kubectl label namespace %s istio-injection=enabled' to enable it, or 'kubectl label namespace %s istio-injection=disabled' to explicitly mark it as not needing injection.",
    [
      ['namespace', 'string'],
      ['namespace2', 'string'],
    ],
    'Pods in this namespace will not get an Istio sidecar because the namespace has no injection label. Label it istio-injection=enabled to join the mesh, or istio-injection=disabled to say explicitly that it stays out.',
  ),
  PodMissingProxy: msg(
    'IST0103',
    'PodMissingProxy',
    'Warning',
    'The pod %s is missing the Istio proxy. This can often be resolved by restarting or redeploying the workload.',
    [['podName', 'string']],
    'This pod should have the Istio sidecar but is running without one, usually because it started before injection was turned on. Restart or roll out the workload again so the new pods are injected.',
  ),
  SchemaValidationError: msg(
    'IST0106',
    'SchemaValidationError',
    'Error',
    'Schema validation error: %v',
    [['err', 'error']],
    "The resource breaks Istio's schema rules (wrong type, missing required field, invalid value) and the API server or Istio will reject it. Correct the field named in the message.",
  ),
  MisplacedAnnotation: msg(
    'IST0107',
    'MisplacedAnnotation',
    'Warning',
    'Misplaced annotation: %s can only be applied to %s',
    [
      ['annotation', 'string'],
      ['kind', 'string'],
    ],
    'This Istio annotation is set on a kind of resource where it has no effect. Move it to the resource kind named in the message, for example from a Deployment to its pod template.',
  ),
  UnknownAnnotation: msg(
    'IST0108',
    'UnknownAnnotation',
    'Warning',
    'Unknown annotation: %s',
    [['annotation', 'string']],
    "This annotation uses an Istio prefix but is not one Istio recognizes, so it is ignored. Check the spelling against Istio's annotation reference or remove it.",
  ),
  ConflictingMeshGatewayVirtualServiceHosts: msg(
    'IST0109',
    'ConflictingMeshGatewayVirtualServiceHosts',
    'Error',
    'The VirtualServices %s associated with mesh gateway define the same host %s which can lead to undefined behavior. This can be fixed by merging the conflicting VirtualServices into a single resource.',
    [
      ['virtualServices', 'string'],
      ['host', 'string'],
    ],
    'Several VirtualServices that apply to in-mesh traffic claim the same host, so which routes win is unpredictable. Combine their routes into one VirtualService for that host.',
  ),
  ConflictingSidecarWorkloadSelectors: msg(
    'IST0110',
    'ConflictingSidecarWorkloadSelectors',
    'Error',
    'The Sidecars %v in namespace %q select the same workload pod %q, which can lead to undefined behavior.',
    [
      ['conflictingSidecars', '[]string'],
      ['namespace', 'string'],
      ['workloadPod', 'string'],
    ],
    'More than one Sidecar resource in this namespace selects the same pod, and Istio will not pick between them reliably. Make the workload selectors disjoint or merge the Sidecars into one.',
  ),
  MultipleSidecarsWithoutWorkloadSelectors: msg(
    'IST0111',
    'MultipleSidecarsWithoutWorkloadSelectors',
    'Error',
    'The Sidecars %v in namespace %q have no workload selector, which can lead to undefined behavior.',
    [
      ['conflictingSidecars', '[]string'],
      ['namespace', 'string'],
    ],
    'A namespace can have only one Sidecar without a workload selector (the namespace default), but this one has several. Keep a single default Sidecar and give the others selectors, or merge them.',
  ),
  VirtualServiceDestinationPortSelectorRequired: msg(
    'IST0112',
    'VirtualServiceDestinationPortSelectorRequired',
    'Error',
    'This VirtualService routes to a service %q that exposes multiple ports %v. Specifying a port in the destination is required to disambiguate.',
    [
      ['destHost', 'string'],
      ['destPorts', '[]int'],
    ],
    'The destination service listens on more than one port, so Istio cannot tell which port this route should send traffic to. Add port.number to the route destination.',
  ),
  DeploymentAssociatedToMultipleServices: msg(
    'IST0116',
    'DeploymentAssociatedToMultipleServices',
    'Warning',
    'This deployment %s is associated with multiple services using port %d but different protocols: %v',
    [
      ['deployment', 'string'],
      ['port', 'int32'],
      ['services', '[]string'],
    ],
    "Several Services select this deployment on the same port but declare different protocols for it, which confuses Istio's protocol detection. Make the Services agree on one protocol for that port.",
  ),
  PortNameIsNotUnderNamingConvention: msg(
    'IST0118',
    'PortNameIsNotUnderNamingConvention',
    'Info',
    "Port name %s (port: %d, targetPort: %s) doesn't follow the naming convention of Istio port.",
    [
      ['portName', 'string'],
      ['port', 'int'],
      ['targetPort', 'string'],
    ],
    "Istio cannot infer this port's protocol from its name, so it may treat the traffic as plain TCP. Name the port with a protocol prefix such as http-, grpc- or tcp-, or set appProtocol.",
  ),
  NamespaceMultipleInjectionLabels: msg(
    'IST0123',
    'NamespaceMultipleInjectionLabels',
    'Warning',
    'The namespace has more than one type of injection labels %v, which may lead to undefined behavior. Make sure only one injection label exists.',
    [['labels', '[]string']],
    'The namespace carries more than one sidecar injection label (for example istio-injection and istio.io/rev), so it is unclear which control plane injects. Keep only the label you mean and remove the others.',
  ),
  InvalidAnnotation: msg(
    'IST0125',
    'InvalidAnnotation',
    'Warning',
    'Invalid annotation %s: %s',
    [
      ['annotation', 'string'],
      ['problem', 'string'],
    ],
    'An Istio annotation is present but its value is not valid, so it will be ignored or misapplied. Fix the value as described in the message.',
  ),
  UnknownMeshNetworksServiceRegistry: msg(
    'IST0126',
    'UnknownMeshNetworksServiceRegistry',
    'Error',
    'Unknown service registry %s in network %s',
    [
      ['serviceregistry', 'string'],
      ['network', 'string'],
    ],
    'The meshNetworks configuration names a service registry (cluster) that Istio does not know about. Correct the registry name or register that cluster with the control plane.',
  ),
  NoMatchingWorkloadsFound: msg(
    'IST0127',
    'NoMatchingWorkloadsFound',
    'Warning',
    'No matching workloads for this resource with the following labels: %s',
    [['labels', 'string']],
    "This resource's selector does not match the labels of any running pod, so it currently affects nothing. Check the selector labels and namespace against the workloads you meant to target.",
  ),
  NoServerCertificateVerificationDestinationLevel: msg(
    'IST0128',
    'NoServerCertificateVerificationDestinationLevel',
    'Warning',
    'DestinationRule %s in namespace %s has TLS mode set to %s but no caCertificates are set to validate server identity for host: %s',
    [
      ['destinationrule', 'string'],
      ['namespace', 'string'],
      ['mode', 'string'],
      ['host', 'string'],
    ],
    "The DestinationRule enables TLS to this host but gives no CA certificate, so the server's identity is never checked and connections can be intercepted. Set caCertificates (or a credentialName holding a CA) in the TLS settings.",
  ),
  NoServerCertificateVerificationPortLevel: msg(
    'IST0129',
    'NoServerCertificateVerificationPortLevel',
    'Warning',
    'DestinationRule %s in namespace %s has TLS mode set to %s but no caCertificates are set to validate server identity for host: %s at port %s',
    [
      ['destinationrule', 'string'],
      ['namespace', 'string'],
      ['mode', 'string'],
      ['host', 'string'],
      ['port', 'string'],
    ],
    "A port-level TLS setting in this DestinationRule enables TLS but gives no CA certificate, so the server's identity on that port is never checked. Set caCertificates (or a credentialName holding a CA) for that port.",
  ),
  VirtualServiceUnreachableRule: msg(
    'IST0130',
    'VirtualServiceUnreachableRule',
    'Warning',
    'VirtualService rule %v not used (%s).',
    [
      ['ruleno', 'string'],
      ['reason', 'string'],
    ],
    'An earlier route in this VirtualService already catches every request this rule could match, so it never runs. Reorder the routes or tighten the earlier match, or delete the dead rule.',
  ),
  VirtualServiceIneffectiveMatch: msg(
    'IST0131',
    'VirtualServiceIneffectiveMatch',
    'Info',
    'VirtualService rule %v match %v is not used (duplicate/overlapping match in rule %v).',
    [
      ['ruleno', 'string'],
      ['matchno', 'string'],
      ['dupno', 'string'],
    ],
    'This match condition repeats or is covered by a match in an earlier rule, so it can never be the one that applies. Remove it or make it more specific than the earlier match.',
  ),
  VirtualServiceHostNotFoundInGateway: msg(
    'IST0132',
    'VirtualServiceHostNotFoundInGateway',
    'Warning',
    'one or more host %v defined in VirtualService %s not found in Gateway %s.',
    [
      ['host', '[]string'],
      ['virtualservice', 'string'],
      ['gateway', 'string'],
    ],
    "The VirtualService is bound to a Gateway but some of its hosts are not exposed by any server on that Gateway, so those routes are not served there. Add the hosts to the Gateway's servers or remove them from the VirtualService.",
  ),
  SchemaWarning: msg(
    'IST0133',
    'SchemaWarning',
    'Warning',
    'Schema validation warning: %v',
    [['err', 'error']],
    'The resource is accepted but uses a value or field combination Istio discourages, such as a deprecated field or a risky setting. Read the message and adjust the field if you can.',
  ),
  ServiceEntryAddressesRequired: msg(
    'IST0134',
    'ServiceEntryAddressesRequired',
    'Warning',
    'ServiceEntry addresses are required for this protocol.',
    [],
    'For plain TCP (or unset) protocols Istio needs a virtual IP to tell ServiceEntry hosts apart, and automatic IP allocation is not on, so traffic may go to the wrong place. Add addresses, enable IP auto-allocation, or use a protocol such as HTTP or TLS.',
  ),
  DeprecatedAnnotation: msg(
    'IST0135',
    'DeprecatedAnnotation',
    'Info',
    'Annotation %q has been deprecated%s and may not work in future Istio versions.',
    [
      ['annotation', 'string'],
      ['extra', 'string'],
    ],
    'This annotation still works for now but is deprecated and may stop working in a later Istio version. Switch to the replacement mentioned in the message, if any.',
  ),
  AlphaAnnotation: msg(
    'IST0136',
    'AlphaAnnotation',
    'Info',
    'Annotation %q is part of an alpha-phase feature and may be incompletely supported.',
    [['annotation', 'string']],
    'This annotation turns on an alpha feature that may change or be removed and is not fully supported. Use it only if you accept that risk.',
  ),
  DeploymentConflictingPorts: msg(
    'IST0137',
    'DeploymentConflictingPorts',
    'Warning',
    'This deployment %s is associated with multiple services %v using targetPort %q but different ports: %v.',
    [
      ['deployment', 'string'],
      ['services', '[]string'],
      ['targetPort', 'string'],
      ['ports', '[]int32'],
    ],
    'Several Services send traffic to the same container port of this deployment but expose it under different service port numbers, which Istio cannot handle consistently. Use the same service port for that targetPort in every Service.',
  ),
  GatewayDuplicateCertificate: msg(
    'IST0138',
    'GatewayDuplicateCertificate',
    'Warning',
    'Duplicate certificate in multiple gateways %v may cause 404s if clients re-use HTTP2 connections.',
    [['gateways', '[]string']],
    'Several Gateways serve the same TLS certificate, so browsers may reuse one HTTP/2 connection for hosts on another Gateway and get 404 errors. Give each Gateway its own certificate or merge the servers into one Gateway.',
  ),
  InvalidWebhook: msg(
    'IST0139',
    'InvalidWebhook',
    'Error',
    '%v',
    [['error', 'string']],
    "One of Istio's sidecar injection or validation webhooks is misconfigured, for example two webhooks match the same namespace or one points at a missing service. Fix or remove the webhook configuration named in the message.",
  ),
  IngressRouteRulesNotAffected: msg(
    'IST0140',
    'IngressRouteRulesNotAffected',
    'Warning',
    'Subset in virtual service %s has no effect on ingress gateway %s requests',
    [
      ['virtualservicesubset', 'string'],
      ['virtualservice', 'string'],
    ],
    'Another VirtualService splits this host into subsets, but this gateway-bound VirtualService routes to the host without a subset, so requests coming in through the gateway ignore that split. Repeat the subset routing here, or bind the other VirtualService to the gateway too.',
  ),
  InsufficientPermissions: msg(
    'IST0141',
    'InsufficientPermissions',
    'Error',
    'Missing required permission to create resource %v (%v)',
    [
      ['resource', 'string'],
      ['error', 'string'],
    ],
    'The account running the check lacks Kubernetes RBAC permission to create a resource that installing or running Istio needs. Run with an account that has those rights, such as cluster-admin.',
  ),
  UnsupportedKubernetesVersion: msg(
    'IST0142',
    'UnsupportedKubernetesVersion',
    'Error',
    'The Kubernetes Version %q is lower than the minimum version: %v',
    [
      ['version', 'string'],
      ['minimumVersion', 'string'],
    ],
    "The cluster's Kubernetes version is older than this Istio release supports. Upgrade Kubernetes, or install an Istio version that supports your cluster.",
  ),
  LocalhostListener: msg(
    'IST0143',
    'LocalhostListener',
    'Error',
    'Port %v is exposed in a Service but listens on localhost. It will not be exposed to other pods.',
    [['port', 'string']],
    'The application listens only on 127.0.0.1 or localhost for a port that a Service exposes, so other pods cannot reach it through the mesh. Make the application listen on 0.0.0.0 or the pod IP.',
  ),
  InvalidApplicationUID: msg(
    'IST0144',
    'InvalidApplicationUID',
    'Warning',
    'User ID (UID) 1337 is reserved for the sidecar proxy.',
    [],
    'The application container runs as user ID 1337, which Istio reserves for its proxy, so its traffic will skip the sidecar. Run the application under a different user ID.',
  ),
  ConflictingGateways: msg(
    'IST0145',
    'ConflictingGateways',
    'Error',
    'Conflict with gateways %s (workload selector %s, port %s, hosts %v).',
    [
      ['gateway', 'string'],
      ['selector', 'string'],
      ['portnumber', 'string'],
      ['hosts', 'string'],
    ],
    "Two or more Gateways select the same gateway workload on the same port for the same hosts, so one of them will not take effect. Merge them or change the port or hosts so they don't overlap.",
  ),
  ImageAutoWithoutInjectionWarning: msg(
    'IST0146',
    'ImageAutoWithoutInjectionWarning',
    'Warning',
    '%s %s contains `image: auto` but does not match any Istio injection webhook selectors.',
    [
      ['resourceType', 'string'],
      ['resourceName', 'string'],
    ],
    'This workload uses image: auto, which only works when the injection webhook fills in the proxy image, but its namespace or labels do not enable injection. Enable injection for it or set a real image.',
  ),
  ImageAutoWithoutInjectionError: msg(
    'IST0147',
    'ImageAutoWithoutInjectionError',
    'Error',
    '%s %s contains `image: auto` but does not match any Istio injection webhook selectors.',
    [
      ['resourceType', 'string'],
      ['resourceName', 'string'],
    ],
    'This workload uses image: auto, which only works when the injection webhook fills in the proxy image, but its namespace or labels do not enable injection, so its pods will fail to start. Enable injection for it or set a real image.',
  ),
  NamespaceInjectionEnabledByDefault: msg(
    'IST0148',
    'NamespaceInjectionEnabledByDefault',
    'Info',
    'is enabled for Istio injection, as Istio is installed with enableNamespacesByDefault as true.',
    [],
    'This namespace gets sidecars even without a label because Istio is installed with injection on by default for all namespaces. This is for your information; label the namespace istio-injection=disabled to opt out.',
  ),
  JwtClaimBasedRoutingWithoutRequestAuthN: msg(
    'IST0149',
    'JwtClaimBasedRoutingWithoutRequestAuthN',
    'Error',
    'The virtual service uses the JWT claim based routing (key: %s) but found no request authentication for the gateway (%s) pod (%s). The request authentication must first be applied for the gateway pods to validate the JWT token and make the claims available for routing.',
    [
      ['key', 'string'],
      ['gateway', 'string'],
      ['pod', 'string'],
    ],
    'The VirtualService routes on JWT claims, but no RequestAuthentication applies to the gateway, so the token is never checked and the claims are never available. Add a RequestAuthentication that selects the gateway pods.',
  ),
  ExternalNameServiceTypeInvalidPortName: msg(
    'IST0150',
    'ExternalNameServiceTypeInvalidPortName',
    'Warning',
    'Port name for ExternalName service is invalid. Proxy may prevent tcp named ports and unmatched traffic for ports serving TCP protocol from being forwarded correctly',
    [],
    'A port on this ExternalName Service has a name that is missing or does not start with a known protocol, so the proxy may not forward its TCP traffic correctly. Give the port a protocol-prefixed name such as tcp- or http-.',
  ),
  EnvoyFilterUsesRelativeOperation: msg(
    'IST0151',
    'EnvoyFilterUsesRelativeOperation',
    'Warning',
    'This EnvoyFilter does not have a priority and has a relative patch operation set which can cause the EnvoyFilter not to be applied. Using the INSERT_FIRST of ADD option or setting the priority may help in ensuring the EnvoyFilter is applied correctly.',
    [],
    "This EnvoyFilter uses a patch that depends on another filter's position (such as INSERT_BEFORE, INSERT_AFTER or REPLACE) without a priority, so it may not apply when filters are ordered differently. Set a priority or use INSERT_FIRST or ADD.",
  ),
  EnvoyFilterUsesReplaceOperationIncorrectly: msg(
    'IST0152',
    'EnvoyFilterUsesReplaceOperationIncorrectly',
    'Error',
    'The REPLACE operation is only valid for HTTP_FILTER and NETWORK_FILTER.',
    [],
    'The REPLACE patch can only be used on HTTP or network filters; here it targets something else and will not do anything. Change applyTo or use a different patch operation.',
  ),
  EnvoyFilterUsesAddOperationIncorrectly: msg(
    'IST0153',
    'EnvoyFilterUsesAddOperationIncorrectly',
    'Error',
    'The ADD operation will be ignored when applyTo is set to ROUTE_CONFIGURATION, or HTTP_ROUTE.',
    [],
    'An ADD patch does nothing when applyTo is ROUTE_CONFIGURATION or HTTP_ROUTE, so this change is ignored. Use MERGE or an INSERT operation instead, or patch a different applyTo target.',
  ),
  EnvoyFilterUsesRemoveOperationIncorrectly: msg(
    'IST0154',
    'EnvoyFilterUsesRemoveOperationIncorrectly',
    'Error',
    'The REMOVE operation will be ignored when applyTo is set to ROUTE_CONFIGURATION, or HTTP_ROUTE.',
    [],
    'A REMOVE patch does nothing when applyTo is ROUTE_CONFIGURATION or HTTP_ROUTE, so this change is ignored. Target a different level or remove the patch.',
  ),
  EnvoyFilterUsesRelativeOperationWithProxyVersion: msg(
    'IST0155',
    'EnvoyFilterUsesRelativeOperationWithProxyVersion',
    'Warning',
    'This EnvoyFilter does not have a priority and has a relative patch operation (NSTERT_BEFORE/AFTER, REPLACE, MERGE, DELETE) and proxyVersion set which can cause the EnvoyFilter not to be applied during an upgrade. Using the INSERT_FIRST or ADD option or setting the priority may help in ensuring the EnvoyFilter is applied correctly.',
    [],
    'This EnvoyFilter is tied to a proxy version and uses a position-dependent patch without a priority, so it may stop applying while proxies are being upgraded. Set a priority, or use INSERT_FIRST or ADD.',
  ),
  UnsupportedGatewayAPIVersion: msg(
    'IST0156',
    'UnsupportedGatewayAPIVersion',
    'Error',
    'The Gateway API CRD version %v is lower than the minimum version: %v',
    [
      ['version', 'string'],
      ['minimumVersion', 'string'],
    ],
    'The Gateway API CRDs in the cluster are older than this Istio release needs, so Gateway API resources will not work properly. Install a newer Gateway API CRD version.',
  ),
  FutureUnsupportedGatewayAPIVersion: msg(
    'IST0172',
    'FutureUnsupportedGatewayAPIVersion',
    'Warning',
    'The Gateway API CRD version %v is lower than the minimum version: %v',
    [
      ['version', 'string'],
      ['minimumVersion', 'string'],
    ],
    'The Gateway API CRDs in the cluster still work but are older than what the next Istio release will require. Upgrade the CRDs before upgrading Istio.',
  ),
  InvalidTelemetryProvider: msg(
    'IST0157',
    'InvalidTelemetryProvider',
    'Warning',
    'The Telemetry %v in namespace %q with empty providers will be ignored.',
    [
      ['name', 'string'],
      ['namespace', 'string'],
    ],
    'This Telemetry resource lists a provider section with no providers and no default to fall back on, so Istio ignores it. Name a provider, or configure a default provider in the mesh config.',
  ),
  PodsIstioProxyImageMismatchInNamespace: msg(
    'IST0158',
    'PodsIstioProxyImageMismatchInNamespace',
    'Warning',
    'The Istio proxy images of the pods running in the namespace do not match the image defined in the injection configuration (pod names: %v). This often happens after upgrading the Istio control-plane and can be fixed by redeploying the pods.',
    [['podNames', '[]string']],
    'Some pods in this namespace run an older sidecar image than injection would use now, usually because Istio was upgraded after they started. Restart those workloads so they get the current proxy.',
  ),
  ConflictingTelemetryWorkloadSelectors: msg(
    'IST0159',
    'ConflictingTelemetryWorkloadSelectors',
    'Error',
    'The Telemetries %v in namespace %q select the same workload pod %q, which can lead to undefined behavior.',
    [
      ['conflictingTelemetries', '[]string'],
      ['namespace', 'string'],
      ['workloadPod', 'string'],
    ],
    'More than one Telemetry resource in this namespace selects the same pod, and Istio will not pick between them reliably. Make the selectors disjoint or merge the Telemetries into one.',
  ),
  MultipleTelemetriesWithoutWorkloadSelectors: msg(
    'IST0160',
    'MultipleTelemetriesWithoutWorkloadSelectors',
    'Error',
    'The Telemetries %v in namespace %q have no workload selector, which can lead to undefined behavior.',
    [
      ['conflictingTelemetries', '[]string'],
      ['namespace', 'string'],
    ],
    'A namespace can have only one Telemetry without a selector (the namespace default), but this one has several. Keep a single default Telemetry and give the others selectors, or merge them.',
  ),
  InvalidGatewayCredential: msg(
    'IST0161',
    'InvalidGatewayCredential',
    'Error',
    'The credential referenced by the Gateway %s in namespace %s is invalid, which can cause the traffic not to work as expected.',
    [
      ['gatewayName', 'string'],
      ['gatewayNamespace', 'string'],
    ],
    "The TLS secret that this Gateway refers to through credentialName is missing or does not hold a usable certificate and key, so HTTPS on that server will fail. Create or fix the secret in the gateway's namespace.",
  ),
  GatewayPortNotDefinedOnService: msg(
    'IST0162',
    'GatewayPortNotDefinedOnService',
    'Warning',
    'The gateway is listening on a target port (port %d) that is not defined in the Service associated with its workload instances (Pod selector %s). If you need to access the gateway port through the gateway Service, it will not be available.',
    [
      ['port', 'int'],
      ['selector', 'string'],
    ],
    'The Gateway listens on a port that the Service in front of the gateway pods does not expose, so clients cannot reach it through that Service. Add the port to the gateway Service or change the Gateway port.',
  ),
  InvalidExternalControlPlaneConfig: msg(
    'IST0163',
    'InvalidExternalControlPlaneConfig',
    'Warning',
    'The hostname (%s) that was provided for the webhook (%s) to reach the ingress gateway on the external control plane cluster %s. Traffic may not flow properly.',
    [
      ['hostname', 'string'],
      ['webhook', 'string'],
      ['msg', 'string'],
    ],
    'The webhook address configured for reaching an external control plane is invalid or does not resolve, so sidecar injection and config validation may fail. Check the hostname and DNS in the webhook settings.',
  ),
  ExternalControlPlaneAddressIsNotAHostname: msg(
    'IST0164',
    'ExternalControlPlaneAddressIsNotAHostname',
    'Info',
    'The address (%s) that was provided for the webhook (%s) to reach the ingress gateway on the external control plane cluster is an IP address. This is not recommended for a production environment.',
    [
      ['hostname', 'string'],
      ['webhook', 'string'],
    ],
    'The webhook reaches the external control plane through a bare IP address, which breaks when the address changes and makes TLS harder. Use a stable DNS name in production.',
  ),
  ReferencedInternalGateway: msg(
    'IST0165',
    'ReferencedInternalGateway',
    'Warning',
    'Gateway reference in VirtualService %s is to an implementation-generated internal Gateway: %s.',
    [
      ['virtualservice', 'string'],
      ['gateway', 'string'],
    ],
    'The VirtualService binds to a Gateway that Istio generated internally from a Kubernetes Gateway API resource, which is not a supported way to attach routes. Attach routes with HTTPRoute (or similar) to the Kubernetes Gateway instead.',
  ),
  IneffectiveSelector: msg(
    'IST0166',
    'IneffectiveSelector',
    'Warning',
    'Ineffective selector on Kubernetes Gateway %s. Use the TargetRef field instead.',
    [['gateway', 'string']],
    'This policy uses a workload selector that matches pods of a Kubernetes Gateway, but selectors are ignored for such gateways. Point the policy at the Gateway with targetRef (or targetRefs) instead.',
  ),
  IneffectivePolicy: msg(
    'IST0167',
    'IneffectivePolicy',
    'Warning',
    'The policy has no impact: %s.',
    [['reason', 'string']],
    'The policy is valid but will not change any traffic, for the reason given in the message. Adjust it so it targets something it can affect, or remove it.',
  ),
  UnknownUpgradeCompatibility: msg(
    'IST0168',
    'UnknownUpgradeCompatibility',
    'Warning',
    'The configuration %q changed in release %s, but compatibility cannot be automatically detected: %s. Or, install with `--set compatibilityVersion=%s` to retain the old default.',
    [
      ['field', 'string'],
      ['release', 'string'],
      ['info', 'string'],
      ['compatVersion', 'string'],
    ],
    'A default changed in a newer Istio release and the tool cannot tell whether your setup depends on the old behavior. Review the change, or install with the compatibilityVersion setting shown to keep the old default.',
  ),
  UpdateIncompatibility: msg(
    'IST0169',
    'UpdateIncompatibility',
    'Warning',
    'The configuration %q changed in release %s: %s. Or, install with `--set compatibilityVersion=%s` to retain the old default.',
    [
      ['field', 'string'],
      ['release', 'string'],
      ['info', 'string'],
      ['compatVersion', 'string'],
    ],
    'A default changed in a newer Istio release in a way that will affect your current configuration. Update your config to match, or install with the compatibilityVersion setting shown to keep the old default.',
  ),
  MultiClusterInconsistentService: msg(
    'IST0170',
    'MultiClusterInconsistentService',
    'Warning',
    'The service %v in namespace %q is inconsistent across clusters %q, which can lead to undefined behaviors. The inconsistent behaviors are: %v.',
    [
      ['serviceName', 'string'],
      ['namespace', 'string'],
      ['clusters', '[]string'],
      ['error', 'string'],
    ],
    'The same Service is defined differently in different clusters of the mesh (for example different ports or types), so behavior depends on which cluster serves a request. Make the definitions match in every cluster.',
  ),
  NegativeConditionStatus: msg(
    'IST0171',
    'NegativeConditionStatus',
    'Warning',
    'A condition with a negative status is present: type=%s, reason=%s, message=%s.',
    [
      ['conditionType', 'string'],
      ['reason', 'string'],
      ['message', 'string'],
    ],
    "The resource's status reports a condition that is not healthy, for example a Gateway that was not accepted or not programmed. Read the reason and message in the status to see what to fix.",
  ),
  DestinationRuleSubsetNotSelectPods: msg(
    'IST0173',
    'DestinationRuleSubsetNotSelectPods',
    'Error',
    'The Subset %s defined in the DestinationRule does not select any pods. Which may lead to 503 UH (NoHealthyUpstream).',
    [['subset', 'string']],
    "This subset's labels match no running pods, so traffic sent to it fails with 503 errors (no healthy upstream). Fix the subset labels or deploy pods that carry them.",
  ),
  UnknownDestinationRuleHost: msg(
    'IST0174',
    'UnknownDestinationRuleHost',
    'Warning',
    'The host %s defined in the DestinationRule does not match any services in the mesh.',
    [['host', 'string']],
    'The host in this DestinationRule matches no Service or ServiceEntry known to the mesh, so the rule does nothing. Check the host name and namespace, or add a ServiceEntry for external hosts.',
  ),
  JwksUriFetchUnrestricted: msg(
    'IST0175',
    'JwksUriFetchUnrestricted',
    'Warning',
    'BLOCKED_CIDRS_IN_JWKS_URIS is not configured but %d RequestAuthentication resource(s) exist (%s). Consider configuring it to restrict JWKS URI fetches to trusted networks.',
    [
      ['count', 'int'],
      ['names', 'string'],
    ],
    'RequestAuthentication resources make istiod download JWKS keys from URLs you configure, and nothing limits which networks it can reach. Set BLOCKED_CIDRS_IN_JWKS_URIS on istiod to block internal or untrusted address ranges.',
  ),
  GatewayAPICRDVersionBelowMinimum: msg(
    'IST0176',
    'GatewayAPICRDVersionBelowMinimum',
    'Warning',
    'Gateway API CRD %q is at version %q but Istio requires at least %q; resources of this kind will not be processed. Upgrade the Gateway API CRDs to satisfy the minimum version.',
    [
      ['crd', 'string'],
      ['installedVersion', 'string'],
      ['minimumVersion', 'string'],
    ],
    'An installed Gateway API CRD is older than the minimum this Istio needs, so Istio ignores resources of that kind. Upgrade the Gateway API CRDs.',
  ),
  ConflictingServiceEntryProtocol: msg(
    'IST0177',
    'ConflictingServiceEntryProtocol',
    'Warning',
    'Multiple ServiceEntries (%s) define the same host %q and port %d with conflicting protocols (%s).',
    [
      ['serviceEntryNames', 'string'],
      ['host', 'string'],
      ['port', 'int'],
      ['protocols', 'string'],
    ],
    'Several ServiceEntries declare the same host and port with different protocols, so Istio cannot tell how to treat that traffic. Make them use the same protocol or merge them into one ServiceEntry.',
  ),
};

export type MessageName = keyof typeof MESSAGES;

/**
 * Our own analysis messages (MWB- codes, as the parser's): not in Istio's catalog, never
 * printed by istioctl, no page on istio.io. Reported, suppressed (`-S CODE=Kind ns/name`, the
 * annotation) and formatted like Istio's.
 */
export const OWN_MESSAGES = {
  /**
   * A finding of the CRD schema layer (structural schema or CEL rule, `layer: 'schema'`) or a
   * duplicate mapping key: the API server refuses the object. istioctl never reports these
   * (it decodes with legacy jsonpb and runs only the webhook's rules), so they are not IST0106.
   */
  ApiServerRejects: msg(
    'MWB-API-SERVER-REJECTS',
    'ApiServerRejects',
    'Error',
    'The API server would reject this object (%s): %v',
    [
      ['consequence', 'string'],
      ['err', 'error'],
    ],
    "The Kubernetes API server would refuse this object before Istio sees it: the field breaks the CRD's schema (a wrong type, an unknown field, a value out of range, a CEL rule) or the mapping repeats a key. istioctl analyze does not report this. Correct the field named in the message.",
  ),
  /**
   * An EnvoyFilter config patch that changes the config of no proxy (envoyfilter.PatchReachAnalyzer):
   * istiod applies what matches and silently skips the rest, so a mistyped match does nothing.
   */
  EnvoyFilterPatchAppliesToNoProxy: msg(
    'MWB-ENVOYFILTER-NO-PROXY',
    'EnvoyFilterPatchAppliesToNoProxy',
    'Warning',
    'This EnvoyFilter patch (configPatches[%d], %s) applies to no proxy: %s',
    [
      ['index', 'int'],
      ['patch', 'string'],
      ['reason', 'string'],
    ],
    'istiod applies an EnvoyFilter patch only where its match finds something in the config it generates; anything else is skipped without a word, so a mistyped listener name, port, context or filter name means the patch silently does nothing. The workbench generated the config of the proxies this EnvoyFilter selects and the patch changed none of them. Check the match against the listeners, routes and clusters in the Proxy config view.',
  ),
  /**
   * An EnvoyFilter patch value that does not decode as the Envoy message its applyTo names, under
   * the strict proto3-JSON check (envoyfilter.PatchReachAnalyzer).
   */
  EnvoyFilterValueInvalid: msg(
    'MWB-ENVOYFILTER-VALUE',
    'EnvoyFilterValueInvalid',
    'Error',
    'This EnvoyFilter patch value (configPatches[%d]) is not a valid %s: %s',
    [
      ['index', 'int'],
      ['type', 'string'],
      ['problem', 'string'],
    ],
    'The patch value must be the Envoy message its applyTo names, written in proto3 JSON: every key a field of that message (by its JSON or proto name), every value of the field\'s type, enums by name, durations as "1.5s", Any with a known @type. istiod decodes the value so: one that does not decode is refused by the validating webhook (or, when it gets in, the patch is dropped), and an unknown field is ignored with a warning. Correct the field named in the message.',
  ),
  /** An EnvoyFilter patch value with a key its Envoy message does not have (istiod ignores it, with a warning). */
  EnvoyFilterValueUnknownField: msg(
    'MWB-ENVOYFILTER-UNKNOWN-FIELD',
    'EnvoyFilterValueUnknownField',
    'Warning',
    'This EnvoyFilter patch value (configPatches[%d]) has a field %s does not have: %s',
    [
      ['index', 'int'],
      ['type', 'string'],
      ['problem', 'string'],
    ],
    'A key of the patch value is no field of the Envoy message its applyTo names (by its JSON or proto name), often a misspelling or a field of another message. istiod decodes the value ignoring unknown fields, so the patch applies without it and the setting silently does nothing; istioctl warns about it. Correct or remove the field.',
  ),
};

/** The consequence ApiServerRejects names for a schema or CEL failure. */
export const APPLY_FAILS = 'kubectl apply fails';

const byCode = new Map<string, AnyMessageType>();
for (const m of [...Object.values(MESSAGES), ...Object.values(OWN_MESSAGES)] as AnyMessageType[]) byCode.set(m.code, m);

export function messageByCode(code: string): AnyMessageType | undefined {
  return byCode.get(code);
}

/** Istio's message types (messages.yaml), not our own. */
export const ALL_MESSAGE_TYPES: readonly AnyMessageType[] = Object.values(MESSAGES);

/** Our own message types (MWB- codes). */
export const OWN_MESSAGE_TYPES: readonly AnyMessageType[] = Object.values(OWN_MESSAGES);

/** Documentation page of a code; istioctl adds `?ref=istioctl-analyze` in CLI output. */
const docUrls = new Map<string, string>();

/** Istio's page of an IST code; undefined for our own codes, which have none on istio.io. */
export function docUrl(code: string, ref?: string): string | undefined {
  if (!/^IST\d+$/.test(code)) return undefined;
  let base = docUrls.get(code);
  if (!base) {
    base = `https://istio.io/latest/docs/reference/config/analysis/${code.toLowerCase()}/`;
    if (docUrls.size < 1024) docUrls.set(code, base);
  }
  return ref ? `${base}?ref=${ref}` : base;
}
