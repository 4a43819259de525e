// Tests that need the shared corpus (../shared, outside the repository). Without it they
// cannot run: under CI that fails; elsewhere they show up as skipped, by name, and never pass.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROOT, isCi } from '../../scripts/conformance.ts';

export const SHARED_ANALYZERS = join(DEFAULT_ROOT, 'analyzers');

export function describeWithSharedCorpus(title: string, requiredFiles: string[], body: () => void): void {
  const absent = requiredFiles.filter((f) => !existsSync(f));
  describe(title, () => {
    if (absent.length > 0 && !isCi()) {
      console.warn(`[${title}] SKIPPED: ${absent.join(', ')} absent; these tests did not run.`);
      it.skip(`SKIPPED: ${absent.join(', ')} absent`, () => {});
      return;
    }
    it('has the shared corpus files it needs (required under CI)', () => {
      expect(absent).toEqual([]);
    });
    if (absent.length === 0) body();
  });
}
