// What istiod sends every ztunnel (Workload and Service records, Authorizations) and what
// `istioctl ztunnel-config` prints from a ztunnel's config dump: the workloads, services
// and policies tables with istioctl's columns, order and tabwriter layout
// (istioctl/pkg/writer/ztunnel/configdump), and per node the pods it captures and the
// certificates it holds.
import type { Resource } from '../document/types.ts';
import { KINDS } from '../document/kinds.ts';
import { isObj, type StringMap } from '../document/read.ts';
import type { ConfigView } from '../config/configView.ts';
import { serviceSpec } from '../config/api/kube.ts';
import { serviceEntry, workloadEntry } from '../config/api/networking.ts';
import { kubePortProtocol, parseProtocol, type IstioProtocol } from '../config/protocol.ts';
import { SelectorIndex } from '../config/selectorIndex.ts';
import { spiffeId } from '../config/identity.ts';
import {
  ingressUseWaypoint,
  serviceWaypoint,
  waypointBoundCondition,
  waypointDestination,
  workloadWaypoint,
  type StatusCondition,
  type WaypointBinding,
} from '../config/waypoints.ts';
import { AMBIENT_REDIRECTION_ANNOTATION, AMBIENT_REDIRECTION_ENABLED } from '../config/wellKnown.ts';
import { TUNNEL_LABEL, type Cluster, type SimPod, type SimService } from './cluster.ts';
import { buildPolicySet, workloadPolicyKeys, type PolicySet, type ZtunnelAuthorization } from './authz.ts';
import { listAt } from '../document/maps.ts';
import { podWorkloadName } from '../config/services.ts';

export const CLUSTER_ID = 'Kubernetes';

export interface GatewayAddressJson {
  destination: string;
  hboneMtlsPort: number;
}

/** A Workload as ztunnel's config dump shows it (only the fields that are set). */
export interface WorkloadJson {
  uid: string;
  workloadIps: string[];
  waypoint?: GatewayAddressJson;
  protocol: 'TCP' | 'HBONE';
  networkMode: 'Standard' | 'HostNetwork';
  name: string;
  namespace: string;
  trustDomain: string;
  serviceAccount: string;
  workloadName?: string;
  workloadType?: string;
  canonicalName?: string;
  canonicalRevision?: string;
  hostname?: string;
  node?: string;
  nativeTunnel?: boolean;
  authorizationPolicies?: string[];
  status: 'Healthy' | 'Unhealthy';
  clusterId: string;
  services?: string[];
  capacity: number;
}

export interface WorkloadRecord {
  json: WorkloadJson;
  kind: 'Pod' | 'ServiceEntry' | 'WorkloadEntry';
  pod?: SimPod;
  resource: Resource;
  /** `ns/hostname` → the ports this workload serves for it. */
  services: Map<string, Array<{ servicePort: number; targetPort: number }>>;
  /** SPIFFE identity (none for a ServiceEntry endpoint without a service account). */
  identity: string;
  healthy: boolean;
  protocol: 'TCP' | 'HBONE';
  waypoint: WaypointBinding;
  labels: StringMap;
}

export interface ServicePortRecord {
  name: string;
  servicePort: number;
  /** Numeric target port (0 when the Service names it: each pod resolves it). */
  targetPort: number;
  protocol: IstioProtocol;
}

export interface ServiceRecord {
  /** `ns/hostname`, ztunnel's key. */
  key: string;
  kind: 'Service' | 'ServiceEntry';
  name: string;
  namespace: string;
  hostname: string;
  vips: string[];
  headless: boolean;
  /** True when we allocated its address (no clusterIP, or an auto-allocated ServiceEntry address). */
  addressAssumed: boolean;
  ports: ServicePortRecord[];
  binding: WaypointBinding;
  ingress: { present: boolean; value: boolean };
  condition: StatusCondition | null;
  /** Every workload serving it (healthy or not). */
  workloads: WorkloadRecord[];
  /** `publishNotReadyAddresses`: ztunnel keeps unhealthy endpoints (health policy ALLOW_ALL). */
  allowAll: boolean;
  /** ServiceEntry `resolution: NONE`: load balancing PASSTHROUGH. */
  passthrough: boolean;
  resolution: string;
  resource: Resource;
  sim?: SimService;
  subjectAltNames: string[];
}

