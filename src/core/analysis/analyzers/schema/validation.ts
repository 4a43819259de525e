// schema.ValidationAnalyzer.<Kind>: for each Istio kind, in the order of Istio's
// collections.Istio, the resource's validation findings (CRD schema, then webhook; see
// src/core/validation) as IST0106 (errors) and IST0133 (warnings), pointing at the field.
// VirtualService's analyzer also runs the route-rule checks (IST0130/IST0131) of
// virtualServiceRules.ts.
import type { Analyzer, AnalysisContext } from '../../types.ts';
import type { Resource } from '../../../model/types.ts';
import { KINDS, type KindInfo } from '../../../model/kinds.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { validateResource } from '../../../validation/index.ts';
import { virtualServiceValidationAnalyzer } from './virtualServiceRules.ts';

function reportFindings(ctx: AnalysisContext, r: Resource): void {
  for (const f of validateResource(r)) {
    if (f.analysis) continue; // IST0130/IST0131: reported by the route-rule checks
    const m = f.level === 'error' ? MESSAGES.SchemaValidationError.at(r, f.message) : MESSAGES.SchemaWarning.at(r, f.message);
    ctx.report(m, f.path ? { highlightPath: f.path } : undefined);
  }
}

function validationAnalyzer(kind: KindInfo, extra?: (ctx: AnalysisContext, r: Resource) => void): Analyzer {
  return perResourceAnalyzer(
    {
      name: `schema.ValidationAnalyzer.${kind.kind}`,
      description: `Runs schema validation as an analyzer on '${kind.kind}' resources`,
      inputs: [kind],
    },
    {
      kind,
      check(ctx, r) {
        reportFindings(ctx, r);
        extra?.(ctx, r);
      },
    },
  );
}

const vsRules = virtualServiceValidationAnalyzer.perResource;

/** In Istio's order (collections.Istio); MeshConfig and MeshNetworks have no file resources to validate. */
export const VALIDATION_ANALYZERS: readonly Analyzer[] = [
  validationAnalyzer(KINDS.AuthorizationPolicy),
  validationAnalyzer(KINDS.DestinationRule),
  validationAnalyzer(KINDS.EnvoyFilter),
  validationAnalyzer(KINDS.Gateway),
  validationAnalyzer(KINDS.PeerAuthentication),
  validationAnalyzer(KINDS.ProxyConfig),
  validationAnalyzer(KINDS.RequestAuthentication),
  validationAnalyzer(KINDS.ServiceEntry),
  validationAnalyzer(KINDS.Sidecar),
  validationAnalyzer(KINDS.Telemetry),
  { ...validationAnalyzer(KINDS.VirtualService, (ctx, r) => vsRules?.check(ctx, r)), metadata: virtualServiceValidationAnalyzer.metadata },
  validationAnalyzer(KINDS.WasmPlugin),
  validationAnalyzer(KINDS.WorkloadEntry),
  validationAnalyzer(KINDS.WorkloadGroup),
];
