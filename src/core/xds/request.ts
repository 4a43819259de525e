// The request simulator people use: "where does this request go, and why?". The listener,
// filter chain and virtual host come from the harness port (simulate.ts, kept faithful to
// pilot/pkg/simulation for the conformance cases); the route is then matched the way Envoy
// does it, headers, method and query parameters included, and the result carries the weighted
// clusters, endpoints, timeouts, retries, faults, redirects and direct responses in effect.
import type { Json } from './types.ts';
import type { GeneratedConfig } from './generate.ts';
import { isObj } from '../document/read.ts';
import { simulate, SIM_ERRORS, type SimProtocol, type SimTls } from './simulate.ts';
import { isIP } from './net.ts';
import { pushContext } from './pushContext.ts';
import { destinationRuleFor } from './scope.ts';
import type { ConfigView } from '../config/configView.ts';
import { selectorMatches } from '../config/labels.ts';
import { endpointVerdict, policyProvenance, type RbacEndpointVerdict } from './rbacVerdict.ts';
import type { ProvenanceRef } from './types.ts';
import { matchFilterChainMatcher } from './waypoint/matcher.ts';
import { waypointAuthzFor, waypointPolicyResources } from './waypoint/policies.ts';
import { evaluateEnvoy } from '../ambient/envoyAuthz.ts';
import { parseSubsetKey } from './names.ts';
import { fullRegex, headerMatches, stringMatches } from './envoyMatchers.ts';
import { ALLOW_ANY_DYNAMIC_DNS_CLUSTER } from './dynamicDns.ts';

export type RequestProtocol = 'http' | 'http2' | 'grpc' | 'tcp' | 'tls';
export const REQUEST_PROTOCOLS: readonly RequestProtocol[] = ['http', 'http2', 'grpc', 'tcp', 'tls'];

export interface RequestInput {
  /** Host name or IP of the destination (a Host header `host:port` is accepted). */
  host: string;
  port: number;
  protocol?: RequestProtocol;
  method?: string;
  path?: string;
  headers?: Readonly<Record<string, string>>;
  /** TLS server name (defaults to the host for `tls`). */
  sni?: string;
}

/** Where a step's piece of config sits in the provenance table of the dump. */
export interface ProvenanceKey {
  table: 'listeners' | 'filterChains' | 'routeConfigs' | 'virtualHosts' | 'routes' | 'clusters' | 'endpoints';
  key: string;
}

export interface RequestStep {
  kind: 'destination' | 'listener' | 'filterChain' | 'routeConfig' | 'virtualHost' | 'route' | 'cluster' | 'endpoints' | 'policy' | 'rbac' | 'failure';
  title: string;
  detail?: string;
  at?: ProvenanceKey;
  /** The resource (and field) behind a step that is not in the proxy's own dump (the RBAC policy). */
  ref?: ProvenanceRef;
  /** `fail`: the request (or the share of it in `share`) fails at this step. */
  status?: 'fail';
  /** On a failing step: the status Envoy answers with, its response flags (%RESPONSE_FLAGS%), and the share of requests in percent. */
  code?: number;
  flags?: string[];
  share?: number;
}

/**
 * The verdict, for the top of the simulator's output: the result, the status and response
 * flags Envoy would log, the step where the request ended, and why.
 */
export interface RequestVerdict {
  /** `partial`: some of the route's weighted clusters fail (share of requests in `share`). */
  outcome: 'ok' | 'partial' | 'fail';
  /** One line: "Fails for 20% of requests", "Forwarded", "Fails". */
  summary: string;
  status?: number;
  flags: string[];
  /** Percent of requests that fail (100 when all do). */
  share: number;
  /** Where the request ended: the failing step, or the last step of a forwarded request. */
  endedAt: string;
  /** Why it fails, one text per failing cause (empty when it is forwarded). */
  causes: string[];
  /** Indices into `steps` of the failing steps. */
  failingSteps: number[];
}

export interface WeightedCluster {
  name: string;
  /** Share in percent of the route's total weight (100 for a single cluster). */
  weight: number;
}

export interface EndpointSet {
  cluster: string;
  addresses: string[];
}

export interface RequestResult {
  ok: boolean;
  /** Why the request fails: no listener, no route (404), BlackHole, TLS, … */
  failure?: string;
  listener?: string;
  filterChain?: string;
  routeConfig?: string;
  virtualHost?: string;
  /** `<route config>/<virtual host>/<index>`: the key of the matched route in the provenance table. */
  routeKey?: string;
  routeName?: string;
  clusters: WeightedCluster[];
  endpoints: EndpointSet[];
  timeout?: string;
  retries?: string;
  fault?: string;
  redirect?: string;
  directResponse?: string;
  /** The path and authority the upstream receives, when the route rewrites them. */
  rewrite?: { path: string; authority: string };
  /** The status Envoy answers with itself (404 no route, 403 RBAC, redirects, direct responses); undefined when the request is forwarded. */
  status?: number;
  /** The RBAC verdict at each destination endpoint that is a sidecar of the mesh. */
  rbac?: RbacEndpointVerdict[];
  steps: RequestStep[];
  verdict: RequestVerdict;
}

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function hostOnly(h: string): string {
  if (h.startsWith('[')) return h.slice(1, Math.max(1, h.indexOf(']')));
  const i = h.lastIndexOf(':');
  return i > 0 && h.indexOf(':') === i ? h.slice(0, i) : h;
}

/** The address a client would connect to: the IP given, or the VIP of the service named. */
export function resolveDestination(view: ConfigView, namespace: string, host: string): { address?: string; service?: string } {
  const h = hostOnly(host.trim());
  if (isIP(h)) return { address: h };
  const push = pushContext(view);
  const candidates = [h, `${h}.${namespace}.svc.cluster.local`, `${h}.svc.cluster.local`, `${h}.cluster.local`];
  for (const c of candidates) {
    const svc = push.services.find((s) => s.hostname === c);
    if (!svc) continue;
    const vip = svc.defaultAddress !== '0.0.0.0' && svc.defaultAddress !== '' ? svc.defaultAddress : svc.autoAllocatedV4;
    return { ...(vip ? { address: vip } : {}), service: svc.hostname };
  }
  return {};
}

