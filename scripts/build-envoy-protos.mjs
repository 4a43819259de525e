#!/usr/bin/env node
// Compiles the Envoy v3 protos shipped in @grpc/grpc-js-xds (its deps/ folder: envoy, xds, udpa,
// validate, googleapis) into a binary FileDescriptorSet with buf (@bufbuild/buf, a registry
// package with the binary inside; no network), and writes it as a small ES module,
// src/core/xds/proto/generated/envoyDescriptors.js (gitignored, base64), that
// src/core/xds/proto loads lazily. No proto file is kept in this repository.
//
// Runs from `npm install` (prepare) and from the unit tests' global setup when stale.
// Usage: node scripts/build-envoy-protos.mjs [--if-stale] [--soft]
//   --if-stale  do nothing when the module was built from the same inputs
//   --soft      on failure warn and exit 0 (prepare must not break `npm install`)
//
// Two things in the shipped deps need care, and both are handled here without editing them:
// - deps/protoc-gen-validate/validate/validate.proto predates the `ignore_empty` rules that the
//   Envoy protos use in their (validate.rules) options. The staging copy of that one file gets
//   the missing `optional bool ignore_empty` fields (upstream PGV's field numbers).
// - a few Envoy files import protos the package does not ship (opencensus, opentelemetry, the v2
//   API). Those files, and any that import them, are left out; the generated module lists them.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT = join(PROJECT_ROOT, 'src/core/xds/proto/generated/envoyDescriptors.js');
const STAGING = join(PROJECT_ROOT, 'node_modules/.cache/mesh-workbench-envoy-protos');

/** Folders of the package's deps/ mounted at the staging root, by import prefix. */
const MOUNTS = {
  envoy: 'envoy-api/envoy',
  google: 'googleapis/google',
  udpa: 'xds/udpa',
  xds: 'xds/xds',
};

/** Files compiled (with everything they import): the v3 resources, extensions and admin dumps. */
const TARGET_DIRS = ['envoy/admin/v3', 'envoy/annotations', 'envoy/config', 'envoy/extensions', 'envoy/type', 'udpa/type', 'xds/type', 'xds/core'];
/** v2-era folders that only describe the retired v2 API. */
const SKIP = (file) =>
  file.startsWith('envoy/config/filter/') ||
  /\/v2(alpha\d*|beta\d*)?\//.test(file) ||
  (/\/v1alpha\d*\//.test(file) && !file.startsWith('udpa/') && !file.startsWith('xds/'));

/** Upstream PGV field numbers of the `ignore_empty` rule missing from the shipped validate.proto. */
const IGNORE_EMPTY = {
  FloatRules: 8,
  DoubleRules: 8,
  Int32Rules: 8,
  Int64Rules: 8,
  UInt32Rules: 8,
  UInt64Rules: 8,
  SInt32Rules: 8,
  SInt64Rules: 8,
  Fixed32Rules: 8,
  Fixed64Rules: 8,
  SFixed32Rules: 8,
  SFixed64Rules: 8,
  StringRules: 26,
  BytesRules: 14,
  RepeatedRules: 5,
  MapRules: 6,
};

const require = createRequire(import.meta.url);

function packageDir(name) {
  return dirname(require.resolve(`${name}/package.json`));
}

function stampOf(xdsVersion, bufVersion) {
  const h = createHash('sha256');
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  h.update(`${xdsVersion}\n${bufVersion}`);
  return h.digest('hex').slice(0, 16);
}

function walk(dir, prefix, out) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(p).isDirectory()) walk(p, rel, out);
    else if (name.endsWith('.proto')) out.push(rel);
  }
  return out;
}

