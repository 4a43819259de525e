// Editor ranges of the destination host, gateway reference and ingress gateway port
// messages: on the offending field, with istioctl's line unchanged.
import { describe, expect, it } from 'vitest';
import { ingressGatewayPortAnalyzer } from '../../../src/core/analysis/analyzers/gateway/ingressGatewayPort.ts';
import { destinationHostAnalyzer } from '../../../src/core/analysis/analyzers/virtualservice/destinationHosts.ts';
import { gatewayAnalyzer } from '../../../src/core/analysis/analyzers/virtualservice/gateways.ts';
import type { Diagnostic } from '../../../src/core/document/types.ts';
import { analyze, docs } from './helpers.ts';
import { lineOf, vs } from './routing/util.ts';

function at(text: string, needle: string, anchor?: string): { startLine: number; startCol: number } {
  const line = lineOf(text, needle, anchor);
  return { startLine: line, startCol: (text.split('\n')[line - 1] as string).indexOf(needle) + 1 };
}

function find(out: readonly Diagnostic[], text: string): Diagnostic {
  const hits = out.filter((d) => `${d.code} ${d.message}`.includes(text));
  expect(hits).toHaveLength(1);
  return hits[0] as Diagnostic;
}

function start(d: Diagnostic): { startLine: number; startCol: number } | undefined {
  return d.range ? { startLine: d.range.startLine, startCol: d.range.startCol } : undefined;
}

const svc = (ns: string, name: string, ports: number[]) => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  ports:
${ports.map((p) => `  - port: ${p}\n    name: http-${p}`).join('\n')}
`;

describe('virtualservice.DestinationHostAnalyzer highlight paths', () => {
  it('IST0101 on a mirrors entry points at its host; IST0101 host:port at the port number', () => {
    const text = docs(
      svc('shop', 'web', [80]),
      vs(
        'shop',
        'mirrors',
        `  http:
  - route:
    - destination:
        host: web
        port:
          number: 8080
    mirrors:
    - destination:
        host: ghost
`,
      ),
    );
    const out = analyze(destinationHostAnalyzer, { 'vs.yaml': text });
    expect(out).toHaveLength(2);
    const mirror = find(out, '"ghost"');
    // Istio's key names `mirror`, absent here: istioctl prints the document line.
    expect(mirror.line).toBe(lineOf(text, 'kind: VirtualService') - 1);
    expect(start(mirror)).toEqual(at(text, 'host: ghost'));
    const port = find(out, '"web:8080"');
    expect(port.line).toBe(lineOf(text, 'host: web'));
    expect(start(port)).toEqual(at(text, 'number: 8080'));
  });

  it('IST0112 on a mirrors entry points at its host', () => {
    const text = docs(
      svc('shop', 'web', [80, 443]),
      vs(
        'shop',
        'ambiguous',
        `  http:
  - route:
    - destination:
        host: web
        port: {number: 80}
    mirrors:
    - destination:
        host: web
`,
      ),
    );
    const out = analyze(destinationHostAnalyzer, { 'vs.yaml': text });
    const d = find(out, 'IST0112');
    expect(d.line).toBe(lineOf(text, 'kind: VirtualService') - 1);
    expect(start(d)).toEqual(at(text, 'host: web', 'mirrors:'));
  });

  it('IST0140 points at the route destination host', () => {
    const text = docs(
      svc('shop', 'cart', [80]),
      vs('shop', 'mesh-routes', `  hosts: [cart]\n  http:\n  - route:\n    - destination:\n        host: cart\n        subset: v1\n`),
      vs('shop', 'edge', `  hosts: [shop.example.com]\n  gateways: [edge-gw]\n  http:\n  - route:\n    - destination:\n        host: cart\n`),
    );
    const out = analyze(destinationHostAnalyzer, { 's.yaml': text });
    const d = find(out, 'IST0140');
    expect(d.line).toBe(lineOf(text, 'name: edge') - 3);
    expect(start(d)).toEqual(at(text, 'host: cart', 'name: edge'));
  });
});

describe('virtualservice.GatewayAnalyzer ranges', () => {
  it('IST0101 and IST0132 already point at the gateway reference', () => {
    const text = docs(vs('shop', 'edge', '  hosts: [shop.example.com]\n  gateways:\n  - mesh\n  - missing-gw\n'));
    const out = analyze(gatewayAnalyzer, { 'vs.yaml': text });
    expect(out.map((d) => d.code).sort()).toEqual(['IST0101', 'IST0132']);
    for (const d of out) {
      expect(d.line).toBe(lineOf(text, '- missing-gw'));
      expect(start(d)).toEqual(at(text, 'missing-gw'));
    }
  });
});

describe('gateway.IngressGatewayPortAnalyzer highlight paths', () => {
  it('IST0162 points at the server port number, istioctl at the selector', () => {
    const text = docs(
      `apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: gw
  namespace: edge
spec:
  selector:
    app: edge-proxy
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: ["*"]
  - hosts: ["*"]
    port:
      name: extra
      number: 9000
      protocol: HTTP
`,
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: edge\n  labels: {app: edge-proxy}\n`,
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  namespace: edge\nspec:\n  selector: {app: edge-proxy}\n  ports:\n  - port: 80\n    protocol: TCP\n`,
    );
    const out = analyze(ingressGatewayPortAnalyzer, { 'gw.yaml': text });
    const d = find(out, 'IST0162');
    expect(d.line).toBe(lineOf(text, 'app: edge-proxy'));
    expect(d.fieldPath).toBe('spec.selector.app');
    expect(start(d)).toEqual(at(text, 'number: 9000'));
  });
});
