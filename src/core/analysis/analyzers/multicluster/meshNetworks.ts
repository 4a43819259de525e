// meshnetworks.MeshNetworksAnalyzer: every `fromRegistry` endpoint of the mesh networks must
// name a known service registry: Mock, Kubernetes, External, or a cluster of a remote
// secret (a key of a Secret labelled istio/multiCluster=true) (IST0126).
import { KINDS } from '../../../document/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { secret } from '../../../config/api/kube.ts';
import { meshNetworks } from '../../../config/api/mesh.ts';
import { MULTICLUSTER_SECRET_LABEL } from '../../../config/wellKnown.ts';

const BUILTIN_REGISTRIES = ['Mock', 'Kubernetes', 'External'];

export const meshNetworksAnalyzer: Analyzer = {
  metadata: {
    name: 'meshnetworks.MeshNetworksAnalyzer',
    description: 'Checks that the service registries named in mesh networks are known',
    inputs: [KINDS.MeshNetworks, KINDS.Secret],
  },
  analyze(ctx) {
    const registries = new Set(BUILTIN_REGISTRIES);
    for (const s of ctx.list(KINDS.Secret)) {
      if (s.labels[MULTICLUSTER_SECRET_LABEL] !== 'true') continue;
      // Only `data` keys count (`stringData` is not merged when read from files).
      for (const k of Object.keys(secret(s).data)) registries.add(k);
    }
    for (const r of ctx.list(KINDS.MeshNetworks)) {
      const { networks } = meshNetworks(r);
      for (const network of Object.keys(networks)) {
        networks[network]?.endpoints.forEach((e, j) => {
          const registry = e.fromRegistry;
          if (registry === undefined || registries.has(registry)) return;
          ctx.report(MESSAGES.UnknownMeshNetworksServiceRegistry.at(r, registry, network), { fieldPath: `networks.${network}.endpoints[${j}].fromRegistry` });
        });
      }
    }
  },
};
