// `npm run bench:instructions`: how many instructions one cold `mesh-workbench analyze -o
// json` of a generated mesh executes, counted by valgrind's callgrind, for the current sources
// and (with --against COMMIT) for the CLI as built at another commit.
//
// Wall times on a shared 2-core machine move by 10–20% between identical runs, which hides
// most single changes. Instruction counts do not: with `node --single-threaded` (garbage
// collection and compilation on the main thread) two runs of the same bundle agree to about
// half a percent. Counting both CLIs on the 1,000-service mesh takes about a minute.
//
// Usage: node --import tsx bench/instructions.ts [--services N] [--against COMMIT]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli, BUNDLE_NAME } from '../scripts/build-cli.mjs';
import { generateMesh } from './generateMesh.ts';
import { writeBundleRunner } from './beforeMeshModel.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GENERATED_PROTOS = 'src/core/xds/proto/generated';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** Builds `commit`'s CLI with that commit's own build script; returns the bundle's path. */
function buildAt(commit: string, dir: string): string {
  const src = join(dir, `at-${commit}`);
  mkdirSync(src, { recursive: true });
  const archive = execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', commit, 'src', 'scripts', 'bin', 'package.json', 'public/samples'], {
    maxBuffer: 512 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', src], { input: archive });
  // Its dependencies are ours (package versions rarely move between the commits compared),
  // and so are the Envoy descriptors generated from them (git does not hold them).
  symlinkSync(join(ROOT, 'node_modules'), join(src, 'node_modules'));
  cpSync(join(ROOT, GENERATED_PROTOS), join(src, GENERATED_PROTOS), { recursive: true });
  execFileSync(process.execPath, [join(src, 'scripts/build-cli.mjs')], { cwd: src, stdio: ['ignore', 'ignore', 'inherit'] });
  return join(src, 'dist-cli', BUNDLE_NAME);
}

/** Instructions of one run of `node --single-threaded ...args` under callgrind. */
function countInstructions(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--single-threaded', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const m = /Collected\s*:\s*(\d+)/.exec(stderr);
      if (m) resolve(Number(m[1]));
      else reject(new Error(`callgrind gave no count for ${args[0]}:\n${stderr.slice(-800)}`));
    });
  });
}

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('bench:instructions needs valgrind (Debian: apt-get install -y valgrind).');
  process.exit(1);
}

const services = Number(option('--services') ?? 1000);
const against = option('--against');
const dir = mkdtempSync(join(tmpdir(), 'mwb-instructions-'));
try {
  const mesh = join(dir, `mesh-${services}.yaml`);
  writeFileSync(mesh, generateMesh(services).text);
  const current = join(dir, 'current');
  await buildCli(current);
  const bundles: Array<{ label: string; bundle: string }> = [{ label: 'current sources', bundle: join(current, BUNDLE_NAME) }];
  if (against) bundles.push({ label: `commit ${against}`, bundle: buildAt(against, dir) });
  // The same command for the warm-up and the counted run of each bundle.
  const commands = bundles.map((b, i) => [writeBundleRunner(ROOT, join(dir, `run-${i}.mjs`), b.bundle), 'analyze', '-o', 'json', mesh]);
  // V8 refuses a code cache made under other flags, and the loader then writes one when the
  // process exits: one uncounted run under --single-threaded leaves each bundle a cache that
  // the counted run takes, as a real CLI run takes its own.
  bundles.forEach((b, i) => {
    const warm = spawnSync(process.execPath, ['--single-threaded', ...commands[i]!], { stdio: 'ignore' });
    if (warm.status === null) throw new Error(`the warm-up run of ${b.label} did not finish`);
  });
  console.log(`Counting instructions of one cold analyze -o json of the ${services.toLocaleString('en-US')}-service mesh (callgrind, node --single-threaded)…`);
  // Two at a time: callgrind is single-threaded and the counts do not depend on the load.
  const counts = await Promise.all(commands.map(countInstructions));
  bundles.forEach((b, i) => console.log(`  ${b.label.padEnd(24)} ${(counts[i]! / 1e9).toFixed(3)} billion instructions`));
  if (counts.length === 2) console.log(`  current / ${against}: ${(counts[0]! / counts[1]!).toFixed(3)} (two runs of the same bundle agree to about 0.005)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
