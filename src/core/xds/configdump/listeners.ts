// `istioctl proxy-config listeners` (istioctl/pkg/writer/envoy/configdump/listener.go).
import {
  type ConfigDump,
  ConfigDumpError,
  SECTION,
  asObject,
  field,
  list,
  num,
  objAt,
  str,
  typeUrlOf,
  wrapped,
  type JsonObject,
  type JsonValue,
} from './dump.ts';
import { goSortSlice } from './goSort.ts';
import { describeMatch } from './routes.ts';
import { goLess, type SummaryOptions, type Table } from './table.ts';

export const HTTP_CONNECTION_MANAGER = 'envoy.filters.network.http_connection_manager';
export const TCP_PROXY = 'envoy.filters.network.tcp_proxy';
const BLACKHOLE = 'BlackHoleCluster';

export interface ListenerFilter {
  /** Listener address, case-insensitive (`--address`). */
  address?: string;
  /** Socket port (`--port`); 0 = any. */
  port?: number;
  /** HTTP, TCP, HTTP+TCP or UNKNOWN, case-insensitive (`--type`). */
  type?: string;
  /** MATCH/DESTINATION rows per filter chain (the default) rather than one TYPE row per listener. */
  verbose?: boolean;
}

export interface ListenerEntry {
  listener: JsonObject;
  name: string;
  source: 'dynamic_active' | 'static';
}

export interface ListenerRow {
  /** NAME column of `proxy-config all` (`listener/<name>`), else ''. */
  name: string;
  addresses: string;
  port: number;
  /** Verbose rows: the filter chain match and destination. */
  match?: string;
  destination?: string;
  /** Non-verbose rows: HTTP, TCP, HTTP+TCP or UNKNOWN. */
  type?: string;
  entry: ListenerEntry;
  /** The filter chain of a verbose row (the default chain comes last). */
  chain?: JsonObject;
}

function equalFold(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase() || a.toUpperCase() === b.toUpperCase();
}

/** Filter chains, then the default chain. */
export function filterChains(l: JsonObject): JsonObject[] {
  const out = list(l, 'filter_chains').map((c) => asObject(c) ?? {});
  const def = asObject(field(l, 'default_filter_chain'));
  if (def) out.push(def);
  return out;
}

/** Whether the serialized typed config would contain `s` (string values, map keys, nested type URLs). */
function anyContains(any: JsonValue | undefined, s: string): boolean {
  const stack: JsonValue[] = [];
  const top = asObject(any);
  if (!top) return false;
  for (const [k, v] of Object.entries(top)) {
    if (k !== '@type') stack.push(v);
    if (k.includes(s)) return true;
  }
  while (stack.length) {
    const v = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes(s)) return true;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes(s)) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

/** retrieveListenerType: HTTP, TCP, HTTP+TCP or UNKNOWN (BlackHole TCP proxies not counted). */
export function listenerType(l: JsonObject): string {
  let nHTTP = 0;
  let nTCP = 0;
  for (const chain of filterChains(l)) {
    for (const f of list(chain, 'filters')) {
      const name = str(f, 'name');
      if (name === HTTP_CONNECTION_MANAGER) nHTTP++;
      else if (name === TCP_PROXY && !anyContains(field(f, 'typed_config'), BLACKHOLE)) nTCP++;
    }
  }
  if (nHTTP > 0) return nTCP === 0 ? 'HTTP' : 'HTTP+TCP';
  return nTCP > 0 ? 'TCP' : 'UNKNOWN';
}

/** retrieveListenerAddress: socket address, or pipe path, else ''. */
export function listenerAddress(l: JsonObject): string {
  const sock = objAt(l, 'address', 'socket_address');
  if (sock) return str(sock, 'address');
  const pipe = objAt(l, 'address', 'pipe');
  if (pipe) return str(pipe, 'path');
  return '';
}

export function listenerAdditionalAddresses(l: JsonObject): string[] {
  return list(l, 'additional_addresses').map((a) => str(objAt(a, 'address', 'socket_address'), 'address'));
}

export function listenerPort(l: JsonObject): number {
  return num(objAt(l, 'address', 'socket_address'), 'port_value');
}

/** ListenerFilter.Verify. */
export function listenerMatches(filter: ListenerFilter, l: JsonObject): boolean {
  const { address = '', port = 0, type = '' } = filter;
  if (address === '' && port === 0 && type === '') return true;
  if (address !== '') {
    const addresses = [...listenerAdditionalAddresses(l), listenerAddress(l)];
    if (!addresses.some((a) => equalFold(a, address))) return false;
  }
  if (port !== 0 && listenerPort(l) !== port) return false;
  if (type !== '' && !equalFold(listenerType(l), type)) return false;
  return true;
}

