// Target `xds-simulate`: the request simulator over the config generated for every proxy of
// the Bookinfo samples and the ambient sample (its waypoint). Any request (hosts, IPs, ports,
// methods, paths with regex and query characters, headers, protocols) gives a result and never throws; a request that succeeds
// names clusters that were generated, or says which do not exist (a route to a missing service
// answers 503), or is a redirect / direct response; one that fails says why.
//
// Oracle (fuzz/oracles/routeOracle.ts): for an HTTP request (http, http2, grpc) that the
// simulator sends through an HTTP connection manager, the virtual host, route and action it
// reports must be the ones Envoy picks from the generated RouteConfiguration, as
// fuzz/oracles/envoyRouteMatcher.ts (written from Envoy's docs and sources, sharing no code with
// the simulator) reads it. The listener and filter chain are taken from the simulator (not
// modelled); everything else is skipped and counted, and a run that compares nothing fails.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { answerQuery, QueryError, type QueryState } from '../../src/core/queries/index.ts';
import { resourcesOfDump } from '../../src/core/xds/diff.ts';
import { FuzzFailure, describeError } from '../failure.ts';
import type { CheckOutcome, CheckOptions, Target } from '../target.ts';
import { compareWithRouteOracle, countSkipped, routeOracleReport } from '../oracles/routeOracle.ts';

export interface XdsSimulateInput {
  sample: 'bookinfo' | 'bookinfo-mistakes' | 'ambient' | 'routes';
  proxy: number;
  host: string;
  port: number;
  protocol: 'http' | 'http2' | 'grpc' | 'tcp' | 'tls';
  method: string;
  path: string;
  headers: Record<string, string>;
}

const SAMPLES = fileURLToPath(new URL('../../public/samples/', import.meta.url));
const FILES = ['platform.yaml', 'bookinfo.yaml', 'networking.yaml', 'destination-rules.yaml', 'pods.yaml'];
// The ambient sample's proxies include the shop waypoint (main_internal's matcher, inline routes, RBAC verdicts).
const FILES_OF: Record<string, readonly string[]> = { ambient: ['namespaces.yaml', 'policies.yaml', 'waypoint.yaml', 'workloads.yaml'] };
// `routes`: Bookinfo's workloads with the oracle's own routes (every match kind Istio writes).
const ROUTES_NETWORKING = fileURLToPath(new URL('../oracles/routes-networking.yaml', import.meta.url));

function sampleFiles(sample: string): { path: string; text: string }[] {
  if (sample === 'routes') {
    return [
      ...['platform.yaml', 'bookinfo.yaml', 'destination-rules.yaml', 'pods.yaml'].map((f) => ({
        path: f,
        text: readFileSync(`${SAMPLES}bookinfo/${f}`, 'utf8'),
      })),
      { path: 'networking.yaml', text: readFileSync(ROUTES_NETWORKING, 'utf8') },
    ];
  }
  return (FILES_OF[sample] ?? FILES).map((f) => ({ path: f, text: readFileSync(`${SAMPLES}${sample}/${f}`, 'utf8') }));
}
const states = new Map<string, Promise<QueryState>>();

function stateOf(sample: string): Promise<QueryState> {
  let p = states.get(sample);
  if (!p) {
    p = (async () => {
      const w = new WorkspaceAnalyzer();
      w.update(sampleFiles(sample), []);
      await w.run(defaultAnalysisSettings());
      return w.analyzedState()!;
    })();
    states.set(sample, p);
  }
  return p;
}

