// services.MultiClusterServiceAnalyzer: a Service with the same namespace/name in several
// clusters must agree on headless mode, type and ports (IST0170, one message per Service).
// Only resources that carry a cluster (multi-cluster runs) are compared.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { serviceSpec, type KubeServicePort, type ServiceSpec } from '../../../config/api/kube.ts';
import { isWritten } from '../../../config/views.ts';
import { mapAt } from '../../../document/maps.ts';

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The fields of a ServicePort Go compares, in a canonical form (IntOrString keeps its type). */
function portKey(p: KubeServicePort): string {
  const target = p.targetPort;
  const targetKey = typeof target === 'number' ? `i:${target}` : typeof target === 'string' ? `s:${target}` : 'i:0';
  return JSON.stringify([p.name, p.protocol, p.appProtocol ?? null, p.port, targetKey, p.nodePort]);
}

/** Ports sorted (stably) by name, as Istio compares them. */
function sortedPorts(spec: ServiceSpec): string[] {
  return spec.ports
    .map((p, i) => ({ name: p.name, key: portKey(p), i }))
    .sort((a, b) => byText(a.name, b.name) || a.i - b.i)
    .map((p) => p.key);
}

/** Clusters and reasons of the inconsistencies among one Service's cluster instances. */
function findInconsistencies(instances: ReadonlyArray<[string, Resource]>): { clusters: string[]; reasons: string[] } {
  const clusters = new Set<string>();
  const reasons = new Set<string>();
  const [firstCluster, firstResource] = instances[0] as [string, Resource];
  const first = serviceSpec(firstResource);
  const firstHeadless = first.clusterIP === 'None';
  const firstPorts = sortedPorts(first);
  let addedHeadless = false;
  for (const [cluster, r] of instances) {
    const spec = serviceSpec(r);
    if (!addedHeadless && firstHeadless !== (spec.clusterIP === 'None')) {
      addedHeadless = true;
      for (const [c] of instances) clusters.add(c);
      reasons.add('service has mixed mode like headless and clusterIP');
    }
    if (first.type !== spec.type) {
      clusters.add(cluster);
      reasons.add('service type is inconsistent');
    }
    const ports = sortedPorts(spec);
    if (ports.length !== firstPorts.length || ports.some((p, i) => p !== firstPorts[i])) {
      clusters.add(cluster);
      reasons.add('service ports are inconsistent');
    }
  }
  if (clusters.size > 0) clusters.add(firstCluster);
  return { clusters: [...clusters].sort(byText), reasons: [...reasons].sort(byText) };
}

/** The field behind the first reason, in the reported instance (its `spec` when the field is not written). */
function inconsistentField(r: Resource, reason: string): string {
  const field = reason.startsWith('service has mixed mode') ? 'clusterIP' : reason.startsWith('service ports') ? 'ports' : 'type';
  return isWritten(r, ['spec', field]) ? `spec.${field}` : 'spec';
}

export const multiClusterServiceAnalyzer: Analyzer = {
  metadata: {
    name: 'services.MultiClusterServiceAnalyzer',
    description: 'Checks that a Service defined in several clusters is defined the same way in each',
    inputs: [KINDS.Service],
    optionalInputs: [KINDS.Service],
  },
  analyze(ctx) {
    // namespace/name → cluster → instance (a later instance in the same cluster wins).
    const services = new Map<string, Map<string, Resource>>();
    for (const r of ctx.list(KINDS.Service)) {
      if (!r.cluster) continue;
      const key = `${r.namespace}/${r.name}`;
      const byCluster = mapAt(services, key);
      byCluster.set(r.cluster, r);
    }
    for (const byCluster of services.values()) {
      if (byCluster.size < 2) continue;
      // Istio starts from an arbitrary instance; we start from the first cluster by name.
      const instances = [...byCluster.entries()].sort(([a], [b]) => byText(a, b));
      const { clusters, reasons } = findInconsistencies(instances);
      if (clusters.length === 0) continue;
      const [, resource] = instances[0] as [string, Resource];
      ctx.report(MESSAGES.MultiClusterInconsistentService.at(resource, resource.name, resource.namespace, clusters, reasons.join('; ')), {
        highlightPath: inconsistentField(resource, reasons[0] as string),
      });
    }
  },
};
