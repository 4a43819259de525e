// Notes on analyzer inputs the workspace does not hold, so the UI can say what was assumed.
// Each analyzer behaves as Istio's does when its input is missing; these notes only explain it.
import { KINDS } from '../document/kinds.ts';
import type { StoreView } from '../config/store.ts';
import { gateway } from '../config/api/networking.ts';

export function missingInputNotes(store: StoreView): string[] {
  const notes: string[] = [];
  const injector = store.list(KINDS.ConfigMap).some((c) => c.namespace === 'istio-system' && /^istio-sidecar-injector(-.+)?$/.test(c.name));
  if (!injector && store.list(KINDS.Pod).length > 0) {
    notes.push(
      'Sidecar injector: no ConfigMap istio-system/istio-sidecar-injector in the workspace, so the proxy image checks (IST0158) have nothing to compare with.',
    );
  }
  if (store.list(KINDS.Namespace).length === 0 && store.all().some((r) => r.namespace !== '' && !r.synthetic)) {
    notes.push(
      'Namespaces: none in the workspace, so their labels are unknown and the injection checks on namespaces (IST0102, IST0123) have nothing to check.',
    );
  }
  if (store.list(KINDS.MutatingWebhookConfiguration).length === 0 && store.list(KINDS.ValidatingWebhookConfiguration).length === 0) {
    notes.push('Webhooks: none in the workspace, so the webhook and external control plane checks (IST0139, IST0163, IST0164) are skipped.');
  }
  // The Gateway secret check skips servers without a credentialName (or with an empty one).
  const usesCredentials = store.list(KINDS.Gateway).some((g) => gateway(g).servers.some((s) => (s.tls?.credentialName ?? '') !== ''));
  if (usesCredentials && store.list(KINDS.Secret).length === 0) {
    notes.push(
      'Secrets: none in the workspace, so every Gateway credentialName is reported as not found (IST0101). Add the TLS Secrets (secret values stay in this tab) to check them.',
    );
  }
  return notes;
}
