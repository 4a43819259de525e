// The networking.istio.io API as its CRDs accept it, in every served version (they share one
// schema): fields, types, enum values, bounds, formats and the CEL rules the API server runs,
// transcribed from Istio's CRDs into our shapes. The help lines are ours. The schema validator,
// the editor's completion and hover, and the typed views' consistency test read these.
import { bool, describe, double, enumOf, int, list, map, message, raw, string, strings } from '../../shape.ts';
import { PolicyTargetReference, WorkloadSelector, durationField } from './common.ts';

export const HTTP2KeepAlive = message(
  {
    interval: durationField,
    timeout: durationField,
  },
  { proto: true },
);

export const HTTPSettings = message(
  {
    h2UpgradePolicy: enumOf(['DEFAULT', 'DO_NOT_UPGRADE', 'UPGRADE']),
    http1MaxPendingRequests: describe(int, { help: 'Most requests waiting for a connection.' }),
    http2KeepAlive: HTTP2KeepAlive,
    http2MaxRequests: describe(int, { help: 'Most active requests to the host.' }),
    idleTimeout: durationField,
    maxConcurrentStreams: int,
    maxRequestsPerConnection: describe(int, { help: 'Requests per connection before it is closed; 1 disables keep-alive.' }),
    maxRetries: int,
    useClientProtocol: bool,
  },
  { proto: true },
);

export const TcpKeepalive = message(
  {
    interval: durationField,
    probes: describe(int, { minimum: 0, maximum: 4294967295 }),
    time: durationField,
  },
  { proto: true },
);

export const TCPSettings = message(
  {
    connectTimeout: describe(durationField, { help: 'TCP connect timeout, e.g. 10s.' }),
    idleTimeout: string,
    maxConnectionDuration: durationField,
    maxConnections: describe(int, { help: 'Most connections to the host.' }),
    tcpKeepalive: TcpKeepalive,
  },
  { proto: true },
);

export const ConnectionPoolSettings = message(
  {
    http: HTTPSettings,
    tcp: TCPSettings,
  },
  { proto: true },
);

export const BackendUtilization = message(
  {
    errorUtilizationPenaltyPercent: describe(int, { minimum: 0, maximum: 4294967295 }),
    metricNamesForComputingUtilization: list(string),
    weightExpirationPeriod: string,
    weightStabilizationPeriod: string,
    weightUpdatePeriod: string,
  },
  { proto: true },
);

export const CookieAttribute = message(
  {
    name: string,
    value: string,
  },
  { proto: true, required: ['name'] },
);

export const HTTPCookie = message(
  {
    attributes: list(CookieAttribute),
    name: string,
    path: string,
    ttl: string,
  },
  { proto: true, required: ['name'] },
);

export const MagLev = message(
  {
    tableSize: describe(int, { minimum: 0 }),
  },
  { proto: true },
);

export const RingHash = message(
  {
    minimumRingSize: describe(int, { minimum: 0 }),
  },
  { proto: true },
);

export const ConsistentHashLB = message(
  {
    httpCookie: HTTPCookie,
    httpHeaderName: string,
    httpQueryParameterName: string,
    maglev: MagLev,
    minimumRingSize: describe(int, { minimum: 0 }),
    ringHash: RingHash,
    useSourceIp: bool,
  },
  {
    proto: true,
    oneOf: [
      ['httpHeaderName', 'httpCookie', 'useSourceIp', 'httpQueryParameterName'],
      ['ringHash', 'maglev'],
    ],
  },
);

export const LocalityDistribute = message(
  {
    from: string,
    to: map(describe(int, { minimum: 0, maximum: 4294967295 })),
  },
  { proto: true },
);

export const LocalityFailover = message(
  {
    from: string,
    to: string,
  },
  { proto: true },
);

export const LocalityLoadBalancerSetting = message(
  {
    distribute: list(LocalityDistribute),
    enabled: describe(bool, { nullable: true }),
    failover: list(LocalityFailover),
    failoverPriority: list(string),
  },
  { proto: true },
);

export const WarmupConfiguration = message(
  {
    aggression: describe(describe(double, { minimum: 0, nullable: true }), { help: 'How fast traffic ramps up; 1 is linear. Must be at least 1.' }),
    duration: describe(durationField, { help: 'How long the warmup lasts.' }),
    minimumPercent: describe(describe(double, { minimum: 0, maximum: 100, nullable: true }), {
      help: 'Share of traffic a new endpoint gets at the start (0-100).',
    }),
  },
  { proto: true, required: ['duration'] },
);

export const ZoneAwareLbSetting = message(
  {
    enabled: describe(bool, { nullable: true }),
    failover: list(LocalityFailover),
    failoverPriority: list(string),
    minClusterSize: describe(int, { minimum: 1, maximum: 4294967295, nullable: true }),
  },
  { proto: true },
);

export const LoadBalancerSettings = message(
  {
    backendUtilization: BackendUtilization,
    consistentHash: describe(ConsistentHashLB, { help: 'Sticky sessions: hash on a header, cookie, source IP or query parameter.' }),
    localityLbSetting: LocalityLoadBalancerSetting,
    simple: describe(enumOf(['UNSPECIFIED', 'LEAST_CONN', 'RANDOM', 'PASSTHROUGH', 'ROUND_ROBIN', 'LEAST_REQUEST']), {
      help: 'Algorithm: LEAST_REQUEST (default), ROUND_ROBIN, RANDOM or PASSTHROUGH.',
    }),
    warmup: describe(WarmupConfiguration, { help: 'Ramp traffic up slowly to new endpoints.' }),
    warmupDurationSecs: durationField,
    zoneAwareLbSetting: ZoneAwareLbSetting,
  },
  { proto: true, oneOf: [['simple', 'consistentHash', 'backendUtilization']] },
);

