// Istio's resource annotation catalog (the facts of istio.io/api's annotation package):
// each annotation's name, its feature status, whether it is deprecated or hidden, and the
// resource types it may be set on. Descriptions are deliberately left out. The annotation
// analyzers and their quick fixes read it.
//
// Recorded from istio.io/api's generated catalog (annotation/annotations.yaml) as of July
// 2026, the closest to the istio.io/api version Istio's analyzer snapshot (86c9f01) is built
// with: `sidecar.istio.io/enableCoreDump` is gone (istioctl reports it as unknown, IST0108),
// and the stats, canary-weight and reroute-virtual-interfaces annotations are known.
import { keySegment } from './labels.ts';

export type FeatureStatus = 'Alpha' | 'Beta' | 'Stable';

/** Resource types an annotation applies to; `Any` means every kind. */
export type AnnotationResourceType =
  | 'Any'
  | 'AuthorizationPolicy'
  | 'Gateway'
  | 'GatewayClass'
  | 'Ingress'
  | 'Namespace'
  | 'Pod'
  | 'Service'
  | 'ServiceEntry'
  | 'WorkloadEntry';

export interface AnnotationDef {
  name: string;
  status: FeatureStatus;
  deprecated: boolean;
  hidden: boolean;
  resources: readonly AnnotationResourceType[];
}

function def(name: string, status: FeatureStatus, resources: AnnotationResourceType[], flags: { deprecated?: boolean; hidden?: boolean } = {}): AnnotationDef {
  return { name, status, deprecated: flags.deprecated ?? false, hidden: flags.hidden ?? false, resources };
}

const HIDDEN = { hidden: true } as const;
const DEPRECATED = { deprecated: true } as const;

