// conditions.ConditionAnalyzer: reports status conditions that Istio or the Gateway API
// controllers set to their negative value (IST0171), plus an AuthorizationPolicy accepted by
// its waypoint only in part.
import { KINDS, type KindInfo } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { statusConditions, type Condition } from '../../../config/api/kube.ts';
import { routeStatus } from '../../../config/api/gatewayapi.ts';

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

interface PlacedCondition {
  condition: Condition;
  /** Index of the route parent holding the condition (routes only). */
  parent?: number;
  /** Index of the condition in its list. */
  index: number;
}

/** Field path of a condition's field (built only for a message). */
function conditionField(c: PlacedCondition, field: string): string {
  const list = c.parent === undefined ? 'status.conditions' : `status.parents[${c.parent}].conditions`;
  return `${list}[${c.index}].${field}`;
}

/** Conditions of the status: top level, or of every parent for routes. */
function conditionsOf(r: Resource, kind: KindInfo): PlacedCondition[] {
  if (kind === KINDS.HTTPRoute || kind === KINDS.GRPCRoute) {
    return routeStatus(r).parents.flatMap((p, parent) => p.conditions.map((condition, index) => ({ condition, parent, index })));
  }
  return statusConditions(r).conditions.map((condition, index) => ({ condition, index }));
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
        for (const placed of conditionsOf(r, kind)) {
          const c = placed.condition;
          const params = [c.type, c.reason, c.message] as const;
          if (Object.hasOwn(negative, c.type) && negative[c.type] === c.status) {
            ctx.report(MESSAGES.NegativeConditionStatus.at(r, ...params), { highlightPath: conditionField(placed, 'status') });
          }
          if (kind === KINDS.AuthorizationPolicy && c.type === 'WaypointAccepted' && c.reason === 'PartiallyInvalid') {
            ctx.report(MESSAGES.NegativeConditionStatus.at(r, ...params), { highlightPath: conditionField(placed, 'reason') });
          }
        }
      }
    }
  },
};
