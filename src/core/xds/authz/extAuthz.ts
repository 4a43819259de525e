// CUSTOM authorization: the mesh config's `extensionProviders` of type envoyExtAuthzGrpc /
// envoyExtAuthzHttp turned into Envoy ext_authz filters (pilot/pkg/security/authz/builder/
// extauthz.go). A provider with an error (unknown service, bad port, bad statusOnError, …)
// makes every CUSTOM policy that names it a DENY (see builder.ts).
import { goQuote } from '../../go/fmt.ts';
import { parseInt10 } from '../../go/strconv.ts';
import { bool, int, list, message, optional, string, strings } from '../../config/shape.ts';
import { validateFQDN, validateNamespaceSlashWildcardHostname } from '../../validation/webhook/names.ts';
import { validateIPAddress } from '../../validation/webhook/addresses.ts';
import { goParseURL } from '../../validation/webhook/goUrl.ts';
import { cloneJson, type JsonObject } from './matcher.ts';
import { durationJson } from '../duration.ts';
import { RBAC_EXT_AUTHZ_SHADOW_RULES_STAT_PREFIX, RBAC_SHADOW_EFFECTIVE_POLICY_ID } from './rbacRule.ts';

export const EXT_AUTHZ_MATCH_PREFIX = 'istio-ext-authz';
export const BAD_CUSTOM_ACTION_SUFFIX = '-deny-due-to-bad-CUSTOM-action';

export const HTTP_RBAC_FILTER = 'envoy.filters.http.rbac';
export const TCP_RBAC_FILTER = 'envoy.filters.network.rbac';
export const HTTP_EXT_AUTHZ_FILTER = 'envoy.filters.http.ext_authz';
export const TCP_EXT_AUTHZ_FILTER = 'envoy.filters.network.ext_authz';
export const HTTP_EXT_AUTHZ_TYPE = 'type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthz';
export const TCP_EXT_AUTHZ_TYPE = 'type.googleapis.com/envoy.extensions.filters.network.ext_authz.v3.ExtAuthz';

/**
 * The service registry as ext_authz (and JWKS) lookups need it: the services with this
 * exact hostname, one per namespace that defines it (push.ServiceIndex.HostnameAndNamespace).
 */
export type ServiceLookup = (hostname: string) => readonly { hostname: string; namespace: string }[];

/** envoy.type.v3.StatusCode names by number. */
const STATUS_CODES: ReadonlyMap<number, string> = new Map([
  [0, 'Empty'],
  [100, 'Continue'],
  [200, 'OK'],
  [201, 'Created'],
  [202, 'Accepted'],
  [203, 'NonAuthoritativeInformation'],
  [204, 'NoContent'],
  [205, 'ResetContent'],
  [206, 'PartialContent'],
  [207, 'MultiStatus'],
  [208, 'AlreadyReported'],
  [226, 'IMUsed'],
  [300, 'MultipleChoices'],
  [301, 'MovedPermanently'],
  [302, 'Found'],
  [303, 'SeeOther'],
  [304, 'NotModified'],
  [305, 'UseProxy'],
  [307, 'TemporaryRedirect'],
  [308, 'PermanentRedirect'],
  [400, 'BadRequest'],
  [401, 'Unauthorized'],
  [402, 'PaymentRequired'],
  [403, 'Forbidden'],
  [404, 'NotFound'],
  [405, 'MethodNotAllowed'],
  [406, 'NotAcceptable'],
  [407, 'ProxyAuthenticationRequired'],
  [408, 'RequestTimeout'],
  [409, 'Conflict'],
  [410, 'Gone'],
  [411, 'LengthRequired'],
  [412, 'PreconditionFailed'],
  [413, 'PayloadTooLarge'],
  [414, 'URITooLong'],
  [415, 'UnsupportedMediaType'],
  [416, 'RangeNotSatisfiable'],
  [417, 'ExpectationFailed'],
  [421, 'MisdirectedRequest'],
  [422, 'UnprocessableEntity'],
  [423, 'Locked'],
  [424, 'FailedDependency'],
  [426, 'UpgradeRequired'],
  [428, 'PreconditionRequired'],
  [429, 'TooManyRequests'],
  [431, 'RequestHeaderFieldsTooLarge'],
  [500, 'InternalServerError'],
  [501, 'NotImplemented'],
  [502, 'BadGateway'],
  [503, 'ServiceUnavailable'],
  [504, 'GatewayTimeout'],
  [505, 'HTTPVersionNotSupported'],
  [506, 'VariantAlsoNegotiates'],
  [507, 'InsufficientStorage'],
  [508, 'LoopDetected'],
  [510, 'NotExtended'],
  [511, 'NetworkAuthenticationRequired'],
]);

