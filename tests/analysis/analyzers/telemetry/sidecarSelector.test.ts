import { describe, expect, it } from 'vitest';
import { sidecarSelectorAnalyzer } from '../../../../src/core/analysis/analyzers/sidecar/selector.ts';
import { docs, lines, pairs } from '../helpers.ts';
import { lineOf, run } from './run.ts';

const pod = (ns: string, name: string, labels: Record<string, string>, annotations: Record<string, string> = {}) => `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${ns}
  labels:
${Object.entries(labels)
  .map(([k, v]) => `    ${k}: "${v}"`)
  .join('\n')}
${
  Object.keys(annotations).length
    ? `  annotations:\n${Object.entries(annotations)
        .map(([k, v]) => `    ${k}: "${v}"`)
        .join('\n')}\n`
    : ''
}`;

const sidecar = (ns: string, name: string, labels?: Record<string, string>) => `
apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: ${name}
  namespace: ${ns}
spec:
${
  labels
    ? `  workloadSelector:\n    labels:\n${Object.entries(labels)
        .map(([k, v]) => `      ${k}: "${v}"`)
        .join('\n')}\n`
    : ''
}  egress:
  - hosts: ["./*"]
`;

const namespace = (name: string, labels: Record<string, string>) => `
apiVersion: v1
kind: Namespace
metadata:
  name: ${name}
  labels:
${Object.entries(labels)
  .map(([k, v]) => `    ${k}: "${v}"`)
  .join('\n')}
`;

describe('sidecar.SelectorAnalyzer', () => {
  it('accepts selectors that each match their own pods and a single default Sidecar', () => {
    const out = run(sidecarSelectorAnalyzer, {
      'ok.yaml': docs(
        pod('shop', 'web-1', { app: 'web' }),
        pod('shop', 'api-1', { app: 'api', tier: 'back' }),
        sidecar('shop', 'default'),
        sidecar('shop', 'web', { app: 'web' }),
        sidecar('shop', 'api', { app: 'api', tier: 'back' }),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('reports a selector that matches no pod of its namespace, on the first label (sorted)', () => {
    const text = docs(
      pod('shop', 'web-1', { app: 'web' }),
      pod('other', 'ghost-1', { app: 'ghost' }),
      sidecar('shop', 'ghost', { version: 'v1', 'app.kubernetes.io/name': 'ghost' }),
    );
    const out = run(sidecarSelectorAnalyzer, { 's.yaml': text });
    expect(pairs(out)).toEqual(['IST0101 Sidecar shop/ghost']);
    expect(out[0]?.fieldPath).toBe('spec.workloadSelector.labels["app.kubernetes.io/name"]');
    expect(lines(out)).toEqual([
      `Error [IST0101] (Sidecar shop/ghost s.yaml:${lineOf(text, 'app.kubernetes.io/name: "ghost"')}) Referenced selector not found: "app.kubernetes.io/name=ghost,version=v1"`,
    ]);
  });

  it('reports every Sidecar that selects a pod another one selects, once per shared pod', () => {
    const text = docs(
      pod('shop', 'cart-1', { app: 'cart', track: 'stable' }),
      pod('shop', 'cart-2', { app: 'cart', track: 'canary' }),
      sidecar('shop', 'by-app', { app: 'cart' }),
      sidecar('shop', 'canary', { track: 'canary' }),
    );
    const out = run(sidecarSelectorAnalyzer, { 'c.yaml': text });
    expect(pairs(out)).toEqual(['IST0110 Sidecar shop/by-app', 'IST0110 Sidecar shop/canary']);
    expect(lines(out)).toEqual([
      `Error [IST0110] (Sidecar shop/by-app c.yaml:${lineOf(text, 'name: by-app')}) The Sidecars [by-app canary] in namespace "shop" select the same workload pod "cart-2", which can lead to undefined behavior.`,
      `Error [IST0110] (Sidecar shop/canary c.yaml:${lineOf(text, 'name: canary')}) The Sidecars [by-app canary] in namespace "shop" select the same workload pod "cart-2", which can lead to undefined behavior.`,
    ]);
    expect(out.map((d) => d.fieldPath)).toEqual(['metadata.name', 'metadata.name']);
  });

  it('reports several Sidecars without a selector in one namespace (IST0111)', () => {
    const text = docs(sidecar('shop', 'default'), sidecar('shop', 'second'), sidecar('other', 'default'));
    const out = run(sidecarSelectorAnalyzer, { 'n.yaml': text });
    expect(pairs(out)).toEqual(['IST0111 Sidecar shop/default', 'IST0111 Sidecar shop/second']);
    expect(out[0]?.message).toBe('The Sidecars [default second] in namespace "shop" have no workload selector, which can lead to undefined behavior.');
    expect(out[0]?.line).toBe(1); // no field: the resource's first line
  });

  it('reports ambient-mode workloads and namespaces as ineffective instead of conflicting', () => {
    const out = run(sidecarSelectorAnalyzer, {
      'a.yaml': docs(
        pod('mesh', 'zt-1', { app: 'zt' }, { 'ambient.istio.io/redirection': 'enabled' }),
        sidecar('mesh', 'zt-a', { app: 'zt' }),
        sidecar('mesh', 'zt-b', { app: 'zt' }),
        namespace('amb', { 'istio.io/dataplane-mode': 'ambient' }),
        sidecar('amb', 'one'),
        sidecar('amb', 'two'),
        // An injection label wins over the ambient label: these two conflict as usual.
        namespace('mixed', { 'istio.io/dataplane-mode': 'ambient', 'istio-injection': 'enabled' }),
        sidecar('mixed', 'one'),
        sidecar('mixed', 'two'),
      ),
    });
    expect(pairs(out)).toEqual([
      'IST0111 Sidecar mixed/one',
      'IST0111 Sidecar mixed/two',
      'IST0167 Sidecar amb/one',
      'IST0167 Sidecar amb/two',
      'IST0167 Sidecar mesh/zt-a',
      'IST0167 Sidecar mesh/zt-b',
    ]);
    expect(out.find((d) => d.origin === 'Sidecar mesh/zt-a')?.message).toBe(
      'The policy has no impact: selected workload is in ambient mode, the policy has no impact.',
    );
    expect(out.find((d) => d.origin === 'Sidecar amb/one')?.message).toBe('The policy has no impact: namespace is in ambient mode, the policy has no impact.');
  });
});
