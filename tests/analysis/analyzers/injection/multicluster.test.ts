import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { multiClusterServiceAnalyzer } from '../../../../src/core/analysis/analyzers/multicluster/service.ts';
import { meshNetworksAnalyzer } from '../../../../src/core/analysis/analyzers/multicluster/meshNetworks.ts';
import { MULTICLUSTER_ANALYZERS, ALL_ANALYZERS, istioAnalyzerByName } from '../../../../src/core/analysis/analyzers/index.ts';
import { runCasesFile } from '../../../../scripts/conformance.ts';
import { docs, pairs } from '../helpers.ts';
import { analyzeClusters, analyzeWith, lineOf } from './run.ts';

const svc = (name: string, spec: string) => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: bank
spec:
${spec}`;

const port = (name: string, p: number, extra = '') => `  - name: ${name}\n    protocol: TCP\n    port: ${p}\n${extra}`;

describe('services.MultiClusterServiceAnalyzer', () => {
  it('is registered as Istio does: in AllMultiCluster() and in All()', () => {
    expect(MULTICLUSTER_ANALYZERS).toContain(multiClusterServiceAnalyzer);
    expect(ALL_ANALYZERS).toContain(multiClusterServiceAnalyzer);
    expect(istioAnalyzerByName('services.MultiClusterServiceAnalyzer')).toBe(multiClusterServiceAnalyzer);
  });

  it('reports a Service defined differently in two clusters, once, with every reason', () => {
    const east = docs(svc('ledger', `  clusterIP: None\n  ports:\n${port('grpc', 9000)}`));
    const out = analyzeClusters(MULTICLUSTER_ANALYZERS, {
      east: { 'east.yaml': east },
      west: { 'west.yaml': docs(svc('ledger', `  type: NodePort\n  ports:\n${port('grpc', 9000)}${port('http', 80)}`)) },
    });
    expect(pairs(out)).toEqual(['IST0170 Service bank/ledger']);
    expect(out[0]?.message).toBe(
      'The service ledger in namespace "bank" is inconsistent across clusters ["east" "west"], which can lead to undefined behaviors. The inconsistent behaviors are: service has mixed mode like headless and clusterIP; service ports are inconsistent; service type is inconsistent.',
    );
    expect(out[0]?.cluster).toBe('east');
    expect(out[0]?.file).toBe('east.yaml');
    expect(out[0]?.line).toBe(lineOf(east, 'apiVersion'));
  });

  it('names the first cluster and each cluster that differs from it, not the ones that agree', () => {
    // Istio adds the cluster it compared against to the list once anything differs; headless
    // mode is left out here because a mixed mode lists every cluster.
    const same = docs(svc('ledger', `  type: ClusterIP\n  ports:\n${port('grpc', 9000)}`));
    const clustersOf = (out: ReturnType<typeof analyzeClusters>) => out.map((d) => d.message.match(/clusters (\[.*?\])/)?.[1]);
    const typeOnly = analyzeClusters(MULTICLUSTER_ANALYZERS, {
      a: { 'a.yaml': same },
      b: { 'b.yaml': same },
      c: { 'c.yaml': docs(svc('ledger', `  type: NodePort\n  ports:\n${port('grpc', 9000)}`)) },
    });
    expect(clustersOf(typeOnly)).toEqual(['["a" "c"]']);
    expect(typeOnly[0]?.message).toMatch(/The inconsistent behaviors are: service type is inconsistent\.$/);
    const portsOnly = analyzeClusters(MULTICLUSTER_ANALYZERS, {
      east: { 'e.yaml': same },
      west: { 'w.yaml': docs(svc('ledger', `  type: ClusterIP\n  ports:\n${port('grpc', 9001)}`)) },
    });
    expect(clustersOf(portsOnly)).toEqual(['["east" "west"]']);
  });

  it('accepts identical Services (ports in any order) and Services in one cluster only', () => {
    const out = analyzeClusters(MULTICLUSTER_ANALYZERS, {
      east: { 'e.yaml': docs(svc('ledger', `  ports:\n${port('a', 1)}${port('b', 2)}`), svc('only-east', '  ports: []\n')) },
      west: { 'w.yaml': docs(svc('ledger', `  ports:\n${port('b', 2)}${port('a', 1)}`)) },
    });
    expect(pairs(out)).toEqual([]);
  });

  it('compares nothing in a single-cluster run (resources carry no cluster)', () => {
    const out = analyzeWith(multiClusterServiceAnalyzer, { 's.yaml': docs(svc('ledger', '  type: NodePort\n'), svc('ledger2', '')) });
    expect(out).toEqual([]);
  });

  it('runs multi-cluster cases files through the conformance runner', () => {
    const results = runCasesFile(resolve(__dirname, '../../../fixtures/analyzers/injection/multicluster/cases.json'));
    expect(results.map((r) => [r.id, r.passed, r.missing, r.extra])).toEqual([['analyzers/two-clusters', true, [], []]]);
  });
});

describe('meshnetworks.MeshNetworksAnalyzer', () => {
  const networks = {
    networks: {
      'net-a': { endpoints: [{ fromRegistry: 'Kubernetes' }, { fromCidr: '10.0.0.0/8' }, { fromRegistry: 'east-cluster' }] },
      'net-b': { endpoints: [{ fromRegistry: 'west' }] },
    },
  };

  it('reports registries that are neither built in nor a remote-secret cluster, on the mesh networks', () => {
    const out = analyzeWith(meshNetworksAnalyzer, {}, { networks });
    expect(pairs(out)).toEqual(['IST0126 MeshNetworks istio-system/meshnetworks', 'IST0126 MeshNetworks istio-system/meshnetworks']);
    expect(out.map((d) => d.message).sort()).toEqual([
      'Unknown service registry east-cluster in network net-a',
      'Unknown service registry west in network net-b',
    ]);
    expect(out[0]?.level).toBe('Error');
    expect(out[0]?.line).toBeUndefined();
  });

  it('knows the clusters of remote secrets (data keys only)', () => {
    const secret = (name: string, label: string, body: string) => `
