// The data-plane query views' arguments and results (ambient: enrollment, waypoints,
// ztunnel's config and request traces). Plain data, posted from the worker.
import type { AmbientSettings } from '../ambient/settings.ts';
import type { TraceResult } from '../ambient/trace.ts';
import type { Table } from '../ambient/ztunnel.ts';
import type { RedirectRule } from '../ambient/cni.ts';
import type { SourceLocation } from './location.ts';

export interface DataPlaneArgs {
  /** The cluster shape, CNI settings and what-if overrides (defaults: Istio's ambient profile). */
  settings?: AmbientSettings;
}

export type DataPlaneMode = 'ambient' | 'sidecar' | 'none' | 'pending';

export interface DataPlanePod {
  key: string;
  namespace: string;
  name: string;
  node: string;
  nodeAssumed: boolean;
  ips: string[];
  ipAssumed: boolean;
  mode: DataPlaneMode;
  /** The rule that decided (ExcludedNamespace, PodLabelAmbient, …, or Terminated / NoPodIP). */
  code: string;
  reason: string;
  /** The injector's decision, and the webhook that received the pod. */
  injection: { inject: boolean; code: string; webhook?: string; reason: string };
  role: 'app' | 'waypoint' | 'gateway' | 'ztunnel';
  waypointOf?: string;
  /** The pod's workload waypoint (`ns/name`), and why it has it or not. */
  waypoint: string | null;
  waypointNote: string;
  waypointError?: { reason: string; message: string };
  /** What ztunnel's Workload says (absent when the pod has no Workload: pending or terminated). */
  protocol?: 'HBONE' | 'TCP';
  identity: string;
  origin: 'file' | 'derived' | 'waypoint' | 'placeholder' | 'system' | 'infrastructure';
  /** The resource key to open (the pod, or for a derived pod its own key; see `source`). */
  resourceKey: string;
  source?: SourceLocation;
  derivedFrom?: string;
  overridden: boolean;
  redirectionNote?: string;
  /** `istio.io/dataplane-mode` on the pod (after overrides), if any. */
  dataplaneLabel?: string;
}

export interface DataPlaneWaypoint {
  key: string;
  className: string;
  waypointClass: boolean;
  trafficType: string;
  trafficTypeFrom: string;
  address: string;
  addressAssumed: boolean;
  allowedRoutes: string;
  serviceAccounts: string[];
  pods: string[];
  resourceKey: string;
  source?: SourceLocation;
}

export interface DataPlaneService {
  key: string;
  kind: 'Service' | 'ServiceEntry';
  namespace: string;
  name: string;
  hostname: string;
  vips: string[];
  addressAssumed: boolean;
  waypoint: string | null;
  bindingNote: string;
  condition: { type: string; status: string; reason: string; message: string } | null;
  ingressUseWaypoint: boolean;
  /** Pods (`ns/name`) among its endpoints, and the count of other endpoints (ServiceEntry hosts, WorkloadEntries). */
  endpoints: string[];
  otherEndpoints: number;
  ports: Array<{ name: string; port: number; targetPort: number; protocol: string }>;
  resourceKey: string;
  source?: SourceLocation;
}

export interface DataPlaneNamespace {
  name: string;
  /** The labels that matter to the data plane, after the overrides. */
  labels: Record<string, string>;
  /** The Namespace object is in the files. */
  exists: boolean;
  overridden: boolean;
  excluded: boolean;
}

export interface DataPlaneOverview {
  nodes: Array<{ name: string; source: string; pods: string[] }>;
  namespaces: DataPlaneNamespace[];
  pods: DataPlanePod[];
  waypoints: DataPlaneWaypoint[];
  services: DataPlaneService[];
  counts: { pods: number; ambient: number; sidecar: number; none: number; pending: number };
  /** What the simulation assumed (installation, cluster shape, synthesized objects). */
  assumptions: string[];
  /** Every policy as ztunnel receives it, with its ZtunnelAccepted status. */
  policies: Array<{
    key: string;
    resourceKey?: string;
    action: string;
    scope: string;
    condition?: { status: string; reason: string; message: string };
    sent: boolean;
    excluded?: string;
  }>;
}

export interface ZtunnelConfigArgs extends DataPlaneArgs {
  /** The ztunnel to ask (its node); default: the first node. */
  node?: string;
  /** `--workload-namespace` / `--service-namespace` / `--policy-namespace`. */
  namespace?: string;
  /** `--workload-node`: keep only workloads on this node. */
  workloadNode?: string;
}

export interface ZtunnelConfigResult {
  node: string;
  nodes: string[];
  workloads: Table;
  services: Table;
  policies: Table;
  certificates: Table;
  /** The same four tables as `istioctl ztunnel-config` prints them. */
  text: { workloads: string; services: string; policies: string; certificates: string };
  capturedPods: Array<{ pod: string; listeners: number[]; rules: RedirectRule[] }>;
}

export interface DataPlaneTraceArgs extends DataPlaneArgs {
  from: string;
  to: string;
  /** `GET /path`, `POST /x` or `TCP`. */
  request?: string;
}

export interface DataPlaneTraceResult extends TraceResult {
  /** Where the policies named in the trace are written, by resource key. */
  locations: Record<string, SourceLocation>;
}
