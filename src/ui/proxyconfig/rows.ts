// The rows of the Proxy config tables: istioctl's columns and cells, plus what we add (where a
// route goes, where a secret comes from, the header and query conditions istioctl's MATCH
// leaves out, and what a row does to requests), each with its JSON and its sources.
import {
  listenerTable,
  waypointListenerTable,
  routeTable,
  clusterTable,
  edsTable,
  secretSummary,
  tableFindings,
  findingsByRow,
  type ConfigDump,
  type TableFinding,
} from '../../core/xds/configdump/index.ts';
import type { ProxySecretInfo, ResolvedProvenance } from '../../core/queries/views.ts';
import type { Provenance, TableTab } from './shared.ts';

export interface RowModel {
  /** Stable across edits, so a selected row stays selected. */
  key: string;
  cells: string[];
  /** Lines shown under a cell (column index → lines), e.g. MATCH's header conditions. */
  extras?: Record<number, string[]>;
  json: unknown;
  sources: ResolvedProvenance[];
  findings: TableFinding[];
}

export interface TableModel {
  columns: string[];
  rows: RowModel[];
  /** Relative column widths (table-layout: fixed). */
  widths: number[];
  /** Findings that have no row of their own in this table (said above it). */
  notes?: string[];
}

/** Where a secret's certificate comes from, in a few words (the row's SOURCE column). */
function secretSource(info: ProxySecretInfo | undefined): string {
  if (!info) return '';
  switch (info.source) {
    case 'istiod':
      return 'issued at run time by istiod (not in the workspace)';
    case 'file':
      return 'file mounted in the proxy (not in the workspace)';
    case 'credential':
      return info.served
        ? `${info.ref?.kind ?? 'Secret'} ${info.ref?.namespace}/${info.ref?.name}`
        : `not served: ${info.ref ? `${info.ref.kind} ${info.ref.namespace}/${info.ref.name}` : info.name}${info.from ? ' unreadable' : ' not in the workspace'}`;
    default:
      return info.note;
  }
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** The ROUTE TO cell: the cluster, the weighted clusters with their weights, or what the route does instead. */
export function routeTo(route: unknown): string {
  const r = obj(route);
  if (!r) return '';
  const action = obj(r.route);
  if (!action) return r.redirect ? 'redirect' : r.directResponse ? `direct response ${text(obj(r.directResponse)?.status)}` : '';
  if (typeof action.cluster === 'string') return action.cluster;
  return arr(obj(action.weightedClusters)?.clusters)
    .map((c) => `${text(obj(c)?.name)} ${text(obj(c)?.weight) || '0'}%`)
    .join(' · ');
}

/** A StringMatcher in words: `= jason`, `starts with /api`, `matches ^v[0-9]$`. */
function stringMatch(m: Obj | undefined): string {
  if (!m) return '';
  const ic = m.ignoreCase === true ? ' (any case)' : '';
  if (m.exact !== undefined) return `= ${text(m.exact)}${ic}`;
  if (m.prefix !== undefined) return `starts with ${text(m.prefix)}${ic}`;
  if (m.suffix !== undefined) return `ends with ${text(m.suffix)}${ic}`;
  if (m.contains !== undefined) return `contains ${text(m.contains)}${ic}`;
  const re = obj(m.safeRegex);
  if (re) return `matches ${text(re.regex)}`;
  return '';
}

/** One HeaderMatcher (v3, with the deprecated direct fields too). */
function headerCondition(h: Obj, what: 'header' | 'query'): string {
  const name = text(h.name);
  const invert = h.invertMatch === true;
  let cond: string;
  if (h.presentMatch !== undefined) return `${what} ${name} ${(h.presentMatch === true) !== invert ? 'present' : 'absent'}`;
  if (obj(h.stringMatch)) cond = stringMatch(obj(h.stringMatch));
  else if (h.exactMatch !== undefined) cond = `= ${text(h.exactMatch)}`;
  else if (h.prefixMatch !== undefined) cond = `starts with ${text(h.prefixMatch)}`;
  else if (h.suffixMatch !== undefined) cond = `ends with ${text(h.suffixMatch)}`;
  else if (h.containsMatch !== undefined) cond = `contains ${text(h.containsMatch)}`;
  else if (obj(h.safeRegexMatch)) cond = `matches ${text(obj(h.safeRegexMatch)!.regex)}`;
  else if (obj(h.rangeMatch)) cond = `in [${text(obj(h.rangeMatch)!.start)}, ${text(obj(h.rangeMatch)!.end)})`;
  else cond = what === 'query' ? 'present' : 'present';
  if (!invert) return `${what} ${name} ${cond}`;
  return cond.startsWith('= ') ? `${what} ${name} ≠ ${cond.slice(2)}` : `${what} ${name} not ${cond}`;
}

/**
 * The conditions istioctl's MATCH column leaves out (describeMatch prints only the path):
 * headers (the method is the `:method` header), query parameters, case-insensitive paths.
 */
export function matchExtras(match: unknown): string[] {
  const m = obj(match);
  if (!m) return [];
  const out: string[] = [];
  for (const h of arr(m.headers)) {
    const o = obj(h);
    if (!o) continue;
    if (o.name === ':method' && obj(o.stringMatch)?.exact !== undefined && o.invertMatch !== true) out.push(`method ${text(obj(o.stringMatch)!.exact)}`);
    else out.push(headerCondition(o, 'header'));
  }
  for (const q of arr(m.queryParameters)) {
    const o = obj(q);
    if (o) out.push(headerCondition(o, 'query'));
  }
  if (m.caseSensitive === false) out.push('path in any case');
  if (obj(m.grpc)) out.push('gRPC requests only');
  return out;
}

/** Unique keys: a second row with the same key gets `#2`, and so on. */
function uniqueKeys(rows: RowModel[]): RowModel[] {
  const seen = new Map<string, number>();
  for (const r of rows) {
    const n = (seen.get(r.key) ?? 0) + 1;
    seen.set(r.key, n);
    if (n > 1) r.key = `${r.key}#${n}`;
  }
  return rows;
}

const widthsOf = (columns: string[], wide: readonly string[]): number[] => columns.map((c) => (wide.includes(c) ? 2 : 1));

/** The model of one table of a dump; throws istioctl's error when the dump lacks the section. */
export function tableModel(tab: TableTab, dump: ConfigDump, prov: Provenance, secrets: readonly ProxySecretInfo[] = [], waypoint = false): TableModel {
  const refs = (table: keyof Provenance, key: string) => prov[table][key] ?? [];
  const findings = findingsByRow(tableFindings(dump));
  const found = (table: TableFinding['table'], key: string) => findings[table].get(key) ?? [];
  switch (tab) {
    case 'listeners': {
      if (waypoint) {
        // `istioctl proxy-config listeners --waypoint`: internal listeners, chains and how main_internal's matcher reaches them.
        const t = waypointListenerTable(dump);
        const rows = t.rows.map((r, i) => {
          const chains = Array.isArray(r.entry.listener.filterChains) ? (r.entry.listener.filterChains as unknown[]) : [];
          const idx = chains.indexOf(r.chainConfig);
          const chainKey = `${r.entry.name}/${idx === -1 ? 'default' : idx}`;
          return {
            key: chainKey,
            cells: t.cells[i]!,
            json: r.chainConfig,
            sources: [...refs('filterChains', chainKey), ...refs('listeners', r.entry.name)],
            findings: found('listeners', chainKey),
          };
        });
        return { columns: t.columns, rows: uniqueKeys(rows), widths: widthsOf(t.columns, ['NAME', 'MATCH', 'DESTINATION']) };
      }
      const t = listenerTable(dump);
      const rows = t.rows.map((r, i) => {
        const chains = Array.isArray(r.entry.listener.filterChains) ? (r.entry.listener.filterChains as unknown[]) : [];
        const idx = r.chain ? chains.indexOf(r.chain) : -2;
        const chainKey = `${r.entry.name}/${idx === -1 ? 'default' : idx}`;
        return {
          key: chainKey,
          cells: t.cells[i]!,
          json: r.chain ?? r.entry.listener,
          sources: [...refs('filterChains', chainKey), ...refs('listeners', r.entry.name)],
          findings: found('listeners', chainKey),
        };
      });
      return { columns: t.columns, rows: uniqueKeys(rows), widths: widthsOf(t.columns, ['ADDRESSES', 'MATCH', 'DESTINATION']) };
    }
    case 'routes': {
      const t = routeTable(dump);
      const columns = [...t.columns, 'ROUTE TO'];
      const rows = t.rows.map((r, i) => {
        const vh = r.virtualHost;
        const routes = vh && Array.isArray(vh.routes) ? (vh.routes as unknown[]) : [];
        const idx = r.route ? routes.indexOf(r.route) : -1;
        const vhKey = `${r.entry.name}/${String(vh?.name ?? '')}`;
        const routeKey = `${vhKey}/${idx >= 0 ? idx : '-'}`;
        const sources = idx >= 0 ? [...refs('routes', routeKey), ...refs('virtualHosts', vhKey)] : refs('virtualHosts', vhKey);
        const extras = matchExtras(r.route?.match);
        return {
          key: routeKey,
          cells: [...t.cells[i]!, routeTo(r.route)],
          ...(extras.length > 0 ? { extras: { 3: extras } } : {}),
          json: r.route ?? vh ?? r.entry.routeConfig,
          sources,
          findings: found('routes', routeKey),
        };
      });
      return { columns, rows: uniqueKeys(rows), widths: [1, 2, 1.6, 1.4, 1.2, 2.6] };
    }
    case 'clusters': {
      const t = clusterTable(dump);
      const rows = t.rows.map((r, i) => ({
        key: r.entry.name,
        cells: t.cells[i]!,
        json: r.entry.cluster,
        sources: refs('clusters', r.entry.name),
        findings: found('clusters', r.entry.name),
      }));
      return { columns: t.columns, rows: uniqueKeys(rows), widths: widthsOf(t.columns, ['SERVICE FQDN', 'DESTINATION RULE']) };
    }
    case 'endpoints': {
      const t = edsTable(dump);
      const rows = t.rows.map((r, i) => ({
        key: `${r.entry.clusterName}/${r.name}`,
        cells: t.cells[i]!,
        json: r.lbEndpoint,
        sources: [...refs('endpoints', r.entry.clusterName), ...refs('clusters', r.entry.clusterName)],
        findings: [],
      }));
      // istioctl lists no row for a cluster without endpoints: say which EDS clusters have none.
      const empty = [...findings.clusters.values()]
        .flat()
        .filter((f) => f.flag === 'UH')
        .map((f) => f.target);
      const notes =
        empty.length > 0
          ? [
              `${empty.length} EDS cluster${empty.length === 1 ? ' has' : 's have'} no endpoint, so requests to ${empty.length === 1 ? 'it' : 'them'} get 503 UH (no healthy upstream): ${empty.join(', ')}`,
            ]
          : [];
      return { columns: t.columns, rows: uniqueKeys(rows), widths: widthsOf(t.columns, ['CLUSTER']), notes };
    }
    case 'secrets': {
      const summary = secretSummary(dump, { now: new Date() });
      const t = summary.table;
      if (!t) return { columns: [], rows: [], widths: [] };
      const byName = new Map(secrets.map((x) => [x.name, x]));
      const columns = [...t.columns, 'SOURCE'];
      const rows = t.rows.map((r, i) => {
        const info = byName.get(r.name);
        const cells = [...t.cells[i]!];
        // A secret the proxy gets at run time has no certificate in the generated config:
        // istioctl would print VALID CERT false, which reads as a broken certificate.
        const valid = t.columns.indexOf('VALID CERT');
        if (r.data === '' && valid >= 0 && (info?.source === 'istiod' || info?.source === 'file' || info?.source === 'external'))
          cells[valid] =
            info.source === 'istiod' ? 'issued at run time' : info.source === 'file' ? 'read from a file at run time' : 'from the SDS provider at run time';
        return {
          key: r.name,
          cells: [...cells, secretSource(info)],
          json: info ? { ...r.secret, source: info.note } : r.secret,
          sources: info?.from ? [info.from] : [],
          findings: [],
        };
      });
      return { columns, rows: uniqueKeys(rows), widths: widthsOf(columns, ['RESOURCE NAME', 'SERIAL NUMBER', 'SOURCE']) };
    }
  }
}

/** The text a row filter looks in: every cell and the lines under them. */
export function rowText(r: RowModel): string {
  return [...r.cells, ...Object.values(r.extras ?? {}).flat(), ...r.findings.map((f) => f.consequence)].join('\n').toLowerCase();
}
