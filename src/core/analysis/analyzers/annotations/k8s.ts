// annotations.K8sAnalyzer: Istio annotations on Namespaces, Services, Pods and Deployments
// must be known (IST0108), set on a kind they apply to (IST0107), not deprecated (IST0135)
// and, for the few Istio validates, hold a valid value (IST0125).
import { KINDS, type KindInfo } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { keySegment } from '../../../config/labels.ts';
import { isIstioAnnotation, lookupAnnotation, SET_BY_ISTIO } from './catalog.ts';
import { annotationValueError } from './validation.ts';

/** The pod label that replaces the deprecated `sidecar.istio.io/inject` annotation. */
const SIDECAR_INJECT = 'sidecar.istio.io/inject';

const DEPRECATION_EXTRA: Readonly<Record<string, string>> = {
  [SIDECAR_INJECT]: ` in favor of the "${SIDECAR_INJECT}" label`,
};

/** Field path of an annotation (its value line is the line istioctl prints). */
export function annotationFieldPath(key: string): string {
  return `metadata.annotations${keySegment(key)}`;
}

/** The kinds both annotation analyzers look at; Pods are checked per resource. */
export const ANNOTATED_KINDS: readonly KindInfo[] = [KINDS.Namespace, KINDS.Service, KINDS.Pod, KINDS.Deployment];

export function checkAnnotations(ctx: AnalysisContext, r: Resource): void {
  const kind = r.gvk.kind;
  for (const [key, value] of Object.entries(r.annotations)) {
    if (!isIstioAnnotation(key) || SET_BY_ISTIO.has(key)) continue;
    const fieldPath = annotationFieldPath(key);
    const def = lookupAnnotation(key);
    if (!def) {
      ctx.report(MESSAGES.UnknownAnnotation.at(r, key), { fieldPath });
      continue;
    }
    if (def.deprecated) {
      // Keeping the old annotation next to its replacement label is deliberate: stay quiet.
      const hasReplacement = key === SIDECAR_INJECT && Object.prototype.hasOwnProperty.call(r.labels, SIDECAR_INJECT);
      if (!hasReplacement) {
        ctx.report(MESSAGES.DeprecatedAnnotation.at(r, key, DEPRECATION_EXTRA[def.name] ?? ''), { fieldPath });
      }
    }
    if (def.resources.includes('Any')) continue;
    if (!(def.resources as readonly string[]).includes(kind)) {
      ctx.report(MESSAGES.MisplacedAnnotation.at(r, key, def.resources.join(', ')), { fieldPath });
      continue;
    }
    const problem = annotationValueError(key, value);
    if (problem !== undefined) {
      ctx.report(MESSAGES.InvalidAnnotation.at(r, key, problem), { fieldPath });
    }
  }
}

export const k8sAnnotationsAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'annotations.K8sAnalyzer',
    description: 'Flags unknown, misplaced, deprecated and invalid Istio annotations on Kubernetes objects',
    inputs: [...ANNOTATED_KINDS],
    optionalInputs: [KINDS.Namespace, KINDS.Service, KINDS.Pod],
  },
  {
    kind: KINDS.Pod,
    check: checkAnnotations,
    global(ctx) {
      for (const k of [KINDS.Namespace, KINDS.Service, KINDS.Deployment]) for (const r of ctx.list(k)) checkAnnotations(ctx, r);
    },
  },
);
