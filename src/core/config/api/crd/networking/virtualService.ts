// networking.istio.io VirtualService: HTTP, TLS and TCP routes (virtual_service.proto).
import { bool, describe, double, enumOf, int, list, map, message, string, strings } from '../../../shape.ts';
import { durationField } from '../common.ts';
import { PortSelector } from './destinationRule.ts';

export const Destination = message(
  {
    host: describe(string, { help: 'Service to send traffic to: a short name, an FQDN, or a ServiceEntry host.' }),
    port: describe(PortSelector, { help: 'Port of the destination service; needed when it exposes more than one.' }),
    subset: describe(string, { help: "A subset defined in the host's DestinationRule." }),
  },
  { proto: true, required: ['host'] },
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
