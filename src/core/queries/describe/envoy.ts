// What `istioctl x describe` reads of a proxy's Envoy config dump (istioctl/pkg/describe
// describe.go): the DestinationRule behind an outbound cluster, the VirtualService behind a
// route, and the RBAC policy names on the inbound HTTP connection manager. The dump is either
// the one we generate for the proxy or one the user saved; both are read the same way.
import { type ConfigDump, SECTION, asObject, field, list, objAt, str, typeUrlOf, type JsonObject } from '../../xds/configdump/dump.ts';
import { clusterMatches } from '../../xds/configdump/clusters.ts';

const K8S_SUFFIX = '.svc.cluster.local';
const HCM_TYPE = 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager';
const HTTP_RBAC = 'envoy.filters.http.rbac';
const VIRTUAL_INBOUND = 'virtualInbound';

/** extendFQDN: a name that is not a wildcard and lacks `.svc.cluster.local` gets it appended. */
export function extendFqdn(host: string): string {
  if (host.startsWith('*') || host.endsWith(K8S_SUFFIX)) return host;
  return host + K8S_SUFFIX;
}

/** `metadata.filter_metadata.istio.config` of a cluster or route; undefined when there is no metadata at all. */
function istioConfig(metadata: unknown): string | undefined {
  const md = asObject(metadata);
  if (!md) return undefined;
  const istio = objAt(md, 'filter_metadata', 'istio');
  const v = istio?.config;
  return typeof v === 'string' ? v : '';
}

function dynamicEntries(dump: ConfigDump, section: string, listName: string, inner: string): JsonObject[] {
  const s = dump.optionalSection(section);
  if (!s) return [];
  const out: JsonObject[] = [];
  for (const e of list(s, listName)) {
    const v = objAt(e, ...inner.split('.'));
    if (v) out.push(v);
  }
  return out;
}

const PATH_RE = (kind: string) => new RegExp(`/apis/networking(\\.istio\\.io)?/v1(?:alpha3)?/namespaces/([^/]+)/${kind}/([^/]+)`);

/** A config path's namespace and name when it names a resource of `kind` (`virtual-service`, `destination-rule`). */
export function parseConfigPath(path: string, kind: 'virtual-service' | 'destination-rule'): { namespace: string; name: string } | undefined {
  const m = PATH_RE(kind).exec(path);
  return m ? { namespace: m[2] as string, name: m[3] as string } : undefined;
}

/**
 * getIstioDestinationRulePathForSvc: the first active outbound cluster of the service's port
 * (ClusterFilter: FQDN, port and direction as substrings of the name) that carries metadata
 * decides; its `istio.config` (possibly '') is the DestinationRule's path.
 */
export function destinationRulePath(dump: ConfigDump, serviceName: string, namespace: string, port: number): string {
  const fqdn = extendFqdn(`${serviceName}.${namespace}`);
  for (const c of dynamicEntries(dump, SECTION.clusters, 'dynamic_active_clusters', 'cluster')) {
    if (!clusterMatches({ fqdn, port, direction: 'outbound' }, str(c, 'name'))) continue;
    const cfg = istioConfig(field(c, 'metadata'));
    if (cfg !== undefined) return cfg;
  }
  return '';
}

const DOMAIN_RE = /([^.]+)\.([^.]+)\.svc\.cluster\.local$/;

/** The cluster a route sends to: its `cluster`, or the first of its weighted clusters. */
function routeCluster(route: unknown): string {
  const action = objAt(route, 'route');
  if (!action) return '';
  const direct = field(action, 'cluster');
  if (typeof direct === 'string') return direct;
  const first = list(objAt(action, 'weighted_clusters'), 'clusters')[0];
  return str(first, 'name');
}

/** routeDestinationMatchesSvc: a virtual host domain `<svc>.<ns>.svc.cluster.local`, else the route's outbound cluster of that port. */
function routeMatchesService(route: unknown, vh: unknown, serviceName: string, namespace: string, port: number): boolean {
  for (const d of list(vh, 'domains')) {
    const m = typeof d === 'string' ? DOMAIN_RE.exec(d) : null;
    if (m && m[1] === serviceName && m[2] === namespace) return true;
  }
  const m = new RegExp(`^outbound\\|${port}\\|[^|]*\\|([^.]+)\\.([^.]+)\\.svc\\.cluster\\.local$`).exec(routeCluster(route));
  return m !== null && m[1] === serviceName && m[2] === namespace;
}

/**
 * getIstioVirtualServicePathForSvcFromRoute: in the route configurations named after the port
 * or `http.`/`https.`, the first route that reaches the service; its `istio.config`, or
 * undefined when that route has no metadata (istioctl's "no istio config" error).
 */
export function virtualServicePath(dump: ConfigDump, serviceName: string, namespace: string, port: number): string | undefined {
  const sPort = String(port);
  for (const rc of dynamicEntries(dump, SECTION.routes, 'dynamic_route_configs', 'route_config')) {
    const name = str(rc, 'name');
    if (name !== sPort && !name.startsWith('http.') && !name.startsWith('https.')) continue;
    for (const vh of list(rc, 'virtual_hosts')) {
      for (const route of list(vh, 'routes')) {
        if (!asObject(route)) continue;
        if (routeMatchesService(route, vh, serviceName, namespace, port)) return istioConfig(field(route, 'metadata'));
      }
    }
  }
  return '';
}

function listenerOf(entry: unknown): JsonObject | undefined {
  return objAt(entry, 'active_state', 'listener');
}

/** The active dynamic listeners of a dump, in its order. */
export function activeListeners(dump: ConfigDump): JsonObject[] {
  const s = dump.optionalSection(SECTION.listeners);
  if (!s) return [];
  const out: JsonObject[] = [];
  for (const e of list(s, 'dynamic_listeners')) {
    const l = listenerOf(e);
    if (l) out.push(l);
  }
  return out;
}

function firstHcm(listener: JsonObject): JsonObject | undefined {
  for (const fc of list(listener, 'filter_chains')) {
    for (const f of list(fc, 'filters')) {
      const tc = objAt(f, 'typed_config');
      if (tc && typeUrlOf(tc) === HCM_TYPE) return tc;
    }
  }
  return undefined;
}

/**
 * getInboundHTTPConnectionManager: the first HTTP connection manager of `virtualInbound`, or
 * of a listener on the port whose address is not 0.0.0.0 (the pre-1.6 layout).
 */
function inboundHcm(dump: ConfigDump, port: number): JsonObject | undefined {
  for (const l of activeListeners(dump)) {
    if (str(l, 'name') === VIRTUAL_INBOUND) {
      const h = firstHcm(l);
      if (h) return h;
    }
    const sock = objAt(l, 'address', 'socket_address');
    const lport = field(sock, 'port_value');
    if (Number(lport) === port) {
      if (sock && str(sock, 'address') === '0.0.0.0') continue;
      const h = firstHcm(l);
      if (h) return h;
    }
  }
  return undefined;
}

/** getIstioRBACPolicies: the policy names of the first RBAC filter on the inbound HTTP connection manager (sorted; Go's map order is random). */
export function inboundRbacPolicies(dump: ConfigDump, port: number): string[] {
  const hcm = inboundHcm(dump, port);
  if (!hcm) return [];
  for (const hf of list(hcm, 'http_filters')) {
    if (str(hf, 'name') !== HTTP_RBAC) continue;
    const policies = objAt(hf, 'typed_config', 'rules', 'policies');
    return policies ? Object.keys(policies).sort() : [];
  }
  return [];
}
