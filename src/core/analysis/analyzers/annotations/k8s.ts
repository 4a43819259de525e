// annotations.K8sAnalyzer: Istio annotations on Namespaces, Services, Pods and Deployments
// must be known (IST0108), set on a kind they apply to (IST0107), not deprecated (IST0135)
// and, for the few Istio validates, hold a valid value (IST0125).
import { KINDS, type KindInfo } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { has } from '../../../document/read.ts';
import { annotationFieldPath, isIstioAnnotation, lookupAnnotation, SET_BY_ISTIO } from '../../../config/annotations.ts';
import { SIDECAR_INJECT } from '../../../config/wellKnown.ts';
import { annotationValueError } from './validation.ts';

/** The deprecated `sidecar.istio.io/inject` annotation is replaced by the pod label of the same name. */
const DEPRECATION_EXTRA: Readonly<Record<string, string>> = {
  [SIDECAR_INJECT]: ` in favor of the "${SIDECAR_INJECT}" label`,
};

/** The kinds the analyzer looks at besides Pods (which are checked per resource). */
const OTHER_KINDS: readonly KindInfo[] = [KINDS.Namespace, KINDS.Service, KINDS.Deployment];

function checkAnnotations(ctx: AnalysisContext, r: Resource): void {
  const kind = r.gvk.kind;
  for (const [key, value] of Object.entries(r.annotations)) {
    if (!isIstioAnnotation(key) || SET_BY_ISTIO.has(key)) continue;
    // Istio's AddLineNumber sets the annotation's line on a copy of the message, so istioctl
    // prints the resource's line; the editor still points at the annotation.
    const place = { highlightPath: annotationFieldPath(key) };
    const def = lookupAnnotation(key);
    if (!def) {
      ctx.report(MESSAGES.UnknownAnnotation.at(r, key), place);
      continue;
    }
    if (def.deprecated) {
      // Keeping the old annotation next to its replacement label is deliberate: stay quiet.
      const hasReplacement = key === SIDECAR_INJECT && has(r.labels, SIDECAR_INJECT);
      if (!hasReplacement) {
        ctx.report(MESSAGES.DeprecatedAnnotation.at(r, key, DEPRECATION_EXTRA[def.name] ?? ''), place);
      }
    }
    if (def.resources.includes('Any')) continue;
    if (!(def.resources as readonly string[]).includes(kind)) {
      ctx.report(MESSAGES.MisplacedAnnotation.at(r, key, def.resources.join(', ')), place);
      continue;
    }
    const problem = annotationValueError(key, value);
    if (problem !== undefined) {
      ctx.report(MESSAGES.InvalidAnnotation.at(r, key, problem), place);
    }
  }
}

export const k8sAnnotationsAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'annotations.K8sAnalyzer',
    description: 'Flags unknown, misplaced, deprecated and invalid Istio annotations on Kubernetes objects',
    inputs: [KINDS.Namespace, KINDS.Service, KINDS.Pod, KINDS.Deployment],
    optionalInputs: [KINDS.Namespace, KINDS.Service, KINDS.Pod],
  },
  {
    kind: KINDS.Pod,
    check: checkAnnotations,
    global(ctx) {
      for (const k of OTHER_KINDS) for (const r of ctx.list(k)) checkAnnotations(ctx, r);
    },
  },
);
