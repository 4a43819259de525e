// A sidecar's outbound route configurations (httproute.go buildSidecarOutboundHTTPRouteConfig,
// BuildSidecarOutboundVirtualHosts; route.go BuildSidecarVirtualHostWrapper; spec §2.4) and its
// inline inbound route configuration.
import type { Json, Proxy } from '../types.ts';
import type { HTTPRouteDestination } from '../../config/api/networking.ts';
import type { PushContext, Service, VirtualServiceConfig } from '../pushContext.ts';
import { MESH_GATEWAY } from '../pushContext.ts';
import { egressListenerForRds, scopeDestinationRule, type SidecarScope } from '../scope.ts';
import { domainName, PASSTHROUGH_CLUSTER, subsetKey } from '../names.ts';
import { hostMatches, isWildcardHost } from '../../config/hosts.ts';
import { isHttpOrSniffed } from '../protocol.ts';
import { buildRoutesForVirtualService, defaultOutboundRoute, destinationCluster, type RouteOptions } from './translate.ts';
import { addressForProxy, virtualHostDomains, type DomainFlags, type DomainProxy } from './domains.ts';
import { builtin, mark, ref } from '../provenance.ts';
import { isObj } from '../../document/read.ts';
import { parseProtocol } from '../../config/protocol.ts';
import { listAt } from '../../document/maps.ts';

export const MAX_DIRECT_RESPONSE_BODY = 1048576;

interface VirtualHostWrapper {
  port: number;
  services: Service[];
  vsHosts: string[];
  routes: Json[];
  vs?: VirtualServiceConfig;
}

export function domainFlags(push: PushContext): DomainFlags {
  return {
    absoluteFqdn: push.features.PILOT_ENABLE_ABSOLUTE_FQDN_VHOST_DOMAIN,
    dualStack: push.features.ISTIO_DUAL_STACK,
    autoAllocate: push.features.PILOT_ENABLE_IP_AUTOALLOCATE,
  };
}

export function domainProxy(proxy: Proxy): DomainProxy {
  return {
    dnsDomain: proxy.dnsDomain,
    clusterId: proxy.clusterId,
    ipAddresses: proxy.ipAddresses,
    type: proxy.type,
    dnsCapture: proxy.metadata.dnsCapture === true,
  };
}

/** The consistent hash a DestinationRule sets for a destination (HashForHTTPDestination). */
export function hashForDestination(scope: SidecarScope, proxy: Proxy, dst: HTTPRouteDestination): Json | undefined {
  const d = dst.destination;
  if (!d) return undefined;
  const cdr = scopeDestinationRule(scope, 'outbound', proxy, d.host);
  if (!cdr) return undefined;
  const spec = cdr.rule.spec;
  const chOf = (lb: unknown): Json | undefined => (isObj(lb) && isObj(lb.consistentHash) ? lb.consistentHash : undefined);
  let ch = chOf(spec.trafficPolicy?.loadBalancer);
  const plsHash = (pls: readonly { port?: { number: number }; loadBalancer?: unknown }[] | undefined) => {
    if (!d.port || !pls) return undefined;
    for (const s of pls) if (s.port?.number === d.port.number) return chOf(s.loadBalancer);
    return undefined;
  };
  const pls = plsHash(spec.trafficPolicy?.portLevelSettings);
  let subsetHash: Json | undefined;
  let subsetPls: Json | undefined;
  for (const ss of spec.subsets) {
    if (ss.name === d.subset) {
      subsetHash = chOf(ss.trafficPolicy?.loadBalancer);
      subsetPls = plsHash(ss.trafficPolicy?.portLevelSettings);
      break;
    }
  }
  if (subsetPls) ch = subsetPls;
  else if (subsetHash) ch = subsetHash;
  else if (pls) ch = pls;
  return ch;
}