const PROTOCOL_DESCRIPTIONS: [string, string[]][] = [
  ['App: HTTP TLS', ['http/1.0', 'http/1.1', 'h2c', 'istio-http/1.0', 'istio-http/1.1', 'istio-h2']],
  ['App: Istio HTTP Plain', ['istio', 'istio-http/1.0', 'istio-http/1.1', 'istio-h2']],
  ['App: TCP TLS', ['istio-peer-exchange', 'istio']],
  ['App: HTTP', ['http/1.0', 'http/1.1', 'h2c']],
];

function strings(v: JsonValue[]): string[] {
  return v.map((x) => (typeof x === 'string' ? x : ''));
}

/** getMatches: how a filter chain is selected (SNI, transport, ALPN, destination). */
export function describeFilterChainMatch(match: unknown): string {
  const descrs: string[] = [];
  const serverNames = strings(list(match, 'server_names'));
  if (serverNames.length > 0) descrs.push(`SNI: ${serverNames.join(',')}`);
  const transport = str(match, 'transport_protocol');
  if (transport.length > 0) descrs.push(`Trans: ${transport}`);
  const alpn = strings(list(match, 'application_protocols'));
  if (alpn.length > 0) {
    const known = PROTOCOL_DESCRIPTIONS.find(([, p]) => p.length === alpn.length && p.every((x, i) => x === alpn[i]));
    descrs.push(known ? known[0] : `App: ${alpn.join(',')}`);
  }
  const destPort = wrapped(match, 'destination_port');
  const port = destPort === undefined ? '' : `:${destPort}`;
  const ranges = list(match, 'prefix_ranges');
  if (ranges.length > 0) {
    const pf = ranges.map((r) => `${str(r, 'address_prefix')}/${wrapped(r, 'prefix_len') ?? 0}`);
    descrs.push(`Addr: ${pf.join(',')}${port}`);
  } else if (port !== '') {
    descrs.push(`Addr: *${port}`);
  }
  return descrs.length === 0 ? 'ALL' : descrs.join('; ');
}

function clusterOfRoute(route: unknown): string | undefined {
  const action = asObject(field(route, 'route'));
  if (!action) return undefined;
  const c = field(action, 'cluster');
  return typeof c === 'string' ? c : undefined;
}

/** getMatchAllCluster: a single `*` vhost with one `/` prefix route to a cluster. */
function matchAllCluster(rc: JsonObject): string {
  const vhosts = list(rc, 'virtual_hosts');
  if (vhosts.length !== 1) return '';
  const vh = vhosts[0];
  const domains = list(vh, 'domains');
  if (domains.length !== 1 || domains[0] !== '*') return '';
  const routes = list(vh, 'routes');
  if (routes.length !== 1) return '';
  if (str(field(routes[0], 'match'), 'prefix') !== '/') return '';
  const cluster = clusterOfRoute(routes[0]);
  if (cluster === undefined) return '';
  return cluster.includes('Cluster') ? cluster : `Cluster: ${cluster}`;
}

function describeDomains(vh: unknown): string {
  const domains = strings(list(vh, 'domains'));
  if (domains.length === 1 && domains[0] === '*') return '';
  return domains.join('/');
}

/** describeRouteConfig: an inline route configuration in a DESTINATION cell. */
export function describeRouteConfig(rc: JsonObject): string {
  const cluster = matchAllCluster(rc);
  if (cluster !== '') return cluster;
  const vhosts = list(rc, 'virtual_hosts').map((vh) => {
    const routes = list(vh, 'routes').map((r) => describeMatch(field(r, 'match')));
    const d = describeDomains(vh);
    return d === '' ? routes.join(', ') : `${d} ${routes.join(', ')}`;
  });
  return `Inline Route: ${vhosts.join('; ')}`;
}

/** getFilterType: where a filter chain sends traffic. */
export function describeFilters(filters: JsonValue[]): string {
  for (const f of filters) {
    const name = str(f, 'name');
    const tc = field(f, 'typed_config');
    if (name === HTTP_CONNECTION_MANAGER) {
      const rc = asObject(field(tc, 'route_config'));
      if (rc) return describeRouteConfig(rc);
      const rds = str(objAt(tc, 'rds'), 'route_config_name');
      if (rds !== '') return `Route: ${rds}`;
      return 'HTTP';
    }
    if (name === TCP_PROXY && !anyContains(tc, BLACKHOLE)) {
      const cluster = str(tc, 'cluster');
      return cluster.includes('Cluster') ? cluster : `Cluster: ${cluster}`;
    }
  }
  return 'Non-HTTP/Non-TCP';
}

