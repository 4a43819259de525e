// virtualservices.SubsetPresenceChecker (Kiali business/checkers/virtualservices/subset_presence_checker.go):
// a route destination naming a subset needs a DestinationRule defining that subset for its host
// (Kiali compares the hosts with FilterByHost, or the DR host as a wildcard). KIA1107; the
// checker leaves the object valid.
import { KINDS } from '../../../../document/kinds.ts';
import { destinationRule, virtualService } from '../../../../config/api/networking.ts';
import type { KialiContext } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { filterByHostCandidates, getHost, hostString, hostWithinWildcardHost, type KialiHost } from '../hosts.ts';
import type { KialiCheck } from '../types.ts';

/** models.DestinationRuleSubsets as VirtualServiceChecker.prepareSubsetMap builds it: DR host (FQDN) → subset → parsed DR host. */
export function destinationRuleSubsets(ctx: KialiContext): Map<string, Map<string, KialiHost>> {
  const out = new Map<string, Map<string, KialiHost>>();
  for (const dr of ctx.destinationRules) {
    const spec = destinationRule(dr);
    const host = getHost(spec.host, dr.namespace, ctx.namespaces, ctx.identityDomain);
    const key = hostString(host);
    let subsets = out.get(key);
    if (!subsets) out.set(key, (subsets = new Map()));
    for (const s of spec.subsets) subsets.set(s.name, host);
  }
  return out;
}

/**
 * The DR subsets indexed for lookup: by subset, service and namespace of the DR's parsed host
 * (what filterByHost compares), and the wildcard DR hosts by subset. Built once per run.
 */
function subsetIndex(ctx: KialiContext): { exact: Set<string>; wildcards: Map<string, string[]> } {
  return ctx.once('kiali:subsetIndex', () => {
    const exact = new Set<string>();
    const wildcards = new Map<string, string[]>();
    for (const [drHostStr, subsets] of destinationRuleSubsets(ctx))
      for (const [subset, drHost] of subsets) {
        exact.add(`${subset}\u0000${drHost.service}\u0000${drHost.namespace}`);
        if (drHostStr.startsWith('*')) wildcards.set(subset, [...(wildcards.get(subset) ?? []), drHostStr]);
      }
    return { exact, wildcards };
  });
}

export const subsetPresenceChecker = objectChecker('virtualservices.SubsetPresenceChecker', KINDS.VirtualService, ['KIA1107'], (ctx, vs) => {
  const index = subsetIndex(ctx);
  // Some DR defines the subset for a host FilterByHost matches, or for a wildcard host holding it.
  const present = (host: string, subset: string): boolean => {
    const vsHost = getHost(host, vs.namespace, ctx.namespaces, ctx.identityDomain);
    const vsHostStr = hostString(vsHost);
    for (const [svc, ns] of filterByHostCandidates(vsHostStr, vsHost.namespace, ctx.identityDomain))
      if (index.exact.has(`${subset}\u0000${svc}\u0000${ns}`)) return true;
    return (index.wildcards.get(subset) ?? []).some((drHostStr) => hostWithinWildcardHost(vsHostStr, drHostStr));
  };
  const spec = virtualService(vs);
  const checks: KialiCheck[] = [];
  const routeKinds = [
    ['http', spec.http],
    ['tcp', spec.tcp],
    ['tls', spec.tls],
  ] as const;
  for (const [name, rules] of routeKinds) {
    rules.forEach((rule, k) => {
      rule.route.forEach((dest, i) => {
        if (!dest.destination) return;
        const { host, subset } = dest.destination;
        if (host === '' || subset === '') return;
        if (!present(host, subset)) checks.push(buildCheck('virtualservices.subsetpresent.subsetnotfound', `spec/${name}[${k}]/route[${i}]/destination`));
      });
    });
  }
  return { checks, valid: true };
});
