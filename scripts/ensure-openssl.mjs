#!/usr/bin/env node
// Makes sure the unit tests have an openssl binary before they start (`npm run test:unit`
// runs this first): tests/pki/opensslModel.test.ts checks our model of `openssl verify`
// against it. `openssl` on the PATH (or $OPENSSL), else Debian's `openssl` package when running
// as root with apt-get. Otherwise it stops with one line saying what to install.
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { aptInstall, hasAptGet } from './apt.mjs';

const PREFIX = 'openssl:';

export const INSTRUCTION = `${PREFIX} no openssl found and none could be installed. Install it (Debian/Ubuntu: \`sudo apt-get install -y openssl\`) or set OPENSSL to one, and run the tests again.`;

/** The decision, with every effect passed in so tests can drive it. */
export async function ensureOpenssl(d) {
  const found = d.version();
  if (found) return { source: 'system', version: found };
  if (d.isRoot && d.hasAptGet) {
    d.log(`${PREFIX} installing Debian's openssl package with apt-get`);
    if (await d.runAptInstall()) {
      const installed = d.version();
      if (installed) return { source: 'apt', version: installed };
    }
    d.log(`${PREFIX} apt-get did not give a working openssl`);
  }
  return { source: 'none', message: INSTRUCTION };
}

function version() {
  const r = spawnSync(process.env.OPENSSL ?? 'openssl', ['version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

async function main() {
  const result = await ensureOpenssl({
    version,
    runAptInstall: () => aptInstall('openssl', PREFIX),
    isRoot: process.getuid?.() === 0,
    hasAptGet: hasAptGet(),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  if (result.source === 'none') {
    process.stderr.write(`${result.message}\n`);
    process.exit(1);
  }
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(invokedPath).href) await main();
