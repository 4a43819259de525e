// destinationrules.TrafficPolicyChecker (Kiali business/checkers/destinationrules/traffic_policy_checker.go):
// when a mesh-wide or namespace-wide DestinationRule enables ISTIO_MUTUAL (or another rule for the
// same host does), a DestinationRule for a host it covers that sets no TLS settings of its own
// (neither trafficPolicy.tls nor a port-level tls) overrides that mTLS: KIA0204 on
// spec/trafficPolicy, referencing those rules. The rule stays valid.
import { KINDS } from '../../../../document/kinds.ts';
import type { Resource } from '../../../../document/types.ts';
import { arr, isObj, str } from '../../../../document/read.ts';
import type { KialiContext } from '../context.ts';
import { GroupResults } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiChecker } from '../types.ts';
import { destinationRuleHasMtlsEnabled, isNonLocalMtlsForServiceEnabled } from './multiMatch.ts';

/** A DestinationRule's host as written. */
const hostOf = (r: Resource) => str(isObj(r.body.spec) ? r.body.spec.host : '');

/** DRs with mTLS enabled by their host as written, each with its place in `all` (to keep Kiali's order). */
type MtlsByHost = Map<string, Array<{ r: Resource; at: number }>>;

function mtlsByHost(all: readonly Resource[]): MtlsByHost {
  const out: MtlsByHost = new Map();
  all.forEach((r, at) => {
    if (!destinationRuleHasMtlsEnabled(r)) return;
    const h = hostOf(r);
    out.set(h, [...(out.get(h) ?? []), { r, at }]);
  });
  return out;
}

function sameHostDestinationRules(ctx: KialiContext, dr: Resource, mtlsDrs: readonly Resource[], byHost: MtlsByHost): Resource[] {
  const out: Resource[] = [];
  const drHost = ctx.parsedHost(hostOf(dr), dr.namespace);
  for (const m of mtlsDrs) {
    const mHost = ctx.parsedHost(hostOf(m), dr.namespace);
    if (mHost.service === '*.local' || (mHost.cluster === drHost.cluster && mHost.namespace === drHost.namespace)) out.push(m);
  }
  // The other DRs, in order, with mTLS enabled for the namespace's wildcard host or this host.
  const wildcard = `*.${drHost.namespace}.${drHost.cluster}`;
  const exact = drHost.text;
  const hits = [...(byHost.get(wildcard) ?? []), ...(exact !== wildcard ? (byHost.get(exact) ?? []) : [])].sort((a, b) => a.at - b.at);
  for (const { r } of hits) if (!(r.name === dr.name && r.namespace === dr.namespace)) out.push(r);
  return out;
}

function hasTlsSettings(dr: Resource): boolean {
  const spec = isObj(dr.body.spec) ? dr.body.spec : {};
  const tp = spec.trafficPolicy;
  if (!isObj(tp)) return false;
  return isObj(tp.tls) || arr(tp.portLevelSettings).some((p) => isObj(p) && isObj(p.tls));
}

export const trafficPolicyChecker: KialiChecker = {
  name: 'destinationrules.TrafficPolicyChecker',
  kinds: [KINDS.DestinationRule],
  codes: ['KIA0204'],
  run(ctx: KialiContext) {
    const results = new GroupResults();
    const all = ctx.destinationRules;
    const mtlsDrs = all.filter((dr) => isNonLocalMtlsForServiceEnabled(dr, ctx.identityDomain));
    const byHost = mtlsByHost(all);
    // No rule enables mTLS: no rule can override one.
    if (mtlsDrs.length === 0 && byHost.size === 0) return [];
    const done = new Set<string>();
    for (const dr of all) {
      const same = sameHostDestinationRules(ctx, dr, mtlsDrs, byHost);
      if (same.length === 0 || hasTlsSettings(dr) || done.has(dr.key)) continue;
      done.add(dr.key);
      results.add(
        dr,
        buildCheck('destinationrules.trafficpolicy.notlssettings', 'spec/trafficPolicy'),
        true,
        same.map((r) => `${r.namespace}/${r.name}`),
      );
    }
    return results.list();
  },
};
