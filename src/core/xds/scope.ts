// The SidecarScope of a proxy (pilot/pkg/model/sidecar.go, spec §2.1): which services and
// VirtualServices each egress listener imports, the union of services for CDS, the
// DestinationRules those services need, and the outbound traffic policy.
import type { SidecarSpec, Destination } from '../config/api/networking.ts';
import { selectorMatches } from '../config/labels.ts';
import { mostSpecificHostMatch } from './hostname.ts';
import { hostMatches, hostSubsetOf, isWildcardHost } from '../config/hosts.ts';
import { MESH_GATEWAY, type ConfigMeta, type ConsolidatedDestRule, type PushContext, type Service, type VirtualServiceConfig } from './pushContext.ts';
import type { Proxy } from './types.ts';
import { parseProtocol } from '../config/protocol.ts';
import { mapAt, setAt } from '../document/maps.ts';

/** A Sidecar egress listener as written. */
export type IstioEgressListener = SidecarSpec['egress'][number];

export interface EgressListenerScope {
  /** The Sidecar's egress listener (undefined for the implicit catch-all). */
  listener: IstioEgressListener | undefined;
  services: readonly Service[];
  virtualServices: readonly VirtualServiceConfig[];
  /** Service hostname → the VirtualService holding its most specific (wildcard) host match. */
  mostSpecificWildcardVs: ReadonlyMap<string, VirtualServiceConfig>;
}

export interface OutboundTrafficPolicy {
  mode: 'ALLOW_ANY' | 'REGISTRY_ONLY' | 'ALLOW_ANY_DYNAMIC_DNS';
  egressProxy?: Destination;
}

export interface SidecarScope {
  name: string;
  namespace: string;
  sidecar: { meta: ConfigMeta; spec: SidecarSpec } | undefined;
  egressListeners: readonly EgressListenerScope[];
  services: readonly Service[];
  servicesByHostname: ReadonlyMap<string, Service>;
  destinationRules: ReadonlyMap<string, readonly ConsolidatedDestRule[]>;
  outboundTrafficPolicy: OutboundTrafficPolicy;
}

interface HostClassification {
  exact: Set<string>;
  all: string[];
  excluded: string[];
}

function excluded(hc: HostClassification, h: string): boolean {
  return hc.excluded.some((e) => hostSubsetOf(h, e));
}

/** hostClassification.Matches: exact hosts by lookup, wildcards by SubsetOf. */
function classMatches(hc: HostClassification, h: string): boolean {
  if (hc.exact.has(h)) return true;
  const hw = isWildcardHost(h);
  for (const imported of hc.all) {
    if (!hw && !isWildcardHost(imported)) continue;
    if (hostSubsetOf(h, imported)) return true;
  }
  return false;
}

function vsMatches(hc: HostClassification, vsHost: string, gatewaySemantics: boolean): boolean {
  if (hc.exact.has(vsHost)) return true;
  const hw = isWildcardHost(vsHost);
  for (const imported of hc.all) {
    if (!hw && !isWildcardHost(imported)) continue;
    if (gatewaySemantics ? hostSubsetOf(vsHost, imported) : hostMatches(vsHost, imported)) return true;
  }
  return false;
}

/** servicesExportedToNamespace: exported-to-namespace services, then public ones. */
export function servicesExportedTo(push: PushContext, ns: string): Service[] {
  return [...(push.exportedServices.get(ns) ?? []), ...push.publicServices];
}

/** IsServiceVisible. */
export function isServiceVisible(svc: Service, ns: string): boolean {
  if (svc.exportTo.includes('*')) return true;
  if (svc.exportTo.includes('~')) return false;
  return svc.exportTo.includes(ns);
}

