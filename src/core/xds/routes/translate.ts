// VirtualService HTTP rules → Envoy routes (pilot/pkg/networking/core/route/route.go,
// spec §2.5): match order and static filtering, matches, route actions with weights,
// rewrites, redirects, direct responses, retries, timeouts, faults, CORS, mirrors, headers and
// consistent-hash policies. Used by sidecars and gateways alike.
import type { Json, Proxy } from '../types.ts';
import type { Destination, HTTPMatchRequest, HTTPRouteDestination } from '../../config/api/networking.ts';
import { configInfoPath, type HttpRule, type Service, type VirtualServiceConfig } from '../pushContext.ts';
import { isValidSubsetKey, parseSubsetKey, subsetKey, UNKNOWN_SERVICE_CLUSTER } from '../names.ts';
import { durationJson, isZeroDuration } from '../duration.ts';
import { convertInboundRetryPolicy, convertRetryPolicy, retryFromRaw, type HttpRetry } from './retry.ts';
import { isObj, str, arr } from '../../document/read.ts';
import { mark } from '../provenance.ts';
import type { MeshSettings } from '../mesh.ts';

export const DEFAULT_ROUTE_NAME = 'default';

export interface RouteOptions {
  isTls: boolean;
  mesh: MeshSettings;
  lookupService(host: string): Service | undefined;
  /** The consistent hash (DestinationRule) of a route destination, if any. */
  lookupHash(dest: HTTPRouteDestination): Json | undefined;
  /** The cluster a destination routes to (default: route.GetDestinationCluster; waypoints pick `inbound-vip` clusters). */
  lookupDestinationCluster?(dest: Destination | undefined, service: Service | undefined, listenerPort: number): string;
}

type StringMatch = HTTPMatchRequest['uri'];

/** util.ConvertToEnvoyMatch. */
export function envoyStringMatch(m: StringMatch): Json | undefined {
  if (!m) return undefined;
  if (m.exact !== undefined) return { exact: m.exact };
  if (m.prefix !== undefined) return { prefix: m.prefix };
  if (m.regex !== undefined) return { safeRegex: { regex: m.regex } };
  return undefined;
}

function canBePresentMatch(m: StringMatch): boolean {
  if (!m) return true;
  if (m.exact === undefined && m.prefix === undefined && m.regex === undefined) return true;
  return m.exact === undefined && m.prefix === undefined && m.regex === '*';
}

function headerMatcher(name: string, m: StringMatch): Json {
  if (canBePresentMatch(m)) return { name, presentMatch: true };
  const sm = envoyStringMatch(m);
  return sm ? { name, stringMatch: sm } : { name };
}

/** jwt.ToRoutingClaim: `@request.auth.claims.a.b` or `@request.auth.claims[a][b]` → the claim path. */
function routingClaim(name: string): string[] | undefined {
  const prefix = '@request.auth.claims';
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  if (rest.startsWith('.')) {
    const parts = rest.slice(1).split('.');
    return parts.every((p) => p !== '') ? parts : undefined;
  }
  if (rest.startsWith('[') && rest.endsWith(']')) {
    const parts = rest.slice(1, -1).split('][');
    return parts.every((p) => p !== '' && !p.includes('[') && !p.includes(']')) ? parts : undefined;
  }
  return undefined;
}

/** authz.MetadataMatcherForJWTClaims: a dynamic metadata matcher on the JWT payload. */
function claimMatcher(claims: string[], m: StringMatch): Json {
  const path = [{ key: 'payload' }, ...claims.map((c) => ({ key: c }))];
  const sm = envoyStringMatch(m) ?? {};
  return { filter: 'envoy.filters.http.jwt_authn', path, value: { listMatch: { oneOf: { stringMatch: sm } } } };
}

