// webhook.Analyzer: Istio's sidecar-injector webhooks must not overlap (for any combination
// of the usual namespace/object injection labels, at most one webhook may match) and must
// point at a Service that exists (IST0139).
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { arr, isObj, str, type Obj } from '../../../model/read.ts';
import { compileWebhookSelector, webhookSelectorAccepts, type WebhookSelector } from '../../../config/labelSelector.ts';
import { INJECTION_LABEL, REVISION_LABEL, SIDECAR_INJECT } from '../../../config/wellKnown.ts';

interface Hook {
  /** `<configuration>/<webhook name>`. */
  id: string;
  config: Resource;
  body: Obj;
  /** Index of the webhook in the configuration's `webhooks`. */
  index: number;
  ns: WebhookSelector;
  obj: WebhookSelector;
}

function selectorRevisions(sel: unknown, into: Set<string>): void {
  if (!isObj(sel)) return;
  if (isObj(sel.matchLabels) && Object.prototype.hasOwnProperty.call(sel.matchLabels, REVISION_LABEL)) into.add(str(sel.matchLabels[REVISION_LABEL]));
  for (const e of arr(sel.matchExpressions)) {
    if (isObj(e) && str(e.key) === REVISION_LABEL) for (const v of arr(e.values)) into.add(str(v));
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
      const all = arr(cfg.body.webhooks);
      const webhooks = all.filter(isObj);
      const revs = new Set<string>();
      if (Object.prototype.hasOwnProperty.call(cfg.labels, REVISION_LABEL)) revs.add(cfg.labels[REVISION_LABEL] as string);
      for (const wh of webhooks) {
        selectorRevisions(wh.namespaceSelector, revs);
        selectorRevisions(wh.objectSelector, revs);
      }
      const isIstio = webhooks.some((wh) => str(wh.name).endsWith('istio.io'));
      if (revs.size === 0 && !isIstio) continue;
      const cfgName = cfg.namespace ? `${cfg.namespace}/${cfg.name}` : cfg.name;
      all.forEach((wh, index) => {
        if (!isObj(wh)) return;
        hooks.push({ id: `${cfgName}/${str(wh.name)}`, config: cfg, body: wh, index, ns: compileWebhookSelector(wh.namespaceSelector), obj: compileWebhookSelector(wh.objectSelector) });
      });
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
          ctx.report(MESSAGES.InvalidWebhook.at(o?.config, `Webhook overlaps with others: [${others.join(' ')}]. This may cause injection to occur twice.`), { highlightPath: o ? `webhooks[${o.index}].name` : undefined });
        }
      }
    }

    // Each webhook that calls a Service needs that Service.
    for (const h of hooks) {
      const client = isObj(h.body.clientConfig) ? h.body.clientConfig : {};
      if (!isObj(client.service)) continue;
      const ns = str(client.service.namespace);
      const name = str(client.service.name);
      if (ctx.exists(KINDS.Service, ns, name)) continue;
      const fullName = ns ? `${ns}/${name}` : name;
      const o = owner.get(h.id);
      // The service reference, when the message lands on this webhook's own configuration.
      ctx.report(MESSAGES.InvalidWebhook.at(o?.config, `Injector refers to a control plane service that does not exist: ${fullName}.`), { highlightPath: o?.config === h.config ? `webhooks[${h.index}].clientConfig.service.name` : undefined });
    }
  },
};
