import { describe, expect, it } from 'vitest';
import { conflictingGatewayAnalyzer } from '../../../../src/core/analysis/analyzers/gateway/conflictingGateway.ts';
import { analyze, docs, lines, pairs } from '../helpers.ts';

const gw = (name: string, selector: Record<string, string>, port: number, hosts: string[], bind = '') => `
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
  - port:
      number: ${port}
      name: p
      protocol: HTTP
    hosts: [${hosts.map((h) => `"${h}"`).join(', ')}]${bind ? `\n    bind: ${bind}` : ''}
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

describe('gateway.ConflictingGatewayAnalyzer', () => {
  it('reports gateways with the same selector, port, host and bind, listing the others sorted', () => {
    const text = docs(
      gw('c', { istio: 'ingressgateway' }, 80, ['shop.example.com']),
      gw('a', { istio: 'ingressgateway' }, 80, ['shop.example.com', 'other.example.com']),
      gw('b', { istio: 'ingressgateway' }, 80, ['shop.example.com']),
    );
    const out = analyze(conflictingGatewayAnalyzer, { 'g.yaml': text });
    expect(pairs(out)).toEqual(['IST0145 Gateway edge/a', 'IST0145 Gateway edge/b', 'IST0145 Gateway edge/c']);
    const ref = text.split('\n').findIndex((l) => l.includes('name: a')) + 1 - 3;
    expect(lines(out)).toContain(
      `Error [IST0145] (Gateway edge/a g.yaml:${ref}) Conflict with gateways edge/b,edge/c (workload selector istio=ingressgateway, port 80, hosts shop.example.com,other.example.com).`,
    );
    expect(out[0]?.fieldPath).toBeUndefined();
  });

  it('relates selectors that contain one another when a pod carries both', () => {
    const out = analyze(conflictingGatewayAnalyzer, {
      's.yaml': docs(
        gw('wide', { app: 'edge' }, 443, ['x.example.com']),
        gw('narrow', { app: 'edge', zone: 'a' }, 443, ['x.example.com']),
        pod('edge-a', { app: 'edge', zone: 'a' }),
      ),
    });
    expect(pairs(out)).toEqual(['IST0145 Gateway edge/narrow', 'IST0145 Gateway edge/wide']);
    expect(out.find((d) => d.origin === 'Gateway edge/narrow')?.message).toBe(
      'Conflict with gateways edge/wide (workload selector app=edge,zone=a, port 443, hosts x.example.com).',
    );
  });

  it('accepts different ports, hosts or binds, and related selectors without a common pod', () => {
    const out = analyze(conflictingGatewayAnalyzer, {
      'ok.yaml': docs(
        gw('a', { istio: 'ingressgateway' }, 80, ['a.example.com']),
        gw('b', { istio: 'ingressgateway' }, 443, ['a.example.com']),
        gw('c', { istio: 'ingressgateway' }, 80, ['c.example.com']),
        gw('d', { istio: 'ingressgateway' }, 80, ['a.example.com'], '10.0.0.1'),
        gw('wide', { app: 'edge' }, 8080, ['w.example.com']),
        gw('narrow', { app: 'edge', zone: 'a' }, 8080, ['w.example.com']),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('reports a selector no gateway with servers shares', () => {
    const text = docs(`
apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: empty
  namespace: edge
spec:
  selector:
    app: lonely
`);
    const out = analyze(conflictingGatewayAnalyzer, { 'e.yaml': text });
    expect(lines(out)).toEqual(['Error [IST0101] (Gateway edge/empty e.yaml:8) Referenced selector not found: "app=lonely"']);
  });
});
