// Runs one analyzer over inline files in harness mode, with optional mesh config / networks,
// or a multi-cluster analysis over per-cluster files.
import { WorkspaceModel } from '../../../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../../../src/core/config/store.ts';
import { runAnalyzersSync } from '../../../../src/core/analysis/run.ts';
import { MultiClusterStoreView } from '../../../../src/core/config/multiCluster.ts';
import type { Analyzer } from '../../../../src/core/analysis/types.ts';
import type { Diagnostic } from '../../../../src/core/document/types.ts';
import { defaultMeshConfig, defaultMeshNetworks, mergeMeshConfig, type MeshNetworks } from '../../../../src/core/config/mesh/meshconfig.ts';
import { kindProblems } from '../../../../src/core/validation/kindProblems.ts';

export interface MeshOptions {
  mesh?: Record<string, unknown>;
  networks?: MeshNetworks;
}

export function analyzeWith(analyzer: Analyzer, files: Record<string, string>, opts: MeshOptions = {}): Diagnostic[] {
  const model = new WorkspaceModel(kindProblems);
  model.update(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    [],
  );
  const store = new ResourceStore(model.resources(), {
    mode: 'harness',
    defaultNamespace: '',
    kindFilter: new Set(analyzer.metadata.inputs.map((k) => k.id)),
    includePlaceholders: true,
    meshConfig: mergeMeshConfig(defaultMeshConfig(), opts.mesh),
    meshNetworks: opts.networks ?? defaultMeshNetworks(),
  });
  return runAnalyzersSync(store, [analyzer], (f, i) => model.document(f, i));
}

/** cluster id → files. */
export function analyzeClusters(analyzers: readonly Analyzer[], clusters: Record<string, Record<string, string>>): Diagnostic[] {
  const options = {
    mode: 'harness',
    defaultNamespace: '',
    includePlaceholders: false,
    meshConfig: defaultMeshConfig(),
    meshNetworks: defaultMeshNetworks(),
  } as const;
  const models = new Map<string, WorkspaceModel>();
  const stores = Object.entries(clusters).map(([cluster, files]) => {
    const model = new WorkspaceModel(kindProblems);
    model.update(
      Object.entries(files).map(([path, text]) => ({ path, text })),
      [],
    );
    for (const f of Object.keys(files)) models.set(f, model);
    return {
      cluster,
      store: new ResourceStore(
        model.resources().map((r) => ({ ...r, cluster })),
        options,
      ),
    };
  });
  const view = new MultiClusterStoreView(new ResourceStore([], options), stores);
  return runAnalyzersSync(view, analyzers, (f, i) => models.get(f)?.document(f, i));
}

/** 1-based line of the first line containing `needle` (after `from`, when given). */
export function lineOf(text: string, needle: string, from?: string): number {
  const lines = text.split('\n');
  const start = from ? lines.findIndex((l) => l.includes(from)) : 0;
  return lines.findIndex((l, i) => i >= start && l.includes(needle)) + 1;
}
