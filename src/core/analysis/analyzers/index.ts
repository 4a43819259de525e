// Every analyzer, in the order of Istio's analyzers.All(). One analyzer per file.
//
// Istio's order (for analyzers added later): annotations.K8sAnalyzer,
// auth.AuthorizationPoliciesAnalyzer, deployment.MultiServiceAnalyzer,
// applicationUID.Analyzer, deprecation.DeprecationAnalyzer,
// externalcontrolplane.ExternalControlPlaneAnalyzer, gateway.IngressGatewayPortAnalyzer,
// gateway.CertificateAnalyzer, gateway.SecretAnalyzer, gateway.ConflictingGatewayAnalyzer,
// injection.Analyzer, injection.ImageAnalyzer, injection.ImageAutoAnalyzer,
// meshnetworks.MeshNetworksAnalyzer, service.PortNameAnalyzer, sidecar.DefaultSelectorAnalyzer,
// sidecar.SelectorAnalyzer, virtualservice.ConflictingMeshGatewayHostsAnalyzer,
// virtualservice.DestinationHostAnalyzer, virtualservice.DestinationRuleAnalyzer,
// virtualservice.GatewayAnalyzer, virtualservice.JWTClaimRouteAnalyzer,
// virtualservice.RegexAnalyzer, destinationrule.CaCertificateAnalyzer, serviceentry.Analyzer,
// webhook.Analyzer, envoyfilter.EnvoyPatchAnalyzer, telemetry.ProviderAnalyzer,
// telemetry.SelectorAnalyzer, telemetry.DefaultSelectorAnalyzer, telemetry.LightstepAnalyzer,
// then the schema.ValidationAnalyzer.* family.
import type { Analyzer } from '../types.ts';
import { ingressGatewayPortAnalyzer } from './gateway/ingressGatewayPort.ts';
import { destinationHostAnalyzer } from './virtualservice/destinationHosts.ts';
import { gatewayAnalyzer } from './virtualservice/gateways.ts';

export const ALL_ANALYZERS: readonly Analyzer[] = [
  ingressGatewayPortAnalyzer,
  destinationHostAnalyzer,
  gatewayAnalyzer,
];

/** Analyzers that exist in Istio but are not run by default (like annotations.AlphaAnalyzer). */
export const OPTIONAL_ANALYZERS: readonly Analyzer[] = [];

/** Multi-cluster analyzers (Istio's AllMultiCluster()). */
export const MULTICLUSTER_ANALYZERS: readonly Analyzer[] = [];

export function analyzerByName(name: string): Analyzer | undefined {
  return [...ALL_ANALYZERS, ...OPTIONAL_ANALYZERS, ...MULTICLUSTER_ANALYZERS].find((a) => a.metadata.name === name);
}

/** The analyzers selected by name (istioctl --analyzer); all when none match. */
export function selectAnalyzers(names: readonly string[]): Analyzer[] {
  if (names.length === 0) return [...ALL_ANALYZERS];
  const picked = names.map(analyzerByName).filter((a): a is Analyzer => a !== undefined);
  return picked.length > 0 ? picked : [...ALL_ANALYZERS];
}
