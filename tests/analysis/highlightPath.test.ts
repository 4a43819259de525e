import { describe, expect, it } from 'vitest';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../src/core/config/store.ts';
import { runAnalyzersSync } from '../../src/core/analysis/run.ts';
import { MESSAGES } from '../../src/core/analysis/messages.ts';
import { KINDS } from '../../src/core/document/kinds.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../src/core/config/mesh/meshconfig.ts';
import type { Analyzer } from '../../src/core/analysis/types.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

const text = [
  '# a rule',
  'apiVersion: networking.istio.io/v1',
  'kind: DestinationRule',
  'metadata:',
  '  name: r',
  '  namespace: n',
  'spec:',
  '  host: r',
  '  subsets:',
  '  - name: v2',
  '    labels: {version: v2}',
  '',
].join('\n');

function analyzerReporting(fieldPath: string | undefined, highlightPath: string | undefined): Analyzer {
  return {
    metadata: { name: 'test.Highlight', description: 'test', inputs: [KINDS.DestinationRule] },
    analyze(ctx) {
      for (const r of ctx.list(KINDS.DestinationRule)) ctx.report(MESSAGES.DestinationRuleSubsetNotSelectPods.at(r, 'v2'), { fieldPath, highlightPath });
    },
  };
}

function run(a: Analyzer) {
  const m = new WorkspaceModel(kindProblems);
  m.update([{ path: 'dr.yaml', text }], []);
  const store = new ResourceStore(m.resources(), {
    mode: 'cli',
    defaultNamespace: 'default',
    includePlaceholders: false,
    meshConfig: defaultMeshConfig(),
    meshNetworks: defaultMeshNetworks(),
  });
  return runAnalyzersSync(store, [a], (f, i) => m.document(f, i))[0]!;
}

describe('highlight path', () => {
  it('moves the squiggle to the field while istioctl keeps the document line', () => {
    const d = run(analyzerReporting(undefined, 'spec.subsets[0].name'));
    expect(d.line).toBe(1);
    expect(d.range).toEqual({ startLine: 10, startCol: 5, endLine: 10, endCol: 13 });
  });

  it('keeps the range of the Istio field when the highlight path does not resolve', () => {
    const d = run(analyzerReporting('spec.host', 'spec.subsets[3].name'));
    expect(d.line).toBe(8);
    expect(d.range).toEqual({ startLine: 8, startCol: 3, endLine: 8, endCol: 10 });
  });
});
