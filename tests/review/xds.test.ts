// The xDS section of the review summary: Bookinfo before and after an edit, each side analyzed
// on its own, every proxy generated, and the listeners, routes and clusters that change.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer } from '../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../src/core/analysis/settings.ts';
import { answerQueryAsync } from '../../src/core/queries/index.ts';
import { collectXds, diffXds, xdsNote } from '../../src/core/review/xds.ts';

const DIR = resolve(__dirname, '../../public/samples/bookinfo');
const FILES = ['platform.yaml', 'bookinfo.yaml', 'networking.yaml', 'destination-rules.yaml', 'pods.yaml'];

function files(edit?: (name: string, text: string) => string) {
  return FILES.map((f) => {
    const text = readFileSync(join(DIR, f), 'utf8');
    return { path: f, text: edit ? edit(f, text) : text };
  });
}

async function side(fs: { path: string; text: string }[], limit?: number) {
  const w = new WorkspaceAnalyzer();
  w.update(fs, []);
  expect(await w.run(defaultAnalysisSettings())).not.toBe('canceled');
  const state = w.analyzedState()!;
  return collectXds((view, args) => answerQueryAsync(view, args, state), limit);
}

describe('review summary: xDS section', () => {
  it('is empty when nothing changes', async () => {
    const [b, a] = await Promise.all([side(files()), side(files())]);
    expect(b.proxies.size).toBeGreaterThan(5);
    expect(diffXds(b, a)).toEqual([]);
    expect(xdsNote(b, a)).toBeUndefined();
  });

  it("lists each proxy's route that a weight edit changes, with the field", async () => {
    const before = await side(files());
    const after = await side(files((f, t) => (f === 'networking.yaml' ? t.replace('weight: 75', 'weight: 60').replace('weight: 25', 'weight: 40') : t)));
    const items = diffXds(before, after);
    const productpage = [...before.proxies.keys()].find((id) => id.startsWith('productpage'))!;
    const mine = items.filter((i) => i.label.startsWith(`${productpage}:`));
    const r9080 = mine.find((i) => i.label === `${productpage}: route 9080`)!;
    expect(r9080.kind).toBe('changed');
    expect(r9080.detail).toMatch(/weight: 75 → 60/);
    // Only routes change: no listener or cluster of any proxy.
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => / route /.test(i.label) && i.kind === 'changed')).toBe(true);
  });

  it('lists clusters a new subset adds and proxies that go away', async () => {
    const before = await side(files());
    const after = await side(
      files((f, t) => {
        if (f === 'destination-rules.yaml')
          return t.replace(/( {2}subsets:\n(\s+)- name: v1\n(\s+)labels:\n\s+version: v1\n)/, '$1$2- name: canary\n$3labels:\n$3  version: canary\n');
        return t;
      }),
    );
    const items = diffXds(before, after);
    expect(items.some((i) => i.kind === 'added' && /: cluster outbound\|\d+\|canary\|/.test(i.label))).toBe(true);
    // Fewer proxies after: the one that went is one item.
    const fewer = await side(
      files((f, t) =>
        f === 'pods.yaml'
          ? t
              .split('\n---\n')
              .filter((d) => !/name: details-v1/.test(d))
              .join('\n---\n')
          : t,
      ),
    );
    const gone = diffXds(before, fewer).filter((i) => i.kind === 'removed' && i.label.startsWith('Proxy details'));
    expect(gone).toHaveLength(1);
    expect(gone[0]!.detail).toMatch(/^\d+ listeners, \d+ routes, \d+ clusters$/);
  });

  it('says when it compares only some proxies', async () => {
    const [b, a] = await Promise.all([side(files(), 2), side(files(), 2)]);
    expect(b.proxies.size).toBe(2);
    expect(xdsNote(b, a)).toMatch(/^Only the first 60 proxies \(by name\) are compared; \d+ more are not\.$/);
  });
});
