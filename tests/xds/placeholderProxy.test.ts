// The assumed ingress gateway (istio-system/istio-ingressgateway-dummypod, the pod istioctl's
// file analysis adds, pkg/config/analysis/local/defaults.go) is a proxy of the picker only
// when the workspace runs no ingress gateway of its own: a pod labelled istio=ingressgateway,
// the label of Istio's ingress chart pods (manifests/charts/gateways/istio-ingress) that
// Istio Gateways select by default.
import { describe, expect, it } from 'vitest';
import { viewOf } from './helpers.ts';
import { listProxies } from '../../src/core/xds/proxy.ts';

const PLACEHOLDER = 'istio-ingressgateway-dummypod.istio-system';

const GATEWAY = `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: web, namespace: shop}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: ["*"]
`;

const CHART_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: istio-ingressgateway, namespace: istio-system}
spec:
  selector:
    matchLabels: {app: istio-ingressgateway, istio: ingressgateway}
  template:
    metadata:
      labels: {app: istio-ingressgateway, istio: ingressgateway}
    spec:
      containers:
      - name: istio-proxy
        image: auto
        args: [proxy, router]
`;

const routers = (text: string) =>
  listProxies(viewOf(text, {}, true))
    .filter((p) => p.type === 'router')
    .map((p) => p.id);

describe('the placeholder ingress gateway in the proxy list', () => {
  it('is listed when the files have no ingress gateway', () => {
    expect(routers(GATEWAY)).toEqual([PLACEHOLDER]);
  });

  it("is left out when the files deploy the chart's ingress gateway (a Deployment's pod)", () => {
    const ids = routers(`${GATEWAY}---\n${CHART_DEPLOYMENT}`);
    expect(ids).not.toContain(PLACEHOLDER);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^istio-ingressgateway-[a-z0-9]+-[a-z0-9]{5}\.istio-system$/);
  });

  it('is left out when a pod of the files is labelled istio=ingressgateway, in any namespace', () => {
    const pod = `apiVersion: v1
kind: Pod
metadata: {name: edge-1, namespace: edge, labels: {istio: ingressgateway}}
spec:
  containers: [{name: istio-proxy, image: auto, args: [proxy, router]}]
`;
    expect(routers(`${GATEWAY}---\n${pod}`)).toEqual(['edge-1.edge']);
  });

  it('stays when the files have only an egress gateway (it is no ingress gateway)', () => {
    const egress = `apiVersion: v1
kind: Pod
metadata: {name: egress-1, namespace: istio-system, labels: {istio: egressgateway}}
spec:
  containers: [{name: istio-proxy, image: auto, args: [proxy, router]}]
`;
    expect(routers(`${GATEWAY}---\n${egress}`).sort()).toEqual(['egress-1.istio-system', PLACEHOLDER].sort());
  });

  it('is not listed when placeholders are off', () => {
    expect(listProxies(viewOf(GATEWAY, {}, false)).map((p) => p.id)).not.toContain(PLACEHOLDER);
  });
});
