import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FIXTURES, REPO } from './helpers.ts';

describe('bin/mesh-workbench.js', () => {
  it('runs as a real process (what npx mesh-workbench does)', () => {
    const r = spawnSync(process.execPath, [`${REPO}bin/mesh-workbench.js`, 'analyze', '-o', 'json', 'missing-host.yaml'], {
      cwd: FIXTURES,
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(r.status).toBe(79);
    const out = JSON.parse(r.stdout);
    expect(out[0]).toMatchObject({ code: 'IST0101', reference: 'missing-host.yaml:24' });
    expect(r.stderr).toContain('Analyzers found issues');
  });

  it('reads stdin and exits 0 on clean input', () => {
    const r = spawnSync(process.execPath, [`${REPO}bin/mesh-workbench.js`, 'analyze', '-'], {
      cwd: FIXTURES,
      input: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n  labels:\n    istio-injection: enabled\n',
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(r.stderr).toMatch(/^Notice: Skipped \d+ analyzers .*\n\u2714 No validation issues found when analyzing -\.\n$/);
    expect(r.status).toBe(0);
  });
});
