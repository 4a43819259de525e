// Endpoints two ways, as istioctl has them:
// - `proxy-config eds` and the endpoints part of `proxy-config all`: the EDS section of a config
//   dump taken with `?include_eds` (istioctl/pkg/writer/envoy/configdump/endpoint.go);
// - `proxy-config endpoints --file`: Envoy's `/clusters?format=json`
//   (istioctl/pkg/writer/envoy/clusters/clusters.go).
import { type ConfigDump, SECTION, asObject, field, jsonName, list, num, objAt, str, type JsonObject, type JsonValue } from './dump.ts';
import { goSortSlice } from './goSort.ts';
import { safelyParseSubsetKey, subsetKeyLess } from './names.ts';
import { goLess, type SummaryOptions, type Table } from './table.ts';

export interface EndpointFilter {
  /** `ip:port` (or pipe path, `envoy://…`), case-insensitive (`--address`). */
  address?: string;
  /** Socket port (`--port`); 0 = any. */
  port?: number;
  /** Cluster name, case-insensitive (`--cluster`). */
  cluster?: string;
  /** Health status name, case-insensitive (`--status`). */
  status?: string;
}

/** core.v3.HealthStatus names by number. */
export const HEALTH_STATUS = ['UNKNOWN', 'HEALTHY', 'UNHEALTHY', 'DRAINING', 'TIMEOUT', 'DEGRADED'];

function equalFold(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase() || a.toUpperCase() === b.toUpperCase();
}

/** An enum field's name ('UNKNOWN' style default for 0/absent, the number for unknown values). */
function enumName(v: JsonValue | undefined, names: readonly string[]): string {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number') return names[v] ?? String(v);
  return names[0]!;
}

/** One address as istioctl's endpoint tables show it. */
function describeAddress(addr: unknown): string {
  const sock = objAt(addr, 'socket_address');
  if (sock) return `${str(sock, 'address')}:${num(sock, 'port_value')}`;
  const pipe = objAt(addr, 'pipe');
  if (pipe) return str(pipe, 'path');
  const internal = objAt(addr, 'envoy_internal_address');
  if (internal && field(internal, 'server_listener_name') !== undefined) {
    return `envoy://${str(internal, 'server_listener_name')}/${str(internal, 'endpoint_id')}`;
  }
  return 'unknown';
}

/** retrieveEndpointAddresses: the endpoint's address, then its additional addresses. */
export function lbEndpointAddresses(ep: unknown): string[] {
  const endpoint = objAt(ep, 'endpoint');
  return [describeAddress(field(endpoint, 'address')), ...list(endpoint, 'additional_addresses').map((a) => describeAddress(field(a, 'address')))];
}

export function lbEndpointStatus(ep: unknown): string {
  return enumName(field(ep, 'health_status'), HEALTH_STATUS);
}

/** EndpointFilter.Verify for an LbEndpoint of `cluster`. */
export function lbEndpointMatches(filter: EndpointFilter, ep: unknown, cluster: string): boolean {
  const { address = '', port = 0, cluster: c = '', status = '' } = filter;
  if (address === '' && port === 0 && c === '' && status === '') return true;
  if (address !== '' && !lbEndpointAddresses(ep).some((a) => equalFold(a, address))) return false;
  if (port !== 0 && num(objAt(ep, 'endpoint', 'address', 'socket_address'), 'port_value') !== port) return false;
  if (c !== '' && !equalFold(cluster, c)) return false;
  if (status !== '' && !equalFold(lbEndpointStatus(ep), status)) return false;
  return true;
}

/** LocalityToString: region, then /zone, then /subzone. */
export function localityString(locality: unknown): string {
  const l = asObject(locality);
  if (!l) return '';
  let resp = str(l, 'region');
  const zone = str(l, 'zone');
  if (zone === '') return resp;
  resp += `/${zone}`;
  const sub = str(l, 'sub_zone');
  if (sub === '') return resp;
  return `${resp}/${sub}`;
}

export interface ClaEntry {
  /** The ClusterLoadAssignment with its lb endpoints filtered (a copy when anything was dropped). */
  cla: JsonObject;
  clusterName: string;
  source: 'dynamic' | 'static';
}

/** A copy of `o` with the field `protoName` (under whichever name it has) set to `value`. */
function withField(o: JsonObject, protoName: string, value: JsonValue): JsonObject {
  const key = Object.hasOwn(o, protoName) ? protoName : jsonName(protoName);
  return { ...o, [key]: value };
}

function filterCla(cla: JsonObject, filter: EndpointFilter): [JsonObject, number] {
  const clusterName = str(cla, 'cluster_name');
  let count = 0;
  const localities = list(cla, 'endpoints').map((l) => {
    const llb = asObject(l) ?? {};
    const eps = list(llb, 'lb_endpoints');
    const kept = eps.filter((ep) => lbEndpointMatches(filter, ep, clusterName));
    count += kept.length;
    return kept.length === eps.length ? llb : withField(llb, 'lb_endpoints', kept);
  });
  return [field(cla, 'endpoints') === undefined ? cla : withField(cla, 'endpoints', localities), count];
}

/** The CLAs of the EDS section with at least one endpoint left by the filter, sorted like clusters. */
export function sortedEndpointConfigs(dump: ConfigDump, filter: EndpointFilter = {}): ClaEntry[] {
  // GetEndpointsConfigDump: no EDS section is no endpoints, not an error.
  const section = dump.optionalSection(SECTION.endpoints);
  if (!section) return [];
  const out: ClaEntry[] = [];
  const take = (items: JsonValue[], source: ClaEntry['source']) => {
    for (const e of items) {
      const cla = asObject(field(e, 'endpoint_config'));
      if (!cla) continue;
      const [filtered, count] = filterCla(cla, filter);
      if (count !== 0) out.push({ cla: filtered, clusterName: str(cla, 'cluster_name'), source });
    }
  };
  take(list(section, 'dynamic_endpoint_configs'), 'dynamic');
  take(list(section, 'static_endpoint_configs'), 'static');
  const keys = new Map(out.map((e) => [e, safelyParseSubsetKey(e.clusterName)]));
  return goSortSlice(out, (a, b) => subsetKeyLess(keys.get(a)!, keys.get(b)!));
}

