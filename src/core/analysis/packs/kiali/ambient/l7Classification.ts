// Kiali's ambient classification (business/checkers/ambient/l7_classification.go and the label
// tests of config/config.go), shared by the ambient checkers: which Istio configs need a
// waypoint (L7), whether they attach through targetRefs, and whether a namespace, a Service or
// a workload is Ambient and enrolled to use a waypoint.
import { arr, has, isObj, str, stringMap, type Obj, type StringMap } from '../../../../document/read.ts';
import {
  DATAPLANE_MODE_AMBIENT,
  DATAPLANE_MODE_LABEL,
  GATEWAY_CONTROLLER,
  GATEWAY_MANAGED_LABEL,
  GATEWAY_NAME_LABEL,
  MESH_GATEWAY_CONTROLLER,
  USE_WAYPOINT_LABEL,
} from '../../../../config/wellKnown.ts';

/** Kiali's config.WaypointNone: the value that opts out (of a waypoint, or of Ambient). */
export const NONE = 'none';

/** The spec of a resource body (an empty object when absent). */
export function specObj(body: Obj): Obj {
  return isObj(body.spec) ? body.spec : {};
}

/** Kiali's IsEnrolledForWaypoint: the resource's `istio.io/use-waypoint` wins (`none` or empty opts out), else the namespace's. */
export function isEnrolledForWaypoint(resourceLabels: StringMap | undefined, namespaceLabels: StringMap | undefined): boolean {
  for (const labels of [resourceLabels, namespaceLabels]) {
    if (labels && has(labels, USE_WAYPOINT_LABEL)) {
      const v = labels[USE_WAYPOINT_LABEL] as string;
      return v !== '' && v !== NONE;
    }
  }
  return false;
}

/** What Kiali's Namespace model carries that the ambient rules read. */
export interface AmbientNamespace {
  labels: StringMap;
  /** Kiali's Namespace.IsAmbient. */
  isAmbient: boolean;
  isControlPlane: boolean;
}

/**
 * IsDataplaneAmbientNamespace: the `istio.io/dataplane-mode` label decides when present (only
 * `ambient` is Ambient); without it a control-plane namespace is not, another one is when
 * Kiali's model says so.
 */
export function isDataplaneAmbientNamespace(ns: AmbientNamespace | undefined): boolean {
  if (!ns) return false;
  if (has(ns.labels, DATAPLANE_MODE_LABEL)) return ns.labels[DATAPLANE_MODE_LABEL] === DATAPLANE_MODE_AMBIENT;
  if (ns.isControlPlane) return false;
  return ns.isAmbient;
}

/** NamespaceAmbientStatus, the two fields the warnings read. */
export interface NamespaceAmbientStatus {
  isAmbient: boolean;
  /** The namespace has `istio.io/use-waypoint` (not `none`). */
  isEnrolled: boolean;
}

export function namespaceAmbientStatus(ns: AmbientNamespace): NamespaceAmbientStatus {
  return { isAmbient: isDataplaneAmbientNamespace(ns), isEnrolled: isEnrolledForWaypoint(undefined, ns.labels) };
}

/** NeedsWaypointWarning (for a config that requires a waypoint): Ambient and not enrolled. */
export function needsWaypointWarning(status: NamespaceAmbientStatus): boolean {
  return status.isAmbient && !status.isEnrolled;
}

const L7_CONDITION_PREFIXES = ['request.headers', 'request.auth.claims', 'request.auth.principal', 'request.auth.audiences', 'request.auth.presenter'];

/** IsL7Condition: a `when` key only a waypoint can evaluate (destination.port and the like are L4). */
export function isL7Condition(key: string): boolean {
  return L7_CONDITION_PREFIXES.some((p) => key.startsWith(p));
}

const nonEmpty = (o: Obj, ...fields: string[]) => fields.some((f) => arr(o[f]).length > 0);

/**
 * IsL7AuthorizationPolicy: a rule with an L7 `when` key, an operation on methods, paths or
 * hosts (or their negations), or a source with request principals. A policy without rules is L4.
 */
export function isL7AuthorizationPolicy(spec: Obj): boolean {
  for (const rule of arr(spec.rules)) {
    if (!isObj(rule)) continue;
    for (const cond of arr(rule.when)) if (isObj(cond) && isL7Condition(str(cond.key))) return true;
    for (const to of arr(rule.to)) {
      if (!isObj(to) || !isObj(to.operation)) continue;
      if (nonEmpty(to.operation, 'methods', 'notMethods', 'paths', 'notPaths', 'hosts', 'notHosts')) return true;
    }
    for (const from of arr(rule.from)) if (isObj(from) && isObj(from.source) && nonEmpty(from.source, 'requestPrincipals', 'notRequestPrincipals')) return true;
  }
  return false;
}

