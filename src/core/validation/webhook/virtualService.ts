// ValidateVirtualService: hosts and gateways, delegate rules, every http/tls/tcp route
// (conflicts, matches, headers, CORS, faults, mirrors, redirects, direct responses, retries,
// rewrites, destinations and weights), exportTo, and the route-rule analysis whose findings
// istioctl reports as IST0130 and IST0131 (routeRules.ts).
import { goQuote } from '../../go/fmt.ts';
import { goFixed } from '../../go/format.ts';
import { utf8Length } from '../../go/strings.ts';
import { isDNS1123Label, validateExportTo, validateLabels, validatePort, validateWildcardDomain, validateWildcardDomainForGatewayVS } from './names.ts';
import { hostMatches, hostSubsetOf } from '../../config/hosts.ts';
import { isValidIP } from '../../go/netip.ts';
import { validateIPSubnet } from './addresses.ts';
import { at, entries, get, has, idx, items, list, msg, msgEntries, n, s, strEntries, strs, wrappedNum, type Obj } from './read.ts';
import { one, V } from './result.ts';
import {
  durationOf,
  isAuthorityHeader,
  isRoutingClaim,
  numberOf,
  SPEC,
  stringMatchOf,
  validateCORSHTTPHeaderName,
  validateDestination,
  validateDuration,
  validateGatewayNames,
  validateHeaderOperations,
  validateHTTPHeaderNameOrJwtClaimRoute,
  validatePercentage,
  validateStringMatch,
  validateStringMatchRegexp,
  validateStringRegexp,
  type Cfg,
} from './common.ts';
import { analyzeRouteRules } from './routeRules.ts';

const CORS_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', '*']);
const GRPC_STATUS = new Set([
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
]);
const RETRY_ON = new Set([
  '5xx',
  'gateway-error',
  'reset',
  'reset-before-request',
  'connect-failure',
  'retriable-4xx',
  'refused-stream',
  'retriable-status-codes',
  'retriable-headers',
  'envoy-ratelimited',
  'http3-post-connect-failure',
  'cancelled',
  'deadline-exceeded',
  'internal',
  'resource-exhausted',
  'unavailable',
]);

/** The status codes Go's http.StatusText knows. */
function knownStatus(code: number): boolean {
  if ([100, 101, 102, 103, 226, 421, 428, 429, 431, 451, 510, 511].includes(code)) return true;
  return (
    (code >= 200 && code <= 208) ||
    (code >= 300 && code <= 308 && code !== 306) ||
    (code >= 400 && code <= 418) ||
    (code >= 422 && code <= 426) ||
    (code >= 500 && code <= 508)
  );
}

/** agent.ValidateHTTPRetry (shared with mesh config's default retry policies). */
export function validateHTTPRetry(r: Obj | undefined, path: string): V {
  const v = new V();
  if (!r) return v;
  const attempts = n(r, 'attempts');
  if (attempts < 0) v.err('attempts cannot be negative', path);
  const retryOn = s(r, 'retryOn');
  if (attempts === 0 && (has(r, 'perTryTimeout') || retryOn !== '' || has(r, 'retryRemoteLocalities')))
    v.err('http retry policy configured when attempts are set to 0 (disabled)', path);
  v.add(validateDuration(r, 'perTryTimeout', at(path, r, 'perTryTimeout')));
  if (retryOn !== '') {
    for (const policy of retryOn.split(',')) {
      const code = /^[+-]?\d+$/.test(policy) ? Number(policy) : 0;
      if (!knownStatus(code) && !RETRY_ON.has(policy)) v.err(`${goQuote(policy)} is not a valid retryOn policy`, at(path, r, 'retryOn'));
    }
  }
  v.add(validateDuration(r, 'backoff', at(path, r, 'backoff')));
  return v;
}

function validateHTTPStatus(status: number): string | undefined {
  return status < 200 || status > 600 ? `HTTP status ${status} is not in range 200-599` : undefined;
}

