// The simulator's verdict and the texts of its causes (issue "views with room").
//
// Facts the expected values come from:
// - Envoy's router (source/common/router/router.cc, Filter::decodeHeaders): when the route's
//   cluster is not among the proxy's clusters, `getThreadLocalCluster(route_entry_->clusterName())`
//   is null, the router sets response flag NoClusterFound (NC in %RESPONSE_FLAGS%) and sends
//   `clusterNotFoundResponseCode()` (RouteAction.cluster_not_found_response_code, default
//   SERVICE_UNAVAILABLE: 503) with details `cluster_not_found`. With weighted clusters the router
//   picks one cluster per request by weight, so only that cluster's share of requests gets it.
// - Istio names a route's destination `outbound|<port>|<subset>|<host>` (model.BuildSubsetKey)
//   whether or not it creates that cluster, and creates subset clusters only for the subsets the
//   host's DestinationRule defines (pilot/pkg/networking/core/cluster_builder.go:
//   buildSubsetCluster, called for each of destinationRule.Subsets).
// - Envoy's router answers 404 with flag NR when no route (or virtual host) matches.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { viewOf, generateFor } from './helpers.ts';
import { noListenerReason, simulateRequest } from '../../src/core/xds/request.ts';
import type { GeneratedConfig } from '../../src/core/xds/generate.ts';

const SAMPLE = join(import.meta.dirname, '../../public/samples/bookinfo-mistakes');
const FILES = Object.fromEntries(
  readdirSync(SAMPLE)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => [f, readFileSync(join(SAMPLE, f), 'utf8')]),
);

const V3 = 'outbound|9080|v3|reviews.bookinfo.svc.cluster.local';
const V1 = 'outbound|9080|v1|reviews.bookinfo.svc.cluster.local';

/** The sample with its edits: `files` replaces whole files, `edit` rewrites one file's text. */
function sample(edit: Partial<Record<string, (t: string) => string>> = {}): string {
  return Object.entries(FILES)
    .map(([f, t]) => (edit[f] ? edit[f]!(t) : t))
    .join('\n---\n');
}

/** The reviews DestinationRule without subset v3 (the reporter's workspace). */
const dropV3 = (t: string) => t.replace('    - name: v3\n      labels:\n        version: v3\n', '');
/** The reviews VirtualService routing `weights` to the subsets given. */
const reviewsTo = (routes: [string, number][]) => (t: string) =>
  t.replace(
    / {4}- route:\n {8}- destination:\n {12}host: reviews\n {12}subset: v1\n {10}weight: 75\n {8}- destination:\n {12}host: reviews2\n {10}weight: 25\n/,
    `    - route:\n${routes.map(([s, w]) => `        - destination:\n            host: reviews\n            subset: ${s}\n          weight: ${w}\n`).join('')}`,
  );

function fromProductpage(text: string, input: { host?: string; port?: number; path?: string } = {}) {
  const view = viewOf(text);
  const gen = generateFor(view, 'productpage-v1', 'bookinfo');
  return { gen, res: simulateRequest(view, gen, { host: 'reviews', port: 9080, path: '/reviews/1', ...input }) };
}

