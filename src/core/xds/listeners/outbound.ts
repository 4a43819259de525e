// A sidecar's outbound listeners (listener.go buildSidecarOutboundListeners, tls.go;
// spec §2.3): one listener per (bind, port) built from the services of each egress listener,
// HTTP chains matched on plaintext ALPN on the wildcard, TCP/TLS chains from VirtualService
// `tcp`/`tls` routes or a default tcp_proxy, merged by Istio's conflict rules; then
// virtualOutbound and the http_proxy listener.
import type { Json } from '../types.ts';
import type { GenContext } from '../context.ts';
import type { IstioProtocol } from '../../config/protocol.ts';
import { parseProtocol } from '../../config/protocol.ts';
import type { Service, VirtualServiceConfig } from '../pushContext.ts';
import { scopeDestinationRule, type EgressListenerScope } from '../scope.ts';
import { isHttp, isTcp, isTls, isUnsupported, listenerProtocol } from '../protocol.ts';
import { addressForProxy, altVirtualHosts, extraAddressesForProxy } from '../routes/domains.ts';
import { catchAllVirtualHost, domainFlags, domainProxy } from '../routes/sidecar.ts';
import { ALLOW_ANY_DYNAMIC_DNS, allowAnyDynamicDns } from '../dynamicDns.ts';
import {
  BLACKHOLE_CLUSTER,
  listenerName,
  PASSTHROUGH_CLUSTER,
  PASSTHROUGH_FILTER_CHAIN,
  subsetKey,
  VIRTUAL_OUTBOUND,
  VIRTUAL_OUTBOUND_BLACKHOLE_CHAIN,
  VIRTUAL_OUTBOUND_CATCHALL_TCP_CHAIN,
  RDS_HTTP_PROXY,
} from '../names.ts';
import { hostMatches, isWildcardHost } from '../../config/hosts.ts';
import { isIP, isIPv6 } from '../net.ts';
import { HTTP_INSPECTOR, TLS_INSPECTOR, tcpProxyFilter } from '../filters.ts';
import { durationJson } from '../duration.ts';
import { destinationCluster } from '../routes/translate.ts';
import { hcmFilter, proxyHeaders } from './hcm.ts';
import {
  additionalAddresses,
  buildAddress,
  chainsConflict,
  configMetadata,
  filterChainMatch,
  isMatchAll,
  metricsNetworkFilters,
  outboundNetworkFilters,
  singleDestinationFilters,
  type ChainOpts,
} from './common.ts';
import { builtin, mark, ref } from '../provenance.ts';
import { canBindToPort, ipMode } from '../proxy.ts';
import type { ProvenanceRef } from '../types.ts';
import { listAt } from '../../document/maps.ts';

const PLAINTEXT_HTTP_ALPNS = ['http/1.1', 'h2c'];
const PLAINTEXT_HTTP_ALPNS_HTTP10 = ['http/1.0', 'http/1.1', 'h2c'];

export function plaintextHttpAlpns(ctx: GenContext): string[] {
  return ctx.features.PILOT_HTTP10 ? PLAINTEXT_HTTP_ALPNS_HTTP10 : PLAINTEXT_HTTP_ALPNS;
}

interface Binding {
  binds: string[];
  bindToPort: boolean;
}

interface Port {
  name: string;
  port: number;
  protocol: IstioProtocol;
}

interface Entry {
  servicePort: Port;
  bind: Binding;
  locked: boolean;
  chains: ChainOpts[];
  protocol: IstioProtocol;
  services: Service[];
}

interface Opts {
  bind: Binding;
  cidr?: string[];
  port: Port;
  service: Service;
  headlessPodCidr?: boolean;
}

const primary = (b: Binding) => b.binds[0] ?? '';

/** VirtualServices of the listener whose hosts match a hostname (getConfigsForHost), in order. */
class VsHostIndex {
  private exact = new Map<string, number[]>();
  private wildcard: number[] = [];
  constructor(private readonly vss: readonly VirtualServiceConfig[]) {
    vss.forEach((vs, i) => {
      for (const h of vs.hosts) {
        if (isWildcardHost(h)) {
          if (!this.wildcard.includes(i)) this.wildcard.push(i);
        } else {
          const l = listAt(this.exact, h);
          if (!l.includes(i)) l.push(i);
        }
      }
    });
  }

