// Values a share link redacted (document/redactionMarkers.ts) are not read as broken input: a CA key
// replaced by the marker is "redacted in this link", its checks are skipped, and the bundle
// is not refused because of it. Envoy's own `[redacted]` keeps its own label, and a key that
// really is broken is still reported.
import { describe, expect, it } from 'vitest';
import { cacertsSecretYaml, generateGatewayCredential, generatePki } from '../../src/core/pki/generate.ts';
import { inspect } from '../../src/core/pki/index.ts';
import type { CertsReport, ScenarioView } from '../../src/core/pki/report.ts';
import { DATA_MARKER, PRIVATE_KEY_MARKER, STRING_MARKER } from '../../src/core/document/redactionMarkers.ts';
import { x509KeyPairError, bundleHasCertificate } from '../../src/core/config/gatewayApi/objects.ts';
import { secretAnalyzer } from '../../src/core/analysis/analyzers/gateway/secret.ts';
import { analyze, docs, pairs } from '../analysis/analyzers/helpers.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const b64 = (s: string) => Buffer.from(s).toString('base64');

interface CaFiles {
  caCert: string;
  caKey: string;
  certChain: string;
  rootCert: string;
}

/** A generated plug-in CA (root → intermediate), as the four files of a cacerts Secret. */
async function caFiles(): Promise<CaFiles> {
  const pki = await generatePki({ now: NOW, clusters: ['east'], workloads: [] });
  const file = (name: string) => pki.files.find((f) => f.path === `east/${name}`)!.text;
  return { caCert: file('ca-cert.pem'), caKey: file('ca-key.pem'), certChain: file('cert-chain.pem'), rootCert: file('root-cert.pem') };
}

/** The cacerts Secret written with `stringData` (generate.ts writes the `data` form). */
function cacertsStringData(f: CaFiles, keyValue: string): string {
  return cacertsSecretYaml(f)
    .replace(/^data:$/m, 'stringData:')
    .replace(
      /^ {2}([\w.-]+): (\S+)$/gm,
      (_, k: string, v: string) => `  ${k}: ${k === 'ca-key.pem' ? keyValue : JSON.stringify(Buffer.from(v, 'base64').toString())}`,
    );
}

const scenario = (r: CertsReport, kind: ScenarioView['kind']) => r.scenarios.find((s) => s.kind === kind)!;
const step = (s: ScenarioView, name: string) => s.steps.find((x) => x.name === name);
const errors = (r: CertsReport) => [
  ...r.findings.filter((f) => f.severity === 'error').map((f) => `${f.id} ${f.message}`),
  ...r.problems.filter((p) => p.severity === 'error').map((p) => p.message),
];

