// The `workloads` view: every pod of the mesh, from the files and derived from controllers,
// with its address, node, service account, SPIFFE identity and how it joins the mesh.
import type { Resource } from '../document/types.ts';
import { podIndex, podIp, podServiceAccount, podShape, podContainers } from '../config/workloads.ts';
import { podIdentity } from '../config/identity.ts';
import { ambientEnrolled, inAmbientForAnalysis } from '../config/workloadState.ts';
import { injectorSettings } from '../config/injector.ts';
import { ISTIO_PROXY_CONTAINER } from '../config/wellKnown.ts';
import { podSpec } from '../config/api/kube.ts';
import type { ConfigView } from '../config/configView.ts';
import { argBag, containsText, optBool, optOneOf, optString, page, plainMap, sourceLocation, type QueryState } from './common.ts';
import type { MeshMode, WorkloadsArgs, WorkloadsResult, WorkloadSummary } from './views.ts';

const MODES: readonly MeshMode[] = ['sidecar', 'ambient', 'none'];

export function readWorkloadsArgs(raw: unknown): WorkloadsArgs & { offset: number; limit: number } {
  const bag = argBag(raw);
  return {
    namespace: optString(bag, 'namespace'),
    text: optString(bag, 'text'),
    mesh: optOneOf(bag, 'mesh', MODES),
    derived: optBool(bag, 'derived'),
    ...page(bag),
  };
}

/**
 * How a pod takes part in the mesh as it is: an `istio-proxy` container (a sidecar, or a
 * gateway's proxy) or istio-cni's ambient mark. Derived pods carry what the injector and
 * istio-cni would give them, so the same test holds for them.
 */
export function podMeshMode(pod: Resource): MeshMode {
  if (podContainers(pod, true).some((c) => c.name === ISTIO_PROXY_CONTAINER)) return 'sidecar';
  return inAmbientForAnalysis(pod) ? 'ambient' : 'none';
}

/** How a new pod of this shape would join the mesh: the injection webhook first, then istio-cni. */
export function podEnrollment(view: ConfigView, pod: Resource): MeshMode {
  const shape = podShape(pod);
  return ambientEnrolled(view, shape, {}, injectorSettings(view)).mode;
}

export function summarizeWorkload(view: ConfigView, state: QueryState, pod: Resource, mode: MeshMode): WorkloadSummary {
  const out: WorkloadSummary = {
    key: pod.key,
    namespace: pod.namespace,
    name: pod.name,
    ip: podIp(pod),
    node: podSpec(pod).nodeName,
    serviceAccount: podServiceAccount(pod),
    identity: podIdentity(view.meshConfig, pod),
    mesh: mode,
    labels: plainMap(pod.labels),
  };
  // Placeholders and derived pods are what the predicates make them; only a pod from the
  // files can differ from what a restart would give it.
  if (!pod.synthetic) {
    const onRestart = podEnrollment(view, pod);
    if (onRestart !== mode) out.onRestart = onRestart;
  }
  if (pod.derivedFrom) out.derivedFrom = `${pod.derivedFrom.kind} ${pod.derivedFrom.namespace}/${pod.derivedFrom.name}`;
  if (pod.synthetic === 'placeholder') out.placeholder = true;
  const source = sourceLocation(pod, state);
  if (source) out.source = source;
  return out;
}

function byNamespaceAndName(a: Resource, b: Resource): number {
  if (a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export function answerWorkloads(raw: unknown, state: QueryState): WorkloadsResult {
  const args = readWorkloadsArgs(raw);
  const view = state.view;
  const pods = podIndex(view).all;
  const counts = { all: pods.length, derived: 0, sidecar: 0, ambient: 0, none: 0 };
  const matching: Array<{ pod: Resource; mode: MeshMode }> = [];
  for (const pod of pods) {
    const mode = podMeshMode(pod);
    counts[mode]++;
    const derived = pod.synthetic === 'derived';
    if (derived) counts.derived++;
    if (args.namespace !== undefined && pod.namespace !== args.namespace) continue;
    if (args.mesh !== undefined && mode !== args.mesh) continue;
    if (args.derived !== undefined && derived !== args.derived) continue;
    if (!containsText(`${pod.namespace}/${pod.name}`, args.text)) continue;
    matching.push({ pod, mode });
  }
  matching.sort((a, b) => byNamespaceAndName(a.pod, b.pod));
  const items = matching.slice(args.offset, args.offset + args.limit).map(({ pod, mode }) => summarizeWorkload(view, state, pod, mode));
  return { trustDomain: view.meshConfig.trustDomain || 'cluster.local', counts, total: matching.length, offset: args.offset, items };
}
