// k8shttproutes.NoK8sGatewayChecker (Kiali business/checkers/k8shttproutes/no_k8sgateway_checker.go):
// each parentRef to a Gateway API Gateway must name an existing Gateway in the route's namespace,
// or one whose listeners allow routes from it (allowedRoutes.namespaces From All, or a Selector
// matching the labels of the route's namespace, when Kiali knows that namespace): otherwise
// KIA1401 at `spec/parentRefs[i]/name/<gateway>` (Kiali's path), and the route is invalid.
// Unset parentRef kind and group take the Gateway API defaults, as the API server sets them.
import { KINDS } from '../../../../document/kinds.ts';
import type { Resource } from '../../../../document/types.ts';
import { arr, isObj, str } from '../../../../document/read.ts';
import { compileLabelSelector, compiledMatches } from '../../../../config/labelSelector.ts';
import type { KialiContext } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { filterByHost, hostString, parseGatewayAsHost, parseHost } from '../hosts.ts';
import type { KialiCheck } from '../types.ts';

const GATEWAY_GROUP = 'gateway.networking.k8s.io';

/** IsGatewaySharedWithNS: some listener admits routes from `namespace`. */
function isGatewaySharedWithNs(ctx: KialiContext, namespace: string, gw: Resource): boolean {
  const ns = ctx.namespaceInfo(namespace);
  if (!ns) return false;
  const spec = isObj(gw.body.spec) ? gw.body.spec : {};
  for (const l of arr(spec.listeners)) {
    if (!isObj(l) || !isObj(l.allowedRoutes) || !isObj(l.allowedRoutes.namespaces)) continue;
    const nsRule = l.allowedRoutes.namespaces;
    if (nsRule.from === undefined || nsRule.from === null) continue;
    if (nsRule.from === 'All') return true;
    if (nsRule.from === 'Selector' && isObj(nsRule.selector)) {
      const selector = compileLabelSelector(nsRule.selector);
      if (selector === null || selector === undefined) continue;
      if (compiledMatches(selector, ns.labels)) return true;
    }
  }
  return false;
}

/** CheckGateway: the named Gateway exists and the route's namespace may attach to it. */
export function gatewayReachable(ctx: KialiContext, gwName: string, gwNs: string, routeNs: string): boolean {
  const hostname = parseGatewayAsHost(gwName, gwNs, ctx.identityDomain);
  for (const gw of ctx.list(KINDS.KubernetesGateway)) {
    const name = hostString(parseHost(gw.name, gw.namespace, ctx.identityDomain));
    const gwHostname = parseHost(name, gwNs, ctx.identityDomain);
    if (!filterByHost(hostString(hostname), hostname.namespace, name, gwHostname.namespace, ctx.identityDomain)) continue;
    if (gwHostname.namespace === routeNs || isGatewaySharedWithNs(ctx, routeNs, gw)) return true;
  }
  return false;
}

export const noK8sGatewayChecker = objectChecker('k8shttproutes.NoK8sGatewayChecker', KINDS.HTTPRoute, ['KIA1401'], (ctx, route) => {
  const spec = isObj(route.body.spec) ? route.body.spec : {};
  const checks: KialiCheck[] = [];
  let valid = true;
  arr(spec.parentRefs).forEach((ref, i) => {
    if (!isObj(ref)) return;
    const name = str(ref.name);
    const kind = ref.kind === undefined ? 'Gateway' : str(ref.kind);
    const group = ref.group === undefined ? GATEWAY_GROUP : str(ref.group);
    if (name === '' || kind !== 'Gateway' || group !== GATEWAY_GROUP) return;
    const gwNs = str(ref.namespace) !== '' ? str(ref.namespace) : route.namespace;
    if (gatewayReachable(ctx, name, gwNs, route.namespace)) return;
    checks.push(buildCheck('k8sroutes.nok8sgateway', `spec/parentRefs[${i}]/name/${name}`));
    valid = false;
  });
  return { checks, valid };
});