function importsOf(text) {
  return [...text.matchAll(/^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"\s*;/gm)].map((m) => m[1]);
}

/** Stages the deps under one root; returns the target files whose imports all resolve, and the rest. */
function stage(depsDir) {
  rmSync(STAGING, { recursive: true, force: true });
  const root = join(STAGING, 'root');
  mkdirSync(join(root, 'validate'), { recursive: true });
  for (const [mount, from] of Object.entries(MOUNTS)) symlinkSync(join(depsDir, from), join(root, mount), 'dir');
  let validate = readFileSync(join(depsDir, 'protoc-gen-validate/validate/validate.proto'), 'utf8');
  for (const [message, number] of Object.entries(IGNORE_EMPTY)) {
    const re = new RegExp(`(message ${message} \\{)`);
    if (!re.test(validate)) throw new Error(`validate.proto has no message ${message}`);
    if (new RegExp(`message ${message} \\{[^}]*ignore_empty`).test(validate)) continue;
    validate = validate.replace(re, `$1\n    optional bool ignore_empty = ${number};`);
  }
  writeFileSync(join(root, 'validate/validate.proto'), validate);

  // Well-known types come with buf; everything else must be on disk.
  const exists = (f) => f.startsWith('google/protobuf/') || existsSync(join(root, f));
  const imports = new Map();
  const importsOfFile = (f) => {
    let v = imports.get(f);
    if (!v) imports.set(f, (v = exists(f) && !f.startsWith('google/protobuf/') ? importsOf(readFileSync(join(root, f), 'utf8')) : []));
    return v;
  };
  const ok = new Map();
  const resolves = (f, seen = new Set()) => {
    if (ok.has(f)) return ok.get(f);
    if (seen.has(f)) return true;
    seen.add(f);
    const r = exists(f) && importsOfFile(f).every((i) => resolves(i, seen));
    ok.set(f, r);
    return r;
  };
  const targets = [];
  const omitted = [];
  for (const dir of TARGET_DIRS) {
    if (!existsSync(join(root, dir))) continue;
    for (const f of walk(join(root, dir), dir, [])) {
      if (SKIP(f)) continue;
      (resolves(f) ? targets : omitted).push(f);
    }
  }
  return { root, targets: targets.sort(), omitted: omitted.sort() };
}

export function readStamp(file = OUTPUT) {
  if (!existsSync(file)) return undefined;
  const head = readFileSync(file, 'utf8').slice(0, 400);
  return /^\/\/ stamp: ([0-9a-f]+)$/m.exec(head)?.[1];
}

/** Builds the descriptor module when missing or built from other inputs. Returns what it did. */
export function buildEnvoyDescriptors({ ifStale = false } = {}) {
  const xdsDir = packageDir('@grpc/grpc-js-xds');
  const xdsVersion = JSON.parse(readFileSync(join(xdsDir, 'package.json'), 'utf8')).version;
  const bufVersion = JSON.parse(readFileSync(join(packageDir('@bufbuild/buf'), 'package.json'), 'utf8')).version;
  const stamp = stampOf(xdsVersion, bufVersion);
  if (ifStale && readStamp() === stamp) return { built: false, output: OUTPUT };

  const t0 = performance.now();
  const { root, targets, omitted } = stage(join(xdsDir, 'deps'));
  const out = join(STAGING, 'envoy.binpb');
  const bufBin = join(packageDir('@bufbuild/buf'), 'bin/buf');
  const args = [bufBin, 'build', root, '--exclude-source-info', '-o', out];
  // buf takes the targets as --path; one per file keeps the omitted ones out.
  const argFile = [];
  for (const t of targets) argFile.push('--path', join(root, t));
  execFileSync(process.execPath, [...args, ...argFile], { stdio: ['ignore', 'inherit', 'inherit'], cwd: STAGING });
  const bytes = readFileSync(out);
  mkdirSync(dirname(OUTPUT), { recursive: true });
  const header = [
    '// Generated by scripts/build-envoy-protos.mjs; do not edit (gitignored, rebuilt by `npm install` and the unit tests).',
    `// stamp: ${stamp}`,
  ].join('\n');
  const meta = {
    package: '@grpc/grpc-js-xds',
    version: xdsVersion,
    buf: bufVersion,
    files: targets.length,
    bytes: bytes.length,
    omitted,
  };
  writeFileSync(OUTPUT, `${header}\nexport const source = ${JSON.stringify(meta)};\nexport default ${JSON.stringify(bytes.toString('base64'))};\n`);
  return { built: true, output: OUTPUT, ms: performance.now() - t0, files: targets.length, bytes: bytes.length, omitted };
}

async function main() {
  const ifStale = process.argv.includes('--if-stale');
  const soft = process.argv.includes('--soft');
  try {
    const r = buildEnvoyDescriptors({ ifStale });
    const rel = relative(process.cwd(), r.output) || r.output;
    if (!r.built) console.log(`build-envoy-protos: ${rel} is up to date`);
    else
      console.log(
        `build-envoy-protos: ${rel} (${r.files} files, ${(r.bytes / 1024).toFixed(0)} KB descriptors, ${r.omitted.length} omitted, ${Math.round(r.ms)} ms)`,
      );
  } catch (e) {
    const msg = `build-envoy-protos: could not build the Envoy descriptors: ${e instanceof Error ? e.message : String(e)}`;
    if (!soft) {
      console.error(msg);
      process.exit(1);
    }
    console.warn(`${msg}\n(the strict Envoy proto check and its tests need them; run \`node scripts/build-envoy-protos.mjs\`)`);
  }
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(resolve(invokedPath)).href) await main();
