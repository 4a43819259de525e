import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { istioGateway } from '../helpers/gatewayApi.ts';
import { at, byName, generateFor, list, viewOf } from './helpers.ts';
import { simulate } from '../../src/core/xds/simulate.ts';
import { generateForProxy } from '../../src/core/xds/generate.ts';
import { listProxies, proxyForPod } from '../../src/core/xds/proxy.ts';
import { assumedGatewayDeployments, meshServices } from '../../src/core/config/services.ts';

const GATEWAY = readFileSync(new URL('./fixtures/gateway.yaml', import.meta.url), 'utf8');

describe('ingress gateway generation', () => {
  const gen = generateFor(viewOf(GATEWAY), 'istio-ingressgateway-1', 'istio-system');

  it('is a router that listens on the target ports of its Service', () => {
    expect(gen.proxy.type).toBe('router');
    expect(gen.listeners.map((l) => l.name)).toEqual(['0.0.0.0_8080', '0.0.0.0_8443']);
  });

  it('names route configurations http.<port> and https.<port>.<server>.<gateway>.<ns>', () => {
    expect(gen.routes.map((r) => r.name)).toEqual(['http.8080', 'https.443.https.web.shop']);
  });

  it('terminates TLS with the credential from SDS', () => {
    const chain = list(byName(gen.listeners, '0.0.0.0_8443').filterChains)[0];
    expect(at(chain, 'filterChainMatch')).toEqual({ serverNames: ['web.example.com'] });
    const tls = at(chain, 'transportSocket', 'typedConfig');
    expect(at(tls, 'requireClientCertificate')).toBe(false);
    expect(at(tls, 'commonTlsContext', 'alpnProtocols')).toEqual(['h2', 'http/1.1']);
    expect(at(tls, 'commonTlsContext', 'tlsCertificateSdsSecretConfigs')).toEqual([
      { name: 'kubernetes://web-cert', sdsConfig: { ads: {}, resourceApiVersion: 'V3' } },
    ]);
  });

  it('redirects plaintext to HTTPS and rewrites and redirects as the VirtualService says', () => {
    const http = byName(gen.routes, 'http.8080');
    const vh = list(http.virtualHosts)[0];
    expect(vh).toMatchObject({ name: 'web.example.com:80', domains: ['web.example.com'], requireTls: 'ALL' });
    const routes = list(at(byName(gen.routes, 'https.443.https.web.shop'), 'virtualHosts', 0, 'routes'));
    expect(at(routes[0], 'route')).toMatchObject({ cluster: 'outbound|8000||web.shop.svc.cluster.local', prefixRewrite: '/' });
    expect(at(routes[1], 'redirect')).toEqual({ pathRedirect: '/api', responseCode: 'FOUND' });
  });

  it('simulates requests through the gateway', () => {
    const sim = (call: Parameters<typeof simulate>[1]) => simulate({ listeners: gen.listeners, routes: gen.routes }, call);
    expect(sim({ port: 8080, protocol: 'http', host: 'web.example.com' }).error).toBe('ErrTLSRedirect');
    expect(sim({ port: 8443, protocol: 'http', tls: 'tls', host: 'web.example.com', path: '/api/items' })).toMatchObject({
      routeConfig: 'https.443.https.web.shop',
      cluster: 'outbound|8000||web.shop.svc.cluster.local',
    });
    expect(sim({ port: 8443, protocol: 'http', tls: 'tls', host: 'other.example.com' }).error).toBe('ErrNoFilterChain');
  });

  it('builds every cluster of the mesh (gateways are not scoped by default)', () => {
    expect(gen.clusters.map((c) => c.name)).toEqual(expect.arrayContaining(['outbound|8000||web.shop.svc.cluster.local', 'BlackHoleCluster']));
    expect(gen.clusters.some((c) => c.name === 'PassthroughCluster')).toBe(false);
  });
});

/** A Gateway of class istio, an HTTPRoute on it to reviews, and the reviews Service. */
const GATEWAY_AND_ROUTE = `${istioGateway('shop', 'web', [
  ['http', 80],
  ['http.alt', 8080],
])}---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: reviews, namespace: shop}
spec:
  parentRefs: [{name: web}]
  hostnames: [shop.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /reviews}}]
    backendRefs: [{name: reviews, port: 9080}]
    timeouts: {request: 7s}
---
apiVersion: v1
kind: Service
metadata: {name: reviews, namespace: shop}
spec: {selector: {app: reviews}, ports: [{name: http, port: 9080}]}
`;

/**
 * The same with what istiod's deployment controller runs for the Gateway written out: a
 * Service `<gateway>-istio` and a pod labelled with the gateway's name.
 */
const GATEWAY_WITH_DEPLOYMENT = `${GATEWAY_AND_ROUTE}---
apiVersion: v1
kind: Service
metadata: {name: web-istio, namespace: shop}
spec: {selector: {gateway.networking.k8s.io/gateway-name: web}, ports: [{name: http, port: 80}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web-istio-1, namespace: shop, labels: {gateway.networking.k8s.io/gateway-name: web}}
spec: {containers: [{name: istio-proxy, image: proxyv2, args: [proxy, router]}]}
status: {podIP: 10.244.1.9}
`;

