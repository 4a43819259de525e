import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumLaunchOptions, findSystemChromium, SYSTEM_CHROMIUM_ARGS } from '../../scripts/browser.mjs';
import { ensureBrowser, INSTRUCTION, type BrowserEffects } from '../../scripts/ensure-browser.mjs';
import { scratchDir } from '../helpers/scratch.ts';

/** A machine described by what exists and what works; records every effect used. */
function machine(opts: {
  system?: string;
  systemStarts?: boolean;
  cached?: boolean;
  hostReachable?: boolean;
  playwrightInstallWorks?: boolean;
  root?: boolean;
  aptGet?: boolean;
  aptInstallWorks?: boolean;
}) {
  const calls: string[] = [];
  let system = opts.system;
  let playwrightBrowser = opts.cached ?? false;
  const effects: BrowserEffects = {
    findSystemChromium: () => system,
    launchProblem: async (path) => {
      calls.push(`launch ${path ?? 'playwright'}`);
      if (path) return path === system && (opts.systemStarts ?? true) ? undefined : 'crashed';
      return playwrightBrowser ? undefined : "Executable doesn't exist";
    },
    playwrightHostReachable: async () => {
      calls.push('probe');
      return opts.hostReachable ?? false;
    },
    runPlaywrightInstall: async () => {
      calls.push('playwright install');
      if (opts.playwrightInstallWorks) playwrightBrowser = true;
      return opts.playwrightInstallWorks ?? false;
    },
    runAptInstall: async () => {
      calls.push('apt-get install');
      if (opts.aptInstallWorks) system = '/usr/bin/chromium';
      return opts.aptInstallWorks ?? false;
    },
    isRoot: opts.root ?? false,
    hasAptGet: opts.aptGet ?? false,
    log: () => {},
  };
  return { effects, calls };
}

describe('ensure-browser: where the end-to-end tests get Chromium', () => {
  it('uses a working system Chromium first and installs nothing', async () => {
    const m = machine({ system: '/opt/bin/chromium', cached: true, hostReachable: true, root: true, aptGet: true });
    expect(await ensureBrowser(m.effects)).toEqual({ source: 'system', path: '/opt/bin/chromium' });
    expect(m.calls).toEqual(['launch /opt/bin/chromium']);
  });

  it('stops with the reason when the system Chromium does not start', async () => {
    const m = machine({ system: '/usr/bin/chromium', systemStarts: false, cached: true });
    const r = await ensureBrowser(m.effects);
    expect(r).toEqual({ source: 'none', message: 'e2e browser: /usr/bin/chromium does not start: crashed' });
  });

  it("uses Playwright's cached browser before installing anything", async () => {
    const m = machine({ cached: true, hostReachable: true, root: true, aptGet: true });
    expect(await ensureBrowser(m.effects)).toEqual({ source: 'playwright-cache' });
    expect(m.calls).toEqual(['launch playwright']);
  });

  it("runs Playwright's installer when its download host answers", async () => {
    const m = machine({ hostReachable: true, playwrightInstallWorks: true, root: true, aptGet: true });
    expect(await ensureBrowser(m.effects)).toEqual({ source: 'playwright-install' });
    expect(m.calls).toEqual(['launch playwright', 'probe', 'playwright install', 'launch playwright']);
  });

  it('falls back to apt-get as root when the download host is unreachable', async () => {
    const m = machine({ hostReachable: false, root: true, aptGet: true, aptInstallWorks: true });
    expect(await ensureBrowser(m.effects)).toEqual({ source: 'apt', path: '/usr/bin/chromium' });
    expect(m.calls).toEqual(['launch playwright', 'probe', 'apt-get install', 'launch /usr/bin/chromium']);
  });

  it("falls back to apt-get when Playwright's installer fails", async () => {
    const m = machine({ hostReachable: true, playwrightInstallWorks: false, root: true, aptGet: true, aptInstallWorks: true });
    expect((await ensureBrowser(m.effects)).source).toBe('apt');
    expect(m.calls).toContain('playwright install');
  });

  it('stops with a one-line instruction when nothing can be installed', async () => {
    const notRoot = machine({ root: false, aptGet: true });
    const noAptGet = machine({ root: true, aptGet: false });
    const aptFails = machine({ root: true, aptGet: true, aptInstallWorks: false });
    for (const m of [notRoot, noAptGet, aptFails]) expect(await ensureBrowser(m.effects)).toEqual({ source: 'none', message: INSTRUCTION });
    expect(notRoot.calls).not.toContain('apt-get install');
    expect(noAptGet.calls).not.toContain('apt-get install');
    expect(INSTRUCTION).not.toContain('\n');
    expect(INSTRUCTION).toMatch(/apt-get install -y chromium.*playwright install/);
  });
});

describe('browser.mjs: the Chromium playwright.config.ts launches', () => {
  it('finds an executable chromium on PATH, skipping non-executable ones', () => {
    const root = scratchDir('mwb-chromium-');
    const notExecutable = join(root, 'a');
    const executable = join(root, 'b');
    for (const dir of [notExecutable, executable]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'chromium'), '#!/bin/sh\n');
    }
    chmodSync(join(executable, 'chromium'), 0o755);
    const path = [notExecutable, executable].join(delimiter);
    expect(findSystemChromium(path, [])).toBe(join(executable, 'chromium'));
    expect(findSystemChromium(notExecutable, [])).toBeUndefined();
    // A fixed location (/usr/bin/chromium in real use) comes before PATH when it is there.
    const fixed = join(root, 'fixed-chromium');
    writeFileSync(fixed, '#!/bin/sh\n');
    chmodSync(fixed, 0o755);
    expect(findSystemChromium(path, [fixed])).toBe(fixed);
    expect(findSystemChromium(path, [join(root, 'missing')])).toBe(join(executable, 'chromium'));
  });

  it('looks at /usr/bin/chromium first by default', () => {
    expect(findSystemChromium('')).toBe(existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
  });

  it("launches the system Chromium with the container flags, else Playwright's own", () => {
    expect(chromiumLaunchOptions('/x/chromium')).toEqual({ executablePath: '/x/chromium', args: [...SYSTEM_CHROMIUM_ARGS] });
    expect(SYSTEM_CHROMIUM_ARGS).toEqual([
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ]);
    expect(chromiumLaunchOptions(undefined)).toEqual({});
  });
});
