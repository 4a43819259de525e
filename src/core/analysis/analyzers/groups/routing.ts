// Analyzers of the "routing" group; the registry (../index.ts) orders them as Istio's All() does.
import type { AnalyzerGroup } from '../../types.ts';

export const routingGroup: AnalyzerGroup = { analyzers: [] };
