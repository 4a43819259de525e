// Quick fixes: after an analysis run, each diagnostic whose code has a provider gets the
// fixes it offers (best first). Work is capped so a huge mesh stays fast. (Suppression by
// annotation is computed on demand from the file text: see suppression.ts.)
import type { Diagnostic, QuickFix } from '../../document/types.ts';
import { messageBehind } from '../render.ts';
import type { FixContext, FixProvider } from './context.ts';
import type { StoreView } from '../../config/store.ts';
import { configView } from '../../config/configView.ts';
import { Lookups } from '../../config/lookups.ts';
import { destinationPortFixes, destinationReferenceFixes } from './providers/routing.ts';
import { gatewayHostFixes, gatewayPortFixes, gatewayReferenceFixes } from './providers/gateways.ts';
import { externalNamePortFixes, portNameFixes } from './providers/ports.ts';
import { multipleInjectionLabelFixes, namespaceInjectionFixes } from './providers/namespaces.ts';
import { deprecatedAnnotationFixes, unknownAnnotationFixes } from './providers/annotations.ts';

export type { FixContext, FixProvider } from './context.ts';
export { applyTextEdits } from './apply.ts';
export { suppressionForText } from './suppression.ts';

/** Providers by message code; each returns its fixes best first. */
export const FIX_PROVIDERS: Readonly<Record<string, readonly FixProvider[]>> = {
  IST0101: [destinationReferenceFixes, gatewayReferenceFixes],
  IST0102: [namespaceInjectionFixes],
  IST0108: [unknownAnnotationFixes],
  IST0112: [destinationPortFixes],
  IST0118: [portNameFixes],
  IST0123: [multipleInjectionLabelFixes],
  IST0132: [gatewayHostFixes],
  IST0135: [deprecatedAnnotationFixes],
  IST0150: [externalNamePortFixes],
  IST0162: [gatewayPortFixes],
};

export interface FixLimits {
  /** Diagnostics that get provider fixes. */
  maxFixed: number;
  /** Fixes kept per diagnostic. */
  maxPerDiagnostic: number;
}

export const DEFAULT_FIX_LIMITS: FixLimits = { maxFixed: 500, maxPerDiagnostic: 5 };

export function fixesFor(d: Diagnostic, ctx: FixContext, limits: FixLimits = DEFAULT_FIX_LIMITS): QuickFix[] {
  const message = messageBehind(d);
  const providers = FIX_PROVIDERS[d.code];
  if (!message || !providers) return [];
  const out: QuickFix[] = [];
  for (const p of providers) {
    try {
      out.push(...p({ diagnostic: d, message }, ctx));
    } catch {
      // A provider that trips over an odd document offers nothing; the analysis stands.
    }
  }
  const kept = out.slice(0, limits.maxPerDiagnostic);
  if (kept.length > 0 && !kept.some((f) => f.isPreferred)) (kept[0] as QuickFix).isPreferred = true;
  return kept;
}

/** Attaches `fixes` to the diagnostics (in place). */
export function attachFixes(diagnostics: readonly Diagnostic[], ctx: FixContext, limits: FixLimits = DEFAULT_FIX_LIMITS): void {
  let fixed = 0;
  for (const d of diagnostics) {
    // Rendered diagnostics are reused across runs: fixes from an earlier run (whose edits
    // may point into documents that have moved since) never carry over.
    if (d.fixes) delete d.fixes;
    if (d.source !== 'analyzer' || !FIX_PROVIDERS[d.code] || fixed >= limits.maxFixed) continue;
    fixed++;
    const fixes = fixesFor(d, ctx, limits);
    if (fixes.length > 0) d.fixes = fixes;
  }
}

/**
 * A fix context over a store and a document lookup. Given the analysis run's lookups, the
 * fixes share its indexes (and keep their own across runs while their kinds do not change);
 * otherwise they get fresh ones.
 */
export function fixContext(store: StoreView, document: FixContext['document'], lookups: Lookups = new Lookups(store)): FixContext {
  return { view: configView(store, lookups), document };
}
