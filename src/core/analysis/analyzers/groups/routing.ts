// Analyzers of the "routing" group; the registry (../index.ts) orders them as Istio's All() does.
import type { AnalyzerGroup } from '../../types.ts';
import { caCertificateAnalyzer } from '../destinationrule/caCertificates.ts';
import { subsetSelectPodAnalyzer } from '../destinationrule/subsetSelectPods.ts';
import { envoyPatchAnalyzer } from '../envoyfilter/envoyPatch.ts';
import { virtualServiceValidationAnalyzer } from '../schema/virtualServiceRules.ts';
import { conflictingMeshGatewayHostsAnalyzer } from '../virtualservice/conflictingMeshGatewayHosts.ts';
import { destinationRuleAnalyzer } from '../virtualservice/destinationRules.ts';
import { jwtClaimRouteAnalyzer } from '../virtualservice/jwtClaimRoute.ts';

export const routingGroup: AnalyzerGroup = {
  analyzers: [
    conflictingMeshGatewayHostsAnalyzer,
    destinationRuleAnalyzer,
    jwtClaimRouteAnalyzer,
    caCertificateAnalyzer,
    subsetSelectPodAnalyzer,
    envoyPatchAnalyzer,
    virtualServiceValidationAnalyzer,
  ],
};
