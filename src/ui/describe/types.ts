// The description's types, as the page reads them (type imports only: the values come from the worker).
export type {
  AlmostApplies,
  AlmostReason,
  DescribeRef,
  DestinationRuleFacts,
  IngressFacts,
  PodDescription,
  PodWarning,
  RouteFact,
  ServiceDescription,
  ServicePortFact,
  StaleWarning,
  VirtualServiceFacts,
} from '../../core/queries/describe/types.ts';
export type { DescribeAmbient, DescribeAuthzRow, DescribeResult, DescribeWaypoint } from '../../core/queries/views.ts';
