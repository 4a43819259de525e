// Analyzers of the "gateways" group; the registry (../index.ts) orders them as Istio's All() does.
import type { AnalyzerGroup } from '../../types.ts';
import { certificateAnalyzer } from '../gateway/certificate.ts';
import { secretAnalyzer } from '../gateway/secret.ts';
import { conflictingGatewayAnalyzer } from '../gateway/conflictingGateway.ts';
import { k8sGatewaySelectorAnalyzer } from '../k8sgateway/selector.ts';
import { crdVersionAnalyzer } from '../k8sgateway/crdVersion.ts';
import { blockedCidrsAnalyzer } from '../authn/blockedCidrs.ts';
import { authorizationPoliciesAnalyzer } from '../authz/authorizationPolicies.ts';

export const gatewaysGroup: AnalyzerGroup = {
  analyzers: [
    certificateAnalyzer,
    secretAnalyzer,
    conflictingGatewayAnalyzer,
    k8sGatewaySelectorAnalyzer,
    crdVersionAnalyzer,
    blockedCidrsAnalyzer,
    authorizationPoliciesAnalyzer,
  ],
};
