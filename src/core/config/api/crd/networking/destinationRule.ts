// networking.istio.io DestinationRule: traffic policies, subsets, load balancing, TLS to upstreams (destination_rule.proto).
import { bool, describe, double, enumOf, int, list, map, message, string, strings } from '../../../shape.ts';
import { WorkloadSelector, durationField } from '../common.ts';

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
