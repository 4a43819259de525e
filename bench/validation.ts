// Validation in `npm run bench`: the time to validate (both layers) per 1,000 resources of
// the generated mesh, and what the schema.ValidationAnalyzer.<Kind> analyzers add to the
// analysis of the 1,000-service mesh (target: at most 50%).
import { generateMesh } from './generateMesh.ts';
import { WorkspaceAnalyzer } from '../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../src/core/analysis/settings.ts';
import { ALL_ANALYZERS } from '../src/core/analysis/analyzers/index.ts';
import { validateResource } from '../src/core/validation/index.ts';
import { splitDocuments } from '../src/core/document/split.ts';
import { parseSourceDocument } from '../src/core/document/parse.ts';
import { resourcesOf } from '../src/core/document/resources.ts';
import type { Resource } from '../src/core/document/types.ts';
import { kindProblems } from '../src/core/validation/kindProblems.ts';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

export interface ValidationBench {
  lines: string[];
  checks: Array<{ label: string; pass: boolean; detail: string }>;
}

export async function benchValidation(services = 1000, runs = 5): Promise<ValidationBench> {
  const mesh = generateMesh(services);
  const resources: Resource[] = [];
  for (const doc of splitDocuments('mesh.yaml', mesh.text)) resources.push(...resourcesOf(parseSourceDocument(doc), kindProblems).resources);
  // Validation alone, every resource (Kubernetes kinds get their structural checks too).
  const alone: number[] = [];
  let findings = 0;
  for (let i = 0; i <= runs; i++) {
    gc();
    const t0 = performance.now();
    let n = 0;
    for (const r of resources) n += validateResource(r).length;
    if (i > 0) alone.push(performance.now() - t0);
    findings = n;
  }
  const perThousand = (median(alone) / resources.length) * 1000;
  // Within analysis: what the validation analyzers add to the whole analysis (text → diagnostics:
  // parsing, the mesh model, every analyzer, rendering), against the same run without them.
  const settings = defaultAnalysisSettings();
  const withoutValidation = { ...settings, analyzers: ALL_ANALYZERS.map((a) => a.metadata.name).filter((n) => !n.startsWith('schema.ValidationAnalyzer.')) };
  const whole = async (s: typeof settings, timing?: Map<string, number>) => {
    gc();
    const t0 = performance.now();
    const w = new WorkspaceAnalyzer();
    w.update([{ path: 'mesh.yaml', text: mesh.text }], []);
    await w.run(s, { timing });
    return performance.now() - t0;
  };
  const withMs: number[] = [];
  const withoutMs: number[] = [];
  const shares: number[] = [];
  for (let i = 0; i <= runs; i++) {
    // Alternated, so a busy machine slows both alike.
    const timing = new Map<string, number>();
    const a = await whole(settings, timing);
    const b = await whole(withoutValidation);
    if (i === 0) continue;
    withMs.push(a);
    withoutMs.push(b);
    let validation = 0;
    let rest = 0;
    for (const [name, ms] of timing) {
      if (name.startsWith('schema.ValidationAnalyzer.')) validation += ms;
      else rest += ms;
    }
    shares.push(validation / rest);
  }
  const added = median(withMs) / median(withoutMs) - 1;
  const analyzerShare = median(shares);
  return {
    lines: [
      `\nValidation (${services.toLocaleString('en')} services, ${resources.length.toLocaleString('en')} resources, ${findings} findings):`,
      `  validateResource, both layers: ${median(alone).toFixed(1)} ms, ${perThousand.toFixed(1)} ms per 1,000 resources`,
      `  analysis of the mesh: ${median(withMs).toFixed(0)} ms with validation, ${median(withoutMs).toFixed(0)} ms without: +${(added * 100).toFixed(1)}%`,
      `  (the schema.ValidationAnalyzer.* analyzers take ${(analyzerShare * 100).toFixed(1)}% of the other analyzers' own time)`,
    ],
    checks: [
      { label: `validation adds <= 50% to analysis (${services.toLocaleString('en')} services)`, pass: added <= 0.5, detail: `${(added * 100).toFixed(1)}%` },
    ],
  };
}