function validateFault(fault: Obj | undefined, path: string): V {
  const v = new V();
  if (!fault) return v;
  const abort = msg(fault, 'abort');
  const delay = msg(fault, 'delay');
  if (!abort && !delay) v.err('HTTP fault injection must have an abort and/or a delay', path);
  if (abort) {
    // validateHTTPFaultInjection returns an error: the abort's warning does not survive it.
    const ap = at(path, fault, 'abort');
    v.addErrors(validatePercentage(abort, 'percentage', at(ap, abort, 'percentage')));
    if (has(abort, 'grpcStatus')) {
      const st = s(abort, 'grpcStatus');
      if (!GRPC_STATUS.has(st))
        v.err(
          `gRPC status ${goQuote(st)} is not supported. See https://github.com/grpc/grpc/blob/master/doc/statuscodes.md for a list of supported codes, for example 'NOT_FOUND'`,
          at(ap, abort, 'grpcStatus'),
        );
    } else if (has(abort, 'http2Error')) {
      v.err('HTTP/2 abort fault injection not supported yet', at(ap, abort, 'http2Error'));
    } else if (has(abort, 'httpStatus')) {
      const e = validateHTTPStatus(n(abort, 'httpStatus'));
      if (e) v.err(e, at(ap, abort, 'httpStatus'));
    } else {
      // (Istio's abort check warns "abort configured, but error type not set"; dropped here.)
    }
  }
  if (delay) {
    const dp = at(path, fault, 'delay');
    v.addErrors(validatePercentage(delay, 'percentage', at(dp, delay, 'percentage')));
    if (has(delay, 'fixedDelay')) v.addErrors(validateDuration(delay, 'fixedDelay', at(dp, delay, 'fixedDelay')));
    else if (has(delay, 'exponentialDelay')) {
      v.addErrors(validateDuration(delay, 'exponentialDelay', at(dp, delay, 'exponentialDelay')));
      v.err('exponentialDelay not supported yet', at(dp, delay, 'exponentialDelay'));
    }
  }
  return v;
}

function validateCORS(policy: Obj | undefined, path: string): V {
  const v = new V();
  if (!policy) return v;
  items(policy, 'allowOrigins').forEach((origin, i) => {
    const p = idx(at(path, policy, 'allowOrigins'), i);
    const m = stringMatchOf(origin ?? undefined);
    if (m.value === '') v.err(`'${m.value}' is not a valid match type for CORS allow origins`, p);
    else {
      const e = validateStringMatchRegexp(origin ?? undefined, 'corsPolicy.allowOrigins');
      if (e) v.err(e, p);
    }
  });
  for (const method of strs(policy, 'allowMethods'))
    if (!CORS_METHODS.has(method)) v.err(`${goQuote(method)} is not a supported HTTP method`, at(path, policy, 'allowMethods'));
  for (const name of strs(policy, 'allowHeaders')) {
    const e = validateCORSHTTPHeaderName(name);
    if (e) v.err(e, at(path, policy, 'allowHeaders'));
  }
  for (const name of strs(policy, 'exposeHeaders')) {
    const e = validateCORSHTTPHeaderName(name);
    if (e) v.err(e, at(path, policy, 'exposeHeaders'));
  }
  if (has(policy, 'maxAge')) {
    v.add(validateDuration(policy, 'maxAge', at(path, policy, 'maxAge')));
    const d = durationOf(policy, 'maxAge');
    if (d !== undefined && d % 1_000_000_000n > 0n) v.err('max_age duration is accurate only to seconds precision', at(path, policy, 'maxAge'));
  }
  return v;
}

