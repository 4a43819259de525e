// meshnetworks.MeshNetworksAnalyzer: every `fromRegistry` endpoint of the mesh networks must
// name a known service registry: Mock, Kubernetes, External, or a cluster of a remote
// secret (a key of a Secret labelled istio/multiCluster=true) (IST0126).
import { KINDS } from '../../../model/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { arr, isObj, str } from '../../../model/read.ts';

const BUILTIN_REGISTRIES = ['Mock', 'Kubernetes', 'External'];
const MULTICLUSTER_SECRET_LABEL = 'istio/multiCluster';

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
      if (isObj(s.body.data)) for (const k of Object.keys(s.body.data)) registries.add(k);
    }
    for (const r of ctx.list(KINDS.MeshNetworks)) {
      const spec = isObj(r.body.spec) ? r.body.spec : {};
      const networks = isObj(spec.networks) ? spec.networks : {};
      for (const [network, n] of Object.entries(networks)) {
        if (!isObj(n)) continue;
        arr(n.endpoints).forEach((e, j) => {
          if (!isObj(e) || e.fromRegistry === undefined || e.fromRegistry === null) return;
          const registry = str(e.fromRegistry);
          if (registries.has(registry)) return;
          ctx.report(MESSAGES.UnknownMeshNetworksServiceRegistry.at(r, registry, network), { fieldPath: `networks.${network}.endpoints[${j}].fromRegistry` });
        });
      }
    }
  },
};