/** The Sidecar resource that applies to a proxy (getSidecarScope), or undefined for the default scope. */
function selectSidecar(push: PushContext, proxy: Proxy): { meta: ConfigMeta; spec: SidecarSpec } | undefined {
  const list = push.sidecarsByNamespace.get(proxy.configNamespace);
  if (list) {
    for (const s of list) {
      const sel = s.spec.workloadSelector?.labels;
      if (sel !== undefined && !selectorMatches(sel, proxy.labels)) continue;
      return s;
    }
  }
  return push.rootSidecar;
}

/** The SidecarScope of a proxy (computed per Sidecar and namespace, as istiod caches it). */
export function sidecarScope(push: PushContext, proxy: Proxy): SidecarScope {
  if (proxy.type !== 'sidecar') return gatewayScope(push, proxy.configNamespace);
  const sc = selectSidecar(push, proxy);
  return convertToSidecarScope(push, sc, proxy.configNamespace);
}

const scopeCache = new WeakMap<PushContext, Map<string, SidecarScope>>();

function cached(push: PushContext, key: string, build: () => SidecarScope): SidecarScope {
  const m = mapAt(scopeCache, push);
  let s = m.get(key);
  if (!s) m.set(key, (s = build()));
  return s;
}

/** DefaultSidecarScopeForGateway: every service exported to the namespace; VirtualServices bound to `mesh`. */
export function gatewayScope(push: PushContext, configNamespace: string): SidecarScope {
  return cached(push, `gw:${configNamespace}`, () => {
    const services: Service[] = [];
    const byHost = new Map<string, Service>();
    const added = new Map<string, number>();
    for (const s of servicesExportedTo(push, configNamespace)) appendService(services, byHost, added, s);
    return {
      name: 'default-sidecar',
      namespace: configNamespace,
      sidecar: undefined,
      egressListeners: [
        {
          listener: undefined,
          services: [],
          virtualServices: virtualServicesForGateway(push, configNamespace, MESH_GATEWAY),
          mostSpecificWildcardVs: new Map(),
        },
      ],
      services,
      servicesByHostname: byHost,
      destinationRules: selectDestinationRules(push, services, configNamespace),
      outboundTrafficPolicy: { mode: push.mesh.outboundTrafficPolicy },
    };
  });
}

function convertToSidecarScope(push: PushContext, sc: { meta: ConfigMeta; spec: SidecarSpec } | undefined, configNamespace: string): SidecarScope {
  const key = sc ? `sc:${sc.meta.namespace}/${sc.meta.name}@${configNamespace}` : `default@${configNamespace}`;
  return cached(push, key, () => {
    const egressConfigs: (IstioEgressListener | undefined)[] = sc && sc.spec.egress.length > 0 ? [...sc.spec.egress] : [undefined];
    const egressListeners = egressConfigs.map((e) => convertEgressListener(push, configNamespace, e));
    const services: Service[] = [];
    const byHost = new Map<string, Service>();
    const added = new Map<string, number>();
    for (const el of egressListeners) {
      for (const s of el.services) appendService(services, byHost, added, s);
      // Destinations of the imported VirtualServices not otherwise imported.
      for (const vs of el.virtualServices) {
        for (const [h, ports] of vsDestinationsForNamespace(vs, configNamespace)) {
          const byNs = push.hostnameAndNamespace.get(h);
          if (!byNs) continue;
          let svc = byNs.get(configNamespace);
          if (!svc) {
            const ns = pickBestVisibleNamespace(byNs, configNamespace);
            if (ns === '') continue;
            svc = byNs.get(ns);
          }
          if (!svc) continue;
          const matched = el.listener && needsPortMatch(el.listener) ? serviceMatchingListenerPort(svc, el.listener) : serviceMatchingVsPorts(svc, ports);
          if (matched) appendService(services, byHost, added, matched);
        }
      }
    }
    const otp = sc?.spec.outboundTrafficPolicy;
    const outboundTrafficPolicy: OutboundTrafficPolicy = otp
      ? {
          mode: otp.mode === 'REGISTRY_ONLY' || otp.mode === 'ALLOW_ANY_DYNAMIC_DNS' ? otp.mode : 'ALLOW_ANY',
          ...(otp.egressProxy ? { egressProxy: otp.egressProxy } : {}),
        }
      : { mode: push.mesh.outboundTrafficPolicy };
    return {
      name: sc?.meta.name ?? 'default-sidecar',
      namespace: configNamespace,
      sidecar: sc,
      egressListeners,
      services,
      servicesByHostname: byHost,
      destinationRules: selectDestinationRules(push, services, configNamespace),
      outboundTrafficPolicy,
    };
  });
}