/** Active dynamic listeners then static ones, in dump order; throws istioctl's errors. */
export function listenerEntries(dump: ConfigDump): ListenerEntry[] {
  let section: JsonObject;
  try {
    section = dump.section(SECTION.listeners);
  } catch (e) {
    throw new ConfigDumpError(`listener dump: ${(e as Error).message}`);
  }
  const out: ListenerEntry[] = [];
  for (const l of list(section, 'dynamic_listeners')) {
    const listener = objAt(l, 'active_state', 'listener');
    if (listener) out.push({ listener, name: str(listener, 'name'), source: 'dynamic_active' });
  }
  for (const l of list(section, 'static_listeners')) {
    const listener = asObject(field(l, 'listener'));
    if (listener) out.push({ listener, name: str(listener, 'name'), source: 'static' });
  }
  if (out.length === 0) throw new ConfigDumpError('no listeners found');
  return out;
}

function sortListeners(entries: ListenerEntry[]): ListenerEntry[] {
  const key = new Map(entries.map((e) => [e, { port: listenerPort(e.listener), addr: listenerAddress(e.listener), type: listenerType(e.listener) }]));
  return goSortSlice(entries, (a, b) => {
    const x = key.get(a)!;
    const y = key.get(b)!;
    if (x.port !== y.port) return x.port < y.port;
    if (x.addr !== y.addr) return goLess(x.addr, y.addr);
    return goLess(x.type, y.type);
  });
}

/** The listeners summary table (PrintListenerSummary). */
export function listenerTable(dump: ConfigDump, filter: ListenerFilter = {}, opts: SummaryOptions = {}): Table<ListenerRow> {
  const verbose = filter.verbose ?? true;
  const entries = sortListeners(listenerEntries(dump).filter((e) => listenerMatches(filter, e.listener)));
  const columns = ['ADDRESSES', 'PORT'];
  if (opts.includeConfigType) columns.unshift('NAME');
  columns.push(...(verbose ? ['MATCH', 'DESTINATION'] : ['TYPE']));
  const rows: ListenerRow[] = [];
  const cells: string[][] = [];
  for (const entry of entries) {
    const l = entry.listener;
    const addresses = [listenerAddress(l), ...listenerAdditionalAddresses(l)].join(',');
    const port = listenerPort(l);
    const name = opts.includeConfigType ? `listener/${entry.name}` : '';
    const prefix = opts.includeConfigType ? [name] : [];
    if (verbose) {
      const matches = filterChains(l).map((chain) => ({
        chain,
        destination: describeFilters(list(chain, 'filters')),
        match: describeFilterChainMatch(field(chain, 'filter_chain_match')),
      }));
      goSortSlice(matches, (a, b) => goLess(b.destination, a.destination));
      for (const m of matches) {
        rows.push({ name, addresses, port, match: m.match, destination: m.destination, entry, chain: m.chain });
        cells.push([...prefix, addresses, String(port), m.match, m.destination]);
      }
    } else {
      const type = listenerType(l);
      rows.push({ name, addresses, port, type, entry });
      cells.push([...prefix, addresses, String(port), type]);
    }
  }
  return { columns, rows, cells, padding: 1 };
}

/** The listeners `-o json|yaml` selects (PrintListenerDump): dump order, filtered. */
export function filteredListeners(dump: ConfigDump, filter: ListenerFilter = {}): ListenerEntry[] {
  return listenerEntries(dump).filter((e) => listenerMatches(filter, e.listener));
}

// ---- `proxy-config listeners --waypoint` (PrintRemoteListenerSummary) ---------------------

const IP_MATCHER = 'type.googleapis.com/xds.type.matcher.v3.IPMatcher';

function actionName(onMatch: unknown): string | undefined {
  const action = asObject(field(onMatch, 'action'));
  return action ? str(action, 'name') : undefined;
}

/** The entries of a matcher tree's map, as istioctl builds them (IP ranges as CIDRs without /32 and /128). */
function treeEntries(tree: unknown): { equality: string; entries: [string, JsonValue][] } {
  const exact = asObject(field(tree, 'exact_match_map'));
  if (exact) return { equality: '=', entries: Object.entries(asObject(field(exact, 'map')) ?? {}) };
  const prefix = asObject(field(tree, 'prefix_match_map'));
  if (prefix) return { equality: '^', entries: Object.entries(asObject(field(prefix, 'map')) ?? {}) };
  const custom = field(field(tree, 'custom_match'), 'typed_config');
  const entries: [string, JsonValue][] = [];
  if (typeUrlOf(custom) === IP_MATCHER) {
    for (const rm of list(custom, 'range_matchers')) {
      for (const r of list(rm, 'ranges')) {
        let cidr = str(r, 'address_prefix');
        const pl = wrapped(r, 'prefix_len') ?? 0;
        if (pl !== 32 && pl !== 128) cidr += `/${pl}`;
        // A later range with the same CIDR replaces the earlier one, as in istioctl's map.
        const at = entries.findIndex(([k]) => k === cidr);
        const value = field(rm, 'on_match') ?? null;
        if (at >= 0) entries[at] = [cidr, value];
        else entries.push([cidr, value]);
      }
    }
  }
  return { equality: '=', entries };
}

