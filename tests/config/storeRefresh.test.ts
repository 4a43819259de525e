import { describe, expect, it } from 'vitest';
import { ResourceStore, type StoreOptions } from '../../src/core/config/store.ts';
import { WorkspaceModel } from '../../src/core/document/workspaceModel.ts';
import { KINDS, kindById } from '../../src/core/document/kinds.ts';
import { defaultMeshConfig, defaultMeshNetworks } from '../../src/core/config/mesh/meshconfig.ts';
import { kindProblems } from '../../src/core/validation/kindProblems.ts';

// refreshKinds must leave the store exactly as a store built from scratch, whether it swaps
// changed objects in place (same keys, same order) or reloads the kind.

const options: StoreOptions = {
  mode: 'cli',
  defaultNamespace: 'default',
  includePlaceholders: true,
  deriveWorkloads: true,
  meshConfig: defaultMeshConfig(),
  meshNetworks: defaultMeshNetworks(),
};

function vs(name: string, host: string, namespace = 'default'): string {
  return `apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\nspec:\n  hosts: [${host}]\n`;
}

const deployment =
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers: [{name: web, image: web}]\n';

function snapshot(store: ResourceStore) {
  const kinds = [KINDS.VirtualService, KINDS.Deployment, KINDS.Pod, KINDS.Service];
  return {
    lists: kinds.map((k) => store.list(k).map((r) => [r.key, r.body])),
    aside: kinds.map((k) => store.setAside(k).map((r) => [r.key, r.body])),
    // all() lists by key, in no promised order.
    all: store
      .all()
      .map((r) => [r.key, r.body] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    // find() has its own index: it must name the very object all() holds under each key.
    found: store.all().every((r) => store.find(kindById(r.kindId)!, r.namespace, r.name) === r),
    // …and nothing that was dropped (a renamed resource's old name).
    stale: ['a', 'b', 'c'].filter(
      (n) => store.find(KINDS.VirtualService, 'default', n) !== store.all().find((r) => r.key === `${KINDS.VirtualService.id}/default/${n}`),
    ),
    size: store.size,
  };
}

const cases: Array<[string, string[], string[], 'in place' | 'reload']> = [
  ['a changed host', [vs('a', 'x'), vs('b', 'y'), deployment], [vs('a', 'x'), vs('b', 'z'), deployment], 'in place'],
  ['a duplicate key: the later one wins', [vs('a', 'x'), vs('a', 'y'), vs('b', 'y')], [vs('a', 'x2'), vs('a', 'y2'), vs('b', 'y')], 'in place'],
  ['only the earlier duplicate changes', [vs('a', 'x'), vs('a', 'y')], [vs('a', 'x2'), vs('a', 'y')], 'in place'],
  ['a resource in an ignored namespace', [vs('a', 'x', 'kube-system'), vs('b', 'y')], [vs('a', 'x2', 'kube-system'), vs('b', 'y2')], 'in place'],
  ['a renamed resource', [vs('a', 'x'), vs('b', 'y')], [vs('a', 'x'), vs('c', 'y')], 'reload'],
  ['swapped order', [vs('a', 'x'), vs('b', 'y')], [vs('b', 'y'), vs('a', 'x')], 'reload'],
  ['an added resource', [vs('a', 'x')], [vs('a', 'x'), vs('b', 'y')], 'reload'],
  ['a changed Deployment (derived pods)', [deployment, vs('a', 'x')], [deployment.replace('replicas: 2', 'replicas: 3'), vs('a', 'x')], 'reload'],
];

describe('ResourceStore.refreshKinds', () => {
  for (const [label, before, after, how] of cases) {
    it(`${label}: equals a store built from scratch (${how})`, () => {
      // The model re-parses only the edited documents and says which kinds changed, as in the app.
      const model = new WorkspaceModel(kindProblems);
      model.update([{ path: 'mesh.yaml', text: before.join('---\n') }], []);
      model.takeChangedKinds();
      const store = new ResourceStore(model.resources(), options);
      const oldVirtualServices = [...store.list(KINDS.VirtualService)];
      model.update([{ path: 'mesh.yaml', text: after.join('---\n') }], []);
      const next = model.resources();
      const changedKinds = new Set(model.takeChangedKinds());
      store.refreshKinds(next, changedKinds);
      const refreshed = snapshot(store);
      expect(refreshed).toEqual(snapshot(new ResourceStore(next, options)));
      expect(refreshed.found).toBe(true);
      expect(refreshed.stale).toEqual([]);
      // Every resource the store holds is one of the new objects, never a stale one.
      for (const r of store.list(KINDS.VirtualService)) expect(next).toContain(r);
      for (const old of oldVirtualServices) if (!next.includes(old)) expect(store.all()).not.toContain(old);
    });
  }
});
