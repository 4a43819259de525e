// Gateway API config as the generator consumes it: the Istio Gateway, VirtualService and
// DestinationRule objects istiod converts Gateway API resources into (pilot/pkg/config/kube/
// gateway), as synthetic Resources. They are not in the analyzer store (istioctl's analyzers do
// not see them); the generator merges them in.
//
// TODO(gateway-api branch): the Gateway API engineer's `gatewayApiConfig(view)` in
// src/core/config/gatewayApi/ is the real conversion (Gateways, listeners, TLS, ReferenceGrants,
// status). Until it lands, this module converts only what the mesh (GAMMA) needs: HTTPRoutes
// whose parent is a Service or ServiceEntry become `mesh` VirtualServices with Gateway API
// semantics (route_collections.go). Gateway-parented routes, GRPCRoute/TCPRoute/TLSRoute and
// Kubernetes Gateways are not converted here, and waypoints are not generated.
import type { Resource } from '../model/types.ts';
import { KINDS } from '../model/kinds.ts';
import type { ConfigView } from '../config/configView.ts';
import { httpRoute } from '../config/api/gatewayapi.ts';
import { isObj, str, arr } from '../model/read.ts';
import { creationTime } from '../config/services.ts';

export interface GatewayApiConfig {
  gateways: readonly Resource[];
  virtualServices: readonly Resource[];
  destinationRules: readonly Resource[];
}

/** The converted config of a mesh version (cached in `view.lookups`). */
export function gatewayApiConfig(view: ConfigView): GatewayApiConfig {
  return view.lookups.cached('xds.gatewayApiFallback', () => ({ gateways: [], virtualServices: meshRouteVirtualServices(view), destinationRules: [] }));
}

const DOMAIN = 'cluster.local';

