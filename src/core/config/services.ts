// The service registry as istiod builds it: every Kubernetes Service and every host of a
// ServiceEntry (one per host × address) becomes a service with a hostname, ports, addresses,
// resolution, visibility (exportTo) and the endpoints of the workloads behind it (pods, real or
// derived, EndpointSlices, WorkloadEntries and inline ServiceEntry endpoints).
//
// pilot/pkg/serviceregistry/kube/conversion.go (ConvertService) and
// pilot/pkg/serviceregistry/serviceentry/conversion.go (convertServices, endpoints).
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import { isObj, str, arr } from '../document/read.ts';
import type { ConfigView } from './configView.ts';
import { serviceSpec } from './api/kube.ts';
import { serviceEntry, serviceEntryStatus, workloadEntry, type WorkloadEntrySpec } from './api/networking.ts';
import { kubePortProtocol, parseProtocol, type IstioProtocol } from './protocol.ts';
import { podsSelectedBy, podIp, podContainers, podServiceAccount, podIndex, podAddress, podShape } from './workloads.ts';
import { managedGatewayInfrastructure } from './waypoints.ts';
import { sidecarInjected } from './workloadState.ts';
import { selectorMatches, type LabelMap } from './labels.ts';
import { EXPORT_TO_ALL, EXPORT_TO_LOCAL } from './hosts.ts';
import { spiffeId } from './identity.ts';
import { goParseIP } from './addresses.ts';
import { podSpec, podStatus } from './api/kube.ts';
import { nodeLocality } from './locality.ts';
import { CANONICAL_NAME_LABEL, CANONICAL_REVISION_LABEL, EXPORT_TO_ANNOTATION, TLS_MODE_LABEL, TOPOLOGY_NETWORK_LABEL } from './wellKnown.ts';
import { fnv32a } from './fnv.ts';
import { addressRange, AddressRing, type AddressRange } from './addressRing.ts';
import { DEFAULT_POD_RANGE } from './derivedWorkloads.ts';
import { listAt, mapAt } from '../document/maps.ts';

/** The cluster's DNS domain (istiod's --domain); Istio's default. */
export const DOMAIN_SUFFIX = 'cluster.local';
/** istiod's cluster ID when none is configured (the Kubernetes registry of the config cluster). */
export const DEFAULT_CLUSTER_ID = 'Kubernetes';
/** Istio's constants.UnspecifiedIP: a service without an address. */
export const UNSPECIFIED_IP = '0.0.0.0';

export interface ServicePortInfo {
  name: string;
  port: number;
  protocol: IstioProtocol;
  /** Where traffic goes on the workload: a number, or a container port name to look up. */
  targetPort: number | string;
}

/**
 * Istio's endpoint health (model.HealthStatus). UNKNOWN is its zero value, which ServiceEntry
 * endpoints and WorkloadEntries keep (serviceentry/conversion.go never sets HealthStatus), so
 * Envoy's health_status is left out for them.
 */
export type EndpointHealth = 'HEALTHY' | 'UNHEALTHY' | 'DRAINING' | 'TERMINATING' | 'UNKNOWN';

export interface Endpoint {
  address: string;
  /** Service port name → port on the workload. */
  ports: Readonly<Record<string, number>>;
  labels: LabelMap;
  /** The Pod or WorkloadEntry (undefined for a ServiceEntry's inline endpoint). */
  workload: Resource | undefined;
  serviceAccount: string;
  identity: string;
  network: string;
  locality: string;
  /** `security.istio.io/tlsMode` of the workload: `istio` when it has a sidecar, else `disabled`. */
  tlsMode: string;
  /** Istio's workload name (the Deployment of a pod, the WorkloadEntry, the ServiceEntry). */
  workloadName: string;
  namespace: string;
  health: EndpointHealth;
  /** Load-balancing weight (0 = unset, Envoy's 1). */
  weight: number;
  nodeName: string;
}

/** Istio's model.Resolution. */
export type Resolution = 'ClientSideLB' | 'DNS' | 'DNSRoundRobin' | 'Passthrough' | 'Alias' | 'DynamicDNS';