function validateRedirect(redirect: Obj | undefined, matches: readonly (Obj | null)[], path: string): V {
  if (!redirect) return new V();
  const uri = s(redirect, 'uri');
  const prefixRewrite = s(redirect, 'prefixRewrite');
  if (uri !== '' && prefixRewrite !== '') return one('redirect may only specify one of uri or prefix_rewrite', path);
  if (prefixRewrite !== '') {
    for (const m of matches) {
      const u = msg(m ?? undefined, 'uri');
      if (u && stringMatchOf(u).kind !== 'prefix') return one('redirect prefix_rewrite requires all URI matches to use prefix match type', path);
    }
  }
  const hasPort = has(redirect, 'port') || has(redirect, 'derivePort');
  if (uri === '' && prefixRewrite === '' && s(redirect, 'authority') === '' && !hasPort && s(redirect, 'scheme') === '')
    return one('redirect must specify URI, authority, scheme, or port', path);
  const code = n(redirect, 'redirectCode');
  if (code !== 0 && (code < 300 || code > 399)) return one(`${code} is not a valid redirect code, must be 3xx`, at(path, redirect, 'redirectCode'));
  const scheme = s(redirect, 'scheme');
  if (scheme !== '' && scheme !== 'http' && scheme !== 'https') return one('invalid redirect scheme, must be "http" or "https"', at(path, redirect, 'scheme'));
  const port = n(redirect, 'port');
  if (port > 0) {
    const e = validatePort(port);
    if (e) return one(e, at(path, redirect, 'port'));
  }
  return new V();
}

function base64Length(b64: string): number {
  const clean = b64.replace(/[\r\n]/g, '').replace(/=+$/, '');
  return Math.floor((clean.length * 3) / 4);
}

function validateDirectResponse(dr: Obj | undefined, path: string): V {
  const v = new V();
  if (!dr) return v;
  const body = msg(dr, 'body');
  if (body) {
    let size = 0;
    if (has(body, 'string')) size = utf8Length(s(body, 'string'));
    else if (has(body, 'bytes')) size = base64Length(s(body, 'bytes'));
    if (size > 1024 * 1024) v.err('large direct_responses may impact control plane performance, must be less than 1MB', at(path, dr, 'body'));
    else if (size > 100 * 1024) v.warn('large direct_responses may impact control plane performance', at(path, dr, 'body'));
  }
  const e = validateHTTPStatus(n(dr, 'status'));
  if (e) v.err(e, at(path, dr, 'status'));
  return v;
}

function validateMirrors(mirrors: readonly (Obj | null)[], path: string): V {
  const v = new V();
  mirrors.forEach((m, i) => {
    const p = idx(path, i);
    if (m === null) {
      v.err('mirror cannot be null', p);
      return;
    }
    const d = msg(m, 'destination');
    if (!d) {
      v.err('destination is required for mirrors', p);
      return;
    }
    v.add(validateDestination(d, at(p, m, 'destination')));
    const pct = msg(m, 'percentage');
    if (pct) {
      const value = numberOf(get(pct, 'value'));
      if (value > 100) v.err(`mirror percentage must have a max value of 100 (it has ${goFixed(value)})`, at(p, m, 'percentage'));
      if (value < 0) v.err(`mirror percentage must have a min value of 0 (it has ${goFixed(value)})`, at(p, m, 'percentage'));
    }
  });
  return v;
}

function validateRewrite(rw: Obj | undefined, path: string): V {
  if (!rw) return new V();
  const uri = s(rw, 'uri');
  const regex = msg(rw, 'uriRegexRewrite');
  if (uri !== '' && regex) return one('rewrite may only contain one of URI or UriRegexRewrite', path);
  if (uri === '' && !regex && s(rw, 'authority') === '')
    return one('rewrite must specify at least one of URI, UriRegexRewrite, or authority. Only one of URI or UriRegexRewrite may be specified', path);
  if (regex) {
    let err: string | undefined;
    if (s(regex, 'match') === '' || s(regex, 'rewrite') === '') err = 'UriRegexRewrite requires both Rewrite and Match fields to be specified';
    else err = validateStringRegexp(s(regex, 'match'), 'HTTPRewrite.UriRegexRewrite.Match');
    if (err) return one(`UriRegexRewrite has errors\n${err}`, at(path, rw, 'uriRegexRewrite'));
  }
  return new V();
}

