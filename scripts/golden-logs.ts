// Writes tests/conformance/golden/<case>.txt, the `-o log` text istioctl's analyzer
// gives for each conformance case, from expected.yaml (parameters and field paths per
// message) and the corpus's messages.yaml and testdata. Our analyzers are not involved.
// Usage: npx tsx scripts/golden-logs.ts [--root DIR]
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_ROOT, readCasesFile } from './conformance.ts';
import { goldenFile, goldenLogText, readExpectedMessages, readMessageTemplates } from '../tests/conformance/goldenLog.ts';

const i = process.argv.indexOf('--root');
const root = resolve(i >= 0 ? (process.argv[i + 1] ?? '') : DEFAULT_ROOT);
const analyzersDir = join(root, 'analyzers');
const templates = readMessageTemplates(join(analyzersDir, 'messages.yaml'));
const expected = readExpectedMessages();
const cases = [...readCasesFile(join(analyzersDir, 'cases.json')), ...readCasesFile(join(analyzersDir, 'multicluster-cases.json'))];
let written = 0;
const missing: string[] = [];
for (const c of cases) {
  const messages = expected.get(c.id);
  if (!messages) {
    missing.push(c.id);
    continue;
  }
  writeFileSync(goldenFile(c.id), goldenLogText(c, messages, analyzersDir, templates));
  written++;
}
console.log(`golden-logs: wrote ${written} files${missing.length ? `; no entry in expected.yaml for ${missing.length} case(s): ${missing.join(', ')}` : ''}`);