/** hashForService: the DestinationRule's consistent hash for a service port. */
function hashForService(scope: SidecarScope, proxy: Proxy, svc: Service, port: number): Json | undefined {
  const cdr = scopeDestinationRule(scope, 'outbound', proxy, svc.hostname);
  if (!cdr) return undefined;
  const tp = cdr.rule.spec.trafficPolicy;
  const chOf = (lb: unknown): Json | undefined => (isObj(lb) && isObj(lb.consistentHash) ? lb.consistentHash : undefined);
  let ch = chOf(tp?.loadBalancer);
  for (const s of tp?.portLevelSettings ?? []) {
    if (s.port?.number === port) {
      const h = chOf(s.loadBalancer);
      if (h) ch = h;
      break;
    }
  }
  return ch;
}

/** selectVirtualServices (httproute.go): VirtualServices with a host matching a service of the port. */
function selectVirtualServicesForPort(vss: readonly VirtualServiceConfig[], servicesByName: ReadonlyMap<string, Service>): VirtualServiceConfig[] {
  const wcSvcHosts = [...servicesByName.keys()].filter(isWildcardHost);
  const out: VirtualServiceConfig[] = [];
  for (const vs of vss) {
    let match = false;
    for (const h of vs.hosts) {
      const lch = h.toLowerCase();
      if (servicesByName.has(lch)) {
        match = true;
        break;
      }
      if (isWildcardHost(lch)) {
        for (const svcHost of servicesByName.keys()) {
          if (hostMatches(lch, svcHost)) {
            match = true;
            break;
          }
        }
        if (match) break;
      } else if (wcSvcHosts.some((w) => hostMatches(lch, w))) {
        match = true;
        break;
      }
    }
    if (match) out.push(vs);
  }
  return out;
}

/** separateVSHostsAndServices: registry services of a VirtualService, and its other hosts. */
function separateHosts(
  vs: VirtualServiceConfig,
  registry: ReadonlyMap<string, Service>,
  mostSpecific: ReadonlyMap<string, VirtualServiceConfig>,
): { hosts: string[]; services: Service[] } {
  const hosts: string[] = [];
  const services: Service[] = [];
  const wildcards: string[] = [];
  for (const hostname of vs.hosts) {
    const h = hostname.toLowerCase();
    if (isWildcardHost(h)) {
      wildcards.push(h);
      continue;
    }
    const svc = registry.get(h);
    if (svc) services.push(svc);
    else hosts.push(hostname);
  }
  for (const h of wildcards) {
    if (vs.gatewaySemantics) {
      hosts.push(h);
      continue;
    }
    let found = false;
    for (const [svcHost, svc] of registry) {
      const local = hostMatches(svcHost, h);
      found = found || local;
      if (!local) continue;
      if (mostSpecific.get(svcHost) !== vs) continue;
      services.push(svc);
    }
    if (!found) hosts.push(h.toLowerCase());
  }
  return { hosts, services };
}

/** BuildSidecarVirtualHostWrapper. */
function virtualHostWrappers(
  push: PushContext,
  proxy: Proxy,
  scope: SidecarScope,
  registry: Map<string, Service>,
  vss: readonly VirtualServiceConfig[],
  listenerPort: number,
  mostSpecific: ReadonlyMap<string, VirtualServiceConfig>,
): VirtualHostWrapper[] {
  const out: VirtualHostWrapper[] = [];
  const meshGw = new Set([MESH_GATEWAY]);
  for (const vs of vss) {
    const opts: RouteOptions = {
      isTls: false,
      mesh: push.mesh,
      lookupService: (h) => registry.get(h),
      lookupHash: (d) => hashForDestination(scope, proxy, d),
    };
    const routes = buildRoutesForVirtualService(proxy, vs, listenerPort, meshGw, opts);
    if (!routes) continue;
    const { hosts, services } = separateHosts(vs, registry, mostSpecific);
    if (vs.gatewaySemantics) {
      const res = services.filter((s) => !(s.namespace !== vs.meta.namespace && proxy.configNamespace !== vs.meta.namespace));
      if (res.length === 0) continue;
    }
    const byPort = new Map<number, Service[]>();
    for (const svc of services) {
      for (const p of svc.ports) {
        if (!isHttpOrSniffed(p.protocol)) continue;
        listAt(byPort, p.port).push(svc);
      }
    }
    if (byPort.size === 0 && listenerPort === 80) byPort.set(80, []);
    for (const [port, svcs] of byPort) out.push({ port, services: svcs, vsHosts: hosts, routes, vs });
  }
  for (const w of out) for (const s of w.services) registry.delete(s.hostname);
  for (const svc of registry.values()) {
    if (svc.resolution === 'Alias') continue;
    for (const p of svc.ports) {
      if (!isHttpOrSniffed(p.protocol)) continue;
      const cluster = subsetKey('outbound', '', svc.hostname, p.port);
      const route = defaultOutboundRoute(cluster, `${svc.hostname}:${p.port}/*`, push.mesh, hashForService(scope, proxy, svc, p.port));
      mark(route, ref(svc.resource.key), builtin('default route'));
      out.push({ port: p.port, services: [svc], vsHosts: [], routes: [route] });
    }
  }
  return out;
}

