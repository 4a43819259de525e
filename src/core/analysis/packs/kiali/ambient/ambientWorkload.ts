// ambient.AmbientWorkloadChecker (Kiali business/checkers/ambient/ambient_workload_checker.go),
// run on every workload as part of Kiali's WorkloadChecker. On the `workload` pseudo-path, each
// making the workload invalid:
// - KIA1311: it is labelled for Ambient and for sidecar injection (labels of the workload or
//   its namespace, see hasAmbientLabel / hasSidecarLabel);
// - KIA1312: it asks for a waypoint (`istio.io/use-waypoint`, its own else its namespace's)
//   but is not Ambient; KIA1313: it asks for one and no waypoint captures it (both only with pods);
// - KIA1314: sidecar labels and a pod redirected by istio-cni;
// - KIA1315: Ambient labels and a pod with a sidecar;
// - KIA1316: it has a sidecar and its namespace is Ambient (only with pods);
// - KIA1317: an Ambient workload (not a waypoint, not a gateway, not opted out) without a
//   waypoint that an L7 AuthorizationPolicy of its namespace applies to (by selector, by a
//   targetRef to a Service selecting it, or namespace-wide).
// Kiali's workload flags (IsAmbient, IstioSidecar, WaypointWorkloads, pods) come from
// workloadModel.ts; its namespaces from KialiContext.namespaceInfo.
import { KINDS } from '../../../../document/kinds.ts';
import { has, isObj, str, type StringMap } from '../../../../document/read.ts';
import { selectorMatches } from '../../../../config/labels.ts';
import {
  AMBIENT_REDIRECTION_ANNOTATION,
  AMBIENT_REDIRECTION_ENABLED,
  DATAPLANE_MODE_AMBIENT,
  DATAPLANE_MODE_LABEL,
  INJECTION_ENABLED,
  INJECTION_LABEL,
  REVISION_LABEL,
  SIDECAR_INJECT,
  USE_WAYPOINT_LABEL,
} from '../../../../config/wellKnown.ts';
import type { KialiContext, KialiWorkload } from '../context.ts';
import { workloadModel, type KialiWorkloadModel } from '../workloadModel.ts';
import { buildCheck } from '../messages.ts';
import type { KialiCheck, KialiChecker, KialiValidation } from '../types.ts';
import {
  NONE,
  hasTargetRefs,
  isGatewayLabels,
  isL7AuthorizationPolicy,
  isServiceTarget,
  isWaypointLabels,
  selectorMatchLabels,
  specObj,
  targetRefsOf,
} from './l7Classification.ts';

/** hasAmbientLabel: the workload's `istio.io/dataplane-mode=ambient`, or its namespace's unless the workload says `none`. */
function hasAmbientLabel(ctx: KialiContext, w: KialiWorkload): boolean {
  const ns = ctx.namespaceInfo(w.namespace);
  if (!ns) return false;
  const own = w.labels[DATAPLANE_MODE_LABEL];
  return own === DATAPLANE_MODE_AMBIENT || (ns.labels[DATAPLANE_MODE_LABEL] === DATAPLANE_MODE_AMBIENT && own !== NONE);
}

/**
 * hasSidecarLabel: enabled by the namespace (`istio-injection=enabled` or any `istio.io/rev`) or
 * by the workload label `sidecar.istio.io/inject=enabled`, and disabled by neither
 * (`istio-injection=disabled`, `sidecar.istio.io/inject=none`). Kiali compares these exact values.
 */
function hasSidecarLabel(ctx: KialiContext, w: KialiWorkload): boolean {
  const ns = ctx.namespaceInfo(w.namespace);
  if (!ns) return false;
  const enabled = ns.labels[INJECTION_LABEL] === INJECTION_ENABLED || (ns.labels[REVISION_LABEL] ?? '') !== '' || w.labels[SIDECAR_INJECT] === 'enabled';
  const disabled = ns.labels[INJECTION_LABEL] === 'disabled' || w.labels[SIDECAR_INJECT] === NONE;
  return enabled && !disabled;
}

/** hasWaypointLabel: not opted out of Ambient, and `istio.io/use-waypoint` (not empty, not `none`) on the workload, else on its namespace. */
function hasWaypointLabel(ctx: KialiContext, w: KialiWorkload): boolean {
  if (w.labels[DATAPLANE_MODE_LABEL] === NONE) return false;
  const wants = (labels: StringMap) => {
    const v = labels[USE_WAYPOINT_LABEL] as string;
    return v !== '' && v !== NONE;
  };
  if (has(w.labels, USE_WAYPOINT_LABEL)) return wants(w.labels);
  const ns = ctx.namespaceInfo(w.namespace);
  return ns !== undefined && has(ns.labels, USE_WAYPOINT_LABEL) && wants(ns.labels);
}

/** workloadSelectedByService: a Service of the workload's namespace with that name and a selector matching it. */
function selectedByService(ctx: KialiContext, w: KialiWorkload, name: string): boolean {
  if (name === '') return false;
  return ctx.services.some((s) => {
    if (s.namespace !== w.namespace || s.name !== name) return false;
    const spec = specObj(s.body);
    const selector: Record<string, string> = {};
    if (isObj(spec.selector)) for (const [k, v] of Object.entries(spec.selector)) selector[k] = str(v);
    return Object.keys(selector).length > 0 && selectorMatches(selector, w.labels);
  });
}

