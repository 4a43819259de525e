// Typed views of networking.istio.io: the fields of Istio's networking API (v1, which
// v1beta1 and v1alpha3 share) that our analyzers and engines read.
import {
  bool,
  double,
  int,
  list,
  map,
  message,
  nullable,
  optional,
  protoEnum,
  raw,
  string,
  strings,
  type Fields,
  type Infer,
  type MessageShape,
} from '../shape.ts';
import { PortSelector, WorkloadSelector, duration, policyTargeting } from './common.ts';
import { bodyReader, specReader } from '../views.ts';

const p = { proto: true };

/**
 * networking.WorkloadSelector (`labels`), used by ServiceEntry, Sidecar and EnvoyFilter;
 * DestinationRule and the security policies use type.v1beta1.WorkloadSelector (`matchLabels`).
 */
export const NetworkingWorkloadSelector = message({ labels: strings }, p);

// ---- VirtualService -------------------------------------------------------------------

export const StringMatch = message({ exact: optional(string), prefix: optional(string), regex: optional(string) }, p);
export type StringMatch = NonNullable<Infer<typeof StringMatch>>;

export const Destination = message({ host: string, subset: string, port: PortSelector }, p);
export type Destination = NonNullable<Infer<typeof Destination>>;

const Headers = message(
  {
    request: message({ set: strings, add: strings, remove: list(string) }, p),
    response: message({ set: strings, add: strings, remove: list(string) }, p),
  },
  p,
);

export const HTTPRouteDestination = message({ destination: Destination, weight: int, headers: Headers }, p);
export type HTTPRouteDestination = NonNullable<Infer<typeof HTTPRouteDestination>>;

export const HTTPMatchRequest = message(
  {
    name: string,
    uri: StringMatch,
    scheme: StringMatch,
    method: StringMatch,
    authority: StringMatch,
    headers: map(StringMatch),
    port: int,
    sourceLabels: strings,
    gateways: list(string),
    queryParams: map(StringMatch),
    ignoreUriCase: bool,
    withoutHeaders: map(StringMatch),
    sourceNamespace: string,
    statPrefix: string,
  },
  p,
);
export type HTTPMatchRequest = NonNullable<Infer<typeof HTTPMatchRequest>>;

const Percent = message({ value: double }, p);

export const HTTPFaultInjection = message(
  {
    delay: message({ fixedDelay: duration, percentage: Percent, percent: int }, p),
    abort: message({ httpStatus: int, grpcStatus: string, http2Error: string, percentage: Percent }, p),
  },
  p,
);

export const HTTPRoute = message(
  {
    name: string,
    match: list(HTTPMatchRequest),
    route: list(HTTPRouteDestination),
    redirect: message({ uri: string, authority: string, port: int, derivePort: string, scheme: string, redirectCode: int, prefixRewrite: string }, p),
    directResponse: message({ status: int, body: raw }, p),
    delegate: message({ name: string, namespace: string }, p),
    rewrite: message({ uri: string, authority: string, uriRegexRewrite: raw }, p),
    timeout: duration,
    retries: message(
      {
        attempts: int,
        perTryTimeout: duration,
        retryOn: string,
        retryRemoteLocalities: optional(bool),
        retryIgnorePreviousHosts: optional(bool),
        backoff: duration,
      },
      p,
    ),
    fault: HTTPFaultInjection,
    mirror: Destination,
    mirrors: list(message({ destination: Destination, percentage: Percent }, p)),
    mirrorPercentage: Percent,
    mirrorPercent: optional(int),
    corsPolicy: raw,
    headers: Headers,
  },
  p,
);
export type HTTPRoute = NonNullable<Infer<typeof HTTPRoute>>;

export const L4MatchAttributes = message(
  { destinationSubnets: list(string), port: int, sourceSubnet: string, sourceLabels: strings, gateways: list(string), sourceNamespace: string },
  p,
);
export type L4MatchAttributes = NonNullable<Infer<typeof L4MatchAttributes>>;

export const RouteDestination = message({ destination: Destination, weight: int }, p);
export type RouteDestination = NonNullable<Infer<typeof RouteDestination>>;

export const TCPRoute = message({ match: list(L4MatchAttributes), route: list(RouteDestination) }, p);
export type TCPRoute = NonNullable<Infer<typeof TCPRoute>>;

export const TLSMatchAttributes = message(
  { sniHosts: list(string), destinationSubnets: list(string), port: int, sourceLabels: strings, gateways: list(string), sourceNamespace: string },
  p,
);
export type TLSMatchAttributes = NonNullable<Infer<typeof TLSMatchAttributes>>;

export const TLSRoute = message({ match: list(TLSMatchAttributes), route: list(RouteDestination) }, p);
export type TLSRoute = NonNullable<Infer<typeof TLSRoute>>;

