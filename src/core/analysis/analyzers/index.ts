// The analyzer registry: every analyzer, once, in the order of Istio's analyzers.All()
// (pkg/config/analysis/analyzers/all.go), then the schema validation analyzers. One
// analyzer per file.
import type { Analyzer } from '../types.ts';
import { k8sAnnotationsAnalyzer } from './annotations/k8s.ts';
import { alphaAnnotationsAnalyzer } from './maturity/alpha.ts';
import { blockedCidrsAnalyzer } from './authn/blockedCidrs.ts';
import { authorizationPoliciesAnalyzer } from './authz/authorizationPolicies.ts';
import { conditionAnalyzer } from './conditions/conditions.ts';
import { multiServiceAnalyzer } from './deployment/services.ts';
import { applicationUIDAnalyzer } from './deployment/pod.ts';
import { caCertificateAnalyzer } from './destinationrule/caCertificates.ts';
import { subsetSelectPodAnalyzer } from './destinationrule/subsetSelectPods.ts';
import { deprecationAnalyzer } from './deprecation/deprecation.ts';
import { envoyPatchAnalyzer } from './envoyfilter/envoyPatch.ts';
import { externalControlPlaneAnalyzer } from './externalcontrolplane/externalControlPlane.ts';
import { ingressGatewayPortAnalyzer } from './gateway/ingressGatewayPort.ts';
import { certificateAnalyzer } from './gateway/certificate.ts';
import { secretAnalyzer } from './gateway/secret.ts';
import { conflictingGatewayAnalyzer } from './gateway/conflictingGateway.ts';
import { injectionAnalyzer } from './injection/injection.ts';
import { injectionImageAnalyzer } from './injection/injectionImage.ts';
import { imageAutoAnalyzer } from './injection/imageAuto.ts';
import { k8sGatewaySelectorAnalyzer } from './k8sgateway/selector.ts';
import { crdVersionAnalyzer } from './k8sgateway/crdVersion.ts';
import { meshNetworksAnalyzer } from './multicluster/meshNetworks.ts';
import { multiClusterServiceAnalyzer } from './multicluster/service.ts';
import { portNameAnalyzer } from './service/portName.ts';
import { sidecarSelectorAnalyzer } from './sidecar/selector.ts';
import { conflictingMeshGatewayHostsAnalyzer } from './virtualservice/conflictingMeshGatewayHosts.ts';
import { destinationHostAnalyzer } from './virtualservice/destinationHosts.ts';
import { destinationRuleAnalyzer } from './virtualservice/destinationRules.ts';
import { gatewayAnalyzer } from './virtualservice/gateways.ts';
import { jwtClaimRouteAnalyzer } from './virtualservice/jwtClaimRoute.ts';
import { serviceEntryProtocolAddressesAnalyzer } from './serviceentry/protocolAddresses.ts';
import { conflictingServiceEntryProtocolAnalyzer } from './serviceentry/conflictingProtocols.ts';
import { webhookAnalyzer } from './webhook/webhook.ts';
import { telemetryProviderAnalyzer } from './telemetry/providers.ts';
import { telemetrySelectorAnalyzer } from './telemetry/selector.ts';
import { telemetryDefaultSelectorAnalyzer } from './telemetry/defaultSelector.ts';
import { telemetryLightstepAnalyzer } from './telemetry/lightstep.ts';
import { VALIDATION_ANALYZERS } from './schema/validation.ts';

/** Istio's All(): what `istioctl analyze` runs by default. */
export const ALL_ANALYZERS: readonly Analyzer[] = [
  k8sAnnotationsAnalyzer,
  blockedCidrsAnalyzer,
  authorizationPoliciesAnalyzer,
  conditionAnalyzer,
  multiServiceAnalyzer,
  applicationUIDAnalyzer,
  caCertificateAnalyzer,
  subsetSelectPodAnalyzer,
  deprecationAnalyzer,
  envoyPatchAnalyzer,
  externalControlPlaneAnalyzer,
  ingressGatewayPortAnalyzer,
  certificateAnalyzer,
  secretAnalyzer,
  conflictingGatewayAnalyzer,
  injectionAnalyzer,
  injectionImageAnalyzer,
  imageAutoAnalyzer,
  k8sGatewaySelectorAnalyzer,
  crdVersionAnalyzer,
  meshNetworksAnalyzer,
  multiClusterServiceAnalyzer,
  portNameAnalyzer,
  sidecarSelectorAnalyzer,
  conflictingMeshGatewayHostsAnalyzer,
  destinationHostAnalyzer,
  destinationRuleAnalyzer,
  gatewayAnalyzer,
  jwtClaimRouteAnalyzer,
  serviceEntryProtocolAddressesAnalyzer,
  conflictingServiceEntryProtocolAnalyzer,
  webhookAnalyzer,
  telemetryProviderAnalyzer,
  telemetrySelectorAnalyzer,
  telemetryDefaultSelectorAnalyzer,
  telemetryLightstepAnalyzer,
  ...VALIDATION_ANALYZERS,
];

/** Known to Istio but not run unless selected (annotations.AlphaAnalyzer is too noisy for the default set). */
export const OPTIONAL_ANALYZERS: readonly Analyzer[] = [alphaAnnotationsAnalyzer];

/** Istio's AllMultiCluster(). */
export const MULTICLUSTER_ANALYZERS: readonly Analyzer[] = [multiClusterServiceAnalyzer];

/** Istio's analyzer of that name (those of ALL_ANALYZERS and OPTIONAL_ANALYZERS); the workbench's own are in core/analyzerSets.ts. */
export function istioAnalyzerByName(name: string): Analyzer | undefined {
  return ALL_ANALYZERS.find((a) => a.metadata.name === name) ?? OPTIONAL_ANALYZERS.find((a) => a.metadata.name === name);
}