export interface EdsRow {
  /** NAME: the endpoint's addresses (with `endpoint/` in `proxy-config all`). */
  name: string;
  status: string;
  locality: string;
  cluster: string;
  entry: ClaEntry;
  lbEndpoint: JsonObject;
}

/** The EDS summary table (PrintEndpointsSummary). */
export function edsTable(dump: ConfigDump, filter: EndpointFilter = {}, opts: SummaryOptions = {}): Table<EdsRow> {
  const rows: EdsRow[] = [];
  const cells: string[][] = [];
  for (const entry of sortedEndpointConfigs(dump, filter)) {
    for (const l of list(entry.cla, 'endpoints')) {
      const locality = localityString(field(l, 'locality'));
      for (const ep of list(l, 'lb_endpoints')) {
        let name = lbEndpointAddresses(ep).join(',');
        if (opts.includeConfigType) name = `endpoint/${name}`;
        const row: EdsRow = { name, status: lbEndpointStatus(ep), locality, cluster: entry.clusterName, entry, lbEndpoint: asObject(ep) ?? {} };
        rows.push(row);
        cells.push([row.name, row.status, row.locality, row.cluster]);
      }
    }
  }
  return { columns: ['NAME', 'STATUS', 'LOCALITY', 'CLUSTER'], rows, cells, padding: 5 };
}

// ---- /clusters?format=json ------------------------------------------------------------------

/** Whether a parsed document is Envoy's `/clusters?format=json` rather than a config dump. */
export function isClustersStatus(value: unknown): boolean {
  const o = asObject(value);
  return !!o && field(o, 'cluster_statuses') !== undefined && field(o, 'configs') === undefined;
}

export interface HostRow {
  endpoint: string;
  status: string;
  outlierCheck: 'OK' | 'FAILED';
  cluster: string;
  address: string;
  port: number;
  clusterStatus: JsonObject;
  hostStatus: JsonObject;
}

function hostAddress(host: unknown): string {
  const addr = field(host, 'address');
  const sock = objAt(addr, 'socket_address');
  if (sock) return str(sock, 'address');
  const pipe = objAt(addr, 'pipe');
  if (pipe) return `unix://${str(pipe, 'path')}`;
  const internal = objAt(addr, 'envoy_internal_address');
  if (internal && field(internal, 'server_listener_name') !== undefined) {
    return `envoy://${str(internal, 'server_listener_name')}/${str(internal, 'endpoint_id')}`;
  }
  return 'unknown';
}

function hostPort(host: unknown): number {
  return num(objAt(host, 'address', 'socket_address'), 'port_value');
}

function hostStatusName(host: unknown): string {
  return enumName(field(field(host, 'health_status') ?? {}, 'eds_health_status'), HEALTH_STATUS);
}

function hostMatches(filter: EndpointFilter, host: unknown, cluster: string): boolean {
  const { address = '', port = 0, cluster: c = '', status = '' } = filter;
  if (address === '' && port === 0 && c === '' && status === '') return true;
  if (address !== '' && !equalFold(hostAddress(host), address)) return false;
  if (port !== 0 && hostPort(host) !== port) return false;
  if (c !== '' && !equalFold(cluster, c)) return false;
  if (status !== '' && !equalFold(hostStatusName(host), status)) return false;
  return true;
}

/** `proxy-config endpoints` from `/clusters?format=json` (clusters.go PrintEndpointsSummary). */
export function hostTable(clusters: unknown, filter: EndpointFilter = {}): Table<HostRow> {
  const rows: HostRow[] = [];
  for (const cs of list(clusters, 'cluster_statuses')) {
    const cluster = str(cs, 'name');
    for (const h of list(cs, 'host_statuses')) {
      if (!hostMatches(filter, h, cluster)) continue;
      const failed = field(field(h, 'health_status') ?? {}, 'failed_outlier_check') === true;
      const address = hostAddress(h);
      const port = hostPort(h);
      rows.push({
        endpoint: port !== 0 ? `${address}:${port}` : address,
        status: hostStatusName(h),
        outlierCheck: failed ? 'FAILED' : 'OK',
        cluster,
        address,
        port,
        clusterStatus: asObject(cs) ?? {},
        hostStatus: asObject(h) ?? {},
      });
    }
  }
  goSortSlice(rows, (a, b) => {
    if (a.address === b.address) {
      if (a.port === b.port) return goLess(a.cluster, b.cluster);
      return a.port < b.port;
    }
    return goLess(a.address, b.address);
  });
  return {
    columns: ['ENDPOINT', 'STATUS', 'OUTLIER CHECK', 'CLUSTER'],
    rows,
    cells: rows.map((r) => [r.endpoint, r.status, r.outlierCheck, r.cluster]),
    padding: 5,
  };
}

/** The cluster statuses `proxy-config endpoints -o json|yaml` prints: those with a matching host. */
export function filteredClusterStatuses(clusters: unknown, filter: EndpointFilter = {}): JsonObject[] {
  return list(clusters, 'cluster_statuses')
    .filter((cs) => list(cs, 'host_statuses').some((h) => hostMatches(filter, h, str(cs, 'name'))))
    .map((cs) => asObject(cs) ?? {});
}

export type { SummaryOptions };
