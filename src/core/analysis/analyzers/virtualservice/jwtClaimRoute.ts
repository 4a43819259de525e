// virtualservice.JWTClaimRouteAnalyzer: routing on JWT claims (`@request.auth.claims.*`
// headers) only works when a RequestAuthentication applies to the gateway pods that serve
// the VirtualService; each selected gateway pod without one is reported.
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { MESH_GATEWAY, fullNameString, shortOrFullName } from '../../../config/hosts.ts';
import { keySegment, selectorMatches, toLabelMap, type LabelMap } from '../../../config/labels.ts';
import { LabelIndex, podLabelIndex } from '../util/routingCommon.ts';
import { arr, isObj, specOf, strList } from '../../../model/read.ts';

/** The header prefix Istio uses for JWT claim based routing. */
const JWT_CLAIM_HEADER = '@request.auth.claims';
/** RequestAuthentications in this namespace apply to gateway pods of every namespace. */
const ISTIO_SYSTEM = 'istio-system';

interface JwtClaimRoute {
  key: string;
  ruleIndex: number;
  matchIndex: number;
  field: 'headers' | 'withoutHeaders';
}

/** The first header (headers, then withoutHeaders of each match) that routes on a JWT claim, and where it is. */
function firstJwtClaimRoute(vs: Resource): JwtClaimRoute | undefined {
  const rules = arr(specOf(vs).http);
  for (let ruleIndex = 0; ruleIndex < rules.length; ruleIndex++) {
    const rule = rules[ruleIndex];
    if (!isObj(rule)) continue;
    const matches = arr(rule.match);
    for (let matchIndex = 0; matchIndex < matches.length; matchIndex++) {
      const m = matches[matchIndex];
      if (!isObj(m)) continue;
      for (const field of ['headers', 'withoutHeaders'] as const) {
        const headers = m[field];
        if (!isObj(headers)) continue;
        for (const key of Object.keys(headers)) if (key.startsWith(JWT_CLAIM_HEADER)) return { key, ruleIndex, matchIndex, field };
      }
    }
  }
  return undefined;
}

function requestAuthnSelectors(ctx: AnalysisContext): Map<string, LabelMap[]> {
  return ctx.lookups.cached('virtualservice.JWTClaimRouteAnalyzer.requestAuthn', (store) => {
    const m = new Map<string, LabelMap[]>();
    for (const ra of store.list(KINDS.RequestAuthentication)) {
      const selector = specOf(ra).selector;
      let l = m.get(ra.namespace);
      if (!l) m.set(ra.namespace, (l = []));
      l.push(toLabelMap(isObj(selector) ? selector.matchLabels : undefined));
    }
    return m;
  });
}

function pods(ctx: AnalysisContext): LabelIndex<Resource> {
  return ctx.lookups.cached('routing.podLabelIndex', (store) => podLabelIndex(store.list(KINDS.Pod)));
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
      for (const gwName of strList(specOf(vs).gateways)) {
        if (gwName === MESH_GATEWAY) continue;
        const ref = shortOrFullName(vs.namespace, gwName);
        // A missing gateway is the GatewayAnalyzer's business.
        const gw = ctx.find(KINDS.Gateway, ref.namespace, ref.name);
        if (!gw) continue;
        const authn = requestAuthnSelectors(ctx);
        for (const pod of pods(ctx).select(toLabelMap(specOf(gw).selector))) {
          const selectors = [...(authn.get(ISTIO_SYSTEM) ?? []), ...(authn.get(pod.namespace) ?? [])];
          if (selectors.some((s) => selectorMatches(s, pod.labels))) continue;
          ctx.report(MESSAGES.JwtClaimBasedRoutingWithoutRequestAuthN.at(vs, key, fullNameString(ref.namespace, ref.name), pod.name), { highlightPath: `spec.http[${route.ruleIndex}].match[${route.matchIndex}].${route.field}${keySegment(key)}` });
        }
      }
    },
  },
);