export const OutlierDetection = message(
  {
    baseEjectionTime: describe(durationField, { help: 'Minimum time an endpoint stays ejected.' }),
    consecutive5xxErrors: describe(describe(int, { minimum: 0, maximum: 4294967295, nullable: true }), {
      help: 'Eject an endpoint after this many 5xx errors in a row.',
    }),
    consecutiveErrors: int,
    consecutiveGatewayErrors: describe(int, { minimum: 0, maximum: 4294967295, nullable: true }),
    consecutiveLocalOriginFailures: describe(int, { minimum: 0, maximum: 4294967295, nullable: true }),
    interval: describe(durationField, { help: 'Time between ejection sweeps.' }),
    maxEjectionPercent: describe(int, { help: 'At most this percentage of endpoints are ejected.' }),
    minHealthPercent: int,
    outlierDetectionHttpErrorCodes: list(describe(int, { minimum: 100, maximum: 599 })),
    splitExternalLocalOriginErrors: bool,
  },
  { proto: true },
);

export const PortSelector = message(
  {
    number: describe(describe(int, { minimum: 0, maximum: 4294967295 }), { help: 'A port number (1-65535).' }),
  },
  { proto: true },
);

export const ClientTLSSettings = message(
  {
    caCertificates: describe(string, { help: 'File with the CA certificates that verify the upstream.' }),
    caCrl: string,
    clientCertificate: string,
    credentialName: describe(string, { help: 'Secret holding the client certificate, key and CA (gateways only).' }),
    insecureSkipVerify: describe(describe(bool, { nullable: true }), { help: "Do not verify the upstream's certificate. Unsafe." }),
    mode: describe(enumOf(['DISABLE', 'SIMPLE', 'MUTUAL', 'ISTIO_MUTUAL']), {
      help: "How to secure connections to the upstream: DISABLE, SIMPLE, MUTUAL or ISTIO_MUTUAL (Istio's own mTLS certificates).",
    }),
    privateKey: string,
    sni: describe(string, { help: 'SNI to present to the upstream.' }),
    subjectAltNames: describe(list(string), { help: "SANs the upstream's certificate must have." }),
  },
  { proto: true },
);

export const PortTrafficPolicy = message(
  {
    connectionPool: ConnectionPoolSettings,
    loadBalancer: LoadBalancerSettings,
    outlierDetection: OutlierDetection,
    port: PortSelector,
    tls: ClientTLSSettings,
  },
  { proto: true },
);

export const ProxyProtocol = message(
  {
    version: enumOf(['V1', 'V2']),
  },
  { proto: true },
);

export const RetryBudget = message(
  {
    budgetInterval: string,
    minRetryConcurrency: describe(int, { minimum: 0, maximum: 4294967295 }),
    percent: describe(double, { minimum: 0, maximum: 100, nullable: true }),
  },
  { proto: true },
);

export const TunnelSettings = message(
  {
    protocol: string,
    targetHost: string,
    targetPort: describe(int, { minimum: 0, maximum: 4294967295 }),
  },
  { proto: true, required: ['targetHost', 'targetPort'] },
);

export const TrafficPolicy = message(
  {
    connectionPool: describe(ConnectionPoolSettings, { help: 'Limits on connections and requests to the host.' }),
    loadBalancer: describe(LoadBalancerSettings, { help: 'How to pick an endpoint: a simple algorithm or consistent hashing.' }),
    outlierDetection: describe(OutlierDetection, { help: 'Eject endpoints that keep failing (circuit breaking).' }),
    portLevelSettings: describe(describe(list(PortTrafficPolicy), { maxItems: 4096 }), { help: "Traffic policies for individual ports; override the host's." }),
    proxyProtocol: ProxyProtocol,
    retryBudget: RetryBudget,
    tls: describe(ClientTLSSettings, { help: 'TLS settings for connections to the host.' }),
    tunnel: TunnelSettings,
  },
  { proto: true },
);

export const Subset = message(
  {
    labels: describe(strings, { help: 'Pod labels that select the endpoints of this subset.' }),
    name: describe(string, { help: 'Name routes use in destination.subset.' }),
    trafficPolicy: describe(TrafficPolicy, { help: "Traffic policy for this subset only; overrides the host's." }),
  },
  { proto: true, required: ['name'] },
);

export const DestinationRuleSpec = message(
  {
    exportTo: describe(list(string), { help: "Namespaces this config is visible to: '.' for its own namespace, '*' for all (the default)." }),
    host: describe(string, { help: 'The service these policies apply to: a short name or FQDN as in the registry.' }),
    subsets: describe(list(Subset), { help: 'Named versions of the service (selected by pod labels) that routes can target.' }),
    trafficPolicy: describe(TrafficPolicy, { help: 'Load balancing, connection pool, outlier detection and TLS settings for the host.' }),
    workloadSelector: describe(WorkloadSelector, { help: 'Labels that pick the workloads this applies to; without it, it applies to the whole namespace.' }),
  },
  { proto: true, required: ['host'] },
);

export const ClusterMatch = message(
  {
    name: string,
    portNumber: describe(int, { minimum: 0, maximum: 4294967295 }),
    service: string,
    subset: string,
  },
  { proto: true },
);

export const SubFilterMatch = message(
  {
    name: string,
  },
  { proto: true },
);

export const FilterMatch = message(
  {
    name: string,
    subFilter: SubFilterMatch,
  },
  { proto: true },
);