apiVersion: v1
kind: Secret
metadata:
  name: ${name}
  namespace: istio-system
  labels:
    istio/multiCluster: "${label}"
${body}`;
    const out = analyzeWith(
      meshNetworksAnalyzer,
      {
        's.yaml': docs(
          secret('remote-east', 'true', 'data:\n  east-cluster: YWJj\n'),
          secret('remote-west', 'true', 'stringData:\n  west: abc\n'),
          secret('not-remote', 'false', 'data:\n  west: YWJj\n'),
        ),
      },
      { networks },
    );
    expect(out.map((d) => d.message)).toEqual(['Unknown service registry west in network net-b']);
  });

  it('accepts the built-in registries and no networks at all', () => {
    expect(
      analyzeWith(meshNetworksAnalyzer, {}, { networks: { networks: { n: { endpoints: [{ fromRegistry: 'External' }, { fromRegistry: 'Mock' }] } } } }),
    ).toEqual([]);
    expect(analyzeWith(meshNetworksAnalyzer, {})).toEqual([]);
  });
});

describe('services.MultiClusterServiceAnalyzer on one cluster', () => {
  it('reports nothing for single-cluster input', async () => {
    const { WorkspaceAnalyzer } = await import('../../../../src/core/workspace.ts');
    const { defaultAnalysisSettings } = await import('../../../../src/core/analysis/settings.ts');
    const w = new WorkspaceAnalyzer();
    w.update(
      [{ path: 'a.yaml', text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  namespace: x\nspec:\n  ports:\n  - name: http\n    port: 80\n' }],
      [],
    );
    const r = await w.run({ ...defaultAnalysisSettings(), analyzers: ['services.MultiClusterServiceAnalyzer'] });
    expect(r === 'canceled' ? 'canceled' : r.diagnostics.filter((d) => d.code === 'IST0170')).toEqual([]);
  });
});