export interface ZtunnelState {
  workloads: WorkloadRecord[];
  services: ServiceRecord[];
  servicesByKey: Map<string, ServiceRecord>;
  policies: PolicySet;
  /** Workloads by IP (pods with their IPs; host-network pods are not addressable as workloads). */
  workloadsByIp: Map<string, WorkloadRecord>;
  /** Services by VIP (several when VIPs collide). */
  servicesByVip: Map<string, ServiceRecord[]>;
}

function canonical(labels: StringMap, workloadName: string): { name: string; revision: string } {
  const pick = (keys: string[]) => {
    for (const k of keys) if (Object.hasOwn(labels, k)) return labels[k] as string;
    return undefined;
  };
  return {
    name: pick(['service.istio.io/canonical-name', 'app.kubernetes.io/name', 'app']) ?? workloadName,
    revision: pick(['service.istio.io/canonical-revision', 'app.kubernetes.io/version', 'version']) ?? 'latest',
  };
}

function supportsTunnel(labels: StringMap): boolean {
  const v = labels[TUNNEL_LABEL];
  return (
    v !== undefined &&
    v
      .split(',')
      .map((s) => s.trim())
      .includes('http')
  );
}

function waypointJson(b: WaypointBinding): GatewayAddressJson | undefined {
  return b.waypoint ? { destination: waypointDestination(b.waypoint.address), hboneMtlsPort: b.waypoint.address.hboneMtlsPort } : undefined;
}

function podWorkload(
  cluster: Cluster,
  pod: SimPod,
  policies: PolicySet,
  services: Map<string, Array<{ servicePort: number; targetPort: number }>>,
): WorkloadRecord {
  const workloadName = podWorkloadName(pod.resource, pod.labels);
  const canon = canonical(pod.labels, workloadName);
  let protocol: 'TCP' | 'HBONE' = 'TCP';
  let nativeTunnel = false;
  if (pod.annotations[AMBIENT_REDIRECTION_ANNOTATION] === AMBIENT_REDIRECTION_ENABLED) protocol = 'HBONE';
  if (supportsTunnel(pod.labels)) {
    protocol = 'HBONE';
    nativeTunnel = true;
  }
  // `metadata` may be anything in a pasted file (null, a list): only a mapping can mark deletion.
  const meta = pod.resource.body.metadata;
  const healthy = pod.ready && isObj(meta) && !meta.deletionTimestamp;
  const authz = workloadPolicyKeys(policies, pod.namespace, pod.labels);
  const json: WorkloadJson = {
    uid: `${CLUSTER_ID}//Pod/${pod.namespace}/${pod.name}`,
    workloadIps: pod.ips,
    ...(pod.waypoint.waypoint ? { waypoint: waypointJson(pod.waypoint) } : {}),
    protocol,
    networkMode: pod.hostNetwork ? 'HostNetwork' : 'Standard',
    name: pod.name,
    namespace: pod.namespace,
    trustDomain: cluster.trustDomain,
    serviceAccount: pod.serviceAccount,
    workloadName,
    workloadType: 'pod',
    canonicalName: canon.name,
    canonicalRevision: canon.revision,
    ...(pod.node ? { node: pod.node } : {}),
    ...(nativeTunnel ? { nativeTunnel } : {}),
    ...(authz.length > 0 ? { authorizationPolicies: authz } : {}),
    status: healthy ? 'Healthy' : 'Unhealthy',
    clusterId: CLUSTER_ID,
    ...(services.size > 0 ? { services: [...services.keys()] } : {}),
    capacity: 1,
  };
  return { json, kind: 'Pod', pod, resource: pod.resource, services, identity: pod.identity, healthy, protocol, waypoint: pod.waypoint, labels: pod.labels };
}

function findPortName(pod: SimPod, name: string): number | undefined {
  return pod.containerPorts.find((p) => p.name === name && (p.protocol || 'TCP') === 'TCP')?.port;
}

interface ServiceDef {
  record: ServiceRecord;
  /** Kubernetes Service: the selector (undefined: selects nothing), and named target ports by service port. */
  selector?: StringMap;
  targetPortNames: Map<number, string>;
  portNames: Map<number, string>;
}

