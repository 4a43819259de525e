// The `describe` and `describeTargets` query views' arguments and results: `istioctl x
// describe pod` as structured facts (describe/types.ts), each fact's resource resolved to a
// file line, what ztunnel does for an ambient pod, and the pods a resource selects. Plain
// data, posted from the worker.
import type { DataPlaneTraceResult } from './dataplaneViews.ts';
import type { DescribeRef, PodDescription, ServicePortFact } from './describe/types.ts';

export type { DescribeRef, PodDescription } from './describe/types.ts';

export interface DescribeArgs {
  /** The pod: its store key (`core/Pod/<ns>/<name>`), `<ns>/<name>`, or `<ns>/<controller>` (its first pod). */
  pod: string;
  /** Ambient pods: the client pod (`ns/name`) the request trace starts from (default: one the view picks). */
  traceFrom?: string;
}

/** Where a fact is written: the file and the line of the field (else of the resource). */
export interface DescribeSource {
  file: string;
  line: number;
}

/** An AuthorizationPolicy in the pod's RBAC filters (`istioctl x authz check`). */
export interface DescribeAuthzRow {
  action: string;
  /** `<name>.<namespace>`, or `_anonymous_match_nothing_`. */
  policy: string;
  rules: number;
  ref?: DescribeRef;
}

/** A waypoint binding (istiod's computeWaypoint / fetchWaypointForService) and why. */
export interface DescribeWaypoint {
  /** The bound waypoint (`ns/name`), or null. */
  waypoint: string | null;
  via: 'object' | 'namespace' | 'optOut' | 'none' | 'isWaypoint' | 'instance';
  explanation: string;
  /** The waypoint the labels ask for (`ns/name`), bound or not. */
  requested?: string;
  error?: string;
  /** The Gateway of the waypoint. */
  waypointRef?: DescribeRef;
  /** Where the deciding `istio.io/use-waypoint` label is written (the object's, or its namespace's). */
  labelRef?: DescribeRef;
}

export interface DescribeAmbientService {
  ref: DescribeRef;
  hostname: string;
  ports: ServicePortFact[];
  waypoint: DescribeWaypoint;
}

/** An L4 policy ztunnel enforces for the pod. */
export interface DescribeL4Policy {
  /** `ns/name` as ztunnel names it. */
  key: string;
  action: 'Allow' | 'Deny';
  scope: 'Global' | 'Namespace' | 'WorkloadSelector';
  /** Why it applies: its selector, its namespace, the root namespace, or a PeerAuthentication it was converted from. */
  why: string;
  ref?: DescribeRef;
  /** What istiod left out for ztunnel (HTTP attributes), from its ZtunnelAccepted condition. */
  note?: string;
}

/** What ztunnel does for an ambient pod, instead of the sidecar facts. */
export interface DescribeAmbient {
  /** The pod's own (workload) waypoint. */
  workloadWaypoint: DescribeWaypoint;
  services: DescribeAmbientService[];
  /** ztunnel's Workload for the pod: its protocol (HBONE when captured). */
  protocol?: 'HBONE' | 'TCP';
  policies: DescribeL4Policy[];
  /** AuthorizationPolicies that select the pod but that ztunnel does not enforce, and why. */
  notEnforced: Array<{ ref: DescribeRef; reason: string }>;
  /** The effective PeerAuthentication mode, and the policy that decided it. */
  mtls: { mode: string; ref?: DescribeRef };
  /** Pods a trace may start from (`ns/name`), and the one it started from. */
  clients: string[];
  traceFrom: string;
  /** `host:port` and request of the trace. */
  traceTo: string;
  traceRequest: string;
  trace?: DataPlaneTraceResult;
  /** Why no trace was run (no client pod, no port to send to). */
  noTrace?: string;
}

export interface DescribeResult {
  pod: { key: string; namespace: string; name: string };
  description: PodDescription;
  /** `istioctl x describe pod`'s output, and the error it would exit with. */
  text: string;
  textError?: string;
  /** The AuthorizationPolicies in the pod's sidecar's RBAC filters (empty without a sidecar). */
  authorization: DescribeAuthzRow[];
  /** Ambient pods: ztunnel's view. */
  ambient?: DescribeAmbient;
  /** Each fact's source by `describeSourceKey(ref)`: `resourceKey`, then `#fieldPath` when the ref has one. */
  sources: Record<string, DescribeSource>;
}

export interface DescribeTargetsArgs {
  /** A resource by store key … */
  resource?: string;
  /** … or the resource written at this file line (a List's item at the line). */
  file?: string;
  line?: number;
}

export interface DescribeTargetsResult {
  /** The resource found, or null. */
  resource: DescribeRef | null;
  /** Pods it selects, as store keys with `ns/name` (at most 500), and how many in all. */
  pods: Array<{ key: string; id: string }>;
  total: number;
  /** How it selects them (its selector, its host's Service, its namespace). */
  how: string;
}