/** BuildSidecarOutboundVirtualHosts for a route name (port, or `host:port` when sniffed). */
function outboundVirtualHosts(push: PushContext, proxy: Proxy, scope: SidecarScope, routeName: string, listenerPort: number): Json[] | undefined {
  const el = egressListenerForRds(scope, listenerPort, routeName);
  if (!el) return undefined;
  let port = listenerPort;
  if (el.listener?.port && parseProtocol(el.listener.port.protocol) === 'HTTP_PROXY') port = 0;
  const flags = domainFlags(push);
  const dp = domainProxy(proxy);
  const servicesByName = new Map<string, Service>();
  for (const svc of el.services) {
    if (port === 0) {
      servicesByName.set(svc.hostname, svc);
      continue;
    }
    const sp = svc.ports.find((p) => p.port === port);
    if (!sp) continue;
    const h = svc.hostname.toLowerCase();
    servicesByName.set(h, { ...svc, hostname: h, defaultAddress: addressForProxy(svc, dp, flags), ports: [sp] });
  }
  let vss = el.virtualServices;
  if (port !== 80) vss = selectVirtualServicesForPort(vss, servicesByName);
  const wrappers = virtualHostWrappers(push, proxy, scope, servicesByName, vss, port, el.mostSpecificWildcardVs);
  const vhostNames = new Set<string>();
  const vhDomains = new Set<string>();
  const knownFqdn = new Set<string>();
  for (const w of wrappers)
    for (const s of w.services) {
      knownFqdn.add(domainName(s.hostname, w.port));
      knownFqdn.add(s.hostname);
    }
  const byPort = new Map<number, Json[]>();
  const build = (hostname: string, w: VirtualHostWrapper, svc: Service | undefined): Json | undefined => {
    const name = domainName(hostname, w.port);
    if (vhostNames.has(name)) return undefined;
    vhostNames.add(name);
    let domains: string[];
    let alt: string[] = [];
    if (!svc) domains = [hostname.includes(':') ? `[${hostname}]` : hostname];
    else {
      const r = virtualHostDomains(svc, port, w.port, dp, flags);
      domains = r.domains;
      alt = r.altHosts;
    }
    const kept: string[] = [];
    for (const d of domains) {
      if (vhDomains.has(d.toLowerCase())) continue;
      if (alt.includes(d) && knownFqdn.has(d)) continue;
      kept.push(d);
      vhDomains.add(d.toLowerCase());
    }
    if (kept.length === 0) return undefined;
    const vh: Json = { name, domains: kept, routes: w.routes, includeRequestAttemptCount: true };
    if (w.vs) mark(vh, ref(w.vs.meta.sourceKey, w.vs.meta.sourceKey === w.vs.meta.resource.key ? 'spec.hosts' : undefined));
    if (svc) mark(vh, ref(svc.resource.key));
    return vh;
  };
  for (const w of wrappers) {
    if (w.routes.length === 0) continue;
    const list: Json[] = [];
    for (const h of w.vsHosts) {
      const vh = build(h.toLowerCase(), w, undefined);
      if (vh) list.push(vh);
    }
    for (const s of w.services) {
      const vh = build(s.hostname, w, s);
      if (vh) list.push(vh);
    }
    listAt(byPort, w.port).push(...list);
  }
  if (port === 0) {
    const out: Json[] = [];
    for (const [p, vhosts] of byPort) {
      if (p === 80) out.push(...vhosts);
      else {
        for (const vh of vhosts) {
          vh.domains = (vh.domains as string[]).filter((d) => d.includes(':'));
          if ((vh.domains as string[]).length > 0) out.push(vh);
        }
      }
    }
    return out;
  }
  return byPort.get(port) ?? [];
}

