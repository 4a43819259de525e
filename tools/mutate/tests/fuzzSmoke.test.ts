// The CI fuzz smoke run of the targets that exercise the folder under mutation (MUTATE_FUZZ,
// comma-separated target names, set by tools/mutate/stryker.config.mjs), in process: the same
// seed (1) and input count as `npm run fuzz -- --smoke`. A mutant only the fuzzer's oracle
// catches is caught here as CI would catch it. Known analyzer crashes are not relevant to these
// folders, so any failing input kills the mutant.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSeeds } from '../../../fuzz/gen/seeds.ts';
import { targetByName } from '../../../fuzz/targets/index.ts';
import { HANG_MS } from '../../../fuzz/failure.ts';

const names = (process.env.MUTATE_FUZZ ?? '').split(',').filter(Boolean);
const seeds = loadSeeds();

describe('fuzz smoke run', () => {
  for (const name of names) {
    const target = targetByName(name);
    it(`${name}: the smoke run finds nothing`, async () => {
      expect(target, name).toBeDefined();
      const unavailable = target!.unavailable?.();
      expect(unavailable, `${name} cannot run here`).toBeUndefined();
      const options = { timeLimitMs: HANG_MS * 5 };
      const arbitrary = target!.arbitrary(seeds) as fc.Arbitrary<never>;
      const params = { numRuns: target!.smokeRuns, seed: 1, verbose: 0 as const };
      const result = target!.async
        ? await fc.check(
            fc.asyncProperty(arbitrary, async (input) => {
              await target!.check(input, options);
            }),
            params,
          )
        : fc.check(
            fc.property(arbitrary, (input) => {
              target!.check(input, options);
            }),
            params,
          );
      expect(result.failed ? String(result.errorInstance).slice(0, 500) : '').toBe('');
      const report = target!.report?.();
      expect(report?.failure).toBeUndefined();
    }, 600_000);
  }
});
