// `npm run mutate -- [pki|share|simulate|ambient ...] [--no-fuzz] [--report] [--survivors]`: mutation
// testing with Stryker (not in CI). --report prints the table from the last reports only.
// Stryker lives in tools/mutate with its own package.json, installed here on first use, so the
// main install (and CI) never pulls it. Each folder's report lands in reports/mutation/, and the
// scores are printed as the table docs/testing.md keeps.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, lstatSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = join(ROOT, 'tools', 'mutate');
const FOLDERS = ['pki', 'share', 'simulate', 'ambient'];

const args = process.argv.slice(2);
const reportOnly = args.includes('--report');
const noFuzz = args.includes('--no-fuzz');
const folders = args.filter((a) => !a.startsWith('--'));
for (const f of folders) if (!FOLDERS.includes(f)) {
  console.error(`Unknown folder "${f}"; choose from ${FOLDERS.join(', ')}.`);
  process.exit(64);
}
const chosen = folders.length ? folders : FOLDERS;

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { stdio: 'inherit', ...opts });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!reportOnly) {
  if (!existsSync(join(TOOLS, 'node_modules', '@stryker-mutator', 'core'))) {
    console.log('Installing Stryker into tools/mutate (once)…');
    // Stryker's vitest runner finds the project's vitest by walking up; --legacy-peer-deps keeps a second copy out.
    run('npm', ['install', '--no-audit', '--no-fund', '--legacy-peer-deps'], { cwd: TOOLS });
  }
  const shared = resolve(ROOT, '..', 'shared');
  if (!existsSync(shared)) {
    console.error(`The shared corpus (${shared}) is missing; the conformance part of the mutation run needs it.`);
    process.exit(66);
  }
  const stryker = join(TOOLS, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
  for (const folder of chosen) {
    // Stryker runs the tests in a copy under .stryker-tmp-<folder>/sandbox-*; the corpus tests read ../shared from there.
    const tmp = join(ROOT, `.stryker-tmp-${folder}`);
    mkdirSync(tmp, { recursive: true });
    const link = join(tmp, 'shared');
    try { lstatSync(link); rmSync(link); } catch { /* not there yet */ }
    symlinkSync(shared, link);
    console.log(`\n== mutating ${folder}`);
    run(process.execPath, [stryker, 'run', join('tools', 'mutate', 'stryker.config.mjs')], { cwd: ROOT, env: { ...process.env, MUTATE_FOLDER: folder, ...(noFuzz ? { MUTATE_NO_FUZZ: '1' } : {}) } });
  }
}

// Score as Stryker defines it: detected (killed + timeout) / valid mutants (detected + survived + no coverage).
console.log('\n| folder | tests | mutants | killed | timeout | survived | no coverage | score |');
console.log('|---|---|---|---|---|---|---|---|');
for (const folder of chosen) for (const kind of ['', '.nofuzz', '.nostatic', '.nofuzz.nostatic']) {
  const file = join(ROOT, 'reports', 'mutation', `${folder}${kind}.json`);
  // .nostatic: Stryker's static mutants (code run while test files load) left out (MUTATE_IGNORE_STATIC).
  const tests = [kind.includes('nofuzz') ? 'without fuzz smoke' : 'all CI runs', kind.includes('nostatic') ? 'static mutants ignored' : ''].filter(Boolean).join(', ');
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const count = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, other: 0 };
  for (const f of Object.values(report.files)) for (const m of f.mutants) count[m.status in count ? m.status : 'other']++;
  const valid = count.Killed + count.Timeout + count.Survived + count.NoCoverage;
  const score = valid ? (100 * (count.Killed + count.Timeout)) / valid : 0;
  console.log(`| ${folder} | ${tests} | ${valid} | ${count.Killed} | ${count.Timeout} | ${count.Survived} | ${count.NoCoverage} | ${score.toFixed(1)}% |`);
}

// --survivors: every surviving (or uncovered) mutant of the chosen folders, with its line, as
// reports/mutation/<folder>-survivors.txt (the list docs/testing.md explains).
if (args.includes('--survivors')) {
  for (const folder of chosen) for (const kind of ['', '.nofuzz', '.nostatic', '.nofuzz.nostatic']) {
    const file = join(ROOT, 'reports', 'mutation', `${folder}${kind}.json`);
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const out = [];
    for (const [path, f] of Object.entries(report.files)) {
      const lines = f.source.split('\n');
      const left = f.mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage').sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
      for (const m of left) {
        const { start, end } = m.location;
        const original = start.line === end.line ? lines[start.line - 1].slice(start.column - 1, end.column - 1) : `${lines[start.line - 1].slice(start.column - 1)}…`;
        out.push(`${path}:${start.line}:${start.column} ${m.status} ${m.mutatorName}: ${original.trim().slice(0, 120)} -> ${String(m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80)}`);
      }
    }
    writeFileSync(join(ROOT, 'reports', 'mutation', `${folder}${kind}-survivors.txt`), `${out.join('\n')}\n`);
    console.log(`${folder}${kind}: ${out.length} survivors in reports/mutation/${folder}${kind}-survivors.txt`);
  }
}