/** Builds ztunnel's view for a cluster. */
export function buildZtunnelState(view: ConfigView, cluster: Cluster): ZtunnelState {
  const policies = buildPolicySet(view);
  const defs: ServiceDef[] = [];
  // Kubernetes Services (ExternalName ones are not sent to ztunnel).
  for (const s of cluster.services) {
    const spec = serviceSpec(s.resource);
    if (spec.type === 'ExternalName') continue;
    const binding = serviceWaypoint(cluster.binding, { namespace: s.namespace, labels: s.resource.labels });
    const ingress = ingressUseWaypoint(s.resource.labels, cluster.namespaceLabels(s.namespace));
    const targetPortNames = new Map<number, string>();
    const portNames = new Map<number, string>();
    const ports: ServicePortRecord[] = spec.ports.map((p) => {
      const named = typeof p.targetPort === 'string' && p.targetPort !== '' && !/^\d+$/.test(p.targetPort) ? p.targetPort : undefined;
      if (named) targetPortNames.set(p.port, named);
      portNames.set(p.port, p.name);
      const numeric = named
        ? 0
        : typeof p.targetPort === 'number' && p.targetPort > 0
          ? p.targetPort
          : typeof p.targetPort === 'string' && /^\d+$/.test(p.targetPort)
            ? Number(p.targetPort)
            : p.port;
      return { name: p.name, servicePort: p.port, targetPort: numeric, protocol: kubePortProtocol(p.port, p.name, p.protocol || 'TCP', p.appProtocol) };
    });
    const hostname = `${s.name}.${s.namespace}.svc.cluster.local`;
    const body = s.resource.body.spec as Record<string, unknown> | undefined;
    defs.push({
      record: {
        key: `${s.namespace}/${hostname}`,
        kind: 'Service',
        name: s.name,
        namespace: s.namespace,
        hostname,
        vips: s.addresses.vips,
        headless: s.addresses.headless,
        addressAssumed: s.addresses.assumed,
        ports,
        binding,
        ingress,
        condition: waypointBoundCondition(binding, ingress),
        workloads: [],
        allowAll: body?.publishNotReadyAddresses === true,
        passthrough: false,
        resolution: 'ClientSideLB',
        resource: s.resource,
        sim: s,
        subjectAltNames: [],
      },
      selector: Object.keys(spec.selector).length > 0 ? spec.selector : undefined,
      targetPortNames,
      portNames,
    });
  }
  // ServiceEntries: one service per host.
  const seDefs = new Map<Resource, ServiceDef[]>();
  for (const se of view.list(KINDS.ServiceEntry)) {
    const spec = serviceEntry(se);
    const addrs = cluster.serviceEntryAddresses.get(se);
    const binding = serviceWaypoint(cluster.binding, { namespace: se.namespace, labels: se.labels });
    const ingress = ingressUseWaypoint(se.labels, cluster.namespaceLabels(se.namespace));
    const list: ServiceDef[] = [];
    for (const host of spec.hosts) {
      const a = addrs?.get(host);
      const portNames = new Map<number, string>();
      const ports = spec.ports.map((p) => {
        portNames.set(p.number, p.name);
        return { name: p.name, servicePort: p.number, targetPort: p.targetPort || p.number, protocol: parseProtocol(p.protocol) };
      });
      const def: ServiceDef = {
        record: {
          key: `${se.namespace}/${host}`,
          kind: 'ServiceEntry',
          name: se.name,
          namespace: se.namespace,
          hostname: host,
          vips: (a?.addresses ?? []).filter((x) => !x.includes('/')),
          headless: false,
          addressAssumed: a?.source === 'allocated',
          ports,
          binding,
          ingress,
          condition: waypointBoundCondition(binding, ingress),
          workloads: [],
          allowAll: false,
          passthrough: (spec.resolution || 'NONE') === 'NONE',
          resolution: spec.resolution || 'NONE',
          resource: se,
          subjectAltNames: [...spec.subjectAltNames],
        },
        selector: spec.workloadSelector ? spec.workloadSelector.labels : undefined,
        targetPortNames: new Map(),
        portNames,
      };
      list.push(def);
      defs.push(def);
    }
    seDefs.set(se, list);
  }
  const servicesByKey = new Map(defs.map((d) => [d.record.key, d.record]));
  // The services that select workloads, found from each pod's labels.
  const selecting = new SelectorIndex<ServiceDef>();
  for (const d of defs) if (d.selector) selecting.add(d.record.namespace, d.selector, d);
  const workloads: WorkloadRecord[] = [];
  // Pods: every non-terminal pod with an IP, enrolled or not.
  for (const pod of cluster.pods) {
    if (pod.state !== 'running') continue;
    const services = new Map<string, Array<{ servicePort: number; targetPort: number }>>();
    for (const d of selecting.matching(pod.namespace, pod.labels)) {
      const ports: Array<{ servicePort: number; targetPort: number }> = [];
      for (const p of d.record.ports) {
        let target = p.targetPort;
        const named = d.targetPortNames.get(p.servicePort);
        if (named) {
          const found = findPortName(pod, named);
          if (found === undefined) continue;
          target = found;
        } else if (d.record.kind === 'ServiceEntry') {
          const byName = findPortName(pod, d.portNames.get(p.servicePort) ?? '');
          if (byName !== undefined) target = byName;
        }
        ports.push({ servicePort: p.servicePort, targetPort: target });
      }
      services.set(d.record.key, ports);
    }
    const w = podWorkload(cluster, pod, policies, services);
    workloads.push(w);
    for (const key of services.keys()) servicesByKey.get(key)?.workloads.push(w);
  }
  // WorkloadEntries.
  for (const we of view.list(KINDS.WorkloadEntry)) {
    const spec = workloadEntry(we);
    const labels = Object.assign(Object.create(null) as Record<string, string>, we.labels, spec.labels);
    const services = new Map<string, Array<{ servicePort: number; targetPort: number }>>();
    for (const d of selecting.matching(we.namespace, labels)) {
      // constructServicesFromWorkloadEntry: a Service's named targetPort is looked up in the
      // WorkloadEntry's ports (missing: the port is left out); otherwise the entry's port of the
      // same name overrides the target port.
      const ports: Array<{ servicePort: number; targetPort: number }> = [];
      for (const p of d.record.ports) {
        const named = d.targetPortNames.get(p.servicePort);
        if (named !== undefined) {
          const tv = spec.ports[named];
          if (tv !== undefined) ports.push({ servicePort: p.servicePort, targetPort: tv });
          continue;
        }
        ports.push({ servicePort: p.servicePort, targetPort: spec.ports[d.portNames.get(p.servicePort) ?? ''] ?? (p.targetPort || p.servicePort) });
      }
      services.set(d.record.key, ports);
    }
    const binding = workloadWaypoint(cluster.binding, { namespace: we.namespace, labels });
    let protocol: 'TCP' | 'HBONE' = we.annotations[AMBIENT_REDIRECTION_ANNOTATION] === AMBIENT_REDIRECTION_ENABLED || supportsTunnel(labels) ? 'HBONE' : 'TCP';
    if (supportsTunnel(labels)) protocol = 'HBONE';
    const sa = spec.serviceAccount || 'default';
    const isIp = /^[0-9.]+$/.test(spec.address) || spec.address.includes(':');
    // kubelabels.WorkloadNameFromWorkloadEntry: the auto-registration group, then the label, then the name.
    const weName = we.annotations['istio.io/autoRegistrationGroup'] ?? labels['service.istio.io/workload-name'] ?? we.name;
    // CanonicalService(wle.Labels, w.WorkloadName).
    const canon = canonical(labels, weName);
    const json: WorkloadJson = {
      uid: `${CLUSTER_ID}/networking.istio.io/WorkloadEntry/${we.namespace}/${we.name}`,
      workloadIps: isIp && spec.address ? [spec.address] : [],
      ...(binding.waypoint ? { waypoint: waypointJson(binding) } : {}),
      protocol,
      networkMode: 'Standard',
      name: we.name,
      namespace: we.namespace,
      trustDomain: cluster.trustDomain,
      serviceAccount: sa,
      workloadName: weName,
      workloadType: 'pod',
      canonicalName: canon.name,
      canonicalRevision: canon.revision,
      ...(!isIp && spec.address ? { hostname: spec.address } : {}),
      status: 'Healthy',
      clusterId: CLUSTER_ID,
      ...(services.size > 0 ? { services: [...services.keys()] } : {}),
      capacity: 1,
    };
    const w: WorkloadRecord = {
      json,
      kind: 'WorkloadEntry',
      resource: we,
      services,
      identity: spiffeId(cluster.trustDomain, we.namespace, sa),
      healthy: true,
      protocol,
      waypoint: binding,
      labels,
    };
    workloads.push(w);
    for (const key of services.keys()) servicesByKey.get(key)?.workloads.push(w);
  }
  // ServiceEntry endpoints, inline or implicit (DNS resolution without endpoints or selector).
  for (const [se, list] of seDefs) {
    const spec = serviceEntry(se);
    if (spec.workloadSelector) continue;
    const resolution = spec.resolution || 'NONE';
    const entries: Array<{ address: string; labels: StringMap; ports: Record<string, number>; sa: string }> = spec.endpoints.map((e) => ({
      address: e.address,
      labels: e.labels,
      ports: e.ports,
      sa: e.serviceAccount,
    }));
    if (entries.length === 0 && (resolution === 'DNS' || resolution === 'DNS_ROUND_ROBIN' || resolution === 'DYNAMIC_DNS')) {
      for (const host of spec.hosts) entries.push({ address: host, labels: {}, ports: {}, sa: '' });
    }
    for (const e of entries) {
      const isIp = /^[0-9.]+$/.test(e.address) || e.address.includes(':');
      const services = new Map<string, Array<{ servicePort: number; targetPort: number }>>();
      const implicit = spec.endpoints.length === 0;
      for (const d of list) {
        if (implicit && d.record.hostname !== e.address) continue;
        services.set(
          d.record.key,
          d.record.ports.map((p) => ({ servicePort: p.servicePort, targetPort: e.ports[d.portNames.get(p.servicePort) ?? ''] ?? p.targetPort })),
        );
      }
      const protocol: 'TCP' | 'HBONE' = supportsTunnel(e.labels) ? 'HBONE' : 'TCP';
      const json: WorkloadJson = {
        uid: `${CLUSTER_ID}/networking.istio.io/ServiceEntry/${se.namespace}/${se.name}/${e.address}`,
        workloadIps: isIp ? [e.address] : [],
        protocol,
        networkMode: 'Standard',
        name: se.name,
        namespace: se.namespace,
        trustDomain: cluster.trustDomain,
        serviceAccount: e.sa || 'default',
        workloadName: se.name,
        workloadType: 'pod',
        canonicalName: canonical(e.labels, se.name).name,
        canonicalRevision: canonical(e.labels, se.name).revision,
        ...(!isIp ? { hostname: e.address } : {}),
        status: 'Healthy',
        clusterId: CLUSTER_ID,
        ...(services.size > 0 ? { services: [...services.keys()] } : {}),
        capacity: 1,
      };
      const w: WorkloadRecord = {
        json,
        kind: 'ServiceEntry',
        resource: se,
        services,
        identity: e.sa ? spiffeId(cluster.trustDomain, se.namespace, e.sa) : '',
        healthy: true,
        protocol,
        waypoint: { via: 'none', explanation: 'ServiceEntry endpoints have no workload waypoint.' },
        labels: e.labels,
      };
      workloads.push(w);
      for (const key of services.keys()) servicesByKey.get(key)?.workloads.push(w);
    }
  }
  const workloadsByIp = new Map<string, WorkloadRecord>();
  for (const w of workloads)
    if (w.json.networkMode !== 'HostNetwork') for (const ip of w.json.workloadIps) if (!workloadsByIp.has(ip)) workloadsByIp.set(ip, w);
  const servicesByVip = new Map<string, ServiceRecord[]>();
  for (const d of defs) {
    for (const ip of d.record.vips) {
      listAt(servicesByVip, ip).push(d.record);
    }
  }
  return { workloads, services: defs.map((d) => d.record), servicesByKey, policies, workloadsByIp, servicesByVip };
}

