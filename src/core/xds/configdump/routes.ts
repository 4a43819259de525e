// `istioctl proxy-config routes` (istioctl/pkg/writer/envoy/configdump/route.go).
import { type ConfigDump, SECTION, asObject, field, list, str, ConfigDumpError, type JsonObject } from './dump.ts';
import { goSortSlice } from './goSort.ts';
import { describeManagement } from './names.ts';
import { goAtoi, type SummaryOptions, type Table } from './table.ts';

export const PASSTHROUGH_CLUSTER = 'PassthroughCluster';

export interface RouteFilter {
  /** Exact route configuration name (`--name`). */
  name?: string;
  /** One row per route (the default) rather than a virtual host count per configuration. */
  verbose?: boolean;
}

export interface RouteConfigEntry {
  routeConfig: JsonObject;
  name: string;
  source: 'dynamic' | 'static';
}

export interface RouteRow {
  /** Printed NAME (with `route/` in `proxy-config all`). */
  name: string;
  /** Verbose rows: */
  vhostName?: string;
  domains?: string;
  match?: string;
  virtualService?: string;
  /** Non-verbose rows: number of virtual hosts. */
  virtualHosts?: number;
  entry: RouteConfigEntry;
  virtualHost?: JsonObject;
  /** The route of a verbose row; absent for the `/*  404` row of a vhost without routes. */
  route?: JsonObject;
}

/** describeMatch: the path part of a route match (headers are not shown). */
export function describeMatch(match: unknown): string {
  const conds: string[] = [];
  const prefix = str(match, 'prefix');
  if (prefix !== '') conds.push(`${prefix}*`);
  const psp = str(match, 'path_separated_prefix');
  if (psp !== '') conds.push(`PathPrefix:${psp}`);
  const path = str(match, 'path');
  if (path !== '') conds.push(path);
  const re = asObject(field(match, 'safe_regex'));
  if (re) conds.push(`regex ${str(re, 'regex')}`);
  return conds.join(' ');
}

function unexpandDomains(domains: string[]): string[] {
  const unique = new Set(domains);
  const remove = new Set<string>();
  for (const h of domains) {
    const full = h.endsWith('.svc.cluster.local') ? h.slice(0, -'.svc.cluster.local'.length) : h;
    if (unique.has(full) && full !== h) remove.add(h);
    const partial = h.endsWith('.svc') ? h.slice(0, -'.svc'.length) : h;
    if (unique.has(partial) && partial !== h) remove.add(h);
  }
  return domains.filter((h) => !remove.has(h));
}

/** describeRouteDomains: the DOMAINS cell (ports and long forms dropped, at most two shown). */
export function describeRouteDomains(domains: string[]): string {
  if (domains.length === 0) return '';
  if (domains.length === 1) return domains[0]!;
  const max = 2;
  let withoutPort: string[] = [];
  for (const d of domains) {
    if (!d.includes(':')) withoutPort.push(d);
    else if (d.split(':').length - 1 > 2 && d.endsWith(']')) withoutPort.push(d);
  }
  withoutPort = unexpandDomains(withoutPort);
  if (withoutPort.length > max) return `${withoutPort.slice(0, max).join(', ')} + ${withoutPort.length - max} more...`;
  return withoutPort.join(', ');
}

/** isPassthrough: a route to PassthroughCluster (the `allow_any` route) is not printed. */
function isPassthrough(route: unknown): boolean {
  const action = asObject(field(route, 'route'));
  return !!action && field(action, 'cluster') === PASSTHROUGH_CLUSTER;
}

/** Dynamic route configurations then static ones, in istioctl's (numeric-name) order; throws istioctl's errors. */
export function sortedRouteConfigs(dump: ConfigDump): RouteConfigEntry[] {
  const section = dump.section(SECTION.routes);
  const out: RouteConfigEntry[] = [];
  for (const r of list(section, 'dynamic_route_configs')) {
    const rc = asObject(field(r, 'route_config'));
    if (rc) out.push({ routeConfig: rc, name: str(rc, 'name'), source: 'dynamic' });
  }
  for (const r of list(section, 'static_route_configs')) {
    const rc = asObject(field(r, 'route_config'));
    if (rc) out.push({ routeConfig: rc, name: str(rc, 'name'), source: 'static' });
  }
  if (out.length === 0) throw new ConfigDumpError('no routes found');
  // Go's comparator: numeric names by value; false whenever either name is not a number
  // (not a strict weak order, so the exact sort algorithm decides the result).
  const numeric = new Map(out.map((e) => [e, goAtoi(e.name)]));
  return goSortSlice(out, (a, b) => {
    const x = numeric.get(a);
    const y = numeric.get(b);
    return x !== undefined && y !== undefined && x < y;
  });
}

function strings(v: unknown[]): string[] {
  return v.map((x) => (typeof x === 'string' ? x : ''));
}

/** The routes summary table (PrintRouteSummary). */
export function routeTable(dump: ConfigDump, filter: RouteFilter = {}, opts: SummaryOptions = {}): Table<RouteRow> {
  const verbose = filter.verbose ?? true;
  const columns = verbose ? ['NAME', 'VHOST NAME', 'DOMAINS', 'MATCH', 'VIRTUAL SERVICE'] : ['NAME', 'VIRTUAL HOSTS'];
  const rows: RouteRow[] = [];
  const cells: string[][] = [];
  for (const entry of sortedRouteConfigs(dump)) {
    if (filter.name && filter.name !== entry.name) continue;
    const name = opts.includeConfigType ? `route/${entry.name}` : entry.name;
    const vhosts = list(entry.routeConfig, 'virtual_hosts');
    if (!verbose) {
      rows.push({ name, virtualHosts: vhosts.length, entry });
      cells.push([name, String(vhosts.length)]);
      continue;
    }
    for (const v of vhosts) {
      const vh = asObject(v) ?? {};
      const vhostName = str(vh, 'name');
      const domains = describeRouteDomains(strings(list(vh, 'domains')));
      const routes = list(vh, 'routes');
      for (const r of routes) {
        if (isPassthrough(r)) continue;
        const route = asObject(r) ?? {};
        const match = describeMatch(field(route, 'match'));
        const vs = describeManagement(field(route, 'metadata'));
        rows.push({ name, vhostName, domains, match, virtualService: vs, entry, virtualHost: vh, route });
        cells.push([name, vhostName, domains, match, vs]);
      }
      if (routes.length === 0) {
        rows.push({ name, vhostName, domains, match: '/*', virtualService: '404', entry, virtualHost: vh });
        cells.push([name, vhostName, domains, '/*', '404']);
      }
    }
  }
  return { columns, rows, cells, padding: 5 };
}

/** The route configurations `-o json|yaml` selects (PrintRouteDump). */
export function filteredRouteConfigs(dump: ConfigDump, filter: RouteFilter = {}): RouteConfigEntry[] {
  return sortedRouteConfigs(dump).filter((e) => !filter.name || filter.name === e.name);
}
