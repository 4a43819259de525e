import { describe, expect, it } from 'vitest';
import { injectionAnalyzer } from '../../../../src/core/analysis/analyzers/injection/injection.ts';
import { docs, pairs } from '../helpers.ts';
import { analyzeWith, lineOf } from './run.ts';

const ns = (name: string, labels: Record<string, string> = {}) => `
apiVersion: v1
kind: Namespace
metadata:
  name: ${name}
${
  Object.keys(labels).length
    ? `  labels:\n${Object.entries(labels)
        .map(([k, v]) => `    ${k}: "${v}"`)
        .join('\n')}\n`
    : ''
}`;

const pod = (name: string, namespace: string, containers: string, extra = '') => `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${namespace}
${extra}spec:
${containers}`;

const app = '  containers:\n  - name: web\n    image: shop/web:2.1\n';
const withProxy = `${app}  - name: istio-proxy\n    image: docker.io/istio/proxyv2:1.22.0\n`;

const injectorCm = (name: string, byDefault: boolean) => `
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: istio-system
data:
  values: '{"sidecarInjectorWebhook":{"enableNamespacesByDefault":${byDefault}}}'
`;

describe('injection.Analyzer', () => {
  it('reports an unlabelled namespace on its name, with the kubectl hint', () => {
    const text = docs(ns('shop'));
    const out = analyzeWith(injectionAnalyzer, { 'ns.yaml': text });
    expect(pairs(out)).toEqual(['IST0102 Namespace shop']);
    expect(out[0]?.message).toBe(
      "The namespace is not enabled for Istio injection. Run 'kubectl label namespace shop istio-injection=enabled' to enable it, or 'kubectl label namespace shop istio-injection=disabled' to explicitly mark it as not needing injection.",
    );
    expect(out[0]?.level).toBe('Info');
    expect(out[0]?.fieldPath).toBe('metadata.name');
    expect(out[0]?.line).toBe(lineOf(text, 'name: shop'));
  });

  it('reports conflicting injection labels, listing them', () => {
    const text = docs(
      ns('tools', { 'istio-injection': 'enabled', 'istio.io/rev': 'blue' }),
      ns('lab', { 'istio.io/rev': 'blue', 'istio.io/dataplane-mode': 'ambient' }),
    );
    const out = analyzeWith(injectionAnalyzer, { 'ns.yaml': text });
    expect(pairs(out)).toEqual(['IST0123 Namespace lab', 'IST0123 Namespace tools']);
    const tools = out.find((d) => d.origin === 'Namespace tools');
    expect(tools?.message).toBe(
      'The namespace has more than one type of injection labels [istio-injection=enabled istio.io/rev=blue], which may lead to undefined behavior. Make sure only one injection label exists.',
    );
    // No field: istioctl prints the document's first line.
    expect(tools?.line).toBe(1);
  });

  it('does not count other labels when the legacy label opts out', () => {
    const out = analyzeWith(injectionAnalyzer, {
      'ns.yaml': docs(
        ns('quiet', { 'istio-injection': 'disabled', 'istio.io/rev': 'blue' }),
        ns('amb', { 'istio.io/dataplane-mode': 'ambient' }),
        ns('istio-system'),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('reports a pod of an injected namespace that has no proxy', () => {
    const text = docs(ns('payments', { 'istio-injection': 'enabled' }), pod('checkout-7d9f', 'payments', app));
    const out = analyzeWith(injectionAnalyzer, { 'p.yaml': text });
    expect(pairs(out)).toEqual(['IST0103 Pod payments/checkout-7d9f']);
    expect(out[0]?.message).toBe(
      'The pod payments/checkout-7d9f is missing the Istio proxy. This can often be resolved by restarting or redeploying the workload.',
    );
    expect(out[0]?.line).toBe(lineOf(text, 'kind: Pod') - 1);
  });

  it('accepts injected pods, native sidecars, opted-out and host-network pods', () => {
    const out = analyzeWith(injectionAnalyzer, {
      'p.yaml': docs(
        ns('payments', { 'istio-injection': 'enabled' }),
        pod('a', 'payments', withProxy),
        pod('b', 'payments', `${app}  initContainers:\n  - name: istio-proxy\n    image: docker.io/istio/proxyv2:1.22.0\n`),
        pod('c', 'payments', app, '  labels:\n    sidecar.istio.io/inject: "False"\n  annotations:\n    sidecar.istio.io/inject: "true"\n'),
        pod('d', 'payments', `  hostNetwork: true\n${app}`),
        // Not injected namespaces are not checked.
        ns('legacy', { 'istio-injection': 'disabled' }),
        pod('e', 'legacy', app),
        ns('canary', { 'istio.io/rev': 'canary' }),
        pod('f', 'canary', app),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('says a namespace is injected by default when the injector enables namespaces by default', () => {
    const out = analyzeWith(injectionAnalyzer, {
      'a.yaml': docs(injectorCm('istio-sidecar-injector', true), ns('shop'), pod('x', 'shop', app)),
    });
    expect(pairs(out)).toEqual(['IST0148 Namespace shop']);
    expect(out[0]?.message).toBe('is enabled for Istio injection, as Istio is installed with enableNamespacesByDefault as true.');
  });

  it("uses the namespace revision's injector ConfigMap", () => {
    const out = analyzeWith(injectionAnalyzer, {
      'a.yaml': docs(injectorCm('istio-sidecar-injector', false), injectorCm('istio-sidecar-injector-blue', true), ns('shop')),
    });
    // `shop` has no revision: the default injector (false) applies.
    expect(pairs(out)).toEqual(['IST0102 Namespace shop']);
  });
});
