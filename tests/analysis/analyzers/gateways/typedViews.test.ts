// The gateway, auth, telemetry and status analyzers read resources through the typed views of
// src/core/config/api, which decode fields the way Istio's Go decoding does: proto field
// names are accepted as well as JSON names, and an int32 field is an integer.
import { describe, expect, it } from 'vitest';
import { k8sGatewaySelectorAnalyzer } from '../../../../src/core/analysis/analyzers/k8sgateway/selector.ts';
import { authorizationPoliciesAnalyzer } from '../../../../src/core/analysis/analyzers/authz/authorizationPolicies.ts';
import { deprecationAnalyzer } from '../../../../src/core/analysis/analyzers/deprecation/deprecation.ts';
import { analyze, docs, pairs } from '../helpers.ts';

const gatewayPod = `
apiVersion: v1
kind: Pod
metadata:
  name: public-istio-abc
  namespace: shop
  labels:
    gateway.networking.k8s.io/gateway-name: public
    app: public
`;

describe('typed views in the analyzers', () => {
  it('k8sgateway.SelectorAnalyzer honours a targetRef written under its proto name', () => {
    const policy = `
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata:
  name: ap
  namespace: shop
spec:
  selector:
    matchLabels:
      app: public
  target_ref:
    kind: Gateway
    group: gateway.networking.k8s.io
    name: public
`;
    expect(pairs(analyze(k8sGatewaySelectorAnalyzer, { 'p.yaml': docs(gatewayPod, policy) }))).toEqual([]);
  });

  it('auth.AuthorizationPoliciesAnalyzer reads a selector written as match_labels', () => {
    const text = docs(
      `
apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels:
    istio-injection: enabled
`,
      `
apiVersion: v1
kind: Pod
metadata:
  name: cart
  namespace: shop
  labels:
    app: cart
spec:
  containers:
  - name: app
    image: app:1
`,
      `
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata:
  name: reviews
  namespace: shop
spec:
  selector:
    match_labels:
      app: reviews
`,
    );
    const out = analyze(authorizationPoliciesAnalyzer, { 'ap.yaml': text });
    expect(pairs(out)).toEqual(['IST0127 AuthorizationPolicy shop/reviews']);
    expect(out[0]?.message).toBe('No matching workloads for this resource with the following labels: app=reviews');
  });

  it('deprecation.DeprecationAnalyzer reads fault.delay.percent as the int32 it is', () => {
    const vs = (percent: string) => `
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: slow
  namespace: shop
spec:
  hosts: [slow]
  http:
  - fault:
      delay:
        percent: ${percent}
        fixedDelay: 5s
`;
    // Go does not decode 0.5 into an int32 (the resource is rejected), so nothing is deprecated.
    expect(pairs(analyze(deprecationAnalyzer, { 'vs.yaml': vs('0.5') }))).toEqual([]);
    expect(pairs(analyze(deprecationAnalyzer, { 'vs.yaml': vs('"5"') }))).toEqual(['IST0002 VirtualService shop/slow']);
  });
});
