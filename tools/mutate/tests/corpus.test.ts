// The CI conformance command, as tests Stryker can run: every baselined case of the suites that
// exercise the folder under mutation must still pass. A mutant that only the corpus catches is
// caught here as it would be in CI (`npm run conformance -- --baseline conformance/baseline.txt`).
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROOT, readBaseline } from '../../../scripts/conformance.ts';
import { SUITE_PARTS } from '../../../scripts/conformance/parts.ts';
import { runCertsAsync } from '../../../scripts/conformance/certs.ts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';

const baseline = readBaseline(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'conformance', 'baseline.txt'));
// MUTATE_PARTS: comma-separated `suite` or `suite/part` names (set by tools/mutate/stryker.config.mjs).
const wanted = (process.env.MUTATE_PARTS ?? '').split(',').filter(Boolean);

const parts = SUITE_PARTS.filter((p) => wanted.includes(p.suite) || wanted.includes(`${p.suite}/${p.part}`));

describe('baselined conformance cases', () => {
  it('has the shared corpus and at least one part to run', () => {
    expect(existsSync(DEFAULT_ROOT)).toBe(true);
    expect(parts.length).toBeGreaterThan(0);
  });
  for (const part of parts) {
    it(`${part.suite}/${part.part}: every baselined case passes`, async () => {
      // The CLI runs the certs suite in a child process; here it runs in this one, where Stryker's
      // active mutant and coverage live (a child would always run the unmutated code).
      const results = part.suite === 'certs' ? await runCertsAsync(DEFAULT_ROOT) : part.run!(DEFAULT_ROOT);
      const ran = new Set(results.filter((r) => r.passed).map((r) => r.id));
      // Parts of a suite with several parts have ids `<suite>/<part>/…`; a suite's only part uses `<suite>/…`.
      const prefix = SUITE_PARTS.filter((p) => p.suite === part.suite).length > 1 ? `${part.suite}/${part.part}/` : `${part.suite}/`;
      const expected = [...baseline].filter((id) => id.startsWith(prefix));
      const failing = expected.filter((id) => !ran.has(id));
      expect(failing).toEqual([]);
      expect(expected.length).toBeGreaterThan(0);
    });
  }
});