/** The endpoints ztunnel keeps for a service: healthy workloads, or all with ALLOW_ALL. */
export function serviceEndpoints(s: ServiceRecord): WorkloadRecord[] {
  return s.allowAll ? s.workloads : s.workloads.filter((w) => w.healthy);
}

// ---- tables ---------------------------------------------------------------------------

export interface Table {
  header: string[];
  rows: string[][];
}

/**
 * Go's text/tabwriter as istioctl configures it (minwidth 0, spaces; padding 1 for the
 * workloads, services and policies tables, 5 for certificates): columns padded to their
 * widest cell plus the padding; the last cell is not padded.
 */
export function tabwrite(t: Table, padding = 1): string {
  const lines = [t.header, ...t.rows];
  let cols = 0;
  for (const l of lines) cols = Math.max(cols, l.length);
  // Width in runes, as Go counts them (cells are nearly always ASCII).
  const width = (cell: string) => (/[^\x00-\x7f]/.test(cell) ? [...cell].length : cell.length);
  const widths: number[] = new Array<number>(Math.max(0, cols - 1)).fill(0);
  for (const l of lines) for (let c = 0; c < cols - 1; c++) widths[c] = Math.max(widths[c]!, width(l[c] ?? ''));
  let out = '';
  for (const l of lines) {
    for (let i = 0; i < l.length; i++) {
      const cell = l[i]!;
      out += i < l.length - 1 ? cell + ' '.repeat(Math.max(0, widths[i]! + padding - width(cell))) : cell;
    }
    out += '\n';
  }
  return out;
}

