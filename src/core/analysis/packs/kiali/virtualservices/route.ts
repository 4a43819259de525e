// virtualservices.RouteChecker (Kiali business/checkers/virtualservices/route_checker.go): a
// route with a single destination whose weight is between 1 and 99 gets KIA1104 on its weight;
// destinations of one route that repeat a host and subset each get KIA1105. Both are warnings
// that leave the VirtualService valid.
import { KINDS } from '../../../../document/kinds.ts';
import { arr, isObj, num, str } from '../../../../document/read.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { getHost, hostString } from '../hosts.ts';
import type { KialiCheck } from '../types.ts';

export const routeChecker = objectChecker('virtualservices.RouteChecker', KINDS.VirtualService, ['KIA1104', 'KIA1105'], (ctx, vs) => {
  const spec = isObj(vs.body.spec) ? vs.body.spec : {};
  const checks: KialiCheck[] = [];
  for (const kind of ['http', 'tcp', 'tls'] as const) {
    arr(spec[kind]).forEach((rule, routeIdx) => {
      if (!isObj(rule)) return;
      const dests = arr(rule.route);
      if (dests.length === 1) {
        if (!isObj(dests[0])) return;
        const weight = num(dests[0].weight);
        if (weight > 0 && weight < 100) checks.push(buildCheck('virtualservices.route.singleweight', `spec/${kind}[${routeIdx}]/route[0]/weight`));
      }
      // Host+subset → the indexes of the destinations naming it (Kiali stops at a destination-less entry).
      const collisions = new Map<string, number[]>();
      for (const [i, d] of dests.entries()) {
        if (!isObj(d)) continue;
        if (!isObj(d.destination)) return;
        const key = `${hostString(getHost(str(d.destination.host), vs.namespace, ctx.namespaces, ctx.identityDomain))}${str(d.destination.subset)}`;
        collisions.set(key, [...(collisions.get(key) ?? []), i]);
      }
      for (const dups of collisions.values())
        if (dups.length > 1)
          for (const i of dups) checks.push(buildCheck('virtualservices.route.repeatedsubset', `spec/${kind}[${routeIdx}]/route[${i}]/host`));
    });
  }
  return { checks, valid: true };
});