/** TranslateRouteMatch. */
export function translateRouteMatch(vs: VirtualServiceConfig | undefined, m: HTTPMatchRequest | undefined): Json {
  const out: Json = { prefix: '/' };
  if (!m) return out;
  const headers: Json[] = [];
  const dynamicMetadata: Json[] = [];
  for (const name of Object.keys(m.headers)) {
    const claims = routingClaim(name);
    if (claims) dynamicMetadata.push(claimMatcher(claims, m.headers[name]));
    else headers.push(headerMatcher(name, m.headers[name]));
  }
  for (const name of Object.keys(m.withoutHeaders)) {
    const sm = m.withoutHeaders[name];
    const claims = routingClaim(name);
    if (claims) {
      dynamicMetadata.push({ ...claimMatcher(claims, sm), invert: true });
      continue;
    }
    const h = headerMatcher(name, sm);
    h.invertMatch = true;
    if (!canBePresentMatch(sm)) h.treatMissingHeaderAsEmpty = true;
    headers.push(h);
  }
  headers.sort((a, b) => ((a.name as string) < (b.name as string) ? -1 : (a.name as string) > (b.name as string) ? 1 : 0));
  const semantic = vs !== undefined && (vs.gatewaySemantics || vs.ingressSemantics);
  if (m.uri) {
    if (m.uri.exact !== undefined) {
      delete out.prefix;
      out.path = m.uri.exact;
    } else if (m.uri.prefix !== undefined) {
      if (semantic && m.uri.prefix !== '/') {
        delete out.prefix;
        out.pathSeparatedPrefix = m.uri.prefix.endsWith('/') ? m.uri.prefix.slice(0, -1) : m.uri.prefix;
      } else out.prefix = m.uri.prefix;
    } else if (m.uri.regex !== undefined) {
      delete out.prefix;
      out.safeRegex = { regex: m.uri.regex };
    }
  }
  out.caseSensitive = !m.ignoreUriCase;
  if (m.method) headers.push(headerMatcher(':method', m.method));
  if (m.authority) headers.push(headerMatcher(':authority', m.authority));
  if (m.scheme) headers.push(headerMatcher(':scheme', m.scheme));
  if (headers.length > 0) out.headers = headers;
  const query: Json[] = [];
  for (const name of Object.keys(m.queryParams)) {
    const sm = m.queryParams[name];
    if (canBePresentMatch(sm)) query.push({ name, presentMatch: true });
    else {
      const em = envoyStringMatch(sm);
      query.push(em ? { name, stringMatch: em } : { name });
    }
  }
  if (query.length > 0) out.queryParameters = query;
  if (dynamicMetadata.length > 0) out.dynamicMetadata = dynamicMetadata;
  return out;
}

/** route.GetDestinationCluster: `outbound|port|subset|host`, `UnknownService` for an empty host. */
export function destinationCluster(dest: Destination | undefined, service: Service | undefined, listenerPort: number): string {
  if (!dest || dest.host === '') return UNKNOWN_SERVICE_CLUSTER;
  let host = dest.host;
  if (service?.externalName) host = service.externalName;
  let port = listenerPort;
  if (dest.port !== undefined) port = dest.port.number;
  else if (service && service.ports.length === 1) port = (service.ports[0] as { port: number }).port;
  return subsetKey('outbound', dest.subset, host, port);
}

interface HeaderOps {
  requestHeadersToAdd: Json[];
  responseHeadersToAdd: Json[];
  requestHeadersToRemove: string[];
  responseHeadersToRemove: string[];
  authority: string;
}

function isInternalHeader(k: string): boolean {
  return k.startsWith(':') || k.toLowerCase() === 'host';
}

function appendHeaders(headers: Readonly<Record<string, string>> | undefined, append: boolean): { list: Json[]; authority: string } {
  const list: Json[] = [];
  let authority = '';
  if (!headers) return { list, authority };
  for (const key of Object.keys(headers)) {
    const value = headers[key] as string;
    if (key.toLowerCase() === ':authority' || key.toLowerCase() === 'host') authority = value;
    if (isInternalHeader(key)) continue;
    list.push(append ? { header: { key, value } } : { header: { key, value }, appendAction: 'OVERWRITE_IF_EXISTS_OR_ADD' });
  }
  list.sort((a, b) => {
    const ak = (a.header as Json).key as string;
    const bk = (b.header as Json).key as string;
    return ak < bk ? -1 : ak > bk ? 1 : 0;
  });
  return { list, authority };
}

