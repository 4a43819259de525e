// The Gateway API kinds (gateway.networking.k8s.io, experimental channel, which Istio
// implements) as their CRDs accept them: fields, types, enum values, bounds and patterns,
// transcribed into our shapes for structural checks (their CEL rules are not carried). The
// help lines are ours.
import { bool, describe, enumOf, int, list, map, message, string, strings } from '../../shape.ts';

export const GatewaySpecAddress = message(
  {
    type: describe(string, {
      pattern: "^Hostname|IPAddress|NamedAddress|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/[A-Za-z0-9\\/\\-._~%!$&'()*+,;=:]+$",
      minLength: 1,
      maxLength: 253,
    }),
    value: describe(string, { maxLength: 253 }),
  },
  { proto: true },
);

export const LabelSelectorRequirement = message(
  {
    key: string,
    operator: string,
    values: describe(list(string), { listType: 'atomic' }),
  },
  { proto: true, required: ['key', 'operator'] },
);

export const LabelSelector = message(
  {
    matchExpressions: describe(list(LabelSelectorRequirement), { listType: 'atomic' }),
    matchLabels: strings,
  },
  { proto: true },
);

export const ListenerNamespaces = message(
  {
    from: enumOf(['All', 'Selector', 'Same', 'None']),
    selector: LabelSelector,
  },
  { proto: true },
);

export const AllowedListeners = message(
  {
    namespaces: ListenerNamespaces,
  },
  { proto: true },
);