export interface MeshService {
  hostname: string;
  namespace: string;
  /** Istio's Attributes.Name: the Service's name, or the ServiceEntry host. */
  name: string;
  /** The Service or ServiceEntry that defines it. */
  resource: Resource;
  /** Which registry it comes from (Istio's provider.ID). */
  registry: 'Kubernetes' | 'External';
  ports: readonly ServicePortInfo[];
  /** Namespaces that may see it: `*` (all), or names (`.` already replaced by its namespace). */
  exportTo: readonly string[];
  /** ClusterIP / ServiceEntry addresses as written ('None' for a headless Service). */
  addresses: readonly string[];
  /** Istio's DefaultAddress: the VIP, or 0.0.0.0 when the service has none. */
  defaultAddress: string;
  /** Istio's ClusterVIPs: the Kubernetes cluster IPs by cluster ID (empty for ServiceEntries). */
  clusterVips: Readonly<Record<string, readonly string[]>>;
  /** VIPs allocated by istiod's IP auto-allocation (ServiceEntry `status.addresses`). */
  autoAllocatedV4?: string;
  autoAllocatedV6?: string;
  resolution: Resolution;
  meshExternal: boolean;
  /** For a Kubernetes ExternalName Service: the host it aliases. */
  externalName?: string;
  labels: LabelMap;
  /** The Service selector / ServiceEntry workloadSelector (undefined when none). */
  labelSelectors?: LabelMap;
  /** Identities written on the service (ServiceEntry subjectAltNames, canonical service accounts). */
  serviceAccounts: readonly string[];
  /** ServiceEntry targetPort per port number, for resolution NONE. */
  passthroughTargetPorts?: Readonly<Record<number, number>>;
  /** metadata.creationTimestamp in ms (0 when absent); Istio orders services by it. */
  creationTime: number;
  endpoints: readonly Endpoint[];
}

/** A resource's creation time (ms since the epoch), 0 when it has none. */
export function creationTime(r: Resource): number {
  const meta = isObj(r.body.metadata) ? r.body.metadata : undefined;
  const ts = meta ? str(meta.creationTimestamp) : '';
  if (ts === '') return 0;
  const t = Date.parse(ts);
  return Number.isFinite(t) ? t : 0;
}

function exportToOf(raw: readonly string[], namespace: string, meshDefault: readonly string[]): string[] {
  const list = raw.length > 0 ? raw : meshDefault;
  if (list.length === 0) return [EXPORT_TO_ALL];
  return [...new Set(list.map((e) => (e === EXPORT_TO_LOCAL ? namespace : e)))];
}