const HOSTS = [
  'products.shop.svc.cluster.local',
  'cart.shop',
  'reviews',
  'reviews:9080',
  'reviews.bookinfo',
  'reviews.bookinfo.svc.cluster.local',
  'ratings',
  'details',
  'productpage',
  'istio-ingressgateway.istio-system',
  'bookinfo.example.com',
  '*',
  '',
  ' ',
  '10.0.0.1',
  '::1',
  '[::1]:80',
  '0.0.0.0',
  'a:b:c',
  'é.example',
  '.',
  'reviews.',
];
// Hosts, paths and headers the `routes` sample's matches tell apart (case, ports, wildcards, queries).
const ROUTE_HOSTS = [
  'bookinfo.example.com',
  'BookInfo.Example.com',
  'bookinfo.example.com:80',
  'x.example.com',
  '.example.com',
  'example.com',
  'cart.shop.example.com',
  'a.shop.example.com:8080',
  'Reviews',
  'REVIEWS.bookinfo:9080',
  'ratings',
  'Ratings.Bookinfo.Svc.Cluster.Local',
  'details.bookinfo.svc.cluster.local.',
  'api.example.org',
  'API.example.org:8000',
  'v2.api.example.org',
  '.api.example.org',
  'secure.example.org',
  'other.example.org',
];
const ROUTE_PATHS = [
  '/productpage',
  '/PRODUCTPAGE',
  '/productpage/',
  '/static/x',
  '/STATIC/a',
  '/Static',
  '/api/v1/products',
  '/api/v12/products/3',
  '/api/vx/products',
  '/api/v1/products?x=1',
  '/reviews',
  '/reviews/1',
  '/REVIEWS/1/x',
  '/Reviews',
  '/reviews?version=v2',
  '/r?version=x',
  '/rat?version=v1&version=x',
  '/rat?Version=v1',
  '/old',
  '/old/x',
  '/oldx',
  '/health',
  '/healthz',
  '/details/x',
  '/?debug=1',
  '/x?debug=1&debug=2',
  '/x?debug=2&debug=1',
  '/x?user',
  '/x?user=',
  '/x?users=1',
];
const PATHS = [
  '/',
  '/reviews/1',
  '/productpage',
  '/static/x',
  '/api/v1/products/1',
  '',
  '?',
  '/?a=b&c',
  '/a/../b',
  '/(',
  '/[',
  '/*',
  '/\\',
  '/%2F',
  '/' + 'a'.repeat(300),
];

const clusterNames = new Map<string, Set<string>>();
const dumpResources = new Map<string, ReturnType<typeof resourcesOfDump>>();

