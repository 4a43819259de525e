// ValidateEnvoyFilter: the fixed warning, the workload selector, and each config patch
// (applyTo, patch operation and value, the proxy version regex, and whether the match fits
// the object class). Istio also decodes each patch value into Envoy's protobuf types; we
// check the parts of that which need no Envoy schema: deprecated filter names, v2 type URLs
// (no longer known), filters named without a typed_config, and a `name` that is not a string.
import { utf8Length } from '../../go/strings.ts';
import { goJsonValueType } from '../../go/format.ts';
import { goRegexpError } from './goRegexp.ts';
import { validateAlphaWorkloadSelector } from './names.ts';
import { at, enumv, get, idx, items, msg, s, strEntries, type Obj } from './read.ts';
import { V } from './result.ts';
import { SPEC, type Cfg } from './common.ts';

const APPLY_TO = [
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
] as const;
const OPERATIONS = ['INVALID', 'MERGE', 'ADD', 'REMOVE', 'INSERT_BEFORE', 'INSERT_AFTER', 'INSERT_FIRST', 'REPLACE', 'MERGE_AND_REPLACE_LIST'] as const;
const CONTEXTS = ['ANY', 'SIDECAR_INBOUND', 'SIDECAR_OUTBOUND', 'GATEWAY', 'WAYPOINT'] as const;
const HCM = 'envoy.filters.network.http_connection_manager';

/** xds.ReverseDeprecatedFilterNames: deprecated name → canonical name. */
const DEPRECATED_NAMES: Record<string, string> = {
  'envoy.buffer': 'envoy.filters.http.buffer',
  'envoy.cors': 'envoy.filters.http.cors',
  'envoy.csrf': 'envoy.filters.http.csrf',
  'envoy.http_dynamo_filter': 'envoy.filters.http.dynamo',
  'envoy.ext_authz': 'envoy.filters.network.ext_authz',
  'envoy.fault': 'envoy.filters.http.fault',
  'envoy.grpc_http1_bridge': 'envoy.filters.http.grpc_http1_bridge',
  'envoy.grpc_json_transcoder': 'envoy.filters.http.grpc_json_transcoder',
  'envoy.grpc_web': 'envoy.filters.http.grpc_web',
  'envoy.gzip': 'envoy.filters.http.gzip',
  'envoy.health_check': 'envoy.filters.http.health_check',
  'envoy.ip_tagging': 'envoy.filters.http.ip_tagging',
  'envoy.lua': 'envoy.filters.http.lua',
  'envoy.rate_limit': 'envoy.filters.http.ratelimit',
  'envoy.router': 'envoy.filters.http.router',
  'envoy.squash': 'envoy.filters.http.squash',
  'envoy.listener.http_inspector': 'envoy.filters.listener.http_inspector',
  'envoy.listener.original_dst': 'envoy.filters.listener.original_dst',
  'envoy.listener.original_src': 'envoy.filters.listener.original_src',
  'envoy.listener.proxy_protocol': 'envoy.filters.listener.proxy_protocol',
  'envoy.listener.tls_inspector': 'envoy.filters.listener.tls_inspector',
  'envoy.client_ssl_auth': 'envoy.filters.network.client_ssl_auth',
  'envoy.http_connection_manager': HCM,
  'envoy.mongo_proxy': 'envoy.filters.network.mongo_proxy',
  'envoy.ratelimit': 'envoy.filters.network.ratelimit',
  'envoy.redis_proxy': 'envoy.filters.network.redis_proxy',
  'envoy.tcp_proxy': 'envoy.filters.network.tcp_proxy',
};

function listenerMatchName(name: string, path: string, v: V): void {
  const canonical = Object.hasOwn(DEPRECATED_NAMES, name) ? DEPRECATED_NAMES[name] : undefined;
  if (canonical) v.warn(`using deprecated filter name ${JSON.stringify(name)}; use ${JSON.stringify(canonical)} instead`, path);
}

