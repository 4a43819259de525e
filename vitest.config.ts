import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    // Builds the Envoy descriptors for src/core/xds/proto when missing or stale.
    globalSetup: ['tests/setup/envoyProtos.ts'],
    testTimeout: 30000,
  },
});
