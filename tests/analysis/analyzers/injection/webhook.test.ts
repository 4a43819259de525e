import { describe, expect, it } from 'vitest';
import { webhookAnalyzer } from '../../../../src/core/analysis/analyzers/webhook/webhook.ts';
import { docs, pairs } from '../helpers.ts';
import { analyzeWith } from './run.ts';

const config = (name: string, hooks: string, labels = '') => `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: ${name}
${labels}webhooks:
${hooks}`;

const hook = (name: string, selectors: string, service = 'istiod') => `- name: ${name}
  clientConfig:
    service:
      name: ${service}
      namespace: istio-system
${selectors}`;

const istiod = `
apiVersion: v1
kind: Service
metadata:
  name: istiod
  namespace: istio-system
spec:
  ports:
  - port: 443
`;

const nsSel = (value: string) => `  namespaceSelector:\n    matchLabels:\n      istio-injection: ${value}\n`;

describe('webhook.Analyzer', () => {
  it('reports webhooks that match the same namespace and pod labels, each naming the others', () => {
    const text = docs(
      config('injector-a', hook('sidecar-injector.istio.io', nsSel('enabled'))),
      config('injector-b', hook('namespace.sidecar-injector.istio.io', nsSel('enabled'))),
      istiod,
    );
    const out = analyzeWith(webhookAnalyzer, { 'wh.yaml': text });
    expect(pairs(out)).toEqual(['IST0139 MutatingWebhookConfiguration injector-a', 'IST0139 MutatingWebhookConfiguration injector-b']);
    const a = out.find((d) => d.origin === 'MutatingWebhookConfiguration injector-a');
    expect(a?.message).toBe('Webhook overlaps with others: [injector-b/namespace.sidecar-injector.istio.io]. This may cause injection to occur twice.');
    expect(a?.line).toBe(1);
  });

  it('reports a webhook whose service does not exist', () => {
    const out = analyzeWith(webhookAnalyzer, { 'wh.yaml': docs(config('injector', hook('sidecar-injector.istio.io', nsSel('enabled'), 'istiod-gone'))) });
    expect(pairs(out)).toEqual(['IST0139 MutatingWebhookConfiguration injector']);
    expect(out[0]?.message).toBe('Injector refers to a control plane service that does not exist: istio-system/istiod-gone.');
  });

  it('accepts disjoint revision webhooks and ignores webhooks that are not Istio', () => {
    // As Istio installs them: the default injector excludes revisioned namespaces, and a
    // revision's injector excludes namespaces with the legacy label.
    const revSel = (rev: string) =>
      `  namespaceSelector:\n    matchExpressions:\n    - key: istio.io/rev\n      operator: In\n      values: [${rev}]\n    - key: istio-injection\n      operator: DoesNotExist\n`;
    const defaultSel =
      '  namespaceSelector:\n    matchExpressions:\n    - key: istio-injection\n      operator: In\n      values: [enabled]\n    - key: istio.io/rev\n      operator: DoesNotExist\n';
    const out = analyzeWith(webhookAnalyzer, {
      'wh.yaml': docs(
        config('injector', hook('sidecar-injector.istio.io', defaultSel)),
        config('injector-blue', hook('rev.sidecar-injector.istio.io', revSel('blue'))),
        config('injector-green', hook('rev.sidecar-injector.istio.io', revSel('green'))),
        // Not Istio: no revision and no webhook named *istio.io, so neither overlaps nor needs a service.
        config('other', hook('mutate.example.com', '', 'missing')),
        config('other-2', hook('mutate2.example.com', '', 'missing')),
        istiod,
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('treats a configuration labelled with a revision as Istio and checks that revision', () => {
    const out = analyzeWith(webhookAnalyzer, {
      'wh.yaml': docs(
        config('tag-x', hook('a.example.com', ''), '  labels:\n    istio.io/rev: x\n'),
        config('injector', hook('sidecar-injector.istio.io', nsSel('enabled'))),
        istiod,
      ),
    });
    // tag-x has no selectors, so it overlaps with the default injector on enabled namespaces.
    expect(pairs(out)).toEqual(['IST0139 MutatingWebhookConfiguration injector', 'IST0139 MutatingWebhookConfiguration tag-x']);
  });
});
