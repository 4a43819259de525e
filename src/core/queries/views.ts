import type { CertsReport } from '../pki/report.ts';

// The typed query views the analysis worker answers: for each view name, the arguments it
// takes and the result it gives. Results are plain data (they cross the worker boundary by
// structured clone) and small: lists come in pages, with totals.

/** How a workload takes part in the mesh. */
export type MeshMode = 'sidecar' | 'ambient' | 'none';

import type { SourceLocation } from './location.ts';
import type { RequestResult, RequestStep } from '../xds/request.ts';
import type { DumpDiffResult } from '../xds/dumpDiff.ts';
import type { RouteTestsReport } from '../xds/routeTests/run.ts';
import type { DataPlaneArgs, DataPlaneOverview, DataPlaneTraceArgs, DataPlaneTraceResult, ZtunnelConfigArgs, ZtunnelConfigResult } from './dataplaneViews.ts';
import type { DescribeArgs, DescribeResult, DescribeTargetsArgs, DescribeTargetsResult } from './describeViews.ts';
export type { SourceLocation } from './location.ts';
export type * from './dataplaneViews.ts';
export type * from './describeViews.ts';

export interface Page {
  /** Skip this many items (default 0). */
  offset?: number;
  /** At most this many items (default 200, at most 2,000). */
  limit?: number;
}

// ---- workloads ----------------------------------------------------------------------

export interface WorkloadsArgs extends Page {
  /** Only this namespace. */
  namespace?: string;
  /** Only workloads whose `namespace/name` contains this text (case-insensitive). */
  text?: string;
  mesh?: MeshMode;
  /** true: only pods derived from controllers; false: only pods from the files (and placeholders). */
  derived?: boolean;
}

export interface WorkloadSummary {
  /** Store key (`core/Pod/<ns>/<name>`), for the `resource` view. */
  key: string;
  namespace: string;
  name: string;
  ip: string;
  node: string;
  serviceAccount: string;
  /** SPIFFE identity under the mesh's trust domain. */
  identity: string;
  /** How the pod takes part in the mesh now (a derived pod: as the injector and istio-cni would make it). */
  mesh: MeshMode;
  /**
   * How a new pod of this shape would join the mesh (injection webhook, istio-cni), when that
   * differs from `mesh` (e.g. a pod from the files without a sidecar in an injected namespace).
   */
  onRestart?: MeshMode;
  labels: Record<string, string>;
  /** The controller a derived pod comes from: `Deployment ns/name`. */
  derivedFrom?: string;
  /** Istio's assumed ingress gateway pod (not from the files). */
  placeholder?: boolean;
  source?: SourceLocation;
}

export interface WorkloadsResult {
  trustDomain: string;
  /** Counts over every workload (before the filters). */
  counts: { all: number; derived: number; sidecar: number; ambient: number; none: number };
  /** Workloads matching the filters. */
  total: number;
  offset: number;
  items: WorkloadSummary[];
}

// ---- services -----------------------------------------------------------------------

export interface ServicesArgs extends Page {
  namespace?: string;
  /** Only services with a host or `namespace/name` containing this text (case-insensitive). */
  text?: string;
  kind?: 'Service' | 'ServiceEntry';
}

export interface ServicePortSummary {
  name: string;
  port: number;
  protocol: string;
  /** Kubernetes targetPort (number or named port); ServiceEntry targetPort when set. */
  targetPort?: number | string;
}

export interface ServiceSummary {
  key: string;
  kind: 'Service' | 'ServiceEntry';
  namespace: string;
  name: string;
  /** FQDNs: `<name>.<ns>.svc.cluster.local` for a Service, the (expanded) hosts of a ServiceEntry. */
  hosts: string[];
  ports: ServicePortSummary[];
  /** Namespaces the service is visible to (`*` for all). */
  exportTo: string[];
  /** Service `spec.selector` / ServiceEntry `workloadSelector.labels`; null when there is none. */
  selector: Record<string, string> | null;
  /** Pods the selector picks (real and derived): the first 50 `ns/name`, and how many in all. */
  pods: { total: number; names: string[] };
  /** ServiceEntry only: its inline endpoints, its resolution and location. */
  endpoints?: number;
  resolution?: string;
  location?: string;
  /** Kubernetes Service type and cluster IP. */
  type?: string;
  clusterIP?: string;
  placeholder?: boolean;
  source?: SourceLocation;
}

export interface ServicesResult {
  total: number;
  offset: number;
  items: ServiceSummary[];
}

// ---- resource -----------------------------------------------------------------------

export interface ResourceArgs {
  /** Store key, as diagnostics carry it (`resourceKey`): `<group>/<Kind>/<namespace>/<name>`. */
  key: string;
}

