// `istioctl proxy-config clusters` (istioctl/pkg/writer/envoy/configdump/cluster.go).
import { type ConfigDump, ConfigDumpError, SECTION, asObject, field, list, str, type JsonObject } from './dump.ts';
import { goSortSlice } from './goSort.ts';
import { describeManagement, parseSubsetKey, safelyParseSubsetKey, subsetKeyLess } from './names.ts';
import type { SummaryOptions, Table } from './table.ts';

export interface ClusterFilter {
  /** Substring of the cluster name (`--fqdn`). */
  fqdn?: string;
  /** `|<port>|` in the name (`--port`); 0 = any. */
  port?: number;
  /** Substring of the name (`--subset`). */
  subset?: string;
  /** Substring of the name (`--direction`). */
  direction?: string;
}

export interface ClusterEntry {
  cluster: JsonObject;
  name: string;
  /** Where the dump lists it. */
  source: 'dynamic_active' | 'static';
}

export interface ClusterRow {
  /** The NAME column of `proxy-config all` (empty otherwise). */
  name: string;
  serviceFqdn: string;
  port: string;
  subset: string;
  direction: string;
  type: string;
  destinationRule: string;
  entry: ClusterEntry;
}

/** ClusterFilter.Verify. */
export function clusterMatches(filter: ClusterFilter, name: string): boolean {
  const { fqdn = '', port = 0, subset = '', direction = '' } = filter;
  if (fqdn === '' && port === 0 && subset === '' && direction === '') return true;
  if (fqdn !== '' && !name.includes(fqdn)) return false;
  if (direction !== '' && !name.includes(direction)) return false;
  if (subset !== '' && !name.includes(subset)) return false;
  if (port !== 0 && !name.includes(`|${port}|`)) return false;
  return true;
}

/** Cluster_DiscoveryType names; a cluster with `cluster_type` (custom) reads as STATIC. */
const DISCOVERY_TYPES = ['STATIC', 'STRICT_DNS', 'LOGICAL_DNS', 'EDS', 'ORIGINAL_DST'];

export function clusterType(cluster: JsonObject): string {
  const t = field(cluster, 'type');
  if (typeof t === 'string' && t !== '') return t;
  if (typeof t === 'number') return DISCOVERY_TYPES[t] ?? String(t);
  return 'STATIC';
}

/** Active dynamic clusters then static ones, sorted as istioctl sorts them; throws istioctl's errors. */
export function sortedClusters(dump: ConfigDump): ClusterEntry[] {
  const section = dump.section(SECTION.clusters);
  const out: ClusterEntry[] = [];
  for (const c of list(section, 'dynamic_active_clusters')) {
    const cluster = asObject(field(c, 'cluster'));
    if (cluster) out.push({ cluster, name: str(cluster, 'name'), source: 'dynamic_active' });
  }
  for (const c of list(section, 'static_clusters')) {
    const cluster = asObject(field(c, 'cluster'));
    if (cluster) out.push({ cluster, name: str(cluster, 'name'), source: 'static' });
  }
  if (out.length === 0) throw new ConfigDumpError('no clusters found');
  const keys = new Map(out.map((e) => [e, safelyParseSubsetKey(e.name)]));
  return goSortSlice(out, (a, b) => subsetKeyLess(keys.get(a)!, keys.get(b)!));
}

/** The clusters summary table (PrintClusterSummary). */
export function clusterTable(dump: ConfigDump, filter: ClusterFilter = {}, opts: SummaryOptions = {}): Table<ClusterRow> {
  const entries = sortedClusters(dump);
  const columns = ['SERVICE FQDN', 'PORT', 'SUBSET', 'DIRECTION', 'TYPE', 'DESTINATION RULE'];
  if (opts.includeConfigType) columns.unshift('NAME');
  const rows: ClusterRow[] = [];
  const cells: string[][] = [];
  for (const entry of entries) {
    if (!clusterMatches(filter, entry.name)) continue;
    const type = clusterType(entry.cluster);
    const dr = describeManagement(field(entry.cluster, 'metadata'));
    let row: ClusterRow;
    if (entry.name.split('|').length > 3) {
      const k = parseSubsetKey(entry.name);
      const subset = k.subset === '' ? '-' : k.subset;
      row = { name: '', serviceFqdn: k.hostname, port: k.port.toString(), subset, direction: k.direction, type, destinationRule: dr, entry };
      if (opts.includeConfigType) row.name = `cluster/${entry.name}`;
    } else if (opts.includeConfigType && entry.name.length > 0) {
      // istioctl rewrites the name before printing it twice.
      const n = `cluster/${entry.name}`;
      row = { name: n, serviceFqdn: n, port: '-', subset: '-', direction: '-', type, destinationRule: dr, entry };
    } else {
      row = { name: '', serviceFqdn: entry.name, port: '-', subset: '-', direction: '-', type, destinationRule: dr, entry };
    }
    rows.push(row);
    const c = [row.serviceFqdn, row.port, row.subset, row.direction, row.type, row.destinationRule];
    // An unnamed cluster prints the six columns even in `all` (cluster.go).
    if (opts.includeConfigType && row.name !== '') c.unshift(row.name);
    cells.push(c);
  }
  return { columns, rows, cells, padding: 5 };
}

/** The clusters `-o json|yaml` selects (PrintClusterDump): sorted, filtered. */
export function filteredClusters(dump: ConfigDump, filter: ClusterFilter = {}): ClusterEntry[] {
  return sortedClusters(dump).filter((e) => clusterMatches(filter, e.name));
}