export const FilterChainMatch = message(
  {
    applicationProtocols: string,
    destinationPort: describe(int, { minimum: 0, maximum: 4294967295 }),
    filter: FilterMatch,
    name: string,
    sni: string,
    transportProtocol: string,
    transportSocket: string,
  },
  { proto: true },
);

export const ListenerMatch = message(
  {
    filterChain: FilterChainMatch,
    listenerFilter: string,
    name: string,
    portName: string,
    portNumber: describe(int, { minimum: 0, maximum: 4294967295 }),
  },
  { proto: true },
);

export const ProxyMatch = message(
  {
    metadata: strings,
    proxyVersion: string,
  },
  { proto: true },
);

export const RouteMatch = message(
  {
    action: enumOf(['ANY', 'ROUTE', 'REDIRECT', 'DIRECT_RESPONSE']),
    name: string,
  },
  { proto: true },
);

export const VirtualHostMatch = message(
  {
    domainName: string,
    name: string,
    route: RouteMatch,
  },
  { proto: true },
);

export const RouteConfigurationMatch = message(
  {
    gateway: string,
    name: string,
    portName: string,
    portNumber: describe(int, { minimum: 0, maximum: 4294967295 }),
    vhost: VirtualHostMatch,
  },
  { proto: true },
);

export const WaypointMatch = message(
  {
    filter: FilterMatch,
    portNumber: describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] }),
    route: SubFilterMatch,
  },
  { proto: true },
);

export const EnvoyConfigObjectMatch = message(
  {
    cluster: ClusterMatch,
    context: describe(enumOf(['ANY', 'SIDECAR_INBOUND', 'SIDECAR_OUTBOUND', 'GATEWAY', 'WAYPOINT']), {
      help: 'Where: SIDECAR_INBOUND, SIDECAR_OUTBOUND, GATEWAY, WAYPOINT or ANY.',
    }),
    listener: ListenerMatch,
    proxy: ProxyMatch,
    routeConfiguration: RouteConfigurationMatch,
    waypoint: WaypointMatch,
  },
  {
    proto: true,
    rules: [
      {
        rule: 'has(self.context) ? ((self.context == "WAYPOINT") ? has(self.waypoint) : !has(self.waypoint)) : !has(self.waypoint)',
        message: 'only support waypointMatch when context is WAYPOINT',
      },
    ],
    oneOf: [['listener', 'routeConfiguration', 'cluster', 'waypoint']],
  },
);

export const Patch = message(
  {
    filterClass: enumOf(['UNSPECIFIED', 'AUTHN', 'AUTHZ', 'STATS']),
    operation: describe(enumOf(['INVALID', 'MERGE', 'ADD', 'REMOVE', 'INSERT_BEFORE', 'INSERT_AFTER', 'INSERT_FIRST', 'REPLACE', 'MERGE_AND_REPLACE_LIST']), {
      help: 'How to apply the value: MERGE, ADD, REMOVE, INSERT_BEFORE, INSERT_AFTER, INSERT_FIRST or REPLACE.',
    }),
    value: describe(raw, { help: "The Envoy configuration to merge or add (as Envoy's JSON/YAML)." }),
  },
  { proto: true },
);

export const EnvoyConfigObjectPatch = message(
  {
    applyTo: describe(
      enumOf([
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
      ]),
      { help: 'Which kind of Envoy object to patch (LISTENER, HTTP_FILTER, CLUSTER, …).' },
    ),
    match: describe(EnvoyConfigObjectMatch, { help: 'Which objects to patch: by context, proxy, listener, route or cluster.' }),
    patch: describe(Patch, { help: 'The operation (MERGE, ADD, REMOVE, INSERT_BEFORE, …) and value.' }),
  },
  { proto: true },
);

export const EnvoyFilterWorkloadSelector = message(
  {
    labels: describe(map(describe(string, { maxLength: 63, rules: [{ rule: '!self.contains("*")', message: 'wildcard is not supported in selector' }] })), {
      maxProperties: 256,
    }),
  },
  { proto: true },
);

export const EnvoyFilterSpec = message(
  {
    configPatches: describe(list(EnvoyConfigObjectPatch), { help: 'Patches to the generated Envoy configuration. Can break proxies: use with care.' }),
    priority: describe(int, { help: 'Order in which filters are applied; lower first.' }),
    targetRefs: describe(describe(list(PolicyTargetReference), { maxItems: 16 }), {
      help: 'The resources (Gateways, Services, …) this policy attaches to, instead of a workload selector.',
    }),
    workloadSelector: describe(EnvoyFilterWorkloadSelector, {
      help: 'Labels that pick the workloads this applies to; without it, it applies to the whole namespace.',
    }),
  },
  {
    proto: true,
    rules: [
      { rule: '(has(self.workloadSelector) ? 1 : 0) + (has(self.targetRefs) ? 1 : 0) <= 1', message: 'only one of targetRefs or workloadSelector can be set' },
    ],
  },
);

export const GatewayPort = message(
  {
    name: describe(string, { help: 'Name of the port.' }),
    number: describe(describe(int, { minimum: 0, maximum: 4294967295 }), { help: 'Port number to listen on.' }),
    protocol: describe(string, { help: 'HTTP, HTTPS, GRPC, GRPC-WEB, HTTP2, MONGO, TCP or TLS.' }),
    targetPort: describe(describe(int, { minimum: 0, maximum: 4294967295 }), { help: 'Port on the gateway pod that receives the traffic.' }),
  },
  { proto: true, required: ['number', 'protocol', 'name'] },
);

export const TLSCertificate = message(
  {
    caCertificates: string,
    privateKey: string,
    serverCertificate: string,
  },
  { proto: true },
);