// ---- Envoy's route matching (headers, query parameters, case sensitivity) -------------------

function pathMatches(m: Json, path: string): boolean {
  const p = path.split('?')[0] ?? '';
  const cs = m.caseSensitive !== false;
  const eq = (a: string, b: string) => (cs ? a === b : a.toLowerCase() === b.toLowerCase());
  const starts = (a: string, b: string) => (cs ? a.startsWith(b) : a.toLowerCase().startsWith(b.toLowerCase()));
  if (typeof m.prefix === 'string') return starts(p, m.prefix);
  if (typeof m.path === 'string') return eq(p, m.path);
  if (typeof m.pathSeparatedPrefix === 'string') {
    const pre = m.pathSeparatedPrefix;
    return eq(p, pre) || starts(p, `${pre}/`);
  }
  if (isObj(m.safeRegex)) return fullRegex(str(m.safeRegex.regex))?.test(p) ?? false;
  return false;
}

function queryMatches(m: Json, path: string): boolean {
  const q = path.includes('?') ? path.slice(path.indexOf('?') + 1) : '';
  const params = new Map<string, string>();
  for (const part of q.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    // Envoy matches a repeated parameter on its first value only
    // (ConfigUtility::QueryParameterMatcher::matches, QueryParamsMulti::getFirstValue).
    if (!params.has(name)) params.set(name, eq < 0 ? '' : part.slice(eq + 1));
  }
  for (const qp of arr(m.queryParameters)) {
    if (!isObj(qp)) continue;
    const v = params.get(str(qp.name));
    if (qp.presentMatch === true) {
      if (v === undefined) return false;
    } else if (isObj(qp.stringMatch)) {
      if (!stringMatches(qp.stringMatch, v)) return false;
    } else if (v === undefined) return false;
  }
  return true;
}

function routeMatches(r: Json, path: string, headers: ReadonlyMap<string, string>): boolean {
  const m = isObj(r.match) ? r.match : {};
  if (!pathMatches(m, path)) return false;
  for (const h of arr(m.headers)) if (isObj(h) && !headerMatches(h, headers)) return false;
  if (isObj(m.grpc) && !(headers.get('content-type') ?? '').startsWith('application/grpc')) return false;
  return queryMatches(m, path);
}