export interface ResourceDetail {
  key: string;
  kind: string;
  apiVersion: string;
  namespace: string;
  name: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** Derived from a controller (not in the files). */
  derived: boolean;
  derivedFrom?: { kind: string; namespace: string; name: string };
  /** Added by the analysis: the placeholder gateway, or the mesh config / networks it used. */
  synthetic?: 'placeholder' | 'meshconfig' | 'meshnetworks' | 'derived';
  source?: SourceLocation;
}

// ---- certificates -------------------------------------------------------------------

export interface CertificatesInput {
  name: string;
  text?: string;
  /** Binary uploads (DER). */
  bytes?: Uint8Array;
}

export interface CertificatesArgs {
  /** Pasted or uploaded inputs (read in the worker, never sent anywhere). */
  inputs?: CertificatesInput[];
  /** A store key: a Secret or ConfigMap, or a Gateway / DestinationRule whose credentialName Secrets to inspect. */
  resource?: string;
  /** Also inspect every certificate-bearing Secret and ConfigMap of the workspace (the default when nothing else is asked). */
  workspace?: boolean;
  /** The time to check validity at (RFC 3339); default now. */
  at?: string;
  /** Default: the mesh config's trust domain and aliases. */
  trustDomain?: string;
  aliases?: string[];
  profile?: 'default' | 'production';
}

export interface CertificateSource {
  key: string;
  kind: string;
  namespace: string;
  name: string;
  file?: string;
  line?: number;
}

export interface CertificatesResult {
  report: CertsReport;
  /** The workspace objects read. */
  sources: CertificateSource[];
  /** credentialNames that name no Secret (IST0101 in the analysis). */
  missing: Array<{ user: string; credentialName: string; namespace: string }>;
}

// ---- xDS: proxies, generated config, request simulation -----------------------------

export interface ProxySummary {
  /** `<pod>.<namespace>`, as `istioctl proxy-config` takes it. */
  id: string;
  type: 'sidecar' | 'router' | 'waypoint';
  namespace: string;
  name: string;
  /** The pod had no IP in the files: its address is a deterministic synthetic one. */
  syntheticAddress: boolean;
  /** The pod is derived from a controller (Deployment, StatefulSet, …) or a Gateway istiod deploys. */
  derived: boolean;
  /** What it is derived from, as `Kind namespace/name`. */
  derivedFrom?: string;
  /**
   * The resource whose findings this proxy's config shows, as a finding's origin (`Kind
   * namespace/name`): its own Pod from the files, or what a derived pod was derived from.
   */
  origin?: string;
  source?: SourceLocation;
}

export interface ProxiesArgs {
  /**
   * Only the proxy of each of these resources (`Kind namespace/name`, a finding's origin): a
   * pod's own, or a controller's first pod. Omitted: every proxy.
   */
  origins?: string[];
  /** Only proxies whose id contains this (any case). */
  search?: string;
  /** At most this many (in the full list's order); with `include` one more may come first. */
  limit?: number;
  /** This proxy too, first, when it exists and is not among the others (a picker's current pick). */
  include?: string;
  /** Only the proxies that run from the document at this file line (the editor's cursor). */
  at?: { file: string; line: number };
}

export interface ProxiesResult {
  items: ProxySummary[];
  /** Proxies in the workspace. */
  total: number;
  /** Proxies that match the search (or the origins), before the limit. */
  matching: number;
}

export interface ProxyConfigArgs {
  /** A proxy id (`<pod>.<namespace>`) or a controller name (`reviews-v1.default`). */
  proxy: string;
}

/** Where a piece of generated config comes from, with the file line of the field. */
export interface ResolvedProvenance {
  resourceKey: string;
  fieldPath?: string;
  note?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  file?: string;
  line?: number;
}

export interface ProxyConfigResult {
  proxy: ProxySummary;
  /** An Envoy `/config_dump?include_eds` document (proto3 JSON). */
  dump: { configs: Record<string, unknown>[] };
  /** Table → key → sources; keys as in core/xds/provenance.ts (`<listener>/<chain>`, `<rc>/<vhost>/<route index>`, …). */
  provenance: Record<
    'listeners' | 'filterChains' | 'clusters' | 'routeConfigs' | 'virtualHosts' | 'routes' | 'endpoints',
    Record<string, ResolvedProvenance[]>
  >;
  notes: string[];
  /** The SDS secrets in the dump and where each comes from (core/xds/secrets.ts). */
  secrets?: ProxySecretInfo[];
}

/** One SDS resource of a generated proxy: istiod's own certificate, a mounted file, or a credential from the workspace. */
export interface ProxySecretInfo {
  name: string;
  source: 'istiod' | 'credential' | 'file' | 'external' | 'invalid' | 'unknown';
  role: 'cert' | 'root';
  /** Whether istiod would send it (a credential it cannot read stays warming in Envoy). */
  served: boolean;
  note: string;
  /** The Secret or ConfigMap istiod reads (resolved namespace). */
  ref?: { kind: 'Secret' | 'ConfigMap'; namespace: string; name: string };
  /** Where that object is written, when the workspace has it. */
  from?: ResolvedProvenance;
}

