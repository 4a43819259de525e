// The cluster as the data plane sees it: every pod (from the files, derived from controllers,
// in Kubernetes' own namespaces, and the waypoint pods istiod would deploy) with its node,
// IPs, how it joins the mesh and why (after the user's what-if overrides), the Services with
// their addresses, and the waypoints.
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import { EMPTY_STRING_MAP, isObj, str, type StringMap } from '../document/read.ts';
import type { ConfigView } from '../config/configView.ts';
import type { ResourceReader } from '../config/resourceReader.ts';
import { podSpec } from '../config/api/kube.ts';
import { podServiceAccount } from '../config/workloads.ts';
import { spiffeId } from '../config/identity.ts';
import { ambientEnrolled, type EnrollmentDecision, type WorkloadShape } from '../config/workloadState.ts';
import { injectorSettings } from '../config/injector.ts';
import { CONTROLLER_KINDS } from '../config/derivedWorkloads.ts';
import {
  clusterNodes,
  placePods,
  serviceAddresses,
  serviceEntryAddresses,
  type ClusterNode,
  type ServiceAddresses,
  type ServiceEntryHostAddresses,
} from '../config/clusterShape.ts';
import { recognizeWaypoints, waypointInfrastructure, workloadWaypoint, type BindingContext, type Waypoint, type WaypointBinding } from '../config/waypoints.ts';
import { assumedGatewayDeployments } from '../config/services.ts';
import { chainedSuffix } from '../config/fnv.ts';
import {
  AMBIENT_REDIRECTION_ANNOTATION,
  AMBIENT_REDIRECTION_ENABLED,
  CANONICAL_NAME_LABEL,
  CANONICAL_REVISION_LABEL,
  GATEWAY_NAME_LABEL,
  ISTIO_PROXY_CONTAINER,
  SIDECAR_STATUS_ANNOTATION,
  TLS_MODE_LABEL,
} from '../config/wellKnown.ts';
import { withOverrides, type ResolvedSettings } from './settings.ts';

export const TUNNEL_LABEL = 'networking.istio.io/tunnel';
export const BYPASS_INBOUND_ANNOTATION = 'ambient.istio.io/bypass-inbound-capture';
export const DNS_CAPTURE_ANNOTATION = 'ambient.istio.io/dns-capture';

export type PodRole = 'app' | 'waypoint' | 'gateway' | 'ztunnel';
export type PodOrigin = 'file' | 'derived' | 'waypoint' | 'placeholder' | 'system' | 'infrastructure';

export interface SimPod {
  /** `namespace/name`. */
  key: string;
  namespace: string;
  name: string;
  resource: Resource;
  origin: PodOrigin;
  /** Labels and annotations as the running pod has them (the injector's and istio-cni's marks included). */
  labels: StringMap;
  annotations: StringMap;
  node: string;
  nodeAssumed: boolean;
  ips: string[];
  ipAssumed: boolean;
  phase: string;
  ready: boolean;
  hostNetwork: boolean;
  /** running; pending (no IP yet: nothing to redirect, no Workload); terminated (Succeeded/Failed: removed from the mesh). */
  state: 'running' | 'pending' | 'terminated';
  serviceAccount: string;
  identity: string;
  enrollment: EnrollmentDecision;
  /**
   * The class shown to the user: the enrollment's mode, except that an ambient pod without an
   * IP yet is `pending` (NoPodIP) and a terminated one is removed from the mesh (`none`, Terminated).
   */
  mode: 'ambient' | 'sidecar' | 'none' | 'pending';
  /** Why the pod's state overrides its enrollment (Terminated, NoPodIP). */
  stateCode?: 'Terminated' | 'NoPodIP';
  role: PodRole;
  /** For a waypoint's pod: the waypoint (`ns/name`). */
  waypointOf?: string;
  /** The pod's workload waypoint binding (istiod's computeWaypoint). */
  waypoint: WaypointBinding;
  dnsCapture: boolean;
  bypassInboundCapture: boolean;
  /** A pasted pod whose istio-cni annotation disagrees with the recomputed class. */
  redirectionNote?: string;
  /** Container ports (named targetPorts resolve against them). */
  containerPorts: ReadonlyArray<{ name: string; port: number; protocol: string }>;
  /** True when a what-if override changed its labels or its namespace's. */
  overridden: boolean;
}

