// The test-PKI generator's output passes our own checks, and fails them once broken on
// purpose; a key that belongs to no certificate is reported on the certificate it should
// belong to.
import { describe, expect, it } from 'vitest';
import { generateGatewayCredential, generatePki, type Breakage } from '../../src/core/pki/generate.ts';
import { inspect, validateGatewayCredential } from '../../src/core/pki/index.ts';
import type { CertsReport } from '../../src/core/pki/report.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const NOW = new Date('2026-06-01T00:00:00Z');

async function inspectCluster(breakage: Breakage, trustDomain = 'cluster.local'): Promise<CertsReport> {
  const pki = await generatePki({ now: NOW, breakage, clusters: ['east'], workloads: ['shop/cart'] });
  const files = pki.files
    .filter((f) => f.path.startsWith('east/') && !f.path.endsWith('.yaml') && !f.path.includes('/workloads/'))
    .map((f) => ({ name: f.path.slice('east/'.length), bytes: enc(f.text) }));
  const workload = pki.files.find((f) => f.path === 'east/workloads/shop-cart/cert-chain.pem')!;
  return inspect([...files, { name: 'workload/cert-chain.pem', bytes: enc(workload.text) }], { now: NOW, trustDomain });
}

describe('generated PKI', () => {
  it('a valid PKI loads as a plug-in CA and its chain verifies', async () => {
    const r = await inspectCluster('none');
    const ca = r.scenarios.find((s) => s.kind === 'plugin-ca');
    expect(ca?.verdict.ok).toBe(true);
    expect(r.chains.length).toBeGreaterThan(0);
    expect(r.chains.every((c) => c.go.ok)).toBe(true);
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    const leaf = r.certificates.find((c) => c.facts.spiffe.length > 0);
    expect(leaf?.facts.spiffe[0]).toMatchObject({ trustDomain: 'cluster.local', namespace: 'shop', serviceAccount: 'cart' });
  });

  it('a wrong CA key fails the plug-in CA check and marks the signing certificate', async () => {
    const r = await inspectCluster('wrong-key');
    const ca = r.scenarios.find((s) => s.kind === 'plugin-ca')!;
    expect(ca.verdict.ok).toBe(false);
    expect(ca.verdict.text).toContain('the cert does not match the key');
    const signing = r.certificates.find((c) => c.roles.includes('signing-cert'))!;
    expect(signing.facts.subject).toContain('Intermediate CA');
    expect(signing.findings.map((f) => f.id)).toContain('KEY_MISMATCH');
    // The root's card stays clean of it.
    const root = r.certificates.find((c) => c.facts.selfSigned)!;
    expect(root.findings.map((f) => f.id)).not.toContain('KEY_MISMATCH');
  });

  it('an expired intermediate fails verification', async () => {
    const r = await inspectCluster('expired');
    expect(r.scenarios.find((s) => s.kind === 'plugin-ca')!.verdict.ok).toBe(false);
    expect(r.certificates.some((c) => c.findings.some((f) => f.id === 'CERT_EXPIRED'))).toBe(true);
  });

  it('a wrong trust domain is reported against the mesh trust domain', async () => {
    const r = await inspectCluster('wrong-trust-domain');
    const leaf = r.certificates.find((c) => c.facts.spiffe.length > 0)!;
    expect(leaf.facts.spiffe[0]!.trustDomain).toBe('not-cluster.local');
    expect(r.findings.some((f) => /trust domain/i.test(f.message) && f.severity !== 'info')).toBe(true);
  });
});

describe('files grouped by directory', () => {
  it('two clusters are two plug-in CAs, and a workload cert-chain.pem is not the CA chain', async () => {
    const pki = await generatePki({ now: NOW, clusters: ['east', 'west'], workloads: ['shop/cart', 'shop/web'] });
    const files = pki.files
      .filter((f) => (!f.path.endsWith('.yaml') && !f.path.endsWith('key.pem')) || f.path.endsWith('/ca-key.pem'))
      .map((f) => ({ name: f.path, bytes: enc(f.text) }));
    const r = await inspect(files, { now: NOW });
    const cas = r.scenarios.filter((s) => s.kind === 'plugin-ca');
    expect(cas.map((s) => s.title).sort()).toEqual([
      'Plug-in CA (files ca-cert.pem, ca-key.pem, cert-chain.pem, root-cert.pem in east/)',
      'Plug-in CA (files ca-cert.pem, ca-key.pem, cert-chain.pem, root-cert.pem in west/)',
    ]);
    expect(cas.every((s) => s.verdict.ok)).toBe(true);
    expect(r.findings.map((f) => f.id)).not.toContain('CHAIN_FIRST_NOT_SIGNING_CERT');
    // Both workloads' chains are built and verify.
    const chains = r.chains.filter((c) => /spiffe:\/\/cluster.local\/ns\/shop\/sa\/(cart|web)/.test(c.title));
    expect(new Set(chains.map((c) => c.title)).size).toBe(2);
    expect(chains.every((c) => c.go.ok)).toBe(true);
  });
});

