// What a row of the proxy-config tables does to requests, read from the dump alone (no
// workspace, no DOM): a route to a cluster the proxy does not have, a route or an EDS cluster
// with no endpoint, an HTTP filter chain whose RDS route configuration is absent. Each comes
// with the status and response flag Envoy answers with, and the share of the row's requests
// it hits. Envoy's semantics (envoy/config/route/v3/route_components.proto, the router filter,
// and the access log's %RESPONSE_FLAGS%):
//  - NC "no cluster found": a route's cluster (or the weighted entry picked for the request)
//    is not in the cluster manager; the router answers cluster_not_found_response_code
//    (SERVICE_UNAVAILABLE, 503, unless the route says otherwise).
//  - UH "no healthy upstream": the cluster has no host to pick; the router answers 503.
//  - NR "no route configured": the connection manager finds no route; the router answers 404.
// A weighted entry gets weight / (sum of the weights) of the requests (total_weight is
// deprecated; Envoy uses the sum).
import { type ConfigDump, SECTION, asObject, field, list, objAt, str, toNumber, wrapped, type JsonObject } from './dump.ts';
import { clusterType } from './clusters.ts';
import { filterChains, HTTP_CONNECTION_MANAGER } from './listeners.ts';
import { parseSubsetKey } from './names.ts';
import { describeMatch } from './routes.ts';

export type FindingFlag = 'NC' | 'UH' | 'NR';

export interface TableFinding {
  /** The table of the row. */
  table: 'routes' | 'clusters' | 'listeners';
  /**
   * The row, keyed as provenance keys its config: routes `<route config>/<virtual host>/<route
   * index>`, clusters the cluster name, listeners `<listener>/<chain index or "default">`.
   */
  key: string;
  flag: FindingFlag;
  /** The HTTP status Envoy answers with. */
  status: number;
  /** Percent of the row's requests that get it (0 < share ≤ 100). */
  share: number;
  /** The cluster (NC, UH) or route configuration (NR) at fault. */
  target: string;
  /** One line, e.g. `503 NC (no cluster) for 20% of requests`. */
  consequence: string;
  /** Why, in a sentence or two. */
  detail: string;
}

const FLAG_WORDS: Record<FindingFlag, string> = { NC: 'no cluster', UH: 'no healthy upstream', NR: 'no route' };

/** A share as people write it: `20`, `33.3`. */
export function formatShare(share: number): string {
  return Number.isInteger(share) ? String(share) : String(Math.round(share * 10) / 10);
}

/** RouteAction.cluster_not_found_response_code (an enum, by name or number). */
function clusterNotFoundStatus(action: JsonObject): number {
  const v = field(action, 'cluster_not_found_response_code');
  if (v === 'NOT_FOUND' || v === 1) return 404;
  if (v === 'INTERNAL_SERVER_ERROR' || v === 2) return 500;
  return 503;
}

/** The clusters a route action sends to, with each one's share of the requests. */
function routeTargets(action: JsonObject): { cluster: string; share: number }[] {
  const cluster = str(action, 'cluster');
  if (cluster !== '') return [{ cluster, share: 100 }];
  const entries = list(objAt(action, 'weighted_clusters'), 'clusters').map((c) => ({ cluster: str(c, 'name'), weight: wrapped(c, 'weight') ?? 0 }));
  const total = entries.reduce((n, e) => n + e.weight, 0);
  if (total <= 0) return [];
  // Entries named by a request header (cluster_header) have no name to check.
  return entries.filter((e) => e.cluster !== '' && e.weight > 0).map((e) => ({ cluster: e.cluster, share: (e.weight * 100) / total }));
}