export const ServerTLSSettings = message(
  {
    caCertCredentialName: string,
    caCertificates: string,
    caCrl: string,
    cipherSuites: list(string),
    credentialName: describe(string, { help: "Secret (in the gateway's namespace) with the server certificate and key." }),
    credentialNames: describe(list(string), { minItems: 1, maxItems: 2 }),
    ecdhCurves: list(string),
    httpsRedirect: describe(bool, { help: 'Answer plain HTTP requests with a redirect to HTTPS.' }),
    insecureSkipVerify: describe(bool, { nullable: true }),
    maxProtocolVersion: enumOf(['TLS_AUTO', 'TLSV1_0', 'TLSV1_1', 'TLSV1_2', 'TLSV1_3']),
    minProtocolVersion: describe(enumOf(['TLS_AUTO', 'TLSV1_0', 'TLSV1_1', 'TLSV1_2', 'TLSV1_3']), { help: 'Lowest TLS version accepted.' }),
    mode: describe(enumOf(['PASSTHROUGH', 'SIMPLE', 'MUTUAL', 'AUTO_PASSTHROUGH', 'ISTIO_MUTUAL', 'OPTIONAL_MUTUAL']), {
      help: 'SIMPLE (TLS), MUTUAL (client certs), ISTIO_MUTUAL, PASSTHROUGH (SNI routing), AUTO_PASSTHROUGH or OPTIONAL_MUTUAL.',
    }),
    privateKey: string,
    serverCertificate: string,
    subjectAltNames: list(string),
    tlsCertificates: describe(list(TLSCertificate), { minItems: 1, maxItems: 2 }),
    verifyCertificateHash: list(string),
    verifyCertificateSpki: list(string),
  },
  {
    proto: true,
    rules: [
      {
        rule: '(has(self.tlsCertificates) ? 1 : 0) + (has(self.credentialNames) ? 1 : 0) <= 1',
        message: 'only one of credentialNames or tlsCertificates can be set',
      },
      {
        rule: '(has(self.credentialName) ? 1 : 0) + (has(self.credentialNames) ? 1 : 0) <= 1',
        message: 'only one of credentialName or credentialNames can be set',
      },
      {
        rule: '(has(self.credentialNames) ? 1 : 0) + (has(self.tlsCertificates) ? 1 : 0) <= 1',
        message: 'only one of credentialName or tlsCertificates can be set',
      },
    ],
  },
);

export const Server = message(
  {
    bind: describe(string, { help: 'IP or Unix socket to listen on instead of all addresses.' }),
    defaultEndpoint: string,
    hosts: describe(list(string), { help: 'Hosts exposed on this port; namespace/host limits which VirtualServices may bind.' }),
    name: describe(string, { help: 'Optional name of the server, unique across the gateway.' }),
    port: describe(GatewayPort, { help: 'The port to listen on, with its protocol and a name.' }),
    tls: describe(ServerTLSSettings, { help: 'TLS settings for this port (HTTPS, TLS).' }),
  },
  { proto: true, required: ['port', 'hosts'] },
);

export const GatewaySpec = message(
  {
    selector: describe(strings, { help: 'Labels of the gateway pods that apply this configuration.' }),
    servers: describe(list(Server), { help: 'The ports, protocols and hosts this gateway listens on.' }),
  },
  { proto: true },
);

export const ProxyImage = message(
  {
    imageType: string,
  },
  { proto: true },
);

export const ProxyConfigSpec = message(
  {
    concurrency: describe(describe(int, { minimum: 0, nullable: true }), { help: 'Worker threads of the proxy; 0 means one per CPU core.' }),
    environmentVariables: describe(map(describe(string, { maxLength: 2048 })), { help: 'Extra environment variables for the proxy.' }),
    image: describe(ProxyImage, { help: 'Which proxy image type to use (e.g. distroless).' }),
    selector: describe(WorkloadSelector, { help: 'Labels that pick the workloads this policy applies to; without it, the whole namespace.' }),
  },
  { proto: true },
);

export const ServiceEntryEndpoint = message(
  {
    address: describe(string, {
      maxLength: 256,
      rules: [
        {
          rule: 'self.startsWith("unix://") ? (self.substring(7, 8) == "/" || self.substring(7, 8) == "@") : true',
          message: 'UDS must be an absolute path or abstract socket',
        },
        { rule: 'self.startsWith("unix://") ? !self.endsWith("/") : true', message: 'UDS may not be a dir' },
      ],
    }),
    labels: describe(strings, { maxProperties: 256 }),
    locality: describe(string, { maxLength: 2048 }),
    network: describe(string, { maxLength: 2048 }),
    ports: describe(
      map(describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] })),
      {
        maxProperties: 128,
        rules: [{ rule: 'self.all(key, size(key) < 63 && key.matches("^[a-zA-Z0-9](?:[-a-zA-Z0-9]*[a-zA-Z0-9])?$"))', message: 'port name must be valid' }],
      },
    ),
    serviceAccount: describe(string, { maxLength: 253 }),
    weight: describe(int, { minimum: 0, maximum: 4294967295 }),
  },
  {
    proto: true,
    rules: [
      { rule: 'has(self.address) || has(self.network)', message: 'Address is required' },
      { rule: '(has(self.address) ? self.address : "").startsWith("unix://") ? !has(self.ports) : true', message: 'UDS may not include ports' },
    ],
  },
);

export const ServicePort = message(
  {
    name: describe(describe(string, { maxLength: 256 }), { help: 'Name of the port.' }),
    number: describe(
      describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] }),
      { help: 'Port number.' },
    ),
    protocol: describe(describe(string, { maxLength: 256 }), { help: 'Protocol: HTTP, HTTPS, GRPC, HTTP2, MONGO, TCP or TLS.' }),
    targetPort: describe(
      describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] }),
      { help: 'Port on the endpoints that receives the traffic.' },
    ),
  },
  { proto: true, required: ['number', 'name'] },
);

