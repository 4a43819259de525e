// destinationrule.SubsetSelectPodAnalyzer: a DestinationRule's host must be a known service
// (Service or ServiceEntry visible from its namespace), and each subset must select at
// least one pod. Pods carry their node's locality labels and hostname, as endpoints do in
// Istio's registry (empty locality labels are not added).
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { toLabelMap } from '../../../config/labels.ts';
import { LabelIndex } from '../util/routingCommon.ts';
import { hostTable, resolveDestinationHost } from '../../../config/registry.ts';
import { arr, isObj, specOf, str, strList } from '../../../model/read.ts';

const LOCALITY_LABELS = ['topology.kubernetes.io/region', 'topology.kubernetes.io/zone', 'topology.istio.io/subzone'];
const HOSTNAME_LABEL = 'kubernetes.io/hostname';

/** Pod labels plus the locality labels and hostname of the node the pod runs on. */
function augmentedPodIndex(ctx: AnalysisContext): LabelIndex<Resource> {
  return ctx.lookups.cached('destinationrule.SubsetSelectPodAnalyzer.pods', (store) => {
    const nodes = new Map<string, Record<string, string>>();
    for (const n of store.list(KINDS.Node)) nodes.set(n.name, n.labels);
    const idx = new LabelIndex<Resource>();
    for (const pod of store.list(KINDS.Pod)) {
      const nodeName = str(specOf(pod).nodeName);
      const nodeLabels = nodeName === '' ? undefined : nodes.get(nodeName);
      if (!nodeLabels) {
        idx.add(pod, pod.labels);
        continue;
      }
      const labels: Record<string, string> = { ...pod.labels };
      for (const l of LOCALITY_LABELS) {
        const v = nodeLabels[l];
        if (v !== undefined && v !== '') labels[l] = v;
      }
      labels[HOSTNAME_LABEL] = nodeName;
      idx.add(pod, labels);
    }
    return idx;
  });
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
      const spec = specOf(dr);
      const host = str(spec.host);
      const target = resolveDestinationHost(hostTable(ctx), dr.namespace, strList(spec.exportTo), host);
      if (!target) {
        ctx.report(MESSAGES.UnknownDestinationRuleHost.at(dr, host), { highlightPath: 'spec.host' });
        return;
      }
      const subsets = arr(spec.subsets);
      if (subsets.length === 0) return;
      // Only a ServiceEntry brings its own workload selector; Services are converted without one.
      const se = target.resource.kindId === KINDS.ServiceEntry.id ? specOf(target.resource).workloadSelector : undefined;
      const base = toLabelMap(isObj(se) ? se.labels : undefined);
      const pods = augmentedPodIndex(ctx);
      // Istio keys subsets by name, so a repeated name is checked (and reported) once, with
      // the labels of its last definition.
      // The index kept is that last definition's, for the editor to point at.
      const byName = new Map<string, { selector: Record<string, string>; index: number }>();
      subsets.forEach((ss, index) => {
        const name = isObj(ss) ? str(ss.name) : '';
        byName.set(name, { selector: { ...base, ...toLabelMap(isObj(ss) ? ss.labels : undefined) }, index });
      });
      for (const [name, { selector, index }] of byName) {
        if (!pods.any(selector)) ctx.report(MESSAGES.DestinationRuleSubsetNotSelectPods.at(dr, name), { highlightPath: `spec.subsets[${index}].name` });
      }
    },
  },
);
