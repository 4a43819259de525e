// Mesh config and mesh networks as found in the workspace: the `istio` ConfigMap in
// `istio-system` (keys `mesh` and `meshNetworks`), merged over Istio's defaults.
import { loadYaml } from '../../document/yamlSchema.ts';
import type { Resource } from '../../document/types.ts';
import { KINDS } from '../../document/kinds.ts';
import { defaultMeshConfig, defaultMeshNetworks, mergeMeshConfig, type MeshConfig, type MeshNetworks } from './meshconfig.ts';

export interface MeshInputs {
  meshConfig: MeshConfig;
  meshNetworks: MeshNetworks;
  /** What was assumed or where the values came from, for the UI and `-v`. */
  notes: string[];
  problems: string[];
}

function parseYamlObject(text: string): Record<string, unknown> | null {
  const v = loadYaml(text);
  if (v === null || v === undefined) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new Error('expected a mapping');
  return v as Record<string, unknown>;
}

export function meshInputsFromResources(resources: readonly Resource[], overrides: { meshConfigText?: string; meshNetworksText?: string } = {}): MeshInputs {
  const notes: string[] = [];
  const problems: string[] = [];
  let meshConfig = defaultMeshConfig();
  let meshNetworks = defaultMeshNetworks();
  const cm = resources.find((r) => r.kindId === KINDS.ConfigMap.id && r.namespace === 'istio-system' && r.name === 'istio');
  const data = (cm?.body.data ?? {}) as Record<string, unknown>;
  const meshText = overrides.meshConfigText ?? (typeof data.mesh === 'string' ? data.mesh : undefined);
  if (meshText !== undefined) {
    try {
      meshConfig = mergeMeshConfig(meshConfig, parseYamlObject(meshText));
      notes.push(
        overrides.meshConfigText !== undefined
          ? 'Mesh config: from the mesh config file, over Istio defaults.'
          : 'Mesh config: from ConfigMap istio-system/istio, over Istio defaults.',
      );
    } catch (e) {
      problems.push(`Mesh config could not be read (${(e as Error).message}); Istio defaults are used.`);
    }
  } else {
    notes.push('Mesh config: Istio defaults (no ConfigMap istio-system/istio in the workspace).');
  }
  const netText = overrides.meshNetworksText ?? (typeof data.meshNetworks === 'string' ? data.meshNetworks : undefined);
  if (netText !== undefined) {
    try {
      const parsed = parseYamlObject(netText) ?? {};
      meshNetworks = { networks: (parsed.networks as Record<string, unknown>) ?? {} };
      notes.push('Mesh networks: from the workspace.');
    } catch (e) {
      problems.push(`Mesh networks could not be read (${(e as Error).message}); none are assumed.`);
    }
  } else {
    notes.push('Mesh networks: none (default).');
  }
  return { meshConfig, meshNetworks, notes, problems };
}