/** TranslateHeadersOperations. */
export function translateHeaders(h: HttpRule['headers']): HeaderOps {
  const reqSet = appendHeaders(h?.request?.set, false);
  const reqAdd = appendHeaders(h?.request?.add, true);
  const respSet = appendHeaders(h?.response?.set, false);
  const respAdd = appendHeaders(h?.response?.add, true);
  return {
    requestHeadersToAdd: [...reqSet.list, ...reqAdd.list],
    responseHeadersToAdd: [...respSet.list, ...respAdd.list],
    requestHeadersToRemove: (h?.request?.remove ?? []).filter((k) => !isInternalHeader(k)),
    responseHeadersToRemove: (h?.response?.remove ?? []).filter((k) => !isInternalHeader(k)),
    authority: reqSet.authority !== '' ? reqSet.authority : reqAdd.authority,
  };
}

function percentToFraction(value: number): Json {
  return { numerator: Math.trunc(value * 10000), denominator: 'MILLION' };
}

function intToFraction(n: number): Json {
  return n === 0 ? {} : { numerator: n };
}

const GRPC_STATUS: Readonly<Record<string, number>> = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
};

/** TranslateFault: the HTTPFault per-route config, undefined when neither delay nor abort applies. */
export function translateFault(f: HttpRule['fault']): Json | undefined {
  if (!f) return undefined;
  const out: Json = { '@type': 'type.googleapis.com/envoy.extensions.filters.http.fault.v3.HTTPFault' };
  if (f.delay) {
    const fixed = f.delay.fixedDelay !== undefined ? durationJson(f.delay.fixedDelay) : undefined;
    if (fixed !== undefined)
      out.delay = { fixedDelay: fixed, percentage: f.delay.percentage ? percentToFraction(f.delay.percentage.value) : intToFraction(f.delay.percent) };
  }
  if (f.abort) {
    const abort: Json = {};
    if (f.abort.httpStatus !== 0) abort.httpStatus = f.abort.httpStatus;
    else if (f.abort.grpcStatus !== '') abort.grpcStatus = GRPC_STATUS[f.abort.grpcStatus] ?? 0;
    else return out.delay ? out : undefined;
    if (f.abort.percentage) abort.percentage = percentToFraction(f.abort.percentage.value);
    out.abort = abort;
  }
  if (!out.delay && !out.abort) return undefined;
  return out;
}

/** TranslateCORSPolicy. */
export function translateCors(raw: unknown): Json | undefined {
  if (!isObj(raw)) return undefined;
  const out: Json = { '@type': 'type.googleapis.com/envoy.extensions.filters.http.cors.v3.CorsPolicy' };
  if (Array.isArray(raw.allowOrigins)) {
    const list = raw.allowOrigins
      .filter(isObj)
      .map((m) => envoyStringMatch({ exact: m.exact as string | undefined, prefix: m.prefix as string | undefined, regex: m.regex as string | undefined }))
      .filter((x): x is Json => x !== undefined);
    out.allowOriginStringMatch = list;
  } else if (Array.isArray(raw.allowOrigin)) {
    out.allowOriginStringMatch = raw.allowOrigin.map((o) => ({ exact: str(o) }));
  }
  const methods = arr(raw.allowMethods).map(str).join(',');
  const headers = arr(raw.allowHeaders).map(str).join(',');
  const expose = arr(raw.exposeHeaders).map(str).join(',');
  if (methods !== '') out.allowMethods = methods;
  if (headers !== '') out.allowHeaders = headers;
  if (expose !== '') out.exposeHeaders = expose;
  if (raw.maxAge !== undefined) {
    const d = durationJson(raw.maxAge);
    if (d) out.maxAge = String(Math.trunc(Number(d.slice(0, -1))));
  }
  if (typeof raw.allowCredentials === 'boolean') out.allowCredentials = raw.allowCredentials;
  out.filterEnabled = { defaultValue: { numerator: 100 } };
  out.forwardNotMatchingPreflights = str(raw.unmatchedPreflights) !== 'IGNORE';
  return out;
}

/** MirrorPercent: the mirror's runtime fraction; undefined when mirroring is off (0 %). */
function mirrorPercent(h: HttpRule): Json | undefined {
  if (h.mirrorPercentage) return h.mirrorPercentage.value > 0 ? { defaultValue: percentToFraction(h.mirrorPercentage.value) } : undefined;
  if (h.mirrorPercent !== undefined) return h.mirrorPercent > 0 ? { defaultValue: intToFraction(h.mirrorPercent) } : undefined;
  return { defaultValue: intToFraction(100) };
}

