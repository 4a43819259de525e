// RunOptions.ranges = false (the CLI's json, yaml and log output) skips locating each
// message's highlighted field: the diagnostics must be the same except for their ranges, and
// a session that rendered without ranges must not hand those diagnostics to a run that wants them.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import type { Diagnostic } from '../../src/core/document/types.ts';

const DIR = 'public/samples/many-mistakes';
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => ({ path: f, text: readFileSync(join(DIR, f), 'utf8') }));

async function run(w: WorkspaceAnalyzer, ranges: boolean | undefined): Promise<Diagnostic[]> {
  const r = await w.run(defaultAnalysisSettings(), { fixes: false, ranges });
  if (r === 'canceled') throw new Error('canceled');
  return r.diagnostics.filter((d) => d.source !== 'parser');
}

function fresh(): WorkspaceAnalyzer {
  const w = new WorkspaceAnalyzer();
  w.update(files, []);
  return w;
}

describe('analysis without ranges', () => {
  it('gives the same diagnostics, lines included, without their ranges', async () => {
    const full = await run(fresh(), undefined);
    const lean = await run(fresh(), false);
    expect(full.length).toBeGreaterThan(5);
    expect(full.some((d) => d.range !== undefined)).toBe(true);
    expect(lean.every((d) => d.range === undefined)).toBe(true);
    expect(lean).toEqual(full.map((d) => ({ ...d, range: undefined })));
  });

  it('renders the ranges again when a later run of the same session wants them', async () => {
    const w = fresh();
    const full = await run(fresh(), true);
    await run(w, false);
    expect(await run(w, true)).toEqual(full);
  });
});