  forHost(hostname: string): VirtualServiceConfig[] {
    const idx = new Set<number>(isWildcardHost(hostname) ? [] : (this.exact.get(hostname) ?? []));
    if (isWildcardHost(hostname)) {
      this.vss.forEach((vs, i) => {
        if (vs.hosts.some((h) => hostMatches(h, hostname))) idx.add(i);
      });
    } else for (const i of this.wildcard) if ((this.vss[i] as VirtualServiceConfig).hosts.some((h) => hostMatches(h, hostname))) idx.add(i);
    return [...idx].sort((a, b) => a - b).map((i) => this.vss[i] as VirtualServiceConfig);
  }
}

function matchL4(
  m: { sourceLabels: Readonly<Record<string, string>>; gateways: readonly string[]; port: number; sourceNamespace: string },
  ctx: GenContext,
  port: number,
): boolean {
  const gatewayMatch = m.gateways.length === 0 || m.gateways.includes('mesh');
  const labelMatch = Object.keys(m.sourceLabels).every((k) => ctx.proxy.labels[k] === m.sourceLabels[k]);
  const portMatch = m.port === 0 || m.port === port;
  const nsMatch = m.sourceNamespace === '' || m.sourceNamespace === ctx.proxy.namespace;
  return gatewayMatch && labelMatch && portMatch && nsMatch;
}

function vsProv(vs: VirtualServiceConfig, path: string): ProvenanceRef {
  return vs.meta.sourceKey === vs.meta.resource.key ? ref(vs.meta.sourceKey, path) : ref(vs.meta.sourceKey);
}

/** buildSidecarOutboundTLSFilterChainOpts. */
function tlsChainOpts(
  ctx: GenContext,
  cidrs: readonly string[] | undefined,
  service: Service,
  bind: string,
  port: Port,
  configs: readonly VirtualServiceConfig[],
  headlessPodCidr: boolean,
): ChainOpts[] {
  if (!isTls(port.protocol)) return [];
  const out: ChainOpts[] = [];
  const handled = new Set<string>();
  let hasTlsMatch = false;
  for (const vs of configs) {
    vs.tls.forEach((t, ti) => {
      if (t.route.length === 0) return;
      t.match.forEach((m, mi) => {
        if (!matchL4(m, ctx, port.port)) return;
        let dest = cidrs;
        if (m.destinationSubnets.length > 0 && port.port > 0) dest = m.destinationSubnets;
        const hash = `${m.sniHosts.join(',')}|${m.destinationSubnets.join(',')}`;
        if (!handled.has(hash)) {
          out.push({
            metadata: configMetadata(vs.meta),
            sniHosts: m.sniHosts,
            ...(dest ? { destinationCidrs: dest } : {}),
            networkFilters: outboundNetworkFilters(ctx, 'outbound', t.route, port, vs.meta, false, false),
            prov: [vsProv(vs, `spec.tls[${ti}].match[${mi}]`)],
          });
          hasTlsMatch = true;
        }
        handled.add(hash);
      });
    });
  }
  if (!hasTlsMatch) {
    const p = service.ports.length === 1 ? (service.ports[0] as { port: number }).port : port.port;
    const cluster = subsetKey('outbound', '', service.hostname, p);
    let addr = addressForProxy(service, domainProxy(ctx.proxy), domainFlags(ctx.push));
    if (addr.includes('/')) addr = '';
    if (service.registry === 'External' && ipModeV6(ctx) && addr === '0.0.0.0') addr = '::';
    const wildcard = ctx.wildcards[0] as string;
    let sni: string[] | undefined;
    if (
      !headlessPodCidr &&
      ((cidrs && cidrs.length > 0) ||
        addr === '' ||
        (addr === wildcard && bind === wildcard) ||
        (isWildcardHost(service.hostname) && service.resolution === 'DynamicDNS'))
    ) {
      sni = [service.hostname];
      for (const a of service.aliases ?? [])
        sni.push(a.hostname, ...altVirtualHosts(a.hostname, 0, ctx.proxy.dnsDomain, ctx.features.PILOT_ENABLE_ABSOLUTE_FQDN_VHOST_DOMAIN));
    }
    const dr = scopeDestinationRule(ctx.scope, 'outbound', ctx.proxy, service.hostname)?.rule.spec;
    out.push({
      ...(sni ? { sniHosts: sni } : {}),
      ...(cidrs ? { destinationCidrs: cidrs } : {}),
      networkFilters: singleDestinationFilters(ctx, 'outbound', cluster, cluster, '', port.protocol, dr, false, false),
      prov: [ref(service.resource.key)],
    });
  }
  return out;
}