function validateAuthorityRewrite(rw: Obj | undefined, headers: Obj | undefined, path: string): V {
  let current = s(rw, 'authority');
  const req = msg(headers, 'request');
  for (const op of ['set', 'add']) {
    for (const [k, val] of strEntries(req, op)) {
      if (!isAuthorityHeader(k)) continue;
      if (current !== '') return one(`authority header cannot be set multiple times: have ${goQuote(current)}, attempting to set ${goQuote(val)}`, path);
      current = val;
    }
  }
  return new V();
}

/** validateHTTPRouteDestinations / validateRouteDestinations */
function validateRouteDestinations(dests: readonly (Obj | null)[], http: boolean, gatewaySemantics: boolean, path: string): V {
  const v = new V();
  let total = 0;
  dests.forEach((d, i) => {
    const p = idx(path, i);
    if (d === null) {
      v.err('weight may not be nil', p);
      return;
    }
    const dest = msg(d, 'destination');
    if (!dest) v.err('destination is required', p);
    if (http) validateHeaderOperations(msg(d, 'headers'), at(p, d, 'headers'), v);
    if (!gatewaySemantics) v.addErrors(validateDestination(dest, at(p, d, 'destination')));
    const weight = n(d, 'weight');
    if (weight < 0) v.err(`weight ${weight} < 0`, at(p, d, 'weight'));
    total += weight;
  });
  if (dests.length > 1 && total === 0) v.err('total destination weight = 0', path);
  return v;
}

function validateMatchRequests(route: Obj, path: string): V {
  const v = new V();
  const matches = items(route, 'match');
  const mpath = at(path, route, 'match');
  matches.forEach((m, i) => {
    if (m === null) return;
    const p = idx(mpath, i);
    for (const [name, header] of msgEntries(m, 'headers')) {
      const hp = `${at(p, m, 'headers')}[${JSON.stringify(name)}]`;
      if (header === null) v.err(`header match ${name} cannot be null`, hp);
      const e1 = validateHTTPHeaderNameOrJwtClaimRoute(name);
      if (e1) v.err(e1, hp);
      const e2 = validateStringMatch(header ?? undefined, 'headers');
      if (e2) v.err(e2, hp);
    }
    for (const [name, header] of msgEntries(m, 'withoutHeaders')) {
      const hp = `${at(p, m, 'withoutHeaders')}[${JSON.stringify(name)}]`;
      const e1 = validateHTTPHeaderNameOrJwtClaimRoute(name);
      if (e1) v.err(e1, hp);
      if (header !== null && !(stringMatchOf(header).kind === 'regex' && s(header, 'regex') === '*')) {
        const e2 = validateStringMatch(header, 'withoutHeaders');
        if (e2) v.err(e2, hp);
      }
    }
    const push = (e: string | undefined, field: string) => {
      if (e) v.err(e, at(p, m, field));
    };
    push(validateStringMatchRegexp(msg(m, 'uri'), 'uri'), 'uri');
    push(validateStringMatch(msg(m, 'scheme'), 'scheme'), 'scheme');
    push(validateStringMatch(msg(m, 'method'), 'method'), 'method');
    push(validateStringMatch(msg(m, 'authority'), 'authority'), 'authority');
    for (const [, qp] of msgEntries(m, 'queryParams')) push(validateStringMatch(qp ?? undefined, 'queryParams'), 'queryParams');
  });
  matches.forEach((m, i) => {
    if (m === null) return;
    const p = idx(mpath, i);
    const port = n(m, 'port');
    if (port !== 0) {
      const e = validatePort(port);
      if (e) v.err(e, at(p, m, 'port'));
    }
    v.addErrors(validateLabels(strEntries(m, 'sourceLabels'), at(p, m, 'sourceLabels')));
    v.addErrors(validateGatewayNames(strs(m, 'gateways'), false, at(p, m, 'gateways')));
    const sns = s(m, 'sourceNamespace');
    if (sns !== '' && !isDNS1123Label(sns)) v.err(`sourceNamespace match ${sns} is invalid`, at(p, m, 'sourceNamespace'));
  });
  return v;
}

