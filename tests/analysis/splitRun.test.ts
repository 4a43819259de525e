// A run split across two threads (the CLI on large inputs, src/cli/analyzeThreads.ts): one
// side runs some analyzers and hands over their processed lists, the other runs the rest and
// merges those lists in. The merged result must be the single run's, message for message and
// in the same order, and a failed hand-over must change nothing.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer, type RunOptions } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import type { ShardList } from '../../src/core/analysis/run.ts';
import type { Diagnostic } from '../../src/core/document/types.ts';

const SAMPLES = new URL('../../public/samples/', import.meta.url);

function sampleFiles(): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const dir of ['bookinfo-mistakes', 'many-mistakes', 'ambient']) {
    for (const f of readdirSync(new URL(`${dir}/`, SAMPLES)).sort()) {
      if (f.endsWith('.yaml')) out.push({ path: `${dir}/${f}`, text: readFileSync(new URL(`${dir}/${f}`, SAMPLES), 'utf8') });
    }
  }
  return out;
}

async function analyze(options: RunOptions = {}, timing?: Map<string, number>): Promise<Diagnostic[]> {
  const w = new WorkspaceAnalyzer();
  w.update(sampleFiles(), []);
  const r = await w.run({ ...defaultAnalysisSettings(), kiali: true }, { fixes: false, ...options, ...(timing ? { timing } : {}) });
  if (r === 'canceled') throw new Error('canceled');
  return r.diagnostics;
}

// Analyzers whose messages interleave with others' in the sorted output (same codes, same
// resources), so a merge at the wrong place would show.
const SPLIT = new Set([
  'virtualservice.DestinationHostAnalyzer',
  'destinationrule.SubsetSelectPodAnalyzer',
  'virtualservice.DestinationRuleAnalyzer',
  'schema.ValidationAnalyzer.VirtualService',
  'schema.ValidationAnalyzer.DestinationRule',
  'gateway.IngressGatewayPortAnalyzer',
]);

describe('an analysis split across two threads', () => {
  it('merges the other side’s lists at their analyzers’ places: the single run’s messages, in order', async () => {
    const whole = await analyze();
    const lists: ShardList[] = [];
    await analyze({ only: SPLIT, collect: (l) => lists.push(l) });
    expect(lists.map((l) => l.analyzer).sort()).toEqual([...SPLIT].sort());
    // The split analyzers really report something here, or the test would prove nothing.
    expect(lists.reduce((n, l) => n + l.items.length, 0)).toBeGreaterThan(5);
    const timing = new Map<string, number>();
    // Sent as a thread sends them: a structured clone.
    const merged = await analyze({ offloaded: { names: SPLIT, lists: Promise.resolve(structuredClone(lists)) } }, timing);
    for (const name of SPLIT) expect(timing.has(name), name).toBe(false);
    expect(merged).toEqual(whole);
  });

  it('runs the other side’s analyzers itself when their lists never come', async () => {
    const whole = await analyze();
    const timing = new Map<string, number>();
    const failed = Promise.reject(new Error('worker died'));
    failed.catch(() => undefined);
    const merged = await analyze({ offloaded: { names: SPLIT, lists: failed } }, timing);
    for (const name of SPLIT) expect(timing.has(name), name).toBe(true);
    expect(merged).toEqual(whole);
  });
});
