// mesh-workbench certs on our sample PKI (public/samples/certificates): a plug-in CA that
// loads, the same with someone else's key, a date after everything expired, JSON output,
// and bad flags and inputs.
import { mkdtempSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cli, REPO } from './helpers.ts';

const CACERTS = join(REPO, 'public', 'samples', 'certificates', 'cacerts');
const FILES = ['ca-cert.pem', 'ca-key.pem', 'cert-chain.pem', 'root-cert.pem'].map((f) => join(CACERTS, f));

describe('mesh-workbench certs', () => {
  it('a plug-in CA that loads: exit 0, the checklist, the chain, the key described not printed', async () => {
    const r = await cli(['certs', ...FILES]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('istiod would load this plug-in CA');
    expect(r.stdout).toContain('✓ key matches the signing cert');
    expect(r.stdout).toContain('Go (serverAuth): verified');
    expect(r.stdout).toContain('masked');
    expect(r.stdout).not.toContain('MIG');
  });

  it('a key of another certificate: exit 79 and KEY_MISMATCH on the signing certificate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mwb-certs-'));
    for (const f of ['ca-cert.pem', 'cert-chain.pem', 'root-cert.pem']) copyFileSync(join(CACERTS, f), join(dir, f));
    writeFileSync(join(dir, 'ca-key.pem'), generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    const r = await cli(['certs', dir]);
    expect(r.code).toBe(79);
    expect(r.stdout).toContain('the cert does not match the key: tls: private key does not match public key');
    expect(r.stdout).toMatch(/O=Istio, CN=Intermediate CA, L=cluster1\n(?:.*\n)*?\s+error\s+KEY_MISMATCH/);
  });

  it('--at after the certificates expired fails, and -o json carries the verdicts', async () => {
    const r = await cli(['certs', '--at', '2100-01-01', '-o', 'json', ...FILES]);
    expect(r.code).toBe(79);
    const report = JSON.parse(r.stdout) as {
      at: string;
      scenarios: Array<{ kind: string; verdict: { ok: boolean } }>;
      certificates: Array<{ findings: Array<{ id: string }> }>;
    };
    expect(report.at).toMatch(/^2100-01-01T00:00:00/);
    expect(report.scenarios.find((s) => s.kind === 'plugin-ca')?.verdict.ok).toBe(false);
    expect(report.certificates.some((c) => c.findings.some((f) => f.id === 'CERT_EXPIRED'))).toBe(true);
  });

  it('a bad flag is a usage error, and an input with nothing to read exits 65', async () => {
    const bad = await cli(['certs', '--at', 'yesterday', ...FILES]);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('mesh-workbench certs --help');
    const empty = await cli(['certs', '-'], { stdin: 'hello, no certificates here\n' });
    expect(empty.code).toBe(65);
  });
});
