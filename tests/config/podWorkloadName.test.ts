// Istio's workload name of a pod: GetWorkloadMetaFromPod / GetDeployMetaFromPod (pkg/kube/util.go
// at the Istio commit we follow). xDS endpoint metadata (`istio.workload`) and ztunnel's
// workloads both use it.
import { describe, expect, it } from 'vitest';
import { podWorkloadName } from '../../src/core/config/services.ts';
import type { Resource } from '../../src/core/document/types.ts';

function pod(meta: Record<string, unknown>, labels: Record<string, string> = {}): Resource {
  const metadata = { name: 'web-v1-abc12-xyz', namespace: 'demo', labels, ...meta };
  return {
    key: 'pod',
    kindId: 'core/Pod@v1',
    gvk: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'demo',
    name: String(metadata.name),
    labels,
    annotations: {},
    body: { apiVersion: 'v1', kind: 'Pod', metadata },
  } as unknown as Resource;
}
const rsOwner = { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-v1-abc12', controller: true }] };

describe('podWorkloadName (GetWorkloadMetaFromPod)', () => {
  it('is the pod name when the name was not generated, whatever owns the pod (len(pod.GenerateName) > 0 gate)', () => {
    expect(podWorkloadName(pod(rsOwner, { 'pod-template-hash': 'abc12' }))).toBe('web-v1-abc12-xyz');
  });
  it("is the Deployment's name for a generated pod of a ReplicaSet (TrimSuffix -<pod-template-hash>)", () => {
    expect(podWorkloadName(pod({ ...rsOwner, generateName: 'web-v1-abc12-' }, { 'pod-template-hash': 'abc12' }))).toBe('web-v1');
  });
  it('needs a controller owner reference; another owner leaves the pod name', () => {
    expect(
      podWorkloadName(pod({ generateName: 'x-', ownerReferences: [{ kind: 'ReplicaSet', name: 'web-v1-abc12' }] }, { 'pod-template-hash': 'abc12' })),
    ).toBe('web-v1-abc12-xyz');
  });
  it("takes a CronJob's name from a Job named with 8 to 10 digits only", () => {
    const job = (name: string) => podWorkloadName(pod({ generateName: `${name}-`, ownerReferences: [{ kind: 'Job', name, controller: true }] }));
    expect(job('backup-28012345')).toBe('backup');
    expect(job('backup-1234567')).toBe('backup-1234567');
  });
  it('prefers the service.istio.io/workload-name label', () => {
    expect(
      podWorkloadName(pod({ ...rsOwner, generateName: 'web-v1-abc12-' }, { 'pod-template-hash': 'abc12', 'service.istio.io/workload-name': 'shop' })),
    ).toBe('shop');
  });
});
