// The push context: the mesh as istiod indexes it before generating for any proxy
// (pilot/pkg/model/push_context.go), built once per mesh version and generation options.
// Services in creation order with their aliases and visibility; VirtualServices merged with
// their delegates, short names resolved and indexed by gateway and visibility; DestinationRules
// consolidated per namespace; Sidecars, Gateways and PeerAuthentications in precedence order.
import type { Resource } from '../document/types.ts';
import { KINDS, type KindInfo } from '../document/kinds.ts';
import type { ConfigView } from '../config/configView.ts';
import {
  assumedClusterIps,
  assumedGatewayDeployments,
  creationTime,
  meshServices,
  sortServicesByCreationTime,
  type Endpoint,
  type MeshService,
} from '../config/services.ts';
import {
  destinationRule,
  gateway,
  sidecar,
  virtualService,
  type DestinationRuleSpec,
  type GatewaySpec,
  type HTTPMatchRequest,
  type HTTPRoute,
  type HTTPRouteDestination,
  type SidecarSpec,
  type TCPRoute,
  type TLSRoute,
  type Destination,
} from '../config/api/networking.ts';
import { peerAuthentication } from '../config/api/security.ts';
import { isObj, str } from '../document/read.ts';
import { selectorMatches, type LabelMap } from '../config/labels.ts';
import { meshSettings, type MeshSettings } from './mesh.ts';
import { resolveGatewayName, resolveShortname } from './hostname.ts';
import { isWildcardHost } from '../config/hosts.ts';
import { DEFAULT_FEATURES, type FeatureFlags, type GenerateOptions, type ProvenanceRef } from './types.ts';
import { gatewayApiConfig } from '../config/gatewayApi/index.ts';
import { ingressConfig } from '../config/ingress.ts';
import { externalSdsOf, type ExternalSds } from './externalSds.ts';
import { listAt, mapAt } from '../document/maps.ts';

export const MESH_GATEWAY = 'mesh';
export const ROUTE_SEMANTICS_ANNOTATION = 'internal.istio.io/route-semantics';
export const PARENTS_ANNOTATION = 'internal.istio.io/parents';
export const GATEWAY_SERVICE_ANNOTATION = 'internal.istio.io/gateway-service';

/** What generation reads of any config object (Istio's config.Meta). */
export interface ConfigMeta {
  resource: Resource;
  kind: KindInfo;
  name: string;
  namespace: string;
  creationTime: number;
  labels: LabelMap;
  annotations: LabelMap;
  /** The resource provenance points at (the HTTPRoute behind a converted VirtualService). */
  sourceKey: string;
}

function metaOf(r: Resource, kind: KindInfo): ConfigMeta {
  return {
    resource: r,
    kind,
    name: r.name,
    namespace: r.namespace,
    creationTime: creationTime(r),
    labels: r.labels,
    annotations: r.annotations,
    sourceKey: sourceKeyOf(r),
  };
}

/** Synthetic (converted) objects point back at their Gateway API parent via the parents annotation. */
function sourceKeyOf(r: Resource): string {
  if (!r.synthetic && r.source) return r.key;
  const parents = r.annotations[PARENTS_ANNOTATION];
  if (parents) {
    const first = parents.split(',')[0] as string;
    const m = /^([A-Za-z]+)\/(.+)\.([^.]+)$/.exec(first);
    if (m) {
      const kind = (KINDS as Record<string, KindInfo>)[m[1] === 'Gateway' ? 'KubernetesGateway' : (m[1] as string)];
      if (kind) return `${kind.id}/${m[3]}/${m[2]}`;
    }
  }
  return r.key;
}

