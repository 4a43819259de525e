// virtualservice.JWTClaimRouteAnalyzer: routing on JWT claims (`@request.auth.claims.*`
// headers) only works when a RequestAuthentication applies to the gateway pods that serve
// the VirtualService; each selected gateway pod without one is reported.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { MESH_GATEWAY, fullNameString, shortOrFullName } from '../../../config/hosts.ts';
import { keySegment, selectorMatches, type LabelMap } from '../../../config/labels.ts';
import { gateway, virtualService } from '../../../config/api/networking.ts';
import { requestAuthentication } from '../../../config/api/security.ts';
import { podsSelectedBy } from '../../../config/workloads.ts';
import { ISTIO_SYSTEM_NAMESPACE } from '../../../config/wellKnown.ts';
import { listAt } from '../../../document/maps.ts';

/** The header prefix Istio uses for JWT claim based routing. */
const JWT_CLAIM_HEADER = '@request.auth.claims';

interface JwtClaimRoute {
  key: string;
  ruleIndex: number;
  matchIndex: number;
  field: 'headers' | 'withoutHeaders';
}

/** The first header (headers, then withoutHeaders of each match) that routes on a JWT claim, and where it is. */
function firstJwtClaimRoute(vs: Resource): JwtClaimRoute | undefined {
  for (const [ruleIndex, rule] of virtualService(vs).http.entries()) {
    for (const [matchIndex, m] of rule.match.entries()) {
      for (const field of ['headers', 'withoutHeaders'] as const) {
        for (const key of Object.keys(m[field])) if (key.startsWith(JWT_CLAIM_HEADER)) return { key, ruleIndex, matchIndex, field };
      }
    }
  }
  return undefined;
}

/** The selectors of the RequestAuthentications of each namespace. */
function requestAuthnSelectors(ctx: AnalysisContext): Map<string, LabelMap[]> {
  return ctx.lookups.cached('virtualservice.JWTClaimRouteAnalyzer.requestAuthn', (store) => {
    const m = new Map<string, LabelMap[]>();
    for (const ra of store.list(KINDS.RequestAuthentication)) {
      listAt(m, ra.namespace).push(requestAuthentication(ra).selector?.matchLabels ?? {});
    }
    return m;
  });
}

export const jwtClaimRouteAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'virtualservice.JWTClaimRouteAnalyzer',
    description: 'Checks that VirtualServices routing on JWT claims have a RequestAuthentication on their gateway pods',
    inputs: [KINDS.VirtualService, KINDS.RequestAuthentication, KINDS.Gateway, KINDS.Pod],
  },
  {
    kind: KINDS.VirtualService,
    check(ctx, vs) {
      const route = firstJwtClaimRoute(vs);
      if (!route) return;
      const key = route.key;
      for (const gwName of virtualService(vs).gateways) {
        if (gwName === MESH_GATEWAY) continue;
        const ref = shortOrFullName(vs.namespace, gwName);
        // A missing gateway is the GatewayAnalyzer's business.
        const gw = ctx.find(KINDS.Gateway, ref.namespace, ref.name);
        if (!gw) continue;
        const authn = requestAuthnSelectors(ctx);
        // RequestAuthentications in istio-system apply to gateway pods of every namespace.
        const meshWide = authn.get(ISTIO_SYSTEM_NAMESPACE) ?? [];
        for (const pod of podsSelectedBy(ctx, gateway(gw).selector)) {
          const selectors = [...meshWide, ...(authn.get(pod.namespace) ?? [])];
          if (selectors.some((s) => selectorMatches(s, pod.labels))) continue;
          ctx.report(MESSAGES.JwtClaimBasedRoutingWithoutRequestAuthN.at(vs, key, fullNameString(ref.namespace, ref.name), pod.name), {
            highlightPath: `spec.http[${route.ruleIndex}].match[${route.matchIndex}].${route.field}${keySegment(key)}`,
          });
        }
      }
    },
  },
);