export async function checkXdsSimulate(input: XdsSimulateInput, options: CheckOptions): Promise<CheckOutcome> {
  const state = await stateOf(input.sample);
  const proxies = answerQuery('proxies', {}, state).items;
  const proxy = proxies[input.proxy % proxies.length]!;
  const key = `${input.sample}/${proxy.id}`;
  let known = clusterNames.get(key);
  let resources = dumpResources.get(key);
  if (!known || !resources) {
    resources = resourcesOfDump(answerQuery('proxyConfig', { proxy: proxy.id }, state).dump);
    known = new Set(resources.clusters.map((c) => String(c.name)));
    clusterNames.set(key, known);
    dumpResources.set(key, resources);
  }
  const t0 = performance.now();
  let r;
  try {
    r = answerQuery(
      'simulate',
      { proxy: proxy.id, host: input.host, port: input.port, protocol: input.protocol, method: input.method, path: input.path, headers: input.headers },
      state,
    );
  } catch (e) {
    if (e instanceof QueryError && input.host.trim() === '') {
      countSkipped('empty host (the simulate query refuses it)');
      return 'ok';
    }
    throw new FuzzFailure('crash', `simulate threw ${describeError(e)}`);
  }
  const ms = performance.now() - t0;
  if (ms > options.timeLimitMs) throw new FuzzFailure('hang', `simulate took ${ms.toFixed(0)} ms`);
  const verdict = compareWithRouteOracle(input, r, resources);
  if (verdict) throw new FuzzFailure('divergence', `${verdict} (${proxy.id})`);
  if (r.ok) {
    if (r.clusters.length === 0 && !r.redirect && !r.directResponse && !r.steps.some((s) => s.kind === 'cluster'))
      throw new FuzzFailure('divergence', `a successful request with no cluster, redirect or response: ${JSON.stringify(r.steps)}`);
    for (const c of r.clusters) {
      if (known.has(c.name) || c.name === 'PassthroughCluster') continue;
      // A route to a destination with no service: allowed only when the result says so.
      if (!r.steps.some((s) => s.kind === 'failure' && s.title.includes(c.name)))
        throw new FuzzFailure('divergence', `the route names cluster ${c.name}, which was not generated for ${proxy.id}, and the result does not say so`);
    }
  } else if (!r.failure || /undefined|\[object/.test(r.failure)) {
    throw new FuzzFailure('divergence', `a failed request without a sane reason: ${JSON.stringify(r.failure)}`);
  }
  return 'ok';
}

export const xdsSimulateTarget: Target<XdsSimulateInput> = {
  name: 'xds-simulate',
  description: 'request simulator over generated config: never throws, clusters exist, failures say why; HTTP routing equals an Envoy route matcher of our own',
  // A third of the inputs are anything; two thirds are well-formed HTTP requests to the ports that route
  // (80, the gateway's, and 9080, Bookinfo's), which the route oracle can compare.
  arbitrary: () =>
    fc.oneof(
      {
        weight: 1,
        arbitrary: fc.record({
          sample: fc.constantFrom('bookinfo' as const, 'bookinfo-mistakes' as const, 'ambient' as const, 'routes' as const),
          proxy: fc.nat(20),
          host: fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...HOSTS) },
            { weight: 1, arbitrary: fc.constantFrom(...ROUTE_HOSTS) },
            { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
          ),
          port: fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(80, 443, 8080, 9080, 9090, 15008, 15021, 15006, 15001) },
            { weight: 1, arbitrary: fc.integer({ min: -5, max: 70000 }) },
          ),
          protocol: fc.constantFrom('http' as const, 'http2' as const, 'grpc' as const, 'tcp' as const, 'tls' as const),
          method: fc.constantFrom('GET', 'POST', 'get', '', 'PURGE', ' '),
          path: fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom(...PATHS) },
            { weight: 1, arbitrary: fc.constantFrom(...ROUTE_PATHS) },
            { weight: 1, arbitrary: fc.string({ maxLength: 16 }).map((s) => `/${s}`) },
          ),
          headers: fc.dictionary(
            fc.constantFrom('end-user', 'x-user', ':method', 'content-type', 'Host', ''),
            fc.constantFrom('jason', 'POST', 'application/grpc', '', '*'),
            { maxKeys: 3 },
          ),
        }),
      },
      {
        weight: 2,
        arbitrary: fc
          .record({
            sample: fc.constantFrom('routes' as const, 'routes' as const, 'bookinfo' as const, 'ambient' as const),
            // Proxy 0 is the ingress gateway (wildcard domains, most routes), reached on ports 80 and 8000.
            at: fc.oneof(
              fc.constantFrom({ proxy: 0, port: 80 }, { proxy: 0, port: 8000 }),
              fc.record({ proxy: fc.nat(20), port: fc.constantFrom(80, 9080, 9090) }),
            ),
            host: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ROUTE_HOSTS) }, { weight: 1, arbitrary: fc.constantFrom(...HOSTS) }),
            protocol: fc.constantFrom('http' as const, 'http2' as const, 'grpc' as const),
            method: fc.constantFrom('GET', 'POST', 'post', 'PUT', ''),
            path: fc.oneof(
              { weight: 4, arbitrary: fc.constantFrom(...ROUTE_PATHS) },
              { weight: 1, arbitrary: fc.stringMatching(/^\/[A-Za-z0-9/._-]{0,12}(\?[a-z=&]{0,8})?$/) },
            ),
            headers: fc.dictionary(
              fc.constantFrom('end-user', 'End-User', 'x-user', 'X-User', 'content-type'),
              fc.constantFrom('jason', 'Jason', 'test1', 'atest', 'a', 'ba', '', 'application/grpc', 'application/grpc+proto', 'application/grpcx'),
              { maxKeys: 2 },
            ),
          })
          .map(({ at, ...r }) => ({ ...r, ...at })),
      },
    ),
  check: checkXdsSimulate,
  report: routeOracleReport,
  async: true,
  // ~1 s: enough for the oracle to meet each kind of route (a mutant that ignores case_sensitive fails it).
  smokeRuns: 2000,
};
