// Gateway server host namespaces (issue #28), from Istio's source:
//  - pilot/pkg/model/gateway.go sanitizeServerHostNamespace(server, namespace): `./h` becomes
//    `<the Gateway's namespace>/h`, `*/h` becomes `h`, `*/*` becomes `*`; it is called by
//    MergeGateways with gatewayConfig.Namespace (the Gateway resource's namespace, not the proxy's).
//  - pilot/pkg/networking/core/gateway.go pickMatchingGatewayHosts: a gateway host `ns/h` binds a
//    VirtualService only when ns == the VirtualService's namespace; a host without `/` binds any.
// The expected bindings below follow from those two functions, not from our output.
import { describe, expect, it } from 'vitest';
import { at, byName, generateFor, list, viewOf } from './helpers.ts';

const service = (ns: string) => `apiVersion: v1
kind: Service
metadata: {name: backend, namespace: ${ns}}
spec:
  clusterIP: 10.96.${ns.length}.${ns.charCodeAt(0)}
  selector: {app: backend}
  ports: [{name: http, port: 80}]
`;

/** A VirtualService in `ns` for `host` on gateway gwns/web, routing to backend.<ns>. */
const vs = (name: string, ns: string, host: string) => `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: ${name}, namespace: ${ns}}
spec:
  hosts: [${host}]
  gateways: [gwns/web]
  http: [{route: [{destination: {host: backend.${ns}.svc.cluster.local, port: {number: 80}}}]}]
`;

const INGRESS = `apiVersion: v1
kind: Service
metadata: {name: istio-ingressgateway, namespace: istio-system}
spec:
  clusterIP: 10.96.9.9
  type: LoadBalancer
  selector: {istio: ingressgateway}
  ports: [{name: http2, port: 80, targetPort: 8080}, {name: https, port: 443, targetPort: 8443}]
---
apiVersion: v1
kind: Pod
metadata:
  name: istio-ingressgateway-1
  namespace: istio-system
  labels: {istio: ingressgateway, app: istio-ingressgateway}
  annotations: {sidecar.istio.io/inject: "false"}
spec:
  containers: [{name: istio-proxy, image: docker.io/istio/proxyv2:1.23.0, args: [proxy, router]}]
status: {podIP: 10.1.9.9}
`;

function routesFor(serverHosts: string[], virtualServices: string[]) {
  const gateway = `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: web, namespace: gwns}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: ${JSON.stringify(serverHosts)}
`;
  const text = [INGRESS, ...['istio-system', 'gwns', 'other', 'third'].map(service), gateway, ...virtualServices].join('---\n');
  const gen = generateFor(viewOf(text), 'istio-ingressgateway-1', 'istio-system');
  const rc = byName(gen.routes, 'http.8080');
  const out: Record<string, string[]> = {};
  for (const vh of list(rc.virtualHosts)) {
    const domains = at(vh, 'domains') as string[];
    const clusters = ((vh.routes as unknown[] | undefined) ?? []).map((r) => String(at(r, 'route', 'cluster')));
    for (const d of domains) out[d] = clusters;
  }
  return out;
}

describe('gateway server host namespaces (sanitizeServerHostNamespace, pickMatchingGatewayHosts)', () => {
  it("./host binds only VirtualServices in the Gateway's own namespace (not the proxy's, not another)", () => {
    const got = routesFor(
      ['./a.example.com'],
      [vs('a-gw', 'gwns', 'a.example.com'), vs('a-other', 'other', 'a.example.com'), vs('a-proxy', 'istio-system', 'a.example.com')],
    );
    expect(got).toEqual({ 'a.example.com': ['outbound|80||backend.gwns.svc.cluster.local'] });
  });

  it('ns/host binds only VirtualServices in ns', () => {
    const got = routesFor(
      ['other/b.example.com'],
      [vs('b-gw', 'gwns', 'b.example.com'), vs('b-other', 'other', 'b.example.com'), vs('b-third', 'third', 'b.example.com')],
    );
    expect(got).toEqual({ 'b.example.com': ['outbound|80||backend.other.svc.cluster.local'] });
  });

  it('*/host and a bare host bind VirtualServices from any namespace', () => {
    for (const h of ['*/c.example.com', 'c.example.com']) {
      const got = routesFor([h], [vs('c-third', 'third', 'c.example.com')]);
      expect(got).toEqual({ 'c.example.com': ['outbound|80||backend.third.svc.cluster.local'] });
    }
  });

  it('mixes the forms on one server, each host with its own namespace rule', () => {
    const got = routesFor(
      ['./a.example.com', 'other/b.example.com', '*/c.example.com'],
      [
        vs('a-other', 'other', 'a.example.com'),
        vs('a-gw', 'gwns', 'a.example.com'),
        vs('b-gw', 'gwns', 'b.example.com'),
        vs('b-other', 'other', 'b.example.com'),
        vs('c-gw', 'gwns', 'c.example.com'),
      ],
    );
    expect(got).toEqual({
      'a.example.com': ['outbound|80||backend.gwns.svc.cluster.local'],
      'b.example.com': ['outbound|80||backend.other.svc.cluster.local'],
      'c.example.com': ['outbound|80||backend.gwns.svc.cluster.local'],
    });
  });

  it('a host in a namespace with no VirtualService gives no virtual host for it (a 404 blackhole route config)', () => {
    // gateway.go buildGatewayHTTPRouteConfig: no vhosts → `blackhole:<port>` for `*` with no routes (Envoy 404 NR).
    expect(routesFor(['third/d.example.com'], [vs('d-other', 'other', 'd.example.com')])).toEqual({ '*': [] });
    expect(routesFor(['./d.example.com'], [vs('d-other', 'other', 'd.example.com')])).toEqual({ '*': [] });
  });

  it("*/host is the bare host for TLS duplicate detection: a second Gateway's server for the same SNI on the port is skipped", () => {
    // gateway.go MergeGateways sanitizes first (sanitizeServerHostNamespace), then CheckDuplicates on
    // the server's hosts per resolved port: `*/dup.example.com` and `dup.example.com` are the same host.
    const tlsGateway = (name: string, host: string) => `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: ${name}, namespace: gwns, creationTimestamp: "2024-01-0${name === 'first' ? 1 : 2}T00:00:00Z"}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 443, name: https-${name}, protocol: HTTPS}
    hosts: ["${host}"]
    tls: {mode: SIMPLE, credentialName: ${name}-cert}
`;
    const text = [INGRESS, service('gwns'), tlsGateway('first', '*/dup.example.com'), tlsGateway('second', 'dup.example.com')].join('---\n');
    const gen = generateFor(viewOf(text), 'istio-ingressgateway-1', 'istio-system');
    const chains = list(byName(gen.listeners, '0.0.0.0_8443').filterChains);
    expect(chains.map((c) => at(c, 'filterChainMatch', 'serverNames'))).toEqual([['dup.example.com']]);
  });
});
