// Peak heap of the pipeline for one mesh size, in its own process: the live heap (after a
// full GC) is sampled after parsing, between analyzers and at the end, and the largest
// sample above the baseline is the peak. Transient garbage is left out on purpose: V8
// collects it whenever it needs the room.
import { generateMesh } from './generateMesh.ts';
import { WorkspaceAnalyzer } from '../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../src/core/analysis/settings.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const services = Number(process.argv[2] ?? 1000);

async function warmUp(): Promise<void> {
  // In a function, so nothing of the warm-up stays reachable from this module's scope.
  const w = new WorkspaceAnalyzer();
  w.update([{ path: 'warm.yaml', text: generateMesh(50).text }], []);
  await w.run(defaultAnalysisSettings());
}
await warmUp();

const text = generateMesh(services).text;
gc();
gc();
const base = process.memoryUsage().heapUsed;
let peak = 0;
const sample = () => {
  gc();
  peak = Math.max(peak, process.memoryUsage().heapUsed - base);
};
const w = new WorkspaceAnalyzer();
w.update([{ path: 'mesh.yaml', text }], []);
sample();
const result = await w.run(defaultAnalysisSettings(), { probe: sample });
sample();
console.log(JSON.stringify({ services, inputBytes: Buffer.byteLength(text), peak, diagnostics: result === 'canceled' ? -1 : result.diagnostics.length }));
