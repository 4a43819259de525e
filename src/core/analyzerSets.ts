// The analyzers a run can choose from: Istio's (analysis/analyzers, the set istioctl runs) and
// the workbench's own, which may look at the generated xDS and so live with the layer they read
// (an xDS-based analyzer sits in xds/, above analysis).
import type { Analyzer } from './analysis/types.ts';
import { ALL_ANALYZERS, istioAnalyzerByName } from './analysis/analyzers/index.ts';
import { patchReachAnalyzer } from './xds/envoyfilter/patchReachAnalyzer.ts';

/**
 * The workbench's own analyzers: run by default in the workbench's mode, never in istioctl's
 * (which runs exactly Istio's). Their messages have MWB- codes.
 */
export const WORKBENCH_ANALYZERS: readonly Analyzer[] = [patchReachAnalyzer];

/** Any analyzer by name: Istio's, optional ones included, or the workbench's own. */
export function analyzerByName(name: string): Analyzer | undefined {
  return istioAnalyzerByName(name) ?? WORKBENCH_ANALYZERS.find((a) => a.metadata.name === name);
}

/** The analyzers selected by name (istioctl --analyzer); all when none match. */
export function selectAnalyzers(names: readonly string[]): Analyzer[] {
  if (names.length === 0) return [...ALL_ANALYZERS, ...WORKBENCH_ANALYZERS];
  const picked = names.map(analyzerByName).filter((a): a is Analyzer => a !== undefined);
  return picked.length > 0 ? picked : [...ALL_ANALYZERS, ...WORKBENCH_ANALYZERS];
}