describe('Gateway API gateway generation', () => {
  const gen = generateFor(viewOf(GATEWAY_WITH_DEPLOYMENT), 'web-istio-1', 'shop');

  it('serves the listeners and routes of the converted Gateway and HTTPRoute, with the route timeout', () => {
    expect(gen.routes.map((r) => r.name)).toContain('http.80');
    const vh = list(byName(gen.routes, 'http.80').virtualHosts).find((v) => JSON.stringify(v.domains) === '["shop.example.com"]');
    const route = list(at(vh, 'routes'))[0];
    expect(at(route, 'match', 'pathSeparatedPrefix')).toBe('/reviews');
    expect(at(route, 'route', 'cluster')).toBe('outbound|9080||reviews.shop.svc.cluster.local');
    expect(at(route, 'route', 'timeout')).toBe('7s');
  });
});

describe('gateways istiod deploys for Kubernetes Gateways', () => {
  it('lists the gateway pod the deployment controller would run, and generates its listeners and routes', () => {
    const view = viewOf(GATEWAY_AND_ROUTE);
    const routers = listProxies(view).filter((p) => p.type === 'router');
    expect(routers).toHaveLength(1);
    const ref = routers[0]!;
    expect(ref.id).toMatch(/^web-istio-[a-z0-9]{9}-[a-z0-9]{5}\.shop$/);
    expect(ref.syntheticAddress).toBe(true);
    expect(ref.pod.derivedFrom).toEqual({ kind: 'Gateway', namespace: 'shop', name: 'web' });
    const gen = generateForProxy(view, proxyForPod(view, ref));
    expect(gen.listeners.map((l) => l.name)).toEqual(expect.arrayContaining(['0.0.0.0_80', '0.0.0.0_8080']));
    const vh = list(byName(gen.routes, 'http.80').virtualHosts).find((v) => JSON.stringify(v.domains) === '["shop.example.com"]');
    expect(at(list(at(vh, 'routes'))[0], 'route', 'timeout')).toBe('7s');
    // Its Service is in the generated registry (other proxies get a cluster for it) with an
    // assumed cluster IP, but not in the analyzers' registry (istioctl does not see it).
    const gatewayService = assumedGatewayDeployments(view).services[0]!;
    expect(gatewayService.hostname).toBe('web-istio.shop.svc.cluster.local');
    expect(gatewayService.ports.map((p) => [p.name, p.port])).toEqual([
      ['status-port', 15021],
      ['http', 80],
      ['http-alt', 8080],
    ]);
    expect(gatewayService.defaultAddress).toMatch(/^10\.96\./);
    expect(meshServices(view).some((s) => s.hostname === gatewayService.hostname)).toBe(false);
  });

  it('adds nothing for a Gateway whose Service and pods the files hold, or that names an existing Service', () => {
    const written = viewOf(GATEWAY_WITH_DEPLOYMENT);
    expect(assumedGatewayDeployments(written)).toEqual({ services: [], serviceResources: [], pods: [] });
    expect(
      listProxies(written)
        .filter((p) => p.type === 'router')
        .map((p) => p.id),
    ).toEqual(['web-istio-1.shop']);
    const manual = viewOf(
      GATEWAY_AND_ROUTE.replace(
        '  gatewayClassName: istio\n',
        '  gatewayClassName: istio\n  addresses: [{type: Hostname, value: ingress.istio-system.svc.cluster.local}]\n',
      ),
    );
    expect(assumedGatewayDeployments(manual)).toEqual({ services: [], serviceResources: [], pods: [] });
  });

  it('says which Service addresses are assumed, and none when the files write them all', () => {
    const view = viewOf(GATEWAY_AND_ROUTE);
    const gen = generateForProxy(view, proxyForPod(view, listProxies(view).find((p) => p.type === 'router')!));
    const note = gen.notes.find((n) => n.includes('no clusterIP'));
    const reviews = meshServices(view).find((s) => s.hostname === 'reviews.shop.svc.cluster.local')!;
    expect(note).toContain('2 Services have no clusterIP');
    expect(note).toContain(`web-istio.shop.svc.cluster.local ${assumedGatewayDeployments(view).services[0]!.defaultAddress}`);
    expect(note).toMatch(/reviews\.shop\.svc\.cluster\.local 10\.96\.\d+\.\d+/);
    expect(reviews.defaultAddress).toBe('0.0.0.0');
    expect(generateFor(viewOf(GATEWAY), 'istio-ingressgateway-1', 'istio-system').notes.some((n) => n.includes('no clusterIP'))).toBe(false);
  });

  it("is left out where Istio's own test harness runs no deployment controller", () => {
    const view = viewOf(GATEWAY_AND_ROUTE);
    const ref = listProxies(view).find((p) => p.type === 'router')!;
    const gen = generateForProxy(view, proxyForPod(view, ref), { assumeClusterIps: false });
    expect(gen.listeners.map((l) => l.name)).not.toContain('0.0.0.0_80');
  });
});
