// What the data-plane simulation assumes about the installation and the cluster, and the
// user's temporary "what if" overrides. Everything has the ambient profile's default; the
// view lists what was assumed. Overrides never touch the user's files: they are applied to
// the simulation's reading of them.
import type { ClusterShapeSettings } from '../config/clusterShape.ts';
import type { CniSettings } from '../config/workloadState.ts';

/** A label change: a value sets the label, `null` removes it. */
export type LabelOverrides = Readonly<Record<string, string | null>>;

export interface WhatIfOverrides {
  /** Namespace name → label changes. */
  namespaceLabels?: Readonly<Record<string, LabelOverrides>>;
  /** `namespace/pod` → label changes (a pod of a controller: every pod of it changes). */
  podLabels?: Readonly<Record<string, LabelOverrides>>;
}

export interface AmbientSettings {
  /** Nodes to place pods on that name none. */
  cluster?: ClusterShapeSettings;
  /** istio-cni: excluded namespaces, whether ambient is enabled, and DNS capture. */
  cni?: CniSettings & { dnsCapture?: boolean };
  /** Waypoints (`ns/name`) to treat as not ready. */
  notReadyWaypoints?: readonly string[];
  /** `meshConfig.defaultConfig.proxyMetadata.ISTIO_META_ENABLE_HBONE` (ambient profile: true): injected sidecars get `networking.istio.io/tunnel=http`. */
  sidecarHbone?: boolean;
  /** `PILOT_AUTO_ALLOW_WAYPOINT_POLICY` (default false). */
  autoAllowWaypointPolicy?: boolean;
  /** Add each node's ztunnel pod to the workload tables (as `istioctl` shows them). */
  infrastructure?: boolean;
  overrides?: WhatIfOverrides;
}

export interface ResolvedSettings {
  nodes: readonly string[] | undefined;
  excludeNamespaces: readonly string[];
  ambientEnabled: boolean;
  dnsCapture: boolean;
  systemNamespace: string;
  notReadyWaypoints: readonly string[];
  sidecarHbone: boolean;
  autoAllowWaypointPolicy: boolean;
  infrastructure: boolean;
  overrides: WhatIfOverrides;
}

export function resolveSettings(s: AmbientSettings = {}): ResolvedSettings {
  const nodes = s.cluster?.nodes?.map((n) => n.trim()).filter((n) => n !== '');
  return {
    nodes: nodes && nodes.length > 0 ? nodes : undefined,
    excludeNamespaces: s.cni?.excludeNamespaces ?? ['kube-system'],
    ambientEnabled: s.cni?.ambientEnabled ?? true,
    dnsCapture: s.cni?.dnsCapture ?? true,
    systemNamespace: s.cni?.systemNamespace ?? 'istio-system',
    notReadyWaypoints: s.notReadyWaypoints ?? [],
    sidecarHbone: s.sidecarHbone ?? true,
    autoAllowWaypointPolicy: s.autoAllowWaypointPolicy ?? false,
    infrastructure: s.infrastructure ?? false,
    overrides: s.overrides ?? {},
  };
}

/** A stable text of the settings, for caching models per settings. */
export function settingsKey(s: ResolvedSettings): string {
  return JSON.stringify(s, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** Applies label overrides to a label map (a new prototype-less map; the input is untouched). */
export function withOverrides(labels: Readonly<Record<string, string>>, o: LabelOverrides | undefined): Readonly<Record<string, string>> {
  if (!o || Object.keys(o).length === 0) return labels;
  const out = Object.assign(Object.create(null) as Record<string, string>, labels);
  for (const [k, v] of Object.entries(o)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** What the simulation assumed, in sentences for the view and the CLI. */
export function describeAssumptions(s: ResolvedSettings): string[] {
  return [
    `Istio's ambient profile: istiod with ambient enabled, istio-cni with ambient ${s.ambientEnabled ? 'enabled' : 'DISABLED'}, DNS capture ${s.dnsCapture ? 'on' : 'off'}, and sidecars ${s.sidecarHbone ? 'with' : 'without'} HBONE (ISTIO_META_ENABLE_HBONE).`,
    `istio-cni excludeNamespaces: ${s.excludeNamespaces.length > 0 ? s.excludeNamespaces.join(', ') : '(none)'}.`,
    'Cluster ID Kubernetes, one network, cluster domain cluster.local; every ztunnel receives every Workload, Service and policy (no on-demand xDS).',
    `PILOT_AUTO_ALLOW_WAYPOINT_POLICY ${s.autoAllowWaypointPolicy ? 'on' : 'off'}; dry-run AuthorizationPolicies are not sent to ztunnel.`,
  ];
}