function ipModeV6(ctx: GenContext): boolean {
  return ctx.proxy.ipAddresses.length > 0 && ctx.proxy.ipAddresses.every(isIPv6);
}

/** buildSidecarOutboundTCPFilterChainOpts. */
function tcpChainOpts(
  ctx: GenContext,
  cidrs: readonly string[] | undefined,
  service: Service,
  port: Port,
  configs: readonly VirtualServiceConfig[],
): ChainOpts[] {
  if (isTls(port.protocol)) return [];
  const out: ChainOpts[] = [];
  let defaultAdded = false;
  outer: for (const vs of configs) {
    for (let ti = 0; ti < vs.tcp.length; ti++) {
      const t = vs.tcp[ti] as VirtualServiceConfig['tcp'][number];
      if (t.route.length === 0) continue;
      if (t.match.length === 0) {
        out.push({
          metadata: configMetadata(vs.meta),
          ...(cidrs ? { destinationCidrs: cidrs } : {}),
          networkFilters: outboundNetworkFilters(ctx, 'outbound', t.route, port, vs.meta, false, false),
          prov: [vsProv(vs, `spec.tcp[${ti}]`)],
        });
        defaultAdded = true;
        break outer;
      }
      const subnets: string[] = [];
      for (const m of t.match) {
        if (!matchL4(m, ctx, port.port)) continue;
        if (m.destinationSubnets.length === 0 || port.port === 0) {
          out.push({
            metadata: configMetadata(vs.meta),
            ...(cidrs ? { destinationCidrs: cidrs } : {}),
            networkFilters: outboundNetworkFilters(ctx, 'outbound', t.route, port, vs.meta, false, false),
            prov: [vsProv(vs, `spec.tcp[${ti}]`)],
          });
          defaultAdded = true;
          break outer;
        }
        subnets.push(...m.destinationSubnets);
      }
      if (subnets.length > 0) {
        out.push({
          destinationCidrs: subnets,
          networkFilters: outboundNetworkFilters(ctx, 'outbound', t.route, port, vs.meta, false, false),
          prov: [vsProv(vs, `spec.tcp[${ti}]`)],
        });
        if (JSON.stringify([...subnets].sort()) === JSON.stringify([...(cidrs ?? [])].sort())) defaultAdded = true;
      }
    }
  }
  if (!defaultAdded) {
    const p = service.ports.length === 1 ? (service.ports[0] as { port: number }).port : port.port;
    const cluster = subsetKey('outbound', '', service.hostname, p);
    const dr = scopeDestinationRule(ctx.scope, 'outbound', ctx.proxy, service.hostname)?.rule.spec;
    out.push({
      ...(cidrs ? { destinationCidrs: cidrs } : {}),
      networkFilters: singleDestinationFilters(ctx, 'outbound', cluster, cluster, '', port.protocol, dr, false, false),
      prov: [ref(service.resource.key)],
    });
  }
  return out;
}

function httpChainOpts(ctx: GenContext, o: Opts, lp: string): ChainOpts[] {
  let rds: string;
  if (o.port.port === 0) rds = primary(o.bind);
  else if (lp === 'AUTO' && primary(o.bind) !== ctx.wildcards[0]) rds = `${o.service.hostname}:${o.port.port}`;
  else rds = String(o.port.port);
  const ph = proxyHeaders(ctx, 'outbound');
  const extra: Json = {};
  if (ph.serverName !== '') extra.serverName = ph.serverName;
  if (ctx.features.PILOT_HTTP10 || ctx.proxy.metadata.http10) extra.httpProtocolOptions = { acceptHttp10: true };
  return [
    {
      httpOpts: {
        rds,
        statPrefix: '',
        protocol: o.port.protocol,
        class: 'outbound',
        useRemoteAddress: ctx.features.PILOT_SIDECAR_USE_REMOTE_ADDRESS,
        extra,
        skipMxHeaders: ph.skipMxHeaders,
      },
      prov: [ref(o.service.resource.key)],
    },
  ];
}

