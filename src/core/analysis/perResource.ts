// Builds an analyzer out of an independent per-resource check (see PerResourceParts).
import type { Analyzer, AnalyzerMetadata, PerResourceParts } from './types.ts';

export function perResourceAnalyzer(metadata: AnalyzerMetadata, parts: PerResourceParts): Analyzer {
  return {
    metadata,
    perResource: parts,
    analyze(ctx) {
      for (const r of ctx.list(parts.kind)) parts.check(ctx, r);
      parts.global?.(ctx);
    },
  };
}