/** Why a named cluster is absent, from what the dump does have for the same host and port. */
function missingClusterDetail(name: string, clusters: ReadonlySet<string>, status: number): string {
  const key = parseSubsetKey(name);
  const base = `Envoy's router finds no cluster ${name} and answers ${status} with response flag NC.`;
  if (key.hostname === '' || key.direction !== 'outbound') return base;
  const siblings = [...clusters]
    .map((c) => ({ c, k: parseSubsetKey(c) }))
    .filter((x) => x.k.direction === key.direction && x.k.port === key.port && x.k.hostname === key.hostname);
  if (key.subset !== '' && siblings.length > 0) {
    const subsets = siblings.map((s) => s.k.subset).filter((s) => s !== '');
    // Istio names the route's cluster outbound|port|subset|host (model.BuildSubsetKey) whether or
    // not the subset exists; it builds subset clusters only for the subsets a DestinationRule defines.
    return `${base} Istio routes to subset ${key.subset} of ${key.hostname} but creates clusters only for the subsets its DestinationRule defines${subsets.length > 0 ? ` (this proxy has ${subsets.join(', ')})` : ' (this proxy has none)'}.`;
  }
  return `${base} The proxy has no cluster for ${key.hostname} port ${key.port}: no Service or ServiceEntry with that port in its scope.`;
}

/** ClusterLoadAssignment name → number of lb endpoints; undefined when the dump has no EDS section (not dumped with include_eds). */
function endpointCounts(dump: ConfigDump): Map<string, number> | undefined {
  const section = dump.optionalSection(SECTION.endpoints);
  if (!section) return undefined;
  const out = new Map<string, number>();
  for (const e of [...list(section, 'dynamic_endpoint_configs'), ...list(section, 'static_endpoint_configs')]) {
    const cla = asObject(field(e, 'endpoint_config'));
    if (!cla) continue;
    const n = list(cla, 'endpoints').reduce<number>((sum, l) => sum + list(l, 'lb_endpoints').length, 0);
    const name = str(cla, 'cluster_name');
    out.set(name, (out.get(name) ?? 0) + n);
  }
  return out;
}

function clusterObjects(dump: ConfigDump): JsonObject[] {
  const section = dump.optionalSection(SECTION.clusters);
  if (!section) return [];
  return [...list(section, 'dynamic_active_clusters'), ...list(section, 'static_clusters')]
    .map((c) => asObject(field(c, 'cluster')))
    .filter((c): c is JsonObject => c !== undefined);
}

/** EDS clusters whose load assignment in the dump has no endpoint. */
function emptyEdsClusters(dump: ConfigDump, clusters: readonly JsonObject[]): Map<string, string> {
  const counts = endpointCounts(dump);
  const out = new Map<string, string>();
  if (!counts) return out;
  for (const c of clusters) {
    if (clusterType(c) !== 'EDS') continue;
    const name = str(c, 'name');
    // EDS asks for eds_cluster_config.service_name, or the cluster's name when that is empty.
    const service = str(objAt(c, 'eds_cluster_config'), 'service_name') || name;
    if ((counts.get(service) ?? 0) === 0) out.set(name, service);
  }
  return out;
}

function share(s: number): string {
  return `${formatShare(s)}% of requests`;
}

