// A mesh from files, without running the analyzers: what the CLI's ztunnel-config and trace
// commands, the conformance runner and the benchmark read.
import type { WorkspaceFile } from './document/types.ts';
import { WorkspaceModel } from './document/workspaceModel.ts';
import { ResourceStore } from './config/store.ts';
import { configView, type ConfigView } from './config/configView.ts';
import { meshInputsFromResources } from './config/mesh/fromWorkspace.ts';
import { kindProblems } from './validation/kindProblems.ts';

export interface LoadOptions {
  /** Assume Istio's ingress gateway Pod and Service when the files have none (default false). */
  includePlaceholders?: boolean;
  defaultNamespace?: string;
  meshConfigText?: string;
}

export interface LoadedMesh {
  view: ConfigView;
  /** Documents that could not be read, as `file:line: message`. */
  problems: string[];
}

export function loadMesh(files: readonly WorkspaceFile[], opts: LoadOptions = {}): LoadedMesh {
  const model = new WorkspaceModel(kindProblems);
  model.update([...files], []);
  const resources = model.resources();
  const mesh = meshInputsFromResources(resources, { meshConfigText: opts.meshConfigText });
  const store = new ResourceStore(resources, {
    mode: 'cli',
    defaultNamespace: opts.defaultNamespace ?? 'default',
    includePlaceholders: opts.includePlaceholders ?? false,
    deriveWorkloads: true,
    meshConfig: mesh.meshConfig,
    meshNetworks: mesh.meshNetworks,
  });
  const problems = model.problems().map((d) => `${d.file ?? ''}:${d.line ?? 0}: ${d.message}`);
  return { view: configView(store), problems: [...problems, ...mesh.problems] };
}
