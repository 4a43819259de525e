// Peak heap of the pipeline for one mesh size, run in its own process (see run.ts). With a
// 1 MB young generation, garbage is collected almost at once, so heapUsed sampled after
// each stage is close to the live heap; the figure is exact to about 1 MB.
import { generateMesh } from './generateMesh.ts';
import { WorkspaceAnalyzer } from '../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../src/core/analysis/settings.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const services = Number(process.argv[2] ?? 1000);

// Warm up so compiled code and library caches are not counted as data.
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
const afterParse = process.memoryUsage().heapUsed - base;
await w.run(defaultAnalysisSettings());
const afterRun = process.memoryUsage().heapUsed - base;
gc();
gc();
const retained = process.memoryUsage().heapUsed - base;
console.log(JSON.stringify({ services, inputBytes: Buffer.byteLength(text), peak: Math.max(afterParse, afterRun), retained, keep: w ? 1 : 0 }));
