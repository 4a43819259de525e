// Validation in `npm run bench`: the time to validate (both layers) per 1,000 resources of
// the generated mesh, and what the schema.ValidationAnalyzer.<Kind> analyzers add to the
// analysis of the 1,000-service mesh (target: at most 50%).
import { generateMesh } from './generateMesh.ts';
import { WorkspaceAnalyzer } from '../src/core/workspace.ts';
import { defaultAnalysisSettings } from '../src/core/analysis/settings.ts';
import { validateResource } from '../src/core/validation/index.ts';
import { splitDocuments } from '../src/core/model/split.ts';
import { parseSourceDocument } from '../src/core/model/parse.ts';
import { resourcesOf } from '../src/core/model/resources.ts';
import type { Resource } from '../src/core/model/types.ts';

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
  for (const doc of splitDocuments('mesh.yaml', mesh.text)) resources.push(...resourcesOf(parseSourceDocument(doc)).resources);
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
  // Within analysis: the validation analyzers' share of the analyzers' time.
  const shares: number[] = [];
  for (let i = 0; i <= runs; i++) {
    gc();
    const timing = new Map<string, number>();
    const w = new WorkspaceAnalyzer();
    w.update([{ path: 'mesh.yaml', text: mesh.text }], []);
    await w.run(defaultAnalysisSettings(), { timing });
    let validation = 0;
    let rest = 0;
    for (const [name, ms] of timing) {
      if (name.startsWith('schema.ValidationAnalyzer.')) validation += ms;
      else rest += ms;
    }
    if (i > 0) shares.push(validation / rest);
  }
  const added = median(shares);
  return {
    lines: [
      `\nValidation (${services.toLocaleString('en')} services, ${resources.length.toLocaleString('en')} resources, ${findings} findings):`,
      `  validateResource, both layers: ${median(alone).toFixed(1)} ms, ${perThousand.toFixed(1)} ms per 1,000 resources`,
      `  schema.ValidationAnalyzer.* add ${(added * 100).toFixed(1)}% to the other analyzers' time`,
    ],
    checks: [{ label: `validation adds <= 50% to analysis (${services.toLocaleString('en')} services)`, pass: added <= 0.5, detail: `${(added * 100).toFixed(1)}%` }],
  };
}
