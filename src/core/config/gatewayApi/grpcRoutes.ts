// GRPCRoute rules → Istio HTTP routes (conversion.go convertGRPCRoute, createGRPCURIMatch).
import { type ConfigError, type GwObject, type Json, isObject, list, obj, optStr, str } from './objects.ts';
import { buildHTTPDestination, weightSum } from './backendRefs.ts';
import type { ConversionContext } from './context.ts';
import { createHeadersFilter } from './httpFilters.ts';
import { createHeadersMatch, createMirrorFilter } from './httpRoutes.ts';

export function convertGRPCRule(ctx: ConversionContext, r: Json, route: GwObject, pos: number, enforce: boolean): [Json | undefined, ConfigError | undefined] {
  const vs: Json = {};
  vs.name = optStr(r.name) ?? `${route.namespace}.${route.name}.${pos}`;
  const matches: Json[] = [];
  for (const raw of list(r.matches)) {
    const m = obj(raw);
    const uri = createGRPCURIMatch(m);
    if ('error' in uri) return [undefined, uri.error];
    const headers = createHeadersMatch(list(m.headers), 'HeaderMatch');
    if ('error' in headers) return [undefined, headers.error];
    const mr: Json = {};
    if (uri.match) mr.uri = uri.match;
    if (headers.match) mr.headers = headers.match;
    matches.push(mr);
  }
  if (matches.length > 0) vs.match = matches;
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
    } else if (type === 'RequestMirror') {
      const mirror = createMirrorFilter(ctx, f.requestMirror, route.namespace, enforce, 'GRPCRoute');
      if (mirror === undefined) continue;
      if ('error' in mirror) return [undefined, mirror.error];
      vs.mirrors = [...list(vs.mirrors), mirror.mirror];
    } else {
      return [undefined, { reason: 'InvalidFilter', message: `unsupported filter type ${JSON.stringify(type)}` }];
    }
  }
  const backendRefs = list(r.backendRefs).map(obj);
  if (weightSum(backendRefs) === 0) {
    vs.directResponse = { status: 500 };
    return [vs, undefined];
  }
  const d = buildHTTPDestination(ctx, backendRefs, route.namespace, enforce, 'GRPCRoute');
  if ('error' in d) return [undefined, d.error];
  if (d.route) vs.route = d.route;
  return [vs, d.backendError];
}

function createGRPCURIMatch(m: Json): { match?: Json } | { error: ConfigError } {
  if (!isObject(m.method)) return {};
  const meth = m.method;
  const tp = optStr(meth.type) ?? 'Exact';
  const method = optStr(meth.method);
  const service = optStr(meth.service);
  if (method === undefined && service === undefined)
    return { error: { reason: 'InvalidConfiguration', message: 'gRPC match must have method or service defined' } };
  if (tp === 'Exact') {
    if (method === undefined) return { match: { prefix: `/${service}/` } };
    if (service === undefined) return { match: { regex: `/[^/]+/${method}` } };
    return { match: { exact: `/${service}/${method}` } };
  }
  if (tp === 'RegularExpression') {
    if (method === undefined) return { match: { regex: `/${service}/.+` } };
    if (service === undefined) return { match: { regex: `/[^/]+/${method}` } };
    return { match: { regex: `/${service}/${method}` } };
  }
  return { error: { reason: 'InvalidConfiguration', message: `unknown type: ${JSON.stringify(tp)} is not supported Path match type` } };
}
