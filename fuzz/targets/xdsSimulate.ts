// Target `xds-simulate`: the request simulator over the config generated for every proxy of
// the Bookinfo samples and the ambient sample (its waypoint). Any request (hosts, IPs, ports,
// methods, paths with regex and query characters, headers, protocols) gives a result and never throws; a request that succeeds
// names clusters that were generated, or says which do not exist (a route to a missing service
// answers 503), or is a redirect / direct response; one that fails says why.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { answerQuery, QueryError, type QueryState } from '../../src/core/queries/index.ts';
import { resourcesOfDump } from '../../src/core/xds/diff.ts';
import { FuzzFailure, describeError } from '../failure.ts';
import type { CheckOutcome, CheckOptions, Target } from '../target.ts';

export interface XdsSimulateInput {
  sample: 'bookinfo' | 'bookinfo-mistakes' | 'ambient';
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
const states = new Map<string, Promise<QueryState>>();

function stateOf(sample: string): Promise<QueryState> {
  let p = states.get(sample);
  if (!p) {
    p = (async () => {
      const w = new WorkspaceAnalyzer();
      w.update((FILES_OF[sample] ?? FILES).map((f) => ({ path: f, text: readFileSync(`${SAMPLES}${sample}/${f}`, 'utf8') })), []);
      await w.run(defaultAnalysisSettings());
      return w.analyzedState()!;
    })();
    states.set(sample, p);
  }
  return p;
}

const HOSTS = ['products.shop.svc.cluster.local', 'cart.shop', 'reviews', 'reviews:9080', 'reviews.bookinfo', 'reviews.bookinfo.svc.cluster.local', 'ratings', 'details', 'productpage', 'istio-ingressgateway.istio-system', 'bookinfo.example.com', '*', '', ' ', '10.0.0.1', '::1', '[::1]:80', '0.0.0.0', 'a:b:c', 'é.example', '.', 'reviews.'];
const PATHS = ['/', '/reviews/1', '/productpage', '/static/x', '/api/v1/products/1', '', '?', '/?a=b&c', '/a/../b', '/(', '/[', '/*', '/\\', '/%2F', '/' + 'a'.repeat(300)];

const clusterNames = new Map<string, Set<string>>();

export async function checkXdsSimulate(input: XdsSimulateInput, options: CheckOptions): Promise<CheckOutcome> {
  const state = await stateOf(input.sample);
  const proxies = answerQuery('proxies', {}, state).items;
  const proxy = proxies[input.proxy % proxies.length]!;
  const key = `${input.sample}/${proxy.id}`;
  let known = clusterNames.get(key);
  if (!known) {
    known = new Set(resourcesOfDump(answerQuery('proxyConfig', { proxy: proxy.id }, state).dump).clusters.map((c) => String(c.name)));
    clusterNames.set(key, known);
  }
  const t0 = performance.now();
  let r;
  try {
    r = answerQuery('simulate', { proxy: proxy.id, host: input.host, port: input.port, protocol: input.protocol, method: input.method, path: input.path, headers: input.headers }, state);
  } catch (e) {
    if (e instanceof QueryError && input.host.trim() === '') return 'ok';
    throw new FuzzFailure('crash', `simulate threw ${describeError(e)}`);
  }
  const ms = performance.now() - t0;
  if (ms > options.timeLimitMs) throw new FuzzFailure('hang', `simulate took ${ms.toFixed(0)} ms`);
  if (r.ok) {
    if (r.clusters.length === 0 && !r.redirect && !r.directResponse && !r.steps.some((s) => s.kind === 'cluster')) throw new FuzzFailure('divergence', `a successful request with no cluster, redirect or response: ${JSON.stringify(r.steps)}`);
    for (const c of r.clusters) {
      if (known.has(c.name) || c.name === 'PassthroughCluster') continue;
      // A route to a destination with no service: allowed only when the result says so.
      if (!r.steps.some((s) => s.kind === 'failure' && s.title.includes(c.name))) throw new FuzzFailure('divergence', `the route names cluster ${c.name}, which was not generated for ${proxy.id}, and the result does not say so`);
    }
  } else if (!r.failure || /undefined|\[object/.test(r.failure)) {
    throw new FuzzFailure('divergence', `a failed request without a sane reason: ${JSON.stringify(r.failure)}`);
  }
  return 'ok';
}

export const xdsSimulateTarget: Target<XdsSimulateInput> = {
  name: 'xds-simulate',
  description: 'request simulator over generated config: never throws, clusters exist, failures say why',
  arbitrary: () =>
    fc.record({
      sample: fc.constantFrom('bookinfo' as const, 'bookinfo-mistakes' as const, 'ambient' as const),
      proxy: fc.nat(20),
      host: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...HOSTS) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }),
      port: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(80, 443, 8080, 9080, 9090, 15008, 15021, 15006, 15001) }, { weight: 1, arbitrary: fc.integer({ min: -5, max: 70000 }) }),
      protocol: fc.constantFrom('http' as const, 'http2' as const, 'grpc' as const, 'tcp' as const, 'tls' as const),
      method: fc.constantFrom('GET', 'POST', 'get', '', 'PURGE', ' '),
      path: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PATHS) }, { weight: 1, arbitrary: fc.string({ maxLength: 16 }).map((s) => `/${s}`) }),
      headers: fc.dictionary(fc.constantFrom('end-user', 'x-user', ':method', 'content-type', 'Host', ''), fc.constantFrom('jason', 'POST', 'application/grpc', '', '*'), { maxKeys: 3 }),
    }),
  check: checkXdsSimulate,
  async: true,
  smokeRuns: 300,
};