function buildOutboundListener(ctx: GenContext, o: Opts, map: Map<string, Entry>, vsIndex: VsHostIndex): void {
  if (o.service.resolution === 'Alias') return;
  let portProtocol: IstioProtocol = o.port.protocol;
  const lp = listenerProtocol(o.port.protocol);
  let conflict = 'none';
  const flags = domainFlags(ctx.push);
  const dp = domainProxy(ctx.proxy);
  if (lp === 'TCP' || lp === 'AUTO') {
    if (primary(o.bind) === '') {
      let addr = addressForProxy(o.service, dp, flags);
      const extra = extraAddressesForProxy(o.service, dp, flags);
      if (o.service.registry === 'External' && ipModeV6(ctx) && addr === '0.0.0.0') addr = '::';
      if (addr.length > 0) {
        if (!addr.includes('/')) o.bind = { ...o.bind, binds: [addr, ...extra] };
        else {
          o.bind = { ...o.bind, binds: [...ctx.wildcards] };
          o.cidr = [addr, ...extra];
        }
      }
    }
  } else if (lp === 'HTTP') {
    if (primary(o.bind) === '') o.bind = { ...o.bind, binds: [...ctx.wildcards] };
  } else return;
  const key = `${primary(o.bind)}|${o.port.port}`;
  const current = map.get(key);
  if (current?.locked) return;
  let opts: ChainOpts[];
  const tcpOpts = () => {
    const configs = vsIndex.forHost(o.service.hostname);
    return [
      ...tlsChainOpts(ctx, o.cidr, o.service, primary(o.bind), o.port, configs, o.headlessPodCidr === true),
      ...tcpChainOpts(ctx, o.cidr, o.service, o.port, configs),
    ];
  };
  if (o.port.protocol === 'HTTP_PROXY') opts = httpChainOpts(ctx, o, lp);
  else if (lp === 'HTTP') {
    if (current) {
      if (isTcp(current.protocol)) conflict = 'HTTPOverTCP';
      else return;
    }
    opts = httpChainOpts(ctx, o, lp);
    if (primary(o.bind) === ctx.wildcards[0]) {
      for (const c of opts) {
        c.applicationProtocols = plaintextHttpAlpns(ctx);
        c.transportProtocol = 'raw_buffer';
      }
      portProtocol = 'UnsupportedProtocol';
    }
  } else if (lp === 'TCP') {
    opts = tcpOpts();
    if (current) conflict = isHttp(current.protocol) ? 'TCPOverHTTP' : isTcp(current.protocol) ? 'TCPOverTCP' : 'TCPOverAuto';
  } else {
    if (current && !isHttp(current.protocol) && !isTcp(current.protocol)) {
      conflict = 'TCPOverAuto';
      opts = tcpOpts();
    } else {
      if (current) conflict = isHttp(current.protocol) ? 'AutoOverHTTP' : 'AutoOverTCP';
      const http = httpChainOpts(ctx, o, lp);
      for (const c of http) {
        c.applicationProtocols = plaintextHttpAlpns(ctx);
        c.transportProtocol = 'raw_buffer';
      }
      opts = [...tcpOpts(), ...http];
    }
  }
  if (current && conflict !== 'none') {
    const wellKnown = (p: IstioProtocol) => p === 'Mongo' || p === 'MySQL';
    if ((wellKnown(o.port.protocol) || wellKnown(current.protocol)) && o.port.protocol !== current.protocol) return;
  }
  switch (conflict) {
    case 'none':
    case 'AutoOverHTTP':
      map.set(key, { servicePort: o.port, bind: o.bind, locked: false, chains: opts, protocol: portProtocol, services: [o.service] });
      break;
    case 'HTTPOverTCP':
    case 'TCPOverHTTP':
    case 'AutoOverTCP':
      mergeTcpChains(current as Entry, opts, o.service);
      (current as Entry).protocol = 'UnsupportedProtocol';
      break;
    default:
      mergeTcpChains(current as Entry, opts, o.service);
  }
}

function mergeTcpChains(current: Entry, incoming: ChainOpts[], svc: Service): void {
  for (const c of incoming) {
    if (current.chains.some((e) => chainsConflict(e, c))) continue;
    current.chains.push(c);
  }
  if (!current.services.includes(svc)) current.services.push(svc);
}