const eqFold = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export interface WorkloadFilter {
  namespace?: string;
  node?: string;
  address?: string;
  name?: string;
}

/** Waypoint destinations (`ns/hostname`, `/vip`) to the Service name istioctl prints, per state. */
const waypointNames = new WeakMap<ZtunnelState, Map<string, string>>();

function waypointName(dest: GatewayAddressJson | undefined, state: ZtunnelState): string {
  if (!dest) return 'None';
  let names = waypointNames.get(state);
  if (!names) {
    names = new Map();
    // istioctl takes the first service that matches, in the order it lists them.
    for (const s of state.services) {
      const byHost = `${s.namespace}/${s.hostname}`;
      if (!names.has(byHost)) names.set(byHost, s.name);
      for (const ip of s.vips) if (!names.has(`/${ip}`)) names.set(`/${ip}`, s.name);
    }
    waypointNames.set(state, names);
  }
  return names.get(dest.destination) ?? 'NA';
}

const byteCompare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function workloadsTable(state: ZtunnelState, f: WorkloadFilter = {}): Table & { records: WorkloadRecord[] } {
  const records = state.workloads.filter((w) => {
    if (f.name && !eqFold(w.json.name, f.name)) return false;
    if (f.namespace && !eqFold(w.json.namespace, f.namespace)) return false;
    if (f.address && !w.json.workloadIps.some((ip) => eqFold(ip, f.address as string))) return false;
    if (f.node && !eqFold(w.json.node ?? '', f.node)) return false;
    return true;
  });
  const sortKey = new Map(records.map((w) => [w, `${w.json.namespace}.${w.json.name}`]));
  records.sort((a, b) => byteCompare(sortKey.get(a)!, sortKey.get(b)!) || byteCompare(a.json.node ?? '', b.json.node ?? ''));
  return {
    header: ['NAMESPACE', 'POD NAME', 'ADDRESS', 'NODE', 'WAYPOINT', 'PROTOCOL'],
    rows: records.map((w) => [
      w.json.namespace,
      w.json.name,
      w.json.workloadIps.length > 0 ? w.json.workloadIps.join(',') : (w.json.hostname ?? ''),
      w.json.node ?? '',
      waypointName(w.json.waypoint, state),
      w.json.protocol,
    ]),
    records,
  };
}

