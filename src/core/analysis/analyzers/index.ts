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
import type { Analyzer, AnalyzerGroup } from '../types.ts';
import { ingressGatewayPortAnalyzer } from './gateway/ingressGatewayPort.ts';
import { destinationHostAnalyzer } from './virtualservice/destinationHosts.ts';
import { gatewayAnalyzer } from './virtualservice/gateways.ts';
import { workloadsGroup } from './groups/workloads.ts';
import { routingGroup } from './groups/routing.ts';
import { gatewaysGroup } from './groups/gateways.ts';
import { injectionGroup } from './groups/injection.ts';
import { telemetryGroup } from './groups/telemetry.ts';

/** Istio's analyzers.All() order; analyzers not listed (schema.ValidationAnalyzer.*) follow. */
const ISTIO_ORDER = [
  'annotations.K8sAnalyzer',
  'auth.AuthorizationPoliciesAnalyzer',
  'authn.BlockedCIDRsAnalyzer',
  'conditions.ConditionAnalyzer',
  'deployment.MultiServiceAnalyzer',
  'applicationUID.Analyzer',
  'deprecation.DeprecationAnalyzer',
  'externalcontrolplane.ExternalControlPlaneAnalyzer',
  'gateway.IngressGatewayPortAnalyzer',
  'gateway.CertificateAnalyzer',
  'gateway.SecretAnalyzer',
  'gateway.ConflictingGatewayAnalyzer',
  'injection.Analyzer',
  'injection.ImageAnalyzer',
  'injection.ImageAutoAnalyzer',
  'k8sgateway.SelectorAnalyzer',
  'k8sgateway.CRDVersionAnalyzer',
  'meshnetworks.MeshNetworksAnalyzer',
  'services.MultiClusterServiceAnalyzer',
  'service.PortNameAnalyzer',
  'sidecar.SelectorAnalyzer',
  'virtualservice.ConflictingMeshGatewayHostsAnalyzer',
  'virtualservice.DestinationHostAnalyzer',
  'virtualservice.DestinationRuleAnalyzer',
  'virtualservice.GatewayAnalyzer',
  'virtualservice.JWTClaimRouteAnalyzer',
  'destinationrule.CaCertificateAnalyzer',
  'destinationrule.SubsetSelectPodAnalyzer',
  'serviceentry.Analyzer',
  'serviceentry.ConflictingServiceEntryProtocolAnalyzer',
  'webhook.Analyzer',
  'envoyfilter.EnvoyPatchAnalyzer',
  'telemetry.ProviderAnalyzer',
  'telemetry.SelectorAnalyzer',
  'telemetry.DefaultSelectorAnalyzer',
  'telemetry.LightstepAnalyzer',
];

const GROUPS: AnalyzerGroup[] = [
  { analyzers: [ingressGatewayPortAnalyzer, destinationHostAnalyzer, gatewayAnalyzer] },
  workloadsGroup,
  routingGroup,
  gatewaysGroup,
  injectionGroup,
  telemetryGroup,
];

function inIstioOrder(list: Analyzer[]): Analyzer[] {
  const rank = (a: Analyzer) => {
    const i = ISTIO_ORDER.indexOf(a.metadata.name);
    return i < 0 ? ISTIO_ORDER.length : i;
  };
  return [...list].sort((a, b) => rank(a) - rank(b) || (a.metadata.name < b.metadata.name ? -1 : 1));
}

// Istio's All() also holds the multi-cluster analyzers; on one cluster they report nothing.
export const ALL_ANALYZERS: readonly Analyzer[] = inIstioOrder([...new Set(GROUPS.flatMap((g) => [...g.analyzers, ...(g.multicluster ?? [])]))]);

/** Analyzers that exist in Istio but are not run by default (like annotations.AlphaAnalyzer). */
export const OPTIONAL_ANALYZERS: readonly Analyzer[] = GROUPS.flatMap((g) => g.optional ?? []);

/** Multi-cluster analyzers (Istio's AllMultiCluster()). */
export const MULTICLUSTER_ANALYZERS: readonly Analyzer[] = GROUPS.flatMap((g) => g.multicluster ?? []);

export function analyzerByName(name: string): Analyzer | undefined {
  return [...ALL_ANALYZERS, ...OPTIONAL_ANALYZERS, ...MULTICLUSTER_ANALYZERS].find((a) => a.metadata.name === name);
}

/** The analyzers selected by name (istioctl --analyzer); all when none match. */
export function selectAnalyzers(names: readonly string[]): Analyzer[] {
  if (names.length === 0) return [...ALL_ANALYZERS];
  const picked = names.map(analyzerByName).filter((a): a is Analyzer => a !== undefined);
  return picked.length > 0 ? picked : [...ALL_ANALYZERS];
}