function recurseMatcher(name: string, matcher: unknown, depth: number): [string[], boolean] {
  if (depth > 64) return [[], false];
  const onNoMatch = field(matcher, 'on_no_match');
  if (actionName(onNoMatch) === name) return [['ANY'], true];
  const nested = asObject(field(onNoMatch, 'matcher'));
  if (nested) {
    const [ms, found] = recurseMatcher(name, nested, depth + 1);
    return found ? [ms, true] : [['NONE'], true];
  }
  const tree = asObject(field(matcher, 'matcher_tree'));
  const n = str(field(tree, 'input'), 'name');
  const { equality, entries } = treeEntries(tree);
  const outputs: string[] = [];
  for (const [k, onMatch] of entries) {
    const action = actionName(onMatch);
    if (action !== undefined) {
      if (action === name) outputs.push(`${n}${equality}${k}`);
      continue;
    }
    const child = asObject(field(onMatch, 'matcher'));
    if (!child) continue;
    const [children, found] = recurseMatcher(name, child, depth + 1);
    if (!found) continue;
    for (const c of children) outputs.push(`${n}${equality}${k} -> ${c}`);
  }
  return [outputs, outputs.length > 0];
}

/** newMatcher: how a listener's filter chain matcher reaches a chain. */
export function describeChainMatcher(chain: JsonObject, l: JsonObject): string[] {
  const fcm = asObject(field(l, 'filter_chain_matcher'));
  const name = str(chain, 'name');
  if (!fcm) return [describeFilterChainMatch(field(chain, 'filter_chain_match'))];
  const onNoMatch = field(fcm, 'on_no_match');
  const action = actionName(onNoMatch);
  if (action !== undefined) {
    if (action === name) return ['UNMATCHED'];
  } else {
    const nested = asObject(field(onNoMatch, 'matcher'));
    if (nested) {
      const [ms, found] = recurseMatcher(name, nested, 0);
      return found ? ms : ['NONE'];
    }
  }
  const [ms, found] = recurseMatcher(name, fcm, 0);
  return found ? ms : ['NONE'];
}

export interface WaypointListenerRow {
  listener: string;
  chain: string;
  match: string;
  destination: string;
  entry: ListenerEntry;
  chainConfig: JsonObject;
}

/**
 * The waypoint listener view. istioctl walks Go maps here, whose order is random: rows of one
 * chain with several matches come in the dump's order.
 */
export function waypointListenerTable(dump: ConfigDump): Table<WaypointListenerRow> {
  const entries = listenerEntries(dump);
  const key = new Map(
    entries.map((e) => [
      e,
      {
        internal: field(e.listener, 'internal_listener') !== undefined,
        port: listenerPort(e.listener),
        addr: listenerAddress(e.listener),
        type: listenerType(e.listener),
      },
    ]),
  );
  goSortSlice(entries, (a, b) => {
    const x = key.get(a)!;
    const y = key.get(b)!;
    if (x.internal && y.internal) return goLess(a.name, b.name);
    if (x.port !== y.port) return x.port < y.port;
    if (x.addr !== y.addr) return goLess(x.addr, y.addr);
    return goLess(x.type, y.type);
  });
  const rows: WaypointListenerRow[] = [];
  for (const entry of entries) {
    const l = entry.listener;
    const chains = filterChains(l);
    let lname = `envoy://${entry.name}`;
    if (key.get(entry)!.internal && chains.length === 1 && str(chains[0], 'name') === lname) lname = 'internal';
    for (const fc of chains) {
      const destination = describeFilters(list(fc, 'filters'));
      for (const match of describeChainMatcher(fc, l)) rows.push({ listener: lname, chain: str(fc, 'name'), match, destination, entry, chainConfig: fc });
    }
  }
  return { columns: ['LISTENER', 'CHAIN', 'MATCH', 'DESTINATION'], rows, cells: rows.map((r) => [r.listener, r.chain, r.match, r.destination]), padding: 1 };
}