describe('a route to a subset no DestinationRule defines (503 NC for its share)', () => {
  it('names the missing subset, the DestinationRule that lacks it, and the share from the weights (80/20)', () => {
    const { gen, res } = fromProductpage(
      sample({
        'destination-rules.yaml': dropV3,
        'networking.yaml': reviewsTo([
          ['v1', 80],
          ['v3', 20],
        ]),
      }),
    );
    // Istio made no v3 cluster: the DestinationRule defines v1 and v2 only.
    expect(gen.clusters.map((c) => c.name)).toContain(V1);
    expect(gen.clusters.map((c) => c.name)).not.toContain(V3);
    expect(res.clusters).toEqual([
      { name: V1, weight: 80 },
      { name: V3, weight: 20 },
    ]);
    // 80% still reach v1: the request is forwarded, 20% fail.
    expect(res.ok).toBe(true);
    expect(res.verdict).toMatchObject({
      outcome: 'partial',
      status: 503,
      flags: ['NC'],
      share: 20,
      causes: [`20% of requests get 503 NC: subset v3 is not defined in DestinationRule bookinfo/reviews, so Istio creates no cluster ${V3}`],
    });
    expect(res.verdict.summary).toBe('Fails for 20% of requests (503)');
    expect(res.verdict.endedAt).toBe(`cluster ${V3} (20%)`);
    // The failing step is the v3 cluster (and the failure line after it), and it is marked.
    const failing = res.verdict.failingSteps.map((i) => res.steps[i]!);
    expect(failing.map((s) => s.kind)).toEqual(['cluster', 'failure']);
    expect(failing[0]).toMatchObject({ title: `${V3} (20%)`, status: 'fail', code: 503, flags: ['NC'], share: 20 });
    expect(failing[0]!.detail).toContain(`subset v3 is not defined in DestinationRule bookinfo/reviews, so Istio creates no cluster ${V3}`);
    // The v1 cluster step is not failing.
    expect(res.steps.find((s) => s.kind === 'cluster' && s.title.startsWith(V1))!.status).toBeUndefined();
    // The old text blamed a missing Service; reviews exists.
    expect(JSON.stringify(res)).not.toContain('no service for the destination');
  });

  it('adds up the shares of several missing subsets (weights 50/30/20, v2 and v3 missing)', () => {
    const dropV2V3 = (t: string) => dropV3(t).replace('    - name: v2\n      labels:\n        version: v2\n', '');
    const { res } = fromProductpage(
      sample({
        'destination-rules.yaml': dropV2V3,
        'networking.yaml': reviewsTo([
          ['v1', 50],
          ['v2', 30],
          ['v3', 20],
        ]),
      }),
    );
    expect(res.verdict).toMatchObject({ outcome: 'partial', status: 503, flags: ['NC'], share: 50 });
    expect(res.verdict.causes).toEqual([
      '30% of requests get 503 NC: subset v2 is not defined in DestinationRule bookinfo/reviews, so Istio creates no cluster outbound|9080|v2|reviews.bookinfo.svc.cluster.local',
      `20% of requests get 503 NC: subset v3 is not defined in DestinationRule bookinfo/reviews, so Istio creates no cluster ${V3}`,
    ]);
  });

  it('weights that do not add up to 100 are shares of their sum (Envoy picks by weight / total)', () => {
    const { res } = fromProductpage(
      sample({
        'destination-rules.yaml': dropV3,
        'networking.yaml': reviewsTo([
          ['v1', 3],
          ['v3', 1],
        ]),
      }),
    );
    expect(res.verdict.share).toBe(25);
    expect(res.verdict.causes).toEqual([
      `25% of requests get 503 NC: subset v3 is not defined in DestinationRule bookinfo/reviews, so Istio creates no cluster ${V3}`,
    ]);
  });

  it('says that no DestinationRule for the host exists, and fails the whole request when every cluster is missing', () => {
    const noReviewsDr = (t: string) =>
      t.replace(/---\napiVersion: networking.istio.io\/v1\nkind: DestinationRule\nmetadata:\n {2}name: reviews\n[\s\S]*?(?=---)/, '');
    const { gen, res } = fromProductpage(sample({ 'destination-rules.yaml': noReviewsDr, 'networking.yaml': reviewsTo([['v3', 100]]) }));
    expect(gen.clusters.map((c) => String(c.name)).filter((n) => n.endsWith('|reviews.bookinfo.svc.cluster.local'))).toEqual([
      'outbound|9080||reviews.bookinfo.svc.cluster.local',
    ]);
    expect(res.ok).toBe(false);
    expect(res.status).toBe(503);
    expect(res.failure).toBe(
      'Envoy answers 503 NC: subset v3 is not defined: no DestinationRule for reviews.bookinfo.svc.cluster.local applies to this proxy, so Istio creates no cluster ' +
        V3,
    );
    expect(res.verdict).toMatchObject({
      outcome: 'fail',
      status: 503,
      flags: ['NC'],
      share: 100,
      summary: 'Fails: Envoy answers 503',
      endedAt: `cluster ${V3}`,
    });
    expect(res.verdict.causes[0]).toBe(res.failure);
  });

  it('the sample as shipped: 25% go to reviews2, which is no Service (the cause names the missing Service, not a subset)', () => {
    const { res } = fromProductpage(sample());
    expect(res.verdict).toMatchObject({ outcome: 'partial', status: 503, flags: ['NC'], share: 25 });
    expect(res.verdict.causes).toEqual([
      '25% of requests get 503 NC: no Service or ServiceEntry reviews2.bookinfo.svc.cluster.local exists, so Istio creates no cluster outbound|9080||reviews2.bookinfo.svc.cluster.local',
    ]);
  });

  it('a request that reaches its clusters has an ok verdict and no failing step', () => {
    const { res } = fromProductpage(
      sample({
        'networking.yaml': reviewsTo([
          ['v1', 80],
          ['v3', 20],
        ]),
      }),
    );
    expect(res.verdict).toMatchObject({ outcome: 'ok', flags: [], share: 0, causes: [], failingSteps: [] });
    expect(res.verdict.summary).toBe('Forwarded to 2 clusters');
  });

  it('no route: 404 NR, the virtual host is the failing step', () => {
    const { res } = fromProductpage(
      sample({
        'networking.yaml': (t) =>
          t.replace('    - timeout: 5s\n      route:', '    - timeout: 5s\n      match:\n        - uri:\n            prefix: /details\n      route:'),
      }),
      { host: 'details', path: '/other' },
    );
    expect(res.verdict).toMatchObject({ outcome: 'fail', status: 404, flags: ['NR'] });
    expect(res.steps[res.verdict.failingSteps[0]!]!.kind).toBe('virtualHost');
  });
});

