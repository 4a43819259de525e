import { describe, expect, it } from 'vitest';
import { externalControlPlaneAnalyzer } from '../../../../src/core/analysis/analyzers/externalcontrolplane/externalControlPlane.ts';
import { docs, pairs } from '../helpers.ts';
import { analyzeWith } from './run.ts';

const cfg = (kind: 'Validating' | 'Mutating', name: string, hooks: Array<[string, string]>) => `
apiVersion: admissionregistration.k8s.io/v1
kind: ${kind}WebhookConfiguration
metadata:
  name: ${name}
webhooks:
${hooks.map(([n, client]) => `- name: ${n}\n  clientConfig:\n${client}`).join('\n')}
`;

const url = (u: string) => `    url: ${u}\n`;

describe('externalcontrolplane.ExternalControlPlaneAnalyzer', () => {
  it('reports a webhook with neither URL nor service', () => {
    const text = docs(cfg('Validating', 'istio-validator-remote', [['rev.validation.istio.io', '    url:\n']]));
    const out = analyzeWith(externalControlPlaneAnalyzer, { 'v.yaml': text });
    expect(pairs(out)).toEqual(['IST0163 ValidatingWebhookConfiguration istio-validator-remote']);
    expect(out[0]?.message).toBe(
      'The hostname () that was provided for the webhook (rev.validation.istio.io) to reach the ingress gateway on the external control plane cluster is blank. Traffic may not flow properly.',
    );
    expect(out[0]?.line).toBe(1);
  });

  it('reports an IP address and a malformed URL, per webhook', () => {
    const out = analyzeWith(externalControlPlaneAnalyzer, {
      'm.yaml': docs(
        cfg('Mutating', 'istio-sidecar-injector-remote', [
          ['a.sidecar-injector.istio.io', url('https://10.0.0.7:15017/inject')],
          ['b.sidecar-injector.istio.io', url('"https://istiod.example.com:port/inject"')],
          ['c.sidecar-injector.istio.io', url('"https://bad host/inject"')],
          ['d.sidecar-injector.istio.io', url('https://[2001:db8::1]/inject')],
        ]),
      ),
    });
    expect(out.map((d) => d.message)).toEqual(
      expect.arrayContaining([
        'The address (https://10.0.0.7:15017/inject) that was provided for the webhook (a.sidecar-injector.istio.io) to reach the ingress gateway on the external control plane cluster is an IP address. This is not recommended for a production environment.',
        'The hostname (https://istiod.example.com:port/inject) that was provided for the webhook (b.sidecar-injector.istio.io) to reach the ingress gateway on the external control plane cluster was provided in an invalid format. Traffic may not flow properly.',
        'The hostname (https://bad host/inject) that was provided for the webhook (c.sidecar-injector.istio.io) to reach the ingress gateway on the external control plane cluster was provided in an invalid format. Traffic may not flow properly.',
      ]),
    );
    expect(out.map((d) => d.code).sort()).toEqual(['IST0163', 'IST0163', 'IST0164', 'IST0164']);
  });

  it('makes no DNS lookup: a host that could never resolve is not reported, as in Istio', () => {
    const out = analyzeWith(externalControlPlaneAnalyzer, {
      'dns.yaml': docs(
        cfg('Mutating', 'istio-sidecar-injector', [
          ['e.sidecar-injector.istio.io', url('"https://-no-such-.example..com/inject"')],
          ['f.sidecar-injector.istio.io', url('"https:///inject"')],
        ]),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('accepts host names and services, and ignores other configurations', () => {
    const out = analyzeWith(externalControlPlaneAnalyzer, {
      'ok.yaml': docs(
        cfg('Validating', 'istiod-default-validator', [['validation.istio.io', url('https://istiod.example.com:15017/validate')]]),
        cfg('Mutating', 'istio-sidecar-injector', [['sidecar-injector.istio.io', '    service:\n      name: istiod\n      namespace: istio-system\n']]),
        cfg('Validating', 'other-validator', [['x.example.com', '    url:\n']]),
        cfg('Mutating', 'other-injector', [['y.example.com', url('https://1.2.3.4/')]]),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });
});