function mirrorPolicy(cluster: string, fraction: Json): Json {
  return { cluster, runtimeFraction: fraction, traceSampled: false, disableShadowHostSuffixAppend: true };
}

/** ConsistentHashToHashPolicy. */
export function hashPolicy(ch: Json | undefined): Json | undefined {
  if (!ch) return undefined;
  if (typeof ch.httpHeaderName === 'string') return { header: { headerName: ch.httpHeaderName } };
  if (isObj(ch.httpCookie)) {
    const c = ch.httpCookie;
    const cookie: Json = { name: str(c.name) };
    const ttl = c.ttl !== undefined ? durationJson(c.ttl) : undefined;
    if (ttl !== undefined) cookie.ttl = ttl;
    if (str(c.path) !== '') cookie.path = str(c.path);
    const attrs = arr(c.attributes)
      .filter(isObj)
      .map((a) => ({ name: str(a.name), ...(str(a.value) !== '' ? { value: str(a.value) } : {}) }));
    if (attrs.length > 0) cookie.attributes = attrs;
    return { cookie };
  }
  if (ch.useSourceIp === true) return { connectionProperties: { sourceIp: true } };
  if (typeof ch.httpQueryParameterName === 'string') return { queryParameter: { name: ch.httpQueryParameterName } };
  return undefined;
}

/** setTimeout: the VirtualService timeout (0s = none), mirrored in max_grpc_timeout. */
function applyTimeout(action: Json, timeout: string | undefined): void {
  const t = timeout !== undefined ? (durationJson(timeout) ?? '0s') : '0s';
  action.timeout = t;
  action.maxGrpcTimeout = isZeroDuration(t) ? '0s' : t;
}

function redirectAction(out: Json, h: HttpRule, port: number, isTls: boolean): void {
  const r = h.redirect as NonNullable<HttpRule['redirect']>;
  const red: Json = {};
  if (r.authority !== '') red.hostRedirect = r.authority;
  if (r.prefixRewrite !== '') red.prefixRewrite = r.prefixRewrite;
  else if (r.uri !== '') red.pathRedirect = r.uri;
  if (r.scheme !== '') red.schemeRedirect = r.scheme;
  let portRedirect = 0;
  let hasPort = false;
  if (r.derivePort !== '') {
    hasPort = true;
    if (r.derivePort === 'FROM_REQUEST_PORT') portRedirect = port;
  } else if (r.port !== 0) {
    hasPort = true;
    portRedirect = r.port;
  }
  if (hasPort) {
    const scheme = r.scheme !== '' ? r.scheme : isTls ? 'https' : 'http';
    if ((portRedirect === 80 && scheme === 'http') || (portRedirect === 443 && scheme === 'https')) portRedirect = 0;
    if (portRedirect !== 0) red.portRedirect = portRedirect;
  }
  const codes: Readonly<Record<number, string>> = { 302: 'FOUND', 303: 'SEE_OTHER', 307: 'TEMPORARY_REDIRECT', 308: 'PERMANENT_REDIRECT' };
  if (r.redirectCode === 0 || r.redirectCode === 301) out.redirect = red;
  else if (codes[r.redirectCode]) out.redirect = { ...red, responseCode: codes[r.redirectCode] };
  // Any other code: the route is left without an action (Istio logs and drops it).
}

function directResponseAction(out: Json, h: HttpRule): void {
  const d = h.directResponse as NonNullable<HttpRule['directResponse']>;
  const dr: Json = { status: d.status };
  if (isObj(d.body)) {
    if (typeof d.body.string === 'string') dr.body = { inlineString: d.body.string };
    else if (typeof d.body.bytes === 'string') dr.body = { inlineBytes: d.body.bytes };
  }
  out.directResponse = dr;
}

