// The service registry as istiod builds it: every Kubernetes Service and every host of a
// ServiceEntry becomes a service with a hostname, ports, visibility (exportTo) and the
// endpoints of the workloads behind it (pods, real or derived, and WorkloadEntries).
import type { Resource } from '../model/types.ts';
import { KINDS } from '../model/kinds.ts';
import type { ConfigView } from './configView.ts';
import { serviceSpec } from './api/kube.ts';
import { serviceEntry, workloadEntry, type WorkloadEntrySpec } from './api/networking.ts';
import { kubePortProtocol, parseProtocol, type IstioProtocol } from './protocol.ts';
import { podsSelectedBy, podIp, podContainers, podServiceAccount } from './workloads.ts';
import { selectorMatches, type LabelMap } from './labels.ts';
import { EXPORT_TO_ALL, EXPORT_TO_LOCAL } from './hosts.ts';
import { spiffeId } from './identity.ts';
import { EXPORT_TO_ANNOTATION } from './wellKnown.ts';

/** The cluster's DNS domain (istiod's --domain); Istio's default. */
export const DOMAIN_SUFFIX = 'cluster.local';

export interface ServicePortInfo {
  name: string;
  port: number;
  protocol: IstioProtocol;
  /** Where traffic goes on the workload: a number, or a container port name to look up. */
  targetPort: number | string;
}

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
}

export interface MeshService {
  hostname: string;
  namespace: string;
  /** The Service or ServiceEntry that defines it. */
  resource: Resource;
  ports: readonly ServicePortInfo[];
  /** Namespaces that may see it: `*` (all), or names. */
  exportTo: readonly string[];
  /** ClusterIP / ServiceEntry addresses ('None' for a headless Service). */
  addresses: readonly string[];
  /** Istio's resolution: ClientSideLB, DNS, DNSRoundRobin, Passthrough. */
  resolution: 'ClientSideLB' | 'DNS' | 'DNSRoundRobin' | 'Passthrough';
  meshExternal: boolean;
  endpoints: readonly Endpoint[];
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

function podEndpoint(view: ConfigView, pod: Resource, ports: readonly ServicePortInfo[]): Endpoint {
  const mapped: Record<string, number> = {};
  for (const p of ports) {
    const target = podTargetPort(pod, p);
    if (target !== undefined) mapped[p.name] = target;
  }
  const sa = podServiceAccount(pod);
  return {
    address: podIp(pod),
    ports: mapped,
    labels: pod.labels,
    workload: pod,
    serviceAccount: sa,
    identity: spiffeId(view.meshConfig.trustDomain, pod.namespace, sa),
    network: pod.labels['topology.istio.io/network'] ?? '',
    locality: '',
  };
}

function kubeServices(view: ConfigView): MeshService[] {
  const out: MeshService[] = [];
  const meshDefault = meshDefaultExportTo(view);
  for (const svc of view.list(KINDS.Service)) {
    const spec = serviceSpec(svc);
    const ports: ServicePortInfo[] = spec.ports.map((p) => ({
      name: p.name,
      port: p.port,
      protocol: kubePortProtocol(p.port, p.name, p.protocol || 'TCP', p.appProtocol),
      targetPort: p.targetPort ?? p.port,
    }));
    const annotation = svc.annotations[EXPORT_TO_ANNOTATION];
    const raw = annotation === undefined ? [] : annotation.split(',').map((s) => s.trim()).filter((s) => s !== '');
    const external = spec.type === 'ExternalName';
    const headless = spec.clusterIP === 'None';
    // Kubernetes gives a Service without a selector no endpoints (they come from EndpointSlices).
    const selected = Object.keys(spec.selector).length === 0 || external ? [] : podsSelectedBy(view, spec.selector, svc.namespace);
    out.push({
      hostname: `${svc.name}.${svc.namespace}.svc.${DOMAIN_SUFFIX}`,
      namespace: svc.namespace,
      resource: svc,
      ports,
      exportTo: exportToOf(raw, svc.namespace, meshDefault),
      addresses: spec.clusterIP ? [spec.clusterIP] : [],
      resolution: external ? 'DNS' : headless ? 'Passthrough' : 'ClientSideLB',
      meshExternal: external,
      endpoints: selected.map((p) => podEndpoint(view, p, ports)),
    });
  }
  return out;
}

const RESOLUTIONS: Readonly<Record<string, MeshService['resolution']>> = { NONE: 'Passthrough', STATIC: 'ClientSideLB', DNS: 'DNS', DNS_ROUND_ROBIN: 'DNSRoundRobin' };

function entryEndpoint(view: ConfigView, namespace: string, we: WorkloadEntrySpec, ports: readonly ServicePortInfo[], workload: Resource | undefined): Endpoint {
  const mapped: Record<string, number> = {};
  for (const p of ports) mapped[p.name] = we.ports[p.name] ?? (typeof p.targetPort === 'number' && p.targetPort ? p.targetPort : p.port);
  const sa = we.serviceAccount || 'default';
  return {
    address: we.address,
    ports: mapped,
    labels: we.labels,
    workload,
    serviceAccount: sa,
    identity: spiffeId(view.meshConfig.trustDomain, namespace, sa),
    network: we.network,
    locality: we.locality,
  };
}

function serviceEntries(view: ConfigView): MeshService[] {
  const out: MeshService[] = [];
  const meshDefault = meshDefaultExportTo(view);
  for (const se of view.list(KINDS.ServiceEntry)) {
    const spec = serviceEntry(se);
    const ports: ServicePortInfo[] = spec.ports.map((p) => ({ name: p.name, port: p.number, protocol: parseProtocol(p.protocol), targetPort: p.targetPort || p.number }));
    let endpoints: Endpoint[];
    const selector = spec.workloadSelector?.labels;
    if (selector !== undefined) {
      // A workload selector picks the pods and WorkloadEntries of the ServiceEntry's namespace.
      endpoints = [
        ...podsSelectedBy(view, selector, se.namespace).map((p) => podEndpoint(view, p, ports)),
        ...workloadEntriesSelectedBy(view, selector, se.namespace).map((we) => entryEndpoint(view, se.namespace, workloadEntry(we), ports, we)),
      ];
    } else {
      endpoints = spec.endpoints.map((e) => entryEndpoint(view, se.namespace, e, ports, undefined));
    }
    for (const host of spec.hosts) {
      out.push({
        hostname: host,
        namespace: se.namespace,
        resource: se,
        ports,
        exportTo: exportToOf(spec.exportTo, se.namespace, meshDefault),
        addresses: spec.addresses,
        resolution: RESOLUTIONS[spec.resolution] ?? 'Passthrough',
        meshExternal: spec.location !== 'MESH_INTERNAL',
        endpoints,
      });
    }
  }
  return out;
}

function workloadEntriesSelectedBy(view: ConfigView, selector: LabelMap, namespace: string): Resource[] {
  return view.list(KINDS.WorkloadEntry).filter((we) => we.namespace === namespace && selectorMatches(selector, workloadEntry(we).labels));
}

/** Every service of the mesh: Kubernetes Services first, then ServiceEntry hosts, in load order. */
export function meshServices(view: ConfigView): readonly MeshService[] {
  return view.lookups.cached('config.meshServices', () => [...kubeServices(view), ...serviceEntries(view)]);
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
      let l = m.get(s.hostname);
      if (!l) m.set(s.hostname, (l = []));
      l.push(s);
    }
    return m;
  });
}
