// injection.ImageAutoAnalyzer: `image: auto` on an istio-proxy container only works when the
// injector rewrites it. A Pod with it was never injected (IST0147); a Deployment whose pods
// no Istio injection webhook selects will not be (IST0146).
import { KINDS } from '../../../document/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { podSpec, workloadControllerSpec, type PodSpec } from '../../../config/api/kube.ts';
import { ISTIO_PROXY_CONTAINER } from '../../../config/wellKnown.ts';
import { istioWebhookSelects } from '../../../config/webhooks.ts';

const AUTO_IMAGE = 'auto';

/** Index in `containers` of the istio-proxy container with `image: auto` (-1 when none). */
function autoImageIndex(spec: PodSpec | undefined): number {
  return spec ? spec.containers.findIndex((c) => c.name === ISTIO_PROXY_CONTAINER && c.image === AUTO_IMAGE) : -1;
}

export const imageAutoAnalyzer: Analyzer = {
  metadata: {
    name: 'injection.ImageAutoAnalyzer',
    description: 'Checks that Pods and Deployments using `image: auto` for istio-proxy are selected for injection',
    inputs: [KINDS.Namespace, KINDS.Pod, KINDS.Deployment, KINDS.MutatingWebhookConfiguration],
    optionalInputs: [KINDS.Pod],
  },
  analyze(ctx) {
    // A pod with `image: auto` is broken whether or not the webhooks match it.
    for (const pod of ctx.list(KINDS.Pod)) {
      const i = autoImageIndex(podSpec(pod));
      if (i >= 0) ctx.report(MESSAGES.ImageAutoWithoutInjectionError.at(pod, 'Pod', pod.name), { highlightPath: `spec.containers[${i}].image` });
    }
    for (const d of ctx.list(KINDS.Deployment)) {
      const template = workloadControllerSpec(d).template;
      const i = autoImageIndex(template?.spec);
      if (i < 0) continue;
      // Is one of Istio's webhooks (those whose name ends in `istio.io`) called for its pods?
      const nsLabels = ctx.find(KINDS.Namespace, '', d.namespace || 'default')?.labels;
      if (!istioWebhookSelects(ctx, nsLabels, template?.metadata?.labels)) {
        ctx.report(MESSAGES.ImageAutoWithoutInjectionWarning.at(d, 'Deployment', d.name), { highlightPath: `spec.template.spec.containers[${i}].image` });
      }
    }
  },
};
