// Peak heap of the pipeline for one mesh size, in its own process. `run.ts` runs this with
// decreasing heap limits (--max-old-space-size) and a 1 MB young generation: the smallest
// limit under which text → diagnostics still completes is the peak live heap (to 1 MB).
// Without a limit, it prints the heap in use before the run (baseline) and after it.
import { generateMesh } from './generateMesh.ts';
import { WorkspaceAnalyzer } from '../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../src/core/analysis/settings.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const services = Number(process.argv[2] ?? 1000);

// Warm up so compiled code and library caches count as baseline, not as data.
{
  const w = new WorkspaceAnalyzer();
  w.update([{ path: 'warm.yaml', text: generateMesh(50).text }], []);
  await w.run(defaultAnalysisSettings());
}
const text = generateMesh(services).text;
gc();
gc();
const base = process.memoryUsage().heapUsed;
const w = new WorkspaceAnalyzer();
w.update([{ path: 'mesh.yaml', text }], []);
const result = await w.run(defaultAnalysisSettings());
gc();
gc();
const retained = process.memoryUsage().heapUsed - base;
console.log(JSON.stringify({ services, inputBytes: Buffer.byteLength(text), baseBytes: base, retained, diagnostics: result === 'canceled' ? -1 : result.diagnostics.length }));