/** configCompareByCreationTime: oldest first; ties by name, then namespace. */
export function compareConfigs(a: ConfigMeta, b: ConfigMeta): number {
  if (a.creationTime !== b.creationTime) return a.creationTime - b.creationTime;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  if (a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
  return 0;
}

// ---- services ------------------------------------------------------------------------

/** A service as generation sees it: the registry's, plus the ExternalName aliases pointing at it. */
export interface Service extends MeshService {
  aliases?: readonly { hostname: string; namespace: string }[];
  /** The cluster IP is assumed (the Service is written without one). */
  assumedVip?: boolean;
}

/** An endpoint of a service port: the workload and the port traffic reaches it on. */
export interface PortEndpoint {
  ep: Endpoint;
  /** The endpoint port (target port). */
  port: number;
  /** The service port's name. */
  portName: string;
}

// ---- VirtualService ------------------------------------------------------------------

/** An HTTP rule after short-name resolution (and delegate merging), with where it came from. */
export interface HttpRule extends Omit<HTTPRoute, 'match' | 'route' | 'mirror' | 'mirrors'> {
  match: readonly HTTPMatchRequest[];
  route: readonly HTTPRouteDestination[];
  mirror: Destination | undefined;
  mirrors: HTTPRoute['mirrors'];
  prov: ProvenanceRef;
}

export interface VirtualServiceConfig {
  meta: ConfigMeta;
  hosts: readonly string[];
  gateways: readonly string[];
  http: readonly HttpRule[];
  tcp: readonly TCPRoute[];
  tls: readonly TLSRoute[];
  exportTo: ReadonlySet<string>;
  /** Gateway API semantics (converted routes). */
  gatewaySemantics: boolean;
  ingressSemantics: boolean;
}

// ---- DestinationRule -----------------------------------------------------------------

export interface DestinationRuleConfig {
  meta: ConfigMeta;
  spec: DestinationRuleSpec;
  /** The host, short name resolved. */
  host: string;
}

/** ConsolidatedDestRule: the rule merged from one or more DestinationRules for a host. */
export interface ConsolidatedDestRule {
  exportTo: ReadonlySet<string>;
  rule: DestinationRuleConfig;
  from: ConfigMeta[];
}

interface ConsolidatedDestRules {
  specific: Map<string, ConsolidatedDestRule[]>;
  wildcard: Map<string, ConsolidatedDestRule[]>;
}

// ---- the push context ----------------------------------------------------------------

export interface PushContext {
  view: ConfigView;
  mesh: MeshSettings;
  features: FeatureFlags;
  configDomainSuffix: string;
  /** Every service, oldest first, aliases resolved. */
  services: readonly Service[];
  /** Services exported to every namespace, and to specific ones. */
  publicServices: readonly Service[];
  exportedServices: ReadonlyMap<string, readonly Service[]>;
  /** hostname → namespace → service (the first by creation, Kubernetes over ServiceEntry). */
  hostnameAndNamespace: ReadonlyMap<string, ReadonlyMap<string, Service>>;
  virtualServices: readonly VirtualServiceConfig[];
  vsPublicByGateway: ReadonlyMap<string, readonly VirtualServiceConfig[]>;
  /** `namespace/gateway` → VirtualServices exported only to their own namespace. */
  vsPrivateByNamespaceAndGateway: ReadonlyMap<string, readonly VirtualServiceConfig[]>;
  vsExportedToNamespaceByGateway: ReadonlyMap<string, readonly VirtualServiceConfig[]>;
  drNamespaceLocal: ReadonlyMap<string, ConsolidatedDestRules>;
  drExportedByNamespace: ReadonlyMap<string, ConsolidatedDestRules>;
  drRootNamespaceLocal: ConsolidatedDestRules;
  /** Sidecars by namespace: those with a workload selector first, each group oldest first. */
  sidecarsByNamespace: ReadonlyMap<string, readonly { meta: ConfigMeta; spec: SidecarSpec }[]>;
  rootSidecar: { meta: ConfigMeta; spec: SidecarSpec } | undefined;
  gateways: readonly { meta: ConfigMeta; spec: GatewaySpec }[];
  peerAuthentications: ReadonlyMap<string, readonly ConfigMeta[]>;
  /** Namespace-level and mesh-level mTLS modes (GetNamespaceMutualTLSMode). */
  namespaceMtlsMode: ReadonlyMap<string, MtlsMode>;
  globalMtlsMode: MtlsMode;
  /** Endpoints of a service port, optionally those whose labels hold `labels`. */
  endpointsByPort(svc: Service, port: number, labels?: LabelMap): readonly PortEndpoint[];
  /**
   * Istio's PushContext.ServiceEndpointsByPort: the endpoints of every service with the
   * service's hostname and namespace (ServiceEntries sharing a host merge theirs), by port.
   * The outbound listeners of resolution NONE services, DNS clusters' inline endpoints and the
   * mTLS mode inference read it; EDS keeps endpointsByPort (it matches by port name).
   */
  serviceEndpointsByPort(svc: Service, port: number, labels?: LabelMap): readonly PortEndpoint[];
  /** The service accounts (SPIFFE ids) behind a service, sorted (ServiceAccounts). */
  serviceAccounts(svc: Service): readonly string[];
  /** The mesh's first SDS extension provider, as its cluster (`sds://` credential names are fetched there). */
  externalSds: ExternalSds | undefined;
}

export type MtlsMode = 'UNKNOWN' | 'DISABLE' | 'PERMISSIVE' | 'STRICT';

export function convertMtlsMode(mode: string): MtlsMode {
  switch (mode) {
    case 'DISABLE':
      return 'DISABLE';
    case 'STRICT':
      return 'STRICT';
    case 'PERMISSIVE':
      return 'PERMISSIVE';
    default:
      return 'UNKNOWN';
  }
}

/** The push context of a mesh version (built once per generation options). */
export function pushContext(view: ConfigView, opts: GenerateOptions = {}): PushContext {
  const suffix = opts.configDomainSuffix ?? 'cluster.local';
  const features = { ...DEFAULT_FEATURES, ...opts.features };
  const assume = opts.assumeClusterIps ?? true;
  const deployments = opts.assumeGatewayDeployments ?? assume;
  const key = `xds.push:${suffix}:${assume}:${deployments}:${JSON.stringify(opts.features ?? {})}`;
  return view.lookups.cached(key, () => buildPushContext(view, suffix, features, assume, deployments));
}

function withAssumedVips(view: ConfigView, services: readonly MeshService[]): MeshService[] {
  const assumed = assumedClusterIps(view);
  if (assumed.size === 0) return [...services];
  return services.map((s) => {
    const ip = s.registry === 'Kubernetes' && s.defaultAddress === '0.0.0.0' && s.resolution !== 'Passthrough' ? assumed.get(s.hostname) : undefined;
    return ip ? ({ ...s, defaultAddress: ip, clusterVips: { ...s.clusterVips, Kubernetes: [ip] }, assumedVip: true } as Service) : s;
  });
}

function buildPushContext(
  view: ConfigView,
  configDomainSuffix: string,
  features: FeatureFlags,
  assumeClusterIps: boolean,
  assumeGatewayDeployments: boolean,
): PushContext {
  const mesh = meshSettings(view.meshConfig);
  const converted = gatewayApiConfig(view);
  const fromIngress = ingressConfig(view);

  // Services, in creation order, with aliases resolved.
  const written = assumeClusterIps ? withAssumedVips(view, meshServices(view)) : meshServices(view);
  // The gateways' Services are ours entirely, their cluster IP included.
  const registry = assumeGatewayDeployments
    ? [...written, ...assumedGatewayDeployments(view).services.map((s): Service => ({ ...s, assumedVip: true }))]
    : written;
  const services = resolveAliases(sortServicesByCreationTime(registry));
  const publicServices: Service[] = [];
  const exportedServices = new Map<string, Service[]>();
  const hostnameAndNamespace = new Map<string, Map<string, Service>>();
  for (const s of services) {
    const byNs = mapAt(hostnameAndNamespace, s.hostname);
    const existing = byNs.get(s.namespace);
    if (!existing || (existing.registry !== 'Kubernetes' && s.registry === 'Kubernetes')) byNs.set(s.namespace, s);
    if (s.exportTo.includes('*')) {
      publicServices.push(s);
      continue;
    }
    if (s.exportTo.includes('~')) continue;
    const seen = new Set<string>();
    for (const ns of s.exportTo) {
      if (seen.has(ns)) continue;
      seen.add(ns);
      listAt(exportedServices, ns).push(s);
    }
  }

  // VirtualServices.
  const vsResources = [...view.list(KINDS.VirtualService), ...converted.virtualServices, ...fromIngress.virtualServices];
  const virtualServices = mergeVirtualServices(vsResources, mesh, configDomainSuffix);
  const vsPublicByGateway = new Map<string, VirtualServiceConfig[]>();
  const vsPrivate = new Map<string, VirtualServiceConfig[]>();
  const vsExported = new Map<string, VirtualServiceConfig[]>();
  const push = (m: Map<string, VirtualServiceConfig[]>, k: string, v: VirtualServiceConfig) => {
    listAt(m, k).push(v);
  };
  for (const vs of virtualServices) {
    const gws = vs.gateways.length === 0 ? [MESH_GATEWAY] : vs.gateways;
    if (vs.exportTo.has('*')) {
      for (const gw of gws) push(vsPublicByGateway, gw, vs);
    } else if (!vs.exportTo.has('~')) {
      for (const ns of vs.exportTo) {
        if (ns === vs.meta.namespace) for (const gw of gws) push(vsPrivate, `${ns}/${gw}`, vs);
        else for (const gw of gws) push(vsExported, `${ns}/${gw}`, vs);
      }
    }
  }

  // DestinationRules.
  const drs = [...view.list(KINDS.DestinationRule), ...converted.destinationRules].map((r) => {
    const spec = destinationRule(r);
    const meta = metaOf(r, KINDS.DestinationRule);
    return { meta, spec, host: resolveShortname(spec.host, r.namespace, domainFor(r, configDomainSuffix)) };
  });
  drs.sort((a, b) => {
    const as = a.spec.workloadSelector !== undefined;
    const bs = b.spec.workloadSelector !== undefined;
    if (as !== bs) return as ? -1 : 1;
    return compareConfigs(a.meta, b.meta);
  });
  const drNamespaceLocal = new Map<string, ConsolidatedDestRules>();
  const drExportedByNamespace = new Map<string, ConsolidatedDestRules>();
  const drRootNamespaceLocal = newConsolidated();
  const defaultDrPrivate = mesh.defaultDestinationRuleExportTo.includes('.');
  for (const dr of drs) {
    const ns = dr.meta.namespace;
    const exportTo = dr.spec.workloadSelector === undefined ? new Set(dr.spec.exportTo) : new Set(['.']);
    if (exportTo.size === 0 || exportTo.has('*') || exportTo.has('.') || exportTo.has(ns)) {
      let c = drNamespaceLocal.get(ns);
      if (!c) drNamespaceLocal.set(ns, (c = newConsolidated()));
      mergeDestinationRule(c, dr, exportTo);
    }
    const privateOnly = (exportTo.size === 0 && defaultDrPrivate) || (exportTo.size === 1 && (exportTo.has('.') || exportTo.has(ns)));
    if (!privateOnly) {
      let c = drExportedByNamespace.get(ns);
      if (!c) drExportedByNamespace.set(ns, (c = newConsolidated()));
      mergeDestinationRule(c, dr, exportTo);
    } else if (ns === mesh.rootNamespace) {
      mergeDestinationRule(drRootNamespaceLocal, dr, exportTo);
    }
  }

  // Sidecars: with a selector first, then without; oldest first within each group.
  const sidecars = view
    .list(KINDS.Sidecar)
    .map((r) => ({ meta: metaOf(r, KINDS.Sidecar), spec: sidecar(r) }))
    .sort((a, b) => compareConfigs(a.meta, b.meta));
  const ordered = [...sidecars.filter((s) => s.spec.workloadSelector !== undefined), ...sidecars.filter((s) => s.spec.workloadSelector === undefined)];
  const sidecarsByNamespace = new Map<string, { meta: ConfigMeta; spec: SidecarSpec }[]>();
  for (const s of ordered) {
    listAt(sidecarsByNamespace, s.meta.namespace).push(s);
  }
  const rootSidecar = ordered.find((s) => s.meta.namespace === mesh.rootNamespace && s.spec.workloadSelector === undefined);

  // Gateways.
  const gateways = [...view.list(KINDS.Gateway), ...converted.gateways, ...fromIngress.gateways]
    .map((r) => ({ meta: metaOf(r, KINDS.Gateway), spec: gateway(r) }))
    .sort((a, b) => compareConfigs(a.meta, b.meta));

  // PeerAuthentications: one namespace/mesh-level policy per namespace (the oldest).
  const peerAuthentications = new Map<string, ConfigMeta[]>();
  const namespaceModes = new Map<string, string>();
  const seenNsLevel = new Set<string>();
  let globalMtlsMode: MtlsMode = 'UNKNOWN';
  const pas = view
    .list(KINDS.PeerAuthentication)
    .map((r) => metaOf(r, KINDS.PeerAuthentication))
    .sort(compareConfigs);
  for (const pa of pas) {
    const spec = peerAuthentication(pa.resource);
    const selector = spec.selector?.matchLabels ?? {};
    if (Object.keys(selector).length === 0) {
      if (seenNsLevel.has(pa.namespace)) continue;
      seenNsLevel.add(pa.namespace);
      const mode = spec.mtls?.mode || 'UNSET';
      if (pa.namespace === mesh.rootNamespace) globalMtlsMode = mode === 'UNSET' ? 'PERMISSIVE' : convertMtlsMode(mode);
      else namespaceModes.set(pa.namespace, mode);
    }
    listAt(peerAuthentications, pa.namespace).push(pa);
  }
  const inherited: MtlsMode = globalMtlsMode === 'UNKNOWN' ? 'PERMISSIVE' : globalMtlsMode;
  const namespaceMtlsMode = new Map<string, MtlsMode>();
  for (const [ns, mode] of namespaceModes) namespaceMtlsMode.set(ns, mode === 'UNSET' ? inherited : convertMtlsMode(mode));

  // Endpoints by service and port, computed on demand.
  const byPort = new WeakMap<Service, Map<number, PortEndpoint[]>>();
  const bySubset = new WeakMap<readonly PortEndpoint[], WeakMap<LabelMap, readonly PortEndpoint[]>>();
  const endpointsByPort = (svc: Service, port: number, labels?: LabelMap): readonly PortEndpoint[] => {
    const m = mapAt(byPort, svc);
    let l = m.get(port);
    if (!l) {
      l = [];
      const sp = svc.ports.find((p) => p.port === port);
      if (sp) {
        for (const ep of svc.endpoints) {
          const target = ep.ports[sp.name];
          if (target !== undefined) l.push({ ep, port: target, portName: sp.name });
        }
      }
      m.set(port, l);
    }
    if (!labels || Object.keys(labels).length === 0) return l;
    // Subset label maps are the DestinationRules' own objects, so they key the filtered lists.
    let bs = bySubset.get(l);
    if (!bs) bySubset.set(l, (bs = new WeakMap()));
    let f = bs.get(labels);
    if (!f) {
      const all = l;
      bs.set(labels, (f = all.filter((e) => selectorMatches(labels, e.ep.labels))));
    }
    return f;
  };
  // ServiceIndex.instancesByPort (push_context.go initServiceRegistry): keyed by Service.Key(),
  // namespace/hostname, and filled from the endpoint shards of that hostname and namespace,
  // which hold the endpoints of every ServiceEntry writing the host there
  // (serviceentry/conversion.go mergeServicesInstancesByNamespaceHost: entries oldest first,
  // then by name; a DNS_ROUND_ROBIN entry's endpoints are left out on a port an earlier entry
  // already has) beside a Kubernetes Service's. EndpointShards.CopyEndpoints
  // (model/endpointshards.go) maps a ServiceEntry endpoint to the port of its entry's port
  // number (LegacyClusterPortKey, when the service has that port), a Kubernetes one by port
  // name; each service of the key, in creation order, sets the ports it finds endpoints for.
  const byKey = new Map<string, Service[]>();
  for (const s of services) listAt(byKey, `${s.namespace}/${s.hostname}`).push(s);
  const merged = new Map<string, Map<number, PortEndpoint[]>>();
  const instancesByPort = (key: string, group: readonly Service[]): Map<number, PortEndpoint[]> => {
    let m = merged.get(key);
    if (m) return m;
    m = new Map();
    merged.set(key, m);
    // One service per resource (a ServiceEntry with several addresses gives several).
    const owners: Service[] = [];
    for (const s of group) if (!owners.some((o) => o.resource === s.resource)) owners.push(s);
    const external = owners
      .filter((s) => s.registry !== 'Kubernetes')
      .sort((a, b) => a.creationTime - b.creationTime || cmp(a.name, b.name) || cmp(a.namespace, b.namespace) || cmp(a.resource.name, b.resource.name));
    const shard: { pe: PortEndpoint; legacyPort: number }[] = [];
    for (const s of owners) {
      if (s.registry !== 'Kubernetes') continue;
      for (const ep of s.endpoints)
        for (const sp of s.ports)
          if (ep.ports[sp.name] !== undefined) shard.push({ pe: { ep, port: ep.ports[sp.name] as number, portName: sp.name }, legacyPort: 0 });
    }
    const seen = new Set<number>();
    for (const s of external) {
      for (const ep of s.endpoints) {
        for (const sp of s.ports) {
          if (ep.ports[sp.name] === undefined) continue;
          if (s.resolution === 'DNSRoundRobin' && seen.has(sp.port)) continue;
          shard.push({ pe: { ep, port: ep.ports[sp.name] as number, portName: sp.name }, legacyPort: sp.port });
          seen.add(sp.port);
        }
      }
    }
    for (const s of group) {
      const portNumbers = new Set(s.ports.map((p) => p.port));
      const portMap = new Map(s.ports.map((p) => [p.name, p.port] as const));
      const found = new Map<number, PortEndpoint[]>();
      for (const i of shard) {
        const port = i.legacyPort !== 0 ? (portNumbers.has(i.legacyPort) ? i.legacyPort : undefined) : portMap.get(i.pe.portName);
        if (port !== undefined) listAt(found, port).push(i.pe);
      }
      for (const [port, l] of found) m.set(port, l);
    }
    return m;
  };
  const serviceEndpointsByPort = (svc: Service, port: number, labels?: LabelMap): readonly PortEndpoint[] => {
    const key = `${svc.namespace}/${svc.hostname}`;
    const group = byKey.get(key) ?? [];
    // A host written by one resource only: its own endpoints (the same list).
    if (group.every((s) => s.resource === svc.resource)) return endpointsByPort(svc, port, labels);
    const l = instancesByPort(key, group).get(port) ?? [];
    if (!labels || Object.keys(labels).length === 0) return l;
    return l.filter((e) => selectorMatches(labels, e.ep.labels));
  };
  const saCache = new WeakMap<Service, string[]>();
  const serviceAccounts = (svc: Service): readonly string[] => {
    let out = saCache.get(svc);
    if (!out) {
      const set = new Set<string>();
      for (const e of svc.endpoints) if (e.identity !== '') set.add(e.identity);
      for (const sa of svc.serviceAccounts) set.add(sa);
      out = [...expandWithTrustDomains(set, mesh)].sort();
      saCache.set(svc, out);
    }
    return out;
  };

  return {
    view,
    mesh,
    features,
    configDomainSuffix,
    services,
    publicServices,
    exportedServices,
    hostnameAndNamespace,
    virtualServices,
    vsPublicByGateway,
    vsPrivateByNamespaceAndGateway: vsPrivate,
    vsExportedToNamespaceByGateway: vsExported,
    drNamespaceLocal,
    drExportedByNamespace,
    drRootNamespaceLocal,
    sidecarsByNamespace,
    rootSidecar,
    gateways,
    peerAuthentications,
    namespaceMtlsMode,
    globalMtlsMode,
    endpointsByPort,
    serviceEndpointsByPort,
    serviceAccounts,
    externalSds: externalSdsOf(view, services),
  };
}

/** spiffe.ExpandWithTrustDomains: each SPIFFE id also under every trust domain alias. */
function expandWithTrustDomains(ids: Set<string>, mesh: MeshSettings): Set<string> {
  if (mesh.trustDomainAliases.length === 0) return ids;
  const out = new Set(ids);
  for (const id of ids) {
    const m = /^spiffe:\/\/([^/]+)(\/.*)$/.exec(id);
    if (!m) continue;
    for (const td of mesh.trustDomainAliases) out.add(`spiffe://${td}${m[2]}`);
  }
  return out;
}

/** Kubernetes objects carry the cluster domain; Istio config objects the configured one. */
function domainFor(r: Resource, configDomainSuffix: string): string {
  return r.synthetic === 'placeholder' ? 'cluster.local' : configDomainSuffix;
}

/** resolveServiceAliases: each concrete service learns the ExternalName services pointing at it. */
function resolveAliases(services: MeshService[]): Service[] {
  const raw = new Map<string, { alias: { hostname: string; namespace: string }; target: string }>();
  const unnamespaced = new Map<string, string>();
  for (const s of services) {
    if (s.resolution !== 'Alias' || !s.externalName) continue;
    raw.set(`${s.namespace}/${s.hostname}`, { alias: { hostname: s.hostname, namespace: s.namespace }, target: s.externalName });
    unnamespaced.set(s.hostname, s.externalName);
  }
  if (raw.size === 0) return services;
  const aliasesFor = new Map<string, { hostname: string; namespace: string }[]>();
  for (const { alias, target } of raw.values()) {
    let concrete = target;
    if (unnamespaced.has(concrete)) {
      const seen = new Set([alias.hostname, concrete]);
      let ok = true;
      for (;;) {
        const n = unnamespaced.get(concrete);
        if (n === undefined) break;
        if (seen.has(n)) {
          ok = false;
          break;
        }
        seen.add(n);
        concrete = n;
      }
      if (!ok) continue;
    }
    listAt(aliasesFor, concrete).push(alias);
  }
  for (const l of aliasesFor.values())
    l.sort((a, b) => (a.namespace !== b.namespace ? (a.namespace < b.namespace ? -1 : 1) : a.hostname < b.hostname ? -1 : a.hostname > b.hostname ? 1 : 0));
  return services.map((s) => {
    const aliases = aliasesFor.get(s.hostname);
    return aliases ? { ...s, aliases } : s;
  });
}

// ---- VirtualService merging ----------------------------------------------------------

function exportToSet(raw: readonly string[], namespace: string, meshDefault: readonly string[]): Set<string> {
  const list = raw.length > 0 ? raw : meshDefault;
  return new Set(list.map((e) => (e === '.' ? namespace : e)));
}

function resolveDestination(d: Destination | undefined, namespace: string, suffix: string): Destination | undefined {
  if (!d) return d;
  return { ...d, host: resolveShortname(d.host, namespace, suffix) };
}

function resolveMatchGateways<T extends { gateways: readonly string[] }>(m: T, namespace: string): T {
  if (m.gateways.length === 0) return m;
  return { ...m, gateways: m.gateways.map((g) => (g === MESH_GATEWAY ? g : resolveGatewayName(g, namespace))) };
}

function httpRules(r: Resource, meta: ConfigMeta, resolve: boolean, suffix: string): HttpRule[] {
  const spec = virtualService(r);
  const ns = r.namespace;
  return spec.http.map((h, i) => {
    const prov: ProvenanceRef = { resourceKey: meta.sourceKey, fieldPath: meta.sourceKey === r.key ? `spec.http[${i}]` : undefined };
    if (!resolve) return { ...h, prov };
    return {
      ...h,
      match: h.match.map((m) => resolveMatchGateways(m, ns)),
      route: h.route.map((d) => ({ ...d, destination: resolveDestination(d.destination, ns, suffix) })),
      mirror: resolveDestination(h.mirror, ns, suffix),
      mirrors: h.mirrors.map((m) => ({ ...m, destination: resolveDestination(m.destination, ns, suffix) })),
      prov,
    };
  });
}

function vsConfig(r: Resource, mesh: MeshSettings, suffix: string): VirtualServiceConfig {
  const spec = virtualService(r);
  const meta = metaOf(r, KINDS.VirtualService);
  const semantics = r.annotations[ROUTE_SEMANTICS_ANNOTATION];
  const gatewaySemantics = semantics === 'gateway';
  const ingressSemantics = semantics === 'ingress';
  const exportTo = exportToSet(spec.exportTo, r.namespace, mesh.defaultVirtualServiceExportTo);
  if (gatewaySemantics) {
    return {
      meta,
      hosts: spec.hosts,
      gateways: spec.gateways,
      http: httpRules(r, meta, false, suffix),
      tcp: spec.tcp,
      tls: spec.tls,
      exportTo,
      gatewaySemantics,
      ingressSemantics,
    };
  }
  const domain = domainFor(r, suffix);
  const ns = r.namespace;
  return {
    meta,
    hosts: spec.hosts.map((h) => resolveShortname(h, ns, domain)),
    gateways: spec.gateways.map((g) => (g === MESH_GATEWAY ? g : resolveGatewayName(g, ns))),
    http: httpRules(r, meta, true, domain),
    tcp: spec.tcp.map((t) => ({
      ...t,
      match: t.match.map((m) => resolveMatchGateways(m, ns)),
      route: t.route.map((d) => ({ ...d, destination: resolveDestination(d.destination, ns, domain) })),
    })),
    tls: spec.tls.map((t) => ({
      ...t,
      match: t.match.map((m) => resolveMatchGateways(m, ns)),
      route: t.route.map((d) => ({ ...d, destination: resolveDestination(d.destination, ns, domain) })),
    })),
    exportTo,
    gatewaySemantics,
    ingressSemantics,
  };
}

/** VirtualServiceController.MergedVirtualServices: root services with delegates merged, oldest first. */
function mergeVirtualServices(resources: readonly Resource[], mesh: MeshSettings, suffix: string): VirtualServiceConfig[] {
  const delegates = new Map<string, VirtualServiceConfig>();
  const roots: VirtualServiceConfig[] = [];
  for (const r of resources) {
    const cfg = vsConfig(r, mesh, suffix);
    if (virtualService(r).hosts.length === 0) delegates.set(`${r.namespace}/${r.name}`, cfg);
    else roots.push(cfg);
  }
  const out: VirtualServiceConfig[] = [];
  for (const root of roots) {
    if (root.gatewaySemantics || root.ingressSemantics || !root.http.some((h) => h.delegate !== undefined)) {
      out.push(root);
      continue;
    }
    const merged: HttpRule[] = [];
    for (const h of root.http) {
      if (!h.delegate) {
        merged.push(h);
        continue;
      }
      const ns = h.delegate.namespace || root.meta.namespace;
      const d = delegates.get(`${ns}/${h.delegate.name}`);
      if (!d) continue;
      if (!d.exportTo.has('*') && !d.exportTo.has(root.meta.namespace)) continue;
      merged.push(...mergeHttpRoutes(h, d.http));
    }
    out.push({ ...root, http: merged });
  }
  out.sort((a, b) => compareConfigs(a.meta, b.meta));
  return out;
}

function mergeHttpRoutes(root: HttpRule, delegate: readonly HttpRule[]): HttpRule[] {
  const out: HttpRule[] = [];
  for (const sub of delegate) {
    const m = mergeHttpRoute(root, sub);
    if (m) out.push(m);
  }
  return out;
}

function mergeHttpRoute(root: HttpRule, delegate: HttpRule): HttpRule | undefined {
  const match = mergeMatches(root.match, delegate.match);
  if (match === undefined) return undefined;
  let name = delegate.name;
  if (name === '') name = root.name;
  else if (root.name !== '') name = `${root.name}-${delegate.name}`;
  return {
    ...delegate,
    match,
    name,
    delegate: undefined,
    rewrite: delegate.rewrite ?? root.rewrite,
    directResponse: delegate.directResponse ?? root.directResponse,
    timeout: delegate.timeout ?? root.timeout,
    retries: delegate.retries ?? root.retries,
    fault: delegate.fault ?? root.fault,
    mirror: delegate.mirror ?? root.mirror,
    mirrorPercent: delegate.mirrorPercent ?? root.mirrorPercent,
    mirrorPercentage: delegate.mirrorPercentage ?? root.mirrorPercentage,
    corsPolicy: delegate.corsPolicy ?? root.corsPolicy,
    mirrors: delegate.mirrors.length > 0 ? delegate.mirrors : root.mirrors,
    headers: delegate.headers ?? root.headers,
  };
}

/** mergeHTTPMatchRequests: every delegate match must fit a root match; undefined on conflict. */
function mergeMatches(root: readonly HTTPMatchRequest[], delegate: readonly HTTPMatchRequest[]): HTTPMatchRequest[] | undefined {
  if (root.length === 0) return [...delegate];
  if (delegate.length === 0) return [...root];
  const out: HTTPMatchRequest[] = [];
  for (const sub of delegate) {
    let found = false;
    for (const r of root) {
      if (matchConflict(r, sub)) continue;
      out.push(mergeMatch(r, sub));
      found = true;
    }
    if (!found) return undefined;
  }
  return out.length === 0 ? undefined : out;
}

function mergeMatch(root: HTTPMatchRequest, d: HTTPMatchRequest): HTTPMatchRequest {
  let name = d.name;
  if (name === '') name = root.name;
  else if (root.name !== '') name = `${root.name}-${d.name}`;
  return {
    ...d,
    name,
    uri: d.uri ?? root.uri,
    scheme: d.scheme ?? root.scheme,
    method: d.method ?? root.method,
    authority: d.authority ?? root.authority,
    headers: { ...root.headers, ...d.headers },
    withoutHeaders: { ...root.withoutHeaders, ...d.withoutHeaders },
    queryParams: { ...root.queryParams, ...d.queryParams },
    port: d.port || root.port,
    sourceLabels: { ...root.sourceLabels, ...d.sourceLabels },
    sourceNamespace: d.sourceNamespace || root.sourceNamespace,
    gateways: d.gateways.length > 0 ? d.gateways : root.gateways,
    statPrefix: d.statPrefix || root.statPrefix,
  };
}

type StringMatch = HTTPMatchRequest['uri'];

function stringMatchConflict(root: StringMatch, leaf: StringMatch): boolean {
  if (!root || !leaf) return false;
  if (root.regex) {
    if (leaf.regex || leaf.prefix || leaf.exact) return true;
  }
  if (leaf.regex) {
    if (root.regex || root.prefix || root.exact) return true;
  }
  if (root.exact) {
    if (leaf.prefix) return true;
    return leaf.exact !== root.exact;
  }
  if (root.prefix) {
    if (leaf.prefix) return !leaf.prefix.startsWith(root.prefix);
    if (leaf.exact) return !leaf.exact.startsWith(root.prefix);
  }
  return true;
}

function matchConflict(root: HTTPMatchRequest, leaf: HTTPMatchRequest): boolean {
  if (
    stringMatchConflict(root.uri, leaf.uri) ||
    stringMatchConflict(root.scheme, leaf.scheme) ||
    stringMatchConflict(root.method, leaf.method) ||
    stringMatchConflict(root.authority, leaf.authority)
  )
    return true;
  for (const k of Object.keys(leaf.headers)) if (stringMatchConflict(root.headers[k], leaf.headers[k])) return true;
  for (const k of Object.keys(leaf.withoutHeaders)) if (stringMatchConflict(root.withoutHeaders[k], leaf.withoutHeaders[k])) return true;
  for (const k of Object.keys(leaf.queryParams)) if (stringMatchConflict(root.queryParams[k], leaf.queryParams[k])) return true;
  if (root.ignoreUriCase !== leaf.ignoreUriCase) return true;
  if (root.port > 0 && leaf.port > 0 && root.port !== leaf.port) return true;
  if (root.sourceNamespace !== '' && leaf.sourceNamespace !== root.sourceNamespace) return true;
  for (const k of Object.keys(leaf.sourceLabels)) {
    const v = root.sourceLabels[k];
    if (v !== undefined && v !== leaf.sourceLabels[k]) return true;
  }
  if (root.gateways.length > 0 && leaf.gateways.length > 0) {
    if (root.gateways.length < leaf.gateways.length) return true;
    for (const g of leaf.gateways) if (!root.gateways.includes(g)) return true;
  }
  return false;
}

// ---- DestinationRule consolidation ---------------------------------------------------

function newConsolidated(): ConsolidatedDestRules {
  return { specific: new Map(), wildcard: new Map() };
}

function setsEqual(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

function superset(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of b) if (!a.has(x)) return false;
  return true;
}

function selectorsEqual(a: LabelMap | undefined, b: LabelMap | undefined): boolean {
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b ?? {});
  if (ak.length !== bk.length) return false;
  return ak.every((k) => (a as LabelMap)[k] === b?.[k]);
}