/** In the catalog's order (alphabetical by Go identifier, as istio.io/api generates it). */
export const ANNOTATIONS: readonly AnnotationDef[] = [
  def('alpha.istio.io/canonical-serviceaccounts', 'Alpha', ['Service'], { hidden: true, deprecated: true }),
  def('alpha.istio.io/kubernetes-serviceaccounts', 'Alpha', ['Service'], { hidden: true, deprecated: true }),
  def('ambient.istio.io/bypass-inbound-capture', 'Alpha', ['Pod']),
  def('ambient.istio.io/dns-capture', 'Alpha', ['Pod'], HIDDEN),
  def('ambient.istio.io/redirection', 'Beta', ['Pod']),
  def('ambient.istio.io/waypoint-inbound-binding', 'Alpha', ['GatewayClass', 'Gateway'], HIDDEN),
  def('galley.istio.io/analyze-suppress', 'Alpha', ['Any']),
  def('gateway.istio.io/controller-version', 'Alpha', ['Any'], HIDDEN),
  def('gateway.istio.io/name-override', 'Alpha', ['Gateway'], HIDDEN),
  def('gateway.istio.io/service-account', 'Alpha', ['Gateway'], HIDDEN),
  def('inject.istio.io/templates', 'Alpha', ['Pod']),
  def('istio.io/autoRegistrationGroup', 'Alpha', ['WorkloadEntry'], HIDDEN),
  def('istio.io/connectedAt', 'Alpha', ['WorkloadEntry'], HIDDEN),
  def('istio.io/disconnectedAt', 'Alpha', ['WorkloadEntry'], HIDDEN),
  def('istio.io/dry-run', 'Alpha', ['AuthorizationPolicy']),
  def('istio.io/reroute-virtual-interfaces', 'Alpha', ['Pod']),
  def('istio.io/rev', 'Alpha', ['Pod']),
  def('istio.io/use-waypoint-canary-weight', 'Alpha', ['Service', 'ServiceEntry', 'Namespace']),
  def('istio.io/workloadController', 'Alpha', ['WorkloadEntry'], HIDDEN),
  def('kubernetes.io/ingress.class', 'Stable', ['Ingress']),
  def('networking.istio.io/exportTo', 'Alpha', ['Service']),
  def('networking.istio.io/service-type', 'Alpha', ['Gateway'], HIDDEN),
  def('networking.istio.io/traffic-distribution', 'Alpha', ['Namespace', 'Service', 'ServiceEntry']),
  def('prometheus.istio.io/merge-metrics', 'Alpha', ['Pod']),
  def('proxy.istio.io/config', 'Beta', ['Pod']),
  def('proxy.istio.io/overrides', 'Alpha', ['Pod'], HIDDEN),
  def('readiness.status.sidecar.istio.io/applicationPorts', 'Alpha', ['Pod']),
  def('readiness.status.sidecar.istio.io/failureThreshold', 'Alpha', ['Pod']),
  def('readiness.status.sidecar.istio.io/initialDelaySeconds', 'Alpha', ['Pod']),
  def('readiness.status.sidecar.istio.io/periodSeconds', 'Alpha', ['Pod']),
  def('sidecar.istio.io/agentLogLevel', 'Alpha', ['Pod']),
  def('sidecar.istio.io/bootstrapOverride', 'Alpha', ['Pod']),
  def('sidecar.istio.io/componentLogLevel', 'Alpha', ['Pod']),
  def('sidecar.istio.io/discoveryAddress', 'Alpha', ['Pod'], DEPRECATED),
  def('sidecar.istio.io/extraStatTags', 'Alpha', ['Pod'], DEPRECATED),
  def('sidecar.istio.io/inject', 'Beta', ['Pod'], DEPRECATED),
  def('sidecar.istio.io/interceptionMode', 'Alpha', ['Pod']),
  def('sidecar.istio.io/logLevel', 'Alpha', ['Pod']),
  def('sidecar.istio.io/nativeSidecar', 'Alpha', ['Pod']),
  def('sidecar.istio.io/proxyCPU', 'Alpha', ['Pod']),
  def('sidecar.istio.io/proxyCPULimit', 'Alpha', ['Pod']),
  def('sidecar.istio.io/proxyImage', 'Alpha', ['Pod']),
  def('sidecar.istio.io/proxyImageType', 'Alpha', ['Pod']),
  def('sidecar.istio.io/proxyMemory', 'Alpha', ['Pod']),
  def('sidecar.istio.io/proxyMemoryLimit', 'Alpha', ['Pod']),
  def('sidecar.istio.io/rewriteAppHTTPProbers', 'Alpha', ['Pod']),
  def('sidecar.istio.io/statsCompression', 'Alpha', ['Pod'], DEPRECATED),
  def('sidecar.istio.io/statsEvictionInterval', 'Alpha', ['Pod']),
  def('sidecar.istio.io/statsFlushInterval', 'Alpha', ['Pod']),
  def('sidecar.istio.io/statsHistogramBins', 'Alpha', ['Pod']),
  def('sidecar.istio.io/statsHistogramBuckets', 'Alpha', ['Pod']),
  def('sidecar.istio.io/statsInclusionPrefixes', 'Alpha', ['Pod'], DEPRECATED),
  def('sidecar.istio.io/statsInclusionRegexps', 'Alpha', ['Pod'], DEPRECATED),
  def('sidecar.istio.io/statsInclusionSuffixes', 'Alpha', ['Pod'], DEPRECATED),
  def('sidecar.istio.io/status', 'Alpha', ['Pod']),
  def('sidecar.istio.io/userVolume', 'Alpha', ['Pod']),
  def('sidecar.istio.io/userVolumeMount', 'Alpha', ['Pod']),
  def('status.sidecar.istio.io/port', 'Alpha', ['Pod']),
  def('topology.istio.io/controlPlaneClusters', 'Alpha', ['Namespace']),
  def('traffic.istio.io/nodeSelector', 'Stable', ['Service']),
  def('traffic.sidecar.istio.io/excludeInboundPorts', 'Alpha', ['Pod']),
  def('traffic.sidecar.istio.io/excludeInterfaces', 'Alpha', ['Pod']),
  def('traffic.sidecar.istio.io/excludeOutboundIPRanges', 'Alpha', ['Pod']),
  def('traffic.sidecar.istio.io/excludeOutboundPorts', 'Alpha', ['Pod']),
  def('traffic.sidecar.istio.io/includeInboundPorts', 'Alpha', ['Pod']),
  def('traffic.sidecar.istio.io/includeOutboundIPRanges', 'Alpha', ['Pod']),
  def('traffic.sidecar.istio.io/includeOutboundPorts', 'Alpha', ['Pod']),
  def('traffic.sidecar.istio.io/kubevirtInterfaces', 'Alpha', ['Pod'], DEPRECATED),
];

/**
 * Annotations set by Istio itself (the injector, the gateway controller), never by users:
 * both annotation analyzers skip them.
 */
export const SET_BY_ISTIO: ReadonlySet<string> = new Set(['sidecar.istio.io/status', 'gateway.istio.io/controller-version', 'istio.io/rev']);

const byName = new Map<string, AnnotationDef>(ANNOTATIONS.map((a) => [a.name, a]));

export function lookupAnnotation(name: string): AnnotationDef | undefined {
  return byName.get(name);
}

/**
 * True for annotations in Istio's namespace: a prefix (before the first `/`) ending in
 * `istio.io`, plus the one Kubernetes annotation Istio documents (kubernetes.io/ingress.class).
 */
export function isIstioAnnotation(key: string): boolean {
  if (key === 'kubernetes.io/ingress.class') return true;
  const slash = key.indexOf('/');
  const prefix = slash < 0 ? key : key.slice(0, slash);
  return prefix.endsWith('istio.io');
}

/** Field path of an annotation in a resource (its value line is the line istioctl prints). */
export function annotationFieldPath(key: string): string {
  return `metadata.annotations${keySegment(key)}`;
}