export const ServiceEntrySpec = message(
  {
    addresses: describe(describe(list(describe(string, { maxLength: 64 })), { maxItems: 256 }), { help: 'Virtual IPs or CIDRs of the service.' }),
    endpoints: describe(describe(list(ServiceEntryEndpoint), { maxItems: 4096 }), { help: 'Endpoints of the service (for STATIC or DNS resolution).' }),
    exportTo: describe(list(string), { help: "Namespaces this config is visible to: '.' for its own namespace, '*' for all (the default)." }),
    hosts: describe(
      describe(list(describe(string, { rules: [{ rule: 'self != "*"', message: 'hostname cannot be wildcard' }] })), { minItems: 1, maxItems: 256 }),
      { help: 'Hosts of the external or mesh service this entry adds to the registry.' },
    ),
    location: describe(enumOf(['MESH_EXTERNAL', 'MESH_INTERNAL']), { help: 'MESH_EXTERNAL (outside the mesh) or MESH_INTERNAL.' }),
    ports: describe(
      describe(list(ServicePort), {
        maxItems: 256,
        listType: 'map',
        listMapKeys: ['name'],
        rules: [{ rule: 'self.all(l1, self.exists_one(l2, l1.number == l2.number))', message: 'port number cannot be duplicated' }],
      }),
      { help: 'Ports of the service.' },
    ),
    resolution: describe(enumOf(['NONE', 'STATIC', 'DNS', 'DNS_ROUND_ROBIN', 'DYNAMIC_DNS']), {
      help: 'How endpoints are found: NONE, STATIC, DNS or DNS_ROUND_ROBIN.',
    }),
    subjectAltNames: list(string),
    workloadSelector: describe(EnvoyFilterWorkloadSelector, {
      help: 'Labels that pick the workloads this applies to; without it, it applies to the whole namespace.',
    }),
  },
  {
    proto: true,
    rules: [
      { rule: '(has(self.workloadSelector) ? 1 : 0) + (has(self.endpoints) ? 1 : 0) <= 1', message: 'only one of WorkloadSelector or Endpoints can be set' },
      {
        rule: '!((has(self.addresses) ? self.addresses : []).exists(k, k.contains("/")) && !((has(self.resolution) ? self.resolution : "NONE") in ["STATIC", "NONE"]))',
        message: 'CIDR addresses are allowed only for NONE/STATIC resolution types',
      },
      { rule: '((has(self.resolution) ? self.resolution : "NONE") == "NONE") ? !has(self.endpoints) : true', message: 'NONE mode cannot set endpoints' },
      {
        rule: '((has(self.resolution) ? self.resolution : "") == "DNS_ROUND_ROBIN") ? ((has(self.endpoints) ? self.endpoints : []).size() <= 1) : true',
        message: 'DNS_ROUND_ROBIN mode cannot have multiple endpoints',
      },
    ],
    required: ['hosts'],
  },
);

export const SidecarPort = message(
  {
    name: string,
    number: describe(int, { minimum: 0, maximum: 4294967295 }),
    protocol: string,
    targetPort: describe(int, { minimum: 0, maximum: 4294967295 }),
  },
  { proto: true },
);

export const IstioEgressListener = message(
  {
    bind: string,
    captureMode: enumOf(['DEFAULT', 'IPTABLES', 'NONE']),
    hosts: describe(list(string), { help: "Services reachable from the workloads, as namespace/host ('./*' for the own namespace)." }),
    port: SidecarPort,
  },
  { proto: true, required: ['hosts'] },
);

export const IstioIngressListener = message(
  {
    bind: string,
    captureMode: enumOf(['DEFAULT', 'IPTABLES', 'NONE']),
    connectionPool: ConnectionPoolSettings,
    defaultEndpoint: string,
    port: SidecarPort,
    tls: ServerTLSSettings,
  },
  { proto: true, required: ['port'] },
);

export const Destination = message(
  {
    host: describe(string, { help: 'Service to send traffic to: a short name, an FQDN, or a ServiceEntry host.' }),
    port: describe(PortSelector, { help: 'Port of the destination service; needed when it exposes more than one.' }),
    subset: describe(string, { help: "A subset defined in the host's DestinationRule." }),
  },
  { proto: true, required: ['host'] },
);

export const OutboundTrafficPolicy = message(
  {
    egressProxy: Destination,
    mode: enumOf(['REGISTRY_ONLY', 'ALLOW_ANY']),
  },
  { proto: true },
);

export const SidecarSpec = message(
  {
    egress: describe(list(IstioEgressListener), { help: 'Which services the workloads can reach (everything else is not configured in their proxies).' }),
    inboundConnectionPool: ConnectionPoolSettings,
    ingress: describe(list(IstioIngressListener), { help: 'Ports on which the workloads accept traffic.' }),
    outboundTrafficPolicy: describe(OutboundTrafficPolicy, { help: 'What to do with traffic to unknown destinations: ALLOW_ANY or REGISTRY_ONLY.' }),
    workloadSelector: describe(EnvoyFilterWorkloadSelector, {
      help: 'Labels that pick the workloads this applies to; without it, it applies to the whole namespace.',
    }),
  },
  { proto: true },
);

export const StringMatch = message(
  {
    exact: describe(string, { help: 'Match this exact string.' }),
    prefix: describe(string, { help: 'Match strings starting with this.' }),
    regex: describe(string, { help: 'Match with an RE2 regular expression.' }),
  },
  { proto: true, oneOf: [['exact', 'prefix', 'regex']] },
);