/** buildOutboundCatchAllNetworkFiltersOnly: telemetry + tcp_proxy to Passthrough (or the egress proxy) or BlackHole. */
export function catchAllNetworkFilters(ctx: GenContext): Json[] {
  const policy = ctx.scope.outboundTrafficPolicy;
  let cluster = BLACKHOLE_CLUSTER;
  if (policy.mode === 'ALLOW_ANY' || (ctx.proxy.type === 'sidecar' && policy.mode === 'ALLOW_ANY_DYNAMIC_DNS')) {
    cluster = policy.egressProxy ? destinationCluster(policy.egressProxy, undefined, 0) : PASSTHROUGH_CLUSTER;
  }
  const idle = ctx.proxy.metadata.idleTimeout ? durationJson(ctx.proxy.metadata.idleTimeout) : undefined;
  return [...metricsNetworkFilters(ctx, 'outbound'), tcpProxyFilter(cluster, cluster, idle ? { idleTimeout: idle } : {})];
}

/** buildListenerFromEntry. */
function listenerFromEntry(ctx: GenContext, e: Entry, fallthrough: Json[]): Json {
  const name = listenerName(primary(e.bind), e.servicePort.port);
  const l: Json = { name, address: buildAddress(primary(e.bind), e.servicePort.port) };
  const extra = additionalAddresses(e.bind.binds.slice(1), e.servicePort.port);
  let needTls = false;
  let needHttp = false;
  for (const c of e.chains) {
    const alpn =
      c.tlsContext &&
      Array.isArray((c.tlsContext.commonTlsContext as Json | undefined)?.alpnProtocols) &&
      ((c.tlsContext.commonTlsContext as Json).alpnProtocols as unknown[]).length > 0;
    if ((c.sniHosts && c.sniHosts.length > 0) || alpn) needTls = true;
    if (c.applicationProtocols && c.applicationProtocols.length > 0) needHttp = true;
  }
  const chains: Json[] = [];
  let defaultChain: Json | undefined;
  for (const c of e.chains) {
    const chain: Json = {};
    let filters: Json[];
    if (!c.httpOpts) filters = c.networkFilters ?? [];
    else filters = [...(c.networkFilters ?? []), hcmFilter(ctx, { ...c.httpOpts, statPrefix: `outbound_${name};` })];
    chain.filters = filters;
    if (c.tlsContext) chain.transportSocket = { name: 'envoy.transport_sockets.tls', typedConfig: c.tlsContext };
    if (c.metadata) chain.metadata = c.metadata;
    chain.transportSocketConnectTimeout = '15s';
    if (c.prov) mark(chain, ...c.prov);
    if (isMatchAll(c)) defaultChain = chain;
    else chains.push({ filterChainMatch: filterChainMatch(c), ...chain });
  }
  if (defaultChain && chains.length === 0) {
    chains.push(defaultChain);
    defaultChain = undefined;
  } else if (!defaultChain) {
    defaultChain = mark(
      { filterChainMatch: {}, filters: fallthrough, name: PASSTHROUGH_FILTER_CHAIN },
      builtin(`outbound traffic policy ${ctx.scope.outboundTrafficPolicy.mode}`),
    );
  }
  if (extra) l.additionalAddresses = extra;
  l.filterChains = chains;
  if (defaultChain) l.defaultFilterChain = defaultChain;
  const listenerFilters: Json[] = [];
  if (needTls) listenerFilters.push(TLS_INSPECTOR);
  if (needHttp) listenerFilters.push(HTTP_INSPECTOR);
  if (listenerFilters.length > 0) l.listenerFilters = listenerFilters;
  l.listenerFiltersTimeout = needHttp ? ctx.mesh.protocolDetectionTimeout : '0s';
  l.continueOnListenerFiltersTimeout = true;
  l.trafficDirection = 'OUTBOUND';
  if (e.bind.bindToPort) l.maxConnectionsToAcceptPerSocketEvent = 1;
  else l.bindToPort = false;
  for (const s of e.services) mark(l, ref(s.resource.key));
  return l;
}

function canBind(ctx: GenContext, bind: Binding, port: Port): boolean {
  const wildcard = ipMode(ctx.proxy) === 'IPv6' ? '::' : '0.0.0.0';
  return canBindToPort(ctx.proxy, bind.bindToPort, primary(bind), port.port, isHttp(port.protocol), wildcard, [
    ctx.mesh.proxyListenPort,
    ctx.mesh.proxyInboundListenPort,
  ]);
}

