// The xds-simulate target's independent oracle: the request simulator's HTTP routing decision
// (virtual host, route, action) against envoyRouteMatcher.ts on the same generated
// RouteConfiguration (read from the proxy's config dump, never from the simulator).
//
// Compared: requests with protocol http, http2 or grpc for which the simulator went through a
// filter chain with an HTTP connection manager and named its route table. The listener and the
// filter chain are the simulator's (this oracle does not model listener or filter-chain
// matching); the chain's HCM must name the same table (RDS name or inline route configuration),
// then the virtual host, the first matching route and its action (cluster, the clusters of
// weighted_clusters with weight > 0, redirect, direct response status) must be Envoy's. RBAC,
// endpoints, retries and rewrites come after the route and are not compared.
//
// Skipped, and counted by reason: TCP and TLS requests; requests the simulator did not send
// through an HTTP route table (no listener, a TCP chain, a waypoint policy that denied first, an
// invalid port); requests that are not well-formed HTTP as Envoy's codecs would take them (a
// Host that is not a valid authority, a method that is not a token, a header name that is not a
// token or is `host`, a path that is not origin-form printable ASCII or has a fragment, or one
// that path normalization (RFC 3986: dot segments, percent-decoding, backslashes) could change,
// since Istio's HCMs set normalize_path); RDS tables the dump lacks; and route tables the matcher
// answers `unknown` for.
import { matchRouteConfiguration, asciiLower, type RouteOutcome, type RouterRequest } from './envoyRouteMatcher.ts';
import type { TargetReport } from '../target.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface OracleInput {
  host: string;
  protocol: string;
  method: string;
  path: string;
  headers: Record<string, string>;
}

/** The parts of the simulator's answer the oracle reads (the simulate query's result). */
export interface SimulatorAnswer {
  ok: boolean;
  failure?: string;
  status?: number;
  listener?: string;
  routeConfig?: string;
  virtualHost?: string;
  routeKey?: string;
  clusters: ReadonlyArray<{ name: string; weight: number }>;
  redirect?: string;
  directResponse?: string;
  steps: ReadonlyArray<{ kind: string; at?: { table: string; key: string } }>;
}

export interface DumpResources {
  listeners: readonly unknown[];
  routes: readonly unknown[];
}

const HCM = 'envoy.filters.network.http_connection_manager';
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 3986 authority characters, as nghttp2_check_authority / quiche accept them.
const AUTHORITY = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%[\]]+$/;
// Path characters that RFC 3986 normalization leaves alone (no '%', no backslash).
const STABLE_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;

const compared = new Map<string, number>();
const skipped = new Map<string, number>();
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

function skip(why: string): undefined {
  bump(skipped, why);
  return undefined;
}

/** Counts an input the target decided not to compare before asking the oracle. */
export function countSkipped(why: string): void {
  bump(skipped, why);
}

/** The request as Envoy's router would see it, or why the input is not one. */
export function routerRequest(input: OracleInput): RouterRequest | string {
  const authority = input.host.trim();
  if (!AUTHORITY.test(authority)) return 'Host is not a valid authority';
  const method = (input.method || 'GET').toUpperCase();
  if (!TOKEN.test(method)) return 'method is not a token';
  const path = input.path || '/';
  if (!path.startsWith('/') || !/^[\x21-\x7e]*$/.test(path) || path.includes('#')) return 'path is not origin-form printable ASCII without a fragment';
  const q = path.indexOf('?');
  const p = q < 0 ? path : path.slice(0, q);
  if (!STABLE_PATH.test(p) || p.split('/').some((seg) => seg === '.' || seg === '..')) return 'path normalization could change the path';
  const headers = new Map<string, string>();
  for (const [k, v] of Object.entries(input.headers)) {
    if (!TOKEN.test(k) || asciiLower(k) === 'host') return 'a header name that is not a token, or Host';
    if (!/^[\x20-\x7e]*$/.test(v)) return 'a header value outside printable ASCII';
    const name = asciiLower(k);
    const value = v.trim();
    // Repeated names reach the matchers joined with ',' (HeaderUtility::getAllOfHeaderAsString).
    headers.set(name, headers.has(name) ? `${headers.get(name)},${value}` : value);
  }
  if (input.protocol === 'grpc' && !headers.has('content-type')) headers.set('content-type', 'application/grpc');
  return { authority, method, path, headers };
}