function needsPortMatch(l: IstioEgressListener): boolean {
  return (l.port?.number ?? 0) !== 0 && parseProtocol(l.port?.protocol ?? '') !== 'HTTP_PROXY';
}

function convertEgressListener(push: PushContext, configNamespace: string, l: IstioEgressListener | undefined): EgressListenerScope {
  const hosts = l ? l.hosts : ['*/*'];
  const byNs = new Map<string, HostClassification>();
  let allExact = true;
  for (const h of hosts) {
    if (h.split('/').length !== 2) continue;
    let [ns, name] = h.split('/') as [string, string];
    const excl = ns.startsWith('~');
    if (excl) {
      ns = ns.slice(1);
      if (ns === '') ns = '*';
    }
    if (ns === '.') ns = configNamespace;
    let hc = byNs.get(ns);
    if (!hc) byNs.set(ns, (hc = { exact: new Set(), all: [], excluded: [] }));
    if (excl) {
      hc.excluded.push(name);
      continue;
    }
    if (!isWildcardHost(name)) hc.exact.add(name);
    else allExact = false;
    if (ns === '*') allExact = false;
    hc.all.push(name);
  }
  const virtualServices = selectVirtualServices(push, configNamespace, byNs);
  let candidates: Service[];
  if (allExact) {
    candidates = [];
    for (const [ns, hc] of byNs) {
      for (const h of hc.exact) {
        const svc = push.hostnameAndNamespace.get(h)?.get(ns);
        if (svc && isServiceVisible(svc, configNamespace)) candidates.push(svc);
      }
    }
    const order = new Map(push.services.map((s, i) => [s, i]));
    candidates.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  } else candidates = servicesExportedTo(push, configNamespace);
  const services = selectServices(candidates, configNamespace, byNs, l);
  return { listener: l, services, virtualServices, mostSpecificWildcardVs: wildcardVsIndex(virtualServices, services) };
}

function selectServices(
  candidates: readonly Service[],
  configNamespace: string,
  byNs: Map<string, HostClassification>,
  l: IstioEgressListener | undefined,
): Service[] {
  const imported: Service[] = [];
  const wildcard = byNs.get('*');
  const matchPort = l !== undefined && needsPortMatch(l);
  const matching = (hc: HostClassification, s: Service): Service | undefined => {
    if (!classMatches(hc, s.hostname)) return undefined;
    const svc = matchPort ? serviceMatchingListenerPort(s, l as IstioEgressListener) : s;
    if (!svc) return undefined;
    if (!svc.aliases || svc.aliases.length === 0) return svc;
    const aliases = svc.aliases.filter((a) => classMatches(hc, a.hostname));
    return aliases.length === svc.aliases.length ? svc : { ...svc, aliases };
  };
  for (const s of candidates) {
    const nsHosts = byNs.get(s.namespace);
    if ((nsHosts && excluded(nsHosts, s.hostname)) || (wildcard && excluded(wildcard, s.hostname))) continue;
    if (nsHosts) {
      const svc = matching(nsHosts, s);
      if (svc) {
        imported.push(svc);
        continue;
      }
    }
    if (wildcard) {
      const svc = matching(wildcard, s);
      if (svc) imported.push(svc);
    }
  }
  // One namespace per hostname: the config namespace, then Kubernetes over ServiceEntry.
  const valid = new Map<string, { ns: string; kube: boolean }>();
  for (const svc of imported) {
    const np = { ns: svc.namespace, kube: svc.registry === 'Kubernetes' };
    const ex = valid.get(svc.hostname);
    if (!ex) valid.set(svc.hostname, np);
    else if (svc.namespace === configNamespace) valid.set(svc.hostname, np);
    else if (!ex.kube && np.kube && (np.ns === configNamespace || ex.ns !== configNamespace)) valid.set(svc.hostname, np);
  }
  return imported.filter((s) => valid.get(s.hostname)?.ns === s.namespace);
}