/** buildSidecarOutboundListeners. */
export function sidecarOutboundListeners(ctx: GenContext): Json[] {
  const noneMode = ctx.proxy.interceptionMode === 'NONE';
  const map = new Map<string, Entry>();
  for (const el of ctx.scope.egressListeners) {
    outboundForEgressListener(ctx, el, noneMode, map);
  }
  const fallthrough = catchAllNetworkFilters(ctx);
  return [...map.values()].map((e) => listenerFromEntry(ctx, e, fallthrough));
}

function outboundForEgressListener(ctx: GenContext, el: EgressListenerScope, noneMode: boolean, map: Map<string, Entry>): void {
  const vsIndex = new VsHostIndex(el.virtualServices);
  const bind: Binding = { binds: [], bindToPort: false };
  const l = el.listener;
  if (noneMode) bind.bindToPort = true;
  else if (l) {
    if (l.captureMode === 'NONE') bind.bindToPort = true;
    else if (l.bind.startsWith('unix://')) bind.bindToPort = true;
  }
  if (l && l.bind !== '') bind.binds = [l.bind];
  else if (bind.bindToPort) bind.binds = [...ctx.localhosts];
  if (l?.port && l.port.number !== 0) {
    const port: Port = { port: l.port.number, protocol: parseProtocol(l.port.protocol), name: l.port.name };
    if (!canBind(ctx, bind, port)) return;
    for (const svc of el.services) buildOutboundListener(ctx, { bind: { ...bind, binds: [...bind.binds] }, port, service: svc }, map, vsIndex);
    return;
  }
  for (const e of map.values()) e.locked = true;
  const flags = domainFlags(ctx.push);
  const dp = domainProxy(ctx.proxy);
  for (const svc of el.services) {
    const saddress = addressForProxy(svc, dp, flags);
    for (const sp of svc.ports) {
      const port: Port = { name: sp.name, port: sp.port, protocol: sp.protocol };
      if (!canBind(ctx, bind, port)) continue;
      const opts: Opts = { bind: { ...bind, binds: [...bind.binds] }, port, service: svc };
      if (primary(bind) === '' && svc.resolution === 'Passthrough' && saddress === '0.0.0.0' && (isTcp(sp.protocol) || isUnsupported(sp.protocol))) {
        // listener.go buildSidecarOutboundListeners: push.ServiceEndpointsByPort, the endpoints of
        // the service's key (namespace/hostname). Another ServiceEntry writing the same host in the
        // namespace lends its endpoints here: a DNS entry's host-name endpoint on this port number
        // means no wildcard listener for this entry (a host name is no IP to bind), so istiod
        // sends no chain for it (its chains come from the other entry alone).
        const instances = ctx.push.serviceEndpointsByPort(svc, sp.port);
        if (svc.registry !== 'Kubernetes' && instances.length === 0 && !svc.labelSelectors) {
          buildOutboundListener(ctx, opts, map, vsIndex);
          continue;
        }
        for (const inst of instances) {
          if (!isIP(inst.ep.address)) continue;
          if (inst.ep.address === ctx.proxy.ipAddresses[0]) continue;
          if (ctx.features.PILOT_ENABLE_HEADLESS_FILTER_CHAIN_LISTENER && isTcp(sp.protocol)) {
            buildOutboundListener(ctx, { ...opts, bind: { ...bind, binds: [...ctx.wildcards] }, cidr: [inst.ep.address], headlessPodCidr: true }, map, vsIndex);
          } else {
            buildOutboundListener(ctx, { ...opts, bind: { ...bind, binds: [inst.ep.address] } }, map, vsIndex);
          }
        }
      } else buildOutboundListener(ctx, opts, map, vsIndex);
    }
  }
}

