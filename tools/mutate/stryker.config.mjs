// Stryker config for `npm run mutate -- FOLDER` (FOLDER: pki, share, simulate, ambient).
// Each folder is mutated against what CI runs on it: the unit tests that exercise it, the fuzz
// regression corpus, the conformance suites (tools/mutate/tests/corpus.test.ts) and the fuzz
// smoke runs (tools/mutate/tests/fuzzSmoke.test.ts). A surviving mutant is a bug CI lets through.
import { readFileSync } from 'node:fs';
import { FOLDERS, groupEntry } from './folders.mjs';

const folder = process.env.MUTATE_FOLDER;
const spec = FOLDERS[folder];
if (!spec) throw new Error(`MUTATE_FOLDER must be one of ${Object.keys(FOLDERS).join(', ')}`);
process.env.MUTATE_TESTS = spec.tests.join(',');
process.env.MUTATE_PARTS = spec.parts.join(',');
// MUTATE_NO_FUZZ (npm run mutate -- --no-fuzz): leave the fuzz smoke runs out, for a quick lower
// bound; a surviving mutant costs a whole smoke run (10 s or more) otherwise. Its report is <folder>.nofuzz.json.
const noFuzz = Boolean(process.env.MUTATE_NO_FUZZ);
// MUTATE_GROUP: one group of the folder's files (a run that fits in a working session); its report
// is <report>.group-<name>.json, and `npm run mutate -- FOLDER --report` merges a complete set.
const group = process.env.MUTATE_GROUP;
if (group && !spec.groups?.[group]) throw new Error(`${folder} has no group "${group}" (groups: ${Object.keys(spec.groups ?? {}).join(', ') || 'none'})`);
const mutate = group
  ? spec.groups[group].map((entry) => {
      const { name, from, to } = groupEntry(entry);
      const file = `src/core/${folder}/${name}.ts`;
      if (from === 1 && to === Infinity) return file;
      const lines = readFileSync(file, 'utf8').split('\n').length;
      return `${file}:${from}-${Math.min(to, lines)}`;
    })
  : spec.mutate;
process.env.MUTATE_FUZZ = noFuzz ? '' : spec.fuzz.join(',');
// MUTATE_IGNORE_STATIC: leave out mutants of code run while test files load (Stryker's "static"
// mutants, which run every test); a survey of the rest, never the score. Report <folder>[.nofuzz].nostatic.json.
const ignoreStatic = Boolean(process.env.MUTATE_IGNORE_STATIC);
const reportName = `${folder}${noFuzz ? '.nofuzz' : ''}${ignoreStatic ? '.nostatic' : ''}${group ? `.group-${group}` : ''}`;

export default {
  $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'tools/mutate/vitest.config.ts', related: false },
  mutate,
  coverageAnalysis: 'perTest',
  ignoreStatic,
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 2),
  timeoutMS: 60000,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${reportName}.json` },
  htmlReporter: { fileName: `reports/mutation/${reportName}.html` },
  // Reruns only the mutants whose code or covering tests changed since the last run of the folder.
  incremental: true,
  incrementalFile: `reports/mutation/${reportName}.incremental.json`,
  // One temp folder per folder, so runs of two folders at once never clean each other's sandboxes.
  tempDirName: `.stryker-tmp-${folder}`,
  cleanTempDir: true,
  ignorePatterns: ['/.stryker-tmp*', '/oracle', 'reports', 'test-results', 'playwright-report', 'dist', 'dist-cli', '.vite', 'tools/mutate/node_modules'],
  thresholds: { high: 90, low: 85, break: null },
};