export interface SimService {
  key: string;
  namespace: string;
  name: string;
  resource: Resource;
  origin: 'file' | 'waypoint' | 'gateway' | 'system' | 'placeholder';
  addresses: ServiceAddresses;
}

export interface Cluster {
  settings: ResolvedSettings;
  nodes: ClusterNode[];
  pods: SimPod[];
  podsByKey: Map<string, SimPod>;
  services: SimService[];
  serviceEntryAddresses: Map<Resource, Map<string, ServiceEntryHostAddresses>>;
  waypoints: Map<string, Waypoint>;
  binding: BindingContext;
  /** A namespace's labels after the overrides (undefined when the Namespace is not in the files). */
  namespaceLabels(namespace: string): StringMap | undefined;
  /** Namespaces named anywhere (Namespace objects, pods, services). */
  namespaces: string[];
  /** The mesh's trust domain and root namespace. */
  trustDomain: string;
  rootNamespace: string;
  /** What the model assumed, per object (for the view). */
  notes: string[];
}

const INJECTED_LABELS = [TLS_MODE_LABEL, CANONICAL_NAME_LABEL, CANONICAL_REVISION_LABEL, TUNNEL_LABEL];

function derivedSidecar(pod: Resource): boolean {
  const status = pod.annotations[SIDECAR_STATUS_ANNOTATION];
  return status !== undefined && pod.synthetic === 'derived' && status.includes('"derived":true');
}

/** The controller a derived pod comes from, and its template's labels and annotations. */
function templateMetaOf(view: ResourceReader, pod: Resource): { labels: StringMap; annotations: StringMap } | undefined {
  const from = pod.derivedFrom;
  if (!from) return undefined;
  const c = CONTROLLER_KINDS.find((k) => k.kind.kind === from.kind);
  if (!c) return undefined;
  const controller = view.find(c.kind, from.namespace, from.name);
  if (!controller) return undefined;
  let cur: unknown = controller.body;
  for (const k of c.templatePath) cur = isObj(cur) ? cur[k] : undefined;
  const meta = isObj(cur) && isObj(cur.metadata) ? cur.metadata : {};
  const strings = (m: unknown): StringMap => (isObj(m) ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, str(v)])) : EMPTY_STRING_MAP);
  return { labels: strings(meta.labels), annotations: strings(meta.annotations) };
}

/** A pod's labels and annotations as it was submitted, before the injector and istio-cni marked it. */
function submitted(view: ResourceReader, pod: Resource): { labels: Record<string, string>; annotations: Record<string, string> } {
  const labels = Object.assign(Object.create(null) as Record<string, string>, pod.labels);
  const annotations = Object.assign(Object.create(null) as Record<string, string>, pod.annotations);
  // istio-cni's mark is an output, never an input.
  delete annotations[AMBIENT_REDIRECTION_ANNOTATION];
  if (derivedSidecar(pod)) {
    const template = templateMetaOf(view, pod);
    const templateLabels = template?.labels ?? EMPTY_STRING_MAP;
    // A template that was injected already (kube-inject output) keeps its own status: the
    // derivation only replaced it with its mark.
    const own = template?.annotations[SIDECAR_STATUS_ANNOTATION];
    if (own !== undefined) annotations[SIDECAR_STATUS_ANNOTATION] = own;
    else delete annotations[SIDECAR_STATUS_ANNOTATION];
    for (const l of INJECTED_LABELS) if (!Object.hasOwn(templateLabels, l)) delete labels[l];
  }
  return { labels, annotations };
}

function roleOf(pod: Resource, labels: StringMap, waypoints: ReadonlyMap<string, Waypoint>, systemNs: string): { role: PodRole; waypointOf?: string } {
  const gwName = labels[GATEWAY_NAME_LABEL];
  if (gwName) {
    const w = waypoints.get(`${pod.namespace}/${gwName}`);
    if (w?.waypointClass) return { role: 'waypoint', waypointOf: `${pod.namespace}/${gwName}` };
    return { role: 'gateway' };
  }
  if (pod.namespace === systemNs && labels.app === 'ztunnel') return { role: 'ztunnel' };
  const proxy = podSpec(pod).containers.find((c) => c.name === ISTIO_PROXY_CONTAINER);
  if (proxy && proxy.args[0] === 'proxy' && proxy.args[1] === 'waypoint') return { role: 'waypoint' };
  if (proxy && proxy.args[0] === 'proxy' && proxy.args[1] === 'router') return { role: 'gateway' };
  if (labels.istio === 'ingressgateway' || labels.istio === 'egressgateway' || pod.synthetic === 'placeholder') return { role: 'gateway' };
  return { role: 'app' };
}

