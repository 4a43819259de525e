// virtualservice.DestinationRuleAnalyzer: a route or mirror destination that names a subset
// needs a DestinationRule for that host defining the subset. Hosts are compared as Istio
// does: short names resolve in the VirtualService's (or DestinationRule's) namespace.
import { KINDS } from '../../../document/kinds.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { resourceNameFromHost } from '../../../config/hosts.ts';
import { destinationRule, type Destination } from '../../../config/api/networking.ts';
import { destinationHostPath, mirrorDestinations, mirrorHostPath, routeDestinations } from './destinations.ts';

function subsetKey(namespace: string, name: string, subset: string): string {
  return `${namespace}\u0000${name}\u0000${subset}`;
}

/** Every host+subset the DestinationRules define (Istio's initDestHostsAndSubsets). */
function definedSubsets(ctx: AnalysisContext): Set<string> {
  return ctx.lookups.cached('virtualservice.DestinationRuleAnalyzer.subsets', (store) => {
    const out = new Set<string>();
    for (const dr of store.list(KINDS.DestinationRule)) {
      const spec = destinationRule(dr);
      // The host as written, like the VirtualService's (GetResourceNameFromHost): made fully
      // qualified first, an empty namespace (-A) would give `details..svc.cluster.local`.
      const host = resourceNameFromHost(dr.namespace, spec.host);
      for (const ss of spec.subsets) out.add(subsetKey(host.namespace, host.name, ss.name));
    }
    return out;
  });
}

function subsetDefined(subsets: Set<string>, vsNamespace: string, destination: Destination | undefined): boolean {
  const subset = destination?.subset ?? '';
  if (subset === '') return true;
  const name = resourceNameFromHost(vsNamespace, destination?.host ?? '');
  return subsets.has(subsetKey(name.namespace, name.name, subset));
}

export const destinationRuleAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'virtualservice.DestinationRuleAnalyzer',
    description: 'Checks that the subsets VirtualService destinations name are defined by a DestinationRule',
    inputs: [KINDS.VirtualService, KINDS.DestinationRule],
  },
  {
    kind: KINDS.VirtualService,
    check(ctx, vs) {
      const subsets = definedSubsets(ctx);
      for (const d of routeDestinations(vs)) {
        if (subsetDefined(subsets, vs.namespace, d.destination)) continue;
        ctx.report(
          MESSAGES.ReferencedResourceNotFound.at(vs, 'host+subset in destinationrule', `${d.destination?.host ?? ''}+${d.destination?.subset ?? ''}`),
          {
            fieldPath: destinationHostPath(d.rule, d.ruleIndex, d.destIndex),
            highlightPath: `spec.${d.rule}[${d.ruleIndex}].route[${d.destIndex}].destination.subset`,
          },
        );
      }
      for (const d of mirrorDestinations(vs)) {
        if (subsetDefined(subsets, vs.namespace, d.destination)) continue;
        ctx.report(
          MESSAGES.ReferencedResourceNotFound.at(vs, 'mirror+subset in destinationrule', `${d.destination?.host ?? ''}+${d.destination?.subset ?? ''}`),
          {
            fieldPath: mirrorHostPath(d.ruleIndex),
            highlightPath:
              d.rule === 'http.mirror' ? `spec.http[${d.ruleIndex}].mirror.subset` : `spec.http[${d.ruleIndex}].mirrors[${d.destIndex}].destination.subset`,
          },
        );
      }
    },
  },
);
