// Whether a workload is part of the sidecar mesh, after Istio's analyzers/util/in_mesh.go:
// an `istio-proxy` container with an image, else the pod's `sidecar.istio.io/inject` label,
// else that annotation, else the namespace's `istio-injection` label.
import { KINDS } from '../../../model/kinds.ts';
import type { AnalysisContext } from '../../types.ts';
import { arr, isObj, str } from '../../../model/read.ts';

export const ISTIO_PROXY_CONTAINER = 'istio-proxy';
export const ISTIO_OPERATOR_CONTAINER = 'istio-operator';
const SIDECAR_INJECT = 'sidecar.istio.io/inject';
const NAMESPACE_INJECTION_LABEL = 'istio-injection';

function hasIstioProxy(containers: readonly unknown[]): boolean {
  for (const c of containers) {
    if (isObj(c) && str(c.name) === ISTIO_PROXY_CONTAINER) return str(c.image) !== '';
  }
  return false;
}

/** Labels, annotations and containers of a pod template; containers as written. */
export function workloadInMesh(
  ctx: AnalysisContext,
  namespace: string,
  labels: Readonly<Record<string, string>>,
  annotations: Readonly<Record<string, string>>,
  containers: readonly unknown[],
): boolean {
  if (hasIstioProxy(containers)) return true;
  if (Object.prototype.hasOwnProperty.call(labels, SIDECAR_INJECT)) return labels[SIDECAR_INJECT] === 'true';
  if (Object.prototype.hasOwnProperty.call(annotations, SIDECAR_INJECT)) return annotations[SIDECAR_INJECT] === 'true';
  const ns = ctx.find(KINDS.Namespace, '', namespace);
  if (ns) return ns.labels[NAMESPACE_INJECTION_LABEL] === 'enabled';
  return false;
}

/** Containers of a pod spec object (non-objects give none). */
export function containersOf(podSpec: unknown): unknown[] {
  return isObj(podSpec) ? arr(podSpec.containers) : [];
}
