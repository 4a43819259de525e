// Runs analyzers over inline YAML files the way the conformance harness does, or as the CLI.
import { WorkspaceModel } from '../../../src/core/document/workspaceModel.ts';
import { ResourceStore } from '../../../src/core/config/store.ts';
import { runAnalyzersSync } from '../../../src/core/analysis/run.ts';
import type { Analyzer } from '../../../src/core/analysis/types.ts';
import type { Diagnostic } from '../../../src/core/document/types.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../../src/core/config/mesh/meshconfig.ts';
import { logLine } from '../../../src/core/analysis/format/log.ts';
import { kindProblems } from '../../../src/core/validation/kindProblems.ts';

export interface RunOptions {
  mode?: 'harness' | 'cli';
  placeholders?: boolean;
}

export function analyze(analyzer: Analyzer, files: Record<string, string>, opts: RunOptions = {}): Diagnostic[] {
  const model = new WorkspaceModel(kindProblems);
  model.update(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    [],
  );
  const mode = opts.mode ?? 'harness';
  const store = new ResourceStore(model.resources(), {
    mode,
    defaultNamespace: mode === 'harness' ? '' : 'default',
    kindFilter: mode === 'harness' ? new Set(analyzer.metadata.inputs.map((k) => k.id)) : undefined,
    includePlaceholders: opts.placeholders ?? true,
    meshConfig: defaultMeshConfig(),
    meshNetworks: defaultMeshNetworks(),
  });
  return runAnalyzersSync(store, [analyzer], (f, i) => model.document(f, i));
}

/** `CODE origin` pairs, sorted, for compact assertions. */
export function pairs(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => `${d.code} ${d.origin ?? ''}`).sort();
}

export function lines(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => logLine(d));
}

/** Joins YAML documents with separators. */
export function docs(...parts: string[]): string {
  return parts.map((p) => p.replace(/^\n/, '')).join('---\n');
}