export const LocalParametersReference = message(
  {
    group: describe(string, { pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 }),
    kind: describe(string, { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$', minLength: 1, maxLength: 63 }),
    name: describe(string, { minLength: 1, maxLength: 253 }),
  },
  { proto: true, required: ['group', 'kind', 'name'] },
);

export const GatewayInfrastructure = message(
  {
    annotations: describe(map(describe(string, { minLength: 0, maxLength: 4096 })), { maxProperties: 16 }),
    labels: describe(map(describe(string, { pattern: '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$', minLength: 0, maxLength: 63 })), { maxProperties: 8 }),
    parametersRef: LocalParametersReference,
  },
  { proto: true },
);

export const RouteGroupKind = message(
  {
    group: describe(string, { pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 }),
    kind: describe(string, { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$', minLength: 1, maxLength: 63 }),
  },
  { proto: true, required: ['kind'] },
);

export const RouteNamespaces = message(
  {
    from: enumOf(['All', 'Selector', 'Same']),
    selector: LabelSelector,
  },
  { proto: true },
);

export const AllowedRoutes = message(
  {
    kinds: describe(list(RouteGroupKind), { maxItems: 8, listType: 'atomic' }),
    namespaces: RouteNamespaces,
  },
  { proto: true },
);

export const SecretObjectReference = message(
  {
    group: describe(string, { pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 }),
    kind: describe(string, { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$', minLength: 1, maxLength: 63 }),
    name: describe(string, { minLength: 1, maxLength: 253 }),
    namespace: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', minLength: 1, maxLength: 63 }),
  },
  { proto: true, required: ['name'] },
);

export const ListenerTLSConfig = message(
  {
    certificateRefs: describe(list(SecretObjectReference), { maxItems: 64, listType: 'atomic' }),
    mode: enumOf(['Terminate', 'Passthrough']),
    options: describe(map(describe(string, { minLength: 0, maxLength: 4096 })), { maxProperties: 16 }),
  },
  { proto: true },
);

export const Listener = message(
  {
    allowedRoutes: describe(AllowedRoutes, { help: 'Which routes may attach: by namespace and kind.' }),
    hostname: describe(
      describe(string, { pattern: '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', minLength: 1, maxLength: 253 }),
      { help: 'Only requests for this hostname (wildcards allowed) are accepted.' },
    ),
    name: describe(describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', minLength: 1, maxLength: 253 }), {
      help: 'Name of the listener, unique in the Gateway; routes refer to it as sectionName.',
    }),
    port: describe(describe(int, { minimum: 1, maximum: 65535 }), { help: 'Port to listen on.' }),
    protocol: describe(
      describe(string, {
        pattern: '^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?$|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/[A-Za-z0-9]+$',
        minLength: 1,
        maxLength: 255,
      }),
      { help: 'HTTP, HTTPS, TLS, TCP, UDP or an implementation-specific protocol.' },
    ),
    tls: describe(ListenerTLSConfig, { help: 'TLS settings: Terminate with certificateRefs, or Passthrough.' }),
  },
  { proto: true, required: ['name', 'port', 'protocol'] },
);

export const GatewayBackendTLS = message(
  {
    clientCertificateRef: SecretObjectReference,
  },
  { proto: true },
);

export const ObjectReference = message(
  {
    group: describe(string, { pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 }),
    kind: describe(string, { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$', minLength: 1, maxLength: 63 }),
    name: describe(string, { minLength: 1, maxLength: 253 }),
    namespace: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', minLength: 1, maxLength: 63 }),
  },
  { proto: true, required: ['group', 'kind', 'name'] },
);

export const FrontendTLSValidation = message(
  {
    caCertificateRefs: describe(list(ObjectReference), { minItems: 1, maxItems: 16, listType: 'atomic' }),
    mode: enumOf(['AllowValidOnly', 'AllowInsecureFallback']),
  },
  { proto: true, required: ['caCertificateRefs'] },
);

export const TLSConfig = message(
  {
    validation: FrontendTLSValidation,
  },
  { proto: true },
);

export const TLSPortConfig = message(
  {
    port: describe(int, { minimum: 1, maximum: 65535 }),
    tls: TLSConfig,
  },
  { proto: true, required: ['port', 'tls'] },
);

export const FrontendTLSConfig = message(
  {
    default: TLSConfig,
    perPort: describe(list(TLSPortConfig), { maxItems: 64, listType: 'map', listMapKeys: ['port'] }),
  },
  { proto: true, required: ['default'] },
);

export const GatewayTLSConfig = message(
  {
    backend: GatewayBackendTLS,
    frontend: FrontendTLSConfig,
  },
  { proto: true },
);

export const GatewaySpec = message(
  {
    addresses: describe(describe(list(GatewaySpecAddress), { maxItems: 16, listType: 'atomic' }), { help: 'Addresses requested for the Gateway.' }),
    allowedListeners: AllowedListeners,
    defaultScope: enumOf(['All', 'None']),
    gatewayClassName: describe(describe(string, { minLength: 1, maxLength: 253 }), {
      help: 'The GatewayClass that implements this Gateway (istio, istio-waypoint, …).',
    }),
    infrastructure: GatewayInfrastructure,
    listeners: describe(describe(list(Listener), { minItems: 1, maxItems: 64, listType: 'map', listMapKeys: ['name'] }), {
      help: 'Ports, protocols and hostnames the Gateway accepts traffic on.',
    }),
    tls: GatewayTLSConfig,
  },
  { proto: true, required: ['gatewayClassName', 'listeners'] },
);

export const ParentReference = message(
  {
    group: describe(string, { pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 }),
    kind: describe(string, { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$', minLength: 1, maxLength: 63 }),
    name: describe(describe(string, { minLength: 1, maxLength: 253 }), { help: 'Name of the parent (a Gateway, or a Service for mesh routes).' }),
    namespace: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', minLength: 1, maxLength: 63 }),
    port: describe(int, { minimum: 1, maximum: 65535 }),
    sectionName: describe(describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', minLength: 1, maxLength: 253 }), {
      help: 'Name of the listener (or port) to attach to.',
    }),
  },
  { proto: true, required: ['name'] },
);

export const HTTPCORSFilter = message(
  {
    allowCredentials: bool,
    allowHeaders: describe(list(describe(string, { pattern: "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$", minLength: 1, maxLength: 256 })), {
      maxItems: 64,
      listType: 'set',
    }),
    allowMethods: describe(list(enumOf(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH', '*'])), {
      maxItems: 9,
      listType: 'set',
    }),
    allowOrigins: describe(
      list(
        describe(string, {
          pattern: '(^\\*$)|(^(http(s)?):\\/\\/(((\\*\\.)?([a-zA-Z0-9\\-]+\\.)*[a-zA-Z0-9-]+|\\*)(:([0-9]{1,5}))?)$)',
          minLength: 1,
          maxLength: 253,
        }),
      ),
      { maxItems: 64, listType: 'set' },
    ),
    exposeHeaders: describe(list(describe(string, { pattern: "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$", minLength: 1, maxLength: 256 })), {
      maxItems: 64,
      listType: 'set',
    }),
    maxAge: describe(int, { minimum: 1 }),
  },
  { proto: true },
);

export const BackendObjectReference = message(
  {
    group: describe(string, { pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 }),
    kind: describe(string, { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$', minLength: 1, maxLength: 63 }),
    name: describe(string, { minLength: 1, maxLength: 253 }),
    namespace: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', minLength: 1, maxLength: 63 }),
    port: describe(int, { minimum: 1, maximum: 65535 }),
  },
  { proto: true, required: ['name'] },
);

export const ForwardBodyConfig = message(
  {
    maxSize: describe(int, { minimum: 0 }),
  },
  { proto: true },
);

export const GRPCAuthConfig = message(
  {
    allowedHeaders: describe(list(string), { maxItems: 64, listType: 'set' }),
  },
  { proto: true },
);

export const HTTPAuthConfig = message(
  {
    allowedHeaders: describe(list(string), { maxItems: 64, listType: 'set' }),
    allowedResponseHeaders: describe(list(string), { maxItems: 64, listType: 'set' }),
    path: describe(string, { pattern: "^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$", maxLength: 1024 }),
  },
  { proto: true },
);

export const HTTPExternalAuthFilter = message(
  {
    backendRef: BackendObjectReference,
    forwardBody: ForwardBodyConfig,
    grpc: GRPCAuthConfig,
    http: HTTPAuthConfig,
    protocol: enumOf(['HTTP', 'GRPC']),
  },
  { proto: true, required: ['backendRef', 'protocol'] },
);

export const HTTPHeader = message(
  {
    name: describe(string, { pattern: "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$", minLength: 1, maxLength: 256 }),
    value: describe(string, { pattern: '^[!-~]+([\\t ]?[!-~]+)*$', minLength: 1, maxLength: 4096 }),
  },
  { proto: true, required: ['name', 'value'] },
);

export const HTTPHeaderFilter = message(
  {
    add: describe(list(HTTPHeader), { maxItems: 16, listType: 'map', listMapKeys: ['name'] }),
    remove: describe(list(string), { maxItems: 16, listType: 'set' }),
    set: describe(list(HTTPHeader), { maxItems: 16, listType: 'map', listMapKeys: ['name'] }),
  },
  { proto: true },
);

export const Fraction = message(
  {
    denominator: describe(int, { minimum: 1 }),
    numerator: describe(int, { minimum: 0 }),
  },
  { proto: true, required: ['numerator'] },
);

export const HTTPRequestMirrorFilter = message(
  {
    backendRef: BackendObjectReference,
    fraction: Fraction,
    percent: describe(int, { minimum: 0, maximum: 100 }),
  },
  { proto: true, required: ['backendRef'] },
);

export const HTTPPathModifier = message(
  {
    replaceFullPath: describe(string, { maxLength: 1024 }),
    replacePrefixMatch: describe(string, { maxLength: 1024 }),
    type: enumOf(['ReplaceFullPath', 'ReplacePrefixMatch']),
  },
  { proto: true, required: ['type'] },
);

export const HTTPRequestRedirectFilter = message(
  {
    hostname: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', minLength: 1, maxLength: 253 }),
    path: HTTPPathModifier,
    port: describe(int, { minimum: 1, maximum: 65535 }),
    scheme: enumOf(['http', 'https']),
    statusCode: describe(int, { enum: [301, 302, 303, 307, 308] }),
  },
  { proto: true },
);

export const HTTPURLRewriteFilter = message(
  {
    hostname: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', minLength: 1, maxLength: 253 }),
    path: HTTPPathModifier,
  },
  { proto: true },
);

export const HTTPRouteFilter = message(
  {
    cors: HTTPCORSFilter,
    extensionRef: LocalParametersReference,
    externalAuth: HTTPExternalAuthFilter,
    requestHeaderModifier: HTTPHeaderFilter,
    requestMirror: HTTPRequestMirrorFilter,
    requestRedirect: HTTPRequestRedirectFilter,
    responseHeaderModifier: HTTPHeaderFilter,
    type: enumOf(['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestMirror', 'RequestRedirect', 'URLRewrite', 'ExtensionRef', 'CORS', 'ExternalAuth']),
    urlRewrite: HTTPURLRewriteFilter,
  },
  { proto: true, required: ['type'] },
);

export const HTTPBackendRef = message(
  {
    filters: describe(list(HTTPRouteFilter), { maxItems: 16, listType: 'atomic' }),
    group: describe(string, { pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 }),
    kind: describe(string, { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$', minLength: 1, maxLength: 63 }),
    name: describe(string, { minLength: 1, maxLength: 253 }),
    namespace: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', minLength: 1, maxLength: 63 }),
    port: describe(int, { minimum: 1, maximum: 65535 }),
    weight: describe(describe(int, { minimum: 0, maximum: 1000000 }), { help: 'Share of traffic for this backend, relative to the others.' }),
  },
  { proto: true, required: ['name'] },
);

export const HTTPHeaderMatch = message(
  {
    name: describe(string, { pattern: "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$", minLength: 1, maxLength: 256 }),
    type: enumOf(['Exact', 'RegularExpression']),
    value: describe(string, { pattern: '^[!-~]+([\\t ]?[!-~]+)*$', minLength: 1, maxLength: 4096 }),
  },
  { proto: true, required: ['name', 'value'] },
);

export const HTTPPathMatch = message(
  {
    type: enumOf(['Exact', 'PathPrefix', 'RegularExpression']),
    value: describe(string, { maxLength: 1024 }),
  },
  { proto: true },
);

export const HTTPQueryParamMatch = message(
  {
    name: describe(string, { pattern: "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$", minLength: 1, maxLength: 256 }),
    type: enumOf(['Exact', 'RegularExpression']),
    value: describe(string, { minLength: 1, maxLength: 1024 }),
  },
  { proto: true, required: ['name', 'value'] },
);

export const HTTPRouteMatch = message(
  {
    headers: describe(list(HTTPHeaderMatch), { maxItems: 16, listType: 'map', listMapKeys: ['name'] }),
    method: enumOf(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']),
    path: HTTPPathMatch,
    queryParams: describe(list(HTTPQueryParamMatch), { maxItems: 16, listType: 'map', listMapKeys: ['name'] }),
  },
  { proto: true },
);

export const HTTPRouteRetry = message(
  {
    attempts: describe(int, { minimum: 1 }),
    backoff: describe(string, { pattern: '^([0-9]{1,5}(h|m|s|ms)){1,4}$' }),
    codes: describe(list(describe(int, { minimum: 400, maximum: 599 })), { listType: 'set' }),
  },
  { proto: true },
);

export const CookieConfig = message(
  {
    lifetimeType: enumOf(['Permanent', 'Session']),
    name: describe(string, { pattern: "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$", minLength: 1, maxLength: 256 }),
    path: describe(string, { maxLength: 1024 }),
  },
  { proto: true },
);

export const HeaderConfig = message(
  {
    name: describe(string, { pattern: "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$", minLength: 1, maxLength: 256 }),
  },
  { proto: true, required: ['name'] },
);

export const SessionPersistence = message(
  {
    absoluteTimeout: describe(string, { pattern: '^([0-9]{1,5}(h|m|s|ms)){1,4}$' }),
    cookie: CookieConfig,
    header: HeaderConfig,
    type: enumOf(['Cookie', 'Header']),
  },
  { proto: true },
);

export const HTTPRouteTimeouts = message(
  {
    backendRequest: describe(string, { pattern: '^([0-9]{1,5}(h|m|s|ms)){1,4}$' }),
    request: describe(string, { pattern: '^([0-9]{1,5}(h|m|s|ms)){1,4}$' }),
  },
  { proto: true },
);

export const HTTPRouteRule = message(
  {
    backendRefs: describe(describe(list(HTTPBackendRef), { maxItems: 16, listType: 'atomic' }), { help: 'Where to send matched requests, split by weight.' }),
    filters: describe(describe(list(HTTPRouteFilter), { maxItems: 16, listType: 'atomic' }), {
      help: 'Changes to requests or responses: header edits, redirects, rewrites, mirroring.',
    }),
    matches: describe(describe(list(HTTPRouteMatch), { maxItems: 64, listType: 'atomic' }), {
      help: 'Conditions on path, headers, query parameters and method; any one must match.',
    }),
    name: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', minLength: 1, maxLength: 253 }),
    retry: HTTPRouteRetry,
    sessionPersistence: SessionPersistence,
    timeouts: describe(HTTPRouteTimeouts, { help: 'Request and backend request timeouts.' }),
  },
  { proto: true },
);

export const HTTPRouteSpec = message(
  {
    hostnames: describe(
      describe(
        list(describe(string, { pattern: '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', minLength: 1, maxLength: 253 })),
        { maxItems: 16, listType: 'atomic' },
      ),
      { help: 'Hostnames the route matches (Host header).' },
    ),
    parentRefs: describe(describe(list(ParentReference), { maxItems: 32, listType: 'atomic' }), {
      help: 'The Gateways (or Services, for mesh routing) this route attaches to.',
    }),
    rules: describe(describe(list(HTTPRouteRule), { minItems: 1, maxItems: 16, listType: 'atomic' }), { help: 'Matches, filters and backends of the route.' }),
    useDefaultGateways: enumOf(['All', 'None']),
  },
  { proto: true },
);

export const GRPCRouteFilter = message(
  {
    extensionRef: LocalParametersReference,
    requestHeaderModifier: HTTPHeaderFilter,
    requestMirror: HTTPRequestMirrorFilter,
    responseHeaderModifier: HTTPHeaderFilter,
    type: enumOf(['ResponseHeaderModifier', 'RequestHeaderModifier', 'RequestMirror', 'ExtensionRef']),
  },
  { proto: true, required: ['type'] },
);

export const GRPCBackendRef = message(
  {
    filters: describe(list(GRPCRouteFilter), { maxItems: 16, listType: 'atomic' }),
    group: describe(string, { pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 }),
    kind: describe(string, { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$', minLength: 1, maxLength: 63 }),
    name: describe(string, { minLength: 1, maxLength: 253 }),
    namespace: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', minLength: 1, maxLength: 63 }),
    port: describe(int, { minimum: 1, maximum: 65535 }),
    weight: describe(int, { minimum: 0, maximum: 1000000 }),
  },
  { proto: true, required: ['name'] },
);

export const GRPCHeaderMatch = message(
  {
    name: describe(string, { pattern: "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$", minLength: 1, maxLength: 256 }),
    type: enumOf(['Exact', 'RegularExpression']),
    value: describe(string, { minLength: 1, maxLength: 4096 }),
  },
  { proto: true, required: ['name', 'value'] },
);

export const GRPCMethodMatch = message(
  {
    method: describe(string, { maxLength: 1024 }),
    service: describe(string, { maxLength: 1024 }),
    type: enumOf(['Exact', 'RegularExpression']),
  },
  { proto: true },
);

export const GRPCRouteMatch = message(
  {
    headers: describe(list(GRPCHeaderMatch), { maxItems: 16, listType: 'map', listMapKeys: ['name'] }),
    method: GRPCMethodMatch,
  },
  { proto: true },
);

export const GRPCRouteRule = message(
  {
    backendRefs: describe(list(GRPCBackendRef), { maxItems: 16, listType: 'atomic' }),
    filters: describe(list(GRPCRouteFilter), { maxItems: 16, listType: 'atomic' }),
    matches: describe(list(GRPCRouteMatch), { maxItems: 64, listType: 'atomic' }),
    name: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', minLength: 1, maxLength: 253 }),
    sessionPersistence: SessionPersistence,
  },
  { proto: true },
);

export const GRPCRouteSpec = message(
  {
    hostnames: describe(
      list(describe(string, { pattern: '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', minLength: 1, maxLength: 253 })),
      { maxItems: 16, listType: 'atomic' },
    ),
    parentRefs: describe(list(ParentReference), { maxItems: 32, listType: 'atomic' }),
    rules: describe(list(GRPCRouteRule), { maxItems: 16, listType: 'atomic' }),
    useDefaultGateways: enumOf(['All', 'None']),
  },
  { proto: true },
);

export const BackendRef = message(
  {
    group: describe(string, { pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 }),
    kind: describe(string, { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$', minLength: 1, maxLength: 63 }),
    name: describe(string, { minLength: 1, maxLength: 253 }),
    namespace: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', minLength: 1, maxLength: 63 }),
    port: describe(int, { minimum: 1, maximum: 65535 }),
    weight: describe(describe(int, { minimum: 0, maximum: 1000000 }), { help: 'Share of traffic for this backend, relative to the others.' }),
  },
  { proto: true, required: ['name'] },
);

export const TCPRouteRule = message(
  {
    backendRefs: describe(list(BackendRef), { minItems: 1, maxItems: 16, listType: 'atomic' }),
    name: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', minLength: 1, maxLength: 253 }),
  },
  { proto: true, required: ['backendRefs'] },
);

export const TCPRouteSpec = message(
  {
    parentRefs: describe(list(ParentReference), { maxItems: 32, listType: 'atomic' }),
    rules: describe(list(TCPRouteRule), { minItems: 1, maxItems: 1, listType: 'atomic' }),
    useDefaultGateways: enumOf(['All', 'None']),
  },
  { proto: true, required: ['rules'] },
);

export const TLSRouteSpec = message(
  {
    hostnames: describe(
      list(describe(string, { pattern: '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', minLength: 1, maxLength: 253 })),
      { minItems: 1, maxItems: 1024, listType: 'atomic' },
    ),
    parentRefs: describe(list(ParentReference), { maxItems: 32, listType: 'atomic' }),
    rules: describe(list(TCPRouteRule), { minItems: 1, maxItems: 1, listType: 'atomic' }),
    useDefaultGateways: enumOf(['All', 'None']),
  },
  { proto: true, required: ['hostnames', 'rules'] },
);

export const ReferenceGrantFrom = message(
  {
    group: describe(string, { pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 }),
    kind: describe(string, { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$', minLength: 1, maxLength: 63 }),
    namespace: describe(string, { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', minLength: 1, maxLength: 63 }),
  },
  { proto: true, required: ['group', 'kind', 'namespace'] },
);

export const ReferenceGrantTo = message(
  {
    group: describe(string, { pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 }),
    kind: describe(string, { pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$', minLength: 1, maxLength: 63 }),
    name: describe(string, { minLength: 1, maxLength: 253 }),
  },
  { proto: true, required: ['group', 'kind'] },
);

export const ReferenceGrantSpec = message(
  {
    from: describe(describe(list(ReferenceGrantFrom), { minItems: 1, maxItems: 16, listType: 'atomic' }), {
      help: 'Namespaces and kinds allowed to refer to resources in this namespace.',
    }),
    to: describe(describe(list(ReferenceGrantTo), { minItems: 1, maxItems: 16, listType: 'atomic' }), { help: 'Kinds (and names) that may be referred to.' }),
  },
  { proto: true, required: ['from', 'to'] },
);

export const GatewayClassSpec = message(
  {
    controllerName: describe(string, {
      pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/[A-Za-z0-9\\/\\-._~%!$&'()*+,;=:]+$",
      minLength: 1,
      maxLength: 253,
    }),
    description: describe(string, { maxLength: 64 }),
    parametersRef: ObjectReference,
  },
  { proto: true, required: ['controllerName'] },
);

/** The kinds this file describes: served versions and the schema of `spec`. */
export const CRDS = [
  { group: 'gateway.networking.k8s.io', kind: 'Gateway', versions: ['v1', 'v1beta1'], storage: 'v1', spec: GatewaySpec, specRequired: true },
  { group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', versions: ['v1', 'v1beta1'], storage: 'v1', spec: HTTPRouteSpec, specRequired: true },
  { group: 'gateway.networking.k8s.io', kind: 'GRPCRoute', versions: ['v1'], storage: 'v1', spec: GRPCRouteSpec, specRequired: true },
  {
    group: 'gateway.networking.k8s.io',
    kind: 'TCPRoute',
    versions: ['v1', 'v1alpha2'],
    deprecated: { v1alpha2: 'The v1alpha2 version of TCPRoute has been deprecated and will be removed in a future release of the API. Please upgrade to v1.' },
    storage: 'v1',
    spec: TCPRouteSpec,
    specRequired: true,
  },
  {
    group: 'gateway.networking.k8s.io',
    kind: 'TLSRoute',
    versions: ['v1', 'v1alpha2', 'v1alpha3'],
    deprecated: {
      v1alpha2: 'The v1alpha2 version of TLSRoute has been deprecated and will be removed in a future release of the API. Please upgrade to v1.',
      v1alpha3: 'The v1alpha3 version of TLSRoute has been deprecated and will be removed in a future release of the API. Please upgrade to v1.',
    },
    storage: 'v1',
    spec: TLSRouteSpec,
    specRequired: true,
  },
  { group: 'gateway.networking.k8s.io', kind: 'ReferenceGrant', versions: ['v1', 'v1beta1'], storage: 'v1beta1', spec: ReferenceGrantSpec, specRequired: true },
  {
    group: 'gateway.networking.k8s.io',
    kind: 'GatewayClass',
    versions: ['v1', 'v1beta1'],
    storage: 'v1',
    spec: GatewayClassSpec,
    specRequired: true,
    clusterScoped: true,
  },
] as const;
