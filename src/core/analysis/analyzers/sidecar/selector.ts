// sidecar.SelectorAnalyzer: a Sidecar's workload selector must match a pod of its own
// namespace (IST0101); no pod may be selected by two Sidecars (IST0110); a namespace may
// hold only one Sidecar without a selector (IST0111). Sidecars that only reach ambient-mode
// workloads (or sit selector-less in an ambient namespace) have no effect (IST0167).
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { firstSelectorKey, keySegment, selectorString } from '../../../config/labels.ts';
import { sidecar } from '../../../config/api/networking.ts';
import { podsSelectedBy } from '../../../config/workloads.ts';
import { inAmbientForAnalysis, namespaceInAmbientMode } from '../../../config/workloadState.ts';
import { listAt } from '../../../document/maps.ts';
import { sortedNames } from '../telemetry/names.ts';

const AMBIENT_POD_REASON = 'selected workload is in ambient mode, the policy has no impact';
const AMBIENT_NAMESPACE_REASON = 'namespace is in ambient mode, the policy has no impact';

export const sidecarSelectorAnalyzer: Analyzer = {
  metadata: {
    name: 'sidecar.SelectorAnalyzer',
    description: 'Checks that Sidecar workload selectors match pods without overlapping, and that each namespace has at most one Sidecar without a selector',
    inputs: [KINDS.Sidecar, KINDS.Pod, KINDS.Namespace],
    optionalInputs: [KINDS.Namespace],
  },
  analyze(ctx) {
    // Pods selected by at least one Sidecar (by key, in first-selection order).
    const byPod = new Map<string, { pod: Resource; sidecars: Resource[] }>();
    // Sidecars without a selector, per namespace.
    const byNamespace = new Map<string, Resource[]>();

    for (const sc of ctx.list(KINDS.Sidecar)) {
      const labels = sidecar(sc).workloadSelector?.labels ?? {};
      if (Object.keys(labels).length === 0) {
        listAt(byNamespace, sc.namespace).push(sc);
        continue;
      }
      const pods = podsSelectedBy(ctx, labels, sc.namespace);
      if (pods.length === 0) {
        const sel = selectorString(labels);
        ctx.report(MESSAGES.ReferencedResourceNotFound.at(sc, 'selector', sel), {
          fieldPath: `spec.workloadSelector.labels${keySegment(firstSelectorKey(sel))}`,
        });
        continue;
      }
      for (const p of pods) {
        let e = byPod.get(p.key);
        if (!e) byPod.set(p.key, (e = { pod: p, sidecars: [] }));
        e.sidecars.push(sc);
      }
    }

    const ineffective = new Set<string>();
    for (const { pod, sidecars } of byPod.values()) {
      const ambient = inAmbientForAnalysis(pod);
      if (sidecars.length === 1 && !ambient) continue;
      // Istio's getNames (sidecar/util.go) sorts the names: the message does not depend on list order.
      const names = sortedNames(sidecars);
      for (const sc of sidecars) {
        if (ambient) {
          // No sidecar runs for an ambient pod: the Sidecar is ineffective, not conflicting.
          if (!ineffective.has(sc.key)) {
            ineffective.add(sc.key);
            ctx.report(MESSAGES.IneffectivePolicy.at(sc, AMBIENT_POD_REASON), { highlightPath: 'spec.workloadSelector' });
          }
          continue;
        }
        ctx.report(MESSAGES.ConflictingSidecarWorkloadSelectors.at(sc, names, pod.namespace, pod.name), {
          fieldPath: 'metadata.name',
          highlightPath: 'spec.workloadSelector',
        });
      }
    }

    for (const [ns, sidecars] of byNamespace) {
      if (namespaceInAmbientMode(ctx.find(KINDS.Namespace, '', ns))) {
        for (const sc of sidecars) {
          if (ineffective.has(sc.key)) continue;
          ineffective.add(sc.key);
          ctx.report(MESSAGES.IneffectivePolicy.at(sc, AMBIENT_NAMESPACE_REASON), { highlightPath: 'metadata.namespace' });
        }
        continue;
      }
      if (sidecars.length < 2) continue;
      const names = sortedNames(sidecars);
      for (const sc of sidecars) ctx.report(MESSAGES.MultipleSidecarsWithoutWorkloadSelectors.at(sc, names, ns), { highlightPath: 'metadata.name' });
    }
  },
};