function orderedHeaders(route: Json, ops: HeaderOps): void {
  if (ops.requestHeadersToAdd.length > 0) route.requestHeadersToAdd = ops.requestHeadersToAdd;
  if (ops.requestHeadersToRemove.length > 0) route.requestHeadersToRemove = ops.requestHeadersToRemove;
  if (ops.responseHeadersToAdd.length > 0) route.responseHeadersToAdd = ops.responseHeadersToAdd;
  if (ops.responseHeadersToRemove.length > 0) route.responseHeadersToRemove = ops.responseHeadersToRemove;
}

function routeAction(out: Json, ops: HeaderOps, h: HttpRule, vs: VirtualServiceConfig, opts: RouteOptions, listenerPort: number): void {
  const action: Json = {};
  applyTimeout(action, h.timeout);
  let authority = ops.authority;
  if (h.rewrite) {
    const rw = h.rewrite;
    if (isObj(rw.uriRegexRewrite)) action.regexRewrite = { pattern: { regex: str(rw.uriRegexRewrite.match) }, substitution: str(rw.uriRegexRewrite.rewrite) };
    else if (rw.uri !== '') {
      const psp = (out.match as Json).pathSeparatedPrefix;
      if (vs.gatewaySemantics && rw.uri === '/')
        action.regexRewrite = { pattern: { regex: `^${quoteMeta(typeof psp === 'string' ? psp : '')}(/?)(.*)` }, substitution: '/\\2' };
      else action.prefixRewrite = rw.uri;
    }
    if (rw.authority !== '') authority = rw.authority;
  }
  if (authority !== '') action.hostRewriteLiteral = authority;
  const mirrors: Json[] = [];
  if (h.mirror) {
    const mp = mirrorPercent(h);
    if (mp) mirrors.push(mirrorPolicy((opts.lookupDestinationCluster ?? destinationCluster)(h.mirror, opts.lookupService(h.mirror.host), listenerPort), mp));
  }
  for (const m of h.mirrors) {
    if (!m.destination) continue;
    const mp = m.percentage
      ? m.percentage.value > 0
        ? { defaultValue: percentToFraction(m.percentage.value) }
        : undefined
      : { defaultValue: intToFraction(100) };
    if (mp)
      mirrors.push(
        mirrorPolicy((opts.lookupDestinationCluster ?? destinationCluster)(m.destination, opts.lookupService(m.destination.host), listenerPort), mp),
      );
  }
  if (mirrors.length > 0) action.requestMirrorPolicies = mirrors;
  let policy: HttpRetry | undefined = h.retries ? retryFromRaw(h.retries) : undefined;
  if (!policy && opts.mesh.defaultHttpRetryPolicy) policy = retryFromRaw(opts.mesh.defaultHttpRetryPolicy);
  const hashPolicies: Json[] = [];
  let consistentHash = false;
  if (h.route.length === 1) {
    const dst = h.route[0] as HTTPRouteDestination;
    const host = dst.destination?.host ?? '';
    action.cluster = (opts.lookupDestinationCluster ?? destinationCluster)(dst.destination, opts.lookupService(host), listenerPort);
    if (dst.headers) {
      const dops = translateHeaders(dst.headers);
      ops.requestHeadersToAdd.push(...dops.requestHeadersToAdd);
      ops.requestHeadersToRemove.push(...dops.requestHeadersToRemove);
      ops.responseHeadersToAdd.push(...dops.responseHeadersToAdd);
      ops.responseHeadersToRemove.push(...dops.responseHeadersToRemove);
      if (dops.authority !== '' && action.hostRewriteLiteral === undefined) action.hostRewriteLiteral = dops.authority;
    }
    const hash = opts.lookupHash(dst);
    consistentHash = hash !== undefined;
    const hp = hashPolicy(hash);
    if (hp) hashPolicies.push(hp);
  } else {
    const clusters: Json[] = [];
    for (const dst of h.route) {
      if (dst.weight === 0) continue;
      const cw: Json = {
        name: (opts.lookupDestinationCluster ?? destinationCluster)(dst.destination, opts.lookupService(dst.destination?.host ?? ''), listenerPort),
        weight: dst.weight,
      };
      if (dst.headers) {
        const dops = translateHeaders(dst.headers);
        if (dops.requestHeadersToAdd.length > 0) cw.requestHeadersToAdd = dops.requestHeadersToAdd;
        if (dops.requestHeadersToRemove.length > 0) cw.requestHeadersToRemove = dops.requestHeadersToRemove;
        if (dops.responseHeadersToAdd.length > 0) cw.responseHeadersToAdd = dops.responseHeadersToAdd;
        if (dops.responseHeadersToRemove.length > 0) cw.responseHeadersToRemove = dops.responseHeadersToRemove;
        if (dops.authority !== '') cw.hostRewriteLiteral = dops.authority;
      }
      const hp = hashPolicy(opts.lookupHash(dst));
      if (hp) hashPolicies.push(hp);
      clusters.push(cw);
    }
    action.weightedClusters = { clusters };
  }
  if (vs.gatewaySemantics) action.clusterNotFoundResponseCode = 'INTERNAL_SERVER_ERROR';
  if (hashPolicies.length > 0) action.hashPolicy = hashPolicies;
  const retry = convertRetryPolicy(policy, consistentHash);
  if (retry) action.retryPolicy = retry;
  out.route = orderAction(action);
}