export const CorsPolicy = message(
  {
    allowCredentials: describe(bool, { nullable: true }),
    allowHeaders: list(string),
    allowMethods: list(string),
    allowOrigin: list(string),
    allowOrigins: list(StringMatch),
    exposeHeaders: list(string),
    maxAge: durationField,
    unmatchedPreflights: enumOf(['UNSPECIFIED', 'FORWARD', 'IGNORE']),
  },
  { proto: true },
);

export const Delegate = message(
  {
    name: string,
    namespace: string,
  },
  { proto: true },
);

export const HTTPBody = message(
  {
    bytes: describe(string, { format: 'byte' }),
    string: string,
  },
  { proto: true, oneOf: [['string', 'bytes']] },
);

export const HTTPDirectResponse = message(
  {
    body: HTTPBody,
    status: describe(int, { minimum: 0, maximum: 4294967295 }),
  },
  { proto: true, required: ['status'] },
);

export const Percent = message(
  {
    value: describe(double, { help: 'A percentage between 0 and 100.' }),
  },
  { proto: true },
);

export const Abort = message(
  {
    grpcStatus: string,
    http2Error: string,
    httpStatus: describe(int, { help: 'HTTP status to return to aborted requests.' }),
    percentage: Percent,
  },
  { proto: true, oneOf: [['httpStatus', 'grpcStatus', 'http2Error']] },
);

export const Delay = message(
  {
    exponentialDelay: durationField,
    fixedDelay: describe(durationField, { help: 'How long to delay, e.g. 5s.' }),
    percent: int,
    percentage: Percent,
  },
  { proto: true, oneOf: [['fixedDelay', 'exponentialDelay']] },
);

export const HTTPFaultInjection = message(
  {
    abort: describe(Abort, { help: 'Fail some requests with an error status.' }),
    delay: describe(Delay, { help: 'Delay some requests before forwarding.' }),
  },
  { proto: true },
);

export const HeaderOperations = message(
  {
    add: strings,
    remove: list(string),
    set: strings,
  },
  { proto: true },
);

export const Headers = message(
  {
    request: HeaderOperations,
    response: HeaderOperations,
  },
  { proto: true },
);

export const HTTPMatchRequest = message(
  {
    authority: describe(StringMatch, { help: 'Match the Host/:authority header.' }),
    gateways: describe(list(string), { help: "Match only on these gateways (overrides the VirtualService's gateways for this match)." }),
    headers: describe(map(StringMatch), { help: 'Match request headers by name: exact, prefix or regex values.' }),
    ignoreUriCase: describe(bool, { help: 'Compare the URI case-insensitively.' }),
    method: describe(StringMatch, { help: 'Match the HTTP method.' }),
    name: string,
    port: describe(describe(int, { minimum: 0, maximum: 4294967295 }), { help: 'Match traffic on this port only.' }),
    queryParams: describe(map(StringMatch), { help: 'Match query parameters by name.' }),
    scheme: StringMatch,
    sourceLabels: describe(strings, { help: 'Match only requests from workloads with these labels.' }),
    sourceNamespace: string,
    statPrefix: string,
    uri: describe(StringMatch, { help: 'Match the request path: exact, prefix or regex.' }),
    withoutHeaders: describe(map(StringMatch), { help: 'Match requests that do NOT carry these headers.' }),
  },
  { proto: true },
);

export const HTTPMirrorPolicy = message(
  {
    destination: Destination,
    percentage: Percent,
  },
  { proto: true, required: ['destination'] },
);

export const HTTPRedirect = message(
  {
    authority: string,
    derivePort: enumOf(['FROM_PROTOCOL_DEFAULT', 'FROM_REQUEST_PORT']),
    port: describe(int, { minimum: 0, maximum: 4294967295 }),
    prefixRewrite: string,
    redirectCode: describe(describe(int, { minimum: 0, maximum: 4294967295 }), { help: 'Status code of the redirect. Default: 301.' }),
    scheme: string,
    uri: describe(string, { help: 'Path of the redirect target.' }),
  },
  { proto: true, oneOf: [['port', 'derivePort']] },
);

export const HTTPRetry = message(
  {
    attempts: describe(int, { help: 'How many retries (not counting the first try).' }),
    backoff: durationField,
    perTryTimeout: describe(durationField, { help: 'Timeout of each try, as a duration such as 2s.' }),
    retryIgnorePreviousHosts: describe(bool, { nullable: true }),
    retryOn: describe(string, { help: 'Comma-separated conditions that trigger a retry, e.g. 5xx,connect-failure.' }),
    retryRemoteLocalities: describe(bool, { nullable: true }),
  },
  { proto: true },
);

export const RegexRewrite = message(
  {
    match: string,
    rewrite: string,
  },
  { proto: true },
);

export const HTTPRewrite = message(
  {
    authority: describe(string, { help: 'Replace the Host/:authority header with this.' }),
    uri: describe(string, { help: 'Replace the matched path prefix (or whole path) with this.' }),
    uriRegexRewrite: RegexRewrite,
  },
  { proto: true },
);

export const HTTPRouteDestination = message(
  {
    destination: describe(Destination, { help: 'The service (and optional subset and port) to forward to.' }),
    headers: describe(Headers, { help: 'Header changes applied only when this destination is picked.' }),
    weight: describe(int, { help: 'Share of traffic for this destination; weights of a route should add up to 100.' }),
  },
  { proto: true, required: ['destination'] },
);

