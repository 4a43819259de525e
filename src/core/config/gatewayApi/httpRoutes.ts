// HTTPRoute rules → Istio HTTP routes (conversion.go convertHTTPRoute, createURIMatch, createHeadersMatch,
// createMirrorFilter, augmentPortMatch, sortHTTPRoutes).
import { type ConfigError, type GwObject, type Json, isObject, joinErrors, list, num, obj, optNum, optStr, str } from './objects.ts';
import { buildDestination, buildHTTPDestination, weightSum } from './backendRefs.ts';
import type { ConversionContext } from './context.ts';
import type { RouteKind } from './groupKinds.ts';
import { createCorsFilter, createHeadersFilter, createRedirectFilter, createRewriteFilter } from './httpFilters.ts';
import { clone } from './istioConfig.ts';
import { parseGoDuration } from '../../go/duration.ts';
import { formatProtoDuration } from '../../go/protoDuration.ts';

export function convertHTTPRule(ctx: ConversionContext, r: Json, route: GwObject, pos: number, enforce: boolean): [Json | undefined, ConfigError | undefined] {
  const vs: Json = {};
  vs.name = optStr(r.name) ?? `${route.namespace}.${route.name}.${pos}`;
  const matches: Json[] = [];
  for (const raw of list(r.matches)) {
    const m = obj(raw);
    const uri = createURIMatch(m);
    if ('error' in uri) return [undefined, uri.error];
    const headers = createHeadersMatch(list(m.headers), 'HeaderMatch');
    if ('error' in headers) return [undefined, headers.error];
    const qp = createHeadersMatch(list(m.queryParams), 'QueryParams');
    if ('error' in qp) return [undefined, qp.error];
    const mr: Json = { uri: uri.match };
    if (headers.match) mr.headers = headers.match;
    if (qp.match) mr.queryParams = qp.match;
    if (optStr(m.method) !== undefined) mr.method = { exact: str(m.method) };
    matches.push(mr);
  }
  if (matches.length > 0) vs.match = matches;
  let mirrorErr: ConfigError | undefined;
  for (const raw of list(r.filters)) {
    const f = obj(raw);
    const type = str(f.type);
    if (type === 'RequestHeaderModifier' || type === 'ResponseHeaderModifier') {
      const h = createHeadersFilter(type === 'RequestHeaderModifier' ? f.requestHeaderModifier : f.responseHeaderModifier);
      if ('error' in h) return [undefined, h.error];
      if (!h.ops) continue;
      const headers = obj(vs.headers);
      headers[type === 'RequestHeaderModifier' ? 'request' : 'response'] = h.ops;
      vs.headers = headers;
    } else if (type === 'RequestRedirect') {
      const rd = createRedirectFilter(f.requestRedirect);
      if (rd) vs.redirect = rd;
      else delete vs.redirect;
    } else if (type === 'RequestMirror') {
      const mirror = createMirrorFilter(ctx, f.requestMirror, route.namespace, enforce, 'HTTPRoute');
      if (mirror === undefined) continue;
      if ('error' in mirror) mirrorErr = mirror.error;
      else vs.mirrors = [...list(vs.mirrors), mirror.mirror];
    } else if (type === 'URLRewrite') {
      const rw = createRewriteFilter(f.urlRewrite);
      if (rw) vs.rewrite = rw;
      else delete vs.rewrite;
    } else if (type === 'CORS') {
      const c = createCorsFilter(f.cors);
      if (c) vs.corsPolicy = c;
    } else {
      return [undefined, { reason: 'InvalidFilter', message: `unsupported filter type ${JSON.stringify(type)}` }];
    }
  }
  if (isObject(r.retry)) {
    const retry = r.retry;
    const retryOn = ['connect-failure', 'refused-stream', 'unavailable', 'cancelled', ...list(retry.codes).map((c) => String(num(c)))];
    const attempts = optNum(retry.attempts) ?? 2;
    const rt: Json = {};
    if (attempts !== 0) {
      rt.attempts = attempts;
      rt.retryOn = retryOn.join(',');
    }
    const backoff = optStr(retry.backoff);
    if (backoff !== undefined) rt.backoff = formatProtoDuration(parseGoDuration(backoff) ?? 0n);
    vs.retries = rt;
  }
  if (isObject(r.timeouts)) {
    const req = optStr(r.timeouts.request);
    if (req !== undefined) {
      const d = parseGoDuration(req) ?? 0n;
      if (d !== 0n) vs.timeout = formatProtoDuration(d);
    }
    const be = optStr(r.timeouts.backendRequest);
    if (be !== undefined) {
      const d = parseGoDuration(be) ?? 0n;
      if (d !== 0n) {
        if (vs.retries) (vs.retries as Json).perTryTimeout = formatProtoDuration(d);
        else vs.timeout = formatProtoDuration(d);
      }
    }
  }
  const backendRefs = list(r.backendRefs).map(obj);
  if (weightSum(backendRefs) === 0 && !vs.redirect) {
    vs.directResponse = { status: 500 };
    return [vs, mirrorErr];
  }
  const d = buildHTTPDestination(ctx, backendRefs, route.namespace, enforce, 'HTTPRoute');
  if ('error' in d) return [undefined, d.error];
  if (d.route) vs.route = d.route;
  return [vs, joinErrors(d.backendError ? { ...d.backendError } : undefined, mirrorErr)];
}

