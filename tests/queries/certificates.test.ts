// The `certificates` query over an analyzed workspace (the "Certificates" sample): the
// cacerts Secret and the Secret a Gateway names with credentialName, as the tab shows them;
// pasted inputs; a bad time.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { answerQueryAsync, QueryError, type QueryState } from '../../src/core/queries/index.ts';

const sample = (f: string) => readFileSync(new URL(`../../public/samples/certificates/${f}`, import.meta.url), 'utf8');

async function analyzed(files: Record<string, string>): Promise<QueryState> {
  const w = new WorkspaceAnalyzer();
  w.update(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    [],
  );
  const r = await w.run(defaultAnalysisSettings());
  expect(r).not.toBe('canceled');
  return w.analyzedState()!;
}

describe('certificates query', () => {
  it('checks the workspace: the plug-in CA loads, the gateway credential has expired (IST0161)', async () => {
    const state = await analyzed({ 'cacerts.yaml': sample('cacerts.yaml'), 'gateway.yaml': sample('gateway.yaml') });
    const r = await answerQueryAsync('certificates', {}, state);
    expect(r.sources.map((s) => `${s.kind} ${s.namespace}/${s.name}`).sort()).toEqual(['Secret istio-system/cacerts', 'Secret istio-system/shop-credential']);
    const ca = r.report.scenarios.find((s) => s.kind === 'plugin-ca');
    expect(ca?.verdict.ok).toBe(true);
    expect(ca?.object?.input).toBe('cacerts.yaml');
    const gw = r.report.scenarios.find((s) => s.kind === 'gateway-credential');
    expect(gw?.verdict.ok).toBe(false);
    expect(gw?.verdict.text).toContain('IST0161');
    expect(gw?.steps.some((s) => s.name === 'IST0161 on Gateway istio-system/shop-gateway' && s.status === 'fail')).toBe(true);
    // Before the credential expired, it is fine.
    const earlier = await answerQueryAsync('certificates', { at: '2023-06-01T00:00:00Z' }, state);
    expect(earlier.report.scenarios.find((s) => s.kind === 'gateway-credential')?.verdict.ok).toBe(true);
  });

  it('a missing credential Secret is listed, and pasted inputs are read without the workspace', async () => {
    const gateway = sample('gateway.yaml').split('\n---\n').slice(0, 3).join('\n---\n');
    const state = await analyzed({ 'gateway.yaml': gateway });
    const r = await answerQueryAsync('certificates', { workspace: true }, state);
    expect(r.missing).toEqual([{ user: 'Gateway istio-system/shop-gateway', credentialName: 'shop-credential', namespace: 'istio-system' }]);
    const pasted = await answerQueryAsync('certificates', { inputs: [{ name: 'root-cert.pem', text: sample('cacerts/root-cert.pem') }] }, state);
    expect(pasted.sources).toEqual([]);
    expect(pasted.report.certificates.map((c) => c.facts.subject)).toEqual(['O=Istio, CN=Root CA']);
  });

  it('refuses a time that is not one', async () => {
    const state = await analyzed({ 'cacerts.yaml': sample('cacerts.yaml') });
    await expect(answerQueryAsync('certificates', { at: 'soon' }, state)).rejects.toBeInstanceOf(QueryError);
  });
});