/** l7AuthPolicyAppliesToWorkload: by targetRefs (Service refs only), else by selector, else namespace-wide. */
function policyApplies(ctx: KialiContext, w: KialiWorkload, spec: ReturnType<typeof specObj>): boolean {
  if (hasTargetRefs(spec)) return targetRefsOf(spec).some((ref) => isServiceTarget(ref) && selectedByService(ctx, w, ref.name));
  const match = selectorMatchLabels(spec);
  if (Object.keys(match).length > 0) return selectorMatches(match, w.labels);
  return true;
}

/** What the checks read of Kiali's workload model, each fact computed only when a check reaches it. */
interface LazyModel {
  model(): KialiWorkloadModel;
  isAmbient(): boolean;
  hasWaypoint(): boolean;
}

function hasAuthPolicyAndNoWaypoint(ctx: KialiContext, w: KialiWorkload, m: LazyModel, ambientLabel: boolean): boolean {
  if (isWaypointLabels(w.labels)) return false;
  if (w.labels[DATAPLANE_MODE_LABEL] === NONE) return false;
  if (!ambientLabel && !m.isAmbient()) return false;
  if (isGatewayLabels(w.labels, m.model().templateAnnotations)) return false;
  if (m.hasWaypoint()) return false;
  return ctx.list(KINDS.AuthorizationPolicy).some((ap) => {
    if (ap.namespace !== w.namespace) return false;
    const spec = specObj(ap.body);
    return isL7AuthorizationPolicy(spec) && policyApplies(ctx, w, spec);
  });
}

/** No pod of the mesh (written or derived) carries istio-cni's redirection mark. */
function noPodRedirected(ctx: KialiContext): boolean {
  return ctx.once(
    'kiali:noPodRedirected',
    () => !ctx.view.list(KINDS.Pod).some((p) => p.annotations[AMBIENT_REDIRECTION_ANNOTATION] === AMBIENT_REDIRECTION_ENABLED),
  );
}

/** The checks of one workload and its `valid` flag (every check makes it invalid). */
export function ambientWorkloadChecks(ctx: KialiContext, w: KialiWorkload): { checks: KialiCheck[]; valid: boolean } {
  // With no redirected pod and no flags given, the model is known not Ambient and without a
  // waypoint (looked up only for redirected pods). Then, without an Ambient or waypoint label
  // and outside an Ambient namespace, no check can hold: the common case of a sidecar mesh.
  const plain = noPodRedirected(ctx) && !ctx.givesWorkloadFlags(w);
  const ambientLabel = hasAmbientLabel(ctx, w);
  const waypointLabel = hasWaypointLabel(ctx, w);
  if (plain && !ambientLabel && !waypointLabel && ctx.namespaceInfo(w.namespace)?.isAmbient !== true) return { checks: [], valid: true };
  let built: KialiWorkloadModel | undefined;
  const model = () => (built ??= workloadModel(ctx, w));
  // Otherwise the model is built only for the checks that read it.
  const m: LazyModel = {
    model,
    isAmbient: () => !plain && model().isAmbient,
    hasWaypoint: () => !plain && model().waypointWorkloads.length > 0,
  };
  const sidecarLabel = hasSidecarLabel(ctx, w);
  const ids: string[] = [];
  if (ambientLabel && sidecarLabel) ids.push('workload.ambient.sidecarandlabel');
  if (waypointLabel && model().pods.length > 0 && !m.isAmbient()) ids.push('workload.ambient.waypointandnotambient');
  if (waypointLabel && model().pods.length > 0 && !m.hasWaypoint()) ids.push('workload.ambient.waypointnotfound');
  if (sidecarLabel && !noPodRedirected(ctx) && model().pods.some((p) => p.ambientEnabled)) ids.push('workload.ambient.podsidecarlabelandambientredirection');
  if (ambientLabel && model().pods.some((p) => p.hasIstioSidecar)) ids.push('workload.ambient.podsidecarinjectandambientlabel');
  if (ctx.namespaceInfo(w.namespace)?.isAmbient === true && model().pods.length > 0 && model().istioSidecar)
    ids.push('workload.ambient.sidecarinambientnamespace');
  if (hasAuthPolicyAndNoWaypoint(ctx, w, m, ambientLabel)) ids.push('workload.ambient.authpolicybutnowaypoint');
  return { checks: ids.map((id) => buildCheck(id, 'workload')), valid: ids.length === 0 };
}

export const ambientWorkloadChecker: KialiChecker = {
  name: 'ambient.AmbientWorkloadChecker',
  kinds: [KINDS.Deployment, KINDS.StatefulSet, KINDS.DaemonSet, KINDS.ReplicaSet, KINDS.Job, KINDS.CronJob, KINDS.Pod],
  codes: ['KIA1311', 'KIA1312', 'KIA1313', 'KIA1314', 'KIA1315', 'KIA1316', 'KIA1317'],
  run(ctx: KialiContext, o?: { findingsOnly?: boolean }) {
    const out: KialiValidation[] = [];
    for (const [namespace, workloads] of ctx.workloadsPerNamespace)
      for (const w of workloads) {
        const { checks, valid } = ambientWorkloadChecks(ctx, w);
        if (o?.findingsOnly === true && checks.length === 0) continue;
        out.push({ object: { group: '', kind: 'Workload', namespace, name: w.name }, resource: w.resource, checks, valid });
      }
    return out;
  },
};
