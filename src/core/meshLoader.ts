// A mesh from files, without running the analyzers: what the CLI's ztunnel-config and trace
// commands, the conformance runner and the benchmark read.
import type { WorkspaceFile } from './document/types.ts';
import { WorkspaceModel, type ModelOptions } from './document/workspaceModel.ts';
import { ResourceStore } from './config/store.ts';
import { configView, type ConfigView } from './config/configView.ts';
import { meshInputsFromResources } from './config/mesh/fromWorkspace.ts';
import { kindProblems } from './validation/kindProblems.ts';
import { DEFAULT_POD_CIDR, podCidrSetting } from './config/derivedWorkloads.ts';

export interface LoadOptions {
  /** Assume Istio's ingress gateway Pod and Service when the files have none (default false). */
  includePlaceholders?: boolean;
  defaultNamespace?: string;
  meshConfigText?: string;
  /** The pod CIDR derived pods take addresses from (default 10.244.0.0/14); an invalid one is a problem, and the default is used. */
  podCidr?: string;
  /** The model's size limit (default: the tab's). */
  model?: ModelOptions;
}

export interface LoadedMesh {
  view: ConfigView;
  /** Documents that could not be read, as `file:line: message`. */
  problems: string[];
}

export function loadMesh(files: readonly WorkspaceFile[], opts: LoadOptions = {}): LoadedMesh {
  const model = new WorkspaceModel(kindProblems, opts.model);
  model.update([...files], []);
  const resources = model.resources();
  const mesh = meshInputsFromResources(resources, { meshConfigText: opts.meshConfigText });
  const podCidr = podCidrSetting(opts.podCidr);
  const store = new ResourceStore(resources, {
    mode: 'cli',
    defaultNamespace: opts.defaultNamespace ?? 'default',
    includePlaceholders: opts.includePlaceholders ?? false,
    deriveWorkloads: true,
    meshConfig: mesh.meshConfig,
    meshNetworks: mesh.meshNetworks,
    ...('error' in podCidr ? {} : { podCidr }),
  });
  const problems = model.problems().map((d) => `${d.file ?? ''}:${d.line ?? 0}: ${d.message}`);
  return {
    view: configView(store),
    problems: [...problems, ...mesh.problems, ...('error' in podCidr ? [`${podCidr.error}; pods are given addresses from ${DEFAULT_POD_CIDR}`] : [])],
  };
}