const p = { proto: true };

const RequestBody = message({ maxRequestBytes: int, allowPartialMessage: bool, packAsBytes: bool }, p);

const GrpcProvider = message(
  {
    service: string,
    port: int,
    timeout: optional(string),
    failOpen: bool,
    statusOnError: string,
    includeRequestBodyInCheck: RequestBody,
  },
  p,
);

const HttpProvider = message(
  {
    service: string,
    port: int,
    timeout: optional(string),
    pathPrefix: string,
    failOpen: bool,
    statusOnError: string,
    includeHeadersInCheck: list(string),
    includeRequestHeadersInCheck: list(string),
    includeAdditionalHeadersInCheck: strings,
    includeRequestBodyInCheck: RequestBody,
    headersToUpstreamOnAllow: list(string),
    headersToDownstreamOnDeny: list(string),
    headersToDownstreamOnAllow: list(string),
  },
  p,
);

const ExtensionProvider = message({ name: string, envoyExtAuthzHttp: HttpProvider, envoyExtAuthzGrpc: GrpcProvider }, p);

/** A provider after processing: its filters, or the errors that make it unusable. */
export interface BuiltExtAuthz {
  http?: JsonObject;
  tcp?: JsonObject;
  errors: string[];
  /** What we noticed but istiod would not have got to (a malformed duration stops its mesh config loading). */
  warnings: string[];
}

/** validateProviderName: a DNS-1123-label-like name (lowercase, digits, `-`), ≤ 63 characters. */
function validateProviderName(name: string): string | undefined {
  if (name.length === 0) return 'provider name cannot be empty';
  if (name.length > 63) return `provider name too long (max 63 characters): ${name.length}`;
  let i = 0;
  for (const c of name) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '-') {
      i += new TextEncoder().encode(c).length;
      continue;
    }
    if (c >= 'A' && c <= 'Z') return `uppercase letters not allowed (use lowercase): character ${goQuoteRune(c)} at position ${i}`;
    return `invalid character ${goQuoteRune(c)} at position ${i} (only lowercase letters, digits, and hyphens allowed)`;
  }
  if (name.startsWith('-') || name.endsWith('-')) return 'provider name cannot start or end with hyphen';
  return undefined;
}