describe('generated gateway credential', () => {
  it('is valid inside its window and IST0161-invalid after it', async () => {
    const c = await generateGatewayCredential({
      name: 'cred',
      namespace: 'istio-system',
      hosts: ['a.example.com'],
      notBefore: new Date('2025-01-01T00:00:00Z'),
      notAfter: new Date('2026-01-01T00:00:00Z'),
    });
    const data = new Map([
      ['tls.crt', enc(c.certPem)],
      ['tls.key', enc(c.keyPem)],
    ]);
    expect(validateGatewayCredential(data, new Date('2025-06-01T00:00:00Z')).ok).toBe(true);
    const late = validateGatewayCredential(data, NOW);
    expect(late.ok).toBe(false);
    expect(c.secretYaml).toContain('type: kubernetes.io/tls');
  });
});

describe('generated CSRs', () => {
  it('decode with the identity they ask for and a signature that verifies; a damaged one does not', async () => {
    const pki = await generatePki({ now: NOW, clusters: ['east'], workloads: ['shop/cart'] });
    const csr = pki.files.find((f) => f.path.endsWith('/csr.pem'))!.text;
    const r = await inspect([{ name: 'csr.pem', bytes: enc(csr) }], { now: NOW });
    expect(r.csrs).toHaveLength(1);
    expect(r.csrs[0]!.facts.requestedSans).toEqual(['URI:spiffe://cluster.local/ns/shop/sa/cart']);
    expect(r.csrs[0]!.signatureValid).toBe(true);
    // Flip a byte of the signature (the last base64 characters of the block).
    const body = csr.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    const der = Buffer.from(body, 'base64');
    der[der.length - 2] = der[der.length - 2]! ^ 0x01;
    const bad = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    const r2 = await inspect([{ name: 'csr.pem', bytes: enc(bad) }], { now: NOW });
    expect(r2.csrs[0]?.signatureValid).toBe(false);
  });
});

describe('a private key folded onto one line', () => {
  it('never appears in the report, not even in the message about its malformed BEGIN line', async () => {
    const { files } = await generatePki({ trustDomain: 'cluster.local' });
    const key = files.find((f) => f.path.endsWith('ca-key.pem'))!.text;
    const body = key
      .split('\n')
      .filter((l) => l && !l.startsWith('-----'))
      .join('');
    // A plain (not `|`) YAML scalar folds the PEM lines into one line with spaces.
    const secret = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: odd\nstringData:\n  ca.crl:\n${key
      .trim()
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n')}\n`;
    const report = await inspect([{ name: 'secret.yaml', text: secret }]);
    const json = JSON.stringify(report);
    for (let i = 0; i + 40 <= body.length; i += 40) expect(json).not.toContain(body.slice(i, i + 40));
    expect(report.problems.some((p) => /malformed label/.test(p.message))).toBe(true);
  });
});

describe('a private key folded into a name', () => {
  // Fuzzing (pki-inspect, seed 20261208) found a Secret whose namespace ran on into a PEM
  // private key (`namespace: isti |` then the key, indented: one plain scalar). Names are
  // printed in every report line, so a name that Kubernetes would refuse is shown as a placeholder.
  for (const field of ['namespace', 'name', 'data key', 'type'] as const) {
    it(`is not printed when it is the Secret's ${field}`, async () => {
      const { files } = await generatePki({ trustDomain: 'cluster.local' });
      const key = files.find((f) => f.path.endsWith('ca-key.pem'))!.text;
      const body = key
        .split('\n')
        .filter((l) => l && !l.startsWith('-----'))
        .join('');
      const folded = `x |\n${key
        .trim()
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n')}\n`;
      const secret =
        field === 'namespace'
          ? `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: ${folded}`
          : field === 'name'
            ? `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${folded}`
            : field === 'type'
              ? `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ntype: ${folded}`
              : `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  ${JSON.stringify(key)}: x\n`;
      const report = await inspect([{ name: 'secret.yaml', text: secret }]);
      const json = JSON.stringify(report);
      for (let i = 0; i + 40 <= body.length; i += 40) expect(json).not.toContain(body.slice(i, i + 40));
      expect(report.problems.some((p) => /is not a valid Kubernetes name/.test(p.message))).toBe(true);
    });
  }
});
