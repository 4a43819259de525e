// injection.ImageAutoAnalyzer: `image: auto` on an istio-proxy container only works when the
// injector rewrites it. A Pod with it was never injected (IST0147); a Deployment whose pods
// no Istio injection webhook selects will not be (IST0146).
import { KINDS } from '../../../model/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { arr, isObj, str, type Obj } from '../../../model/read.ts';
import { toLabelMap } from '../../../config/labels.ts';
import { ISTIO_PROXY_CONTAINER } from '../../../config/wellKnown.ts';
import { compileWebhookSelector, webhookSelectorAccepts, type WebhookSelector } from '../../../config/labelSelector.ts';

const AUTO_IMAGE = 'auto';

/** Index in `containers` of the istio-proxy container with `image: auto` (-1 when none). */
function autoImageIndex(podSpec: Obj): number {
  return arr(podSpec.containers).findIndex((c) => isObj(c) && str(c.name) === ISTIO_PROXY_CONTAINER && str(c.image) === AUTO_IMAGE);
}

export const imageAutoAnalyzer: Analyzer = {
  metadata: {
    name: 'injection.ImageAutoAnalyzer',
    description: 'Checks that Pods and Deployments using `image: auto` for istio-proxy are selected for injection',
    inputs: [KINDS.Namespace, KINDS.Pod, KINDS.Deployment, KINDS.MutatingWebhookConfiguration],
    optionalInputs: [KINDS.Pod],
  },
  analyze(ctx) {
    // Webhooks of every MutatingWebhookConfiguration whose name ends in `istio.io`.
    const istioWebhooks: Array<{ ns: WebhookSelector; obj: WebhookSelector }> = [];
    for (const cfg of ctx.list(KINDS.MutatingWebhookConfiguration)) {
      for (const wh of arr(cfg.body.webhooks)) {
        if (isObj(wh) && str(wh.name).endsWith('istio.io')) {
          istioWebhooks.push({ ns: compileWebhookSelector(wh.namespaceSelector), obj: compileWebhookSelector(wh.objectSelector) });
        }
      }
    }
    // A pod with `image: auto` is broken whether or not the webhooks match it.
    for (const pod of ctx.list(KINDS.Pod)) {
      const spec = isObj(pod.body.spec) ? pod.body.spec : {};
      const i = autoImageIndex(spec);
      if (i >= 0) ctx.report(MESSAGES.ImageAutoWithoutInjectionError.at(pod, 'Pod', pod.name), { highlightPath: `spec.containers[${i}].image` });
    }
    for (const d of ctx.list(KINDS.Deployment)) {
      const spec = isObj(d.body.spec) ? d.body.spec : {};
      const template = isObj(spec.template) ? spec.template : {};
      const podSpec = isObj(template.spec) ? template.spec : {};
      const i = autoImageIndex(podSpec);
      if (i < 0) continue;
      const ns = ctx.find(KINDS.Namespace, '', d.namespace || 'default');
      const nsLabels = ns?.labels;
      const meta = isObj(template.metadata) ? template.metadata : {};
      const podLabels = isObj(meta.labels) ? toLabelMap(meta.labels) : undefined;
      const selected = istioWebhooks.some((w) => webhookSelectorAccepts(w.ns, nsLabels) && webhookSelectorAccepts(w.obj, podLabels));
      if (!selected) {
        ctx.report(MESSAGES.ImageAutoWithoutInjectionWarning.at(d, 'Deployment', d.name), { highlightPath: `spec.template.spec.containers[${i}].image` });
      }
    }
  },
};