/** Type URLs under typed_config/typedConfig anywhere in the value. */
function typeUrls(x: unknown, out: string[], depth = 0): void {
  if (depth > 64 || x === null || typeof x !== 'object') return;
  if (Array.isArray(x)) {
    for (const item of x) typeUrls(item, out, depth + 1);
    return;
  }
  const o = x as Obj;
  const t = o['@type'];
  if (typeof t === 'string') out.push(t);
  for (const k of Object.keys(o)) typeUrls(o[k], out, depth + 1);
}

/** Filters (objects with a name) that need a typed_config and have none, as Istio's recurseMissingTypedConfig finds them on the usual shapes. */
function missingTypedConfig(applyTo: string, value: Obj): string[] {
  const out: string[] = [];
  const needs = (o: Obj): boolean => get(o, 'typedConfig') === undefined && get(o, 'configDiscovery') === undefined;
  const filterList = (o: Obj | undefined, k: string) => {
    for (const f of items(o, k)) if (f && needs(f)) out.push(s(f, 'name'));
  };
  switch (applyTo) {
    case 'HTTP_FILTER':
    case 'NETWORK_FILTER':
    case 'LISTENER_FILTER':
      if (needs(value)) out.push(s(value, 'name'));
      break;
    case 'FILTER_CHAIN':
      filterList(value, 'filters');
      break;
    case 'LISTENER':
      filterList(value, 'listenerFilters');
      for (const fc of items(value, 'filterChains')) filterList(fc ?? undefined, 'filters');
      break;
  }
  return out;
}

