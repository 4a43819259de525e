// Whether a workload is part of the mesh, and how: one predicate each for sidecar injection,
// Istio's analyzers' "in mesh" test, and ambient enrollment. Everything that asks these
// questions (analyzers, derived workloads, xDS, the ambient view) asks here.
import type { Resource } from '../model/types.ts';
import { KINDS } from '../model/kinds.ts';
import { has, type StringMap } from '../model/read.ts';
import type { ResourceReader } from './resourceReader.ts';
import type { Container } from './api/kube.ts';
import {
  AMBIENT_REDIRECTION_ANNOTATION,
  AMBIENT_REDIRECTION_ENABLED,
  DATAPLANE_MODE_AMBIENT,
  DATAPLANE_MODE_LABEL,
  DATAPLANE_MODE_NONE,
  INJECTION_ENABLED,
  INJECTION_IGNORED_NAMESPACES,
  INJECTION_LABEL,
  ISTIO_PROXY_CONTAINER,
  REVISION_LABEL,
  SIDECAR_INJECT,
} from './wellKnown.ts';

/** What the predicates read of a pod or a pod template. */
export interface WorkloadShape {
  namespace: string;
  labels: StringMap;
  annotations: StringMap;
  containers: readonly Container[];
  initContainers: readonly Container[];
  hostNetwork: boolean;
}

/** The namespace's labels (an empty map when the Namespace is not in the workspace). */
function namespaceLabels(view: Pick<ResourceReader, 'find'>, namespace: string): StringMap | undefined {
  return view.find(KINDS.Namespace, '', namespace)?.labels;
}

function proxyContainer(w: WorkloadShape): Container | undefined {
  return w.containers.find((c) => c.name === ISTIO_PROXY_CONTAINER) ?? w.initContainers.find((c) => c.name === ISTIO_PROXY_CONTAINER);
}

/**
 * Istio's analyzers' PodInMesh and DeploymentInMesh (analyzers/util/in_mesh.go): the first
 * `istio-proxy` container has an image (pods also look at init containers, Deployments do
 * not); else the inject label, then the inject annotation; else the namespace's
 * `istio-injection=enabled`, when the Namespace is known.
 */
export function inMeshForAnalysis(view: Pick<ResourceReader, 'find'>, w: WorkloadShape, includeInitContainers = true): boolean {
  const proxy = w.containers.find((c) => c.name === ISTIO_PROXY_CONTAINER) ?? (includeInitContainers ? w.initContainers.find((c) => c.name === ISTIO_PROXY_CONTAINER) : undefined);
  if (proxy && proxy.image !== '') return true;
  if (has(w.labels, SIDECAR_INJECT)) return w.labels[SIDECAR_INJECT] === 'true';
  if (has(w.annotations, SIDECAR_INJECT)) return w.annotations[SIDECAR_INJECT] === 'true';
  return namespaceLabels(view, w.namespace)?.[INJECTION_LABEL] === INJECTION_ENABLED;
}

/**
 * Whether Istio's injection webhooks (the default revision's, as `istioctl install`
 * configures them) would add a sidecar to a new pod of this shape:
 * - never for host-network pods, pods in Kubernetes' own namespaces, or pods that opt out
 *   with `sidecar.istio.io/inject=false`;
 * - a namespace labelled `istio-injection=enabled` or with a revision injects;
 * - any other `istio-injection` value opts the namespace out;
 * - otherwise the pod's own `sidecar.istio.io/inject=true` label or revision label injects.
 */
export function sidecarInjected(view: Pick<ResourceReader, 'find'>, w: WorkloadShape): boolean {
  if (proxyContainer(w)?.image) return true;
  if (w.hostNetwork || INJECTION_IGNORED_NAMESPACES.has(w.namespace)) return false;
  const podInject = w.labels[SIDECAR_INJECT] ?? w.annotations[SIDECAR_INJECT];
  if (podInject === 'false') return false;
  const ns = namespaceLabels(view, w.namespace);
  const nsInjection = ns?.[INJECTION_LABEL];
  if (nsInjection !== undefined) return nsInjection === INJECTION_ENABLED;
  if (ns?.[REVISION_LABEL]) return true;
  return podInject === 'true' || (w.labels[REVISION_LABEL] ?? '') !== '';
}

/**
 * Istio's analyzers' PodInAmbientMode: istio-cni has marked the pod as redirected. Pods we
 * derive from controllers carry the mark when `ambientEnrolled` holds for them.
 */
export function inAmbientForAnalysis(pod: Pick<Resource, 'annotations'> | undefined): boolean {
  return pod !== undefined && pod.annotations[AMBIENT_REDIRECTION_ANNOTATION] === AMBIENT_REDIRECTION_ENABLED;
}

/**
 * Istio's NamespaceInAmbientMode: labelled for ambient, and not for sidecar injection (an
 * `istio-injection=enabled` or non-empty revision label wins).
 */
export function namespaceInAmbientMode(ns: Pick<Resource, 'labels'> | undefined): boolean {
  if (!ns) return false;
  if (ns.labels[INJECTION_LABEL] === INJECTION_ENABLED) return false;
  if ((ns.labels[REVISION_LABEL] ?? '') !== '') return false;
  return ns.labels[DATAPLANE_MODE_LABEL] === DATAPLANE_MODE_AMBIENT;
}

/**
 * Whether istio-cni would enroll the pod in ambient mode: the pod or its namespace says
 * `istio.io/dataplane-mode=ambient`, the pod does not opt out (`none`), it is not injected
 * with a sidecar, and it does not use the host network.
 */
export function ambientEnrolled(view: Pick<ResourceReader, 'find'>, w: WorkloadShape): boolean {
  if (w.hostNetwork || INJECTION_IGNORED_NAMESPACES.has(w.namespace)) return false;
  const podMode = w.labels[DATAPLANE_MODE_LABEL];
  if (podMode === DATAPLANE_MODE_NONE) return false;
  if (sidecarInjected(view, w)) return false;
  if (podMode === DATAPLANE_MODE_AMBIENT) return true;
  return namespaceLabels(view, w.namespace)?.[DATAPLANE_MODE_LABEL] === DATAPLANE_MODE_AMBIENT;
}

/**
 * Istio's IsIstioControlPlane (analyzers/util/config.go): an object labelled `istio` (any
 * value) or `release: istio` belongs to Istio's own installation, which several checks skip.
 */
export function isIstioControlPlane(r: Pick<Resource, 'labels'>): boolean {
  return has(r.labels, 'istio') || r.labels.release === 'istio';
}
