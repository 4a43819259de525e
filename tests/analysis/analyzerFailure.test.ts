// An analyzer that throws on one resource becomes IST0001 on that resource; the other
// resources and analyzers are still analyzed (istioctl's analyzers run guarded the same way).
import { describe, expect, it } from 'vitest';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../src/core/config/store.ts';
import { Lookups } from '../../src/core/config/lookups.ts';
import { AnalysisSession } from '../../src/core/analysis/session.ts';
import { perResourceAnalyzer } from '../../src/core/analysis/perResource.ts';
import { MESSAGES } from '../../src/core/analysis/messages.ts';
import { KINDS } from '../../src/core/document/kinds.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../src/core/config/mesh/meshconfig.ts';
import type { Analyzer } from '../../src/core/analysis/types.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

const rule = (name: string) =>
  `apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: ${name}\n  namespace: shop\nspec:\n  host: ${name}\n`;

const fragile: Analyzer = perResourceAnalyzer(
  { name: 'test.Fragile', description: 'throws on one resource', inputs: [KINDS.DestinationRule] },
  {
    kind: KINDS.DestinationRule,
    check(ctx, r) {
      if (r.name === 'bad') throw new Error('no luck');
      ctx.report(MESSAGES.UnknownDestinationRuleHost.at(r, r.name));
    },
    global(ctx) {
      throw new TypeError(`global part saw ${ctx.list(KINDS.DestinationRule).length}`);
    },
  },
);

const steady: Analyzer = {
  metadata: { name: 'test.Steady', description: 'reports every rule', inputs: [KINDS.DestinationRule] },
  analyze(ctx) {
    for (const r of ctx.list(KINDS.DestinationRule)) ctx.report(MESSAGES.DestinationRuleSubsetNotSelectPods.at(r, 'v1'));
  },
};

describe('a failing analyzer', () => {
  it('reports IST0001 on the resource it failed on, once for its global part, and analyzes the rest', async () => {
    const m = new WorkspaceModel(kindProblems);
    m.update([{ path: 'dr.yaml', text: [rule('good'), rule('bad'), rule('fine')].join('---\n') }], []);
    const store = new ResourceStore(m.resources(), {
      mode: 'cli',
      defaultNamespace: 'default',
      includePlaceholders: false,
      meshConfig: defaultMeshConfig(),
      meshNetworks: defaultMeshNetworks(),
    });
    const ds = await new AnalysisSession().run(store, new Lookups(store), [fragile, steady], 'all', (f, i) => m.document(f, i));
    const shown = ds.map((d) => `${d.code} ${d.origin ?? '-'} ${d.code === 'IST0001' ? d.message : ''}`.trim()).sort();
    expect(shown).toEqual([
      'IST0001 - Internal error: analyzer test.Fragile failed: global part saw 3',
      'IST0001 DestinationRule shop/bad Internal error: analyzer test.Fragile failed: no luck',
      'IST0173 DestinationRule shop/bad',
      'IST0173 DestinationRule shop/fine',
      'IST0173 DestinationRule shop/good',
      'IST0174 DestinationRule shop/fine',
      'IST0174 DestinationRule shop/good',
    ]);
    // The failure points at the resource's line.
    expect(ds.find((d) => d.code === 'IST0001' && d.origin)?.line).toBe(9);
  });
});