export const HTTPRoute = message(
  {
    corsPolicy: describe(CorsPolicy, { help: 'Cross-origin resource sharing settings for this route.' }),
    delegate: describe(Delegate, { help: 'Hand the matched traffic to another VirtualService (name/namespace) that has no hosts.' }),
    directResponse: describe(HTTPDirectResponse, { help: 'Answer directly with a fixed status and body instead of forwarding.' }),
    fault: describe(HTTPFaultInjection, { help: 'Inject delays or aborts, e.g. to test resilience.' }),
    headers: describe(Headers, { help: 'Header changes for requests and responses.' }),
    match: describe(list(HTTPMatchRequest), { help: 'Conditions for this rule: a request must match one entry (entries are ORed, fields inside are ANDed).' }),
    mirror: describe(Destination, { help: 'Also send a copy of each request to this destination (responses are ignored).' }),
    mirror_percent: describe(int, { minimum: 0, maximum: 4294967295, nullable: true }),
    mirrorPercent: describe(int, { minimum: 0, maximum: 4294967295, nullable: true }),
    mirrorPercentage: describe(Percent, { help: 'Percentage of requests to mirror (0-100). Default: 100.' }),
    mirrors: describe(list(HTTPMirrorPolicy), { help: 'Send copies of requests to several destinations.' }),
    name: describe(string, { help: 'A name for the rule, shown in access logs and in messages about it.' }),
    redirect: describe(HTTPRedirect, { help: 'Answer with a 301/302 redirect instead of forwarding.' }),
    retries: describe(HTTPRetry, { help: 'Retry policy for failed requests (attempts, per-try timeout, conditions).' }),
    rewrite: describe(HTTPRewrite, { help: 'Rewrite the URI or authority before forwarding.' }),
    route: describe(list(HTTPRouteDestination), { help: 'Where to send matched traffic; with several destinations, traffic is split by weight.' }),
    timeout: describe(durationField, { help: 'Timeout for the whole HTTP request, as a duration such as 5s or 250ms. Off by default.' }),
  },
  { proto: true },
);

export const L4MatchAttributes = message(
  {
    destinationSubnets: list(string),
    gateways: list(string),
    port: describe(int, { minimum: 0, maximum: 4294967295 }),
    sourceLabels: strings,
    sourceNamespace: string,
    sourceSubnet: string,
  },
  { proto: true },
);

export const RouteDestination = message(
  {
    destination: Destination,
    weight: describe(int, { help: 'Share of traffic for this destination; weights of a route should add up to 100.' }),
  },
  { proto: true, required: ['destination'] },
);

export const TCPRoute = message(
  {
    match: list(L4MatchAttributes),
    route: list(RouteDestination),
  },
  { proto: true },
);

export const TLSMatchAttributes = message(
  {
    destinationSubnets: list(string),
    gateways: list(string),
    port: describe(int, { minimum: 0, maximum: 4294967295 }),
    sniHosts: list(string),
    sourceLabels: strings,
    sourceNamespace: string,
  },
  { proto: true, required: ['sniHosts'] },
);

export const TLSRoute = message(
  {
    match: list(TLSMatchAttributes),
    route: list(RouteDestination),
  },
  { proto: true, required: ['match'] },
);

export const VirtualServiceSpec = message(
  {
    exportTo: describe(list(string), { help: "Namespaces this config is visible to: '.' for its own namespace, '*' for all (the default)." }),
    gateways: describe(list(string), { help: "Gateways (namespace/name) that apply these routes; 'mesh' means every sidecar. Default: mesh." }),
    hosts: describe(list(string), { help: 'Destination hosts this routing applies to: service names, FQDNs, wildcards or IPs.' }),
    http: describe(list(HTTPRoute), { help: 'Ordered HTTP rules; the first rule that matches a request is used.' }),
    tcp: describe(list(TCPRoute), { help: 'Ordered rules for opaque TCP traffic.' }),
    tls: describe(list(TLSRoute), { help: 'Ordered rules for unterminated TLS/HTTPS traffic, matched by SNI.' }),
  },
  { proto: true },
);

export const WorkloadEntrySpec = message(
  {
    address: describe(
      describe(string, {
        maxLength: 256,
        rules: [
          {
            rule: 'self.startsWith("unix://") ? (self.substring(7, 8) == "/" || self.substring(7, 8) == "@") : true',
            message: 'UDS must be an absolute path or abstract socket',
          },
          { rule: 'self.startsWith("unix://") ? !self.endsWith("/") : true', message: 'UDS may not be a dir' },
        ],
      }),
      { help: 'IP, DNS name or unix:// socket of the workload.' },
    ),
    labels: describe(describe(strings, { maxProperties: 256 }), { help: 'Labels of the workload, as selectors see them.' }),
    locality: describe(string, { maxLength: 2048 }),
    network: describe(describe(string, { maxLength: 2048 }), { help: 'Network the workload is in (multi-network meshes).' }),
    ports: describe(
      describe(
        map(describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] })),
        {
          maxProperties: 128,
          rules: [{ rule: 'self.all(key, size(key) < 63 && key.matches("^[a-zA-Z0-9](?:[-a-zA-Z0-9]*[a-zA-Z0-9])?$"))', message: 'port name must be valid' }],
        },
      ),
      { help: "Port names mapped to the workload's port numbers." },
    ),
    serviceAccount: describe(describe(string, { maxLength: 253 }), { help: 'Service account the workload runs as.' }),
    weight: describe(describe(int, { minimum: 0, maximum: 4294967295 }), { help: 'Load-balancing weight of the workload.' }),
  },
  {
    proto: true,
    rules: [
      { rule: 'has(self.address) || has(self.network)', message: 'Address is required' },
      { rule: '(has(self.address) ? self.address : "").startsWith("unix://") ? !has(self.ports) : true', message: 'UDS may not include ports' },
    ],
  },
);

