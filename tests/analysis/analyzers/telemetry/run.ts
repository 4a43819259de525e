// Runs one analyzer over inline YAML like the conformance harness, with an optional mesh
// config merged over Istio's defaults.
import { WorkspaceModel } from '../../../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../../../src/core/config/store.ts';
import { runAnalyzersSync } from '../../../../src/core/analysis/run.ts';
import type { Analyzer } from '../../../../src/core/analysis/types.ts';
import type { Diagnostic } from '../../../../src/core/document/types.ts';
import { defaultMeshConfig, defaultMeshNetworks, mergeMeshConfig } from '../../../../src/core/config/mesh/meshconfig.ts';
import { kindProblems } from '../../../../src/core/validation/kindProblems.ts';

export function run(analyzer: Analyzer, files: Record<string, string>, mesh?: Record<string, unknown>): Diagnostic[] {
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
    meshConfig: mergeMeshConfig(defaultMeshConfig(), mesh),
    meshNetworks: defaultMeshNetworks(),
  });
  return runAnalyzersSync(store, [analyzer], (f, i) => model.document(f, i));
}

/** 1-based line of the first line of `text` containing `needle` (after `from` matches). */
export function lineOf(text: string, needle: string, nth = 0): number {
  const ls = text.split('\n');
  let seen = 0;
  for (let i = 0; i < ls.length; i++) {
    if ((ls[i] as string).includes(needle)) {
      if (seen === nth) return i + 1;
      seen++;
    }
  }
  throw new Error(`not found: ${needle}`);
}