function meshDefaultExportTo(view: ConfigView): string[] {
  const v = view.meshConfig.defaultServiceExportTo;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The workload port a Service port reaches on a pod: numeric targetPort, named container port, or the port itself. */
function podTargetPort(pod: Resource, port: ServicePortInfo): number | undefined {
  if (typeof port.targetPort === 'number') return port.targetPort || port.port;
  if (port.targetPort === '') return port.port;
  for (const c of podContainers(pod)) for (const p of c.ports) if (p.name === port.targetPort) return p.containerPort;
  return undefined;
}

/**
 * The pod's workload name, as Istio's GetWorkloadMetaFromPod gives it (pkg/kube/util.go): the
 * `service.istio.io/workload-name` label, else GetDeployMetaFromPod: the pod's own name unless
 * the name was generated (`generateName`) and a controller owns the pod; then the controller's
 * name, less the `-<pod-template-hash>` of a ReplicaSet (or Argo Rollouts' hash), a
 * DeploymentConfig's name for an OpenShift ReplicationController, or a CronJob's name for a Job
 * named `<cronjob>-<8 to 10 digits>`. xDS endpoint metadata and ztunnel's workloads use it.
 */
export function podWorkloadName(pod: Resource, labels: Readonly<Record<string, string>> = pod.labels): string {
  if (Object.hasOwn(labels, 'service.istio.io/workload-name')) return labels['service.istio.io/workload-name'] as string;
  const meta = isObj(pod.body.metadata) ? pod.body.metadata : {};
  if (str(meta.generateName) === '') return pod.name;
  const controller = arr(meta.ownerReferences)
    .filter(isObj)
    .find((r) => r.controller === true);
  if (!controller) return pod.name;
  const kind = str(controller.kind);
  const name = str(controller.name);
  // strings.HasSuffix(name, hash), then strings.TrimSuffix(name, "-"+hash): a name ending in the
  // hash without the dash is kept whole.
  const trim = (suffix: string) => (name.endsWith(`-${suffix}`) ? name.slice(0, name.length - suffix.length - 1) : name);
  const hash = labels['pod-template-hash'];
  if (kind === 'ReplicaSet' && hash && name.endsWith(hash)) return trim(hash);
  const rollout = labels['rollouts-pod-template-hash'];
  if (kind === 'ReplicaSet' && rollout && name.endsWith(rollout)) return trim(rollout);
  if (kind === 'ReplicationController' && labels.deploymentconfig) return labels.deploymentconfig;
  if (kind === 'Job') {
    const m = /^(.+)-\d{8,10}$/.exec(name);
    if (m) return m[1] as string;
  }
  return name || pod.name;
}

/** Istio's kube.CanonicalService: the canonical name and revision of a workload's labels. */
export function canonicalService(labels: LabelMap, workloadName: string): { name: string; revision: string } {
  const name = labels[CANONICAL_NAME_LABEL] || labels['app.kubernetes.io/name'] || labels.app || workloadName;
  const revision = labels[CANONICAL_REVISION_LABEL] || labels['app.kubernetes.io/version'] || labels.version || 'latest';
  return { name, revision };
}

function podHealth(pod: Resource): EndpointHealth {
  const meta = isObj(pod.body.metadata) ? pod.body.metadata : {};
  if (str(meta.deletionTimestamp) !== '') return 'TERMINATING';
  const status = podStatus(pod);
  if (status.phase === 'Failed' || status.phase === 'Succeeded') return 'UNHEALTHY';
  const conditions = arr(status.conditions).filter(isObj);
  const ready = conditions.find((c) => c.type === 'Ready');
  if (ready && str(ready.status) === 'False') return 'UNHEALTHY';
  return 'HEALTHY';
}

function podEndpoint(view: ConfigView, pod: Resource, ports: readonly ServicePortInfo[], address = podAddress(view, pod)): Endpoint {
  const mapped: Record<string, number> = {};
  for (const p of ports) {
    const target = podTargetPort(pod, p);
    if (target !== undefined) mapped[p.name] = target;
  }
  const sa = podServiceAccount(pod);
  const nodeName = podSpec(pod).nodeName;
  return {
    address,
    ports: mapped,
    labels: pod.labels,
    workload: pod,
    serviceAccount: sa,
    identity: spiffeId(view.meshConfig.trustDomain, pod.namespace, sa),
    network: pod.labels[TOPOLOGY_NETWORK_LABEL] ?? '',
    locality: nodeLocality(view, nodeName),
    // The injector labels the pods it injects `security.istio.io/tlsMode: istio`.
    tlsMode: pod.labels[TLS_MODE_LABEL] ?? (sidecarInjected(view, podShape(pod)).inject ? 'istio' : 'disabled'),
    workloadName: podWorkloadName(pod),
    namespace: pod.namespace,
    health: podHealth(pod),
    weight: 0,
    nodeName,
  };
}

/** The pods of the workspace by IP (first pod wins), for EndpointSlice addresses. */
function podsByIp(view: ConfigView): ReadonlyMap<string, Resource> {
  return view.lookups.cached('config.podsByIp', () => {
    const m = new Map<string, Resource>();
    for (const p of podIndex(view).all) {
      const ip = podIp(p);
      if (ip !== '' && !m.has(ip)) m.set(ip, p);
    }
    return m;
  });
}

/** EndpointSlices by `namespace/service-name` (their `kubernetes.io/service-name` label). */
function endpointSlicesByService(view: ConfigView): ReadonlyMap<string, readonly Resource[]> {
  return view.lookups.cached('config.endpointSlicesByService', () => {
    const m = new Map<string, Resource[]>();
    for (const s of view.list(KINDS.EndpointSlice)) {
      const svc = s.labels['kubernetes.io/service-name'];
      if (!svc) continue;
      const key = `${s.namespace}/${svc}`;
      listAt(m, key).push(s);
    }
    return m;
  });
}

/** Endpoints of a Service from its EndpointSlices: each address, with the pod that has it when known. */
function sliceEndpoints(view: ConfigView, slices: readonly Resource[], ports: readonly ServicePortInfo[]): Endpoint[] {
  const out: Endpoint[] = [];
  const byIp = podsByIp(view);
  for (const slice of slices) {
    const slicePorts = arr(slice.body.ports).filter(isObj);
    const mapped: Record<string, number> = {};
    for (const p of ports) {
      const sp = slicePorts.find((x) => str(x.name) === p.name);
      if (sp && typeof sp.port === 'number') mapped[p.name] = sp.port;
    }
    for (const e of arr(slice.body.endpoints).filter(isObj)) {
      const conditions = isObj(e.conditions) ? e.conditions : {};
      const health: EndpointHealth = conditions.terminating === true ? 'TERMINATING' : conditions.ready === false ? 'UNHEALTHY' : 'HEALTHY';
      for (const address of arr(e.addresses)
        .map(str)
        .filter((a) => a !== '')) {
        const pod = byIp.get(address);
        if (pod) {
          out.push({ ...podEndpoint(view, pod, ports, address), ports: mapped, health });
          continue;
        }
        out.push({
          address,
          ports: mapped,
          labels: {},
          workload: undefined,
          serviceAccount: '',
          identity: '',
          network: '',
          locality: '',
          tlsMode: 'disabled',
          workloadName: '',
          namespace: slice.namespace,
          health,
          weight: 0,
          nodeName: str(e.nodeName),
        });
      }
    }
  }
  return out;
}

function kubeServices(view: ConfigView): MeshService[] {
  const meshDefault = meshDefaultExportTo(view);
  const slices = endpointSlicesByService(view);
  return view.list(KINDS.Service).map((svc) => kubeService(view, svc, meshDefault, slices, (selector) => podsSelectedBy(view, selector, svc.namespace)));
}

/**
 * Registry entries for Services the cluster would have and the files do not (what istiod's
 * deployment controller creates for a Gateway), with endpoints from the given pods.
 */
export function assumedKubeServices(view: ConfigView, services: readonly Resource[], pods: readonly Resource[]): MeshService[] {
  const meshDefault = meshDefaultExportTo(view);
  const slices = endpointSlicesByService(view);
  return services.map((svc) =>
    kubeService(view, svc, meshDefault, slices, (selector) => pods.filter((p) => p.namespace === svc.namespace && selectorMatches(selector, p.labels))),
  );
}

function kubeService(
  view: ConfigView,
  svc: Resource,
  meshDefault: ReturnType<typeof meshDefaultExportTo>,
  slices: ReturnType<typeof endpointSlicesByService>,
  selectPods: (selector: LabelMap) => readonly Resource[],
): MeshService {
  const spec = serviceSpec(svc);
  const ports: ServicePortInfo[] = spec.ports.map((p) => ({
    name: p.name,
    port: p.port,
    protocol: kubePortProtocol(p.port, p.name, p.protocol || 'TCP', p.appProtocol),
    targetPort: p.targetPort ?? p.port,
  }));
  const annotation = svc.annotations[EXPORT_TO_ANNOTATION];
  const raw =
    annotation === undefined
      ? []
      : annotation
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
  const externalName = spec.type === 'ExternalName' && spec.externalName !== '' ? spec.externalName : '';
  const headless = spec.clusterIP === 'None';
  let addrs = [UNSPECIFIED_IP];
  if (!headless && spec.clusterIP !== '') addrs = spec.clusterIPs.length > 1 ? [...spec.clusterIPs] : [spec.clusterIP];
  let resolution: Resolution = externalName !== '' ? 'Alias' : 'ClientSideLB';
  if (headless) resolution = 'Passthrough';
  const hasSelector = Object.keys(spec.selector).length > 0;
  const ownSlices = slices.get(`${svc.namespace}/${svc.name}`);
  let endpoints: Endpoint[];
  if (externalName !== '') endpoints = [];
  else if (ownSlices && ownSlices.length > 0) endpoints = sliceEndpoints(view, ownSlices, ports);
  // Kubernetes gives a Service without a selector no endpoints of its own (they come from EndpointSlices).
  else endpoints = hasSelector ? selectPods(spec.selector).map((p) => podEndpoint(view, p, ports)) : [];
  return {
    hostname: `${svc.name}.${svc.namespace}.svc.${DOMAIN_SUFFIX}`,
    namespace: svc.namespace,
    name: svc.name,
    resource: svc,
    registry: 'Kubernetes',
    ports,
    exportTo: exportToOf(raw, svc.namespace, meshDefault),
    addresses: spec.clusterIP ? [spec.clusterIP] : [],
    defaultAddress: addrs[0] as string,
    clusterVips: { [DEFAULT_CLUSTER_ID]: addrs },
    resolution,
    meshExternal: externalName !== '',
    ...(externalName !== '' ? { externalName } : {}),
    labels: svc.labels,
    ...(hasSelector ? { labelSelectors: spec.selector } : {}),
    serviceAccounts: serviceAccountsOf(view, svc),
    creationTime: creationTime(svc),
    endpoints,
  };
}

/** The canonical and Kubernetes service accounts a Service declares in Istio's alpha annotations. */
function serviceAccountsOf(view: ConfigView, svc: Resource): string[] {
  const out: string[] = [];
  const canonical = svc.annotations['alpha.istio.io/canonical-serviceaccounts'];
  if (canonical) out.push(...canonical.split(','));
  const kube = svc.annotations['alpha.istio.io/kubernetes-serviceaccounts'];
  if (kube) for (const sa of kube.split(',')) out.push(spiffeId(view.meshConfig.trustDomain, svc.namespace, sa));
  return out;
}

const RESOLUTIONS: Readonly<Record<string, Resolution>> = {
  NONE: 'Passthrough',
  STATIC: 'ClientSideLB',
  DNS: 'DNS',
  DNS_ROUND_ROBIN: 'DNSRoundRobin',
  DYNAMIC_DNS: 'DynamicDNS',
};

function entryEndpoint(
  view: ConfigView,
  namespace: string,
  name: string,
  we: WorkloadEntrySpec,
  ports: readonly ServicePortInfo[],
  workload: Resource | undefined,
): Endpoint {
  const mapped: Record<string, number> = {};
  for (const p of ports) {
    const override = we.ports[p.name];
    mapped[p.name] = override && override > 0 ? override : typeof p.targetPort === 'number' && p.targetPort ? p.targetPort : p.port;
  }
  const sa = we.serviceAccount;
  const labels = workload ? { ...workload.labels, ...we.labels } : we.labels;
  return {
    address: we.address,
    ports: mapped,
    labels,
    workload,
    serviceAccount: sa || 'default',
    // convertWorkloadEntryToServiceInstances: a SPIFFE identity only when a service account is
    // written (serviceentry/conversion.go), so no subject alt name is expected of the others.
    identity: sa ? spiffeId(view.meshConfig.trustDomain, namespace, sa) : '',
    network: we.network,
    locality: we.locality,
    // getTLSModeFromWorkloadEntry: the label, else istio when a service account is set.
    tlsMode: labels[TLS_MODE_LABEL] ?? (sa !== '' ? 'istio' : 'disabled'),
    workloadName: name,
    namespace,
    health: 'UNKNOWN',
    weight: we.weight,
    nodeName: '',
  };
}

function isIpOrCidr(a: string): { ip: string } | undefined {
  if (goParseIP(a)) return { ip: a };
  const slash = a.indexOf('/');
  if (slash < 0) return undefined;
  const ip = a.slice(0, slash);
  const bits = a.slice(slash + 1);
  if (!goParseIP(ip) || !/^\d+$/.test(bits)) return undefined;
  const full = ip.includes(':') ? 128 : 32;
  const n = Number(bits);
  if (n > full) return undefined;
  // A /32 (/128) prefix is turned into the plain address.
  return { ip: n === full ? ip : a };
}

function serviceEntries(view: ConfigView): MeshService[] {
  const out: MeshService[] = [];
  const meshDefault = meshDefaultExportTo(view);
  for (const se of view.list(KINDS.ServiceEntry)) {
    const spec = serviceEntry(se);
    const ports: ServicePortInfo[] = spec.ports.map((p) => ({
      name: p.name,
      port: p.number,
      protocol: parseProtocol(p.protocol),
      targetPort: p.targetPort || p.number,
    }));
    const resolution = RESOLUTIONS[spec.resolution] ?? 'Passthrough';
    let passthroughTargetPorts: Record<number, number> | undefined;
    if (resolution === 'Passthrough') {
      for (const p of spec.ports) {
        if (p.targetPort) (passthroughTargetPorts ??= {})[p.number] = p.targetPort;
      }
    }
    const selector = spec.workloadSelector?.labels;
    const dnsType = resolution === 'DNS' || resolution === 'DNSRoundRobin';
    const endpointsFor = (hostname: string): Endpoint[] => {
      if (selector !== undefined) {
        // A workload selector picks the pods and WorkloadEntries of the ServiceEntry's namespace.
        return [
          ...podsSelectedBy(view, selector, se.namespace).map((p) => podEndpoint(view, p, ports)),
          ...workloadEntriesSelectedBy(view, selector, se.namespace).map((we) => entryEndpoint(view, se.namespace, we.name, workloadEntry(we), ports, we)),
        ];
      }
      if (spec.endpoints.length === 0 && dnsType) {
        // A DNS ServiceEntry without endpoints resolves its own host name.
        const mapped: Record<string, number> = {};
        for (const p of ports) mapped[p.name] = typeof p.targetPort === 'number' && p.targetPort ? p.targetPort : p.port;
        return [
          {
            address: hostname,
            ports: mapped,
            labels: {},
            workload: undefined,
            serviceAccount: '',
            identity: '',
            network: '',
            locality: '',
            tlsMode: 'disabled',
            workloadName: se.name,
            namespace: se.namespace,
            health: 'UNKNOWN',
            weight: 0,
            nodeName: '',
          },
        ];
      }
      return spec.endpoints.map((e, i) => entryEndpoint(view, se.namespace, `${se.name}-${i}`, e, ports, undefined));
    };
    // IP auto-allocation (status.addresses), only for ServiceEntries without addresses and not resolution NONE.
    const auto = new Map<string, { v4?: string; v6?: string }>();
    const optOut = (se.labels['networking.istio.io/enable-autoallocate-ip'] ?? '').toLowerCase() === 'false';
    if (spec.addresses.length === 0 && resolution !== 'Passthrough' && !optOut) {
      for (const a of serviceEntryStatus(se).addresses) {
        if (!goParseIP(a.value)) continue;
        const cur = auto.get(a.host) ?? {};
        if (a.value.includes(':')) cur.v6 = a.value;
        else cur.v4 = a.value;
        auto.set(a.host, cur);
      }
    }
    const common = {
      namespace: se.namespace,
      resource: se,
      registry: 'External' as const,
      ports,
      exportTo: exportToOf(spec.exportTo, se.namespace, meshDefault),
      clusterVips: {},
      resolution,
      meshExternal: spec.location !== 'MESH_INTERNAL',
      labels: se.labels,
      ...(selector !== undefined ? { labelSelectors: selector } : {}),
      serviceAccounts: spec.subjectAltNames,
      ...(passthroughTargetPorts ? { passthroughTargetPorts } : {}),
      creationTime: creationTime(se),
    };
    for (const host of spec.hosts) {
      const endpoints = endpointsFor(host);
      if (spec.addresses.length > 0) {
        // One service per (host, address): N addresses give N services that differ only in address.
        for (const a of spec.addresses) {
          const parsed = isIpOrCidr(a);
          if (!parsed) continue;
          out.push({ ...common, hostname: host, name: host, addresses: spec.addresses, defaultAddress: parsed.ip, endpoints });
        }
      } else {
        const aa = auto.get(host);
        out.push({
          ...common,
          hostname: host,
          name: host,
          addresses: [],
          defaultAddress: UNSPECIFIED_IP,
          ...(aa?.v4 ? { autoAllocatedV4: aa.v4 } : {}),
          ...(aa?.v6 ? { autoAllocatedV6: aa.v6 } : {}),
          endpoints,
        });
      }
    }
  }
  return out;
}

/** A WorkloadEntry with the labels a selector sees: its metadata's, overridden by its spec's. */
interface LabelledEntry {
  entry: Resource;
  labels: LabelMap;
}

/**
 * WorkloadEntries by namespace, and by namespace and one label pair, in load order: a
 * ServiceEntry's selector is tested against the entries holding its rarest pair only, not
 * against every entry of the mesh (a mesh of VMs has thousands of each).
 */
function workloadEntryIndex(view: ConfigView): { byNamespace: Map<string, LabelledEntry[]>; byPair: Map<string, Map<string, Map<string, LabelledEntry[]>>> } {
  return view.lookups.cached('config.workloadEntryIndex', (store) => {
    const byNamespace = new Map<string, LabelledEntry[]>();
    const byPair = new Map<string, Map<string, Map<string, LabelledEntry[]>>>();
    for (const we of store.list(KINDS.WorkloadEntry)) {
      const e: LabelledEntry = { entry: we, labels: { ...we.labels, ...workloadEntry(we).labels } };
      listAt(byNamespace, we.namespace).push(e);
      const pairs = mapAt(byPair, we.namespace);
      for (const k of Object.keys(e.labels)) listAt(mapAt(pairs, k), e.labels[k] as string).push(e);
    }
    return { byNamespace, byPair };
  });
}

function workloadEntriesSelectedBy(view: ConfigView, selector: LabelMap, namespace: string): Resource[] {
  const index = workloadEntryIndex(view);
  let candidates: readonly LabelledEntry[] = index.byNamespace.get(namespace) ?? [];
  const pairs = index.byPair.get(namespace);
  for (const k of Object.keys(selector)) {
    const l = pairs?.get(k)?.get(selector[k] as string);
    if (!l) return [];
    if (l.length < candidates.length) candidates = l;
  }
  const out: Resource[] = [];
  for (const e of candidates) if (selectorMatches(selector, e.labels)) out.push(e.entry);
  return out;
}

/** Every service of the mesh: Kubernetes Services first, then ServiceEntry hosts, in load order. */
export function meshServices(view: ConfigView): readonly MeshService[] {
  return view.lookups.cached('config.meshServices', () => [...kubeServices(view), ...serviceEntries(view)]);
}

/**
 * Where assumed cluster IPs come from: Kubernetes' default Service range (10.96.0.0/12), first
 * probes in its first /16 (see addressRing.ts). One allocator serves every view of the mesh
 * (xDS, the ambient data plane), so a Service written without a clusterIP has the same address
 * in all of them.
 */
export const ASSUMED_VIP_RANGE: AddressRange = addressRange('10.96.0.0/12');

/** The /16 of ASSUMED_VIP_RANGE that first probes land in (every address until it is full). */
export const ASSUMED_VIP_PREFIX = '10.96';

/** The cluster IPs written on a Service (`clusterIPs`, else `clusterIP`), blanks left out. */
export function writtenClusterIps(service: Resource): string[] {
  const spec = serviceSpec(service);
  return (spec.clusterIPs.length > 0 ? spec.clusterIPs : [spec.clusterIP]).filter((ip) => ip !== '');
}

/** True when the API server would give the Service a cluster IP and the file names none. */
export function needsAssumedClusterIp(service: Resource): boolean {
  return serviceSpec(service).type !== 'ExternalName' && writtenClusterIps(service).length === 0;
}

/**
 * Gives each of `services` (in order) an address from ASSUMED_VIP_RANGE picked by a hash of its
 * namespace and name, stepping past addresses in `taken` (which it extends).
 */
export function allocateClusterIps(services: readonly Resource[], taken: Set<string>, into: Map<Resource, string>): void {
  if (services.length === 0) return;
  const ring = new AddressRing(ASSUMED_VIP_RANGE);
  for (const ip of taken) ring.reserveAddress(ip);
  for (const s of services) {
    const ip = ring.take(fnv32a(`${s.namespace}/${s.name}`));
    if (ip === '') continue;
    taken.add(ip);
    into.set(s, ip);
  }
}

/**
 * The cluster IP the API server would allocate to each Service of the workspace written
 * without one (not headless, not ExternalName), clear of every written address (the set-aside
 * Services of Kubernetes' namespaces included). The registry itself keeps what is written
 * (`0.0.0.0`); views that model a running cluster (xDS, the ambient data plane) apply these.
 */
export function assumedServiceIps(view: ConfigView): ReadonlyMap<Resource, string> {
  return view.lookups.cached('config.assumedServiceIps', () => {
    const services = view.list(KINDS.Service);
    const taken = new Set<string>();
    for (const s of [...services, ...(view.setAside?.(KINDS.Service) ?? [])]) for (const ip of writtenClusterIps(s)) if (ip !== 'None') taken.add(ip);
    const out = new Map<Resource, string>();
    allocateClusterIps(services.filter(needsAssumedClusterIp), taken, out);
    return out;
  });
}

/** assumedServiceIps by registry hostname, for the Kubernetes services of the mesh. */
export function assumedClusterIps(view: ConfigView): ReadonlyMap<string, string> {
  return view.lookups.cached('config.assumedClusterIps', () => {
    const byResource = assumedServiceIps(view);
    const out = new Map<string, string>();
    for (const s of meshServices(view)) {
      if (s.registry !== 'Kubernetes') continue;
      const ip = byResource.get(s.resource);
      if (ip !== undefined) out.set(s.hostname, ip);
    }
    return out;
  });
}

/**
 * The gateways istiod's deployment controller would run for the workspace's Kubernetes
 * Gateways whose Service or pods the files do not hold (config/waypoints.ts
 * managedGatewayInfrastructure): their Services as registry entries, with an assumed cluster
 * IP, and their pods, with addresses clear of every pod's. The generated config, the proxy
 * list and the ambient data plane use them; the analyzers do not (istioctl does not see them
 * either). `serviceResources` are the Services as objects, their assumed cluster IP written in.
 */
export function assumedGatewayDeployments(view: ConfigView): {
  services: readonly MeshService[];
  serviceResources: readonly Resource[];
  pods: readonly Resource[];
} {
  return view.lookups.cached('config.assumedGatewayDeployments', () => {
    if (view.list(KINDS.KubernetesGateway).length === 0) return { services: [], serviceResources: [], pods: [] };
    const all = podIndex(view).all;
    const podRing = new AddressRing(view.podCidr ?? DEFAULT_POD_RANGE);
    for (const p of all) podRing.reserveAddress(podAddress(view, p));
    const infra = managedGatewayInfrastructure(view, all, podRing);
    // Their cluster IPs come after every Service of the files, from the same range.
    const assumed = assumedServiceIps(view);
    const takenVips = new Set<string>(assumed.values());
    for (const s of view.list(KINDS.Service)) for (const ip of writtenClusterIps(s)) takenVips.add(ip);
    const vips = new Map<Resource, string>();
    allocateClusterIps(infra.services, takenVips, vips);
    for (const [svc, ip] of vips) if (isObj(svc.body.spec)) svc.body.spec.clusterIP = ip;
    return { services: assumedKubeServices(view, infra.services, infra.pods), serviceResources: infra.services, pods: infra.pods };
  });
}

/** True when a service is exported to `namespace`. */
export function visibleFrom(service: MeshService, namespace: string): boolean {
  return service.exportTo.includes(EXPORT_TO_ALL) || service.exportTo.includes(namespace);
}

/** The services a proxy in `namespace` can see. */
export function servicesVisibleFrom(view: ConfigView, namespace: string): MeshService[] {
  return meshServices(view).filter((s) => visibleFrom(s, namespace));
}

/** Services by hostname (a hostname defined twice keeps every definition, in load order). */
export function servicesByHostname(view: ConfigView): ReadonlyMap<string, readonly MeshService[]> {
  return view.lookups.cached('config.servicesByHostname', () => {
    const m = new Map<string, MeshService[]>();
    for (const s of meshServices(view)) {
      listAt(m, s.hostname).push(s);
    }
    return m;
  });
}

/**
 * Istio's SortServicesByCreationTime: oldest first; equal times by name, then namespace.
 * Returns a new array.
 */
export function sortServicesByCreationTime(services: readonly MeshService[]): MeshService[] {
  return [...services].sort((a, b) => a.creationTime - b.creationTime || cmpStr(a.name, b.name) || cmpStr(a.namespace, b.namespace));
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
