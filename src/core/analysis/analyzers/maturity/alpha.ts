// annotations.AlphaAnalyzer (Istio's maturity package): reports Istio annotations whose
// feature is still alpha (IST0136). Like Istio, it is not part of the default set.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { annotationFieldPath, isIstioAnnotation, lookupAnnotation, SET_BY_ISTIO } from '../../../config/annotations.ts';
import { podSpec } from '../../../config/api/kube.ts';
import { ISTIO_INIT_CONTAINER } from '../../../config/wellKnown.ts';

/** Written onto pods by the injector; ignored on pods that use the CNI plugin. */
const IGNORED_WITH_CNI = new Set([
  'sidecar.istio.io/interceptionMode',
  'traffic.sidecar.istio.io/includeInboundPorts',
  'traffic.sidecar.istio.io/excludeInboundPorts',
  'traffic.sidecar.istio.io/includeOutboundIPRanges',
]);

/** A pod uses the CNI plugin unless it has the `istio-init` init container. */
function usesCni(pod: Resource): boolean {
  return !podSpec(pod).initContainers.some((c) => c.name === ISTIO_INIT_CONTAINER);
}

function checkAlpha(ctx: AnalysisContext, r: Resource): void {
  const skipDefaults = r.kindId === KINDS.Pod.id && usesCni(r);
  for (const key of Object.keys(r.annotations)) {
    if (!isIstioAnnotation(key)) continue;
    const def = lookupAnnotation(key);
    if (def?.status !== 'Alpha') continue;
    if (SET_BY_ISTIO.has(def.name)) continue;
    if (skipDefaults && IGNORED_WITH_CNI.has(def.name)) continue;
    // istioctl prints the resource's line (see annotations/k8s.ts); the editor points at the annotation.
    ctx.report(MESSAGES.AlphaAnnotation.at(r, key), { highlightPath: annotationFieldPath(key) });
  }
}

export const alphaAnnotationsAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'annotations.AlphaAnalyzer',
    description: 'Reports Istio annotations that belong to alpha-stage features',
    inputs: [KINDS.Namespace, KINDS.Service, KINDS.Pod, KINDS.Deployment],
    optionalInputs: [KINDS.Namespace, KINDS.Service, KINDS.Pod],
  },
  {
    kind: KINDS.Pod,
    check: checkAlpha,
    global(ctx) {
      for (const k of [KINDS.Namespace, KINDS.Service, KINDS.Deployment]) for (const r of ctx.list(k)) checkAlpha(ctx, r);
    },
  },
);
