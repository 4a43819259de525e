// schema.ValidationAnalyzer.<Kind>: Istio's validation as an analyzer, one per Istio kind in
// the order of collections.Istio (pkg/config/analysis/analyzers/schema/validation.go). Each
// webhook error of a resource becomes IST0106 and each warning IST0133, except the route-rule
// findings Istio reports with their own codes (IST0130, IST0131). Istio maps no field for
// them, so istioctl prints the resource's line; the editor points at the finding's field.
// Findings of the CRD schema layer (and duplicate keys) are what the API server refuses, which
// istioctl never reports: they get our own MWB-API-SERVER-REJECTS, never IST0106
// (AnalysisSettings.schemaFindings drops them).
import { KINDS, type KindInfo } from '../../../document/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { APPLY_FAILS, MESSAGES, OWN_MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { findingsToReport } from '../../../validation/index.ts';

/** collections.Istio, in Istio's order. */
export const VALIDATED_KINDS: readonly KindInfo[] = [
  KINDS.AuthorizationPolicy,
  KINDS.DestinationRule,
  KINDS.EnvoyFilter,
  KINDS.Gateway,
  KINDS.PeerAuthentication,
  KINDS.ProxyConfig,
  KINDS.RequestAuthentication,
  KINDS.ServiceEntry,
  KINDS.Sidecar,
  KINDS.Telemetry,
  KINDS.TrafficExtension,
  KINDS.VirtualService,
  KINDS.WasmPlugin,
  KINDS.WorkloadEntry,
  KINDS.WorkloadGroup,
  KINDS.MeshNetworks,
  KINDS.MeshConfig,
];

export function validationAnalyzer(kind: KindInfo): Analyzer {
  return perResourceAnalyzer(
    {
      name: `schema.ValidationAnalyzer.${kind.kind}`,
      description: `Runs schema validation as an analyzer on '${kind.kind}' resources`,
      inputs: [kind],
    },
    {
      kind,
      check(ctx, r) {
        for (const f of findingsToReport(r)) {
          const place = f.path !== undefined ? { highlightPath: f.path, highlightOccurrence: f.occurrence } : undefined;
          if (f.analysis?.type === 'VirtualServiceUnreachableRule') {
            ctx.report(MESSAGES.VirtualServiceUnreachableRule.at(r, f.analysis.rule, f.analysis.reason), place);
          } else if (f.analysis?.type === 'VirtualServiceIneffectiveMatch') {
            ctx.report(MESSAGES.VirtualServiceIneffectiveMatch.at(r, f.analysis.rule, f.analysis.match, f.analysis.duplicate), place);
          } else if (f.layer === 'schema' && f.level === 'error') {
            ctx.report(OWN_MESSAGES.ApiServerRejects.at(r, f.consequence ?? APPLY_FAILS, f.message), place);
          } else if (f.level === 'error') {
            ctx.report(MESSAGES.SchemaValidationError.at(r, f.message), place);
          } else {
            ctx.report(MESSAGES.SchemaWarning.at(r, f.message), place);
          }
        }
      },
    },
  );
}

export const VALIDATION_ANALYZERS: readonly Analyzer[] = VALIDATED_KINDS.map(validationAnalyzer);