/** The route table the chosen chain's HCM names: RDS from the dump, or inline. */
function tableOfChain(res: SimulatorAnswer, dump: DumpResources): { name: string; table?: Obj } | string {
  const step = res.steps.find((s) => s.kind === 'filterChain' && s.at?.table === 'filterChains');
  const key = step?.at?.key;
  if (!key || !res.listener) return 'the simulator names no filter chain';
  const slash = key.lastIndexOf('/');
  const listenerName = key.slice(0, slash);
  const idx = key.slice(slash + 1);
  if (listenerName !== res.listener) return `DIVERGENCE: the filter chain ${key} is not on the listener ${res.listener}`;
  const l = dump.listeners.find((x) => isObj(x) && x.name === listenerName);
  if (!isObj(l)) return `DIVERGENCE: the simulator's listener ${listenerName} is not in the dump`;
  const chain = idx === 'default' ? l.defaultFilterChain : list(l.filterChains)[Number(idx)];
  if (!isObj(chain)) return `DIVERGENCE: listener ${listenerName} has no filter chain ${idx}`;
  const hcm = list(chain.filters).find((f) => isObj(f) && f.name === HCM);
  if (!isObj(hcm) || !isObj(hcm.typedConfig))
    return `DIVERGENCE: the simulator routes with table ${res.routeConfig} but chain ${key} has no HTTP connection manager`;
  const tc = hcm.typedConfig;
  if (isObj(tc.routeConfig)) return { name: typeof tc.routeConfig.name === 'string' ? tc.routeConfig.name : '', table: tc.routeConfig };
  const rds = isObj(tc.rds) && typeof tc.rds.routeConfigName === 'string' ? tc.rds.routeConfigName : undefined;
  if (rds === undefined) return 'an HCM with neither RDS nor an inline route configuration (scoped routes)';
  const table = dump.routes.find((r) => isObj(r) && r.name === rds);
  return { name: rds, ...(isObj(table) ? { table } : {}) };
}

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** Why the simulator's answer differs from the expected outcome, or undefined when it agrees. */
export function disagreement(expected: RouteOutcome, res: SimulatorAnswer, table: string): string | undefined {
  const said = `the simulator said virtual host ${JSON.stringify(res.virtualHost)}, route ${JSON.stringify(res.routeKey)}, clusters ${JSON.stringify(res.clusters.map((c) => `${c.name}:${c.weight}`))}, redirect ${JSON.stringify(res.redirect)}, direct response ${JSON.stringify(res.directResponse)}, failure ${JSON.stringify(res.failure)}`;
  switch (expected.kind) {
    case 'unknown':
      return undefined;
    case 'no-virtual-host':
      return res.virtualHost === undefined && res.status === 404 ? undefined : `Envoy matches no virtual host in ${table} (404); ${said}`;
    case 'tls-redirect':
      return res.virtualHost === undefined && res.status === 301
        ? undefined
        : `Envoy redirects to TLS (virtual host ${expected.virtualHost} requires TLS); ${said}`;
    case 'no-route':
      return res.virtualHost === expected.virtualHost && res.routeKey === undefined && res.status === 404
        ? undefined
        : `Envoy picks virtual host ${expected.virtualHost} and no route (404); ${said}`;
    case 'route': {
      const want = `${table}/${expected.virtualHost}/${expected.index}`;
      if (res.virtualHost !== expected.virtualHost || res.routeKey !== want)
        return `Envoy picks virtual host ${expected.virtualHost}, route #${expected.index} (${want}); ${said}`;
      const a = expected.action;
      const positive = res.clusters.filter((c) => c.weight > 0).map((c) => c.name);
      if (a.kind === 'clusters' && !(sameSet(positive, a.clusters) && res.redirect === undefined && res.directResponse === undefined))
        return `route ${want}: Envoy sends to ${JSON.stringify(a.clusters)}; ${said}`;
      if (a.kind === 'redirect' && !(res.redirect !== undefined && res.clusters.length === 0)) return `route ${want}: Envoy redirects; ${said}`;
      if (a.kind === 'direct' && !(res.directResponse !== undefined && res.directResponse.split(' ')[0] === String(a.status) && res.clusters.length === 0))
        return `route ${want}: Envoy answers ${a.status} itself; ${said}`;
      return undefined;
    }
  }
}

/** Compares one simulator answer with the oracle; a text when they disagree. Counts what it does. */
export function compareWithRouteOracle(input: OracleInput, res: SimulatorAnswer, dump: DumpResources): string | undefined {
  if (input.protocol !== 'http' && input.protocol !== 'http2' && input.protocol !== 'grpc') return skip(`protocol ${input.protocol} (not HTTP routing)`);
  const req = routerRequest(input);
  if (typeof req === 'string') return skip(req);
  if (res.routeConfig === undefined)
    return skip(
      res.listener === undefined
        ? "no listener on the simulator's path (or an invalid port)"
        : 'the simulator did not reach an HTTP route table (TCP chain, or a waypoint policy denied first)',
    );
  const t = tableOfChain(res, dump);
  if (typeof t === 'string') return t.startsWith('DIVERGENCE: ') ? t.slice(12) : skip(t);
  if (t.name !== res.routeConfig) return `the chain's HCM names route table ${t.name}; the simulator used ${res.routeConfig}`;
  if (!t.table) return skip('RDS table not in the dump');
  const expected = matchRouteConfiguration(t.table, req);
  if (expected.kind === 'unknown') return skip(`matcher: ${expected.why.replace(/".*"/, '…')}`);
  const why = disagreement(expected, res, t.name);
  if (!why) bump(compared, expected.kind === 'route' ? `route → ${expected.action.kind}` : expected.kind);
  return why;
}

/** The counts for the run's report; a run that compared nothing fails. */
export function routeOracleReport(): TargetReport {
  const total = [...compared.values()].reduce((a, b) => a + b, 0);
  const skips = [...skipped.values()].reduce((a, b) => a + b, 0);
  const fmt = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${n.toLocaleString('en-US')} ${k}`)
      .join('; ');
  return {
    lines: [
      `route oracle: ${total.toLocaleString('en-US')} compared (${fmt(compared) || 'none'})`,
      `route oracle: ${skips.toLocaleString('en-US')} skipped (${fmt(skipped) || 'none'})`,
    ],
    ...(total === 0 ? { failure: 'the route oracle compared no input' } : {}),
  };
}
