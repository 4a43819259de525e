// Which Chromium the end-to-end tests launch. Shared by scripts/ensure-browser.mjs (which
// makes sure one exists) and playwright.config.ts (which launches it), so both agree.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Flags for a distribution's Chromium: runs as root in containers, no GPU, no phoning home. */
export const SYSTEM_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

function isExecutableFile(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `/usr/bin/chromium`, else `chromium` on PATH, else undefined. */
export function findSystemChromium(pathVariable = process.env.PATH ?? '', fixedPaths = ['/usr/bin/chromium']) {
  const candidates = [...fixedPaths];
  for (const dir of pathVariable.split(delimiter)) if (dir) candidates.push(join(dir, 'chromium'));
  return candidates.find(isExecutableFile);
}

/** Playwright launch options: the system Chromium when there is one, Playwright's own browser otherwise. */
export function chromiumLaunchOptions(systemChromium) {
  return systemChromium ? { executablePath: systemChromium, args: SYSTEM_CHROMIUM_ARGS } : {};
}