function serviceMatchingListenerPort(svc: Service, l: IstioEgressListener): Service | undefined {
  const n = l.port?.number ?? 0;
  const p = svc.ports.find((x) => x.port === n);
  if (!p) return undefined;
  if (svc.ports.length === 1) return svc;
  return { ...svc, ports: [{ name: p.name, port: p.port, protocol: p.protocol, targetPort: p.targetPort }] };
}

function serviceMatchingVsPorts(svc: Service, ports: ReadonlySet<number>): Service | undefined {
  if (ports.size === 0 || ports.has(0)) return svc;
  const found = svc.ports.filter((p) => ports.has(p.port));
  if (found.length === svc.ports.length) return svc;
  if (found.length > 0) return { ...svc, ports: found };
  return undefined;
}

/** virtualServiceDestinationsFilteredBySourceNamespace: destination hosts and their ports (0 = any). */
export function vsDestinationsForNamespace(vs: VirtualServiceConfig, configNamespace: string): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  const add = (host: string, port: number | undefined) => {
    setAt(out, host).add(port ?? 0);
  };
  for (const h of vs.http) {
    if (configNamespace !== '') {
      let nsMatched = true;
      for (const m of h.match) {
        if (m.sourceNamespace !== '') {
          if (m.sourceNamespace === configNamespace) {
            nsMatched = true;
            break;
          }
          nsMatched = false;
        }
      }
      if (!nsMatched) continue;
    }
    for (const r of h.route) if (r.destination) add(r.destination.host, r.destination.port?.number);
    if (h.mirror) add(h.mirror.host, h.mirror.port?.number);
    for (const m of h.mirrors) if (m.destination) add(m.destination.host, m.destination.port?.number);
  }
  for (const t of vs.tcp) for (const r of t.route) if (r.destination) add(r.destination.host, r.destination.port?.number);
  for (const t of vs.tls) for (const r of t.route) if (r.destination) add(r.destination.host, r.destination.port?.number);
  return out;
}

/** pickBestVisibleNamespace: a visible Kubernetes service, else the oldest visible one. */
function pickBestVisibleNamespace(byNs: ReadonlyMap<string, Service>, configNamespace: string): string {
  let best: Service | undefined;
  for (const svc of byNs.values()) {
    if (!isServiceVisible(svc, configNamespace)) continue;
    if (svc.registry === 'Kubernetes') return svc.namespace;
    if (!best || svc.creationTime < best.creationTime) best = svc;
  }
  return best?.namespace ?? '';
}

/** appendSidecarServices: services by hostname, Kubernetes winning, same-namespace ports merged. */
function appendService(list: Service[], byHost: Map<string, Service>, added: Map<string, number>, s: Service): void {
  const at = added.get(s.hostname);
  if (at === undefined) {
    list.push(s);
    added.set(s.hostname, list.length - 1);
    byHost.set(s.hostname, s);
    return;
  }
  const existing = list[at] as Service;
  if (existing === s) return;
  if (existing.registry === 'Kubernetes' && s.registry !== 'Kubernetes') return;
  if (existing.registry !== 'Kubernetes' && s.registry === 'Kubernetes') {
    list[at] = s;
    byHost.set(s.hostname, s);
    return;
  }
  if (
    existing.ports.length === s.ports.length &&
    existing.ports.every((p, i) => p.port === s.ports[i]?.port && p.name === s.ports[i]?.name && p.protocol === s.ports[i]?.protocol)
  )
    return;
  if (!canMergeServices(existing, s)) return;
  const ports = [...existing.ports];
  for (const p of s.ports) if (!ports.some((x) => x.port === p.port)) ports.push(p);
  const merged = { ...existing, ports };
  list[at] = merged;
  byHost.set(s.hostname, merged);
}