/** buildVirtualOutboundListener. */
export function virtualOutboundListener(ctx: GenContext): Json | undefined {
  if (ctx.proxy.interceptionMode === 'NONE') return undefined;
  const blackhole = mark(
    {
      filterChainMatch: { destinationPort: ctx.mesh.proxyListenPort },
      filters: [...metricsNetworkFilters(ctx, 'outbound'), tcpProxyFilter(BLACKHOLE_CLUSTER, BLACKHOLE_CLUSTER)],
      name: VIRTUAL_OUTBOUND_BLACKHOLE_CHAIN,
    },
    builtin('loop protection'),
  );
  const catchAll = mark(
    { filters: catchAllNetworkFilters(ctx), name: VIRTUAL_OUTBOUND_CATCHALL_TCP_CHAIN },
    builtin(`outbound traffic policy ${ctx.scope.outboundTrafficPolicy.mode}`),
  );
  const l: Json = {
    name: VIRTUAL_OUTBOUND,
    address: buildAddress(ctx.wildcards[0] as string, ctx.mesh.proxyListenPort),
  };
  if (ctx.features.ISTIO_DUAL_STACK && ctx.wildcards.length > 1) l.additionalAddresses = additionalAddresses(ctx.wildcards.slice(1), ctx.mesh.proxyListenPort);
  const dynamicDns = allowAnyDynamicDns(ctx);
  l.filterChains = dynamicDns ? [blackhole, dynamicDnsHttpChain(ctx), catchAll] : [blackhole, catchAll];
  l.useOriginalDst = true;
  l.trafficDirection = 'OUTBOUND';
  if (ctx.proxy.interceptionMode === 'TPROXY') l.transparent = true;
  l.maxConnectionsToAcceptPerSocketEvent = 1;
  // The HTTP inspector tells plaintext HTTP, for the dynamic forward proxy's chain.
  if (dynamicDns) l.listenerFilters = [HTTP_INSPECTOR];
  return mark(l, builtin('traffic capture (iptables redirect to 15001)'));
}

/**
 * buildAllowAnyDynamicDNSHTTPFilterChain: plaintext HTTP to an unknown address, on the
 * virtualOutbound listener, through an HCM whose inline route configuration sends every host to
 * the AllowAnyDynamicDNSCluster.
 */
function dynamicDnsHttpChain(ctx: GenContext): Json {
  const ph = proxyHeaders(ctx, 'outbound');
  const routeConfig: Json = {
    name: ALLOW_ANY_DYNAMIC_DNS,
    virtualHosts: [catchAllVirtualHost(ctx.proxy, ctx.scope)],
    validateClusters: false,
    maxDirectResponseBodySizeBytes: 1048576,
    ignorePortInHostMatching: true,
  };
  const extra: Json = {};
  if (ph.serverName !== '') extra.serverName = ph.serverName;
  if (ctx.features.PILOT_HTTP10 || ctx.proxy.metadata.http10) extra.httpProtocolOptions = { acceptHttp10: true };
  const hcm = hcmFilter(ctx, {
    routeConfig,
    statPrefix: `outbound_${VIRTUAL_OUTBOUND}_${ALLOW_ANY_DYNAMIC_DNS};`,
    protocol: 'HTTP',
    class: 'outbound',
    useRemoteAddress: false,
    extra,
  });
  return mark(
    { filterChainMatch: { applicationProtocols: plaintextHttpAlpns(ctx) }, filters: [hcm], name: `${VIRTUAL_OUTBOUND_CATCHALL_TCP_CHAIN}-http` },
    builtin('outbound traffic policy ALLOW_ANY_DYNAMIC_DNS'),
  );
}

/** buildHTTPProxy: the `http_proxy` listener when mesh `proxyHttpPort` (or proxy metadata) sets a port. */
export function httpProxyListener(ctx: GenContext): Json | undefined {
  const port = ctx.proxy.metadata.httpProxyPort ?? ctx.mesh.proxyHttpPort;
  if (!port) return undefined;
  const bind = ctx.localhosts[0] as string;
  const name = listenerName(bind, port);
  const ph = proxyHeaders(ctx, 'outbound');
  const extra: Json = { httpProtocolOptions: { allowAbsoluteUrl: true, ...(ctx.features.PILOT_HTTP10 ? { acceptHttp10: true } : {}) } };
  if (ph.serverName !== '') extra.serverName = ph.serverName;
  return {
    name,
    address: buildAddress(bind, port),
    filterChains: [
      {
        filters: [
          hcmFilter(ctx, { rds: RDS_HTTP_PROXY, statPrefix: `outbound_${name};`, protocol: 'HTTP_PROXY', class: 'outbound', useRemoteAddress: false, extra }),
        ],
        transportSocketConnectTimeout: '15s',
      },
    ],
    defaultFilterChain: undefined,
    listenerFiltersTimeout: '0s',
    continueOnListenerFiltersTimeout: true,
    trafficDirection: 'OUTBOUND',
    maxConnectionsToAcceptPerSocketEvent: 1,
  };
}