type RouteType = 'independent' | 'root' | 'delegate';

function validateRouteConflict(route: Obj, type: RouteType, path: string): V {
  const v = new V();
  const name = s(route, 'name');
  const redirect = has(route, 'redirect');
  const routeList = list(route, 'route');
  if (type === 'root') {
    if (redirect) v.err(`root HTTP route ${name} must not specify redirect`, path);
    if (routeList !== undefined) v.err(`root HTTP route ${name} must not specify route`, path);
    return v;
  }
  if (type === 'delegate' && has(route, 'delegate')) v.err('delegate HTTP route cannot contain delegate', at(path, route, 'delegate'));
  const routes = routeList?.length ?? 0;
  const fault = has(route, 'fault');
  const rewrite = has(route, 'rewrite');
  const direct = has(route, 'directResponse');
  if (redirect) {
    if (routes > 0) v.err('HTTP route cannot contain both route and redirect', path);
    if (fault) v.err('HTTP route cannot contain both fault and redirect', path);
    if (rewrite) v.err('HTTP route rule cannot contain both rewrite and redirect', path);
    if (direct) v.err('HTTP route rule cannot contain both direct_response and redirect', path);
  } else if (direct) {
    if (routes > 0) v.err('HTTP route cannot contain both route and direct_response', path);
    if (fault) v.err('HTTP route cannot contain both fault and direct_response', path);
    if (rewrite) v.err('HTTP route rule cannot contain both rewrite and direct_response', path);
  } else if (routes === 0) {
    v.err('HTTP route, redirect or direct_response is required', path);
  }
  if (has(route, 'mirror') && (list(route, 'mirrors')?.length ?? 0) > 0) v.err('HTTP route cannot contain both mirror and mirrors', path);
  return v;
}

function validateHTTPRoute(route: Obj, delegate: boolean, gatewaySemantics: boolean, path: string): V {
  const type: RouteType = delegate ? 'delegate' : has(route, 'delegate') ? 'root' : 'independent';
  const v = new V();
  v.add(validateRouteConflict(route, type, path));
  v.add(validateMatchRequests(route, path));
  // The optional parts below are each checked only when written (their checks find nothing
  // in an absent part): a route's paths and results are then not built for every field of it.
  const headers = msg(route, 'headers');
  if (headers) validateHeaderOperations(headers, at(path, route, 'headers'), v);
  const cors = msg(route, 'corsPolicy');
  if (cors) v.add(validateCORS(cors, at(path, route, 'corsPolicy')));
  const fault = msg(route, 'fault');
  if (fault) v.add(validateFault(fault, at(path, route, 'fault')));
  const mirrorPercent = wrappedNum(route, 'mirrorPercent');
  if (mirrorPercent !== undefined) {
    if (mirrorPercent > 100) v.err(`mirror_percent must have a max value of 100 (it has ${Math.trunc(mirrorPercent)})`, at(path, route, 'mirrorPercent'));
    v.warn('using deprecated setting "mirrorPercent", use "mirrorPercentage" instead', at(path, route, 'mirrorPercent'));
  }
  const mp = msg(route, 'mirrorPercentage');
  if (mp) {
    const value = numberOf(get(mp, 'value'));
    if (value > 100) v.err(`mirror_percentage must have a max value of 100 (it has ${goFixed(value)})`, at(path, route, 'mirrorPercentage'));
    if (value < 0) v.err(`mirror_percentage must have a min value of 0 (it has ${goFixed(value)})`, at(path, route, 'mirrorPercentage'));
  }
  const mirror = msg(route, 'mirror');
  if (mirror) v.add(validateDestination(mirror, at(path, route, 'mirror')));
  const mirrors = items(route, 'mirrors');
  if (mirrors.length > 0) v.add(validateMirrors(mirrors, at(path, route, 'mirrors')));
  const redirect = msg(route, 'redirect');
  if (redirect) v.add(validateRedirect(redirect, items(route, 'match'), at(path, route, 'redirect')));
  const directResponse = msg(route, 'directResponse');
  if (directResponse) v.add(validateDirectResponse(directResponse, at(path, route, 'directResponse')));
  const retries = msg(route, 'retries');
  if (retries) v.add(validateHTTPRetry(retries, at(path, route, 'retries')));
  const rewrite = msg(route, 'rewrite');
  if (rewrite) v.add(validateRewrite(rewrite, at(path, route, 'rewrite')));
  if (rewrite || headers) v.add(validateAuthorityRewrite(rewrite, headers, path));
  v.add(validateRouteDestinations(items(route, 'route'), true, gatewaySemantics, at(path, route, 'route')));
  if (has(route, 'timeout')) v.add(validateDuration(route, 'timeout', at(path, route, 'timeout')));
  return v;
}

