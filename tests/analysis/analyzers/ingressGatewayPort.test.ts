import { describe, expect, it } from 'vitest';
import { ingressGatewayPortAnalyzer } from '../../../src/core/analysis/analyzers/gateway/ingressGatewayPort.ts';
import { analyze, docs, pairs } from './helpers.ts';

const gateway = (name: string, selector: Record<string, string>, ports: number[]) => `
apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: ${name}
  namespace: edge
spec:
  selector:
${Object.entries(selector)
  .map(([k, v]) => `    ${k}: ${v}`)
  .join('\n')}
  servers:
${ports.map((p) => `  - port:\n      number: ${p}\n      name: p${p}\n      protocol: HTTP\n    hosts: ["*"]`).join('\n')}
`;

const pod = (name: string, labels: Record<string, string>) => `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: edge
  labels:
${Object.entries(labels)
  .map(([k, v]) => `    ${k}: ${v}`)
  .join('\n')}
`;

const service = (name: string, selector: Record<string, string>, ports: string) => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: edge
spec:
  selector:
${Object.entries(selector)
  .map(([k, v]) => `    ${k}: ${v}`)
  .join('\n')}
  ports:
${ports}`;

describe('gateway.IngressGatewayPortAnalyzer', () => {
  it('accepts server ports that are a service port or a numeric target port', () => {
    const out = analyze(ingressGatewayPortAnalyzer, {
      'ok.yaml': docs(
        gateway('gw', { app: 'edge-proxy' }, [80, 8443]),
        pod('edge-proxy-1', { app: 'edge-proxy', version: 'v1' }),
        service('edge-proxy', { app: 'edge-proxy' }, '  - port: 80\n    protocol: TCP\n  - port: 443\n    targetPort: 8443\n    protocol: TCP\n'),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('reports ports no selecting Service exposes over TCP, on the selector line', () => {
    const text = docs(
      gateway('gw', { app: 'edge-proxy' }, [80, 9000, 53]),
      pod('edge-proxy-1', { app: 'edge-proxy' }),
      service('edge-proxy', { app: 'edge-proxy' }, '  - port: 80\n    protocol: TCP\n  - port: 53\n    protocol: UDP\n'),
      // A Service that selects other pods does not count.
      service('unrelated', { app: 'other' }, '  - port: 9000\n    protocol: TCP\n'),
    );
    const out = analyze(ingressGatewayPortAnalyzer, { 'bad.yaml': text });
    expect(pairs(out)).toEqual(['IST0162 Gateway edge/gw', 'IST0162 Gateway edge/gw']);
    const selLine = text.split('\n').findIndex((l) => l.includes('app: edge-proxy')) + 1;
    expect(out.map((d) => d.line)).toEqual([selLine, selLine]);
    expect(out.map((d) => d.fieldPath)).toEqual(['spec.selector.app', 'spec.selector.app']);
    expect(out.map((d) => d.message).sort()[0]).toBe(
      'The gateway is listening on a target port (port 53) that is not defined in the Service associated with its workload instances (Pod selector app=edge-proxy). If you need to access the gateway port through the gateway Service, it will not be available.',
    );
  });

  it('reports IST0101 when the selector matches no pod (and then checks no ports)', () => {
    const out = analyze(ingressGatewayPortAnalyzer, { 'none.yaml': docs(gateway('gw', { 'app.kubernetes.io/name': 'ghost', app: 'x' }, [1234])) });
    expect(pairs(out)).toEqual(['IST0101 Gateway edge/gw']);
    expect(out[0]?.message).toBe('Referenced selector not found: "app=x,app.kubernetes.io/name=ghost"');
    expect(out[0]?.fieldPath).toBe('spec.selector.app');
  });

  it('uses the placeholder istio-ingressgateway when none is in the files', () => {
    const out = analyze(ingressGatewayPortAnalyzer, { 'p.yaml': gateway('gw', { istio: 'ingressgateway' }, [443, 8004]) });
    expect(out.map((d) => d.message.match(/port (\d+)/)?.[1])).toEqual(['8004']);
  });

  it('ignores Services in other namespaces', () => {
    const out = analyze(ingressGatewayPortAnalyzer, {
      'ns.yaml': docs(
        gateway('gw', { app: 'edge-proxy' }, [8080]),
        pod('edge-proxy-1', { app: 'edge-proxy' }),
        service('edge-proxy', { app: 'edge-proxy' }, '  - port: 8080\n    protocol: TCP\n').replace('namespace: edge', 'namespace: elsewhere'),
      ),
    });
    expect(pairs(out)).toEqual(['IST0162 Gateway edge/gw']);
  });

  it('counts a Service without a selector: it selects every pod of its namespace', () => {
    // Kubernetes' SelectorFromSet of no labels matches everything, so Istio counts its ports.
    const selectorless = (name: string, namespace: string, selector: string) =>
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\nspec:\n${selector}  ports:\n  - port: 8080\n    protocol: TCP\n`;
    for (const selector of ['', '  selector: {}\n']) {
      const sameNamespace = analyze(ingressGatewayPortAnalyzer, {
        'all.yaml': docs(gateway('gw', { app: 'edge-proxy' }, [8080]), pod('edge-proxy-1', { app: 'edge-proxy' }), selectorless('catch-all', 'edge', selector)),
      });
      expect(pairs(sameNamespace), JSON.stringify(selector)).toEqual([]);
      const otherNamespace = analyze(ingressGatewayPortAnalyzer, {
        'other.yaml': docs(
          gateway('gw', { app: 'edge-proxy' }, [8080]),
          pod('edge-proxy-1', { app: 'edge-proxy' }),
          selectorless('catch-all', 'elsewhere', selector),
        ),
      });
      expect(pairs(otherNamespace), JSON.stringify(selector)).toEqual(['IST0162 Gateway edge/gw']);
    }
  });

  it('checks thousands of gateways, each against its own pods and services', () => {
    const parts: string[] = [];
    for (let i = 0; i < 1500; i++) {
      parts.push(
        gateway(`gw-${i}`, { app: `a${i}` }, [80, i % 500 === 0 ? 81 : 80]),
        pod(`p-${i}`, { app: `a${i}` }),
        service(`s-${i}`, { app: `a${i}` }, '  - port: 80\n    protocol: TCP\n'),
      );
    }
    const out = analyze(ingressGatewayPortAnalyzer, { 'big.yaml': docs(...parts) });
    expect(pairs(out)).toEqual(['IST0162 Gateway edge/gw-0', 'IST0162 Gateway edge/gw-1000', 'IST0162 Gateway edge/gw-500']);
  });

  it('counts a port without a protocol as TCP, the API server default', () => {
    const out = analyze(ingressGatewayPortAnalyzer, {
      'd.yaml': docs(
        gateway('gw', { app: 'edge-proxy' }, [8080]),
        pod('edge-proxy-1', { app: 'edge-proxy' }),
        service('edge-proxy', { app: 'edge-proxy' }, '  - port: 80\n    targetPort: 8080\n'),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it("assumes Istio's ingress chart outside the test harness: server port 8080 (behind Service port 80) is fine", () => {
    const out = analyze(ingressGatewayPortAnalyzer, { 'p.yaml': gateway('gw', { istio: 'ingressgateway' }, [8080, 8443, 80, 9000]) }, { mode: 'cli' });
    expect(out.map((d) => d.message.match(/port (\d+)/)?.[1])).toEqual(['9000']);
  });
});
