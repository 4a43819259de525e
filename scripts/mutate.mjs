// `npm run mutate -- [pki|share|simulate|ambient ...] [--group G] [--no-fuzz] [--report] [--survivors]`:
// mutation testing with Stryker (not in CI). --report prints the table from the last reports only.
// --group runs one group of a large folder's files (tools/mutate/folders.mjs); once every group of a
// folder has a report, the table merges them into the folder's report.
// Stryker lives in tools/mutate with its own package.json, installed here on first use, so the
// main install (and CI) never pulls it. Each folder's report lands in reports/mutation/, and the
// scores are printed as the table docs/testing.md keeps.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, lstatSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = join(ROOT, 'tools', 'mutate');
import { FOLDERS as SPECS, groupEntry } from '../tools/mutate/folders.mjs';
const FOLDERS = Object.keys(SPECS);

const args = process.argv.slice(2);
const reportOnly = args.includes('--report');
const noFuzz = args.includes('--no-fuzz');
const groupAt = args.indexOf('--group');
const group = groupAt >= 0 ? args[groupAt + 1] : undefined;
const folders = args.filter((a, i) => !a.startsWith('--') && i !== groupAt + 1);
for (const f of folders)
  if (!FOLDERS.includes(f)) {
    console.error(`Unknown folder "${f}"; choose from ${FOLDERS.join(', ')}.`);
    process.exit(64);
  }
const chosen = folders.length ? folders : FOLDERS;
if (groupAt >= 0 && (chosen.length !== 1 || !SPECS[chosen[0]].groups?.[group])) {
  console.error(
    `--group needs one folder and one of its groups (${FOLDERS.map((f) => `${f}: ${Object.keys(SPECS[f].groups ?? {}).join(', ') || 'none'}`).join('; ')}).`,
  );
  process.exit(64);
}
// A folder's groups must cover each of its files whole, each line once: a line left out would
// never be mutated.
for (const [name, spec] of Object.entries(SPECS))
  if (spec.groups) {
    const dir = join(ROOT, 'src', 'core', name);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -3));
    const ranges = new Map(files.map((f) => [f, []]));
    const problems = [];
    for (const entry of Object.values(spec.groups).flat()) {
      const r = groupEntry(entry);
      if (!ranges.has(r.name)) problems.push(`${entry}: no such file`);
      else ranges.get(r.name).push(r);
    }
    for (const [file, rs] of ranges) {
      const lines = readFileSync(join(dir, `${file}.ts`), 'utf8').split('\n').length;
      rs.sort((x, y) => x.from - y.from);
      let next = 1;
      for (const r of rs) {
        if (r.from !== next) problems.push(`${file}: lines ${next}-${r.from - 1} in no group, or lines from ${r.from} in two`);
        next = r.to + 1;
      }
      if (rs.length === 0) problems.push(`${file}: in no group`);
      else if (next <= lines) problems.push(`${file}: lines ${next}-${lines} in no group`);
    }
    if (problems.length) {
      console.error(`tools/mutate/folders.mjs: the groups of ${name} must cover each file of src/core/${name} whole, once:\n  ${problems.join('\n  ')}`);
      process.exit(65);
    }
  }

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
    try {
      lstatSync(link);
      rmSync(link);
    } catch {
      /* not there yet */
    }
    symlinkSync(shared, link);
    console.log(`\n== mutating ${folder}`);
    run(process.execPath, [stryker, 'run', join('tools', 'mutate', 'stryker.config.mjs')], {
      cwd: ROOT,
      env: { ...process.env, MUTATE_FOLDER: folder, ...(noFuzz ? { MUTATE_NO_FUZZ: '1' } : {}), ...(group ? { MUTATE_GROUP: group } : {}) },
    });
  }
}

// A folder whose every group has a report of a kind: the group reports merged into the folder's
// report (and incremental file, so a later whole-folder run reuses them).
const KINDS = ['', '.nofuzz', '.nostatic', '.nofuzz.nostatic'];
for (const folder of chosen) {
  const groups = Object.keys(SPECS[folder].groups ?? {});
  if (!groups.length) continue;
  for (const kind of KINDS)
    for (const suffix of ['.json', '.incremental.json']) {
      const parts = groups.map((g) => join(ROOT, 'reports', 'mutation', `${folder}${kind}.group-${g}${suffix}`));
      const present = parts.filter((p) => existsSync(p));
      if (present.length === 0) continue;
      if (present.length < parts.length) {
        if (suffix === '.json')
          console.log(
            `${folder}${kind}: groups ${groups.filter((_, i) => existsSync(parts[i])).join(', ')} of ${groups.join(', ')} have reports; the folder's score waits for the rest.`,
          );
        continue;
      }
      const reports = present.map((p) => JSON.parse(readFileSync(p, 'utf8')));
      const merged = { ...reports[0], files: Object.assign({}, ...reports.map((r) => r.files)) };
      if (reports.some((r) => r.testFiles)) merged.testFiles = Object.assign({}, ...reports.map((r) => r.testFiles ?? {}));
      writeFileSync(join(ROOT, 'reports', 'mutation', `${folder}${kind}${suffix}`), JSON.stringify(merged));
    }
}

// Score as Stryker defines it: detected (killed + timeout) / valid mutants (detected + survived + no coverage).
console.log('\n| folder | tests | mutants | killed | timeout | survived | no coverage | score |');
console.log('|---|---|---|---|---|---|---|---|');
for (const folder of chosen)
  for (const kind of KINDS) {
    const file = join(ROOT, 'reports', 'mutation', `${folder}${kind}.json`);
    // .nostatic: Stryker's static mutants (code run while test files load) left out (MUTATE_IGNORE_STATIC).
    const tests = [kind.includes('nofuzz') ? 'without fuzz smoke' : 'all CI runs', kind.includes('nostatic') ? 'static mutants ignored' : '']
      .filter(Boolean)
      .join(', ');
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
  for (const folder of chosen)
    for (const kind of [...KINDS, ...KINDS.flatMap((k) => Object.keys(SPECS[folder].groups ?? {}).map((g) => `${k}.group-${g}`))]) {
      const file = join(ROOT, 'reports', 'mutation', `${folder}${kind}.json`);
      if (!existsSync(file)) continue;
      const report = JSON.parse(readFileSync(file, 'utf8'));
      const out = [];
      for (const [path, f] of Object.entries(report.files)) {
        const lines = f.source.split('\n');
        const left = f.mutants
          .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
          .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
        for (const m of left) {
          const { start, end } = m.location;
          const original =
            start.line === end.line ? lines[start.line - 1].slice(start.column - 1, end.column - 1) : `${lines[start.line - 1].slice(start.column - 1)}…`;
          out.push(
            `${path}:${start.line}:${start.column} ${m.status} ${m.mutatorName}: ${original.trim().slice(0, 120)} -> ${String(m.replacement ?? '')
              .replace(/\s+/g, ' ')
              .slice(0, 80)}`,
          );
        }
      }
      writeFileSync(join(ROOT, 'reports', 'mutation', `${folder}${kind}-survivors.txt`), `${out.join('\n')}\n`);
      console.log(`${folder}${kind}: ${out.length} survivors in reports/mutation/${folder}${kind}-survivors.txt`);
    }
}