/** RouteAction fields in proto field order. */
const ACTION_ORDER = [
  'cluster',
  'weightedClusters',
  'clusterNotFoundResponseCode',
  'prefixRewrite',
  'regexRewrite',
  'hostRewriteLiteral',
  'timeout',
  'retryPolicy',
  'requestMirrorPolicies',
  'hashPolicy',
  'maxGrpcTimeout',
  'maxStreamDuration',
];

function orderAction(a: Json): Json {
  const out: Json = {};
  for (const k of ACTION_ORDER) if (a[k] !== undefined) out[k] = a[k];
  for (const k of Object.keys(a)) if (!(k in out)) out[k] = a[k];
  return out;
}

/** Go's regexp.QuoteMeta. */
export function quoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/** GetRouteOperation: `host:port<path>` for one cluster, else `<vs name>:port<path>`. */
export function routeOperation(route: Json, vsName: string, port: number): string {
  const m = (route.match ?? {}) as Json;
  let path = '/*';
  if (typeof m.prefix === 'string') path = `${m.prefix}*`;
  else if (typeof m.path === 'string') path = m.path;
  else if (isObj(m.safeRegex)) path = str(m.safeRegex.regex);
  const cluster = isObj(route.route) ? route.route.cluster : undefined;
  if (typeof cluster === 'string' && isValidSubsetKey(cluster)) {
    const k = parseSubsetKey(cluster);
    if (k) return `${k.host}:${k.port}${path}`;
  }
  return `${vsName}:${port}${path}`;
}

/** The static part of sourceMatchHTTP: gateways, else source labels and namespace. */
function sourceMatches(m: HTTPMatchRequest | undefined, proxy: Proxy, gatewayNames: ReadonlySet<string>): boolean {
  if (!m) return true;
  if (m.gateways.length > 0) return m.gateways.some((g) => gatewayNames.has(g));
  for (const k of Object.keys(m.sourceLabels)) if (proxy.labels[k] !== m.sourceLabels[k]) return false;
  return m.sourceNamespace === '' || m.sourceNamespace === proxy.namespace;
}

/** TranslateRoute: one Envoy route for a rule and one of its matches (undefined when filtered out). */
export function translateRoute(
  proxy: Proxy,
  h: HttpRule,
  m: HTTPMatchRequest | undefined,
  listenerPort: number,
  vs: VirtualServiceConfig,
  gatewayNames: ReadonlySet<string>,
  opts: RouteOptions,
): Json | undefined {
  if (m && m.port !== 0 && m.port !== listenerPort) return undefined;
  if (!sourceMatches(m, proxy, gatewayNames)) return undefined;
  let name = h.name;
  if (m && m.name !== '') name = `${name}.${m.name}`;
  const out: Json = {};
  if (name !== '') out.name = name;
  out.match = translateRouteMatch(vs, m);
  const ops = h.headers
    ? translateHeaders(h.headers)
    : { requestHeadersToAdd: [], responseHeadersToAdd: [], requestHeadersToRemove: [], responseHeadersToRemove: [], authority: '' };
  if (h.redirect) redirectAction(out, h, listenerPort, opts.isTls);
  else if (h.directResponse) directResponseAction(out, h);
  else routeAction(out, ops, h, vs, opts, listenerPort);
  out.metadata = { filterMetadata: { istio: { config: configInfoPath(vs.meta) } } };
  out.decorator = { operation: routeOperation(out, vs.meta.name, listenerPort) };
  const tpfc: Json = {};
  const fault = translateFault(h.fault);
  if (fault) tpfc['envoy.filters.http.fault'] = fault;
  const cors = translateCors(h.corsPolicy);
  if (cors) tpfc['envoy.filters.http.cors'] = cors;
  if (Object.keys(tpfc).length > 0) out.typedPerFilterConfig = tpfc;
  orderedHeaders(out, ops);
  if (m && m.statPrefix !== '') out.statPrefix = m.statPrefix;
  return mark(out, { ...h.prov, ...(m && h.prov.fieldPath ? { fieldPath: `${h.prov.fieldPath}.match[${h.match.indexOf(m)}]` } : {}) });
}

