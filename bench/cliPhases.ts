// Where one cold `mesh-workbench analyze -o json FILE` spends its time after startup: the
// steps runAnalyze takes, timed once in a fresh process (as the CLI runs them once).
// Usage: node --import tsx bench/cliPhases.ts FILE  → one JSON line on stdout.
import { readFile } from 'node:fs/promises';
import { openSync, writeSync, closeSync } from 'node:fs';
import { WorkspaceAnalyzer } from '../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../src/core/analysis/settings.ts';
import { formatDiagnostics } from '../src/core/analysis/format/index.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: cliPhases.ts FILE');

const t0 = performance.now();
const text = await readFile(file, 'utf8');
const t1 = performance.now();
const workspace = new WorkspaceAnalyzer();
workspace.update([{ path: file, text }], []);
const t2 = performance.now();
const result = await workspace.run(defaultAnalysisSettings(), { fixes: false });
if (result === 'canceled') throw new Error('unexpected cancel');
const t3 = performance.now();
const output = formatDiagnostics(
  'json',
  result.diagnostics.filter((d) => d.source !== 'parser'),
);
const t4 = performance.now();
const fd = openSync('/dev/null', 'w');
writeSync(fd, output);
closeSync(fd);
const t5 = performance.now();

console.log(
  JSON.stringify({ readMs: t1 - t0, parseMs: t2 - t1, analyzeMs: t3 - t2, formatMs: t4 - t3, writeMs: t5 - t4, outputBytes: Buffer.byteLength(output) }),
);