/** Every finding of the dump's listener, route and cluster tables. Sections the dump lacks give none. */
export function tableFindings(dump: ConfigDump): TableFinding[] {
  const clusterList = clusterObjects(dump);
  const haveClusters = dump.optionalSection(SECTION.clusters) !== undefined;
  const clusters = new Set(clusterList.map((c) => str(c, 'name')));
  const empty = emptyEdsClusters(dump, clusterList);
  const out: TableFinding[] = [];

  for (const [name, service] of empty) {
    out.push({
      table: 'clusters',
      key: name,
      flag: 'UH',
      status: 503,
      share: 100,
      target: name,
      consequence: '503 UH: no healthy upstream',
      detail: `An EDS cluster with no endpoint (the load assignment for ${service} has no lbEndpoints): Envoy's load balancer has no host to pick, so the router answers 503 with response flag UH.`,
    });
  }

  const routeSection = dump.optionalSection(SECTION.routes);
  const routeConfigs: JsonObject[] = [];
  for (const kind of ['dynamic_route_configs', 'static_route_configs']) {
    for (const r of list(routeSection, kind)) {
      const rc = asObject(field(r, 'route_config'));
      if (rc) routeConfigs.push(rc);
    }
  }
  /** The findings of one route's targets (an RDS route's row, or an inline route of a listener chain). */
  const routeFindings = (action: JsonObject, on: string): Omit<TableFinding, 'table' | 'key'>[] => {
    const found: Omit<TableFinding, 'table' | 'key'>[] = [];
    for (const t of routeTargets(action)) {
      if (!clusters.has(t.cluster)) {
        const status = clusterNotFoundStatus(action);
        found.push({
          flag: 'NC',
          status,
          share: t.share,
          target: t.cluster,
          consequence: `${status} NC (${FLAG_WORDS.NC}) for ${share(t.share)}${on}`,
          detail: missingClusterDetail(t.cluster, clusters, status),
        });
      } else if (empty.has(t.cluster)) {
        found.push({
          flag: 'UH',
          status: 503,
          share: t.share,
          target: t.cluster,
          consequence: `503 UH (${FLAG_WORDS.UH}) for ${share(t.share)}${on}`,
          detail: `Cluster ${t.cluster} has no endpoint: Envoy finds no healthy host and answers 503 with response flag UH.`,
        });
      }
    }
    return found;
  };

  if (haveClusters) {
    for (const rc of routeConfigs) {
      const rcName = str(rc, 'name');
      for (const v of list(rc, 'virtual_hosts')) {
        const vhName = str(v, 'name');
        list(v, 'routes').forEach((r, i) => {
          const action = asObject(field(r, 'route'));
          if (action) for (const f of routeFindings(action, '')) out.push({ table: 'routes', key: `${rcName}/${vhName}/${i}`, ...f });
        });
      }
    }
  }

  const names = new Set(routeConfigs.map((rc) => str(rc, 'name')));
  const section = dump.optionalSection(SECTION.listeners);
  const listeners = [
    ...list(section, 'dynamic_listeners').map((l) => objAt(l, 'active_state', 'listener')),
    ...list(section, 'static_listeners').map((l) => asObject(field(l, 'listener'))),
  ].filter((l): l is JsonObject => l !== undefined);
  for (const l of listeners) {
    const lName = str(l, 'name');
    const regular = list(l, 'filter_chains').length;
    filterChains(l).forEach((chain, i) => {
      const key = `${lName}/${i < regular ? i : 'default'}`;
      for (const f of list(chain, 'filters')) {
        if (str(f, 'name') !== HTTP_CONNECTION_MANAGER) continue;
        const hcm = field(f, 'typed_config');
        // Inline routes (waypoints, some gateways): the chain's row carries their findings.
        const inline = asObject(field(hcm, 'route_config'));
        if (inline && haveClusters) {
          for (const v of list(inline, 'virtual_hosts')) {
            for (const r of list(v, 'routes')) {
              const action = asObject(field(r, 'route'));
              const match = describeMatch(field(r, 'match')) || 'any path';
              if (action)
                for (const x of routeFindings(action, ` on ${str(v, 'name') || 'its virtual host'} ${match}`)) out.push({ table: 'listeners', key, ...x });
            }
          }
        }
        const rds = objAt(hcm, 'rds');
        const rcName = str(rds, 'route_config_name');
        // Without a routes section (a dump of listeners only) nothing can be said of RDS names.
        if (!routeSection || !rds || rcName === '' || names.has(rcName)) continue;
        const fetch = str(objAt(rds, 'config_source'), 'initial_fetch_timeout');
        const waits = fetch !== '' && toNumber(fetch.replace(/s$/, '')) === 0;
        out.push({
          table: 'listeners',
          key,
          flag: 'NR',
          status: 404,
          share: 100,
          target: rcName,
          consequence: `404 NR: route config ${rcName} missing`,
          detail: `The HTTP connection manager takes its routes from RDS route config ${rcName}, which the dump does not have: Envoy finds no route and answers 404 with response flag NR.${waits ? ' Its initial_fetch_timeout is 0s (as Istio sets it), so a listener that has not had the route config yet stays warming and takes no traffic.' : ''}`,
        });
      }
    });
  }
  return out;
}

/** Findings by table and row key. */
export function findingsByRow(findings: readonly TableFinding[]): Record<TableFinding['table'], Map<string, TableFinding[]>> {
  const out = { routes: new Map(), clusters: new Map(), listeners: new Map() } as Record<TableFinding['table'], Map<string, TableFinding[]>>;
  for (const f of findings) {
    const m = out[f.table];
    m.set(f.key, [...(m.get(f.key) ?? []), f]);
  }
  return out;
}
