#!/usr/bin/env node
// Builds the CLI into one ESM bundle, dist-cli/mesh-workbench.js, so `mesh-workbench`
// starts without compiling TypeScript (bin/mesh-workbench.js falls back to tsx when the
// bundle is missing or older than a source it was built from).
// Runs on `npm install` (prepare) and before the unit tests. Usage:
//   node scripts/build-cli.mjs [--outdir DIR]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_NAME = 'mesh-workbench.js';
/** Source files the bundle was built from (paths relative to the project), for the bin's staleness check. */
export const INPUTS_NAME = 'inputs.json';

// @peculiar/x509 (with reflect-metadata, which must run first) takes about as long to
// evaluate as the rest of the CLI, and only Gateway credential checks use it. The bundle
// gets a stand-in that evaluates both on the first certificate parsed.
const LAZY_X509 = `
let x509;
function load() {
  if (x509 === undefined) {
    require('reflect-metadata');
    x509 = require('@peculiar/x509');
  }
  return x509;
}
export class X509Certificate {
  constructor(raw) {
    return new (load().X509Certificate)(raw);
  }
}
`;

const lazyX509Plugin = {
  name: 'lazy-x509',
  setup(build) {
    const fromOurSources = (args) => args.kind === 'import-statement' && !args.importer.includes('/node_modules/') && args.namespace === 'file';
    build.onResolve({ filter: /^@peculiar\/x509$/ }, (args) => (fromOurSources(args) ? { path: 'lazy-x509', namespace: 'lazy' } : undefined));
    // The stand-in loads reflect-metadata itself, right before @peculiar/x509.
    build.onResolve({ filter: /^reflect-metadata$/ }, (args) => (fromOurSources(args) ? { path: 'empty', namespace: 'lazy' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({
      contents: args.path === 'lazy-x509' ? LAZY_X509 : '',
      loader: 'js',
      resolveDir: PROJECT_ROOT,
    }));
  },
};

export async function buildCli(outdir = join(PROJECT_ROOT, 'dist-cli'), { minify = true } = {}) {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: ['src/cli/main.ts'],
    outfile: join(outdir, BUNDLE_NAME),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    // Bundled CommonJS packages call require() for Node built-ins.
    banner: { js: "import { createRequire as __mwbCreateRequire } from 'node:module'; const require = __mwbCreateRequire(import.meta.url);" },
    plugins: [lazyX509Plugin],
  });
  // Our own files only: dependencies change with `npm install`, which rebuilds anyway.
  const sources = Object.keys(result.metafile.inputs)
    .filter((p) => !p.includes(':'))
    .map((p) => relative(PROJECT_ROOT, resolve(PROJECT_ROOT, p)))
    .filter((p) => !p.startsWith('..') && !p.split('/').includes('node_modules'))
    .sort();
  mkdirSync(outdir, { recursive: true });
  writeFileSync(join(outdir, INPUTS_NAME), `${JSON.stringify(sources, null, 1)}\n`);
  return { bundle: join(outdir, BUNDLE_NAME), sources };
}

async function main() {
  const i = process.argv.indexOf('--outdir');
  const outdir = i >= 0 ? resolve(process.argv[i + 1] ?? '') : undefined;
  try {
    await import('esbuild');
  } catch {
    console.warn('build-cli: esbuild is not installed; the CLI will run from its TypeScript sources through tsx.');
    return;
  }
  const { bundle, sources } = await buildCli(outdir);
  console.log(`build-cli: ${relative(process.cwd(), bundle) || bundle} (${sources.length} sources)`);
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(resolve(invokedPath)).href) await main();
