// destinationrule.SubsetSelectPodAnalyzer: a DestinationRule's host must be a known service
// (Service or ServiceEntry visible from its namespace), and each subset must select at
// least one pod. Subsets are matched against the pods' endpoint labels, which add the
// node's locality and hostname as Istio's registry does (pilot's AugmentLabels).
import { KINDS } from '../../../document/kinds.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { selectorMatches, type LabelMap } from '../../../config/labels.ts';
import { hostTable, resolveDestinationHost } from '../../../config/registry.ts';
import { destinationRule, serviceEntry } from '../../../config/api/networking.ts';
import { firstPodSelectedBy, podsSelectedBy } from '../../../config/workloads.ts';
import { ENDPOINT_TOPOLOGY_LABELS, podEndpointLabels } from '../../../config/locality.ts';

/**
 * True when some pod's endpoint labels satisfy the selector. Endpoint labels differ from pod
 * labels only in the topology keys, so the shared pod index answers the rest of the
 * selector and only its candidates are checked on their endpoint labels.
 */
function selectsSomePod(ctx: AnalysisContext, selector: LabelMap): boolean {
  const podPart: Record<string, string> = Object.create(null);
  let topology = false;
  for (const k of Object.keys(selector)) {
    if (ENDPOINT_TOPOLOGY_LABELS.has(k)) topology = true;
    else podPart[k] = selector[k] as string;
  }
  if (!topology) return firstPodSelectedBy(ctx, selector) !== undefined;
  return podsSelectedBy(ctx, podPart).some((pod) => selectorMatches(selector, podEndpointLabels(ctx, pod)));
}

export const subsetSelectPodAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'destinationrule.SubsetSelectPodAnalyzer',
    description: 'Checks that DestinationRule hosts are known services and that each subset selects some pod',
    inputs: [KINDS.DestinationRule, KINDS.Pod, KINDS.Service, KINDS.ServiceEntry, KINDS.Node],
    optionalInputs: [KINDS.Node],
  },
  {
    kind: KINDS.DestinationRule,
    check(ctx, dr) {
      const spec = destinationRule(dr);
      const host = spec.host;
      const target = resolveDestinationHost(hostTable(ctx), dr.namespace, spec.exportTo, host);
      if (!target) {
        ctx.report(MESSAGES.UnknownDestinationRuleHost.at(dr, host), { highlightPath: 'spec.host' });
        return;
      }
      if (spec.subsets.length === 0) return;
      // Only a ServiceEntry brings its own workload selector; Services are converted without one.
      const base = target.resource.kindId === KINDS.ServiceEntry.id ? serviceEntry(target.resource).workloadSelector?.labels : undefined;
      // Istio keys subsets by name, so a repeated name is checked (and reported) once, with
      // the labels of its last definition.
      // The index kept is that last definition's, for the editor to point at.
      const byName = new Map<string, { selector: LabelMap; index: number }>();
      spec.subsets.forEach((ss, index) => {
        // Without a workload selector the subset's own (prototype-less) labels are the selector.
        const selector = base ? Object.assign(Object.create(null) as Record<string, string>, base, ss.labels) : ss.labels;
        byName.set(ss.name, { selector, index });
      });
      for (const [name, { selector, index }] of byName) {
        if (!selectsSomePod(ctx, selector))
          ctx.report(MESSAGES.DestinationRuleSubsetNotSelectPods.at(dr, name), { highlightPath: `spec.subsets[${index}].name` });
      }
    },
  },
);
