// externalcontrolplane.ExternalControlPlaneAnalyzer: Istio's validating and injection webhooks
// that reach an external control plane by URL need a usable host name (IST0163), preferably
// not a bare IP address (IST0164).
//
// Like Istio (since istio/istio#50528), no DNS lookup is made: only a URL that does not
// parse, or whose host is an IP address, is reported.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { webhookConfiguration } from '../../../config/api/kube.ts';
import { isMappingAt } from '../../../config/views.ts';
import { goParseIP, goUrlHostname } from '../../../config/addresses.ts';
import { DEFAULT_VALIDATOR_WEBHOOK, INJECTOR_WEBHOOK_PREFIX, VALIDATOR_WEBHOOK_PREFIX } from '../../../config/webhooks.ts';

/** Problem with a webhook URL: '' when fine, 'ip' for an IP address, otherwise the reason. */
function lintUrl(url: string): string {
  const parsed = goUrlHostname(url);
  if (!parsed.ok) return 'was provided in an invalid format';
  if (goParseIP(parsed.hostname)) return 'ip';
  return '';
}

function checkWebhooks(ctx: AnalysisContext, cfg: Resource): void {
  webhookConfiguration(cfg).webhooks.forEach((hook, i) => {
    // Items that are not mappings are left out (Istio would not load such a configuration at all).
    if (!isMappingAt(cfg, ['webhooks', i])) return;
    const { name, clientConfig } = hook;
    if (clientConfig?.url !== undefined) {
      const url = clientConfig.url;
      const problem = lintUrl(url);
      if (problem === '') return;
      const highlightPath = `webhooks[${i}].clientConfig.url`;
      if (problem === 'ip') ctx.report(MESSAGES.ExternalControlPlaneAddressIsNotAHostname.at(cfg, url, name), { highlightPath });
      else ctx.report(MESSAGES.InvalidExternalControlPlaneConfig.at(cfg, url, name, problem), { highlightPath });
    } else if (!clientConfig?.service) {
      // Neither a URL nor a service: the (empty) clientConfig, or the webhook's name without one.
      const highlightPath = clientConfig ? `webhooks[${i}].clientConfig` : `webhooks[${i}].name`;
      ctx.report(MESSAGES.InvalidExternalControlPlaneConfig.at(cfg, '', name, 'is blank'), { highlightPath });
    }
  });
}

export const externalControlPlaneAnalyzer: Analyzer = {
  metadata: {
    name: 'externalcontrolplane.ExternalControlPlaneAnalyzer',
    description: "Checks the URLs Istio's webhooks use to reach an external control plane",
    inputs: [KINDS.ValidatingWebhookConfiguration, KINDS.MutatingWebhookConfiguration],
  },
  analyze(ctx) {
    for (const cfg of ctx.list(KINDS.ValidatingWebhookConfiguration)) {
      if (cfg.name !== '' && (cfg.name === DEFAULT_VALIDATOR_WEBHOOK || cfg.name.startsWith(VALIDATOR_WEBHOOK_PREFIX))) checkWebhooks(ctx, cfg);
    }
    for (const cfg of ctx.list(KINDS.MutatingWebhookConfiguration)) {
      if (cfg.name.startsWith(INJECTOR_WEBHOOK_PREFIX)) checkWebhooks(ctx, cfg);
    }
  },
};
