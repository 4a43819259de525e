// telemetry.SelectorAnalyzer: a Telemetry's selector must match a pod of its own namespace
// (IST0101), and no pod may be selected by two Telemetries (IST0159).
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { firstSelectorKey, keySegment, selectorString } from '../../../config/labels.ts';
import { telemetry } from '../../../config/api/telemetry.ts';
import { podsSelectedBy } from '../../../config/workloads.ts';
import { sortedNames } from './names.ts';

export const telemetrySelectorAnalyzer: Analyzer = {
  metadata: {
    name: 'telemetry.SelectorAnalyzer',
    description: 'Checks that Telemetry selectors match pods and that no pod is selected by two Telemetries',
    inputs: [KINDS.Telemetry, KINDS.Pod],
  },
  analyze(ctx) {
    const byPod = new Map<string, { pod: Resource; telemetries: Resource[] }>();
    for (const t of ctx.list(KINDS.Telemetry)) {
      const labels = telemetry(t).selector?.matchLabels;
      // Telemetries without selector labels apply namespace-wide; not checked here.
      if (!labels || Object.keys(labels).length === 0) continue;
      const pods = podsSelectedBy(ctx, labels, t.namespace);
      if (pods.length === 0) {
        const sel = selectorString(labels);
        ctx.report(MESSAGES.ReferencedResourceNotFound.at(t, 'selector', sel), { fieldPath: `spec.selector.matchLabels${keySegment(firstSelectorKey(sel))}` });
        continue;
      }
      for (const p of pods) {
        let e = byPod.get(p.key);
        if (!e) byPod.set(p.key, (e = { pod: p, telemetries: [] }));
        e.telemetries.push(t);
      }
    }
    for (const { pod, telemetries } of byPod.values()) {
      if (telemetries.length < 2) continue;
      const names = sortedNames(telemetries);
      for (const t of telemetries) {
        ctx.report(MESSAGES.ConflictingTelemetryWorkloadSelectors.at(t, names, pod.namespace, pod.name), {
          fieldPath: 'metadata.name',
          highlightPath: 'spec.selector.matchLabels',
        });
      }
    }
  },
};
