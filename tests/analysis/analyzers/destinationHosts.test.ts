import { describe, expect, it } from 'vitest';
import { destinationHostAnalyzer } from '../../../src/core/analysis/analyzers/virtualservice/destinationHosts.ts';
import { analyze, docs, lines, pairs } from './helpers.ts';

const svc = (ns: string, name: string, ports: number[], annotations = '') => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ${ns}${annotations}
spec:
  ports:
${ports.map((p) => `  - port: ${p}\n    name: http-${p}`).join('\n')}
`;

const vs = (ns: string, name: string, body: string) => `
apiVersion: networking.istio.io/v1beta1
kind: VirtualService
metadata:
  name: ${name}
  namespace: ${ns}
spec:
${body}`;

describe('virtualservice.DestinationHostAnalyzer', () => {
  it('accepts short names, FQDNs, service entries and wildcard service entries', () => {
    const out = analyze(destinationHostAnalyzer, {
      'ok.yaml': docs(
        svc('shop', 'cart', [8080]),
        `
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata:
  name: partners
  namespace: shop
spec:
  hosts: ["*.partners.example"]
  ports:
  - number: 443
    name: https
    protocol: TLS
`,
        vs('shop', 'short', `  http:\n  - route:\n    - destination:\n        host: cart\n`),
        vs('other', 'fqdn', `  tcp:\n  - route:\n    - destination:\n        host: cart.shop.svc.cluster.local\n`),
        vs('shop', 'wild', `  tls:\n  - route:\n    - destination:\n        host: api.partners.example\n`),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('reports an unknown host on the destination host line', () => {
    const text = docs(svc('shop', 'cart', [8080]), vs('shop', 'typo', `  http:\n  - route:\n    - destination:\n        host: carts\n`));
    const out = analyze(destinationHostAnalyzer, { 'vs.yaml': text });
    expect(pairs(out)).toEqual(['IST0101 VirtualService shop/typo']);
    const hostLine = text.split('\n').findIndex((l) => l.includes('host: carts')) + 1;
    expect(out[0]?.line).toBe(hostLine);
    expect(out[0]?.range).toMatchObject({ startLine: hostLine, endLine: hostLine });
    expect(out[0]?.message).toBe('Referenced host not found: "carts"');
    expect(out[0]?.fieldPath).toBe('spec.http[0].route[0].destination.host');
  });

  it('requires a port when the service has several, and checks the port when given', () => {
    const text = docs(
      svc('shop', 'web', [80, 443]),
      vs('shop', 'noport', `  http:\n  - route:\n    - destination:\n        host: web\n`),
      vs('shop', 'badport', `  http:\n  - route:\n    - destination:\n        host: web\n        port:\n          number: 8080\n`),
      vs('shop', 'goodport', `  http:\n  - route:\n    - destination:\n        host: web\n        port:\n          number: 443\n`),
    );
    const out = analyze(destinationHostAnalyzer, { 'p.yaml': text });
    expect(pairs(out)).toEqual(['IST0101 VirtualService shop/badport', 'IST0112 VirtualService shop/noport']);
    expect(lines(out)).toContain(
      `Error [IST0112] (VirtualService shop/noport p.yaml:${text.split('\n').findIndex((l, i) => i > 20 && l.includes('host: web')) + 1}) This VirtualService routes to a service "web" that exposes multiple ports [80 443]. Specifying a port in the destination is required to disambiguate.`,
    );
    expect(out.find((d) => d.code === 'IST0101')?.message).toBe('Referenced host:port not found: "web:8080"');
  });

  it('checks mirror destinations and empty routes', () => {
    const out = analyze(destinationHostAnalyzer, {
      'm.yaml': docs(
        svc('shop', 'cart', [8080]),
        vs('shop', 'mirror', `  http:\n  - route:\n    - destination:\n        host: cart\n    mirror:\n      host: shadow\n`),
        vs('shop', 'empty', `  http:\n  - route:\n    - {}\n`),
      ),
    });
    expect(out.map((d) => d.message).sort()).toEqual(['Referenced host not found: ""', 'Referenced mirror host not found: "shadow"']);
  });

  it('honours exportTo on service entries, the Service annotation and the VirtualService', () => {
    const out = analyze(destinationHostAnalyzer, {
      'e.yaml': docs(
        svc('team', 'private', [80], `\n  annotations:\n    networking.istio.io/exportTo: "."`),
        `
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata:
  name: ext
  namespace: team
spec:
  exportTo: ["friends"]
  hosts: [ext.example.com]
`,
        vs('team', 'local-ok', `  http:\n  - route:\n    - destination:\n        host: private\n`),
        vs('outside', 'hidden', `  http:\n  - route:\n    - destination:\n        host: private.team.svc.cluster.local\n`),
        vs('friends', 'exported', `  http:\n  - route:\n    - destination:\n        host: ext.example.com\n`),
        vs('strangers', 'not-exported', `  http:\n  - route:\n    - destination:\n        host: ext.example.com\n`),
        vs('team', 'vs-export-elsewhere', `  exportTo: [elsewhere]\n  http:\n  - route:\n    - destination:\n        host: private\n`),
      ),
    });
    expect(pairs(out)).toEqual([
      'IST0101 VirtualService outside/hidden',
      'IST0101 VirtualService strangers/not-exported',
      'IST0101 VirtualService team/vs-export-elsewhere',
    ]);
  });

  it('warns when a gateway-bound route has no subset but another route to the host uses one (IST0140)', () => {
    const out = analyze(destinationHostAnalyzer, {
      's.yaml': docs(
        svc('shop', 'cart', [80]),
        vs('shop', 'mesh-routes', `  hosts: [cart]\n  http:\n  - route:\n    - destination:\n        host: cart\n        subset: v1\n`),
        vs('shop', 'edge', `  hosts: [shop.example.com]\n  gateways: [edge-gw]\n  http:\n  - route:\n    - destination:\n        host: cart\n`),
      ),
    });
    expect(pairs(out)).toEqual(['IST0140 VirtualService shop/edge']);
    expect(out[0]?.message).toBe('Subset in virtual service shop/mesh-routes has no effect on ingress gateway shop/edge requests');
  });
});
