// webhook.Analyzer: Istio's sidecar-injector webhooks must not overlap (for any combination
// of the usual namespace/object injection labels, at most one webhook may match) and must
// point at a Service that exists (IST0139).
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { has } from '../../../document/read.ts';
import { LabelSelector, webhookConfiguration, type Webhook } from '../../../config/api/kube.ts';
import { compileWebhookSelector, webhookSelectorAccepts, type WebhookSelector } from '../../../config/labelSelector.ts';
import { isIstioWebhookName } from '../../../config/webhooks.ts';
import { isMappingAt } from '../../../config/views.ts';
import { INJECTION_LABEL, REVISION_LABEL, SIDECAR_INJECT } from '../../../config/wellKnown.ts';

interface Hook {
  /** `<configuration>/<webhook name>`. */
  id: string;
  config: Resource;
  webhook: Webhook;
  /** Index of the webhook in the configuration's `webhooks`. */
  index: number;
  ns: WebhookSelector;
  obj: WebhookSelector;
}

/** The revisions a webhook selector names: its `istio.io/rev` label, and the values of expressions on it. */
function selectorRevisions(sel: unknown, into: Set<string>): void {
  const s = LabelSelector.read(sel);
  if (!s) return;
  if (has(s.matchLabels, REVISION_LABEL)) into.add(s.matchLabels[REVISION_LABEL] as string);
  for (const e of s.matchExpressions) {
    if (e.key === REVISION_LABEL) for (const v of e.values) into.add(v);
  }
}

function labelSets(key: string, values: readonly string[], revisions: readonly string[]): Array<Record<string, string>> {
  const base = (): Array<Record<string, string>> => [{}, ...values.map((v) => ({ [key]: v }))];
  const out = base();
  for (const rev of revisions) for (const b of base()) out.push({ ...b, [REVISION_LABEL]: rev });
  return out;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const webhookAnalyzer: Analyzer = {
  metadata: {
    name: 'webhook.Analyzer',
    description: "Checks that Istio's injection webhooks do not overlap and reference existing services",
    inputs: [KINDS.MutatingWebhookConfiguration, KINDS.Service],
  },
  analyze(ctx) {
    const hooks: Hook[] = [];
    const revisions = new Set<string>();
    for (const cfg of ctx.list(KINDS.MutatingWebhookConfiguration)) {
      // Items that are not mappings are left out (Istio would not load such a configuration at all).
      const webhooks = webhookConfiguration(cfg).webhooks.flatMap((webhook, index) => (isMappingAt(cfg, ['webhooks', index]) ? [{ webhook, index }] : []));
      const revs = new Set<string>();
      if (has(cfg.labels, REVISION_LABEL)) revs.add(cfg.labels[REVISION_LABEL] as string);
      for (const { webhook } of webhooks) {
        selectorRevisions(webhook.namespaceSelector, revs);
        selectorRevisions(webhook.objectSelector, revs);
      }
      const isIstio = webhooks.some(({ webhook }) => isIstioWebhookName(webhook.name));
      if (revs.size === 0 && !isIstio) continue;
      const cfgName = cfg.namespace ? `${cfg.namespace}/${cfg.name}` : cfg.name;
      for (const { webhook, index } of webhooks) {
        hooks.push({
          id: `${cfgName}/${webhook.name}`,
          config: cfg,
          webhook,
          index,
          ns: compileWebhookSelector(webhook.namespaceSelector),
          obj: compileWebhookSelector(webhook.objectSelector),
        });
      }
      for (const r of revs) revisions.add(r);
    }
    // The resource a `<configuration>/<webhook>` id reports on (the last webhook of that id wins, as in Istio).
    const owner = new Map<string, Hook>();
    for (const h of hooks) owner.set(h.id, h);

    const revs = [...revisions].sort(byText);
    const namespaceLabels = labelSets(INJECTION_LABEL, ['enabled', 'disabled'], revs);
    const objectLabels = labelSets(SIDECAR_INJECT, ['true', 'false'], revs);
    // The same set of overlapping webhooks gives the same messages (which istioctl de-duplicates).
    const reported = new Set<string>();
    for (const nl of namespaceLabels) {
      for (const ol of objectLabels) {
        const matches = new Set<string>();
        for (const h of hooks) if (webhookSelectorAccepts(h.ns, nl) && webhookSelectorAccepts(h.obj, ol)) matches.add(h.id);
        if (matches.size < 2) continue;
        const sorted = [...matches].sort(byText);
        const setKey = sorted.join('\u0000');
        if (reported.has(setKey)) continue;
        reported.add(setKey);
        for (const m of sorted) {
          const others = sorted.filter((x) => x !== m);
          const o = owner.get(m);
          // The overlapping webhook, by its name.
          ctx.report(MESSAGES.InvalidWebhook.at(o?.config, `Webhook overlaps with others: [${others.join(' ')}]. This may cause injection to occur twice.`), {
            highlightPath: o ? `webhooks[${o.index}].name` : undefined,
          });
        }
      }
    }

    // Each webhook that calls a Service needs that Service.
    for (const h of hooks) {
      const service = h.webhook.clientConfig?.service;
      if (!service) continue;
      if (ctx.exists(KINDS.Service, service.namespace, service.name)) continue;
      const fullName = service.namespace ? `${service.namespace}/${service.name}` : service.name;
      const o = owner.get(h.id);
      // The service reference, when the message lands on this webhook's own configuration.
      ctx.report(MESSAGES.InvalidWebhook.at(o?.config, `Injector refers to a control plane service that does not exist: ${fullName}.`), {
        highlightPath: o?.config === h.config ? `webhooks[${h.index}].clientConfig.service.name` : undefined,
      });
    }
  },
};
