// Every analyzer, in the order of Istio's analyzers.All(). One analyzer per file.
import type { Analyzer } from '../types.ts';

export const ALL_ANALYZERS: readonly Analyzer[] = [];

/** Analyzers that exist in Istio but are not run by default (like annotations.AlphaAnalyzer). */
export const OPTIONAL_ANALYZERS: readonly Analyzer[] = [];

export function analyzerByName(name: string): Analyzer | undefined {
  return [...ALL_ANALYZERS, ...OPTIONAL_ANALYZERS].find((a) => a.metadata.name === name);
}

/** The analyzers selected by name (istioctl --analyzer); all when none match. */
export function selectAnalyzers(names: readonly string[]): Analyzer[] {
  if (names.length === 0) return [...ALL_ANALYZERS];
  const picked = names.map(analyzerByName).filter((a): a is Analyzer => a !== undefined);
  return picked.length > 0 ? picked : [...ALL_ANALYZERS];
}