/** IsCatchAllRoute. */
export function isCatchAllRoute(r: Json): boolean {
  const m = (r.match ?? {}) as Json;
  let catchAll = false;
  if (typeof m.prefix === 'string') catchAll = m.prefix === '/';
  else if (typeof m.pathSeparatedPrefix === 'string') catchAll = m.pathSeparatedPrefix === '/';
  else if (isObj(m.safeRegex)) catchAll = m.safeRegex.regex === '.*';
  return catchAll && !m.headers && !m.queryParameters && !m.dynamicMetadata;
}

/** BuildHTTPRoutesForVirtualService: routes in rule order, stopping after the first catch-all. */
export function buildRoutesForVirtualService(
  proxy: Proxy,
  vs: VirtualServiceConfig,
  listenerPort: number,
  gatewayNames: ReadonlySet<string>,
  opts: RouteOptions,
): Json[] | undefined {
  const out: Json[] = [];
  let catchAll = false;
  for (const h of vs.http) {
    if (h.match.length === 0) {
      const r = translateRoute(proxy, h, undefined, listenerPort, vs, gatewayNames, opts);
      if (r) out.push(r);
      catchAll = true;
    } else {
      for (const m of h.match) {
        const r = translateRoute(proxy, h, m, listenerPort, vs, gatewayNames, opts);
        if (r) {
          out.push(r);
          if (isCatchAllRoute(r)) {
            catchAll = true;
            break;
          }
        }
      }
    }
    if (catchAll) break;
  }
  return out.length === 0 ? undefined : out;
}

/** SortVHostRoutes: catch-all routes last, others in order. */
export function sortVHostRoutes(routes: readonly Json[]): Json[] {
  return [...routes.filter((r) => !isCatchAllRoute(r)), ...routes.filter(isCatchAllRoute)];
}

/** BuildDefaultHTTPOutboundRoute. */
export function defaultOutboundRoute(cluster: string, operation: string, mesh: MeshSettings, hash?: Json): Json {
  const retry = convertRetryPolicy(mesh.defaultHttpRetryPolicy ? retryFromRaw(mesh.defaultHttpRetryPolicy) : undefined, false);
  const action: Json = { cluster, timeout: '0s' };
  if (retry) action.retryPolicy = retry;
  const hp = hashPolicy(hash);
  if (hp) action.hashPolicy = [hp];
  action.maxGrpcTimeout = '0s';
  return { name: DEFAULT_ROUTE_NAME, match: { prefix: '/' }, route: action, decorator: { operation } };
}

/** BuildDefaultHTTPInboundRoute (no retries on gRPC ports). */
export function defaultInboundRoute(cluster: string, operation: string, grpc: boolean, mesh: MeshSettings): Json {
  const action: Json = { cluster, timeout: '0s' };
  if (!grpc) {
    const retry = convertInboundRetryPolicy(mesh.defaultInboundHttpRetryPolicy ? retryFromRaw(mesh.defaultInboundHttpRetryPolicy) : undefined);
    if (retry) action.retryPolicy = retry;
  }
  action.maxStreamDuration = { maxStreamDuration: '0s', grpcTimeoutHeaderMax: '0s' };
  return { name: DEFAULT_ROUTE_NAME, match: { prefix: '/' }, route: action, decorator: { operation } };
}
