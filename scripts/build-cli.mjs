#!/usr/bin/env node
// Builds the CLI into one CommonJS bundle, dist-cli/mesh-workbench.cjs, so `mesh-workbench`
// starts without compiling TypeScript (bin/mesh-workbench.js falls back to tsx when the
// bundle is missing or older than a source it was built from), then runs it once over the
// samples so V8's code cache (bin/load-compiled.js) holds the functions a run compiles.
// CommonJS because Node 20 takes cached code only for scripts, not for ES modules.
// Runs on `npm install` (prepare) and before the unit tests. Usage:
//   node scripts/build-cli.mjs [--outdir DIR]
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_NAME = 'mesh-workbench.cjs';
/** Source files the bundle was built from (paths relative to the project), for the bin's staleness check. */
export const INPUTS_NAME = 'inputs.json';

// A namespace that loads its package on first property access (the stand-ins below use it).
const LAZY_NAMESPACE = `
function lazy(load) {
  let m;
  const get = () => (m === undefined ? (m = load()) : m);
  return new Proxy({}, { get: (_, k) => get()[k], has: (_, k) => k in get(), ownKeys: () => Reflect.ownKeys(get()), getOwnPropertyDescriptor: (_, k) => Object.getOwnPropertyDescriptor(get(), k) });
}
`;

// @peculiar/x509 and the @peculiar/asn1-* schemas (with reflect-metadata, which must run
// first) take about as long to evaluate as the rest of the CLI, and only certificate checks
// use them. src/core/pki reaches them through one module, src/core/pki/lib.ts; the bundle
// gets a stand-in for it whose namespaces load the packages on first property access.
const LAZY_PKI_LIB = `${LAZY_NAMESPACE}
export const x509 = lazy(() => {
  require('reflect-metadata');
  return require('@peculiar/x509');
});
export const asn1 = lazy(() => require('@peculiar/asn1-schema'));
export const asnX509 = lazy(() => require('@peculiar/asn1-x509'));
export const asnRsa = lazy(() => require('@peculiar/asn1-rsa'));
export const asnEcc = lazy(() => require('@peculiar/asn1-ecc'));
export const asnPkcs8 = lazy(() => require('@peculiar/asn1-pkcs8'));
export const asnCsr = lazy(() => require('@peculiar/asn1-csr'));
`;

// The CEL library likewise (src/core/validation/schema/celLib.ts): loading it boots
// @bufbuild/protobuf's registry, about 45 ms, and Istio's CRD rules nearly all run natively.
const LAZY_CEL_LIB = `${LAZY_NAMESPACE}
export const cel = lazy(() => require('@bufbuild/cel'));
export const celExt = lazy(() => require('@bufbuild/cel/ext'));
`;

// envoyfilter.PatchReachAnalyzer runs the xDS generator, but only when the files hold an
// EnvoyFilter; evaluating the generator's modules at start costs every run about 30 ms. The
// bundle's stand-in requires the real module on the first call (the browser worker does the
// same with src/worker/envoyFilterReach.lazy.ts).
const ENVOY_FILTER_REACH = join(PROJECT_ROOT, 'src', 'core', 'xds', 'envoyFilterReach.ts');
const LAZY_ENVOY_FILTER_REACH = `
let real;
const load = () => (real === undefined ? (real = require(${JSON.stringify(ENVOY_FILTER_REACH)})) : real);
export const envoyFilterReach = (...args) => load().envoyFilterReach(...args);
export const envoyFilterValueProblems = (...args) => load().envoyFilterValueProblems(...args);
`;

/** Modules the bundle replaces with a stand-in that loads their libraries on first use. */
const LAZY_MODULES = new Map([
  [join(PROJECT_ROOT, 'src', 'core', 'pki', 'lib.ts'), { name: 'pki-lib', contents: LAZY_PKI_LIB }],
  [join(PROJECT_ROOT, 'src', 'core', 'validation', 'schema', 'celLib.ts'), { name: 'cel-lib', contents: LAZY_CEL_LIB }],
  [ENVOY_FILTER_REACH, { name: 'envoy-filter-reach', contents: LAZY_ENVOY_FILTER_REACH }],
]);

const lazyLibPlugin = {
  name: 'lazy-libs',
  setup(build) {
    build.onResolve({ filter: /\/(lib|celLib|envoyFilterReach)\.ts$/ }, (args) => {
      if (args.namespace !== 'file' || args.importer.includes('/node_modules/')) return undefined;
      const lazy = LAZY_MODULES.get(resolve(args.resolveDir, args.path));
      return lazy ? { path: lazy.name, namespace: 'lazy' } : undefined;
    });
    const contentsByName = new Map([...LAZY_MODULES.values()].map((m) => [m.name, m.contents]));
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({ contents: contentsByName.get(args.path) ?? '', loader: 'js', resolveDir: PROJECT_ROOT }));
  },
};

export async function buildCli(outdir = join(PROJECT_ROOT, 'dist-cli'), { minify = true } = {}) {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: ['src/cli/main.ts'],
    outfile: join(outdir, BUNDLE_NAME),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    plugins: [lazyLibPlugin],
  });
  // Our own files only: dependencies change with `npm install`, which rebuilds anyway.
  const sources = Object.keys(result.metafile.inputs)
    .filter((p) => !p.includes(':'))
    .map((p) => relative(PROJECT_ROOT, resolve(PROJECT_ROOT, p)))
    .filter((p) => !p.startsWith('..') && !p.split('/').includes('node_modules'))
    .sort();
  mkdirSync(outdir, { recursive: true });
  writeFileSync(join(outdir, INPUTS_NAME), `${JSON.stringify(sources, null, 1)}\n`);
  const bundle = join(outdir, BUNDLE_NAME);
  trainCodeCache(bundle);
  return { bundle, sources };
}

/** What the training run analyzes: the samples cover most analyzers and every output format. */
const TRAINING_RUNS = [
  ['analyze', '-L'],
  ['analyze', 'public/samples/many-mistakes', 'public/samples/bookinfo-mistakes'],
  ['analyze', '-o', 'json', 'public/samples/bookinfo', 'public/samples/ambient'],
  ['analyze', '-o', 'yaml', 'public/samples/certificates'],
];

/**
 * Runs the new bundle once over the samples in a plain `node` process (flags change what V8
 * accepts as cached code) and lets it write its code cache on exit. A failed run only costs
 * speed: the first real run writes the cache instead.
 */
function trainCodeCache(bundle) {
  const loader = pathToFileURL(join(PROJECT_ROOT, 'bin', 'load-compiled.js')).href;
  const script = `
    import { loadCompiledCli } from ${JSON.stringify(loader)};
    const cli = loadCompiledCli(process.argv[1], { writeCache: 'always' });
    const io = { stdout() {}, stderr() {}, stdin: async () => '', cwd: process.cwd(), isTTY: false, env: {} };
    for (const args of JSON.parse(process.argv[2])) await cli.runCli(args, io);
  `;
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, bundle, JSON.stringify(TRAINING_RUNS)], {
    cwd: PROJECT_ROOT,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.status !== 0) console.warn(`build-cli: the code-cache training run failed (the CLI works, only starts slower):\n${run.stderr ?? run.error}`);
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