export interface SimulateArgs {
  proxy: string;
  host: string;
  port: number;
  protocol?: 'http' | 'http2' | 'grpc' | 'tcp' | 'tls';
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  sni?: string;
}

/** A simulation step; `source` is the resolved `ref` (e.g. the AuthorizationPolicy rule of an RBAC verdict). */
export type SimulateStep = RequestStep & { source?: ResolvedProvenance };

export type SimulateResult = { proxy: string } & Omit<RequestResult, 'steps'> & { steps: SimulateStep[] };

// ---- route tests ----------------------------------------------------------------------

export interface RouteTestsArgs {
  /** A workspace file (or, with `text`, the name to report the text under). */
  file: string;
  /** The test file's text, when it is not a workspace file (the CLI). */
  text?: string;
}

export interface RouteTestFilesResult {
  /** Workspace files holding RouteTests documents, with their number of tests and problems. */
  files: Array<{ file: string; tests: number; problems: number }>;
}

export interface ProxyDumpDiffArgs {
  /** The generated proxy to compare with (`<pod>.<namespace>`). */
  proxy: string;
  /** A workspace file holding the dump … */
  file?: string;
  /** … or the dump's text. */
  text?: string;
}

/** A real config dump against the generated config: resources only in one, or differing (core/xds/dumpDiff.ts). */
export type ProxyDumpDiffResult = {
  proxy: string;
  file?: string;
  /** `<type>/<name>` → the workspace lines behind the generated side of a difference. */
  sources: Record<string, ResolvedProvenance[]>;
} & DumpDiffResult;

// ---- the map ------------------------------------------------------------------------

/** Every query view: its arguments and its result. */
export interface QueryViews {
  workloads: { args: WorkloadsArgs; result: WorkloadsResult };
  services: { args: ServicesArgs; result: ServicesResult };
  /** One resource by key; null when the store has none with that key. */
  resource: { args: ResourceArgs; result: ResourceDetail | null };
  /** Certificate chains and Istio's verdicts (answered asynchronously). */
  certificates: { args: CertificatesArgs; result: CertificatesResult };
  /** Every proxy (sidecars, gateways, waypoints). */
  proxies: { args: ProxiesArgs; result: ProxiesResult };
  /** The config dump generated for one proxy, with provenance. */
  proxyConfig: { args: ProxyConfigArgs; result: ProxyConfigResult };
  /** One request through a proxy's generated config. */
  simulate: { args: SimulateArgs; result: SimulateResult };
  /** A real config dump compared with a proxy's generated config (answered asynchronously). */
  proxyDumpDiff: { args: ProxyDumpDiffArgs; result: ProxyDumpDiffResult };
  /** Ambient data plane: nodes, pods with their mode and why, waypoints, Services' bindings. */
  dataplane: { args: DataPlaneArgs; result: DataPlaneOverview };
  /** One ztunnel's `istioctl ztunnel-config` tables and the pods it captures. */
  ztunnelConfig: { args: ZtunnelConfigArgs; result: ZtunnelConfigResult };
  /** A request traced hop by hop. */
  dataplaneTrace: { args: DataPlaneTraceArgs; result: DataPlaneTraceResult };
  /** The workspace files that hold route tests. */
  routeTestFiles: { args: Record<string, never>; result: RouteTestFilesResult };
  /** A route-test file run against the generated config. */
  routeTests: { args: RouteTestsArgs; result: RouteTestsReport };
  /** `istioctl x describe pod` for one pod, each fact linked to its line; ztunnel's view of an ambient pod. */
  describe: { args: DescribeArgs; result: DescribeResult };
  /** The pods a resource selects (by key, or the resource at a file line). */
  describeTargets: { args: DescribeTargetsArgs; result: DescribeTargetsResult };
}

export type QueryView = keyof QueryViews;
export type QueryArgs<V extends QueryView> = QueryViews[V]['args'];
export type QueryResult<V extends QueryView> = QueryViews[V]['result'];

export const QUERY_VIEWS: readonly QueryView[] = [
  'workloads',
  'services',
  'resource',
  'certificates',
  'proxies',
  'proxyConfig',
  'simulate',
  'dataplane',
  'ztunnelConfig',
  'dataplaneTrace',
  'proxyDumpDiff',
  'routeTestFiles',
  'routeTests',
  'describe',
  'describeTargets',
];

/** Views answered asynchronously (the worker posts their result when it is ready). */
export const ASYNC_QUERY_VIEWS: readonly QueryView[] = ['certificates', 'proxyDumpDiff'];
