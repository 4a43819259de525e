// deprecation.DeprecationAnalyzer: deprecated or ignored fields of VirtualServices and
// Sidecars, and CustomResourceDefinitions of Istio types that were removed (IST0002).
import { KINDS } from '../../../document/kinds.ts';
import type { Analyzer } from '../../types.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { MESSAGES } from '../../messages.ts';
import { sidecar, virtualService } from '../../../config/api/networking.ts';
import { crdSpec } from '../../../config/api/kube.ts';

/** Istio CRDs no longer shipped (group, kind). */
const REMOVED_CRDS: ReadonlyArray<readonly [string, string]> = [
  ['rbac.istio.io', 'ClusterRbacConfig'],
  ['rbac.istio.io', 'RbacConfig'],
  ['rbac.istio.io', 'ServiceRole'],
  ['rbac.istio.io', 'ServiceRoleBinding'],
];

// Per VirtualService (an edit re-checks only the edited one); Sidecars and CRDs are few.
export const deprecationAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'deprecation.DeprecationAnalyzer',
    description: 'Reports deprecated Istio fields and removed Istio resource types',
    inputs: [KINDS.VirtualService, KINDS.Sidecar, KINDS.CustomResourceDefinition],
  },
  {
    kind: KINDS.VirtualService,
    check(ctx, vs) {
      virtualService(vs).http.forEach((route, i) => {
        // The integer `percent` field was replaced by `percentage`.
        if ((route.fault?.delay?.percent ?? 0) > 0) {
          ctx.report(MESSAGES.Deprecated.at(vs, 'HTTPRoute.fault.delay.percent is deprecated; use HTTPRoute.fault.delay.percentage'), {
            highlightPath: `spec.http[${i}].fault.delay.percent`,
          });
        }
      });
    },
    global(ctx) {
      for (const sc of ctx.list(KINDS.Sidecar)) {
        if (sidecar(sc).outboundTrafficPolicy?.egressProxy) {
          ctx.report(MESSAGES.Deprecated.at(sc, 'OutboundTrafficPolicy.EgressProxy ignored'), { highlightPath: 'spec.outboundTrafficPolicy.egressProxy' });
        }
      }
      for (const crd of ctx.list(KINDS.CustomResourceDefinition)) {
        const spec = crdSpec(crd);
        const group = spec.group;
        const kind = spec.names?.kind ?? '';
        for (const [g, k] of REMOVED_CRDS) {
          if (group === g && kind === k) {
            ctx.report(MESSAGES.Deprecated.at(crd, `Custom resource type ${g} ${k} is removed`), { highlightPath: 'spec.names.kind' });
          }
        }
      }
    },
  },
);
