// The browser benches' setup: a production build, scripts/serve.js on a port, and Chromium
// launched as the e2e tests launch it (scripts/browser.mjs).
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromiumLaunchOptions, findSystemChromium } from '../scripts/browser.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export type Browser = Awaited<ReturnType<typeof import('@playwright/test').chromium.launch>>;

/** Builds dist/ when there is none. */
export function ensureBuilt(): void {
  if (existsSync(join(ROOT, 'dist', 'index.html'))) return;
  const r = spawnSync('npx', ['vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('vite build failed');
}

/**
 * Serves the build of `serveRoot` (this checkout by default) on `port`, launches Chromium and
 * runs `use`; undefined when no Chromium can be launched.
 */
export async function withServedApp<T>(port: number, use: (browser: Browser) => Promise<T>, serveRoot = ROOT): Promise<T | undefined> {
  ensureBuilt();
  const { chromium } = await import('@playwright/test');
  const server = spawn(process.execPath, [join(serveRoot, 'scripts/serve.js')], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 500));
    const browser = await chromium.launch(chromiumLaunchOptions(findSystemChromium())).catch(() => undefined);
    if (!browser) return undefined;
    try {
      return await use(browser);
    } finally {
      await browser.close();
    }
  } finally {
    server.kill();
  }
}
