// telemetry.DefaultSelectorAnalyzer: a namespace may hold only one Telemetry without a
// selector, its namespace-wide default (IST0160).
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { telemetry } from '../../../config/api/telemetry.ts';
import { sortedNames } from './names.ts';
import { listAt } from '../../../document/maps.ts';

export const telemetryDefaultSelectorAnalyzer: Analyzer = {
  metadata: {
    name: 'telemetry.DefaultSelectorAnalyzer',
    description: 'Checks that each namespace has at most one Telemetry without a selector',
    inputs: [KINDS.Telemetry],
  },
  analyze(ctx) {
    const byNamespace = new Map<string, Resource[]>();
    for (const t of ctx.list(KINDS.Telemetry)) {
      // Any selector object (even one without labels) makes it a workload-level Telemetry.
      if (telemetry(t).selector) continue;
      listAt(byNamespace, t.namespace).push(t);
    }
    for (const [ns, list] of byNamespace) {
      if (list.length < 2) continue;
      const names = sortedNames(list);
      for (const t of list) ctx.report(MESSAGES.MultipleTelemetriesWithoutWorkloadSelectors.at(t, names, ns), { highlightPath: 'metadata.name' });
    }
  },
};
