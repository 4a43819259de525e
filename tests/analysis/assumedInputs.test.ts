import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';

async function assumptions(text: string): Promise<string[]> {
  const w = new WorkspaceAnalyzer();
  w.update([{ path: 'a.yaml', text }], []);
  const r = await w.run(defaultAnalysisSettings());
  if (r === 'canceled') throw new Error('canceled');
  return r.assumptions;
}

const gateway = 'apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata:\n  name: g\n  namespace: a\nspec:\n  selector: {istio: ingressgateway}\n  servers:\n  - port: {number: 443, name: https, protocol: HTTPS}\n    hosts: ["*"]\n    tls: {mode: SIMPLE, credentialName: c}\n';

describe('assumed inputs', () => {
  it('says which analyzer inputs are missing', async () => {
    const notes = await assumptions(gateway);
    expect(notes.some((n) => n.startsWith('Mesh config: Istio defaults'))).toBe(true);
    expect(notes.some((n) => n.startsWith('Secrets: none'))).toBe(true);
    expect(notes.some((n) => n.startsWith('Namespaces: none'))).toBe(true);
    expect(notes.some((n) => n.startsWith('Webhooks: none'))).toBe(true);
  });

  it('does not mention inputs that are present', async () => {
    const notes = await assumptions(`${gateway}---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: c\n  namespace: a\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n`);
    expect(notes.some((n) => n.startsWith('Secrets:'))).toBe(false);
    expect(notes.some((n) => n.startsWith('Namespaces:'))).toBe(false);
  });

  it('does not ask for Secrets when no Gateway names a credential', async () => {
    const notes = await assumptions(gateway.replace('credentialName: c', 'credentialName: ""'));
    expect(notes.some((n) => n.startsWith('Secrets:'))).toBe(false);
  });
});
