// Which policies attach to a proxy (pilot/pkg/model/policyattachment.go and
// authorization.go): the WorkloadPolicyMatcher istiod builds for a proxy, and the listing of
// AuthorizationPolicies (root namespace first, then the workload's namespace, then the
// namespace of the service being built for, oldest first) grouped by action.
import { GATEWAY_NAME_LABEL } from '../../config/wellKnown.ts';

export interface PolicyTargetRef {
  group: string;
  kind: string;
  name: string;
  namespace: string;
}

/** What ShouldAttachPolicy reads of a policy: selector, targetRef and targetRefs. */
export interface TargetablePolicy {
  /** `selector.matchLabels`; undefined when the policy has no selector. */
  selector: Readonly<Record<string, string>> | undefined;
  targetRef: PolicyTargetRef | undefined;
  targetRefs: readonly PolicyTargetRef[];
}

/** A service a waypoint builds config for (WithService). */
export interface PolicyService {
  /** The Service or ServiceEntry name (`Attributes.ObjectName`, else `Attributes.Name`). */
  name: string;
  namespace: string;
  registry: 'Kubernetes' | 'External';
}

/** model.WorkloadPolicyMatcher */
export interface WorkloadPolicyMatcher {
  /** The proxy's config namespace. */
  workloadNamespace: string;
  workloadLabels: Readonly<Record<string, string>>;
  isWaypoint: boolean;
  /** At most one, for per-service waypoint chains. */
  services: readonly PolicyService[];
  /** Set by the authz builder (mesh rootNamespace); empty for the raw matcher. */
  rootNamespace: string;
}

export interface SelectionFlags {
  /** ENABLE_SELECTOR_BASED_K8S_GATEWAY_POLICY (default true). */
  enableSelectorBasedK8sGatewayPolicy?: boolean;
}

/** The proxy fields PolicyMatcherForProxy reads. */
export interface PolicyProxy {
  /** Config namespace (the pod's namespace). */
  namespace: string;
  labels: Readonly<Record<string, string>>;
  type?: 'sidecar' | 'router' | 'waypoint';
}

/** model.PolicyMatcherForProxy, optionally WithService and WithRootNamespace. */
export function policyMatcherForProxy(proxy: PolicyProxy, opts: { service?: PolicyService; rootNamespace?: string } = {}): WorkloadPolicyMatcher {
  return {
    workloadNamespace: proxy.namespace,
    workloadLabels: proxy.labels,
    isWaypoint: proxy.type === 'waypoint',
    services: opts.service ? [opts.service] : [],
    rootNamespace: opts.rootNamespace ?? '',
  };
}

/** labels.Instance.SubsetOf */
export function labelsSubsetOf(i: Readonly<Record<string, string>>, that: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(i);
  if (keys.length === 0) return true;
  const thatKeys = Object.keys(that);
  if (thatKeys.length === 0 || thatKeys.length < keys.length) return false;
  for (const k of keys) {
    if (!Object.hasOwn(that, k) || that[k] !== i[k]) return false;
  }
  return true;
}

function canonicalGroup(g: string): string {
  return g !== '' ? g : 'core';
}

const GVK_SERVICE = { group: 'core', kind: 'Service' };
const GVK_SERVICE_ENTRY = { group: 'networking.istio.io', kind: 'ServiceEntry' };
const GVK_GATEWAY = { group: 'gateway.networking.k8s.io', kind: 'Gateway' };
const GVK_GATEWAY_CLASS = { group: 'gateway.networking.k8s.io', kind: 'GatewayClass' };
const WAYPOINT_GATEWAY_CLASS = 'istio-waypoint';

function matchesGroupKind(ref: PolicyTargetRef, gk: { group: string; kind: string }): boolean {
  return canonicalGroup(ref.group) === gk.group && ref.kind === gk.kind;
}

/** GetTargetRefs: targetRefs, else the legacy targetRef. */
export function targetRefsOf(p: TargetablePolicy): readonly PolicyTargetRef[] {
  if (p.targetRefs.length === 0 && p.targetRef !== undefined) return [p.targetRef];
  return p.targetRefs;
}

function isSelected(m: WorkloadPolicyMatcher, p: TargetablePolicy): boolean {
  return p.selector === undefined || labelsSubsetOf(p.selector, m.workloadLabels);
}

/**
 * ShouldAttachPolicy. A workload that is not a Gateway API gateway (no
 * `gateway.networking.k8s.io/gateway-name` label) uses the selector and ignores any policy
 * with targetRefs. A Gateway API gateway or waypoint uses targetRefs (Gateway by name in the
 * same namespace; for waypoints also the Service/ServiceEntry being built for, and the
 * `istio-waypoint` GatewayClass from the root namespace); without targetRefs, a gateway
 * falls back to the selector when ENABLE_SELECTOR_BASED_K8S_GATEWAY_POLICY is on, a
 * waypoint never does.
 */
export function shouldAttachPolicy(m: WorkloadPolicyMatcher, policyNamespace: string, policy: TargetablePolicy, flags: SelectionFlags = {}): boolean {
  const gatewayName = Object.hasOwn(m.workloadLabels, GATEWAY_NAME_LABEL) ? m.workloadLabels[GATEWAY_NAME_LABEL] : undefined;
  const refs = targetRefsOf(policy);
  if (gatewayName === undefined) {
    if (refs.length > 0) return false;
    return isSelected(m, policy);
  }
  if (refs.length === 0) {
    if (m.isWaypoint || flags.enableSelectorBasedK8sGatewayPolicy === false) return false;
    return isSelected(m, policy);
  }
  for (const ref of refs) {
    const target = ref.name;
    if (m.isWaypoint && matchesGroupKind(ref, GVK_SERVICE)) {
      if (m.services.some((s) => target === s.name && policyNamespace === s.namespace && s.registry === 'Kubernetes')) return true;
    }
    if (m.isWaypoint && matchesGroupKind(ref, GVK_SERVICE_ENTRY)) {
      if (m.services.some((s) => target === s.name && policyNamespace === s.namespace && s.registry === 'External')) return true;
    }
    if (policyNamespace === m.rootNamespace && m.isWaypoint && matchesGroupKind(ref, GVK_GATEWAY_CLASS) && ref.name === WAYPOINT_GATEWAY_CLASS) return true;
    if (m.workloadNamespace !== policyNamespace) continue;
    if (!(ref.namespace === '' || ref.namespace === m.workloadNamespace)) continue;
    if (matchesGroupKind(ref, GVK_GATEWAY) && target === gatewayName) return true;
  }
  return false;
}

/** configCompareByCreationTime: creation time, then name, then namespace. */
export function compareByCreationTime(
  a: { creationTimestamp?: string; name: string; namespace: string },
  b: { creationTimestamp?: string; name: string; namespace: string },
): number {
  const ta = timeOf(a.creationTimestamp);
  const tb = timeOf(b.creationTimestamp);
  if (ta !== tb) return ta < tb ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  if (a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
  return 0;
}

function timeOf(t: string | undefined): number {
  if (!t) return Number.NEGATIVE_INFINITY;
  const v = Date.parse(t);
  return Number.isNaN(v) ? Number.NEGATIVE_INFINITY : v;
}

/** slices.FilterDuplicates */
export function uniqueInOrder(list: readonly string[]): string[] {
  return [...new Set(list)];
}
