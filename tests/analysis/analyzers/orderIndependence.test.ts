// Findings that must not depend on the order of files and documents (the `metamorphic` fuzz
// target's reordering property), with the minimal counterexamples it found, and the case it
// leaves out because Istio itself depends on the order there (duplicate keys).
import { describe, expect, it } from 'vitest';
import { sidecarSelectorAnalyzer } from '../../../src/core/analysis/analyzers/sidecar/selector.ts';
import { portNameAnalyzer } from '../../../src/core/analysis/analyzers/service/portName.ts';
import { analyze, docs, lines } from './helpers.ts';

const sidecar = (name: string, selector?: string) => `
apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: ${name}
  namespace: ns2
spec:
${selector ? `  workloadSelector:\n    labels:\n      app: ${selector}\n` : ''}  egress:
  - hosts: ["./*"]
`;

const pod = `
apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: ns2
  labels:
    app: web
`;

describe('order of the documents', () => {
  // Found by the metamorphic fuzz target (seed 1): the Sidecars were named in load order.
  // Istio's getNames (pkg/config/analysis/analyzers/sidecar/util.go) sorts them, so
  // istioctl prints the same message whatever the order of the files.
  it('IST0111 names the selector-less Sidecars sorted, in either order', () => {
    for (const order of [
      ['b-default', 'a-default'],
      ['a-default', 'b-default'],
    ]) {
      const out = analyze(sidecarSelectorAnalyzer, { 's.yaml': docs(...order.map((n) => sidecar(n))) });
      expect(out.map((d) => d.message)).toEqual([
        'The Sidecars [a-default b-default] in namespace "ns2" have no workload selector, which can lead to undefined behavior.',
        'The Sidecars [a-default b-default] in namespace "ns2" have no workload selector, which can lead to undefined behavior.',
      ]);
    }
  });

  it('IST0110 names the Sidecars that select one pod sorted, in either order', () => {
    for (const order of [
      ['b-web', 'a-web'],
      ['a-web', 'b-web'],
    ]) {
      const out = analyze(sidecarSelectorAnalyzer, { 's.yaml': docs(pod, ...order.map((n) => sidecar(n, 'web'))) });
      expect(out.map((d) => d.message)).toEqual([
        'The Sidecars [a-web b-web] in namespace "ns2" select the same workload pod "web-1", which can lead to undefined behavior.',
        'The Sidecars [a-web b-web] in namespace "ns2" select the same workload pod "web-1", which can lead to undefined behavior.',
      ]);
    }
  });

  // An earlier run of the target reported IST0118 in only one order for two Services named ""
  // in one namespace (one spelled its key `n\tame:`, so it has no name). That is the
  // duplicate-key case, where Istio depends on the order: both have the key
  // (Service, ns, ""), and istioctl's file source applies the later over the earlier
  // (pilot/pkg/config/file/store.go, KubeSource.ApplyContent: Update on an existing key), so
  // only the later one is analyzed. The target leaves such inputs out of the property.
  it('two Services with the same empty name: the later one is the one analyzed', () => {
    const unnamed = (nameKey: string, portName: string) => `
apiVersion: v1
kind: Service
metadata:
  ${nameKey}: ""
  namespace: shop
spec:
  ports:
  - name: ${portName}
    port: 8080
`;
    const a = unnamed('n\tame', 'foo');
    const b = unnamed('name', 'http');
    const first = analyze(portNameAnalyzer, { 's.yaml': docs(a, b) }, { mode: 'cli' });
    expect(first).toEqual([]);
    const second = analyze(portNameAnalyzer, { 's.yaml': docs(b, a) }, { mode: 'cli' });
    expect(lines(second)).toEqual([
      `Info [IST0118] (Service shop/ s.yaml:19) Port name foo (port: 8080, targetPort: 0) doesn't follow the naming convention of Istio port.`,
    ]);
  });
});
