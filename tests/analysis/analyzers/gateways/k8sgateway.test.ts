import { describe, expect, it } from 'vitest';
import { k8sGatewaySelectorAnalyzer } from '../../../../src/core/analysis/analyzers/k8sgateway/selector.ts';
import { crdVersionAnalyzer, parseSemVer, semVerString } from '../../../../src/core/analysis/analyzers/k8sgateway/crdVersion.ts';
import { analyze, docs, lines, pairs } from '../helpers.ts';

const gatewayPod = (ns: string, gateway: string) => `
apiVersion: v1
kind: Pod
metadata:
  name: ${gateway}-istio-abc
  namespace: ${ns}
  labels:
    gateway.networking.k8s.io/gateway-name: ${gateway}
    app: ${gateway}
`;

const policy = (apiVersion: string, kind: string, name: string, ns: string, body: string) => `
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: ${name}
  namespace: ${ns}
spec:
${body}`;

describe('k8sgateway.SelectorAnalyzer', () => {
  it('reports selector-only policies that match Kubernetes Gateway pods in their namespace', () => {
    const text = docs(
      gatewayPod('shop', 'public'),
      policy('security.istio.io/v1', 'AuthorizationPolicy', 'ap', 'shop', '  selector:\n    matchLabels:\n      app: public\n'),
      policy('telemetry.istio.io/v1', 'Telemetry', 'tel', 'shop', '  selector: {}\n'),
      // targetRefs (plural) does not exempt the selector, as in Istio.
      policy(
        'extensions.istio.io/v1alpha1',
        'WasmPlugin',
        'wasm',
        'shop',
        '  url: oci://x\n  selector:\n    matchLabels:\n      app: public\n  targetRefs:\n  - kind: Gateway\n    group: gateway.networking.k8s.io\n    name: public\n',
      ),
    );
    const out = analyze(k8sGatewaySelectorAnalyzer, { 'p.yaml': text });
    expect(pairs(out)).toEqual(['IST0166 AuthorizationPolicy shop/ap', 'IST0166 Telemetry shop/tel', 'IST0166 WasmPlugin shop/wasm']);
    const ref = text.split('\n').findIndex((l) => l.includes('name: ap')) + 1 - 3;
    expect(lines(out)).toContain(
      `Warning [IST0166] (AuthorizationPolicy shop/ap p.yaml:${ref}) Ineffective selector on Kubernetes Gateway public. Use the TargetRef field instead.`,
    );
  });

  it('accepts targetRef policies, other namespaces, non-gateway pods and policies without selector', () => {
    const out = analyze(k8sGatewaySelectorAnalyzer, {
      'ok.yaml': docs(
        gatewayPod('shop', 'public'),
        `
apiVersion: v1
kind: Pod
metadata:
  name: plain
  namespace: shop
  labels:
    app: web
`,
        policy(
          'security.istio.io/v1',
          'RequestAuthentication',
          'ra',
          'shop',
          '  selector:\n    matchLabels:\n      app: public\n  targetRef:\n    kind: Gateway\n    group: gateway.networking.k8s.io\n    name: public\n',
        ),
        policy('security.istio.io/v1', 'AuthorizationPolicy', 'elsewhere', 'other', '  selector:\n    matchLabels:\n      app: public\n'),
        policy('security.istio.io/v1', 'AuthorizationPolicy', 'web', 'shop', '  selector:\n    matchLabels:\n      app: web\n'),
        policy('security.istio.io/v1', 'AuthorizationPolicy', 'ns-wide', 'shop', '  action: ALLOW\n'),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });
});

const crd = (name: string, version?: string) => `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${name}${version === undefined ? '' : `\n  annotations:\n    gateway.networking.k8s.io/bundle-version: "${version}"`}
spec:
  group: gateway.networking.k8s.io
`;

describe('k8sgateway.CRDVersionAnalyzer', () => {
  it('reports Gateway API CRDs below the minimum bundle version', () => {
    const out = analyze(crdVersionAnalyzer, {
      'crd.yaml': docs(
        crd('tlsroutes.gateway.networking.k8s.io', 'v1.5.0-rc.1'),
        crd('grpcroutes.gateway.networking.k8s.io', 'v1.0.0'),
        crd('backendtlspolicies.gateway.networking.k8s.io', '1.3'),
      ),
    });
    expect(lines(out)).toEqual([
      'Warning [IST0176] (CustomResourceDefinition backendtlspolicies.gateway.networking.k8s.io crd.yaml:19) Gateway API CRD "backendtlspolicies.gateway.networking.k8s.io" is at version "1.3.0" but Istio requires at least "1.4.0"; resources of this kind will not be processed. Upgrade the Gateway API CRDs to satisfy the minimum version.',
      'Warning [IST0176] (CustomResourceDefinition grpcroutes.gateway.networking.k8s.io crd.yaml:10) Gateway API CRD "grpcroutes.gateway.networking.k8s.io" is at version "1.0.0" but Istio requires at least "1.1.0"; resources of this kind will not be processed. Upgrade the Gateway API CRDs to satisfy the minimum version.',
    ]);
  });

  it('accepts current versions, unknown CRDs, missing annotations and unparsable versions', () => {
    const out = analyze(crdVersionAnalyzer, {
      'ok.yaml': docs(
        crd('tlsroutes.gateway.networking.k8s.io', 'v1.5.0'),
        crd('grpcroutes.gateway.networking.k8s.io'),
        crd('backendtlspolicies.gateway.networking.k8s.io', 'latest'),
        crd('httproutes.gateway.networking.k8s.io', 'v0.1.0'),
      ),
    });
    expect(pairs(out)).toEqual([]);
    expect(semVerString(parseSemVer('v1.4.1-rc.2+build.5')!)).toBe('1.4.1-rc.2+build.5');
    expect(parseSemVer('1.2.3-01')).toBeUndefined();
  });
});
