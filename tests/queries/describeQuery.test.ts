// The `describe` and `describeTargets` queries over the samples: the pod's facts with each
// ref resolved to the line of its field in the files, istioctl's text beside them, ztunnel's
// view of an ambient pod (waypoints, L4 policies, a traced request), and the pods a resource
// selects. The line numbers are found in the sample texts themselves.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { answerQuery, QueryError, type QueryState } from '../../src/core/queries/index.ts';
import { describeSourceKey } from '../../src/core/queries/describeQuery.ts';

const SAMPLES = new URL('../../public/samples/', import.meta.url);

function sampleFiles(name: string): Array<{ path: string; text: string }> {
  const dir = new URL(`${name}/`, SAMPLES);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({ path: f, text: readFileSync(new URL(f, dir), 'utf8') }));
}

async function analyzed(files: Array<{ path: string; text: string }>): Promise<QueryState> {
  const w = new WorkspaceAnalyzer();
  w.update(files, []);
  await w.run({ ...defaultAnalysisSettings(), includePlaceholders: true });
  return w.analyzedState()!;
}

/** The 1-based line of the first line containing `needle` at or after the line containing `after`. */
function lineOf(text: string, needle: string, after?: string): number {
  const lines = text.split('\n');
  const from = after === undefined ? 0 : lines.findIndex((l) => l.includes(after));
  const i = lines.findIndex((l, n) => n >= from && l.includes(needle));
  expect(i, `"${needle}" after "${after}"`).toBeGreaterThanOrEqual(0);
  return i + 1;
}

const TYPO_DR = readFileSync(new URL('../fixtures/describe/reviews-typo-subset.yaml', import.meta.url), 'utf8');

describe('describe query', () => {
  it('describes reviews-v2: the route that reaches it with its weight and line, and a subset one character off under almost applies', async () => {
    const files = [...sampleFiles('bookinfo'), { path: 'typo.yaml', text: TYPO_DR }];
    const state = await analyzed(files);
    const r = answerQuery('describe', { pod: 'bookinfo/reviews-v2' }, state);
    expect(r.pod.name).toMatch(/^reviews-v2-/);
    expect(r.description.pod.meshMode).toBe('sidecar');
    const port = r.description.services[0]!.byPort[0]!;
    expect(port.destinationRule?.subsets.map((s) => [s.name, s.matches])).toEqual([
      ['v1', false],
      ['v2', true],
      ['v3', false],
    ]);
    const route = port.virtualService!.routes.find((x) => x.reaches)!;
    const fact = route.facts.find((f) => f.type === 'destination')!;
    expect(fact).toMatchObject({ host: 'reviews', subset: 'v2', weight: 25 });
    // The networking.yaml line of the route's second destination (subset v2).
    const networking = files.find((f) => f.path === 'networking.yaml')!.text;
    const at = r.sources[describeSourceKey(fact.source)];
    expect(at?.file).toBe('networking.yaml');
    const lines = networking.split('\n');
    expect(lines[at!.line - 1]).toMatch(/^\s*- destination:/);
    expect(lines[at!.line]).toContain('host: reviews');
    expect(lines[at!.line + 1]).toContain('subset: v2');
    // istioctl's text says the same.
    expect(r.text).toContain('Route to host "reviews" subset "v2" with weight 25%');
    // The canary subset misses the pod by one character.
    const near = r.description.almostApplies.find((a) => a.ref.name === 'reviews-canary');
    expect(near?.reasons).toEqual([{ type: 'labelValue', key: 'version', want: 'v2x', have: 'v2', fieldPath: 'spec.subsets[0].labels.version' }]);
    expect(r.sources['networking.istio.io/DestinationRule/bookinfo/reviews-canary#spec.subsets[0].labels.version']).toEqual({
      file: 'typo.yaml',
      line: lineOf(TYPO_DR, 'version: v2x'),
    });
    // A List item's pod links to its own lines.
    const pods = files.find((f) => f.path === 'pods.yaml')!.text;
    const portAt = r.sources[describeSourceKey(r.description.pod.ports[0]!.source)];
    expect(portAt).toEqual({ file: 'pods.yaml', line: lineOf(pods, '- containerPort: 9080', 'name: reviews-v2-') });
  });

  it("shows an ambient pod's waypoint and why, its L4 policies and a request traced to it", async () => {
    const files = sampleFiles('ambient');
    const state = await analyzed(files);
    const r = answerQuery('describe', { pod: 'shop/products' }, state);
    expect(r.description.pod.meshMode).toBe('ambient');
    const a = r.ambient!;
    // The shop namespace's label binds the products Service to shop/waypoint (a waypoint for Services).
    expect(a.services.map((s) => [s.ref.name, s.waypoint.waypoint, s.waypoint.via])).toEqual([['products', 'shop/waypoint', 'namespace']]);
    const label = r.sources[describeSourceKey(a.services[0]!.waypoint.labelRef!)];
    const ns = files.find((f) => f.path === 'namespaces.yaml')!.text;
    expect(label).toEqual({ file: 'namespaces.yaml', line: lineOf(ns, 'istio.io/use-waypoint: waypoint') });
    expect(a.workloadWaypoint.waypoint).toBeNull();
    expect(a.policies.map((p) => p.key)).toContain('shop/shop-l4');
    expect(a.notEnforced.map((n) => n.ref.name)).toEqual(['products-read-only']);
    expect(a.traceFrom).toMatch(/^client\/curl-/);
    expect(a.trace?.result).toBe('ALLOW');
    expect(a.trace?.waypointUsed).toBe('shop/waypoint');
    expect(a.trace?.hops.some((h) => h.component === 'waypoint')).toBe(true);
    // Another client: the trace starts from it.
    const from = a.clients.find((c) => c.startsWith('outside/'))!;
    const again = answerQuery('describe', { pod: r.pod.key, traceFrom: from }, state);
    expect(again.ambient?.traceFrom).toBe(from);
  });

  it('names a missing pod, and rejects a request without one', async () => {
    const state = await analyzed(sampleFiles('bookinfo'));
    expect(() => answerQuery('describe', {}, state)).toThrow(QueryError);
    expect(() => answerQuery('describe', { pod: 'bookinfo/nothing' }, state)).toThrow(/No pod "bookinfo\/nothing"/);
  });
});

describe('describeTargets query', () => {
  it('finds the resource at a line and the pods it selects', async () => {
    const files = sampleFiles('bookinfo');
    const state = await analyzed(files);
    const dr = files.find((f) => f.path === 'destination-rules.yaml')!.text;
    const t = answerQuery('describeTargets', { file: 'destination-rules.yaml', line: lineOf(dr, 'host: reviews') }, state);
    expect(t.resource?.name).toBe('reviews');
    expect(t.pods.map((p) => p.id.replace(/-[a-z0-9]+-[a-z0-9]+$/, ''))).toEqual(['bookinfo/reviews-v1', 'bookinfo/reviews-v2', 'bookinfo/reviews-v3']);
    const bookinfo = files.find((f) => f.path === 'bookinfo.yaml')!.text;
    const d = answerQuery('describeTargets', { file: 'bookinfo.yaml', line: lineOf(bookinfo, 'replicas', 'name: reviews-v2') }, state);
    expect(d.resource).toMatchObject({ kind: 'Deployment', name: 'reviews-v2' });
    expect(d.pods.map((p) => p.id)).toEqual([expect.stringMatching(/^bookinfo\/reviews-v2-/)]);
    expect(answerQuery('describeTargets', { resource: 'core/Service/bookinfo/ratings' }, state).total).toBe(1);
  });
});