describe('a cacerts Secret whose CA key was redacted in a share link', () => {
  it('data: the CA is not refused, the key is listed as redacted in this link (KEY_REDACTED_IN_LINK)', async () => {
    const f = await caFiles();
    const r = await inspect([{ name: 'cacerts.yaml', text: cacertsSecretYaml({ ...f, caKey: 'REDACTED' }) }], { now: NOW });
    const ca = scenario(r, 'plugin-ca');
    expect(ca.verdict.ok).toBe(true);
    expect(ca.verdict.text).not.toContain('istiod would refuse');
    expect(ca.verdict.text).toContain('ca-key.pem was redacted in this link');
    // The checks that do not need the key still run; the key steps say why they did not.
    expect(step(ca, 'chain verification')?.status).toBe('pass');
    expect(step(ca, 'key parse')?.status).toBe('skipped');
    expect(step(ca, 'key parse')?.detail).toContain('redacted in this link');
    expect(step(ca, 'key matches the signing cert')?.status).toBe('skipped');
    expect(step(ca, 'signing cert is a CA')?.status).toBe('pass');
    expect(ca.chains.length).toBe(1);
    // One key, redacted in this link (not Envoy's label), one info finding, nothing in error.
    expect(r.keys).toHaveLength(1);
    expect(r.keys[0]).toMatchObject({ state: 'redacted-in-link', istio: 'redacted in this link', publicKey: null });
    expect(r.keys[0]!.origin.key).toBe('ca-key.pem');
    const redacted = r.findings.filter((f) => f.id === 'KEY_REDACTED_IN_LINK');
    expect(redacted).toHaveLength(1);
    expect(redacted[0]!.severity).toBe('info');
    expect(redacted[0]!.message).toContain('key redacted in this link');
    expect(r.findings.some((f) => f.id === 'KEY_REDACTED' || f.id === 'KEY_MISMATCH')).toBe(false);
    expect(errors(r)).toEqual([]);
    // No private key material in the input any more.
    expect(r.privateKeys).toBe(false);
  });

  it('stringData ("REDACTED") and a key cut out of a PEM file are read the same way', async () => {
    const f = await caFiles();
    const fromString = await inspect([{ name: 'cacerts.yaml', text: cacertsStringData(f, JSON.stringify(STRING_MARKER)) }], { now: NOW });
    expect(scenario(fromString, 'plugin-ca').verdict.ok).toBe(true);
    expect(fromString.keys.map((k) => k.state)).toEqual(['redacted-in-link']);
    expect(errors(fromString)).toEqual([]);
    // Loose files: ca-key.pem holds the marker left where its PEM block was (line breaks kept).
    const files = [
      { name: 'ca-cert.pem', text: f.caCert },
      { name: 'ca-key.pem', text: `${PRIVATE_KEY_MARKER}\n\n\n\n` },
      { name: 'cert-chain.pem', text: f.certChain },
      { name: 'root-cert.pem', text: f.rootCert },
    ];
    const loose = await inspect(files, { now: NOW });
    const ca = scenario(loose, 'plugin-ca');
    expect(ca.verdict.ok).toBe(true);
    expect(step(ca, 'key parse')?.status).toBe('skipped');
    expect(loose.keys.map((k) => k.state)).toEqual(['redacted-in-link']);
    expect(loose.findings.map((x) => x.id)).toContain('KEY_REDACTED_IN_LINK');
    expect(errors(loose)).toEqual([]);
  });

  it('a kubernetes.io/tls cacerts Secret with tls.key redacted loads too', async () => {
    const f = await caFiles();
    const secret = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: cacerts',
      '  namespace: istio-system',
      'type: kubernetes.io/tls',
      'data:',
      `  tls.crt: ${b64(f.caCert)}`,
      `  tls.key: ${DATA_MARKER}`,
      `  ca.crt: ${b64(f.rootCert)}`,
      '',
    ].join('\n');
    const r = await inspect([{ name: 'cacerts.yaml', text: secret }], { now: NOW });
    const ca = scenario(r, 'plugin-ca');
    expect(ca.verdict.ok).toBe(true);
    expect(ca.verdict.text).toContain('tls.key was redacted in this link');
    expect(r.keys.map((k) => k.state)).toEqual(['redacted-in-link']);
    expect(errors(r)).toEqual([]);
  });

  it('a self-signed CA Secret (istio-ca-secret) with its key redacted: no retry verdict', async () => {
    const f = await caFiles();
    const secret = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: istio-ca-secret',
      '  namespace: istio-system',
      'type: istio.io/ca-root',
      'data:',
      `  ca-cert.pem: ${b64(f.rootCert)}`,
      `  ca-key.pem: ${DATA_MARKER}`,
      '',
    ].join('\n');
    const r = await inspect([{ name: 'ca.yaml', text: secret }], { now: NOW });
    const ca = scenario(r, 'self-signed-ca');
    expect(ca.verdict.ok).toBe(true);
    expect(ca.verdict.text).toContain('not checked');
    expect(r.keys.map((k) => k.state)).toEqual(['redacted-in-link']);
    expect(errors(r)).toEqual([]);
  });

  it('still refuses a key that is there and broken, and still says "redacted by Envoy" for Envoy\'s marker', async () => {
    const f = await caFiles();
    const broken = await inspect([{ name: 'cacerts.yaml', text: cacertsSecretYaml({ ...f, caKey: 'not a key at all' }) }], { now: NOW });
    expect(scenario(broken, 'plugin-ca').verdict.text).toContain('istiod would refuse this bundle');
    expect(broken.findings.some((x) => x.id === 'KEY_REDACTED_IN_LINK')).toBe(false);
    const envoy = await inspect([{ name: 'key.pem', text: '[redacted]' }], { now: NOW });
    expect(envoy.keys.map((k) => k.state)).toEqual(['redacted']);
    expect(envoy.findings.map((x) => x.id)).toEqual(['KEY_REDACTED']);
  });
});

