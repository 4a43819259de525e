// destinationrules.MultiMatchChecker (Kiali business/checkers/destinationrules/multi_match_checker.go):
// two DestinationRules whose hosts overlap (equal, `*`, or one within the other's wildcard)
// and that share a subset name, or where one has no subsets (it covers them all), both get
// KIA0201 on spec/host, each referencing the other. Mesh-wide (`*.local`) and namespace-wide
// (`*.<ns>.<identity domain>`) ISTIO_MUTUAL rules are left out. The objects stay valid.
import { KINDS } from '../../../../document/kinds.ts';
import type { Resource } from '../../../../document/types.ts';
import { destinationRule } from '../../../../config/api/networking.ts';
import type { KialiContext } from '../context.ts';
import { GroupResults } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { hostWithinWildcardHost } from '../hosts.ts';
import type { KialiChecker } from '../types.ts';

/** kubernetes.DestinationRuleHasMTLSEnabled: the top-level traffic policy's TLS mode is ISTIO_MUTUAL. */
export function destinationRuleHasMtlsEnabled(dr: Resource): boolean {
  return destinationRule(dr).trafficPolicy?.tls?.mode === 'ISTIO_MUTUAL';
}

/** isNonLocalmTLSForServiceEnabled: a mesh-wide or namespace-wide ISTIO_MUTUAL rule. */
export function isNonLocalMtlsForServiceEnabled(dr: Resource, identityDomain: string): boolean {
  const host = destinationRule(dr).host;
  if (!host.startsWith('*')) return false;
  return (host === '*.local' || host === `*.${dr.namespace}.${identityDomain}`) && destinationRuleHasMtlsEnabled(dr);
}

function hostsOverlap(a: string, b: string): boolean {
  return a === b || a === '*' || b === '*' || hostWithinWildcardHost(b, a) || hostWithinWildcardHost(a, b);
}

export const destinationRuleMultiMatchChecker: KialiChecker = {
  name: 'destinationrules.MultiMatchChecker',
  kinds: [KINDS.DestinationRule],
  codes: ['KIA0201'],
  run(ctx: KialiContext) {
    const results = new GroupResults();
    const addError = (a: Resource, b: Resource) => {
      results.add(a, buildCheck('destinationrules.multimatch', 'spec/host'), true, [`${b.namespace}/${b.name}`]);
      results.add(b, buildCheck('destinationrules.multimatch', 'spec/host'), true, [`${a.namespace}/${a.name}`]);
    };
    // FQDN host → subset name (`~` = every subset) → the rules that define it.
    const seen = new Map<string, Map<string, Resource[]>>();
    // Only equal hosts or wildcards overlap: a plain host looks at its own key and the wildcard
    // keys, in the order they were seen (a wildcard host still looks at every key).
    const order = new Map<string, number>();
    const wildcardKeys: string[] = [];
    const overlapping = (host: string): Iterable<[string, Map<string, Resource[]>]> => {
      if (host.startsWith('*')) return seen;
      if (wildcardKeys.length === 0) {
        const own = seen.get(host);
        return own ? [[host, own]] : [];
      }
      const keys = [...(seen.has(host) ? [host] : []), ...wildcardKeys].sort((x, y) => (order.get(x) as number) - (order.get(y) as number));
      return keys.map((k) => [k, seen.get(k) as Map<string, Resource[]>] as [string, Map<string, Resource[]>]);
    };
    for (const dr of ctx.destinationRules) {
      if (isNonLocalMtlsForServiceEnabled(dr, ctx.identityDomain)) continue;
      const spec = destinationRule(dr);
      const host = ctx.host(spec.host, dr.namespace).text;
      const subsets = spec.subsets.length > 0 ? spec.subsets.map((s) => s.name) : ['~'];
      for (const [hostKey, existing] of overlapping(host)) {
        if (!hostsOverlap(host, hostKey)) continue;
        if (subsets.length === 1 && subsets[0] === '~') for (const rules of existing.values()) for (const r of rules) addError(dr, r);
        for (const r of existing.get('~') ?? []) addError(dr, r);
        for (const s of subsets) for (const r of existing.get(s) ?? []) addError(dr, r);
      }
      let bySubset = seen.get(host);
      if (!bySubset) {
        seen.set(host, (bySubset = new Map()));
        order.set(host, order.size);
        if (host.startsWith('*')) wildcardKeys.push(host);
      }
      for (const s of subsets) {
        const rules = bySubset.get(s);
        if (rules) rules.push(dr);
        else bySubset.set(s, [dr]);
      }
    }
    return results.list();
  },
};