export const WorkloadGroupObjectMeta = message(
  {
    annotations: describe(strings, { maxProperties: 256 }),
    labels: describe(strings, { maxProperties: 256 }),
  },
  { proto: true },
);

export const ExecHealthCheckConfig = message(
  {
    command: list(describe(string, { minLength: 1 })),
  },
  { proto: true, required: ['command'] },
);

export const GrpcHealthCheckConfig = message(
  {
    port: describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] }),
    service: string,
  },
  { proto: true },
);

export const HTTPHeader = message(
  {
    name: describe(string, { pattern: '^[-_A-Za-z0-9]+$' }),
    value: string,
  },
  { proto: true },
);

export const HTTPHealthCheckConfig = message(
  {
    host: string,
    httpHeaders: list(HTTPHeader),
    path: string,
    port: describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] }),
    scheme: describe(string, { rules: [{ rule: 'self in ["", "HTTP", "HTTPS"]', message: 'scheme must be one of [HTTP, HTTPS]' }] }),
  },
  { proto: true, required: ['port'] },
);

export const TCPHealthCheckConfig = message(
  {
    host: string,
    port: describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] }),
  },
  { proto: true, required: ['port'] },
);

export const ReadinessProbe = message(
  {
    exec: ExecHealthCheckConfig,
    failureThreshold: describe(int, { minimum: 0 }),
    grpc: GrpcHealthCheckConfig,
    httpGet: HTTPHealthCheckConfig,
    initialDelaySeconds: describe(int, { minimum: 0 }),
    periodSeconds: describe(int, { minimum: 0 }),
    successThreshold: describe(int, { minimum: 0 }),
    tcpSocket: TCPHealthCheckConfig,
    timeoutSeconds: describe(int, { minimum: 0 }),
  },
  { proto: true, oneOf: [['httpGet', 'tcpSocket', 'exec', 'grpc']] },
);

export const WorkloadEntryTemplate = message(
  {
    address: describe(string, {
      maxLength: 256,
      rules: [
        {
          rule: 'self.startsWith("unix://") ? (self.substring(7, 8) == "/" || self.substring(7, 8) == "@") : true',
          message: 'UDS must be an absolute path or abstract socket',
        },
        { rule: 'self.startsWith("unix://") ? !self.endsWith("/") : true', message: 'UDS may not be a dir' },
      ],
    }),
    labels: describe(strings, { maxProperties: 256 }),
    locality: describe(string, { maxLength: 2048 }),
    network: describe(string, { maxLength: 2048 }),
    ports: describe(
      map(describe(int, { minimum: 0, maximum: 4294967295, rules: [{ rule: '0 < self && self <= 65535', message: 'port must be between 1-65535' }] })),
      {
        maxProperties: 128,
        rules: [{ rule: 'self.all(key, size(key) < 63 && key.matches("^[a-zA-Z0-9](?:[-a-zA-Z0-9]*[a-zA-Z0-9])?$"))', message: 'port name must be valid' }],
      },
    ),
    serviceAccount: describe(string, { maxLength: 253 }),
    weight: describe(int, { minimum: 0, maximum: 4294967295 }),
  },
  {
    proto: true,
    rules: [{ rule: '(has(self.address) ? self.address : "").startsWith("unix://") ? !has(self.ports) : true', message: 'UDS may not include ports' }],
  },
);

export const WorkloadGroupSpec = message(
  {
    metadata: WorkloadGroupObjectMeta,
    probe: describe(ReadinessProbe, { help: 'Readiness probe the proxy runs against the workload.' }),
    template: describe(WorkloadEntryTemplate, { help: 'The WorkloadEntry created for each workload that joins.' }),
  },
  { proto: true, required: ['template'] },
);

/** The kinds this file describes: served versions and the schema of `spec`. */
export const CRDS = [
  {
    group: 'networking.istio.io',
    kind: 'DestinationRule',
    versions: ['v1', 'v1alpha3', 'v1beta1'],
    storage: 'v1',
    spec: DestinationRuleSpec,
    specRequired: false,
  },
  { group: 'networking.istio.io', kind: 'EnvoyFilter', versions: ['v1alpha3'], storage: 'v1alpha3', spec: EnvoyFilterSpec, specRequired: false },
  { group: 'networking.istio.io', kind: 'Gateway', versions: ['v1', 'v1alpha3', 'v1beta1'], storage: 'v1', spec: GatewaySpec, specRequired: false },
  { group: 'networking.istio.io', kind: 'ProxyConfig', versions: ['v1beta1'], storage: 'v1beta1', spec: ProxyConfigSpec, specRequired: false },
  { group: 'networking.istio.io', kind: 'ServiceEntry', versions: ['v1', 'v1alpha3', 'v1beta1'], storage: 'v1', spec: ServiceEntrySpec, specRequired: true },
  { group: 'networking.istio.io', kind: 'Sidecar', versions: ['v1', 'v1alpha3', 'v1beta1'], storage: 'v1', spec: SidecarSpec, specRequired: false },
  {
    group: 'networking.istio.io',
    kind: 'VirtualService',
    versions: ['v1', 'v1alpha3', 'v1beta1'],
    storage: 'v1',
    spec: VirtualServiceSpec,
    specRequired: false,
  },
  { group: 'networking.istio.io', kind: 'WorkloadEntry', versions: ['v1', 'v1alpha3', 'v1beta1'], storage: 'v1', spec: WorkloadEntrySpec, specRequired: true },
  { group: 'networking.istio.io', kind: 'WorkloadGroup', versions: ['v1', 'v1alpha3', 'v1beta1'], storage: 'v1', spec: WorkloadGroupSpec, specRequired: true },
] as const;
