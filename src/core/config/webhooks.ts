// Istio's admission webhooks: which webhook configurations are Istio's (by the names its
// charts give them), and which pods Istio's sidecar-injection webhooks would be called for.
import { KINDS } from '../document/kinds.ts';
import type { StringMap } from '../document/read.ts';
import type { ConfigView } from './configView.ts';
import { webhookConfiguration } from './api/kube.ts';
import { compileWebhookSelector, webhookSelectorAccepts, type WebhookSelector } from './labelSelector.ts';

/** Istio's default-revision ValidatingWebhookConfiguration. */
export const DEFAULT_VALIDATOR_WEBHOOK = 'istiod-default-validator';
/** `istio-validator[-<revision>]-<istio namespace>` */
export const VALIDATOR_WEBHOOK_PREFIX = 'istio-validator';
/** `istio-sidecar-injector[-<revision>][-<release namespace>]` */
export const INJECTOR_WEBHOOK_PREFIX = 'istio-sidecar-injector';

/** A webhook (an entry of a configuration's `webhooks`) is Istio's when its name ends in `istio.io`. */
export function isIstioWebhookName(name: string): boolean {
  return name.endsWith('istio.io');
}

/** The namespace and object selectors of a webhook, compiled. */
export interface CompiledWebhook {
  namespaceSelector: WebhookSelector;
  objectSelector: WebhookSelector;
}

/** Istio's webhooks among every MutatingWebhookConfiguration's, in load order. */
export function istioMutatingWebhooks(view: ConfigView): readonly CompiledWebhook[] {
  return view.lookups.cached('config.istioMutatingWebhooks', (store) => {
    const out: CompiledWebhook[] = [];
    for (const cfg of store.list(KINDS.MutatingWebhookConfiguration)) {
      for (const wh of webhookConfiguration(cfg).webhooks) {
        if (isIstioWebhookName(wh.name))
          out.push({ namespaceSelector: compileWebhookSelector(wh.namespaceSelector), objectSelector: compileWebhookSelector(wh.objectSelector) });
      }
    }
    return out;
  });
}

/**
 * Whether one of Istio's mutating webhooks would be called for a pod with these labels in a
 * namespace with these (absent labels match like empty ones; an absent selector matches all).
 */
export function istioWebhookSelects(view: ConfigView, namespaceLabels: StringMap | undefined, podLabels: StringMap | undefined): boolean {
  return istioMutatingWebhooks(view).some(
    (w) => webhookSelectorAccepts(w.namespaceSelector, namespaceLabels) && webhookSelectorAccepts(w.objectSelector, podLabels),
  );
}