function createURIMatch(m: Json): { match: Json } | { error: ConfigError } {
  const path = obj(m.path);
  const tp = optStr(path.type) ?? 'PathPrefix';
  let dest = optStr(path.value) ?? '/';
  if (tp === 'PathPrefix') {
    if (dest !== '/') dest = dest.endsWith('/') ? dest.slice(0, -1) : dest;
    return { match: { prefix: dest } };
  }
  if (tp === 'Exact') return { match: { exact: dest } };
  if (tp === 'RegularExpression') return { match: { regex: dest } };
  return { error: { reason: 'InvalidConfiguration', message: `unknown type: ${JSON.stringify(tp)} is not supported Path match type` } };
}

export function createHeadersMatch(items: unknown[], what: 'HeaderMatch' | 'QueryParams'): { match?: Json } | { error: ConfigError } {
  const res: Json = {};
  for (const raw of items) {
    const h = obj(raw);
    const tp = optStr(h.type) ?? 'Exact';
    if (tp === 'Exact') res[str(h.name)] = { exact: str(h.value) };
    else if (tp === 'RegularExpression') res[str(h.name)] = { regex: str(h.value) };
    else return { error: { reason: 'InvalidConfiguration', message: `unknown type: ${JSON.stringify(tp)} is not supported ${what} type` } };
  }
  return Object.keys(res).length === 0 ? {} : { match: res };
}

export function createMirrorFilter(
  ctx: ConversionContext,
  filter: unknown,
  ns: string,
  enforce: boolean,
  kind: RouteKind,
): { mirror: Json } | { error: ConfigError } | undefined {
  if (!isObject(filter)) return undefined;
  const d = buildDestination(ctx, { ...obj(filter.backendRef), weight: 1 }, ns, enforce, kind);
  if (d.error) return { error: d.error };
  const mirror: Json = { destination: d.destination ?? {} };
  if (isObject(filter.fraction)) {
    const f = filter.fraction;
    mirror.percentage = { value: (100 * num(f.numerator)) / (optNum(f.denominator) ?? 100) };
  } else if (optNum(filter.percent) !== undefined) {
    mirror.percentage = { value: num(filter.percent) };
  }
  return { mirror };
}

export function augmentPortMatch(routes: Json[], port: number): Json[] {
  return routes.map((r0) => {
    const r = clone(r0);
    const m = list(r.match).map(obj);
    for (const x of m) x.port = port;
    r.match = m.length === 0 ? [{ port }] : m;
    return r;
  });
}

/** sortHTTPRoutes: Gateway API precedence, stable. */
export function sortHTTPRoutes(routes: Json[]): void {
  const less = (a: Json, b: Json): boolean => {
    const ma = list(a.match);
    const mb = list(b.match);
    if (ma.length === 0) return false;
    if (mb.length === 0) return true;
    const m1 = obj(ma[0]);
    const m2 = obj(mb[0]);
    const r1 = uriRank(m1);
    const r2 = uriRank(m2);
    const l1 = uriLength(m1);
    const l2 = uriLength(m2);
    if (r1 !== r2) return r1 > r2;
    if (l1 !== l2) return l1 > l2;
    if ((m1.method === undefined) !== (m2.method === undefined)) return m1.method !== undefined;
    const h1 = Object.keys(obj(m1.headers)).length;
    const h2 = Object.keys(obj(m2.headers)).length;
    if (h1 !== h2) return h1 > h2;
    return Object.keys(obj(m1.queryParams)).length > Object.keys(obj(m2.queryParams)).length;
  };
  const sorted = routes
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (less(a.r, b.r) ? -1 : less(b.r, a.r) ? 1 : a.i - b.i))
    .map((e) => e.r);
  for (let i = 0; i < routes.length; i++) routes[i] = sorted[i] as Json;
}

function uriRank(m: Json): number {
  const u = m.uri;
  if (!isObject(u)) return -1;
  if (u.exact !== undefined) return 3;
  if (u.prefix !== undefined) return 2;
  if (u.regex !== undefined) return 1;
  return -1;
}

function uriLength(m: Json): number {
  const u = m.uri;
  if (!isObject(u)) return 0;
  return str(u.prefix ?? u.exact ?? u.regex).length;
}
