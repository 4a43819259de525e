#!/usr/bin/env node
// Makes sure the end-to-end tests have a Chromium before they start (`npm run test:e2e` runs
// this first). In order: a system Chromium, Playwright's cached browser, Playwright's
// installer when its download host answers, Debian's `chromium` package when running as
// root with apt-get. Otherwise it stops with one line saying what to install.
import { request } from 'node:https';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromiumLaunchOptions, findSystemChromium } from './browser.mjs';
import { aptInstall, hasAptGet, MINUTE, run } from './apt.mjs';

const PREFIX = 'e2e browser:';

export const INSTRUCTION = `${PREFIX} no Chromium found and none could be installed. Install one (Debian/Ubuntu: \`sudo apt-get install -y chromium\`; elsewhere: \`npx playwright install --with-deps chromium\`) and run the tests again.`;

/**
 * The decision, with every effect passed in so tests can drive it.
 * Returns where the browser came from, or `{ source: 'none', message }`.
 */
export async function ensureBrowser(d) {
  const system = d.findSystemChromium();
  if (system) {
    const problem = await d.launchProblem(system);
    if (problem) return { source: 'none', message: `${PREFIX} ${system} does not start: ${problem}` };
    return { source: 'system', path: system };
  }
  if (!(await d.launchProblem(undefined))) return { source: 'playwright-cache' };

  if (await d.playwrightHostReachable()) {
    d.log(`${PREFIX} installing Playwright's Chromium`);
    if ((await d.runPlaywrightInstall()) && !(await d.launchProblem(undefined))) return { source: 'playwright-install' };
    d.log(`${PREFIX} Playwright's installer did not give a working Chromium`);
  }

  if (d.isRoot && d.hasAptGet) {
    d.log(`${PREFIX} installing Debian's chromium package with apt-get`);
    if (await d.runAptInstall()) {
      const installed = d.findSystemChromium();
      if (installed && !(await d.launchProblem(installed))) return { source: 'apt', path: installed };
    }
    d.log(`${PREFIX} apt-get did not give a working Chromium`);
  }
  return { source: 'none', message: INSTRUCTION };
}

// ---- the real effects -------------------------------------------------------------------

/** Undefined when Chromium starts; otherwise the first line of the reason. */
async function launchProblem(systemChromium) {
  const { chromium } = await import('@playwright/test');
  try {
    const browser = await chromium.launch({ ...chromiumLaunchOptions(systemChromium), timeout: 60_000 });
    await browser.close();
    return undefined;
  } catch (e) {
    return (
      String(e?.message ?? e)
        .split('\n')
        .find((l) => l.trim()) ?? 'unknown error'
    );
  }
}

/** Any HTTP answer within 5 s counts; behind a proxy we let the installer try. */
function playwrightHostReachable() {
  if (process.env.HTTPS_PROXY || process.env.https_proxy) return Promise.resolve(true);
  const host = process.env.PLAYWRIGHT_DOWNLOAD_HOST || 'https://cdn.playwright.dev/';
  return new Promise((resolveProbe) => {
    let req;
    try {
      req = request(host, { method: 'HEAD', timeout: 5000 }, (res) => {
        res.resume();
        resolveProbe(true);
      });
    } catch {
      resolveProbe(false);
      return;
    }
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolveProbe(false));
    req.end();
  });
}

const require = createRequire(import.meta.url);

function runPlaywrightInstall(isRoot) {
  const cli = join(dirname(require.resolve('@playwright/test/package.json')), 'cli.js');
  const args = [cli, 'install', ...(isRoot && hasAptGet() ? ['--with-deps'] : []), 'chromium'];
  return run(process.execPath, args, { timeoutMs: 10 * MINUTE, env: { PLAYWRIGHT_DOWNLOAD_CONNECTION_TIMEOUT: '15000' }, prefix: PREFIX });
}

async function main() {
  const isRoot = process.getuid?.() === 0;
  const result = await ensureBrowser({
    findSystemChromium: () => findSystemChromium(),
    launchProblem,
    playwrightHostReachable,
    runPlaywrightInstall: () => runPlaywrightInstall(isRoot),
    runAptInstall: () => aptInstall('chromium', PREFIX),
    isRoot,
    hasAptGet: hasAptGet(),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  if (result.source === 'none') {
    process.stderr.write(`${result.message}\n`);
    process.exit(1);
  }
  const where = result.path ? `${result.path} (${result.source})` : `Playwright's Chromium (${result.source})`;
  process.stderr.write(`${PREFIX} ${where}\n`);
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(invokedPath).href) await main();
