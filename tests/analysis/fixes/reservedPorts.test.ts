// Quick fixes never suggest a port Istio's proxy listens on itself. Istio's "Ports used by
// Istio" table: 15000 Envoy admin, 15001 outbound, 15004 debug, 15006 inbound, 15008 HBONE,
// 15009 HBONE for secure networks, 15020 merged Prometheus, 15021 health checks, 15053 DNS,
// 15090 Envoy Prometheus. The ingress gateway chart's Service exposes 15021 as status-port
// (manifests/charts/gateways/istio-ingress values: status-port 15021), which is where the
// bad suggestion came from.
import { describe, expect, it } from 'vitest';
import { analyzeFiles, sampleFiles, yaml } from './helpers.ts';
import { ISTIO_PROXY_PORTS, isIstioProxyPort } from '../../../src/core/analysis/fixes/reservedPorts.ts';

const podAndService = (ports: string[]) =>
  yaml(
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: ingress-1',
    '  namespace: gw',
    '  labels:',
    '    app: edge',
    'spec:',
    '  containers:',
    '    - name: istio-proxy',
    '      image: proxyv2',
    '---',
    'apiVersion: v1',
    'kind: Service',
    'metadata:',
    '  name: edge',
    '  namespace: gw',
    'spec:',
    '  selector:',
    '    app: edge',
    '  ports:',
    ...ports,
  );

const gatewayOn = (port: number) =>
  yaml(
    'apiVersion: networking.istio.io/v1',
    'kind: Gateway',
    'metadata:',
    '  name: edge',
    '  namespace: gw',
    'spec:',
    '  selector:',
    '    app: edge',
    '  servers:',
    '    - port:',
    `        number: ${port}`,
    '        name: http',
    '        protocol: HTTP',
    '      hosts: ["*"]',
  );

describe("Istio's proxy ports", () => {
  it("are the sidecar/gateway ports of Istio's table, not istiod's", () => {
    expect([...ISTIO_PROXY_PORTS.keys()]).toEqual([15000, 15001, 15004, 15006, 15008, 15009, 15020, 15021, 15053, 15090]);
    // istiod's XDS/CA and webhook ports are real Gateway servers on an east-west gateway.
    for (const p of [15012, 15017, 15443, 80, 443]) expect(isIstioProxyPort(p)).toBe(false);
  });
});

describe('IST0162: the Gateway server is never moved onto a proxy port', () => {
  it("offers 80 and 443 of the chart's ingress Service, not its status-port 15021", async () => {
    const files = {
      'ingress.yaml': podAndService([
        '    - name: status-port',
        '      port: 15021',
        '      targetPort: 15021',
        '    - name: http2',
        '      port: 80',
        '      targetPort: 8080',
        '    - name: https',
        '      port: 443',
        '      targetPort: 8443',
      ]),
      'gw.yaml': gatewayOn(9080),
    };
    const d = (await analyzeFiles(files)).find((x) => x.code === 'IST0162');
    const titles = (d?.fixes ?? []).map((f) => f.title);
    expect(titles).toContain('Change the Gateway server port to 80');
    expect(titles).toContain('Change the Gateway server port to 443');
    expect(titles.filter((t) => /150\d\d/.test(t))).toEqual([]);
  });

  it('offers nothing to move to when the Service has only proxy ports', async () => {
    const files = {
      'ingress.yaml': podAndService([
        '    - name: status-port',
        '      port: 15021',
        '      targetPort: 15021',
        '    - name: http-envoy-prom',
        '      port: 15090',
        '      targetPort: 15090',
      ]),
      'gw.yaml': gatewayOn(9080),
    };
    const d = (await analyzeFiles(files)).find((x) => x.code === 'IST0162');
    expect((d?.fixes ?? []).map((f) => f.title)).toEqual(['Add port 9080 to Service gw/edge']);
  });

  it('with the assumed ingress gateway (mistakes sample: a Gateway on 9000), never suggests 15021', async () => {
    // No gateway in the files: the chart's Service is assumed (status-port 15021, http2 80,
    // https 443) with istioctl's tcp 31400 and tls 15443.
    const d = (await analyzeFiles(sampleFiles())).find((x) => x.code === 'IST0162');
    expect(d, 'IST0162 for port 9000').toBeDefined();
    expect((d!.fixes ?? []).map((f) => f.title)).toEqual([
      'Change the Gateway server port to 80',
      'Change the Gateway server port to 443',
      'Change the Gateway server port to 31400',
    ]);
  });
});

describe('VirtualService destinations to a gateway Service: no route to its health port', () => {
  const svc = podAndService([
    '    - name: status-port',
    '      port: 15021',
    '      targetPort: 15021',
    '    - name: http2',
    '      port: 80',
    '      targetPort: 8080',
  ]);
  it('IST0112 offers 80 only', async () => {
    const files = {
      'ingress.yaml': svc,
      'vs.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: VirtualService',
        'metadata:',
        '  name: vs',
        '  namespace: gw',
        'spec:',
        '  hosts: [edge]',
        '  http:',
        '    - route:',
        '        - destination:',
        '            host: edge',
      ),
    };
    const d = (await analyzeFiles(files)).find((x) => x.code === 'IST0112');
    expect(d, 'IST0112 for a multi-port host without a port').toBeDefined();
    expect((d!.fixes ?? []).map((f) => f.title)).toEqual(['Route to port 80']);
  });

  it('IST0101 host:port offers 80 only', async () => {
    const files = {
      'ingress.yaml': svc,
      'vs.yaml': yaml(
        'apiVersion: networking.istio.io/v1',
        'kind: VirtualService',
        'metadata:',
        '  name: vs',
        '  namespace: gw',
        'spec:',
        '  hosts: [edge]',
        '  http:',
        '    - route:',
        '        - destination:',
        '            host: edge',
        '            port:',
        '              number: 9090',
      ),
    };
    const d = (await analyzeFiles(files)).find((x) => x.code === 'IST0101' && x.message.includes('host:port'));
    expect(d).toBeDefined();
    expect((d!.fixes ?? []).map((f) => f.title)).toEqual(['Change port to 80']);
  });
});
