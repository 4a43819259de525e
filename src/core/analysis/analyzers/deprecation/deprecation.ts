// deprecation.DeprecationAnalyzer: deprecated or ignored fields of VirtualServices and
// Sidecars, and CustomResourceDefinitions of Istio types that were removed (IST0002).
import { KINDS } from '../../../model/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { arr, isObj, specOf, str } from '../../../model/read.ts';

/** Istio CRDs no longer shipped (group, kind). */
const REMOVED_CRDS: ReadonlyArray<readonly [string, string]> = [
  ['rbac.istio.io', 'ClusterRbacConfig'],
  ['rbac.istio.io', 'RbacConfig'],
  ['rbac.istio.io', 'ServiceRole'],
  ['rbac.istio.io', 'ServiceRoleBinding'],
];

/** A proto float field's value as Go would see it (non-numbers are 0). */
function floatValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return 0;
}

export const deprecationAnalyzer: Analyzer = {
  metadata: {
    name: 'deprecation.DeprecationAnalyzer',
    description: 'Reports deprecated Istio fields and removed Istio resource types',
    inputs: [KINDS.VirtualService, KINDS.Sidecar, KINDS.CustomResourceDefinition],
  },
  analyze(ctx) {
    for (const vs of ctx.list(KINDS.VirtualService)) {
      arr(specOf(vs).http).forEach((route, i) => {
        if (!isObj(route) || !isObj(route.fault) || !isObj(route.fault.delay)) return;
        // The integer `percent` field was replaced by `percentage`.
        if (floatValue(route.fault.delay.percent) > 0) {
          ctx.report(MESSAGES.Deprecated.at(vs, 'HTTPRoute.fault.delay.percent is deprecated; use HTTPRoute.fault.delay.percentage'), { highlightPath: `spec.http[${i}].fault.delay.percent` });
        }
      });
    }
    for (const sc of ctx.list(KINDS.Sidecar)) {
      const policy = specOf(sc).outboundTrafficPolicy;
      if (isObj(policy) && isObj(policy.egressProxy)) {
        ctx.report(MESSAGES.Deprecated.at(sc, 'OutboundTrafficPolicy.EgressProxy ignored'), { highlightPath: 'spec.outboundTrafficPolicy.egressProxy' });
      }
    }
    for (const crd of ctx.list(KINDS.CustomResourceDefinition)) {
      const spec = specOf(crd);
      const group = str(spec.group);
      const kind = isObj(spec.names) ? str(spec.names.kind) : '';
      for (const [g, k] of REMOVED_CRDS) {
        if (group === g && kind === k) {
          ctx.report(MESSAGES.Deprecated.at(crd, `Custom resource type ${g} ${k} is removed`), { highlightPath: 'spec.names.kind' });
        }
      }
    }
  },
};
