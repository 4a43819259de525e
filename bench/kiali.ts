// Issue #35's budget: the Kiali pack adds at most 20% to a full analysis of the 5,000-service
// mesh. Interleaved cold runs (a fresh analyzer each), median of each. Run alone with
// `npm run bench:kiali`; `npm run bench` includes it.
import { WorkspaceAnalyzer } from '../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../src/core/analysis/settings.ts';
import { generateMesh } from './generateMesh.ts';

export const KIALI_BUDGET = 0.2;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

async function analyze(text: string, kiali: boolean): Promise<{ ms: number; kia: number }> {
  const w = new WorkspaceAnalyzer();
  const t0 = performance.now();
  w.update([{ path: 'mesh.yaml', text }], []);
  const r = await w.run({ ...defaultAnalysisSettings(), kiali });
  const ms = performance.now() - t0;
  if (r === 'canceled') throw new Error('unexpected cancel');
  return { ms, kia: r.diagnostics.filter((d) => d.code.startsWith('KIA')).length };
}

export interface KialiCost {
  services: number;
  withoutMs: number;
  withMs: number;
  /** (with − without) / without. */
  added: number;
  findings: number;
}

export async function measureKialiCost(services = 5000, rounds = 5): Promise<KialiCost> {
  const { text } = generateMesh(services);
  await analyze(text, false);
  await analyze(text, true);
  const without: number[] = [];
  const withPack: number[] = [];
  let findings = 0;
  for (let i = 0; i < rounds; i++) {
    globalThis.gc?.();
    without.push((await analyze(text, false)).ms);
    globalThis.gc?.();
    const r = await analyze(text, true);
    withPack.push(r.ms);
    findings = r.kia;
  }
  const withoutMs = median(without);
  const withMs = median(withPack);
  return { services, withoutMs, withMs, added: (withMs - withoutMs) / withoutMs, findings };
}

export function kialiLine(c: KialiCost): string {
  const pass = c.added <= KIALI_BUDGET;
  return `${pass ? 'PASS' : 'FAIL'}  Kiali pack adds <= 20% to a full analysis of the ${c.services.toLocaleString('en-US')}-service mesh: +${(c.added * 100).toFixed(1)}% (${c.withoutMs.toFixed(0)} ms without, ${c.withMs.toFixed(0)} ms with; ${c.findings} KIA findings)`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const c = await measureKialiCost();
  console.log(kialiLine(c));
  process.exitCode = c.added <= KIALI_BUDGET ? 0 : 1;
}