function goQuoteRune(c: string): string {
  return `'${goQuote(c).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

function validateExtensionProviderService(service: string): string[] {
  if (service === '') return ['service must not be empty'];
  if (service.split('/').length === 1) {
    if (validateFQDN(service) !== undefined) {
      const ipErr = validateIPAddress(service);
      if (ipErr !== undefined) return [`invalid service fmt ${service}: ${ipErr}`];
    }
    return [];
  }
  return validateNamespaceSlashWildcardHostname(service, false, false).errors.map((e) => e.message);
}

/** strconv.ParseInt(s, 10, 32), undefined on an error. */
function parseInt32(s: string): number | undefined {
  const n = parseInt10(s, 32);
  return typeof n === 'bigint' ? Number(n) : undefined;
}

function validateStatusOnError(status: string): string | undefined {
  if (status === '') return undefined;
  const code = parseInt32(status);
  if (code === undefined) return `invalid statusOnError value ${status}`;
  if (!STATUS_CODES.has(code)) return `unsupported statusOnError value ${status}`;
  return undefined;
}

function parseStatusOnError(status: string): { status?: JsonObject; error?: string } {
  if (status === '') return {};
  const code = parseInt32(status);
  if (code === undefined) return { error: `invalid statusOnError ${goQuote(status)}` };
  const name = STATUS_CODES.get(code);
  if (name === undefined)
    return { error: `unsupported statusOnError ${status}, supported values: [${[...STATUS_CODES.keys()].sort((a, b) => a - b).join(' ')}]` };
  // proto3 JSON leaves out the zero value (Empty).
  return { status: code === 0 ? {} : { code: name } };
}

function parsePort(port: number): number | string {
  return port >= 1 && port <= 65535 ? port : `port must be in the range [1, 65535], found: ${port}`;
}

/** model.LookupCluster: `ns/host` or a host defined in exactly one namespace → (hostname, outbound cluster). */
export function lookupCluster(lookup: ServiceLookup, service: string, port: number): { hostname: string; cluster: string } | { error: string } {
  if (service === '') return { error: 'service must not be empty' };
  const parts = service.split('/');
  if (parts.length === 2) {
    const [namespace, name] = parts as [string, string];
    const svc = lookup(name).find((s) => s.namespace === namespace);
    if (svc) return { hostname: svc.hostname, cluster: `outbound|${port}||${svc.hostname}` };
  } else {
    const namespaces = [...new Set(lookup(service).map((s) => s.namespace))];
    if (namespaces.length === 1) {
      const svc = lookup(service)[0] as { hostname: string };
      return { hostname: svc.hostname, cluster: `outbound|${port}||${svc.hostname}` };
    }
    if (namespaces.length > 1) {
      return {
        error: `found ${service} in multiple namespaces [${namespaces.join(' ')}], specify the namespace explicitly in the format of <Namespace>/<Hostname>`,
      };
    }
  }
  return { error: `could not find service ${service} in Istio service registry` };
}

function timeoutOrDefault(t: string | undefined, warnings: string[]): string {
  if (t === undefined) return '600s';
  const timeout = durationJson(t);
  if (timeout === undefined) {
    // istiod would not have loaded a mesh config with a malformed duration at all.
    warnings.push(`invalid timeout ${goQuote(t)}: not a duration (istiod would reject the mesh config); shown with the default 600s`);
    return '600s';
  }
  return timeout;
}

function withBodyRequest(b: ReturnType<typeof RequestBody.read>): JsonObject | undefined {
  if (!b) return undefined;
  const out: JsonObject = {};
  if (b.maxRequestBytes) out.maxRequestBytes = b.maxRequestBytes >>> 0;
  if (b.allowPartialMessage) out.allowPartialMessage = true;
  if (b.packAsBytes) out.packAsBytes = true;
  return out;
}

/** generateHeaders: `*x` suffix, `x*` prefix, else exact; all ignoring case. */
function generateHeaders(headers: readonly string[]): JsonObject | undefined {
  if (headers.length === 0) return undefined;
  return {
    patterns: headers.map((h): JsonObject => {
      if (h.startsWith('*')) return { ignoreCase: true, suffix: h.slice(1) };
      if (h.endsWith('*')) return { ignoreCase: true, prefix: h.slice(0, -1) };
      return { ignoreCase: true, exact: h };
    }),
  };
}

/** The ext_authz `filter_enabled_metadata`: run only when a CUSTOM policy of this provider matched in the shadow RBAC filter. */
export function filterEnabledMetadata(rbacFilter: string, provider?: string): JsonObject {
  return {
    filter: rbacFilter,
    path: [{ key: RBAC_EXT_AUTHZ_SHADOW_RULES_STAT_PREFIX + RBAC_SHADOW_EFFECTIVE_POLICY_ID }],
    value: { stringMatch: { prefix: provider === undefined ? EXT_AUTHZ_MATCH_PREFIX : `${EXT_AUTHZ_MATCH_PREFIX}-${provider}` } },
  };
}

type HttpProviderConfig = NonNullable<ReturnType<typeof HttpProvider.read>>;
type GrpcProviderConfig = NonNullable<ReturnType<typeof GrpcProvider.read>>;

function buildExtAuthzHTTP(lookup: ServiceLookup, c: HttpProviderConfig): { built?: BuiltExtAuthz; errors: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const port = parsePort(c.port);
  if (typeof port === 'string') errors.push(port);
  const cl = lookupCluster(lookup, c.service, typeof port === 'number' ? port : 0);
  if ('error' in cl) errors.push(cl.error);
  const status = parseStatusOnError(c.statusOnError);
  if (status.error) errors.push(status.error);
  if (c.pathPrefix !== '') {
    const u = goParseURL(c.pathPrefix);
    if (typeof u === 'string') errors.push(`invalid pathPrefix ${goQuote(c.pathPrefix)}: ${u}`);
    if (!c.pathPrefix.startsWith('/')) errors.push(`pathPrefix must begin with \`/\`, found: ${goQuote(c.pathPrefix)}`);
  }
  const checkWildcard = (fieldName: string, values: readonly string[]) => {
    for (const v of values) if (v === '*') errors.push(`a single wildcard ("*") is not supported, change it to either prefix or suffix match: ${fieldName}`);
  };
  checkWildcard('IncludeRequestHeadersInCheck', c.includeRequestHeadersInCheck);
  checkWildcard('IncludeHeadersInCheck', c.includeHeadersInCheck);
  checkWildcard('HeadersToDownstreamOnDeny', c.headersToDownstreamOnDeny);
  checkWildcard('HeadersToDownstreamOnAllow', c.headersToDownstreamOnAllow);
  checkWildcard('HeadersToUpstreamOnAllow', c.headersToUpstreamOnAllow);
  if (errors.length > 0 || 'error' in cl) return { errors };

  const service: JsonObject = {
    serverUri: { uri: `http://${cl.hostname}`, cluster: cl.cluster, timeout: timeoutOrDefault(c.timeout, warnings) },
  };
  if (c.pathPrefix !== '') service.pathPrefix = c.pathPrefix;
  // IncludeHeadersInCheck is deprecated: used only when IncludeRequestHeadersInCheck is unset.
  const allowedHeaders = generateHeaders(c.includeRequestHeadersInCheck) ?? generateHeaders(c.includeHeadersInCheck);
  const additional = Object.keys(c.includeAdditionalHeadersInCheck).sort();
  if (additional.length > 0) {
    service.authorizationRequest = { headersToAdd: additional.map((k) => ({ key: k, value: c.includeAdditionalHeadersInCheck[k] as string })) };
  }
  if (c.headersToUpstreamOnAllow.length > 0 || c.headersToDownstreamOnDeny.length > 0 || c.headersToDownstreamOnAllow.length > 0) {
    const resp: JsonObject = {};
    const up = generateHeaders(c.headersToUpstreamOnAllow);
    const deny = generateHeaders(c.headersToDownstreamOnDeny);
    const allow = generateHeaders(c.headersToDownstreamOnAllow);
    if (up) resp.allowedUpstreamHeaders = up;
    if (deny) resp.allowedClientHeaders = deny;
    if (allow) resp.allowedClientHeadersOnSuccess = allow;
    service.authorizationResponse = resp;
  }
  const http: JsonObject = { '@type': HTTP_EXT_AUTHZ_TYPE };
  if (status.status) http.statusOnError = status.status;
  if (c.failOpen) http.failureModeAllow = true;
  http.transportApiVersion = 'V3';
  http.httpService = service;
  http.filterEnabledMetadata = filterEnabledMetadata(HTTP_RBAC_FILTER);
  const body = withBodyRequest(c.includeRequestBodyInCheck);
  if (body) http.withRequestBody = body;
  if (allowedHeaders) http.allowedHeaders = allowedHeaders;
  return { built: { http, errors: [], warnings }, errors };
}

