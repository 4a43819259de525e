import { describe, expect, it } from 'vitest';
import { imageAutoAnalyzer } from '../../../../src/core/analysis/analyzers/injection/imageAuto.ts';
import { docs, pairs } from '../helpers.ts';
import { analyzeWith, lineOf } from './run.ts';

const webhooks = `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: istio-sidecar-injector
webhooks:
- name: rev.namespace.sidecar-injector.istio.io
  clientConfig:
    service: {name: istiod, namespace: istio-system}
  namespaceSelector:
    matchExpressions:
    - key: istio-injection
      operator: In
      values: [enabled]
- name: rev.object.sidecar-injector.istio.io
  clientConfig:
    service: {name: istiod, namespace: istio-system}
  namespaceSelector:
    matchExpressions:
    - key: istio-injection
      operator: DoesNotExist
  objectSelector:
    matchLabels:
      sidecar.istio.io/inject: "true"
- name: not-istio.example.com
  clientConfig:
    service: {name: other, namespace: other}
`;

const ns = (name: string, labels = '') => `
apiVersion: v1
kind: Namespace
metadata:
  name: ${name}
${labels}`;

const deployment = (name: string, namespace: string, podLabels: string) => `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
${podLabels}    spec:
      containers:
      - name: istio-proxy
        image: auto
`;

describe('injection.ImageAutoAnalyzer', () => {
  it('reports a Deployment using image: auto that no Istio webhook selects', () => {
    const text = docs(webhooks, ns('edge'), deployment('edge-gw', 'edge', ''));
    const out = analyzeWith(imageAutoAnalyzer, { 'gw.yaml': text });
    expect(pairs(out)).toEqual(['IST0146 Deployment edge/edge-gw']);
    expect(out[0]?.message).toBe('Deployment edge-gw contains `image: auto` but does not match any Istio injection webhook selectors.');
    expect(out[0]?.level).toBe('Warning');
    expect(out[0]?.line).toBe(lineOf(text, 'kind: Deployment') - 1);
  });

  it('reports every Pod that still has image: auto', () => {
    const text = docs(
      ns('edge', '  labels:\n    istio-injection: enabled\n'),
      webhooks,
      `
apiVersion: v1
kind: Pod
metadata:
  name: gw-5c8
  namespace: edge
spec:
  containers:
  - name: istio-proxy
    image: auto
`,
    );
    const out = analyzeWith(imageAutoAnalyzer, { 'pod.yaml': text });
    expect(pairs(out)).toEqual(['IST0147 Pod edge/gw-5c8']);
    expect(out[0]?.message).toBe('Pod gw-5c8 contains `image: auto` but does not match any Istio injection webhook selectors.');
    expect(out[0]?.level).toBe('Error');
  });

  it('accepts Deployments selected by namespace or by object label, and other images', () => {
    const out = analyzeWith(imageAutoAnalyzer, {
      'ok.yaml': docs(
        webhooks,
        ns('edge', '  labels:\n    istio-injection: enabled\n'),
        deployment('by-namespace', 'edge', ''),
        ns('plain'),
        deployment('by-object', 'plain', '        sidecar.istio.io/inject: "true"\n'),
        deployment('not-auto', 'plain', '').replace('image: auto', 'image: istio/proxyv2:1.24.1'),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('treats a namespace-less Deployment as in `default`', () => {
    const text = docs(webhooks, ns('default', '  labels:\n    istio-injection: enabled\n'), deployment('d', 'x', '').replace('  namespace: x\n', ''));
    expect(pairs(analyzeWith(imageAutoAnalyzer, { 'd.yaml': text }))).toEqual([]);
  });
});
