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
import { hostString, parseHost } from '../hosts.ts';
import type { KialiChecker } from '../types.ts';
import { destinationRuleHasMtlsEnabled, isNonLocalMtlsForServiceEnabled } from './multiMatch.ts';

function sameHostDestinationRules(dr: Resource, mtlsDrs: readonly Resource[], all: readonly Resource[], identityDomain: string): Resource[] {
  const out: Resource[] = [];
  const host = (r: Resource) => str(isObj(r.body.spec) ? r.body.spec.host : '');
  const drHost = parseHost(host(dr), dr.namespace, identityDomain);
  for (const m of mtlsDrs) {
    const mHost = parseHost(host(m), dr.namespace, identityDomain);
    if (mHost.service === '*.local' || (mHost.cluster === drHost.cluster && mHost.namespace === drHost.namespace)) out.push(m);
  }
  for (const e of all) {
    if (e.name === dr.name && e.namespace === dr.namespace) continue;
    const h = host(e);
    if (destinationRuleHasMtlsEnabled(e) && (h === `*.${drHost.namespace}.${drHost.cluster}` || h === hostString(drHost))) out.push(e);
  }
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
    const done = new Set<string>();
    for (const dr of all) {
      const same = sameHostDestinationRules(dr, mtlsDrs, all, ctx.identityDomain);
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
