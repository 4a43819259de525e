// Vitest config for mutation runs: only the tests that exercise the folder under mutation
// (MUTATE_TESTS, comma-separated globs, set by stryker.config.mjs), the conformance parts and
// the fuzz smoke runs CI runs on it.
import { defineConfig } from 'vitest/config';

const tests = (process.env.MUTATE_TESTS ?? '').split(',').filter(Boolean);

export default defineConfig({
  test: {
    include: [
      ...tests,
      ...(process.env.MUTATE_PARTS ? ['tools/mutate/tests/corpus.test.ts'] : []),
      ...(process.env.MUTATE_FUZZ ? ['tools/mutate/tests/fuzzSmoke.test.ts'] : []),
    ],
    environment: 'node',
    globalSetup: ['tests/setup/envoyProtos.ts'],
    testTimeout: 60000,
  },
});
