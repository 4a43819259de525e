import { describe, expect, it } from 'vitest';
import { certificateAnalyzer } from '../../../../src/core/analysis/analyzers/gateway/certificate.ts';
import { analyze, docs, lines, pairs } from '../helpers.ts';

const gw = (ns: string, name: string, selector: Record<string, string>, tls: string) => `
apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  selector:
${Object.entries(selector)
  .map(([k, v]) => `    ${k}: ${v}`)
  .join('\n')}
  servers:
  - port:
      number: 443
      name: https
      protocol: HTTPS
    hosts: ["${name}.example.com"]
    tls:
${tls}`;

const cred = (name: string) => `      mode: SIMPLE\n      credentialName: ${name}\n`;
const files = (cert: string, key: string) => `      mode: SIMPLE\n      serverCertificate: ${cert}\n      privateKey: ${key}\n`;

describe('gateway.CertificateAnalyzer', () => {
  it('reports gateways on the same workload sharing a credential, on metadata.name', () => {
    const text = docs(gw('edge', 'a', { istio: 'ingressgateway' }, cred('shared')), gw('other', 'b', { istio: 'ingressgateway' }, cred('shared')));
    const out = analyze(certificateAnalyzer, { 'c.yaml': text });
    expect(pairs(out)).toEqual(['IST0138 Gateway edge/a', 'IST0138 Gateway other/b']);
    const nameLine = text.split('\n').findIndex((l) => l.includes('name: a')) + 1;
    expect(lines(out)[0]).toBe(
      `Warning [IST0138] (Gateway edge/a c.yaml:${nameLine}) Duplicate certificate in multiple gateways [edge/a other/b] may cause 404s if clients re-use HTTP2 connections.`,
    );
  });

  it('compares file certificates only when both certificate and key are set and equal', () => {
    const out = analyze(certificateAnalyzer, {
      'f.yaml': docs(
        gw('edge', 'a', { istio: 'gw' }, files('/etc/c.pem', '/etc/k.pem')),
        gw('edge', 'b', { istio: 'gw' }, files('/etc/c.pem', '/etc/k.pem')),
        gw('edge', 'c', { istio: 'gw' }, files('/etc/c.pem', '/etc/other.pem')),
      ),
    });
    expect(pairs(out)).toEqual(['IST0138 Gateway edge/a', 'IST0138 Gateway edge/b']);
  });

  it('does not flag distinct credentials or a gateway whose selector is narrower than the other', () => {
    const out = analyze(certificateAnalyzer, {
      'ok.yaml': docs(
        gw('edge', 'a', { istio: 'ingressgateway' }, cred('one')),
        gw('edge', 'b', { istio: 'ingressgateway' }, cred('two')),
        // The broad gateway sees the narrow one (its labels are a subset), not the reverse.
        gw('edge', 'narrow', { istio: 'ingressgateway', tier: 'internal' }, cred('one')),
      ),
    });
    expect(pairs(out)).toEqual(['IST0138 Gateway edge/a']);
  });
});
