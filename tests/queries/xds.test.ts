// The xDS query views over the analyzed Bookinfo sample: proxies, the generated config dump
// with provenance resolved to file lines, the request simulator, and "what changes".
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { answerQuery, QueryError, type QueryState } from '../../src/core/queries/index.ts';
import { diffResources, resourcesOfDump } from '../../src/core/xds/diff.ts';

const DIR = resolve(__dirname, '../../public/samples/bookinfo');
const FILES = ['platform.yaml', 'bookinfo.yaml', 'networking.yaml', 'destination-rules.yaml', 'pods.yaml'];

function files(edit?: (name: string, text: string) => string) {
  return FILES.map((f) => {
    const text = readFileSync(join(DIR, f), 'utf8');
    return { path: f, text: edit ? edit(f, text) : text };
  });
}

async function analyzed(fs = files()): Promise<QueryState> {
  const w = new WorkspaceAnalyzer();
  w.update(fs, []);
  const r = await w.run(defaultAnalysisSettings());
  expect(r).not.toBe('canceled');
  return w.analyzedState()!;
}

const PRODUCTPAGE = (s: QueryState) => answerQuery('proxies', {}, s).items.find((p) => p.name.startsWith('productpage'))!.id;

describe('xds queries', () => {
  it('lists the sidecars of Bookinfo', async () => {
    const s = await analyzed();
    const items = answerQuery('proxies', {}, s).items;
    const sidecars = items.filter((p) => p.type === 'sidecar');
    expect(sidecars.map((p) => p.name.split('-')[0]).sort()).toEqual(['details', 'productpage', 'ratings', 'reviews', 'reviews', 'reviews']);
    expect(sidecars.every((p) => p.namespace === 'bookinfo' && p.source?.file === 'pods.yaml')).toBe(true);
    // Pods written in the files are derived from nothing.
    expect(sidecars.every((p) => !p.derived && p.derivedFrom === undefined)).toBe(true);
    // The analysis assumes Istio's ingress gateway (the workspace has none): a router proxy.
    expect(items.filter((p) => p.type === 'router').map((p) => p.namespace)).toEqual(['istio-system']);
  });

  it('lists only the proxies of the origins asked for: a pod its own, a controller its first pod', async () => {
    // Bookinfo's pods are written out; a Deployment added without pods gets a derived one.
    const extra = readFileSync(resolve(__dirname, '../fixtures/bookinfo-extra/extra-deployment.yaml'), 'utf8');
    const s = await analyzed([...files(), { path: 'extra.yaml', text: extra }]);
    const all = answerQuery('proxies', {}, s).items;
    const productpage = all.find((p) => p.name.startsWith('productpage'))!;
    const derived = all.filter((p) => p.derivedFrom === 'Deployment bookinfo/extra');
    expect(derived).toHaveLength(1);
    const some = answerQuery('proxies', { origins: [`Pod bookinfo/${productpage.name}`, 'Deployment bookinfo/extra', 'Deployment bookinfo/none'] }, s).items;
    expect(some.map((p) => p.id).sort()).toEqual([productpage.id, derived[0]!.id].sort());
    expect(answerQuery('proxies', { origins: [] }, s).items).toEqual([]);
    // Each proxy names the origin it answers for (the page maps Problems rows to proxies by it).
    expect(productpage.origin).toBe(`Pod bookinfo/${productpage.name}`);
    expect(derived[0]!.origin).toBe('Deployment bookinfo/extra');
    expect(some.map((p) => p.origin).sort()).toEqual([`Pod bookinfo/${productpage.name}`, 'Deployment bookinfo/extra'].sort());
  });

  it('pages the proxies for a picker: a search on the id, a limit, and the picked one first', async () => {
    const s = await analyzed();
    const all = answerQuery('proxies', {}, s);
    expect(all.total).toBe(all.items.length);
    const reviews = all.items.filter((p) => p.id.toLowerCase().includes('reviews'));
    expect(reviews).toHaveLength(3);
    const page = answerQuery('proxies', { search: ' REVIEWS ', limit: 2 }, s);
    expect(page).toMatchObject({ total: all.items.length, matching: 3 });
    expect(page.items.map((p) => p.id)).toEqual(reviews.slice(0, 2).map((p) => p.id));
    // The picked proxy is listed although it does not match: first, beside the page.
    const productpage = all.items.find((p) => p.name.startsWith('productpage'))!.id;
    expect(answerQuery('proxies', { search: 'reviews', limit: 2, include: productpage }, s).items.map((p) => p.id)).toEqual([
      productpage,
      ...reviews.slice(0, 2).map((p) => p.id),
    ]);
    // A limit of 0 answers whether the picked one exists, and how many there are.
    expect(answerQuery('proxies', { limit: 0, include: productpage }, s)).toMatchObject({ total: all.items.length, items: [{ id: productpage }] });
    expect(answerQuery('proxies', { limit: 0, include: 'gone.bookinfo' }, s).items).toEqual([]);
  });

  it('lists the proxies that run from the document at a file line', async () => {
    const s = await analyzed();
    const productpage = answerQuery('proxies', {}, s).items.find((p) => p.name.startsWith('productpage'))!;
    const src = productpage.source!;
    const at = (line: number) => answerQuery('proxies', { at: { file: src.file, line } }, s).items.map((p) => p.id);
    expect(at(src.startLine)).toEqual([productpage.id]);
    expect(at(src.endLine)).toEqual([productpage.id]);
    expect(at(src.startLine - 1)).not.toContain(productpage.id);
    expect(answerQuery('proxies', { at: { file: 'nowhere.yaml', line: src.line } }, s).items).toEqual([]);
  });

  it('tells the items of a List apart at a file line (pods.yaml is one List, as kubectl get -o yaml writes it)', async () => {
    const s = await analyzed();
    const sidecars = answerQuery('proxies', {}, s).items.filter((p) => p.type === 'sidecar');
    expect(sidecars.length).toBe(6);
    for (const p of sidecars) {
      const src = p.source!;
      expect(src.file).toBe('pods.yaml');
      expect(answerQuery('proxies', { at: { file: 'pods.yaml', line: src.startLine } }, s).items.map((x) => x.id)).toEqual([p.id]);
      expect(answerQuery('proxies', { at: { file: 'pods.yaml', line: src.endLine } }, s).items.map((x) => x.id)).toEqual([p.id]);
    }
    // The List's own lines (its comment and header) are no pod's.
    expect(answerQuery('proxies', { at: { file: 'pods.yaml', line: 3 } }, s).items).toEqual([]);
  });

  it('gives the config dump with the reviews route traced to the VirtualService line', async () => {
    const s = await analyzed();
    const r = answerQuery('proxyConfig', { proxy: PRODUCTPAGE(s) }, s);
    const routes = resourcesOfDump(r.dump).routes;
    const rc = routes.find((x) => x.name === '9080')!;
    const vh = (rc.virtualHosts as { name: string; routes: { route: { weightedClusters?: { clusters: { name: string; weight: number }[] } } }[] }[]).find(
      (v) => v.name === 'reviews.bookinfo.svc.cluster.local:9080',
    )!;
    expect(vh.routes[0]!.route.weightedClusters!.clusters.map((c) => [c.name, c.weight])).toEqual([
      ['outbound|9080|v1|reviews.bookinfo.svc.cluster.local', 75],
      ['outbound|9080|v2|reviews.bookinfo.svc.cluster.local', 25],
    ]);
    const prov = r.provenance.routes['9080/reviews.bookinfo.svc.cluster.local:9080/0']!;
    const vs = prov.find((p) => p.kind === 'VirtualService')!;
    expect(vs).toMatchObject({ name: 'reviews', namespace: 'bookinfo', file: 'networking.yaml' });
    const lines = readFileSync(join(DIR, 'networking.yaml'), 'utf8').split('\n');
    // The line is inside the reviews VirtualService's http rule.
    const start = lines.findIndex((l, i) => l === '  name: reviews' && lines[i - 2] === 'kind: VirtualService');
    expect(vs.line!).toBeGreaterThan(start + 1);
    expect(lines.slice(start, vs.line!).some((l) => l.includes('http:'))).toBe(true);
    expect(r.provenance.clusters['outbound|9080|v1|reviews.bookinfo.svc.cluster.local']!.some((p) => p.kind === 'DestinationRule')).toBe(true);
  });

  it('simulates GET /reviews/1 to the weighted subsets and their endpoints', async () => {
    const s = await analyzed();
    const r = answerQuery('simulate', { proxy: PRODUCTPAGE(s), host: 'reviews', port: 9080, method: 'GET', path: '/reviews/1' }, s);
    expect(r.ok).toBe(true);
    expect(r.listener).toBe('0.0.0.0_9080');
    expect(r.routeConfig).toBe('9080');
    expect(r.virtualHost).toBe('reviews.bookinfo.svc.cluster.local:9080');
    expect(r.clusters).toEqual([
      { name: 'outbound|9080|v1|reviews.bookinfo.svc.cluster.local', weight: 75 },
      { name: 'outbound|9080|v2|reviews.bookinfo.svc.cluster.local', weight: 25 },
    ]);
    expect(r.endpoints[0]!.addresses).toHaveLength(1);
    expect(r.steps.map((x) => x.kind)).toContain('route');
  });

  it('says why a request fails', async () => {
    const s = await analyzed();
    // ALLOW_ANY (the default): an unknown host on a known port goes out through PassthroughCluster.
    const unknown = answerQuery('simulate', { proxy: PRODUCTPAGE(s), host: 'nowhere.example.com', port: 9080 }, s);
    expect(unknown.clusters.map((c) => c.name)).toEqual(['PassthroughCluster']);
    expect(() => answerQuery('simulate', { proxy: 'nope.bookinfo', host: 'reviews', port: 9080 }, s)).toThrow(QueryError);
    expect(() => answerQuery('proxyConfig', {} as never, s)).toThrow(QueryError);
    const only = await analyzed(
      files((f, t) =>
        f === 'networking.yaml'
          ? t.replace(
              /( {2}name: ratings\n {2}namespace: bookinfo\nspec:\n {2}hosts:\n {4}- ratings\n {2}http:\n {4}- )route:/,
              '$1match:\n        - uri:\n            prefix: /ratings\n      route:',
            )
          : t,
      ),
    );
    const ok = answerQuery('simulate', { proxy: PRODUCTPAGE(only), host: 'ratings', port: 9080, path: '/ratings/1' }, only);
    expect(ok.clusters.map((c) => c.name)).toEqual(['outbound|9080|v1|ratings.bookinfo.svc.cluster.local']);
    const missing = answerQuery('simulate', { proxy: PRODUCTPAGE(only), host: 'ratings', port: 9080, path: '/health' }, only);
    expect(missing.ok).toBe(false);
    expect(missing.failure).toMatch(/no route matched: 404/);
    const badPort = answerQuery('simulate', { proxy: PRODUCTPAGE(s), host: 'reviews', port: 0 }, s);
    expect(badPort.failure).toMatch(/invalid port/);
  });

  it('routes by method and headers, as Envoy matches them', async () => {
    const s = await analyzed(
      files((f, t) =>
        f === 'networking.yaml'
          ? t.replace(
              /( {2}name: reviews\n {2}namespace: bookinfo\nspec:\n {2}hosts:\n {4}- reviews\n {2}http:\n)/,
              `$1    - match:\n        - method:\n            exact: POST\n          headers:\n            end-user:\n              exact: jason\n      route:\n        - destination:\n            host: reviews\n            subset: v3\n`,
            )
          : t,
      ),
    );
    const id = PRODUCTPAGE(s);
    const post = answerQuery(
      'simulate',
      { proxy: id, host: 'reviews:9080', port: 9080, method: 'POST', path: '/reviews/1', headers: { 'End-User': 'jason' } },
      s,
    );
    expect(post.clusters.map((c) => c.name)).toEqual(['outbound|9080|v3|reviews.bookinfo.svc.cluster.local']);
    const get = answerQuery(
      'simulate',
      { proxy: id, host: 'reviews:9080', port: 9080, method: 'GET', path: '/reviews/1', headers: { 'End-User': 'jason' } },
      s,
    );
    expect(get.clusters).toHaveLength(2);
  });

  it('shows what an edit of the weights changes', async () => {
    const before = await analyzed();
    const after = await analyzed(files((f, t) => (f === 'networking.yaml' ? t.replace('weight: 75', 'weight: 50').replace('weight: 25', 'weight: 50') : t)));
    const a = answerQuery('proxyConfig', { proxy: PRODUCTPAGE(before) }, before);
    const b = answerQuery('proxyConfig', { proxy: PRODUCTPAGE(after) }, after);
    const changes = diffResources(resourcesOfDump(a.dump), resourcesOfDump(b.dump));
    // Port 80's route configuration carries every VirtualService's hosts (httproute.go: no
    // selectVirtualServices for listener port 80), so it changes too.
    expect(changes.map((c) => `${c.type} ${c.name} ${c.change}`)).toEqual(['route 9080 changed', 'route 80 changed']);
    const fields = changes[0]!.fields.map((f) => `${f.path}: ${f.before} -> ${f.after}`);
    expect(fields).toContain(
      'virtualHosts[reviews.bookinfo.svc.cluster.local:9080].routes[0].route.weightedClusters.clusters[outbound|9080|v1|reviews.bookinfo.svc.cluster.local].weight: 75 -> 50',
    );
  });

  it('says when a weighted route names a destination with no service (503 for its share)', async () => {
    // Found by the xds-simulate fuzz target: bookinfo-mistakes routes 25% to reviews2, which does not exist.
    const dir = resolve(__dirname, '../../public/samples/bookinfo-mistakes');
    const s = await analyzed(FILES.map((f) => ({ path: f, text: readFileSync(join(dir, f), 'utf8') })));
    const r = answerQuery('simulate', { proxy: PRODUCTPAGE(s), host: 'reviews', port: 9080, path: '/' }, s);
    expect(r.clusters.map((c) => `${c.name} ${c.weight}`)).toEqual([
      'outbound|9080|v1|reviews.bookinfo.svc.cluster.local 75',
      'outbound|9080||reviews2.bookinfo.svc.cluster.local 25',
    ]);
    expect(r.ok).toBe(true);
    expect(r.steps.filter((x) => x.kind === 'failure').map((x) => x.title)).toEqual([
      '25% of requests get 503 NC: no Service or ServiceEntry reviews2.bookinfo.svc.cluster.local exists, so Istio creates no cluster outbound|9080||reviews2.bookinfo.svc.cluster.local',
    ]);
    expect(r.verdict).toMatchObject({ outcome: 'partial', status: 503, flags: ['NC'], share: 25 });
  });
});