export const VirtualServiceSpec = message(
  { hosts: list(string), gateways: list(string), http: list(HTTPRoute), tls: list(TLSRoute), tcp: list(TCPRoute), exportTo: list(string) },
  p,
);
export type VirtualServiceSpec = Infer<typeof VirtualServiceSpec> & object;
export const virtualService = specReader(VirtualServiceSpec);

/** A rule list with Go's nil rules and nil matches kept as null. */
function rulesWithNils<F extends Fields>(match: MessageShape<F>) {
  return list(nullable(message({ name: string, match: list(nullable(match)) }, p)));
}

/**
 * The route rules of a VirtualService as Istio's route-rule validation sees them: a `null`
 * rule or match is a nil pointer (skipped, or compared as `null`), not an empty message.
 * Only http rules have a name.
 */
export const VirtualServiceRuleLists = message(
  { http: rulesWithNils(HTTPMatchRequest), tcp: rulesWithNils(L4MatchAttributes), tls: rulesWithNils(TLSMatchAttributes) },
  p,
);
export const virtualServiceRuleLists = specReader(VirtualServiceRuleLists);

// ---- DestinationRule ------------------------------------------------------------------

/** ClientTLSSettings.TLSmode, in enum number order. */
export const CLIENT_TLS_MODES = ['DISABLE', 'SIMPLE', 'MUTUAL', 'ISTIO_MUTUAL'] as const;

export const ClientTLSSettings = message(
  {
    mode: protoEnum(CLIENT_TLS_MODES),
    clientCertificate: string,
    privateKey: string,
    caCertificates: string,
    credentialName: string,
    subjectAltNames: list(string),
    sni: string,
    insecureSkipVerify: optional(bool),
    caCrl: string,
  },
  p,
);
export type ClientTLSSettings = NonNullable<Infer<typeof ClientTLSSettings>>;

const LoadBalancerSettings = message(
  {
    simple: string,
    consistentHash: raw,
    localityLbSetting: raw,
    warmupDurationSecs: duration,
    warmup: raw,
  },
  p,
);

const ConnectionPoolSettings = message({ tcp: raw, http: raw }, p);
const OutlierDetection = raw;

const PortTrafficPolicy = message(
  {
    port: PortSelector,
    loadBalancer: LoadBalancerSettings,
    connectionPool: ConnectionPoolSettings,
    outlierDetection: OutlierDetection,
    tls: ClientTLSSettings,
  },
  p,
);

export const TrafficPolicy = message(
  {
    loadBalancer: LoadBalancerSettings,
    connectionPool: ConnectionPoolSettings,
    outlierDetection: OutlierDetection,
    tls: ClientTLSSettings,
    portLevelSettings: list(PortTrafficPolicy),
    tunnel: raw,
    proxyProtocol: raw,
    retryBudget: raw,
  },
  p,
);
export type TrafficPolicy = NonNullable<Infer<typeof TrafficPolicy>>;

export const Subset = message({ name: string, labels: strings, trafficPolicy: TrafficPolicy }, p);
export type Subset = NonNullable<Infer<typeof Subset>>;

export const DestinationRuleSpec = message(
  { host: string, trafficPolicy: TrafficPolicy, subsets: list(Subset), exportTo: list(string), workloadSelector: WorkloadSelector },
  p,
);
export type DestinationRuleSpec = Infer<typeof DestinationRuleSpec> & object;
export const destinationRule = specReader(DestinationRuleSpec);

// ---- Gateway --------------------------------------------------------------------------

export const ServerTLSSettings = message(
  {
    httpsRedirect: bool,
    mode: string,
    serverCertificate: string,
    privateKey: string,
    caCertificates: string,
    credentialName: string,
    credentialNames: list(string),
    subjectAltNames: list(string),
    minProtocolVersion: string,
    maxProtocolVersion: string,
    cipherSuites: list(string),
    caCertCredentialName: string,
    ecdhCurves: list(string),
    verifyCertificateSpki: list(string),
    verifyCertificateHash: list(string),
    insecureSkipVerify: optional(bool),
    caCrl: string,
  },
  p,
);
export type ServerTLSSettings = NonNullable<Infer<typeof ServerTLSSettings>>;

export const ServerPort = message({ number: int, protocol: string, name: string, targetPort: int }, p);

export const Server = message({ port: ServerPort, bind: string, hosts: list(string), tls: ServerTLSSettings, defaultEndpoint: string, name: string }, p);
export type Server = NonNullable<Infer<typeof Server>>;

export const GatewaySpec = message({ servers: list(Server), selector: strings }, p);
export type GatewaySpec = Infer<typeof GatewaySpec> & object;
export const gateway = specReader(GatewaySpec);

// ---- ServiceEntry / WorkloadEntry / WorkloadGroup ------------------------------------

export const ServicePort = message({ number: int, protocol: string, name: string, targetPort: int }, p);
export type ServicePort = NonNullable<Infer<typeof ServicePort>>;