function duration(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function describeRetries(rp: unknown): string | undefined {
  if (!isObj(rp)) return undefined;
  const n = isObj(rp.numRetries) ? rp.numRetries : undefined;
  const count = typeof rp.numRetries === 'number' ? rp.numRetries : n ? Number((n as Json).value ?? 0) : 1;
  const parts = [`${count} attempt${count === 1 ? '' : 's'}`];
  if (typeof rp.retryOn === 'string') parts.push(`on ${rp.retryOn}`);
  if (typeof rp.perTryTimeout === 'string') parts.push(`per try ${rp.perTryTimeout}`);
  return parts.join(', ');
}

function describeFault(r: Json): string | undefined {
  const per = isObj(r.typedPerFilterConfig) ? r.typedPerFilterConfig : {};
  const f = per['envoy.filters.http.fault'];
  if (!isObj(f)) return undefined;
  const parts: string[] = [];
  const pct = (p: unknown) =>
    isObj(p) ? `${Number(p.numerator ?? 0)}${p.denominator === 'MILLION' ? '/1e6' : p.denominator === 'TEN_THOUSAND' ? '/1e4' : '%'}` : '100%';
  if (isObj(f.delay)) parts.push(`delay ${str(f.delay.fixedDelay)} for ${pct(f.delay.percentage)}`);
  if (isObj(f.abort)) parts.push(`abort ${f.abort.httpStatus ?? f.abort.grpcStatus ?? ''} for ${pct(f.abort.percentage)}`);
  return parts.join('; ') || 'fault filter configured';
}

function endpointsOf(gen: GeneratedConfig, cluster: string): EndpointSet {
  const addresses: string[] = [];
  const cla =
    gen.endpoints.find((e) => e.clusterName === cluster) ??
    (() => {
      const c = gen.clusters.find((x) => x.name === cluster);
      return c && isObj(c.loadAssignment) ? c.loadAssignment : undefined;
    })();
  for (const le of arr(cla?.endpoints)) {
    for (const lb of arr(isObj(le) ? le.lbEndpoints : undefined)) {
      const ep = isObj(lb) && isObj(lb.endpoint) ? lb.endpoint : undefined;
      const sa = ep && isObj(ep.address) && isObj(ep.address.socketAddress) ? ep.address.socketAddress : undefined;
      if (sa) addresses.push(`${str(sa.address)}:${Number(sa.portValue ?? 0)}`);
      else if (ep && isObj(ep.address) && isObj(ep.address.envoyInternalAddress)) {
        const ia = ep.address.envoyInternalAddress;
        addresses.push(`internal:${str(ia.serverListenerName)}${str(ia.endpointId) ? `/${str(ia.endpointId)}` : ''}`);
      }
    }
  }
  return { cluster, addresses };
}

const DYNAMIC_FORWARD_PROXY = 'envoy.clusters.dynamic_forward_proxy';

function clusterStep(view: ConfigView, gen: GeneratedConfig, res: RequestResult, name: string, weight: number): void {
  res.clusters.push({ name, weight });
  const c = gen.clusters.find((x) => x.name === name);
  const detail =
    name === 'BlackHoleCluster'
      ? 'BlackHoleCluster drops the request (no service in the registry for it, REGISTRY_ONLY)'
      : name === 'PassthroughCluster'
        ? 'PassthroughCluster forwards to the original destination (ALLOW_ANY)'
        : c
          ? `type ${str(c.type) || (isObj(c.clusterType) ? str(c.clusterType.name) : 'STATIC')}`
          : 'not among the generated clusters';
  const step: RequestStep = { kind: 'cluster', title: `${name}${weight < 100 ? ` (${weight}%)` : ''}`, detail, at: { table: 'clusters', key: name } };
  res.steps.push(step);
  if (name === 'BlackHoleCluster') {
    // A STATIC cluster without endpoints: the router finds no healthy upstream (503 UH).
    Object.assign(step, { status: 'fail', flags: ['UH'], share: weight });
    res.ok = false;
    res.failure = 'BlackHole: the request is dropped';
    return;
  }
  if (!c && name !== 'PassthroughCluster') {
    // Istio still routes to a cluster it did not create (a destination without a Service, a
    // subset no DestinationRule defines); Envoy's router finds no cluster of that name and
    // answers cluster_not_found_response_code (503 by default) with response flag NC.
    const reason = missingClusterReason(view, gen, name);
    step.detail = `not among the generated clusters: ${reason}`;
    Object.assign(step, { status: 'fail', code: 503, flags: ['NC'], share: weight });
    const why = `${weight < 100 ? `${weight}% of requests get` : 'Envoy answers'} 503 NC: ${reason}`;
    res.steps.push({ kind: 'failure', title: why, status: 'fail', code: 503, flags: ['NC'], share: weight });
    if (res.clusters.every((x) => x.name === name || !gen.clusters.some((y) => y.name === x.name))) {
      res.ok = false;
      res.failure = why;
      res.status = 503;
    }
    return;
  }
  if (!c) return;
  if (isObj(c.clusterType) && c.clusterType.name === DYNAMIC_FORWARD_PROXY) {
    // No endpoints of its own: the dynamic forward proxy resolves the request's Host by DNS.
    step.detail = `${name === ALLOW_ANY_DYNAMIC_DNS_CLUSTER ? 'ALLOW_ANY_DYNAMIC_DNS: ' : ''}the dynamic forward proxy resolves the Host of the request by DNS and connects there`;
    res.steps.push({
      kind: 'endpoints',
      title: `endpoints of ${name} resolved at request time`,
      detail: 'from the Host header, by DNS (the DNS cache of the dynamic forward proxy)',
      at: { table: 'clusters', key: name },
    });
    return;
  }
  const eps = endpointsOf(gen, name);
  res.endpoints.push(eps);
  res.steps.push({
    kind: 'endpoints',
    title: `${eps.addresses.length} endpoint${eps.addresses.length === 1 ? '' : 's'} of ${name}`,
    detail: eps.addresses.join(', ') || (name === 'PassthroughCluster' ? 'the original destination' : 'no endpoints: the request fails with 503'),
    at: { table: 'endpoints', key: name },
  });
}

/**
 * Why the proxy has no cluster of this name, for a route that names it. Istio writes a route's
 * cluster as `outbound|port|subset|host` (model.BuildSubsetKey) whether or not it creates that
 * cluster; it creates subset clusters only for the subsets the host's DestinationRule defines
 * (pilot/pkg/networking/core/cluster_builder.go, buildSubsetCluster over destinationRule.Subsets),
 * and service clusters only for the ports of services in the proxy's scope.
 */
export function missingClusterReason(view: ConfigView, gen: GeneratedConfig, name: string): string {
  const key = parseSubsetKey(name);
  if (key?.direction !== 'outbound') return `the proxy has no cluster ${name}`;
  const push = pushContext(view);
  const byNs = push.hostnameAndNamespace.get(key.host);
  const services = byNs ? [...byNs.values()] : [];
  if (services.length === 0) return `no Service or ServiceEntry ${key.host} exists, so Istio creates no cluster ${name}`;
  const svc = services.find((x) => x.namespace === gen.proxy.configNamespace) ?? services[0]!;
  if (!svc.ports.some((p) => p.port === key.port)) {
    return `${key.host} has no port ${key.port} (its ports: ${svc.ports.map((p) => p.port).join(', ') || 'none'}), so Istio creates no cluster ${name}`;
  }
  if (key.subset !== '') {
    const drs = destinationRuleFor(push, gen.proxy.configNamespace, svc) ?? [];
    const names = [...new Set(drs.flatMap((d) => (d.from.length > 0 ? d.from : [d.rule.meta]).map((m) => `${m.namespace}/${m.name}`)))];
    if (names.length === 0)
      return `subset ${key.subset} is not defined: no DestinationRule for ${key.host} applies to this proxy, so Istio creates no cluster ${name}`;
    return `subset ${key.subset} is not defined in DestinationRule${names.length === 1 ? '' : 's'} ${names.join(', ')}, so Istio creates no cluster ${name}`;
  }
  return `the proxy has no cluster ${name}: ${key.host} is not in its scope (Sidecar egress hosts or exportTo)`;
}

const portOf = (l: Json): { address: string; port: number } | undefined => {
  const sa = isObj(l.address) && isObj(l.address.socketAddress) ? l.address.socketAddress : undefined;
  return sa && typeof sa.portValue === 'number' ? { address: str(sa.address), port: sa.portValue } : undefined;
};

/**
 * "No listener matched", said with what the proxy does listen on: its listener ports and the
 * listener nearest the request (the same address first, then the nearest port).
 */
export function noListenerReason(gen: GeneratedConfig, address: string | undefined, port: number): string {
  const bound = gen.listeners
    .map((l) => ({ name: str(l.name), at: portOf(l) }))
    .filter((x): x is { name: string; at: { address: string; port: number } } => x.at !== undefined);
  if (bound.length === 0) return `no listener matched: the proxy has no listener on a port (nothing listens on ${port})`;
  const ports = [...new Set(bound.map((b) => b.at.port))].sort((a, b) => a - b);
  const score = (b: (typeof bound)[number]) => (b.at.address === address || b.at.address === '0.0.0.0' ? 0 : 100000) + Math.abs(b.at.port - port);
  const closest = [...bound].sort((a, b) => score(a) - score(b) || a.at.port - b.at.port)[0]!;
  return `no listener matched: nothing listens on port ${port}; the proxy listens on port${ports.length === 1 ? '' : 's'} ${ports.join(', ')}; the closest listener is ${closest.name} (${closest.at.address}:${closest.at.port})`;
}

function describeChainMatch(c: Json): string {
  const m = isObj(c.filterChainMatch) ? c.filterChainMatch : {};
  const parts: string[] = [];
  if (typeof m.destinationPort === 'number') parts.push(`port ${m.destinationPort}`);
  if (arr(m.prefixRanges).length > 0)
    parts.push(
      `address ${arr(m.prefixRanges)
        .map((r) => (isObj(r) ? `${str(r.addressPrefix)}/${Number(r.prefixLen ?? 0)}` : ''))
        .join(', ')}`,
    );
  if (arr(m.serverNames).length > 0) parts.push(`SNI ${arr(m.serverNames).join(', ')}`);
  if (typeof m.transportProtocol === 'string') parts.push(m.transportProtocol);
  if (arr(m.applicationProtocols).length > 0) parts.push(`ALPN ${arr(m.applicationProtocols).join(', ')}`);
  return `${str(c.name) || '(unnamed)'}${parts.length > 0 ? ` [${parts.join('; ')}]` : ''}`;
}

/** "No filter chain matched", with the chains the listener has. */
function noFilterChainReason(gen: GeneratedConfig, listener: string | undefined): string {
  const l = gen.listeners.find((x) => x.name === listener);
  const chains = arr(l?.filterChains).filter(isObj) as Json[];
  if (chains.length === 0) return `no filter chain matched: listener ${listener ?? ''} has no filter chains; Envoy closes the connection (NR)`;
  const shown = chains.slice(0, 5).map(describeChainMatch);
  return `no filter chain of ${listener ?? ''} matched; Envoy closes the connection (NR). Its chains: ${shown.join('; ')}${chains.length > 5 ? `; and ${chains.length - 5} more` : ''}`;
}

/** The verdict of a finished simulation, from its result and its failing steps. */
function verdictOf(res: RequestResult): RequestVerdict {
  const failingSteps: number[] = [];
  res.steps.forEach((s, i) => {
    if (s.status === 'fail' || s.kind === 'failure') failingSteps.push(i);
  });
  const failures = res.steps.filter((s) => s.kind === 'failure');
  const flags = [...new Set(res.steps.flatMap((s) => (s.status === 'fail' || s.kind === 'failure' ? (s.flags ?? []) : [])))];
  const stepName = (s: RequestStep) =>
    `${s.kind === 'filterChain' ? 'filter chain' : s.kind === 'virtualHost' ? 'virtual host' : s.kind === 'routeConfig' ? 'route configuration' : s.kind} ${s.title}`;
  const firstFail = failingSteps.map((i) => res.steps[i]!).find((s) => s.kind !== 'failure');
  const lastBefore = (() => {
    const first = failingSteps[0] ?? res.steps.length;
    for (let i = first - 1; i >= 0; i--) if (res.steps[i]!.kind !== 'failure') return res.steps[i]!;
    return undefined;
  })();
  if (!res.ok) {
    const status = res.status ?? failures.find((f) => f.code !== undefined)?.code;
    const where = firstFail ?? lastBefore;
    const causes = res.failure ? [res.failure, ...failures.map((f) => f.title).filter((t) => t !== res.failure)] : failures.map((f) => f.title);
    return {
      outcome: 'fail',
      summary: status !== undefined ? `Fails: Envoy answers ${status}` : 'Fails',
      ...(status !== undefined ? { status } : {}),
      flags,
      share: 100,
      endedAt: where ? stepName(where) : 'before the proxy',
      causes,
      failingSteps,
    };
  }
  if (failures.length > 0) {
    const share = Math.min(100, Math.round(failures.reduce((t, f) => t + (f.share ?? 0), 0) * 100) / 100);
    const status = failures.find((f) => f.code !== undefined)?.code;
    return {
      outcome: 'partial',
      summary: share > 0 ? `Fails for ${share}% of requests${status !== undefined ? ` (${status})` : ''}` : 'Fails for some requests',
      ...(status !== undefined ? { status } : {}),
      flags,
      share,
      endedAt: firstFail ? stepName(firstFail) : lastBefore ? stepName(lastBefore) : '',
      causes: failures.map((f) => f.title),
      failingSteps,
    };
  }
  const last = [...res.steps].reverse().find((s) => s.kind === 'endpoints' || s.kind === 'cluster' || s.kind === 'policy' || s.kind === 'route');
  const summary =
    res.redirect !== undefined
      ? `Redirected (${res.status ?? 301})`
      : res.directResponse !== undefined
        ? `Answered by the proxy (${res.status ?? 200})`
        : res.clusters.length > 0
          ? `Forwarded to ${res.clusters.length === 1 ? res.clusters[0]!.name : `${res.clusters.length} clusters`}`
          : 'Forwarded';
  return {
    outcome: 'ok',
    summary,
    ...(res.status !== undefined ? { status: res.status } : {}),
    flags: [],
    share: 0,
    endedAt: last ? stepName(last) : '',
    causes: [],
    failingSteps,
  };
}

/** Runs one request from the proxy through its generated config. */
export function simulateRequest(view: ConfigView, gen: GeneratedConfig, input: RequestInput): RequestResult {
  const res = runRequest(view, gen, input);
  res.verdict = verdictOf(res);
  return res;
}

function runRequest(view: ConfigView, gen: GeneratedConfig, input: RequestInput): RequestResult {
  const res: RequestResult = {
    ok: true,
    clusters: [],
    endpoints: [],
    steps: [],
    verdict: { outcome: 'ok', summary: '', flags: [], share: 0, endedAt: '', causes: [], failingSteps: [] },
  };
  const protocol = input.protocol ?? 'http';
  const port = Math.trunc(Number(input.port));
  if (!Number.isFinite(port) || port <= 0 || port > 65535) {
    res.ok = false;
    res.failure = `invalid port ${String(input.port)}`;
    res.steps.push({ kind: 'failure', title: res.failure });
    return res;
  }
  const host = input.host.trim();
  if (gen.proxy.type === 'waypoint') return simulateWaypointRequest(view, gen, input, res, host, protocol, port);
  const router = gen.proxy.type === 'router';
  const dest = router ? {} : resolveDestination(view, gen.proxy.configNamespace, host);
  let listenPort = port;
  if (router) {
    // A gateway is reached through its Service: port → targetPort, where its listeners are.
    const listened = (p: number) => gen.listeners.some((l) => isObj(l.address) && isObj(l.address.socketAddress) && l.address.socketAddress.portValue === p);
    if (!listened(port)) {
      for (const svc of pushContext(view).services) {
        if (
          svc.namespace !== gen.proxy.namespace ||
          !svc.labelSelectors ||
          Object.keys(svc.labelSelectors).length === 0 ||
          !selectorMatches(svc.labelSelectors, gen.proxy.labels)
        )
          continue;
        const sp = svc.ports.find((x) => x.port === port);
        if (sp && typeof sp.targetPort === 'number' && listened(sp.targetPort)) {
          listenPort = sp.targetPort;
          break;
        }
      }
    }
  }
  const address = dest.address ?? (isIP(hostOnly(host)) ? hostOnly(host) : undefined);
  res.steps.push({
    kind: 'destination',
    title: `${host}:${port}`,
    detail: router
      ? listenPort !== port
        ? `gateway Service port ${port} → target port ${listenPort}`
        : 'gateway: matched on the listener port'
      : dest.service
        ? `service ${dest.service}${address ? `, address ${address}` : ' (no address)'}`
        : address
          ? `address ${address}`
          : 'not a service of the registry: the request goes to its original address',
  });
  const simProtocol: SimProtocol = protocol === 'http' ? 'http' : protocol === 'http2' || protocol === 'grpc' ? 'http2' : 'tcp';
  const tls: SimTls = protocol === 'tls' ? 'tls' : 'plaintext';
  const sim = simulate(
    { listeners: gen.listeners, routes: gen.routes },
    {
      ...(address ? { address } : { address: '240.240.0.1' }),
      port: listenPort,
      protocol: simProtocol,
      tls,
      host,
      ...(input.sni ? { sni: input.sni } : {}),
      mode: router ? 'gateway' : 'outbound',
    },
  );
  if (sim.listener) {
    res.listener = sim.listener;
    res.steps.push({
      kind: 'listener',
      title: sim.listener,
      detail: sim.listener === 'virtualOutbound' ? 'no listener for this address and port: the catch-all virtualOutbound listener' : `listens on ${listenPort}`,
      at: { table: 'listeners', key: sim.listener },
    });
  }
  if (sim.filterChain !== undefined) {
    res.filterChain = sim.filterChain;
    const idx = sim.filterChainIndex ?? -1;
    res.steps.push({
      kind: 'filterChain',
      title: sim.filterChain || '(unnamed chain)',
      detail: sim.trace.filter((t) => t.includes('chain')).join('; '),
      at: { table: 'filterChains', key: `${sim.listener}/${idx < 0 ? 'default' : idx}` },
    });
  }
  if (sim.routeConfig !== undefined) {
    res.routeConfig = sim.routeConfig;
    res.steps.push({ kind: 'routeConfig', title: `route configuration ${sim.routeConfig}`, at: { table: 'routeConfigs', key: sim.routeConfig } });
  }
  const failWith = (why: string, status?: number, flags?: string[]) => fail(res, why, status, flags);
  if (sim.error && (sim.virtualHost === undefined || sim.error === 'ErrTLSRedirect')) {
    const text = (SIM_ERRORS as Record<string, string>)[sim.error] ?? sim.error;
    if (sim.error === 'ErrNoListener') return failWith(noListenerReason(gen, address, listenPort));
    if (sim.error === 'ErrNoFilterChain') {
      // Envoy: no matching filter chain closes the connection, response flag NR.
      const l = [...res.steps].reverse().find((s) => s.kind === 'listener');
      if (l) l.status = 'fail';
      return failWith(noFilterChainReason(gen, sim.listener), undefined, ['NR']);
    }
    const why =
      sim.error === 'ErrNoVirtualHost'
        ? `${text}: 404 (no virtual host has the domain ${host})`
        : sim.error === 'ErrTLSRedirect'
          ? `${text} (httpsRedirect)`
          : text;
    if (sim.error === 'ErrNoVirtualHost') {
      const rc = [...res.steps].reverse().find((s) => s.kind === 'routeConfig');
      if (rc) rc.status = 'fail';
    }
    // Envoy's router: no route (no virtual host either) is 404 with response flag NR.
    return failWith(
      why,
      sim.error === 'ErrNoVirtualHost' ? 404 : sim.error === 'ErrTLSRedirect' ? 301 : undefined,
      sim.error === 'ErrNoVirtualHost' ? ['NR'] : undefined,
    );
  }
  if (sim.virtualHost === undefined) {
    // TCP / TLS: the chain's tcp_proxy picked the cluster (or none).
    if (sim.cluster) clusterStep(view, gen, res, sim.cluster, 100);
    else if (protocol === 'tcp' || protocol === 'tls') {
      const chain = sim.listener ? chainOf(gen, sim.listener, sim.filterChainIndex ?? -1) : undefined;
      const wc = weightedTcp(chain);
      if (wc.length > 0) for (const w of wc) clusterStep(view, gen, res, w.name, w.weight);
      else return failWith('no cluster for this connection');
    }
    rbacSteps(view, gen, res, { http: false, protocol: 'tcp', method: '', path: '', authority: '', headers: new Map() });
    return res;
  }
  res.virtualHost = sim.virtualHost;
  const rcName = sim.routeConfig ?? '';
  res.steps.push({
    kind: 'virtualHost',
    title: sim.virtualHost,
    detail: `matched the Host ${host}`,
    at: { table: 'virtualHosts', key: `${rcName}/${sim.virtualHost}` },
  });
  // RDS, else the chain's own (an inline route configuration: the dynamic forward proxy's chain).
  const rc =
    gen.routes.find((r) => r.name === rcName) ?? inlineRouteConfig(sim.listener ? chainOf(gen, sim.listener, sim.filterChainIndex ?? -1) : undefined, rcName);
  const vh = arr(rc?.virtualHosts).find((v) => isObj(v) && v.name === sim.virtualHost) as Json | undefined;
  return routeRequest(view, gen, res, input, host, protocol, rcName, sim.virtualHost, vh, true);
}

/** Marks the simulation failed (with the status Envoy answers, when it answers itself). */
function fail(res: RequestResult, why: string, status?: number, flags?: string[]): RequestResult {
  res.ok = false;
  res.failure = why;
  if (status !== undefined) res.status = status;
  res.steps.push({ kind: 'failure', title: why, status: 'fail', share: 100, ...(status !== undefined ? { code: status } : {}), ...(flags ? { flags } : {}) });
  return res;
}

/**
 * Matches the request against a virtual host's routes and follows the route's action;
 * `destinationRbac`: then check it against the destination sidecars' inbound RBAC (a
 * waypoint has applied its own policies before routing).
 */
function routeRequest(
  view: ConfigView,
  gen: GeneratedConfig,
  res: RequestResult,
  input: RequestInput,
  host: string,
  protocol: RequestProtocol,
  rcName: string,
  vhName: string,
  vh: Json | undefined,
  destinationRbac: boolean,
): RequestResult {
  const failWith = (why: string, status?: number) => fail(res, why, status);
  const headers = new Map<string, string>();
  for (const [k, v] of Object.entries(input.headers ?? {})) {
    // Header names are case-insensitive: `X-User` and `x-user` are one header sent twice, which
    // Envoy's matchers read as the values joined with ',' (HeaderUtility::getAllOfHeaderAsString).
    const name = k.toLowerCase();
    const before = headers.get(name);
    headers.set(name, before === undefined ? v : `${before},${v}`);
  }
  headers.set(':method', (input.method || 'GET').toUpperCase());
  headers.set(':authority', host);
  headers.set(':path', input.path || '/');
  if (protocol === 'grpc' && !headers.has('content-type')) headers.set('content-type', 'application/grpc');
  const path = input.path || '/';
  const routes = arr(vh?.routes);
  const index = routes.findIndex((r) => isObj(r) && routeMatches(r, path, headers));
  if (index < 0) {
    const v = [...res.steps].reverse().find((s) => s.kind === 'virtualHost');
    if (v) v.status = 'fail';
    return fail(res, `no route matched: 404 (${routes.length} route${routes.length === 1 ? '' : 's'} in ${vhName})`, 404, ['NR']);
  }
  const route = routes[index] as Json;
  res.routeKey = `${rcName}/${vhName}/${index}`;
  res.routeName = str(route.name);
  res.steps.push({
    kind: 'route',
    title: res.routeName || `route ${index + 1}`,
    detail: describeRouteMatch(route),
    at: { table: 'routes', key: res.routeKey },
  });
  if (isObj(route.redirect)) {
    const r = route.redirect;
    res.redirect =
      [r.schemeRedirect ?? (r.httpsRedirect ? 'https' : ''), r.hostRedirect, r.pathRedirect ?? r.prefixRewrite]
        .filter((x) => typeof x === 'string' && x !== '')
        .join(' ') || 'redirect';
    res.steps.push({ kind: 'policy', title: `redirect ${res.redirect}`, detail: `status ${str(r.responseCode) || 'MOVED_PERMANENTLY'}` });
    res.status = REDIRECT_CODES[str(r.responseCode)] ?? 301;
    return res;
  }
  if (isObj(route.directResponse)) {
    const d = route.directResponse;
    res.directResponse = `${Number(d.status ?? 200)}${isObj(d.body) && typeof d.body.inlineString === 'string' ? ` ${d.body.inlineString}` : ''}`;
    res.steps.push({ kind: 'policy', title: `direct response ${res.directResponse}` });
    res.status = Number(d.status ?? 200);
    if (Number(d.status ?? 200) >= 400) {
      res.ok = false;
      res.failure = `direct response ${res.directResponse}`;
    }
    return res;
  }
  const action = isObj(route.route) ? route.route : undefined;
  if (!action) return failWith('the route has no action');
  res.timeout = duration(action.timeout);
  res.retries = describeRetries(action.retryPolicy);
  res.fault = describeFault(route);
  const policy = [
    res.timeout !== undefined ? `timeout ${res.timeout === '0s' ? 'none' : res.timeout}` : '',
    res.retries ? `retries: ${res.retries}` : '',
    res.fault ? `fault: ${res.fault}` : '',
  ].filter((x) => x !== '');
  if (policy.length > 0) res.steps.push({ kind: 'policy', title: policy.join('; ') });
  if (typeof action.cluster === 'string') clusterStep(view, gen, res, action.cluster, 100);
  else if (isObj(action.weightedClusters)) {
    const wc = arr(action.weightedClusters.clusters).filter(isObj) as Json[];
    const total = wc.reduce((s, c) => s + weightOf(c.weight), 0) || 1;
    for (const c of wc) clusterStep(view, gen, res, str(c.name), Math.round((weightOf(c.weight) * 10000) / total) / 100);
  } else if (typeof action.clusterHeader === 'string') {
    res.steps.push({ kind: 'cluster', title: `cluster from header ${action.clusterHeader}` });
  }
  if (!res.ok && res.clusters.some((c) => c.name === 'BlackHoleCluster')) res.status = 503;
  const rewritten = rewrite(route, action, path, host);
  if (rewritten.path !== path || rewritten.authority !== host) {
    res.rewrite = rewritten;
    res.steps.push({
      kind: 'policy',
      title: `rewrite to ${rewritten.authority}${rewritten.path}`,
      detail: [
        rewritten.path !== path ? `path ${path} → ${rewritten.path}` : '',
        rewritten.authority !== host ? `authority ${host} → ${rewritten.authority}` : '',
      ]
        .filter((x) => x !== '')
        .join('; '),
    });
  }
  if (destinationRbac)
    rbacSteps(view, gen, res, {
      http: true,
      protocol: protocol === 'http2' || protocol === 'grpc' ? 'http2' : 'http',
      method: headers.get(':method') ?? 'GET',
      path: rewritten.path,
      authority: rewritten.authority,
      headers,
    });
  return res;
}

const REDIRECT_CODES: Record<string, number> = { MOVED_PERMANENTLY: 301, FOUND: 302, SEE_OTHER: 303, TEMPORARY_REDIRECT: 307, PERMANENT_REDIRECT: 308 };

/** The path and authority the upstream sees after the route's rewrites. */
function rewrite(route: Json, action: Json, path: string, host: string): { path: string; authority: string } {
  const q = path.indexOf('?');
  let p = q < 0 ? path : path.slice(0, q);
  const query = q < 0 ? '' : path.slice(q);
  const m = isObj(route.match) ? route.match : {};
  const matched =
    typeof m.prefix === 'string'
      ? m.prefix
      : typeof m.path === 'string'
        ? m.path
        : typeof m.pathSeparatedPrefix === 'string'
          ? m.pathSeparatedPrefix
          : undefined;
  if (typeof action.prefixRewrite === 'string' && matched !== undefined && p.toLowerCase().startsWith(matched.toLowerCase())) {
    p = action.prefixRewrite + p.slice(matched.length);
  } else if (isObj(action.regexRewrite) && isObj(action.regexRewrite.pattern)) {
    try {
      const re = new RegExp(str(action.regexRewrite.pattern.regex).replace(/\(\?P</g, '(?<'), 'g');
      p = p.replace(re, str(action.regexRewrite.substitution).replace(/\\(\d)/g, '$$$1'));
    } catch {
      // An unreadable pattern leaves the path as it is.
    }
  }
  return { path: p + query, authority: typeof action.hostRewriteLiteral === 'string' ? action.hostRewriteLiteral : host };
}

/** The RBAC verdict at each destination endpoint that is a sidecar of the mesh (rbacVerdict.ts). */
function rbacSteps(view: ConfigView, gen: GeneratedConfig, res: RequestResult, call: Parameters<typeof endpointVerdict>[4]): void {
  if (!res.ok) return;
  const verdicts: RbacEndpointVerdict[] = [];
  const weightOfCluster = new Map(res.clusters.map((c) => [c.name, c.weight]));
  for (const eps of res.endpoints)
    for (const ep of eps.addresses) {
      const v = endpointVerdict(view, gen, eps.cluster, ep, call);
      if (v) verdicts.push(v);
    }
  if (verdicts.length === 0) return;
  res.rbac = verdicts;
  const groups = new Map<string, RbacEndpointVerdict[]>();
  for (const v of verdicts) {
    const k = `${v.verdict}\u0000${v.reason}\u0000${v.principal ?? ''}\u0000${v.notes.join('\u0000')}`;
    const g = groups.get(k);
    if (g) g.push(v);
    else groups.set(k, [v]);
  }
  for (const g of groups.values()) {
    const v = g[0] as RbacEndpointVerdict;
    const where = [...new Set(g.map((x) => x.proxy))];
    const detail = [
      `at ${where.length <= 3 ? where.join(', ') : `${where.length} workloads (${where.slice(0, 3).join(', ')}, …)`}`,
      v.mtls ? (v.principal ? `mTLS, source principal ${v.principal}` : 'mTLS') : 'plaintext',
      ...v.notes,
    ].join('; ');
    const ref = v.policy ? policyProvenance(view, v.policy) : undefined;
    res.steps.push({ kind: 'rbac', title: v.verdict === 'refused' ? v.reason : `RBAC ${v.reason}`, detail, ...(ref ? { ref } : {}) });
  }
  const blocked = verdicts.filter((v) => v.verdict !== 'allow');
  if (blocked.length === verdicts.length) {
    res.ok = false;
    const denied = blocked.some((v) => v.verdict === 'deny');
    res.failure = denied ? 'RBAC: access denied' : (blocked[0] as RbacEndpointVerdict).reason;
    res.status = denied ? 403 : 503;
    res.steps.push({
      kind: 'failure',
      title: denied ? 'RBAC: access denied (403)' : `connection refused (503): ${(blocked[0] as RbacEndpointVerdict).reason}`,
      status: 'fail',
      code: res.status,
      share: 100,
    });
  } else if (blocked.length > 0) {
    const share = (() => {
      let total = 0;
      for (const c of new Set(blocked.map((b) => b.cluster))) {
        const all = verdicts.filter((v) => v.cluster === c).length;
        const bad = blocked.filter((v) => v.cluster === c).length;
        total += ((weightOfCluster.get(c) ?? 100) * bad) / all;
      }
      return Math.round(total * 100) / 100;
    })();
    res.steps.push({
      kind: 'failure',
      title: `about ${share}% of requests are refused (${blocked.length} of ${verdicts.length} endpoints deny or refuse)`,
      status: 'fail',
      share,
    });
  }
}

function weightOf(w: unknown): number {
  if (typeof w === 'number') return w;
  if (isObj(w)) return Number(w.value ?? 0);
  return 0;
}

/** The route configuration an HCM of the chain carries inline, by name ('' for any: the simulation names only RDS ones). */
function inlineRouteConfig(chain: Json | undefined, name: string): Json | undefined {
  for (const f of arr(chain?.filters)) {
    if (!isObj(f) || !isObj(f.typedConfig) || !isObj(f.typedConfig.routeConfig)) continue;
    if (name === '' || str(f.typedConfig.routeConfig.name) === name) return f.typedConfig.routeConfig;
  }
  return undefined;
}

function chainOf(gen: GeneratedConfig, listener: string, index: number): Json | undefined {
  const l = gen.listeners.find((x) => x.name === listener);
  if (!l) return undefined;
  const c = index < 0 ? l.defaultFilterChain : arr(l.filterChains)[index];
  return isObj(c) ? c : undefined;
}

function weightedTcp(chain: Json | undefined): WeightedCluster[] {
  for (const f of arr(chain?.filters)) {
    if (!isObj(f) || !isObj(f.typedConfig)) continue;
    const wc = f.typedConfig.weightedClusters;
    if (!isObj(wc)) continue;
    const list = arr(wc.clusters).filter(isObj) as Json[];
    const total = list.reduce((s, c) => s + weightOf(c.weight), 0) || 1;
    return list.map((c) => ({ name: str(c.name), weight: Math.round((weightOf(c.weight) * 10000) / total) / 100 }));
  }
  return [];
}

function describeRouteMatch(r: Json): string {
  const m = isObj(r.match) ? r.match : {};
  const parts: string[] = [];
  if (typeof m.prefix === 'string') parts.push(m.prefix === '/' ? 'any path' : `path prefix ${m.prefix}`);
  if (typeof m.path === 'string') parts.push(`path ${m.path}`);
  if (typeof m.pathSeparatedPrefix === 'string') parts.push(`path prefix ${m.pathSeparatedPrefix}/`);
  if (isObj(m.safeRegex)) parts.push(`path regex ${str(m.safeRegex.regex)}`);
  for (const h of arr(m.headers)) if (isObj(h)) parts.push(`header ${str(h.name)}`);
  for (const q of arr(m.queryParameters)) if (isObj(q)) parts.push(`query ${str(q.name)}`);
  return parts.join(', ');
}

// ---- waypoints ------------------------------------------------------------------------------

/**
 * A request through a waypoint: ztunnel tunnels it (HBONE) to connect_terminate, whose CONNECT
 * route hands the inner connection to main_internal; its filter chain matcher picks the chain by
 * destination address, port and (sniffed) protocol; an HTTP chain routes with its inline route
 * configuration, a TCP chain's tcp_proxy names the cluster.
 */
function simulateWaypointRequest(
  view: ConfigView,
  gen: GeneratedConfig,
  input: RequestInput,
  res: RequestResult,
  host: string,
  protocol: RequestProtocol,
  port: number,
): RequestResult {
  const failWith = (why: string, status?: number) => fail(res, why, status);
  const dest = resolveDestination(view, gen.proxy.configNamespace, host);
  const address = dest.address ?? (isIP(hostOnly(host)) ? hostOnly(host) : undefined);
  res.steps.push({
    kind: 'destination',
    title: `${host}:${port}`,
    detail: dest.service
      ? `service ${dest.service}${address ? `, address ${address}` : ' (no address)'}`
      : address
        ? `address ${address}`
        : 'not a service of the registry',
  });
  if (!address) return failWith('no address to match: the waypoint matches the destination IP (a service VIP or a workload address)');
  res.steps.push({
    kind: 'listener',
    title: 'connect_terminate',
    detail: 'ztunnel tunnels the connection to the waypoint over HBONE (port 15008); the CONNECT route hands it to main_internal',
    at: { table: 'listeners', key: 'connect_terminate' },
  });
  const mi = gen.listeners.find((l) => l.name === 'main_internal');
  if (!mi) return failWith('the waypoint has no main_internal listener');
  res.listener = 'main_internal';
  res.steps.push({
    kind: 'listener',
    title: 'main_internal',
    detail: `internal listener: original destination ${address}:${port}`,
    at: { table: 'listeners', key: 'main_internal' },
  });
  const alpn = protocol === 'http' ? 'http/1.1' : protocol === 'http2' || protocol === 'grpc' ? 'h2c' : '';
  const m = matchFilterChainMatcher(mi, { address, port, applicationProtocol: alpn });
  if (m.chain === undefined) return failWith(`no filter chain of main_internal matches ${address}:${port} (${m.trace.join('; ')}): the connection is closed`);
  const chains = arr(mi.filterChains);
  const index = chains.findIndex((c) => isObj(c) && c.name === m.chain);
  const chain = index >= 0 ? (chains[index] as Json) : undefined;
  res.filterChain = m.chain;
  res.steps.push({
    kind: 'filterChain',
    title: m.chain,
    detail: m.trace.join('; '),
    at: { table: 'filterChains', key: `main_internal/${index < 0 ? 'default' : index}` },
  });
  if (!chain) return failWith(`the matcher names chain ${m.chain}, which main_internal does not have`);
  const filters = arr(chain.filters).filter(isObj) as Json[];
  const hcm = filters.find((f) => f.name === 'envoy.filters.network.http_connection_manager');
  if (hcm && isObj(hcm.typedConfig)) {
    const hc = hcm.typedConfig;
    if (!authorize(view, gen, res, m.chain, true, input, host, address, port)) return res;
    const rc = isObj(hc.routeConfig) ? hc.routeConfig : undefined;
    const rcName = str(rc?.name);
    res.routeConfig = rcName;
    res.steps.push({ kind: 'routeConfig', title: `inline route configuration ${rcName}`, at: { table: 'filterChains', key: `main_internal/${index}` } });
    const vh = arr(rc?.virtualHosts).find((v) => isObj(v) && arr(v.domains).some((d) => d === '*' || d === hostOnly(host))) as Json | undefined;
    if (!vh) return failWith(`no virtual host has the domain ${host}: 404`, 404);
    res.virtualHost = str(vh.name);
    res.steps.push({ kind: 'virtualHost', title: res.virtualHost, detail: `domains ${arr(vh.domains).join(', ')}` });
    return routeRequest(view, gen, res, input, host, protocol, rcName, res.virtualHost, vh, false);
  }
  if (!authorize(view, gen, res, m.chain, false, input, host, address, port)) return res;
  const tcp = filters.find((f) => f.name === 'envoy.filters.network.tcp_proxy');
  if (tcp && isObj(tcp.typedConfig) && typeof tcp.typedConfig.cluster === 'string') clusterStep(view, gen, res, tcp.typedConfig.cluster, 100);
  else {
    const wc = weightedTcp(chain);
    if (wc.length === 0) return failWith('no cluster for this connection');
    for (const w of wc) clusterStep(view, gen, res, w.name, w.weight);
  }
  return res;
}

/**
 * The RBAC verdict of a waypoint chain: the AuthorizationPolicies attached to the chain's
 * service (or to the waypoint), evaluated for the request. The client behind ztunnel is not an
 * input of the simulator, so rules on principals and namespaces do not match. False when denied.
 */
function authorize(
  view: ConfigView,
  gen: GeneratedConfig,
  res: RequestResult,
  chain: string,
  http: boolean,
  input: RequestInput,
  host: string,
  address: string,
  port: number,
): boolean {
  const key = parseSubsetKey(chain);
  const push = pushContext(view);
  const svc = key && key.direction === 'inbound-vip' ? [...(push.hostnameAndNamespace.get(key.host)?.values() ?? [])][0] : undefined;
  const policies = waypointPolicyResources(view, waypointAuthzFor(view, gen.proxy, svc));
  if (policies.length === 0) return true;
  const d = evaluateEnvoy(policies, {
    http,
    method: (input.method || 'GET').toUpperCase(),
    path: input.path || '/',
    host: hostOnly(host),
    headers: input.headers ?? {},
    sourceIdentity: null,
    sourceIp: '',
    destinationIp: address,
    destinationPort: port,
  });
  res.steps.push({
    kind: 'policy',
    title: `RBAC ${d.decision}${d.policy ? ` (${d.policy})` : ''}`,
    detail: [d.why, ...d.notes, 'the client is unknown to the simulator: rules on its identity do not match'].join('; '),
  });
  if (d.decision === 'DENY') {
    res.ok = false;
    res.failure = `RBAC: access denied${d.policy ? ` by ${d.policy}` : ''} (403)`;
    res.steps.push({ kind: 'failure', title: res.failure });
    return false;
  }
  return true;
}