function ztunnelPods(nodes: readonly ClusterNode[], systemNs: string): Resource[] {
  return nodes.map((n) => {
    const name = `ztunnel-${chainedSuffix(n.name, 5)}`;
    const labels = Object.assign(Object.create(null) as Record<string, string>, { app: 'ztunnel', 'sidecar.istio.io/inject': 'false' });
    return {
      key: `${KINDS.Pod.id}/${systemNs}/${name}`,
      kindId: KINDS.Pod.id,
      gvk: { group: '', version: 'v1', kind: 'Pod' },
      namespace: systemNs,
      name,
      labels,
      annotations: EMPTY_STRING_MAP,
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace: systemNs,
          generateName: 'ztunnel-',
          labels: { ...labels },
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ztunnel', controller: true }],
        },
        spec: { nodeName: n.name, serviceAccountName: 'ztunnel', containers: [{ name: 'istio-proxy', image: 'istio/ztunnel' }] },
      },
      synthetic: 'derived' as const,
      derivedFrom: { kind: 'DaemonSet', namespace: systemNs, name: 'ztunnel' },
    };
  });
}

/** Builds the cluster for one version of the mesh and one set of settings. */
export function buildCluster(view: ConfigView, settings: ResolvedSettings): Cluster {
  const notes: string[] = [];
  const trustDomain = view.meshConfig.trustDomain || 'cluster.local';
  const rootNamespace = view.meshConfig.rootNamespace || 'istio-system';
  const aside = (k: typeof KINDS.Pod) => view.setAside?.(k) ?? [];
  // Namespaces, with the overrides.
  const nsObjects = new Map<string, Resource>();
  for (const ns of [...view.list(KINDS.Namespace), ...aside(KINDS.Namespace)]) nsObjects.set(ns.name, ns);
  const nsOverrides = settings.overrides.namespaceLabels ?? {};
  const nsLabelCache = new Map<string, StringMap | undefined>();
  const namespaceLabels = (ns: string): StringMap | undefined => {
    if (nsLabelCache.has(ns)) return nsLabelCache.get(ns);
    const obj = nsObjects.get(ns);
    const o = nsOverrides[ns];
    const labels = obj ? withOverrides(obj.labels, o) : o ? withOverrides(EMPTY_STRING_MAP, o) : undefined;
    nsLabelCache.set(ns, labels);
    return labels;
  };
  const overlay: Pick<ResourceReader, 'find'> = {
    find: (kind, ns, name) => {
      if (kind !== KINDS.Namespace) return view.find(kind, ns, name);
      const labels = namespaceLabels(name);
      return labels === undefined ? undefined : ({ labels } as unknown as Resource);
    },
  };
  // Pods: the store's, those in Kubernetes' namespaces, and the waypoints' and gateways'
  // istiod would deploy (the gateways' are the ones the generated config shows).
  const storePods = view.list(KINDS.Pod);
  const systemPods = aside(KINDS.Pod);
  const infra = waypointInfrastructure(view, [...storePods, ...systemPods]);
  const gateways = assumedGatewayDeployments(view);
  const basePods = [...storePods, ...systemPods, ...infra.pods, ...gateways.pods];
  const nodes = clusterNodes(view, basePods, { nodes: settings.nodes });
  const allPods = settings.infrastructure ? [...basePods, ...ztunnelPods(nodes, settings.systemNamespace)] : basePods;
  const placement = placePods(allPods, nodes, { nodes: settings.nodes }, view.podCidr);
  // Services and their addresses; waypoints need the cluster IPs of their Services.
  const storeServices = view.list(KINDS.Service);
  const systemServices = aside(KINDS.Service);
  // The gateways' Services carry the cluster IP the generated config gives them.
  const addresses = serviceAddresses(view, [...systemServices, ...infra.services, ...gateways.serviceResources]);
  const services: SimService[] = [];
  const push = (r: Resource, origin: SimService['origin']) =>
    services.push({
      key: `${r.namespace}/${r.name}`,
      namespace: r.namespace,
      name: r.name,
      resource: r,
      origin,
      addresses: addresses.get(r) ?? { vips: [], headless: false, assumed: false },
    });
  for (const s of storeServices) push(s, s.synthetic === 'placeholder' ? 'placeholder' : 'file');
  for (const s of systemServices) push(s, 'system');
  for (const s of infra.services) push(s, 'waypoint');
  for (const s of gateways.serviceResources) push(s, 'gateway');
  const clusterIpOf = (ns: string, name: string) => services.find((s) => s.namespace === ns && s.name === name)?.addresses.vips[0];
  const waypoints = recognizeWaypoints(view, allPods, clusterIpOf, { notReady: settings.notReadyWaypoints });
  const binding: BindingContext = { waypoints, namespaceLabels };
  const injector = injectorSettings(view);
  const cni = { excludeNamespaces: settings.excludeNamespaces, ambientEnabled: settings.ambientEnabled, systemNamespace: settings.systemNamespace };
  const podOverrides = settings.overrides.podLabels ?? {};
  const pods: SimPod[] = [];
  const systemPodSet = new Set(systemPods);
  const infraPodSet = new Set(infra.pods);
  for (const pod of allPods) {
    const place = placement.get(pod)!;
    const sub = submitted(view, pod);
    const podOverride = podOverrides[`${pod.namespace}/${pod.name}`];
    const labels0 = withOverrides(sub.labels, podOverride);
    const overridden = podOverride !== undefined || nsOverrides[pod.namespace] !== undefined;
    const spec = podSpec(pod);
    // A derived pod is judged as its controller's template is (submitted() took off what the
    // derivation added); a pod from the files as written.
    const shape: WorkloadShape = {
      namespace: pod.namespace,
      labels: labels0,
      annotations: sub.annotations,
      containers: spec.containers,
      initContainers: spec.initContainers,
      hostNetwork: spec.hostNetwork,
      name: pod.name,
    };
    const enrollment = ambientEnrolled(overlay, shape, cni, injector);
    const labels = Object.assign(Object.create(null) as Record<string, string>, labels0);
    const annotations = Object.assign(Object.create(null) as Record<string, string>, sub.annotations);
    if (enrollment.mode === 'sidecar' && enrollment.injection.code !== 'AlreadyInjected') {
      // What the injector adds (injection-template.yaml): its status, the mTLS and canonical
      // labels, and with the ambient profile's HBONE the tunnel label.
      annotations[SIDECAR_STATUS_ANNOTATION] = JSON.stringify({ containers: [ISTIO_PROXY_CONTAINER], simulated: true });
      labels[TLS_MODE_LABEL] = 'istio';
      labels[CANONICAL_NAME_LABEL] ??= labels['app.kubernetes.io/name'] ?? labels.app ?? pod.name;
      labels[CANONICAL_REVISION_LABEL] ??= labels['app.kubernetes.io/version'] ?? labels.version ?? 'latest';
      if (settings.sidecarHbone) labels[TUNNEL_LABEL] = 'http';
    }
    const terminal = place.phase === 'Succeeded' || place.phase === 'Failed';
    const state: SimPod['state'] = terminal ? 'terminated' : place.ips.length === 0 ? 'pending' : 'running';
    if (enrollment.mode === 'ambient' && state === 'running') annotations[AMBIENT_REDIRECTION_ANNOTATION] = AMBIENT_REDIRECTION_ENABLED;
    let redirectionNote: string | undefined;
    const pasted = pod.annotations[AMBIENT_REDIRECTION_ANNOTATION];
    if (!pod.synthetic && pasted === AMBIENT_REDIRECTION_ENABLED && enrollment.mode !== 'ambient')
      redirectionNote = `The pod carries ${AMBIENT_REDIRECTION_ANNOTATION}=enabled, but its labels no longer select it: istio-cni would remove it from the mesh.`;
    else if (!pod.synthetic && pasted !== undefined && pasted !== AMBIENT_REDIRECTION_ENABLED)
      redirectionNote = `${AMBIENT_REDIRECTION_ANNOTATION}=${pasted} is istio-cni's output, not an input; it is ignored.`;
    const sa = podServiceAccount(pod);
    const { role, waypointOf } = roleOf(pod, labels, waypoints, settings.systemNamespace);
    const origin: PodOrigin =
      pod.synthetic === 'placeholder'
        ? 'placeholder'
        : infraPodSet.has(pod)
          ? 'waypoint'
          : systemPodSet.has(pod)
            ? 'system'
            : pod.derivedFrom?.kind === 'DaemonSet' && pod.derivedFrom.name === 'ztunnel' && pod.synthetic === 'derived' && role === 'ztunnel'
              ? 'infrastructure'
              : pod.synthetic === 'derived'
                ? 'derived'
                : 'file';
    const dnsAnn = annotations[DNS_CAPTURE_ANNOTATION];
    pods.push({
      key: `${pod.namespace}/${pod.name}`,
      namespace: pod.namespace,
      name: pod.name,
      resource: pod,
      origin,
      labels,
      annotations,
      node: place.node,
      nodeAssumed: place.nodeAssumed,
      ips: place.ips,
      ipAssumed: place.ipAssumed,
      phase: place.phase,
      ready: place.ready,
      hostNetwork: spec.hostNetwork,
      state,
      serviceAccount: sa,
      identity: spiffeId(trustDomain, pod.namespace, sa),
      enrollment,
      mode:
        enrollment.mode === 'ambient' && state === 'terminated' ? 'none' : enrollment.mode === 'ambient' && state === 'pending' ? 'pending' : enrollment.mode,
      ...(enrollment.mode === 'ambient' && state !== 'running' ? { stateCode: state === 'terminated' ? ('Terminated' as const) : ('NoPodIP' as const) } : {}),
      role,
      ...(waypointOf ? { waypointOf } : {}),
      waypoint: workloadWaypoint(binding, { namespace: pod.namespace, labels }),
      dnsCapture: dnsAnn === 'true' ? true : dnsAnn === 'false' ? false : settings.dnsCapture,
      bypassInboundCapture: annotations[BYPASS_INBOUND_ANNOTATION] === 'true',
      ...(redirectionNote ? { redirectionNote } : {}),
      containerPorts: [...spec.containers, ...spec.initContainers].flatMap((c) =>
        c.ports.map((p) => ({ name: p.name, port: p.containerPort, protocol: p.protocol || 'TCP' })),
      ),
      overridden,
    });
  }
  const podsByKey = new Map(pods.map((p) => [p.key, p]));
  const nsNames = new Set<string>(nsObjects.keys());
  for (const p of pods) nsNames.add(p.namespace);
  for (const s of services) nsNames.add(s.namespace);
  if (nodes.every((n) => n.source === 'assumed'))
    notes.push(`No node is named by a Node object or a pod: assumed nodes ${nodes.map((n) => n.name).join(', ')}.`);
  const placed = pods.filter((p) => p.nodeAssumed).length;
  if (placed > 0)
    notes.push(`${placed} pod(s) name no node: spread round-robin over ${[...new Set(pods.filter((p) => p.nodeAssumed).map((p) => p.node))].join(', ')}.`);
  const ipd = pods.filter((p) => p.ipAssumed).length;
  if (ipd > 0) notes.push(`${ipd} pod(s) have no status: taken as running and ready, with IPs from their node's range (10.244.<node>.0/24).`);
  const vips = services.filter((s) => s.addresses.assumed).length;
  if (vips > 0) notes.push(`${vips} Service(s) name no clusterIP: allocated from 10.96.0.0/16.`);
  if (infra.pods.length + infra.services.length > 0)
    notes.push(
      `Waypoint objects istiod's deployment controller would create and the files do not hold: ${[...infra.services.map((s) => `Service ${s.namespace}/${s.name}`), ...infra.pods.map((p) => `Pod ${p.namespace}/${p.name}`)].join(', ')}.`,
    );
  for (const w of waypoints.values()) {
    if (w.addressAssumed)
      notes.push(
        `Gateway ${w.namespace}/${w.name} has no status: assumed ready, with the addresses istiod writes (${w.address.hostname?.hostname ?? w.address.ip}).`,
      );
    if (!w.waypointClass)
      notes.push(
        `Gateway ${w.namespace}/${w.name} (class ${w.className}) has a status address, so istiod would bind to it if asked, but its class does not deploy an HBONE waypoint: traffic sent to it would fail.`,
      );
  }
  return {
    settings,
    nodes,
    pods,
    podsByKey,
    services,
    serviceEntryAddresses: serviceEntryAddresses(view),
    waypoints,
    binding,
    namespaceLabels,
    namespaces: [...nsNames].sort(),
    trustDomain,
    rootNamespace,
    notes,
  };
}
