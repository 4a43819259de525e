// gateways.SelectorChecker (Kiali business/checkers/gateways/selector_checker.go): a Gateway's
// selector must match some workload, in its own namespace when istiod scopes gateways to their
// namespace (PILOT_SCOPE_GATEWAY_TO_NAMESPACE), anywhere otherwise: KIA0302, invalid. The pods
// the workbench assumes count, as they would run in the cluster Kiali looks at.
import { KINDS } from '../../../../document/kinds.ts';
import { gateway } from '../../../../config/api/networking.ts';
import { selectorMatches } from '../../../../config/labels.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';

export const gatewaySelectorChecker = objectChecker('gateways.SelectorChecker', KINDS.Gateway, ['KIA0302'], (ctx, gw) => {
  const selector = gateway(gw).selector;
  for (const [ns, workloads] of ctx.workloadsPerNamespace) {
    if (ctx.gatewayToNamespace && ns !== gw.namespace) continue;
    if (workloads.some((w) => selectorMatches(selector, w.labels))) return { checks: [], valid: true };
  }
  // The ingress gateway the workbench assumes when the files run none (as the analyzers do).
  for (const p of ctx.assumedPods) {
    if (ctx.gatewayToNamespace && p.namespace !== gw.namespace) continue;
    if (selectorMatches(selector, p.labels)) return { checks: [], valid: true };
  }
  return { checks: [buildCheck('gateways.selector', 'spec/selector')], valid: false };
});