function validateSniHost(sni: string, spec: Obj, isGateway: boolean, path: string): V {
  const err = isGateway ? validateWildcardDomainForGatewayVS(true, sni) : validateWildcardDomain(sni);
  if (err) {
    if (isValidIP(sni)) return new V().warn(`using an IP address (${goQuote(sni)}) goes against SNI spec and most clients do not support this`, path);
    return one(err, path);
  }
  const hosts = strs(spec, 'hosts');
  for (const h of hosts) if (hostSubsetOf(sni, h)) return new V();
  return one(`SNI host ${goQuote(sni)} is not a compatible subset of any of the virtual service hosts: [${hosts.join(', ')}]`, path);
}

function validateL4Match(m: Obj, path: string, v: V, errorsOnly: boolean): void {
  const sub = new V();
  strs(m, 'destinationSubnets').forEach((subnet) => {
    const e = validateIPSubnet(subnet);
    if (e) sub.err(e, at(path, m, 'destinationSubnets'));
  });
  const port = n(m, 'port');
  if (port !== 0) {
    const e = validatePort(port);
    if (e) sub.err(e, at(path, m, 'port'));
  }
  sub.add(validateLabels(strEntries(m, 'sourceLabels'), at(path, m, 'sourceLabels')));
  sub.add(validateGatewayNames(strs(m, 'gateways'), false, at(path, m, 'gateways')));
  if (errorsOnly) v.addErrors(sub);
  else v.add(sub);
}

function validateTLSRoute(route: Obj | null, spec: Obj, isGateway: boolean, gatewaySemantics: boolean, path: string): V {
  const v = new V();
  if (route === null) return v;
  const matches = items(route, 'match');
  if (matches.length === 0) v.err('TLS route must have at least one match condition', path);
  matches.forEach((m, i) => {
    const p = idx(at(path, route, 'match'), i);
    if (m === null) {
      v.err('TLS match may not be null', p);
      return;
    }
    const sni = strs(m, 'sniHosts');
    if (sni.length === 0) v.err('TLS match must have at least one SNI host', p);
    else sni.forEach((h, j) => v.add(validateSniHost(h, spec, isGateway, idx(at(p, m, 'sniHosts'), j))));
    validateL4Match(m, p, v, false);
  });
  const dests = items(route, 'route');
  if (dests.length === 0) v.err('TLS route is required', path);
  v.add(validateRouteDestinations(dests, false, gatewaySemantics, at(path, route, 'route')));
  return v;
}

function validateTCPRoute(route: Obj | null, gatewaySemantics: boolean, path: string): V {
  const v = new V();
  if (route === null) return v;
  items(route, 'match').forEach((m, i) => {
    const p = idx(at(path, route, 'match'), i);
    if (m === null) {
      v.err('tcp match may not be nil', p);
      return;
    }
    validateL4Match(m, p, v, true);
  });
  const dests = items(route, 'route');
  if (dests.length === 0) v.err('TCP route is required', path);
  v.addErrors(validateRouteDestinations(dests, false, gatewaySemantics, at(path, route, 'route')));
  return v;
}

