import { describe, expect, it } from 'vitest';
import { secretAnalyzer } from '../../../../src/core/analysis/analyzers/gateway/secret.ts';
import { analyze, docs, lines, pairs } from '../helpers.ts';
import { b64, DAY_MS, makeCredential } from './certs.ts';

const gateway = (name: string, credentials: string[], selector = 'app: edge') => `
apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: ${name}
  namespace: web
spec:
  selector:
    ${selector}
  servers:
${credentials.map((c, i) => `  - port:\n      number: ${443 + i}\n      name: https-${i}\n      protocol: HTTPS\n    tls:\n      mode: SIMPLE\n      credentialName: ${c}\n    hosts: ["*.example.com"]`).join('\n')}
`;

const pod = `
apiVersion: v1
kind: Pod
metadata:
  name: edge-1
  namespace: edge-ns
  labels:
    app: edge
`;

const secret = (name: string, entries: Record<string, string>, ns = 'edge-ns') => `
apiVersion: v1
kind: Secret
metadata:
  name: ${name}
  namespace: ${ns}
type: kubernetes.io/tls
data:
${Object.entries(entries)
  .map(([k, v]) => `  ${k}: ${b64(v)}`)
  .join('\n')}
`;

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('gateway.SecretAnalyzer', () => {
  it('accepts current certificates in the workload namespace (tls.* and generic keys, cross-namespace refs)', async () => {
    const cred = await makeCredential();
    const out = analyze(secretAnalyzer, {
      'ok.yaml': docs(
        pod,
        secret('tls-cred', { 'tls.crt': cred.certPem, 'tls.key': cred.keyPem }),
        secret('generic-cred', { cert: cred.certPem, key: cred.legacyKeyPem }, 'other'),
        gateway('gw', ['tls-cred', 'other/generic-cred']),
      ),
    });
    expect(pairs(out)).toEqual([]);
  });

  it('reports expired, malformed and incomplete credentials on the credentialName line', async () => {
    const expired = await makeCredential({ notBefore: new Date(Date.now() - 5 * DAY_MS), notAfter: new Date(Date.now() - DAY_MS) });
    const text = docs(
      pod,
      secret('expired', { 'tls.crt': expired.certPem, 'tls.key': expired.keyPem }),
      secret('garbage', { 'tls.crt': 'hush hush\n', 'tls.key': 'secret\n' }),
      secret('no-key', { 'tls.crt': expired.certPem }),
      gateway('gw', ['expired', 'garbage', 'no-key']),
    );
    const out = analyze(secretAnalyzer, { 's.yaml': text });
    expect(pairs(out)).toEqual(['IST0161 Gateway web/gw', 'IST0161 Gateway web/gw', 'IST0161 Gateway web/gw']);
    expect(out.map((d) => d.line)).toEqual([
      lineOf(text, 'credentialName: expired'),
      lineOf(text, 'credentialName: garbage'),
      lineOf(text, 'credentialName: no-key'),
    ]);
    expect(out[0]?.message).toBe(
      'The credential referenced by the Gateway gw in namespace edge-ns is invalid, which can cause the traffic not to work as expected.',
    );
    expect(out[0]?.fieldPath).toBe('spec.servers[0].tls.credentialName');
  });

  it('reports a missing Secret (looked up in the workload namespace, not the Gateway namespace)', () => {
    const text = docs(pod, secret('in-web', { 'tls.crt': 'x', 'tls.key': 'y' }, 'web'), gateway('gw', ['in-web']));
    const out = analyze(secretAnalyzer, { 'm.yaml': text });
    expect(lines(out)).toEqual([
      `Error [IST0101] (Gateway web/gw m.yaml:${lineOf(text, 'credentialName: in-web')}) Referenced credentialName not found: "in-web"`,
    ]);
  });

  it('reports a selector that matches no pod, on the selector label line, and skips its servers', () => {
    const text = docs(pod, gateway('lost', ['whatever'], 'app: nowhere'));
    const out = analyze(secretAnalyzer, { 'sel.yaml': text });
    expect(lines(out)).toEqual([`Error [IST0101] (Gateway web/lost sel.yaml:${lineOf(text, 'app: nowhere')}) Referenced selector not found: "app=nowhere"`]);
  });
});
