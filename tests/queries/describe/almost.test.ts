// The structured description: what nearly applies to a pod (issue #36 part 3). Bookinfo with
// one mistake each; the pods come from public/samples/bookinfo/pods.yaml.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer } from '../../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../../src/core/analysis/settings.ts';
import { KINDS } from '../../../src/core/document/kinds.ts';
import { describePod } from '../../../src/core/queries/describe/describe.ts';

const DIR = 'public/samples/bookinfo';

async function describeWith(extra: string, podName: string) {
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({ path: f, text: readFileSync(join(DIR, f), 'utf8') }));
  const w = new WorkspaceAnalyzer();
  w.update([...files, { path: 'extra.yaml', text: extra }], []);
  await w.run(defaultAnalysisSettings());
  const state = w.analyzedState();
  if (!state) throw new Error('not analyzed');
  const pod = state.view.list(KINDS.Pod).find((p) => p.name === podName);
  if (!pod) throw new Error(`no pod ${podName}`);
  return describePod(state.view, pod);
}

const REVIEWS_V2 = 'reviews-v2-8b5f6c7d9-r4t6y';
const REVIEWS_V1 = 'reviews-v1-6d4c9b8f7-q7w2e';

function dr(subset: string): string {
  return `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: reviews-typo, namespace: bookinfo}
spec:
  host: reviews
  subsets:
    - name: v2
      labels: {${subset}}
`;
}

describe('almost applies', () => {
  it('a subset whose label value is one character off the pod (version: v2x)', async () => {
    const d = await describeWith(dr('version: v2x'), REVIEWS_V2);
    const hit = d.almostApplies.find((a) => a.ref.name === 'reviews-typo');
    expect(hit?.ref).toMatchObject({ kind: 'DestinationRule', namespace: 'bookinfo', fieldPath: 'spec.subsets[0]' });
    expect(hit?.reasons).toEqual([{ type: 'labelValue', key: 'version', want: 'v2x', have: 'v2', fieldPath: 'spec.subsets[0].labels.version' }]);
  });

  it('a subset whose label key is one character off (verson: v2)', async () => {
    const d = await describeWith(dr('verson: v2'), REVIEWS_V2);
    const hit = d.almostApplies.find((a) => a.ref.name === 'reviews-typo');
    expect(hit?.reasons).toEqual([{ type: 'labelKey', key: 'verson', podKey: 'version', value: 'v2', fieldPath: 'spec.subsets[0].labels.verson' }]);
  });

  it('not for a pod two edits away, nor for subsets that select other pods (v1 vs v2)', async () => {
    const d = await describeWith(dr('version: v2x'), REVIEWS_V1);
    expect(d.almostApplies.filter((a) => a.ref.kind === 'DestinationRule')).toEqual([]);
  });

  it('a selector that would match in another namespace', async () => {
    const pa = `apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: reviews-strict, namespace: default}
spec:
  selector: {matchLabels: {app: reviews}}
  mtls: {mode: STRICT}
`;
    const d = await describeWith(pa, REVIEWS_V1);
    expect(d.almostApplies.find((a) => a.ref.name === 'reviews-strict')?.reasons).toEqual([
      { type: 'namespace', resourceNamespace: 'default', podNamespace: 'bookinfo' },
    ]);
  });

  it("an exportTo that hides a VirtualService of the pod's Service from its namespace", async () => {
    const vs = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews-elsewhere, namespace: other}
spec:
  hosts: [reviews.bookinfo.svc.cluster.local]
  exportTo: ['.']
  http: [{route: [{destination: {host: reviews.bookinfo.svc.cluster.local}}]}]
`;
    const d = await describeWith(vs, REVIEWS_V1);
    expect(d.almostApplies.find((a) => a.ref.name === 'reviews-elsewhere')?.reasons).toEqual([
      { type: 'exportTo', exportTo: ['other'], podNamespace: 'bookinfo', fieldPath: 'spec.exportTo' },
    ]);
  });

  it('a VirtualService host one edit from the Service', async () => {
    const vs = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviewz, namespace: bookinfo}
spec:
  hosts: [reviewz]
  http: [{route: [{destination: {host: reviews}}]}]
`;
    const d = await describeWith(vs, REVIEWS_V1);
    expect(d.almostApplies.find((a) => a.ref.name === 'reviewz')?.reasons).toEqual([
      { type: 'host', host: 'reviewz', service: 'reviews.bookinfo', fieldPath: 'spec.hosts[0]' },
    ]);
  });

  it('the Bookinfo sample itself has no near misses for reviews-v1', async () => {
    const d = await describeWith('', REVIEWS_V1);
    expect(d.almostApplies).toEqual([]);
  });
});