/** The catch-all virtual host (allow_any / block_all / allow_any_dynamic_dns). */
export function catchAllVirtualHost(proxy: Proxy, scope: SidecarScope): Json {
  const policy = scope.outboundTrafficPolicy;
  if (proxy.type === 'sidecar' && policy.mode === 'ALLOW_ANY_DYNAMIC_DNS') {
    return {
      name: 'allow_any_dynamic_dns',
      domains: ['*'],
      routes: [{ name: 'allow_any_dynamic_dns', match: { prefix: '/' }, route: { cluster: 'AllowAnyDynamicDNSCluster', timeout: '0s', maxGrpcTimeout: '0s' } }],
      includeRequestAttemptCount: true,
    };
  }
  if (policy.mode === 'ALLOW_ANY') {
    const cluster = policy.egressProxy ? destinationCluster(policy.egressProxy, undefined, 0) : PASSTHROUGH_CLUSTER;
    return {
      name: 'allow_any',
      domains: ['*'],
      routes: [{ name: 'allow_any', match: { prefix: '/' }, route: { cluster, timeout: '0s', maxGrpcTimeout: '0s' } }],
      includeRequestAttemptCount: true,
    };
  }
  return {
    name: 'block_all',
    domains: ['*'],
    routes: [{ name: 'block_all', match: { prefix: '/' }, directResponse: { status: 502 } }],
    includeRequestAttemptCount: true,
  };
}

/** extractListenerPort: the port of a route name (`9080` or `host:9080`) and whether it is sniffed. */
function listenerPortOf(routeName: string): { port: number; sniffing: boolean; ok: boolean } {
  const unix = routeName.startsWith('unix://');
  const i = routeName.lastIndexOf(':');
  const tail = unix ? routeName : routeName.slice(i + 1);
  const ok = /^[+-]?\d+$/.test(tail);
  return { port: ok ? Number(tail) : 0, sniffing: !unix && i !== -1, ok };
}

/** buildSidecarOutboundHTTPRouteConfig; an empty configuration for names it cannot build. */
export function sidecarOutboundRouteConfig(push: PushContext, proxy: Proxy, scope: SidecarScope, routeName: string, vhostCache: Map<number, Json[]>): Json {
  const { port, sniffing, ok } = listenerPortOf(routeName);
  if (!ok && routeName !== 'http_proxy' && !routeName.startsWith('unix://')) return { name: routeName, virtualHosts: [], validateClusters: false };
  let vhosts: Json[] | undefined;
  if (sniffing && port !== 0 && vhostCache.has(port)) vhosts = sniffedVirtualHosts(vhostCache.get(port) as Json[], routeName);
  else {
    vhosts = outboundVirtualHosts(push, proxy, scope, routeName, port);
    if (vhosts === undefined) return { name: routeName, virtualHosts: [], validateClusters: false };
    if (port > 0) vhostCache.set(port, vhosts);
    if (sniffing) vhosts = sniffedVirtualHosts(vhosts, routeName);
  }
  vhosts = [...vhosts].sort((a, b) => ((a.name as string) < (b.name as string) ? -1 : (a.name as string) > (b.name as string) ? 1 : 0));
  if (!sniffing) vhosts.push(catchAllVirtualHost(proxy, scope));
  return {
    name: routeName,
    virtualHosts: vhosts,
    validateClusters: false,
    maxDirectResponseBodySizeBytes: MAX_DIRECT_RESPONSE_BODY,
    ignorePortInHostMatching: true,
  };
}

/** getVirtualHostsForSniffedServicePort: the one vhost of the service, with domains `*`. */
function sniffedVirtualHosts(vhosts: readonly Json[], routeName: string): Json[] {
  const i = routeName.lastIndexOf(':');
  const host = routeName.slice(0, i);
  const out = vhosts.filter((vh) => (vh.domains as string[]).some((d) => d === routeName || d === host));
  if (out.length === 1) return [{ ...(out[0] as Json), domains: ['*'] }];
  return out;
}
