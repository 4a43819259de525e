// Typed views of mesh config (istio.io/api mesh/v1alpha1 MeshConfig) and mesh networks
// (MeshNetworks): the fields our analyzers read. Mesh config is merged from Istio's defaults
// and the workspace (config/mesh), so it is read from the merged object, once per object.
import { int, list, map, message, optional, string, type Infer } from '../shape.ts';
import { specReader } from '../views.ts';
import type { MeshConfig } from '../mesh/meshconfig.ts';

const p = { proto: true };

export const ExtensionProvider = message(
  {
    name: string,
    /** Deprecated: present when the provider is of the Lightstep type. */
    lightstep: message({ address: string, accessToken: string, maxTagLength: int }, p),
  },
  p,
);
export type ExtensionProvider = NonNullable<Infer<typeof ExtensionProvider>>;

export const MeshConfigFields = message(
  {
    extensionProviders: list(ExtensionProvider),
    defaultProviders: message({ tracing: list(string), metrics: list(string), accessLogging: list(string) }, p),
  },
  p,
);
export type MeshConfigFields = Infer<typeof MeshConfigFields> & object;

const meshConfigCache = new WeakMap<MeshConfig, MeshConfigFields>();

/** The typed fields of a (merged) mesh config. */
export function meshConfigView(mesh: MeshConfig): MeshConfigFields {
  let v = meshConfigCache.get(mesh);
  if (v === undefined) {
    v = MeshConfigFields.readOrEmpty(mesh);
    meshConfigCache.set(mesh, v);
  }
  return v;
}

export const NetworkEndpoints = message({ fromCidr: optional(string), fromRegistry: optional(string) }, p);

export const Network = message(
  {
    endpoints: list(NetworkEndpoints),
    gateways: list(message({ registryServiceName: string, address: string, port: int, locality: string }, p)),
  },
  p,
);

export const MeshNetworksSpec = message({ networks: map(Network) }, p);
/** The mesh networks resource (its spec is the MeshNetworks message). */
export const meshNetworks = specReader(MeshNetworksSpec);
