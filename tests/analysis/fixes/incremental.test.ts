// Fixes follow the workspace across incremental runs: reused or moved diagnostics get
// fresh fixes whose edits point at the current text (also in other files).
import { describe, expect, it } from 'vitest';
import { WorkspaceAnalyzer } from '../../../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../../../src/core/analysis/settings.ts';
import type { Diagnostic } from '../../../src/core/document/types.ts';
import { analyzeFiles, applyFix, sampleFiles, type Files } from './helpers.ts';

async function run(w: WorkspaceAnalyzer, files: Files): Promise<Diagnostic[]> {
  w.update(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    [],
  );
  const res = await w.run(defaultAnalysisSettings(), { fixes: true });
  if (res === 'canceled') throw new Error('canceled');
  return res.diagnostics;
}

describe('quick fixes across incremental runs', () => {
  it('recomputes fixes after lines are inserted above (same file and the Gateway file)', async () => {
    const w = new WorkspaceAnalyzer();
    let files = sampleFiles();
    await run(w, files);
    // Move every document of networking.yaml down by three lines.
    files = { ...files, 'networking.yaml': '# one\n# two\n# three\n' + files['networking.yaml'] };
    const ds = await run(w, files);
    for (const [pick, title] of [
      [(d: Diagnostic) => d.code === 'IST0101' && d.message.includes('"reviews2"'), 'Change host to "reviews"'],
      [
        (d: Diagnostic) => d.code === 'IST0132' && d.origin === 'VirtualService bookinfo/reviews-admin',
        'Add "reviews.bookinfo.example.com" to the hosts of Gateway bookinfo/admin-gateway',
      ],
    ] as const) {
      const d = ds.find(pick)!;
      const fix = d.fixes?.find((f) => f.title === title);
      expect(fix, title).toBeDefined();
      const fixed = applyFix(files, fix!);
      const after = await analyzeFiles(fixed);
      expect(after.some(pick), title).toBe(false);
    }
  });

  it('drops fixes that no longer apply', async () => {
    const w = new WorkspaceAnalyzer();
    const files = sampleFiles();
    const first = await run(w, files);
    expect(first.find((d) => d.code === 'IST0101' && d.message.includes('"reviews2"'))?.fixes?.length).toBe(1);
    // Leave one unrelated Service: nothing left to suggest for the host (with no Service at
    // all, the host check would be skipped, as istioctl skips it).
    const unrelated = 'apiVersion: v1\nkind: Service\nmetadata: {name: zzzzzzzzzzzz, namespace: elsewhere}\nspec:\n  ports: [{port: 1, name: tcp}]\n';
    const second = await run(w, { ...files, 'bookinfo.yaml': unrelated });
    const d = second.find((x) => x.code === 'IST0101' && x.message.includes('"reviews2"'));
    expect(d).toBeDefined();
    expect(d!.fixes).toBeUndefined();
  });
});
