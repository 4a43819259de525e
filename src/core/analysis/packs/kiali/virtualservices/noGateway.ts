// virtualservices.NoGatewayChecker (Kiali business/checkers/virtualservices/no_gateway_checker.go):
// every gateway a VirtualService names (spec.gateways and http[].match[].gateways; `mesh` aside)
// must be an existing Gateway (KIA1102, invalid); a name with a dot gets KIA1108, Kiali's hint to
// write `<namespace>/<name>` (always at spec/gateways[i], as Kiali builds it).
import { KINDS } from '../../../../document/kinds.ts';
import { arr, isObj, str } from '../../../../document/read.ts';
import type { KialiContext } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { filterByHost, hostString, parseGatewayAsHost } from '../hosts.ts';
import type { KialiCheck } from '../types.ts';

/** kubernetes.GatewayNames: each Gateway as `<name>.<ns>.<identity domain>`. */
function gatewayNames(ctx: KialiContext): readonly string[] {
  return ctx.once('kiali:gatewayNames', () => ctx.gateways.map((gw) => ctx.parsedHost(gw.name, gw.namespace).text));
}

export const noGatewayChecker = objectChecker('virtualservices.NoGatewayChecker', KINDS.VirtualService, ['KIA1102', 'KIA1108'], (ctx, vs) => {
  const spec = isObj(vs.body.spec) ? vs.body.spec : {};
  const names = gatewayNames(ctx);
  const checks: KialiCheck[] = [];
  const checkGateways = (gateways: unknown[], location: string): boolean => {
    let result = true;
    gateways.forEach((g, index) => {
      const gate = str(g);
      if (gate === 'mesh') return;
      if (gate.includes('.')) checks.push(buildCheck('virtualservices.gateway.oldnomenclature', `spec/gateways[${index}]`));
      const hostname = parseGatewayAsHost(gate, vs.namespace, ctx.identityDomain);
      const hostnameText = hostString(hostname);
      const found = names.some((gw) => filterByHost(hostnameText, hostname.namespace, gw, ctx.parsedHost(gw, vs.namespace).namespace, ctx.identityDomain));
      if (found) return;
      checks.push(buildCheck('virtualservices.nogateway', `${location}/gateways[${index}]`));
      result = false;
    });
    return result;
  };
  let valid = true;
  const top = arr(spec.gateways);
  if (top.length > 0) valid = checkGateways(top, 'spec');
  arr(spec.http).forEach((rule, index) => {
    if (!isObj(rule)) return;
    for (const match of arr(rule.match)) {
      // Kiali's `valid && check(...)` stops checking once a gateway is missing.
      if (isObj(match)) valid = valid && checkGateways(arr(match.gateways), `spec/http[${index}]/match`);
    }
  });
  return { checks, valid };
});
