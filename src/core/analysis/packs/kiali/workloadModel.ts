// Kiali's workload model (models.Workload, as business/workloads.go fills it for validations)
// for one Kiali workload: its pods, whether it is Ambient (IsAmbient), whether it has a sidecar
// (IstioSidecar) and the waypoints that capture it (WaypointWorkloads). Kiali reads these off
// the live cluster; here they come from the pods of the mesh model (a pod of the files as
// written; the pods derived from controllers carry the marks the injector and istio-cni would
// set, see config/derivedWorkloads.ts) and from the waypoints istiod recognizes
// (config/waypoints.ts). Each flag can be given instead (KialiContextOverrides.workloads).
import { has, isObj, str, type StringMap } from '../../../document/read.ts';
import type { Resource } from '../../../document/types.ts';
import { podSpec } from '../../../config/api/kube.ts';
import { selectorMatches } from '../../../config/labels.ts';
import { podsSelectedBy } from '../../../config/workloads.ts';
import { recognizeWaypoints, USE_WAYPOINT_NAMESPACE_LABEL, WAYPOINT_FOR_LABEL, type Waypoint } from '../../../config/waypoints.ts';
import {
  AMBIENT_REDIRECTION_ANNOTATION,
  AMBIENT_REDIRECTION_ENABLED,
  ISTIO_PROXY_CONTAINER,
  SIDECAR_STATUS_ANNOTATION,
  USE_WAYPOINT_LABEL,
} from '../../../config/wellKnown.ts';
import type { KialiContext, KialiWorkload, KialiWorkloadFlags } from './context.ts';
import { NONE, isGatewayLabels, isWaypointLabels } from './ambient/l7Classification.ts';

/** Kiali's models.Pod, the parts the ambient checks read. */
export interface KialiPod {
  name: string;
  labels: StringMap;
  /** Pod.AmbientEnabled: istio-cni's `ambient.istio.io/redirection: enabled`. */
  ambientEnabled: boolean;
  /** Pod.HasIstioSidecar: the injector's sidecar (or a native sidecar). */
  hasIstioSidecar: boolean;
}

export interface KialiWorkloadModel extends KialiWorkloadFlags {
  pods: readonly KialiPod[];
  /** The pod template's annotations (for config.IsGateway). */
  templateAnnotations: StringMap;
}

/** The containers the injector's status annotation lists (Kiali's IstioContainers / IstioInitContainers). */
function injectedContainers(annotations: StringMap): { containers: string[]; initContainers: string[] } {
  const status = annotations[SIDECAR_STATUS_ANNOTATION];
  if (status === undefined) return { containers: [], initContainers: [] };
  try {
    const parsed: unknown = JSON.parse(status);
    const names = (v: unknown) => (Array.isArray(v) ? v.map(str) : []);
    return isObj(parsed) ? { containers: names(parsed.containers), initContainers: names(parsed.initContainers) } : { containers: [], initContainers: [] };
  } catch {
    return { containers: [], initContainers: [] };
  }
}

/**
 * A pod as Kiali reads it: redirected when it carries istio-cni's mark; with a sidecar when the
 * injector's status annotation lists a container (or the `istio-proxy` init container), or when
 * it runs an `istio-proxy` container as a sidecar (gateway and waypoint pods run one as their
 * only proxy, which is no sidecar).
 */
export function kialiPod(pod: Resource): KialiPod {
  const ambientEnabled = pod.annotations[AMBIENT_REDIRECTION_ANNOTATION] === AMBIENT_REDIRECTION_ENABLED;
  const injected = injectedContainers(pod.annotations);
  const spec = podSpec(pod);
  const proxy = [...spec.containers, ...spec.initContainers].find((c) => c.name === ISTIO_PROXY_CONTAINER);
  const ownProxy = proxy !== undefined && proxy.args[0] === 'proxy' && (proxy.args[1] === 'router' || proxy.args[1] === 'waypoint');
  const sidecarContainer = proxy !== undefined && !ownProxy && !isWaypointLabels(pod.labels) && !isGatewayLabels(pod.labels, pod.annotations);
  const hasIstioSidecar = injected.containers.length > 0 || injected.initContainers.includes(ISTIO_PROXY_CONTAINER) || sidecarContainer;
  return { name: pod.name, labels: pod.labels, ambientEnabled, hasIstioSidecar };
}

function templateAnnotationsOf(w: KialiWorkload): StringMap {
  if (w.kind === 'Pod') return w.resource.annotations;
  const spec = isObj(w.resource.body.spec) ? w.resource.body.spec : {};
  let template: unknown = spec.template;
  if (w.kind === 'CronJob') {
    const job = isObj(spec.jobTemplate) ? spec.jobTemplate : {};
    template = isObj(job.spec) ? job.spec.template : undefined;
  }
  const meta = isObj(template) && isObj(template.metadata) ? template.metadata : {};
  const out: Record<string, string> = {};
  if (isObj(meta.annotations)) for (const [k, v] of Object.entries(meta.annotations)) out[k] = str(v);
  return out;
}

/**
 * The workload's pods: a bare pod is its own; a controller's are the pods of its namespace that
 * its template labels select (Kiali's FilterPodsBySelectorAndNamespace; no labels select all).
 */