/** mergeDestinationRule (ENABLE_ENHANCED_DESTINATIONRULE_MERGE on). */
function mergeDestinationRule(p: ConsolidatedDestRules, dr: DestinationRuleConfig, exportTo: ReadonlySet<string>): void {
  const map = isWildcardHost(dr.host) ? p.wildcard : p.specific;
  const list = map.get(dr.host);
  if (!list) {
    map.set(dr.host, [{ exportTo, rule: dr, from: [dr.meta] }]);
    return;
  }
  let appendSeparately = true;
  for (const mdr of list) {
    if (setsEqual(exportTo, mdr.exportTo)) appendSeparately = false;
    else if (mdr.exportTo.size > 0 && superset(exportTo, mdr.exportTo)) appendSeparately = true;
    else {
      appendSeparately = true;
      continue;
    }
    const existing = mdr.rule.spec;
    const bothWithout = dr.spec.workloadSelector === undefined && existing.workloadSelector === undefined;
    const bothWith = dr.spec.workloadSelector !== undefined && existing.workloadSelector !== undefined;
    const selMatch = selectorsEqual(existing.workloadSelector?.matchLabels, dr.spec.workloadSelector?.matchLabels);
    if (bothWith && !selMatch) {
      appendSeparately = true;
      continue;
    }
    if (bothWithout || (bothWith && selMatch)) appendSeparately = false;
    const names = new Set(existing.subsets.map((s) => s.name));
    const subsets = [...existing.subsets, ...dr.spec.subsets.filter((s) => !names.has(s.name))];
    const existingBackend = mdr.rule.meta.annotations[PARENTS_ANNOTATION] !== undefined;
    const incomingBackend = dr.meta.annotations[PARENTS_ANNOTATION] !== undefined;
    let trafficPolicy = existing.trafficPolicy;
    if (existingBackend === incomingBackend) trafficPolicy = existing.trafficPolicy ?? dr.spec.trafficPolicy;
    else if (incomingBackend) trafficPolicy = existing.trafficPolicy ?? dr.spec.trafficPolicy;
    else trafficPolicy = dr.spec.trafficPolicy ?? existing.trafficPolicy;
    mdr.rule = { ...mdr.rule, spec: { ...existing, subsets, trafficPolicy } };
    mdr.from = [...mdr.from, dr.meta];
  }
  if (appendSeparately) list.push({ exportTo, rule: dr, from: [dr.meta] });
}

// ---- helpers for readers -------------------------------------------------------------

/** `/apis/<group>/<version>/namespaces/<ns>/<kebab-kind>/<name>` (util.BuildConfigInfoMetadata). */
export function configInfoPath(meta: ConfigMeta): string {
  const kebab = meta.kind.kind.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  return `/apis/${meta.kind.group}/${meta.kind.version}/namespaces/${meta.namespace}/${kebab}/${meta.name}`;
}

/** A raw sub-object of a spec (Struct-like fields kept as parsed). */
export function rawObj(v: unknown): Record<string, unknown> | undefined {
  return isObj(v) ? v : undefined;
}

export function rawStr(v: unknown): string {
  return str(v);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