/** trafficPolicyHasL7: consistent hashing on a header or cookie, HTTP connection-pool settings, or outlier detection. */
function trafficPolicyHasL7(tp: Obj): boolean {
  const lb = isObj(tp.loadBalancer) ? tp.loadBalancer : {};
  const hash = isObj(lb.consistentHash) ? lb.consistentHash : undefined;
  if (hash && (str(hash.httpHeaderName) !== '' || isObj(hash.httpCookie))) return true;
  if (isObj(tp.connectionPool) && isObj(tp.connectionPool.http)) return true;
  return isObj(tp.outlierDetection);
}

/** IsL7DestinationRule: the top-level traffic policy or a subset's uses an L7 feature. */
export function isL7DestinationRule(spec: Obj): boolean {
  if (isObj(spec.trafficPolicy) && trafficPolicyHasL7(spec.trafficPolicy)) return true;
  return arr(spec.subsets).some((s) => isObj(s) && isObj(s.trafficPolicy) && trafficPolicyHasL7(s.trafficPolicy));
}

/** AppliesToMeshTraffic: no gateways, or the reserved `mesh` among them. */
export function appliesToMeshTraffic(gateways: readonly string[]): boolean {
  return gateways.length === 0 || gateways.includes('mesh');
}

/** ClassifyVirtualService's RequiresWaypoint: HTTP or TLS routes that apply to mesh traffic. */
export function virtualServiceRequiresWaypoint(spec: Obj): boolean {
  const httpOrTls = arr(spec.http).length > 0 || arr(spec.tls).length > 0;
  return httpOrTls && appliesToMeshTraffic(arr(spec.gateways).map(str));
}

/** IsL7Telemetry: tracing, access logging, or metrics with overrides. */
export function isL7Telemetry(spec: Obj): boolean {
  if (arr(spec.tracing).length > 0 || arr(spec.accessLogging).length > 0) return true;
  return arr(spec.metrics).some((m) => isObj(m) && arr(m.overrides).length > 0);
}

/** <Kind>HasTargetRefs: the policy attaches through targetRef or targetRefs (waypoints ignore selectors). */
export function hasTargetRefs(spec: Obj): boolean {
  return isObj(spec.targetRef) || arr(spec.targetRefs).length > 0;
}

export interface PolicyTargetRef {
  group: string;
  kind: string;
  name: string;
}

/** targetRef, then targetRefs, as Kiali walks them. */
export function targetRefsOf(spec: Obj): PolicyTargetRef[] {
  const refs = [...(isObj(spec.targetRef) ? [spec.targetRef] : []), ...arr(spec.targetRefs).filter(isObj)];
  return refs.map((r) => ({ group: str(r.group), kind: str(r.kind), name: str(r.name) }));
}

/** A targetRef to a core Service (kind Service, group empty or `core`). */
export function isServiceTarget(ref: PolicyTargetRef): boolean {
  return ref.kind === 'Service' && (ref.group === '' || ref.group === 'core');
}

/** The selector's matchLabels (an empty map when there is none). */
export function selectorMatchLabels(spec: Obj): StringMap {
  return isObj(spec.selector) ? stringMap(spec.selector.matchLabels) : {};
}

/** config.IsWaypoint: Istio's waypoint label, or a Gateway API gateway name containing "waypoint". */
export function isWaypointLabels(labels: StringMap): boolean {
  if (labels[GATEWAY_MANAGED_LABEL] === MESH_GATEWAY_CONTROLLER) return true;
  if (has(labels, GATEWAY_NAME_LABEL)) return (labels[GATEWAY_NAME_LABEL] as string).toLowerCase().includes('waypoint');
  return false;
}

/** config.IsGateway: the ways Istio labels ingress and egress gateways (waypoints excluded). */
export function isGatewayLabels(labels: StringMap, templateAnnotations: StringMap): boolean {
  const component = labels['operator.istio.io/component'];
  if (component === 'IngressGateways' || component === 'EgressGateways') return true;
  if (labels.istio === 'ingressgateway' || labels.istio === 'egressgateway') return true;
  if (templateAnnotations['inject.istio.io/templates'] === 'gateway') return true;
  if (has(labels, 'istio.io/gateway-name')) return true;
  return labels[GATEWAY_MANAGED_LABEL] === GATEWAY_CONTROLLER;
}