export function servicesTable(state: ZtunnelState, f: { namespace?: string } = {}): Table & { records: ServiceRecord[] } {
  const records = state.services.filter((s) => !f.namespace || eqFold(s.namespace, f.namespace));
  records.sort((a, b) => byteCompare(a.namespace, b.namespace) || byteCompare(a.name, b.name) || byteCompare(a.hostname, b.hostname));
  return {
    header: ['NAMESPACE', 'SERVICE NAME', 'SERVICE VIP', 'WAYPOINT', 'ENDPOINTS'],
    rows: records.map((s) => {
      const eps = serviceEndpoints(s);
      const healthy = eps.filter((w) => w.healthy).length;
      const wp = s.binding.waypoint ? { destination: waypointDestination(s.binding.waypoint.address), hboneMtlsPort: 15008 } : undefined;
      return [s.namespace, s.name, s.vips.join(','), waypointName(wp, state), `${healthy}/${eps.length}`];
    }),
    records,
  };
}

export function policiesTable(state: ZtunnelState, f: { namespace?: string } = {}): Table & { records: ZtunnelAuthorization[] } {
  const records = [...state.policies.byKey.values()].filter((p) => !f.namespace || eqFold(p.namespace, f.namespace));
  records.sort((a, b) => byteCompare(a.namespace, b.namespace) || byteCompare(a.name, b.name));
  return { header: ['NAMESPACE', 'POLICY NAME', 'ACTION', 'SCOPE'], rows: records.map((p) => [p.namespace, p.name, p.action, p.scope]), records };
}