function buildExtAuthzGRPC(lookup: ServiceLookup, c: GrpcProviderConfig): { built?: BuiltExtAuthz; errors: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const port = parsePort(c.port);
  if (typeof port === 'string') errors.push(port);
  const cl = lookupCluster(lookup, c.service, typeof port === 'number' ? port : 0);
  if ('error' in cl) errors.push(cl.error);
  const status = parseStatusOnError(c.statusOnError);
  if (status.error) errors.push(status.error);
  if (errors.length > 0 || 'error' in cl) return { errors };

  const grpc: JsonObject = {
    envoyGrpc: { clusterName: cl.cluster, authority: cl.hostname },
    timeout: timeoutOrDefault(c.timeout, warnings),
  };
  const http: JsonObject = { '@type': HTTP_EXT_AUTHZ_TYPE };
  if (status.status) http.statusOnError = status.status;
  if (c.failOpen) http.failureModeAllow = true;
  http.grpcService = grpc;
  http.filterEnabledMetadata = filterEnabledMetadata(HTTP_RBAC_FILTER);
  http.transportApiVersion = 'V3';
  const body = withBodyRequest(c.includeRequestBodyInCheck);
  if (body) http.withRequestBody = body;
  const tcp: JsonObject = { '@type': TCP_EXT_AUTHZ_TYPE, statPrefix: 'tcp.' };
  if (c.failOpen) tcp.failureModeAllow = true;
  tcp.transportApiVersion = 'V3';
  tcp.grpcService = cloneJson(grpc);
  tcp.filterEnabledMetadata = filterEnabledMetadata(TCP_RBAC_FILTER);
  return { built: { http, tcp, errors: [], warnings }, errors };
}

