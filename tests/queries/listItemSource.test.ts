// A pod written as an item of a `kind: List` is located at its own lines: the editor's
// "Show the Envoy config of this workload" tells the items of one List apart by them.
import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { answerQuery } from '../../src/core/queries/index.ts';

const NAMESPACE = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels:
    istio-injection: enabled
`;

// Line numbers matter: the first item spans lines 4-13, the second 14-23.
const PODS = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: cart
    namespace: shop
    annotations:
      sidecar.istio.io/status: '{}'
  spec:
    containers:
    - name: istio-proxy
- apiVersion: v1
  kind: Pod
  metadata:
    name: orders
    namespace: shop
    annotations:
      sidecar.istio.io/status: '{}'
  spec:
    containers:
    - name: istio-proxy
`;

describe('source locations of List items', () => {
  it('gives each item its own first and last line', async () => {
    const w = new WorkspaceAnalyzer();
    w.update(
      [
        { path: 'ns.yaml', text: NAMESPACE },
        { path: 'pods.yaml', text: PODS },
      ],
      [],
    );
    expect(await w.run(defaultAnalysisSettings())).not.toBe('canceled');
    const state = w.analyzedState()!;
    const res = answerQuery('workloads', {}, state) as { items: { name: string; source?: unknown }[] };
    const byName = new Map(res.items.map((x) => [x.name, x.source]));
    expect(byName.get('cart')).toMatchObject({ file: 'pods.yaml', startLine: 4, endLine: 13 });
    expect(byName.get('orders')).toMatchObject({ file: 'pods.yaml', startLine: 14, endLine: 23 });
  });
});