export interface CertificateRow {
  identity: string;
  /** Pods on the node using it. */
  pods: string[];
}

export interface NodeView {
  node: string;
  /** Ambient pods on the node that its ztunnel proxies, inside their network namespaces. */
  capturedPods: string[];
  inPodListeners: Record<string, number[]>;
  /** One certificate per distinct identity of HBONE-capable workloads on the node (cert_fetcher.rs). */
  certificates: CertificateRow[];
  workloadsKnown: string[];
  servicesKnown: string[];
}

const known = new WeakMap<ZtunnelState, { workloadsKnown: string[]; servicesKnown: string[] }>();

/** Every ztunnel receives every workload and service (no on-demand xDS): the same lists for each node. */
function knownLists(state: ZtunnelState): { workloadsKnown: string[]; servicesKnown: string[] } {
  let k = known.get(state);
  if (!k) {
    k = {
      workloadsKnown: [...new Set(state.workloads.map((w) => `${w.json.namespace}/${w.json.name}`))].sort(byteCompare),
      servicesKnown: [...new Set(state.services.map((s) => `${s.namespace}/${s.name}`))].sort(byteCompare),
    };
    known.set(state, k);
  }
  return k;
}

export function nodeView(cluster: Cluster, state: ZtunnelState, node: string): NodeView {
  const captured = cluster.pods.filter((p) => p.node === node && p.mode === 'ambient' && p.state === 'running').sort((a, b) => byteCompare(a.key, b.key));
  const inPodListeners: Record<string, number[]> = {};
  for (const p of captured) inPodListeners[p.key] = p.dnsCapture ? [15001, 15006, 15008, 15053] : [15001, 15006, 15008];
  const certs = new Map<string, string[]>();
  for (const w of state.workloads) {
    if (w.kind !== 'Pod' || w.json.node !== node || !(w.protocol === 'HBONE' || w.json.nativeTunnel)) continue;
    const id = w.identity;
    listAt(certs, id).push(`${w.json.namespace}/${w.json.name}`);
  }
  return {
    node,
    capturedPods: captured.map((p) => p.key),
    inPodListeners,
    certificates: [...certs.entries()].sort(([a], [b]) => byteCompare(a, b)).map(([identity, pods]) => ({ identity, pods })),
    ...knownLists(state),
  };
}

/**
 * `istioctl ztunnel-config certificates` for a node: a Leaf and a Root row per identity the
 * node's ztunnel holds. Serial numbers and dates are not simulated (shown as —).
 */
export function certificatesTable(v: NodeView): Table {
  const rows: string[][] = [];
  for (const c of v.certificates) {
    rows.push([c.identity, 'Leaf', 'Available', 'true', '—', '—', '—']);
    rows.push([c.identity, 'Root', 'Available', 'true', '—', '—', '—']);
  }
  return { header: ['CERTIFICATE NAME', 'TYPE', 'STATUS', 'VALID CERT', 'SERIAL NUMBER', 'NOT AFTER', 'NOT BEFORE'], rows };
}