export function validateVirtualService(cfg: Cfg): V {
  const spec = cfg.spec;
  const v = new V();
  const hosts = strs(spec, 'hosts');
  const gateways = strs(spec, 'gateways');
  const tls = items(spec, 'tls');
  const tcp = items(spec, 'tcp');
  const http = items(spec, 'http');
  if (hosts.length === 0) {
    if (gateways.length !== 0) v.err('delegate virtual service must have no gateways specified', at(SPEC, spec, 'gateways'));
    if (tls.length !== 0) v.err('delegate virtual service must have no tls route specified', at(SPEC, spec, 'tls'));
    if (tcp.length !== 0) v.err('delegate virtual service must have no tcp route specified', at(SPEC, spec, 'tcp'));
  }
  const gatewaySemantics = cfg.annotations['internal.istio.io/route-semantics'] === 'gateway';
  let appliesToMesh = false;
  let appliesToGateway = false;
  if (gateways.length === 0) appliesToMesh = true;
  else {
    v.add(validateGatewayNames(gateways, gatewaySemantics, at(SPEC, spec, 'gateways')));
    appliesToGateway = !gateways.includes('mesh');
    appliesToMesh = !appliesToGateway;
  }
  if (!appliesToGateway) {
    http.forEach((route, i) => {
      items(route ?? undefined, 'match').forEach((m, j) => {
        for (const field of ['headers', 'withoutHeaders']) {
          for (const [key] of entries(m ?? undefined, field) ?? []) {
            if (isRoutingClaim(key)) {
              v.err(
                `JWT claim based routing (key: ${key}) is only supported for gateway, found no gateways: [${gateways.join(' ')}]`,
                `${at(SPEC, spec, 'http')}[${i}].match[${j}].${field}`,
              );
            }
          }
        }
      });
    });
  }
  const sniHost = tls.some((t) => items(t ?? undefined, 'match').some((m) => strs(m ?? undefined, 'sniHosts').length > 0));
  let allHostsValid = true;
  hosts.forEach((h, i) => {
    const p = idx(at(SPEC, spec, 'hosts'), i);
    const err = appliesToGateway ? validateWildcardDomainForGatewayVS(sniHost, h) : validateWildcardDomain(h);
    if (err) {
      if (!isValidIP(h)) {
        v.err(err, p);
        allHostsValid = false;
      }
    } else if (appliesToMesh && h === '*') {
      v.err('wildcard host * is not allowed for virtual services bound to the mesh gateway', p);
      allHostsValid = false;
    }
  });
  if (allHostsValid) {
    for (let i = 0; i < hosts.length; i++) {
      for (let j = i + 1; j < hosts.length; j++) {
        if (hostMatches(hosts[i] as string, hosts[j] as string))
          v.err(`duplicate hosts in virtual service: ${hosts[i]} & ${hosts[j]}`, idx(at(SPEC, spec, 'hosts'), j));
      }
    }
  }
  if (http.length === 0 && tcp.length === 0 && tls.length === 0) v.err('http, tcp or tls must be provided in virtual service', SPEC);
  const httpPath = at(SPEC, spec, 'http');
  http.forEach((route, i) => {
    if (route === null) v.err('http route may not be null', idx(httpPath, i));
    else v.add(validateHTTPRoute(route, hosts.length === 0, gatewaySemantics, idx(httpPath, i)));
  });
  const isGateway = !gateways.includes('mesh');
  tls.forEach((route, i) => v.add(validateTLSRoute(route, spec, isGateway, gatewaySemantics, idx(at(SPEC, spec, 'tls'), i))));
  tcp.forEach((route, i) => v.addErrors(validateTCPRoute(route, gatewaySemantics, idx(at(SPEC, spec, 'tcp'), i))));
  v.add(validateExportTo(cfg.namespace, strs(spec, 'exportTo'), false, false, at(SPEC, spec, 'exportTo')));
  analyzeRouteRules(spec, v);
  return v;
}