export const WorkloadEntrySpec = message(
  { address: string, ports: map(int), labels: strings, network: string, locality: string, weight: int, serviceAccount: string },
  p,
);
export type WorkloadEntrySpec = Infer<typeof WorkloadEntrySpec> & object;
export const workloadEntry = specReader(WorkloadEntrySpec);

export const ServiceEntrySpec = message(
  {
    hosts: list(string),
    addresses: list(string),
    ports: list(ServicePort),
    location: string,
    resolution: string,
    endpoints: list(WorkloadEntrySpec),
    workloadSelector: NetworkingWorkloadSelector,
    exportTo: list(string),
    subjectAltNames: list(string),
  },
  p,
);
export type ServiceEntrySpec = Infer<typeof ServiceEntrySpec> & object;
export const serviceEntry = specReader(ServiceEntrySpec);

/** The addresses istiod allocated to a ServiceEntry (status.addresses). */
export const ServiceEntryStatus = message({ addresses: list(message({ value: string, host: string }, p)) }, p);
export const serviceEntryStatus = bodyReader(ServiceEntryStatus, 'status');

export const WorkloadGroupSpec = message({ metadata: message({ labels: strings, annotations: strings }, p), template: WorkloadEntrySpec, probe: raw }, p);
export const workloadGroup = specReader(WorkloadGroupSpec);

// ---- Sidecar --------------------------------------------------------------------------

const IstioIngressListener = message(
  { port: ServicePort, bind: string, captureMode: string, defaultEndpoint: string, tls: ServerTLSSettings, connectionPool: raw },
  p,
);
const IstioEgressListener = message({ port: ServicePort, bind: string, captureMode: string, hosts: list(string) }, p);

export const SidecarSpec = message(
  {
    workloadSelector: NetworkingWorkloadSelector,
    ingress: list(IstioIngressListener),
    egress: list(IstioEgressListener),
    outboundTrafficPolicy: message({ mode: string, egressProxy: Destination }, p),
    inboundConnectionPool: raw,
  },
  p,
);
export type SidecarSpec = Infer<typeof SidecarSpec> & object;
export const sidecar = specReader(SidecarSpec);

// ---- EnvoyFilter ----------------------------------------------------------------------

const ProxyMatch = message({ proxyVersion: string, metadata: strings }, p);

const ListenerMatch = message(
  {
    portNumber: int,
    filterChain: message(
      {
        name: string,
        sni: string,
        transportProtocol: string,
        applicationProtocols: string,
        filter: message({ name: string, subFilter: message({ name: string }, p) }, p),
        destinationPort: int,
      },
      p,
    ),
    listenerFilter: string,
    name: string,
  },
  p,
);

const EnvoyObjectMatch = message(
  {
    context: string,
    proxy: ProxyMatch,
    listener: ListenerMatch,
    routeConfiguration: raw,
    cluster: raw,
  },
  p,
);

/** EnvoyFilter.Patch.Operation, in enum number order. */
export const PATCH_OPERATIONS = ['INVALID', 'MERGE', 'ADD', 'REMOVE', 'INSERT_BEFORE', 'INSERT_AFTER', 'INSERT_FIRST', 'REPLACE'] as const;
/** EnvoyFilter.ApplyTo, in enum number order. */
export const PATCH_APPLY_TO = [
  'INVALID',
  'LISTENER',
  'FILTER_CHAIN',
  'NETWORK_FILTER',
  'HTTP_FILTER',
  'ROUTE_CONFIGURATION',
  'VIRTUAL_HOST',
  'HTTP_ROUTE',
  'CLUSTER',
  'EXTENSION_CONFIG',
  'BOOTSTRAP',
  'LISTENER_FILTER',
] as const;

const Patch = message({ operation: protoEnum(PATCH_OPERATIONS), value: raw, filterClass: string }, p);

export const EnvoyConfigObjectPatch = message({ applyTo: protoEnum(PATCH_APPLY_TO), match: EnvoyObjectMatch, patch: Patch }, p);
export type EnvoyConfigObjectPatch = NonNullable<Infer<typeof EnvoyConfigObjectPatch>>;

export const EnvoyFilterSpec = message(
  { workloadSelector: NetworkingWorkloadSelector, targetRefs: policyTargeting.targetRefs, configPatches: list(EnvoyConfigObjectPatch), priority: int },
  p,
);
export type EnvoyFilterSpec = Infer<typeof EnvoyFilterSpec> & object;
export const envoyFilter = specReader(EnvoyFilterSpec);

// ---- ProxyConfig ----------------------------------------------------------------------

export const ProxyConfigSpec = message(
  { selector: WorkloadSelector, concurrency: optional(int), environmentVariables: strings, image: message({ imageType: string }, p) },
  p,
);
export const proxyConfig = specReader(ProxyConfigSpec);
