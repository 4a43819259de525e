// Workload identities: the SPIFFE id Istio's CA issues for a service account
// (`spiffe://<trust domain>/ns/<namespace>/sa/<service account>`).
import type { Resource } from '../document/types.ts';
import type { MeshConfig } from './mesh/meshconfig.ts';
import { podServiceAccount } from './workloads.ts';

export function spiffeId(trustDomain: string, namespace: string, serviceAccount: string): string {
  return `spiffe://${trustDomain}/ns/${namespace}/sa/${serviceAccount}`;
}

/** The identity of a pod under the mesh's trust domain. */
export function podIdentity(mesh: Pick<MeshConfig, 'trustDomain'>, pod: Resource): string {
  return spiffeId(mesh.trustDomain || 'cluster.local', pod.namespace, podServiceAccount(pod));
}

/** Parses a SPIFFE id into its parts; undefined for anything else. */
export function parseSpiffeId(id: string): { trustDomain: string; namespace: string; serviceAccount: string } | undefined {
  const m = /^spiffe:\/\/([^/]+)\/ns\/([^/]+)\/sa\/([^/]+)$/.exec(id);
  return m ? { trustDomain: m[1] as string, namespace: m[2] as string, serviceAccount: m[3] as string } : undefined;
}
