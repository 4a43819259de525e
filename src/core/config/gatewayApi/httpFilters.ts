// HTTPRoute and GRPCRoute filters that need no lookups (conversion.go createHeadersFilter,
// createRedirectFilter, createRewriteFilter, createCorsFilter).
import { type ConfigError, type Json, isObject, list, num, obj, optNum, optStr, str } from './objects.ts';

export function createHeadersFilter(f: unknown): { ops?: Json } | { error: ConfigError } {
  if (!isObject(f)) return {};
  for (const raw of [...list(f.set), ...list(f.add)]) {
    const h = obj(raw);
    if (!isValidHeaderValue(str(h.value)))
      return { error: { reason: 'InvalidFilter', message: `header ${JSON.stringify(str(h.name))} value contains invalid characters` } };
  }
  const ops: Json = {};
  const add = headerListToMap(list(f.add));
  const set = headerListToMap(list(f.set));
  const remove = list(f.remove).map(str);
  if (add) ops.add = add;
  if (remove.length > 0) ops.remove = remove;
  if (set) ops.set = set;
  return { ops };
}

function isValidHeaderValue(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 0x09 || (c >= 0x20 && c !== 0x7f)) continue;
    return false;
  }
  return true;
}

function headerListToMap(hl: unknown[]): Record<string, string> | undefined {
  if (hl.length === 0) return undefined;
  const res: Record<string, string> = {};
  for (const raw of hl) {
    const e = obj(raw);
    const k = str(e.name).toLowerCase();
    if (Object.hasOwn(res, k)) continue;
    res[k] = str(e.value);
  }
  return res;
}

export function createRedirectFilter(f: unknown): Json | undefined {
  if (!isObject(f)) return undefined;
  const r: Json = {};
  if (optNum(f.statusCode) !== undefined) r.redirectCode = num(f.statusCode);
  if (optStr(f.hostname) !== undefined) r.authority = str(f.hostname);
  if (optStr(f.scheme) !== undefined) r.scheme = str(f.scheme);
  if (optNum(f.port) !== undefined) r.port = num(f.port);
  else r.derivePort = optStr(f.scheme) !== undefined ? 'FROM_PROTOCOL_DEFAULT' : 'FROM_REQUEST_PORT';
  if (isObject(f.path)) {
    const t = str(f.path.type);
    if (t === 'ReplaceFullPath') r.uri = str(f.path.replaceFullPath);
    else if (t === 'ReplacePrefixMatch') r.prefixRewrite = str(f.path.replacePrefixMatch);
  }
  for (const k of ['redirectCode', 'authority', 'scheme', 'uri', 'prefixRewrite']) if (r[k] === '' || r[k] === 0) delete r[k];
  return r;
}

export function createRewriteFilter(f: unknown): Json | undefined {
  if (!isObject(f)) return undefined;
  const r: Json = {};
  if (isObject(f.path)) {
    const t = str(f.path.type);
    if (t === 'ReplacePrefixMatch') {
      let uri = str(f.path.replacePrefixMatch);
      if (uri.endsWith('/')) uri = uri.slice(0, -1);
      r.uri = uri === '' ? '/' : uri;
    } else if (t === 'ReplaceFullPath') {
      r.uriRegexRewrite = { match: '/.*', rewrite: str(f.path.replaceFullPath) };
    }
  }
  if (optStr(f.hostname) !== undefined && str(f.hostname) !== '') r.authority = str(f.hostname);
  if (!r.uri && !r.uriRegexRewrite && !r.authority) return undefined;
  return r;
}

export function createCorsFilter(f: unknown): Json | undefined {
  if (!isObject(f)) return undefined;
  const res: Json = {};
  const origins: Json[] = [];
  for (const raw of list(f.allowOrigins)) {
    const rs = str(raw);
    if (rs.length === 0) continue;
    if (rs === '*') {
      origins.push({ regex: '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/\\s?#]+$' });
      continue;
    }
    if (!rs.includes('*')) {
      origins.push({ exact: rs });
      continue;
    }
    if (rs.split('*').length - 1 === 1 && rs.endsWith('*')) {
      origins.push({ prefix: rs.slice(0, -1) });
      continue;
    }
    const quoted = rs.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&').replace(/\\\*/g, '.*');
    origins.push({ regex: `^${quoted}$` });
  }
  if (origins.length > 0) res.allowOrigins = origins;
  if (f.allowCredentials === true) res.allowCredentials = true;
  const methods = list(f.allowMethods).map(str);
  if (methods.length > 0) res.allowMethods = methods;
  const headers = list(f.allowHeaders).map(str);
  if (headers.length > 0) res.allowHeaders = headers;
  const expose = list(f.exposeHeaders).map(str);
  if (expose.length > 0) res.exposeHeaders = expose;
  if (num(f.maxAge) > 0) res.maxAge = `${num(f.maxAge)}s`;
  res.unmatchedPreflights = 'IGNORE';
  return res;
}