function validatePatchValue(applyTo: string, value: unknown, path: string, v: V): void {
  if (applyTo === 'INVALID' || !((applyTo as string) in Object.fromEntries(APPLY_TO.map((a) => [a, 1])))) {
    v.err(`Envoy filter: unknown object type for applyTo ${applyTo}`, path);
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const o = value as Obj;
  const name = get(o, 'name');
  if (name !== undefined && name !== null && typeof name !== 'string') {
    v.err(`Envoy filter: json: cannot unmarshal ${goJsonValueType(name)} into Go value of type string`, path);
    return;
  }
  const urls: string[] = [];
  typeUrls(o, urls);
  const v2 = urls.find((u) => u.includes('.v2.') || u.includes('.v2alpha.'));
  if (v2) {
    v.err(
      `referenced type unknown (hint: try using the v3 XDS API): Envoy filter: unable to resolve ${JSON.stringify(v2)}: ${JSON.stringify(v2.slice(v2.lastIndexOf('/') + 1))} not found`,
      path,
    );
    return;
  }
  const missing = missingTypedConfig(applyTo, o);
  if (missing.length > 0) v.warn(`using deprecated types by name without typed_config; ${missing.join(', ')}`, path);
}

function validateEnvoyFilterBody(spec: Obj, v: V): V {
  const selector = msg(spec, 'workloadSelector');
  const sel = validateAlphaWorkloadSelector(selector ? strEntries(selector, 'labels') : undefined, at(SPEC, spec, 'workloadSelector'));
  if (!sel.errors.ok) return new V().addErrors(sel.errors);
  if (sel.warning) v.warn(`Envoy filter: ${sel.warning}, will be applied to all services in namespace`, at(SPEC, spec, 'workloadSelector'));
  const patchesPath = at(SPEC, spec, 'configPatches');
  items(spec, 'configPatches').forEach((cp, i) => {
    const p = idx(patchesPath, i);
    if (cp === null) {
      v.err('Envoy filter: null config patch', p);
      return;
    }
    const match = msg(cp, 'match');
    if (match && enumv(match, 'context', CONTEXTS) === 'WAYPOINT') return;
    const applyTo = enumv(cp, 'applyTo', APPLY_TO);
    if (applyTo === 'INVALID') {
      v.err('Envoy filter: missing applyTo', p);
      return;
    }
    const patch = msg(cp, 'patch');
    if (!patch) {
      v.err('Envoy filter: missing patch', p);
      return;
    }
    const pp = at(p, cp, 'patch');
    const operation = enumv(patch, 'operation', OPERATIONS);
    if (operation === 'INVALID') {
      v.err('Envoy filter: missing patch operation', pp);
      return;
    }
    const value = get(patch, 'value');
    if (operation !== 'REMOVE' && (value === undefined || value === null)) {
      v.err('Envoy filter: missing patch value for non-remove operation', pp);
      return;
    }
    const proxy = msg(match, 'proxy');
    const version = s(proxy, 'proxyVersion');
    if (proxy && version !== '') {
      const vp = at(at(at(p, cp, 'match'), match, 'proxy'), proxy, 'proxyVersion');
      if (utf8Length(version) > 1024) v.warn('Envoy filter: proxyVersion match exceeds 1024 characters and will be ignored', vp);
      else {
        const re = goRegexpError(version);
        if (re) {
          v.err(`Envoy filter: invalid regex for proxy version, [${re}]`, vp);
          return;
        }
      }
    }
    const mp = at(p, cp, 'match');
    const objectTypes = match
      ? (['listener', 'routeConfiguration', 'cluster'] as const).find((k) => get(match, k) !== undefined && get(match, k) !== null)
      : undefined;
    switch (applyTo) {
      case 'LISTENER':
      case 'FILTER_CHAIN':
      case 'NETWORK_FILTER':
      case 'HTTP_FILTER':
        if (match && objectTypes) {
          const listener = msg(match, 'listener');
          if (!listener) {
            v.err('Envoy filter: applyTo for listener class objects cannot have non listener match', mp);
            return;
          }
          const fc = msg(listener, 'filterChain');
          const filter = msg(fc, 'filter');
          if (fc && filter) {
            const fp = at(at(at(mp, match, 'listener'), listener, 'filterChain'), fc, 'filter');
            if (applyTo === 'LISTENER' || applyTo === 'FILTER_CHAIN') v.warn(`Envoy filter: filter match has no effect when used with ${applyTo}`, fp);
            const filterName = s(filter, 'name');
            const sub = msg(filter, 'subFilter');
            if (filterName === '') {
              v.err('Envoy filter: filter match has no name to match on', fp);
              return;
            } else if (sub) {
              if (applyTo !== 'HTTP_FILTER') {
                v.err('Envoy filter: subfilter match can be used with applyTo HTTP_FILTER only', fp);
                return;
              }
              if (filterName !== HCM && filterName !== 'envoy.http_connection_manager') {
                v.err(`Envoy filter: subfilter match requires filter match with ${HCM}`, fp);
                return;
              }
              if (s(sub, 'name') === '') {
                v.err('Envoy filter: subfilter match has no name to match on', fp);
                return;
              }
            }
            listenerMatchName(filterName, fp, v);
            listenerMatchName(s(sub, 'name'), fp, v);
          }
        }
        break;
      case 'ROUTE_CONFIGURATION':
      case 'VIRTUAL_HOST':
      case 'HTTP_ROUTE':
        if (match && objectTypes && !msg(match, 'routeConfiguration'))
          v.err('Envoy filter: applyTo for http route class objects cannot have non route configuration match', mp);
        break;
      case 'CLUSTER':
        if (match && objectTypes && !msg(match, 'cluster')) v.err('Envoy filter: applyTo for cluster class objects cannot have non cluster match', mp);
        break;
    }
    if (value !== undefined && value !== null) validatePatchValue(applyTo, value, at(pp, patch, 'value'), v);
  });
  return v;
}

export function validateEnvoyFilter(cfg: Cfg): V {
  const v = new V();
  v.warn(
    'EnvoyFilter exposes internal implementation details that may change at any time. Prefer other APIs if possible, and exercise extreme caution, especially around upgrades.',
    SPEC,
  );
  return validateEnvoyFilterBody(cfg.spec, v);
}