/**
 * processExtensionProvider: every ext_authz provider of the mesh config by name, with its
 * filters or its errors. Providers of other types (tracing, access logging, …) are skipped.
 */
export function processExtensionProviders(providers: readonly unknown[], lookup: ServiceLookup): Map<string, BuiltExtAuthz> {
  const resolved = new Map<string, BuiltExtAuthz>();
  providers.forEach((raw, i) => {
    const config = ExtensionProvider.readOrEmpty(raw);
    const errs: string[] = [];
    if (config.name === '') errs.push(`extension provider name must not be empty, found empty at index: ${i}`);
    else if (resolved.has(config.name)) errs.push(`extension provider name must be unique, found duplicate: ${config.name}`);
    if (config.name !== '') {
      const nameErr = validateProviderName(config.name);
      if (nameErr) errs.push(`invalid provider name ${goQuote(config.name)}: ${nameErr}`);
    }
    let parsed: { built?: BuiltExtAuthz; errors: string[] };
    if (config.envoyExtAuthzHttp) {
      const c = config.envoyExtAuthzHttp;
      const v = [...portErrors(c.port, false), ...validateExtensionProviderService(c.service), ...statusErrors(c.statusOnError)];
      if (c.pathPrefix !== '') {
        const u = goParseURL(c.pathPrefix);
        if (typeof u === 'string') v.push(`invalid pathPrefix ${c.pathPrefix}: ${u}`);
        if (!c.pathPrefix.startsWith('/')) v.push(`pathPrefix should begin with \`/\` but found ${goQuote(c.pathPrefix)}`);
      }
      parsed = v.length > 0 ? { errors: v } : buildExtAuthzHTTP(lookup, c);
    } else if (config.envoyExtAuthzGrpc) {
      const c = config.envoyExtAuthzGrpc;
      const v = [...portErrors(c.port, true), ...validateExtensionProviderService(c.service), ...statusErrors(c.statusOnError)];
      parsed = v.length > 0 ? { errors: v } : buildExtAuthzGRPC(lookup, c);
    } else {
      return;
    }
    if (!parsed.built) errs.push(...parsed.errors.map((e) => `failed to parse extension provider ${goQuote(config.name)}: ${e}`));
    const built: BuiltExtAuthz = parsed.built ?? { errors: [], warnings: [] };
    built.errors = errs;
    resolved.set(config.name, built);
  });
  return resolved;
}

function portErrors(port: number, grpc: boolean): string[] {
  if (port >= 1 && port <= 65535) return [];
  const msg = `port number ${port} must be in the range 1..65535`;
  return [grpc ? `invalid service port: ${msg}` : msg];
}

function statusErrors(status: string): string[] {
  const e = validateStatusOnError(status);
  return e ? [e] : [];
}

/** getExtAuthz: the provider's filters, or why it cannot be used. */
export function getExtAuthz(resolved: ReadonlyMap<string, BuiltExtAuthz>, provider: string): BuiltExtAuthz | { error: string } {
  const ret = resolved.get(provider);
  if (ret === undefined) return { error: `available providers are [${[...resolved.keys()].join(' ')}] but found ${goQuote(provider)}` };
  if (ret.errors.length > 0) return { error: `found errors in provider ${provider}: ${ret.errors.join('; ')}` };
  return ret;
}
