import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions, findSystemChromium } from './scripts/browser.mjs';

// A system Chromium when there is one, Playwright's own browser otherwise (the same choice
// scripts/ensure-browser.mjs checked before the tests started).
const launchOptions = chromiumLaunchOptions(findSystemChromium());

// E2E_PORT lets two checkouts run their end-to-end tests side by side.
const PORT = Number(process.env.E2E_PORT ?? 4174);

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // A test waits for the app by named readiness signals (e2e/ready.ts), which allow 120 s each.
  timeout: 180_000,
  // Generous: the editor chunk is large, and a busy 2-core machine loads it slowly.
  expect: { timeout: 30_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    viewport: { width: 1400, height: 900 },
    trace: 'retain-on-failure',
    launchOptions,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1400, height: 900 }, launchOptions } }],
  webServer: {
    command: 'node scripts/serve.js',
    url: `http://127.0.0.1:${PORT}/`,
    env: { PORT: String(PORT) },
    reuseExistingServer: !process.env.CI,
    timeout: 30_000,
  },
});
