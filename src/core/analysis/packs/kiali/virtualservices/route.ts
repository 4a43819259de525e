// virtualservices.RouteChecker (Kiali business/checkers/virtualservices/route_checker.go): a
// route with a single destination whose weight is between 1 and 99 gets KIA1104 on its weight;
// destinations of one route that repeat a host and subset each get KIA1105. Both are warnings
// that leave the VirtualService valid.
import { KINDS } from '../../../../document/kinds.ts';
import { arr, isObj, num, str } from '../../../../document/read.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiCheck } from '../types.ts';

const ROUTE_KINDS = ['http', 'tcp', 'tls'] as const;

export const routeChecker = objectChecker('virtualservices.RouteChecker', KINDS.VirtualService, ['KIA1104', 'KIA1105'], (ctx, vs) => {
  const spec = isObj(vs.body.spec) ? vs.body.spec : {};
  const checks: KialiCheck[] = [];
  for (const kind of ROUTE_KINDS) {
    const rules = arr(spec[kind]);
    for (let routeIdx = 0; routeIdx < rules.length; routeIdx++) {
      const rule = rules[routeIdx];
      if (!isObj(rule)) continue;
      const dests = arr(rule.route);
      if (dests.length === 1) {
        const only = dests[0];
        if (!isObj(only)) continue;
        const weight = num(only.weight);
        if (weight > 0 && weight < 100) checks.push(buildCheck('virtualservices.route.singleweight', `spec/${kind}[${routeIdx}]/route[0]/weight`));
      }
      if (dests.length < 2) continue;
      // Host+subset of each destination (Kiali stops at a destination-less entry).
      const keys: Array<string | undefined> = [];
      let stopped = false;
      for (const d of dests) {
        if (!isObj(d)) keys.push(undefined);
        else if (!isObj(d.destination)) {
          stopped = true;
          break;
        } else keys.push(`${ctx.host(str(d.destination.host), vs.namespace).text}${str(d.destination.subset)}`);
      }
      if (stopped) continue;
      // Each host+subset named more than once, in the order first named: every destination naming it.
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (key === undefined || keys.indexOf(key) < i || keys.indexOf(key, i + 1) < 0) continue;
        for (let j = i; j < keys.length; j++)
          if (keys[j] === key) checks.push(buildCheck('virtualservices.route.repeatedsubset', `spec/${kind}[${routeIdx}]/route[${j}]/host`));
      }
    }
  }
  return { checks, valid: true };
});
