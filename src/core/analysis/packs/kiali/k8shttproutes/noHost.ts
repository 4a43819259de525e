// k8shttproutes.NoHostChecker (Kiali business/checkers/k8shttproutes/no_host_checker.go): each
// parentRef and backendRef of kind Service must name a Service (a plain name, no dots) in the
// route's namespace, or in another namespace whose ReferenceGrant admits HTTPRoutes from the
// route's namespace to Services: otherwise KIA1402, and the route is invalid. An unset
// backendRef kind is the Gateway API default, Service.
import { KINDS } from '../../../../document/kinds.ts';
import type { Resource } from '../../../../document/types.ts';
import { arr, isObj, str, type Obj } from '../../../../document/read.ts';
import type { KialiContext } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiCheck } from '../types.ts';

/** kubernetes.HasMatchingReferenceGrant. */
export function hasMatchingReferenceGrant(ctx: KialiContext, fromNamespace: string, toNamespace: string, fromKind: string, toKind: string): boolean {
  return ctx.list(KINDS.ReferenceGrant).some((g: Resource) => {
    if (g.namespace !== toNamespace) return false;
    const spec = isObj(g.body.spec) ? g.body.spec : {};
    const fromOk = arr(spec.from).some((f) => isObj(f) && str(f.namespace) === fromNamespace && str(f.kind) === fromKind);
    return fromOk && arr(spec.to).some((t) => isObj(t) && str(t.kind) === toKind);
  });
}

export const k8sHttpRouteNoHostChecker = objectChecker('k8shttproutes.NoHostChecker', KINDS.HTTPRoute, ['KIA1402'], (ctx, route) => {
  const spec = isObj(route.body.spec) ? route.body.spec : {};
  const checks: KialiCheck[] = [];
  let valid = true;
  const check = (ref: Obj, location: string) => {
    const name = str(ref.name);
    const ns = str(ref.namespace) !== '' ? str(ref.namespace) : route.namespace;
    const exists = () => ctx.services.some((s) => s.name === name && s.namespace === ns);
    const bad =
      name.includes('.') ||
      (ns === route.namespace && !exists()) ||
      (ns !== route.namespace && (!hasMatchingReferenceGrant(ctx, route.namespace, ns, 'HTTPRoute', 'Service') || !exists()));
    if (!bad) return;
    checks.push(buildCheck('k8sroutes.nohost.namenotfound', location));
    valid = false;
  };
  arr(spec.parentRefs).forEach((ref, i) => {
    if (isObj(ref) && ref.kind !== undefined && str(ref.kind) === 'Service') check(ref, `spec/parentRefs[${i}]/name`);
  });
  arr(spec.rules).forEach((rule, k) => {
    if (!isObj(rule)) return;
    arr(rule.backendRefs).forEach((ref, i) => {
      if (isObj(ref) && (ref.kind === undefined ? 'Service' : str(ref.kind)) === 'Service') check(ref, `spec/rules[${k}]/backendRefs[${i}]/name`);
    });
  });
  return { checks, valid };
});