describe('no listener matched: the ports the proxy listens on, and the closest listener', () => {
  const listener = (name: string, address: string, port: number) => ({ name, address: { socketAddress: { address, portValue: port } } });
  const gen = (ls: object[]) => ({ listeners: ls }) as unknown as GeneratedConfig;

  it('lists the ports in order and picks the nearest port', () => {
    const g = gen([listener('0.0.0.0_8443', '0.0.0.0', 8443), listener('0.0.0.0_8080', '0.0.0.0', 8080), listener('0.0.0.0_15021', '0.0.0.0', 15021)]);
    expect(noListenerReason(g, undefined, 9000)).toBe(
      'no listener matched: nothing listens on port 9000; the proxy listens on ports 8080, 8443, 15021; the closest listener is 0.0.0.0_8443 (0.0.0.0:8443)',
    );
  });

  it('prefers a listener on the request address over a nearer port elsewhere', () => {
    const g = gen([listener('10.0.0.9_81', '10.0.0.9', 81), listener('10.0.0.1_443', '10.0.0.1', 443)]);
    expect(noListenerReason(g, '10.0.0.1', 80)).toBe(
      'no listener matched: nothing listens on port 80; the proxy listens on ports 81, 443; the closest listener is 10.0.0.1_443 (10.0.0.1:443)',
    );
  });

  it('a gateway asked on a port it has no server for', () => {
    const text = [
      'apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: web, namespace: shop}\nspec:\n  gatewayClassName: istio\n  listeners:\n  - {name: http, port: 80, protocol: HTTP}\n',
      'apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: reviews, namespace: shop}\nspec:\n  parentRefs: [{name: web}]\n  rules:\n  - backendRefs: [{name: reviews, port: 9080}]\n',
      'apiVersion: v1\nkind: Service\nmetadata: {name: reviews, namespace: shop}\nspec: {selector: {app: reviews}, ports: [{name: http, port: 9080}]}\n',
    ].join('---\n');
    const view = viewOf(text);
    const g = generateFor(view, 'web-istio', 'shop');
    const res = simulateRequest(view, g, { host: 'shop.example.com', port: 9000, path: '/' });
    expect(res.ok).toBe(false);
    expect(res.failure).toBe(
      'no listener matched: nothing listens on port 9000; the proxy listens on port 80; the closest listener is 0.0.0.0_80 (0.0.0.0:80)',
    );
    expect(res.verdict).toMatchObject({ outcome: 'fail', flags: [], endedAt: 'destination shop.example.com:9000' });
  });
});