/**
 * canMergeServices (pilot/pkg/model/sidecar.go): two services of one hostname merge their ports
 * when they share namespace, resolution, registry, labels, workload selector and the exportTo
 * as written (two ServiceEntries of one namespace writing one host, for instance); else the
 * first one seen (the oldest) is kept alone.
 */
function canMergeServices(a: Service, b: Service): boolean {
  if (a.namespace !== b.namespace || a.resolution !== b.resolution || a.registry !== b.registry) return false;
  if (!sameMap(a.labels, b.labels) || !sameMap(a.labelSelectors ?? {}, b.labelSelectors ?? {})) return false;
  return sameSet(writtenExportTo(a), writtenExportTo(b));
}

function sameMap(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

/** Attributes.ExportTo as Istio keeps it: a ServiceEntry's spec.exportTo as written (`.` kept, nothing when empty). */
function writtenExportTo(s: Service): readonly string[] {
  if (s.registry === 'Kubernetes') return s.exportTo;
  const spec = s.resource.body.spec;
  const raw = spec !== null && typeof spec === 'object' && !Array.isArray(spec) ? (spec as Record<string, unknown>).exportTo : undefined;
  return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
}

/** SelectVirtualServices: private, exported, then public `mesh` VirtualServices matching the imports. */
function selectVirtualServices(push: PushContext, configNamespace: string, byNs: Map<string, HostClassification>): VirtualServiceConfig[] {
  const out: VirtualServiceConfig[] = [];
  const seen = new Set<VirtualServiceConfig>();
  const wildcard = byNs.get('*');
  const add = (vs: VirtualServiceConfig, hc: HostClassification) => {
    if (seen.has(vs)) return;
    const nsExcl = byNs.get(vs.meta.namespace);
    for (const h of vs.hosts) {
      if (!vsMatches(hc, h, vs.gatewaySemantics)) continue;
      if ((nsExcl && excluded(nsExcl, h)) || (wildcard && excluded(wildcard, h))) continue;
      out.push(vs);
      seen.add(vs);
      return;
    }
  };
  const loop = (list: readonly VirtualServiceConfig[] | undefined) => {
    if (!list) return;
    for (const gwMatch of [true, false]) {
      for (const vs of list) {
        const gwExact = vs.gatewaySemantics && vs.meta.namespace === configNamespace;
        if (gwMatch !== gwExact) continue;
        const nsHosts = byNs.get(vs.meta.namespace);
        if (nsHosts) add(vs, nsHosts);
        if (wildcard) add(vs, wildcard);
      }
    }
  };
  loop(push.vsPrivateByNamespaceAndGateway.get(`${configNamespace}/${MESH_GATEWAY}`));
  loop(push.vsExportedToNamespaceByGateway.get(`${configNamespace}/${MESH_GATEWAY}`));
  loop(push.vsPublicByGateway.get(MESH_GATEWAY));
  return out;
}

/** VirtualServicesForGateway: private, exported, own-namespace Gateway API, then other public ones. */
export function virtualServicesForGateway(push: PushContext, proxyNamespace: string, gateway: string): VirtualServiceConfig[] {
  const key = `${proxyNamespace}/${gateway}`;
  const pub = push.vsPublicByGateway.get(gateway) ?? [];
  return [
    ...(push.vsPrivateByNamespaceAndGateway.get(key) ?? []),
    ...(push.vsExportedToNamespaceByGateway.get(key) ?? []),
    ...pub.filter((vs) => vs.gatewaySemantics && vs.meta.namespace === proxyNamespace),
    ...pub.filter((vs) => !(vs.gatewaySemantics && vs.meta.namespace === proxyNamespace)),
  ];
}

/** computeWildcardHostVirtualServiceIndex. */
function wildcardVsIndex(vss: readonly VirtualServiceConfig[], services: readonly Service[]): Map<string, VirtualServiceConfig> {
  const fqdn = new Map<string, VirtualServiceConfig>();
  const wild = new Map<string, VirtualServiceConfig>();
  for (const vs of vss) {
    for (const h of vs.hosts) {
      const m = isWildcardHost(h) ? wild : fqdn;
      if (!m.has(h)) m.set(h, vs);
    }
  }
  const out = new Map<string, VirtualServiceConfig>();
  if (fqdn.size === 0 && wild.size === 0) return out;
  for (const svc of services) {
    const hit = mostSpecificHostMatch(svc.hostname, fqdn, wild);
    if (hit) out.set(svc.hostname, hit.value);
  }
  return out;
}

// ---- DestinationRules ------------------------------------------------------------------

function selectDestinationRules(push: PushContext, services: readonly Service[], configNamespace: string): Map<string, readonly ConsolidatedDestRule[]> {
  const out = new Map<string, readonly ConsolidatedDestRule[]>();
  for (const s of services) {
    const drs = destinationRuleFor(push, configNamespace, s);
    if (drs && drs.length > 0) out.set(s.hostname, drs);
  }
  return out;
}

/** PushContext.destinationRule: proxy namespace, then the service's namespace, then the root namespace. */
export function destinationRuleFor(push: PushContext, proxyNamespace: string, service: Service): readonly ConsolidatedDestRule[] | undefined {
  const root = push.mesh.rootNamespace;
  if (proxyNamespace !== root) {
    const local = push.drNamespaceLocal.get(proxyNamespace);
    if (local) {
      const hit = mostSpecificHostMatch(service.hostname, local.specific, local.wildcard);
      if (hit) return hit.value;
    }
  } else {
    const hit = mostSpecificHostMatch(service.hostname, push.drRootNamespaceLocal.specific, push.drRootNamespaceLocal.wildcard);
    if (hit) return hit.value;
  }
  const fromNs = (owning: string) => {
    const c = push.drExportedByNamespace.get(owning);
    if (!c) return undefined;
    const hit = mostSpecificHostMatch(service.hostname, c.specific, c.wildcard);
    if (!hit) return undefined;
    return hit.value.filter((d) => d.exportTo.size === 0 || d.exportTo.has('*') || d.exportTo.has(proxyNamespace));
  };
  if (service.namespace !== '') {
    const out = fromNs(service.namespace);
    if (out && out.length > 0) return out;
  }
  const out = fromNs(root);
  if (out && out.length > 0) return out;
  return undefined;
}

/** SidecarScope.DestinationRule: a workload-selecting DR in the proxy's namespace wins for outbound, else the catch-all. */
export function scopeDestinationRule(scope: SidecarScope, direction: 'outbound' | 'inbound', proxy: Proxy, host: string): ConsolidatedDestRule | undefined {
  const drs = scope.destinationRules.get(host);
  if (!drs) return undefined;
  let catchAll: ConsolidatedDestRule | undefined;
  for (const dr of drs) {
    const sel = dr.rule.spec.workloadSelector;
    if (sel === undefined) catchAll = dr;
    if (scope.namespace === dr.rule.meta.namespace && sel !== undefined && direction === 'outbound') {
      if (selectorMatches(sel.matchLabels, proxy.labels)) return dr;
    }
  }
  return catchAll;
}

/** GetEgressListenerForRDS: the egress listener of a port (or the catch-all). */
export function egressListenerForRds(scope: SidecarScope, port: number, bind: string): EgressListenerScope | undefined {
  for (const e of scope.egressListeners) {
    if (!e.listener?.port || (e.listener.port.number ?? 0) === 0) return e;
    if (e.listener.port.number === port) {
      if (port === 0) {
        if (e.listener.bind === bind) return e;
        continue;
      }
      return e;
    }
  }
  return undefined;
}