describe('gateway credentials redacted in a share link', () => {
  it('tls.key redacted: istiod would serve it, no KEY_MISMATCH; the key check is skipped', async () => {
    const cred = await generateGatewayCredential({
      name: 'shop-cred',
      namespace: 'istio-system',
      hosts: ['shop.example.com'],
      notBefore: new Date(NOW.getTime() - 86400000),
      notAfter: new Date(NOW.getTime() + 90 * 86400000),
    });
    const secret = cred.secretYaml.replace(/^ {2}tls\.key: .*$/m, `  tls.key: ${DATA_MARKER}`);
    expect(secret).toContain(DATA_MARKER);
    const r = await inspect([{ name: 'cred.yaml', text: secret }], { now: NOW });
    const gw = scenario(r, 'gateway-credential');
    expect(gw.verdict.ok).toBe(true);
    expect(gw.verdict.text).toContain('tls.key was redacted in this link');
    expect(step(gw, 'key matches the certificate (tls.X509KeyPair)')?.status).toBe('skipped');
    expect(r.findings.some((x) => x.id === 'KEY_MISMATCH')).toBe(false);
    expect(r.keys.map((k) => k.state)).toEqual(['redacted-in-link']);
    expect(errors(r)).toEqual([]);
  });

  it('gateway.SecretAnalyzer reports no IST0161 for a redacted certificate, and Gateway API key checks skip the marker', async () => {
    const gw = [
      'apiVersion: networking.istio.io/v1',
      'kind: Gateway',
      'metadata:',
      '  name: gw',
      '  namespace: web',
      'spec:',
      '  selector:',
      '    app: edge',
      '  servers:',
      '  - port: {number: 443, name: https, protocol: HTTPS}',
      '    tls: {mode: SIMPLE, credentialName: cred}',
      '    hosts: ["*.example.com"]',
    ].join('\n');
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: edge-1\n  namespace: edge-ns\n  labels:\n    app: edge\n';
    const secret = (crt: string) =>
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: cred\n  namespace: edge-ns\ntype: kubernetes.io/tls\ndata:\n  tls.crt: ${crt}\n  tls.key: ${DATA_MARKER}\n`;
    expect(pairs(analyze(secretAnalyzer, { 'a.yaml': docs(pod, secret(DATA_MARKER), gw) }))).toEqual([]);
    // A certificate that is there and broken is still reported.
    expect(pairs(analyze(secretAnalyzer, { 'a.yaml': docs(pod, secret(b64('garbage')), gw) }))).toEqual(['IST0161 Gateway web/gw']);
    // The Gateway API conversion's key-pair check: a redacted key (or certificate) is not a malformed one.
    const cred = await generateGatewayCredential({
      name: 'c',
      namespace: 'n',
      hosts: ['a.example.com'],
      notBefore: new Date(NOW.getTime() - 86400000),
      notAfter: new Date(NOW.getTime() + 86400000),
    });
    expect(x509KeyPairError(cred.certPem, 'REDACTED')).toBeUndefined();
    expect(x509KeyPairError('REDACTED', 'REDACTED')).toBeUndefined();
    expect(x509KeyPairError(cred.certPem, 'garbage')).toBe('tls: failed to find any PEM data in key input');
    expect(bundleHasCertificate('REDACTED')).toBe(true);
    expect(bundleHasCertificate('garbage')).toBe(false);
  });
});

describe('what redaction produces, read back', () => {
  it('a shared cacerts Secret: no refusal, no key mismatch, the key redacted in this link', async () => {
    const { redact } = await import('../../src/core/share/redact.ts');
    const f = await caFiles();
    const shared = redact([{ path: 'cacerts.yaml', text: cacertsSecretYaml(f) }]).files;
    expect(shared[0]!.text).toContain(DATA_MARKER);
    const r = await inspect(
      shared.map((s) => ({ name: s.path, text: s.text })),
      { now: NOW },
    );
    const ca = scenario(r, 'plugin-ca');
    expect(ca.verdict.ok).toBe(true);
    expect(ca.verdict.text).not.toContain('istiod would refuse');
    expect(r.keys.map((k) => k.state)).toEqual(['redacted-in-link']);
    expect(r.findings.filter((x) => x.id === 'KEY_REDACTED_IN_LINK')).toHaveLength(1);
    expect(errors(r)).toEqual([]);
  });

  it('a PEM file whose key block was replaced by the marker keeps its certificates and lists the key', async () => {
    const f = await caFiles();
    const r = await inspect([{ name: 'bundle.pem', text: `${f.caCert}${PRIVATE_KEY_MARKER}\n\n\n\n` }], { now: NOW });
    expect(r.certificates).toHaveLength(1);
    expect(r.keys.map((k) => k.state)).toEqual(['redacted-in-link']);
    expect(r.findings.some((x) => x.id === 'KEY_MISMATCH')).toBe(false);
  });
});
