// conditions.ConditionAnalyzer: reports status conditions that Istio or the Gateway API
// controllers set to their negative value (IST0171), plus an AuthorizationPolicy accepted by
// its waypoint only in part.
import { KINDS, type KindInfo } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { arr, isObj, str } from '../util/spec.ts';

const ROUTE_CONDITIONS = { Accepted: 'False', Programmed: 'False', ResolvedRefs: 'False' };

/** Per kind: the condition types worth reporting and the status that counts as negative. */
const NEGATIVE: ReadonlyArray<readonly [KindInfo, Readonly<Record<string, string>>]> = [
  [KINDS.Service, { 'istio.io/WaypointBound': 'False' }],
  [KINDS.ServiceEntry, { 'istio.io/WaypointBound': 'False' }],
  [KINDS.WorkloadEntry, { 'istio.io/WaypointBound': 'False' }],
  [KINDS.AuthorizationPolicy, { ZtunnelAccepted: 'False', WaypointAccepted: 'False' }],
  [KINDS.KubernetesGateway, ROUTE_CONDITIONS],
  [KINDS.HTTPRoute, ROUTE_CONDITIONS],
  [KINDS.GRPCRoute, ROUTE_CONDITIONS],
];

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

function toCondition(c: unknown): Condition | undefined {
  if (!isObj(c)) return undefined;
  return { type: str(c.type), status: str(c.status), reason: str(c.reason), message: str(c.message) };
}

/** Conditions of the status: top level, or of every parent for routes. */
function conditionsOf(r: Resource, kind: KindInfo): Condition[] {
  const status = r.body.status;
  if (!isObj(status)) return [];
  const raw = kind === KINDS.HTTPRoute || kind === KINDS.GRPCRoute
    ? arr(status.parents).flatMap((p) => (isObj(p) ? arr(p.conditions) : []))
    : arr(status.conditions);
  return raw.map(toCondition).filter((c): c is Condition => c !== undefined);
}

export const conditionAnalyzer: Analyzer = {
  metadata: {
    name: 'conditions.ConditionAnalyzer',
    description: 'Reports negative status conditions written by Istio and Gateway API controllers',
    inputs: NEGATIVE.map(([k]) => k),
  },
  analyze(ctx) {
    for (const [kind, negative] of NEGATIVE) {
      for (const r of ctx.list(kind)) {
        for (const c of conditionsOf(r, kind)) {
          const params = [c.type, c.reason, c.message];
          if (Object.prototype.hasOwnProperty.call(negative, c.type) && negative[c.type] === c.status) {
            ctx.report({ type: MESSAGES.NegativeConditionStatus, params, resource: r });
          }
          if (kind === KINDS.AuthorizationPolicy && c.type === 'WaypointAccepted' && c.reason === 'PartiallyInvalid') {
            ctx.report({ type: MESSAGES.NegativeConditionStatus, params, resource: r });
          }
        }
      }
    }
  },
};