function podsOf(ctx: KialiContext, w: KialiWorkload): Resource[] {
  if (w.kind === 'Pod') return [w.resource];
  return podsSelectedBy(ctx.view, w.labels, w.namespace);
}

/** The waypoints istiod recognizes (Gateways of a waypoint class), by `namespace/name`. */
function recognizedWaypoints(ctx: KialiContext): ReadonlyMap<string, Waypoint> {
  return ctx.once('kiali:recognizedWaypoints', () => recognizeWaypoints(ctx.view, [], () => undefined));
}

/** A waypoint Kiali would find: one istiod recognizes, or a waypoint workload of the files; not one for no traffic. */
function waypointExists(ctx: KialiContext, namespace: string, name: string): boolean {
  const w = recognizedWaypoints(ctx).get(`${namespace}/${name}`);
  if (w?.waypointClass && w.trafficType !== NONE) return true;
  return ctx
    .workloadsIn(namespace)
    .some((wl) => wl.name === name && isWaypointLabels(wl.labels) && (!has(wl.labels, WAYPOINT_FOR_LABEL) || wl.labels[WAYPOINT_FOR_LABEL] !== NONE));
}

/** The `istio.io/use-waypoint` request of a label set: none, an opt-out, or `namespace/name`. */
function waypointRequest(labels: StringMap, namespace: string): { optOut: true } | { optOut: false; ref: string } | undefined {
  if (!has(labels, USE_WAYPOINT_LABEL)) return undefined;
  const name = labels[USE_WAYPOINT_LABEL] as string;
  if (name === NONE) return { optOut: true };
  const ns = has(labels, USE_WAYPOINT_NAMESPACE_LABEL) ? (labels[USE_WAYPOINT_NAMESPACE_LABEL] as string) : namespace;
  return { optOut: false, ref: `${ns}/${name}` };
}

/**
 * getWaypointsForWorkload: the waypoint the workload asks for, from its template labels, else a
 * pod's labels, else the one Service that selects it, else its namespace (`none` at any level
 * stops the search); kept only when that waypoint exists.
 */
function capturingWaypoints(ctx: KialiContext, w: KialiWorkload, pods: readonly KialiPod[]): string[] {
  if (w.labels[USE_WAYPOINT_LABEL] === NONE) return [];
  let req = waypointRequest(w.labels, w.namespace);
  for (const p of pods) {
    if (req) break;
    req = waypointRequest(p.labels, w.namespace);
  }
  if (!req && Object.keys(w.labels).length > 0) {
    const selecting = ctx.services.filter((s) => {
      if (s.namespace !== w.namespace) return false;
      const spec = isObj(s.body.spec) ? s.body.spec : {};
      const sel = isObj(spec.selector) ? spec.selector : {};
      const selector: Record<string, string> = {};
      for (const [k, v] of Object.entries(sel)) selector[k] = str(v);
      return Object.keys(selector).length > 0 && selectorMatches(selector, w.labels);
    });
    // More than one Service: Kiali cannot tell which one applies and ignores them.
    const [svc] = selecting;
    if (selecting.length === 1 && svc) req = waypointRequest(svc.labels, w.namespace);
  }
  if (!req) {
    const ns = ctx.namespaceInfo(w.namespace);
    if (ns) req = waypointRequest(ns.labels, w.namespace);
  }
  if (!req || req.optOut) return [];
  const [ns, name] = req.ref.split('/') as [string, string];
  return waypointExists(ctx, ns, name) ? [req.ref] : [];
}

/**
 * The workload as Kiali models it for validations: IstioSidecar holds when there are no pods
 * (Kiali cannot prove otherwise), else for a Deployment its first pod decides and for other
 * kinds every pod must have one; IsAmbient needs a pod (the first one for a Deployment, any
 * other otherwise) redirected by istio-cni; the waypoints are looked up only for a workload
 * with a redirected pod.
 */
export function deriveWorkloadModel(ctx: KialiContext, w: KialiWorkload): KialiWorkloadModel {
  const pods = podsOf(ctx, w).map(kialiPod);
  const first = pods[0];
  const istioSidecar = !first || (w.kind === 'Deployment' ? first.hasIstioSidecar : pods.every((p) => p.hasIstioSidecar));
  const isAmbient = first !== undefined && (w.kind === 'Deployment' ? first.ambientEnabled : pods.some((p) => p.ambientEnabled));
  const waypointWorkloads = pods.some((p) => p.ambientEnabled) ? capturingWaypoints(ctx, w, pods) : [];
  return { pods, isAmbient, istioSidecar, waypointWorkloads, templateAnnotations: templateAnnotationsOf(w) };
}

/** Kiali's model of a workload, with the flags the overrides give in place of the derived ones. */
export function workloadModel(ctx: KialiContext, w: KialiWorkload): KialiWorkloadModel {
  return ctx.once(`kiali:workloadModel:${w.kind}/${w.namespace}/${w.name}`, () => ({ ...deriveWorkloadModel(ctx, w), ...ctx.workloadFlagOverrides(w) }));
}