/** HTTPRoutes attached to Services (GAMMA): one VirtualService per (route namespace, port, service host). */
function meshRouteVirtualServices(view: ConfigView): Resource[] {
  const routes = [...view.list(KINDS.HTTPRoute)].sort((a, b) => creationTime(a) - creationTime(b) || (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const groups = new Map<string, { ns: string; host: string; port?: number; routes: Resource[]; rules: Record<string, unknown>[] }>();
  for (const route of routes) {
    const spec = httpRoute(route);
    for (const parent of spec.parentRefs) {
      const kind = parent.kind ?? 'Gateway';
      const group = parent.group ?? 'gateway.networking.k8s.io';
      let host: string;
      if (kind === 'Service' && (group === '' || group === 'core')) host = `${parent.name}.${parent.namespace ?? route.namespace}.svc.${DOMAIN}`;
      else if (kind === 'ServiceEntry' && group === 'networking.istio.io') {
        const se = view.find(KINDS.ServiceEntry, parent.namespace ?? route.namespace, parent.name);
        const hosts = se && isObj(se.body.spec) ? arr(se.body.spec.hosts).map(str) : [];
        if (hosts.length === 0) continue;
        host = hosts[0] as string;
      } else continue;
      const port = parent.port;
      const key = `${route.namespace}~${port ?? ''}~${host}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { ns: route.namespace, host, ...(port !== undefined ? { port } : {}), routes: [], rules: [] }));
      if (!g.routes.includes(route)) {
        g.routes.push(route);
        g.rules.push(...convertRules(route, port));
      }
    }
  }
  const out: Resource[] = [];
  for (const g of groups.values()) {
    const name = g.port !== undefined ? `${g.ns}~${g.port}~${g.host}` : `${g.ns}~${g.host}`;
    const oldest = g.routes[0] as Resource;
    const parents = g.routes.map((r) => `HTTPRoute/${r.name}.${r.namespace}`).join(',');
    const annotations = { 'internal.istio.io/parents': parents, 'internal.istio.io/route-semantics': 'gateway' };
    const meta = isObj(oldest.body.metadata) ? oldest.body.metadata : {};
    const body: Record<string, unknown> = {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name, namespace: g.ns, annotations, ...(str(meta.creationTimestamp) ? { creationTimestamp: str(meta.creationTimestamp) } : {}) },
      spec: { hosts: [g.host], gateways: ['mesh'], http: sortByPrecedence(g.rules) },
    };
    out.push({
      key: `${KINDS.VirtualService.id}/${g.ns}/${name}`,
      kindId: KINDS.VirtualService.id,
      gvk: { group: KINDS.VirtualService.group, version: KINDS.VirtualService.version, kind: 'VirtualService' },
      namespace: g.ns,
      name,
      labels: Object.create(null) as Record<string, string>,
      annotations: Object.assign(Object.create(null) as Record<string, string>, annotations),
      body,
      synthetic: 'derived',
      ...(oldest.source ? { source: oldest.source } : {}),
    });
  }
  return out;
}

function convertRules(route: Resource, port: number | undefined): Record<string, unknown>[] {
  const spec = isObj(route.body.spec) ? route.body.spec : {};
  const out: Record<string, unknown>[] = [];
  arr(spec.rules).forEach((rule, i) => {
    if (!isObj(rule)) return;
    const name = str(rule.name) || `${route.namespace}.${route.name}.${i}`;
    const dests = backends(route, rule);
    const action: Record<string, unknown> = dests.length === 0 ? { directResponse: { status: 500 } } : { route: dests };
    const matches = arr(rule.matches).filter(isObj);
    const portMatch = port !== undefined ? { port } : {};
    if (matches.length === 0) {
      out.push({ ...(port !== undefined ? { match: [portMatch] } : {}), name, ...action });
      return;
    }
    for (const m of matches) out.push({ match: [{ ...convertMatch(m), ...portMatch }], name, ...action });
  });
  return out;
}

function convertMatch(m: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isObj(m.path)) {
    const type = str(m.path.type) || 'PathPrefix';
    const value = str(m.path.value) || '/';
    if (type === 'Exact') out.uri = { exact: value };
    else if (type === 'RegularExpression') out.uri = { regex: value };
    else out.uri = { prefix: value !== '/' && value.endsWith('/') ? value.slice(0, -1) : value };
  }
  const headers: Record<string, unknown> = {};
  for (const h of arr(m.headers).filter(isObj)) headers[str(h.name).toLowerCase()] = str(h.type) === 'RegularExpression' ? { regex: str(h.value) } : { exact: str(h.value) };
  if (Object.keys(headers).length > 0) out.headers = headers;
  const query: Record<string, unknown> = {};
  for (const q of arr(m.queryParams).filter(isObj)) query[str(q.name)] = str(q.type) === 'RegularExpression' ? { regex: str(q.value) } : { exact: str(q.value) };
  if (Object.keys(query).length > 0) out.queryParams = query;
  if (str(m.method) !== '') out.method = { exact: str(m.method) };
  return out;
}

function backends(route: Resource, rule: Record<string, unknown>): Record<string, unknown>[] {
  const refs = arr(rule.backendRefs).filter(isObj).filter((b) => b.weight !== 0);
  const dests = refs.map((b) => {
    const kind = str(b.kind) || 'Service';
    const group = str(b.group);
    let host = '';
    if (kind === 'Service' && (group === '' || group === 'core')) host = `${str(b.name)}.${str(b.namespace) || route.namespace}.svc.${DOMAIN}`;
    else if (kind === 'Hostname' && group === 'networking.istio.io') host = str(b.name);
    const d: Record<string, unknown> = host === '' ? {} : { host, ...(typeof b.port === 'number' ? { port: { number: b.port } } : {}) };
    return { destination: d, ...(typeof b.weight === 'number' ? { weight: b.weight } : {}) };
  });
  if (dests.length === 1) delete (dests[0] as Record<string, unknown>).weight;
  else for (const d of dests) if (d.weight === undefined) d.weight = 1;
  return dests;
}

/** Gateway API precedence (conversion.go sortHTTPRoutes), stable. */
function sortByPrecedence(rules: Record<string, unknown>[]): Record<string, unknown>[] {
  const rank = (r: Record<string, unknown>) => {
    const m = isObj(arr(r.match)[0]) ? (arr(r.match)[0] as Record<string, unknown>) : undefined;
    const uri = m && isObj(m.uri) ? m.uri : undefined;
    return {
      hasMatch: uri !== undefined || (m !== undefined && (isObj(m.headers) || isObj(m.queryParams) || isObj(m.method))),
      kind: uri ? ('exact' in uri ? 3 : 'prefix' in uri ? 2 : 1) : 0,
      len: uri ? str(uri.exact ?? uri.prefix ?? uri.regex).length : 0,
      method: m && isObj(m.method) ? 1 : 0,
      headers: m && isObj(m.headers) ? Object.keys(m.headers).length : 0,
      query: m && isObj(m.queryParams) ? Object.keys(m.queryParams).length : 0,
    };
  };
  return rules
    .map((r, i) => ({ r, i, k: rank(r) }))
    .sort((a, b) => {
      if (a.k.hasMatch !== b.k.hasMatch) return a.k.hasMatch ? -1 : 1;
      if (a.k.kind !== b.k.kind) return b.k.kind - a.k.kind;
      if (a.k.len !== b.k.len) return b.k.len - a.k.len;
      if (a.k.method !== b.k.method) return b.k.method - a.k.method;
      if (a.k.headers !== b.k.headers) return b.k.headers - a.k.headers;
      if (a.k.query !== b.k.query) return b.k.query - a.k.query;
      return a.i - b.i;
    })
    .map((x) => x.r);
}
