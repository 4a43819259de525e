// virtualservices.SubsetPresenceChecker (Kiali business/checkers/virtualservices/subset_presence_checker.go):
// a route destination naming a subset needs a DestinationRule defining that subset for its host
// (Kiali compares the hosts with FilterByHost, or the DR host as a wildcard). KIA1107; the
// checker leaves the object valid.
import { KINDS } from '../../../../document/kinds.ts';
import { destinationRule } from '../../../../config/api/networking.ts';
import type { KialiContext, ParsedHost } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { hostWithinWildcardHost } from '../hosts.ts';
import type { KialiCheck } from '../types.ts';

/**
 * The DR subsets indexed by what FilterByHost compares a route's host with (Kiali's
 * prepareSubsetMap, keyed for lookup): the subsets of each DR host's service and namespace, the
 * same lists by each name equal to `<svc>.<ns>`, `<svc>.<ns>.svc` or `<svc>.<ns>.<identity
 * domain>`, and the wildcard DR hosts by subset. Built once per run.
 */
interface SubsetIndex {
  byNsService: Map<string, Map<string, string[]>>;
  byName: Map<string, readonly string[]>;
  wildcards: Map<string, string[]>;
}

function subsetIndex(ctx: KialiContext): SubsetIndex {
  return ctx.once('kiali:subsetIndex', () => {
    const index: SubsetIndex = { byNsService: new Map(), byName: new Map(), wildcards: new Map() };
    for (const dr of ctx.destinationRules) {
      const spec = destinationRule(dr);
      if (spec.subsets.length === 0) continue;
      const host = ctx.host(spec.host, dr.namespace);
      let byService = index.byNsService.get(host.namespace);
      if (byService === undefined) index.byNsService.set(host.namespace, (byService = new Map()));
      let subsets = byService.get(host.service);
      if (subsets === undefined) byService.set(host.service, (subsets = []));
      for (const s of spec.subsets) {
        subsets.push(s.name);
        if (host.text.startsWith('*')) index.wildcards.set(s.name, [...(index.wildcards.get(s.name) ?? []), host.text]);
      }
    }
    // Each name shares its DR host's list; one name of two hosts (dotted names) gets both.
    for (const [namespace, byService] of index.byNsService)
      for (const [service, subsets] of byService) {
        const twoParts = `${service}.${namespace}`;
        for (const name of [twoParts, `${twoParts}.svc`, `${twoParts}.${ctx.identityDomain}`]) {
          const known = index.byName.get(name);
          index.byName.set(name, known === undefined ? subsets : [...known, ...subsets]);
        }
      }
    return index;
  });
}

/** Some DR defines the subset for a host FilterByHost matches with the route's, or for a wildcard host holding it. */
function subsetPresent(index: SubsetIndex, vsHost: ParsedHost, subset: string): boolean {
  if (index.byName.get(vsHost.text)?.includes(subset) || index.byNsService.get(vsHost.namespace)?.get(vsHost.text)?.includes(subset)) return true;
  return (index.wildcards.get(subset) ?? []).some((drHostStr) => hostWithinWildcardHost(vsHost.text, drHostStr));
}

export const subsetPresenceChecker = objectChecker('virtualservices.SubsetPresenceChecker', KINDS.VirtualService, ['KIA1107'], (ctx, vs) => {
  const index = subsetIndex(ctx);
  const checks: KialiCheck[] = [];
  for (const d of ctx.routeDestinations(vs)) {
    if (d.host === undefined || d.subset === '' || subsetPresent(index, d.host, d.subset)) continue;
    checks.push(buildCheck('virtualservices.subsetpresent.subsetnotfound', `spec/${d.kind}[${d.rule}]/route[${d.route}]/destination`));
  }
  return { checks, valid: true };
});
