// Analyzers of the "workloads" group; the registry (../index.ts) orders them as Istio's All() does.
import type { AnalyzerGroup } from '../../types.ts';

export const workloadsGroup: AnalyzerGroup = { analyzers: [] };
