// A gateway's listeners (gateway.go buildGatewayListeners; spec §4.2): one listener per
// resolved port and bind, an HCM chain for plaintext HTTP servers, one chain per terminating
// HTTPS server (SNI + DownstreamTlsContext with SDS certificates), tcp_proxy chains for TCP/TLS
// servers from VirtualService `tcp`/`tls` routes, passthrough and AUTO_PASSTHROUGH chains.
import type { Json } from '../types.ts';
import type { GenContext } from '../context.ts';
import type { Server } from '../../config/api/networking.ts';
import { parseProtocol } from '../../config/protocol.ts';
import { isHttp } from '../protocol.ts';
import { isHttpsServerWithTlsTermination, isPassthroughServer, isTcpServerWithTlsTermination, serverPortKey, type MergedGateway } from '../gateway.ts';
import { listenerTlsContext } from '../tlsContext.ts';
import { hostMatches, hostSubsetOf } from '../../config/hosts.ts';
import { virtualServicesForGateway, scopeDestinationRule } from '../scope.ts';
import { dnsSrvSubsetKey, listenerName } from '../names.ts';
import { PROXY_PROTOCOL, TLS_INSPECTOR } from '../filters.ts';
import { hcmFilter, proxyHeaders } from './hcm.ts';
import { buildAddress, configMetadata, filterChainMatch, outboundNetworkFilters, singleDestinationFilters, type ChainOpts } from './common.ts';
import type { VirtualServiceConfig } from '../pushContext.ts';
import { mark, ref } from '../provenance.ts';
import { isObj } from '../../document/read.ts';
import { mapAt } from '../../document/maps.ts';

const ALL_ISTIO_MTLS_ALPNS = ['istio', 'istio-peer-exchange', 'istio-http/1.0', 'istio-http/1.1', 'istio-h2'];

function serverProv(mg: MergedGateway, s: Server): ReturnType<typeof ref>[] {
  const meta = mg.gatewayMetaForServer.get(s);
  return meta ? [ref(meta.sourceKey, meta.sourceKey === meta.resource.key ? `spec.servers[${mg.serverIndex.get(s)}]` : undefined)] : [];
}

function gatewayHcmExtra(ctx: GenContext): Json {
  const ph = proxyHeaders(ctx, 'gateway');
  const extra: Json = {};
  const pc = ctx.mesh.defaultConfig;
  const topo = isObj(pc.gatewayTopology) ? pc.gatewayTopology : {};
  if (typeof topo.numTrustedProxies === 'number' && topo.numTrustedProxies > 0) extra.xffNumTrustedHops = topo.numTrustedProxies;
  const fcc =
    typeof topo.forwardClientCertDetails === 'string' && topo.forwardClientCertDetails !== 'UNDEFINED' ? topo.forwardClientCertDetails : 'SANITIZE_SET';
  extra.httpProtocolOptions = ctx.features.PILOT_HTTP10 ? { acceptHttp10: true } : {};
  if (ph.serverName !== '') extra.serverName = ph.serverName;
  if (fcc !== 'SANITIZE') extra.forwardClientCertDetails = fcc;
  if (fcc === 'APPEND_FORWARD' || fcc === 'SANITIZE_SET') extra.setCurrentClientCertDetails = { subject: true, cert: true, dns: true, uri: true };
  return extra;
}

function httpChain(ctx: GenContext, mg: MergedGateway, server: Server | undefined, protocol: string, routeName: string): ChainOpts {
  const ph = proxyHeaders(ctx, 'gateway');
  const base = {
    rds: routeName,
    useRemoteAddress: true,
    extra: gatewayHcmExtra(ctx),
    protocol: parseProtocol(protocol),
    class: 'gateway' as const,
    skipMxHeaders: ph.skipMxHeaders,
  };
  if (!server || isHttp(parseProtocol(protocol))) return { httpOpts: { ...base, statPrefix: '' } };
  const info = mg.tlsServerInfo.get(server);
  return {
    sniHosts: info?.sniHosts ?? [],
    ...(server.tls && !isPassthroughServer(server)
      ? {
          tlsContext: listenerTlsContext(
            server.tls,
            ctx.proxy,
            ctx.mesh,
            isTcpServerWithTlsTermination(server),
            ctx.features.PILOT_ENABLE_METADATA_EXCHANGE,
            ctx.push.externalSds,
          ),
        }
      : {}),
    httpOpts: { ...base, statPrefix: server.name },
    prov: serverProv(mg, server),
  };
}

/** pickMatchingGatewayHosts (non-empty when any VirtualService host matches a server host). */
function vsMatchesServer(server: Server, vs: VirtualServiceConfig): boolean {
  for (const vh of vs.hosts) {
    for (let gh of server.hosts) {
      if (gh.includes('/')) {
        const [ns, name] = gh.split('/') as [string, string];
        if (ns !== vs.meta.namespace) continue;
        gh = name;
      }
      if (hostMatches(gh, vh)) return true;
    }
  }
  return false;
}

function l4Match(m: { port: number; gateways: readonly string[] }, server: Server, gateway: string): boolean {
  const portMatch = m.port === 0 || server.port?.number === m.port;
  const gwMatch = m.gateways.length === 0 || m.gateways.includes(gateway);
  return portMatch && gwMatch;
}

/** buildGatewayNetworkFiltersFromTCPRoutes. */
function tcpRouteFilters(ctx: GenContext, server: Server, gateway: string): { filters: Json[]; prov: ReturnType<typeof ref>[] } | undefined {
  const port = { port: server.port?.number ?? 0, protocol: parseProtocol(server.port?.protocol ?? '') };
  const includeMx = server.tls?.mode === 'ISTIO_MUTUAL';
  for (const vs of virtualServicesForGateway(ctx.push, ctx.proxy.configNamespace, gateway)) {
    if (!vsMatchesServer(server, vs)) continue;
    for (let i = 0; i < vs.tcp.length; i++) {
      const t = vs.tcp[i] as VirtualServiceConfig['tcp'][number];
      const matches = t.match.length === 0 || t.match.some((m) => l4Match(m, server, gateway));
      if (!matches || t.route.length === 0) continue;
      return {
        filters: outboundNetworkFilters(ctx, 'gateway', t.route, port, vs.meta, includeMx, true),
        prov: [ref(vs.meta.sourceKey, vs.meta.sourceKey === vs.meta.resource.key ? `spec.tcp[${i}]` : undefined)],
      };
    }
    const parents = vs.meta.annotations['internal.istio.io/parents'] ?? '';
    if (parents.startsWith('TLSRoute/') && !isPassthroughServer(server)) {
      for (const t of vs.tls)
        for (const m of t.match)
          if (l4Match(m, server, gateway))
            return { filters: outboundNetworkFilters(ctx, 'gateway', t.route, port, vs.meta, includeMx, true), prov: [ref(vs.meta.sourceKey)] };
    }
  }
  return undefined;
}

/** buildGatewayNetworkFiltersFromTLSRoutes: passthrough chains per `tls` match (SNI), or AUTO_PASSTHROUGH chains. */
function tlsRouteChains(
  ctx: GenContext,
  mg: MergedGateway,
  server: Server,
  listenerPort: number,
  gateway: string,
  tlsHostsByPort: Map<number, Map<string, string>>,
): ChainOpts[] {
  const port = { name: server.port?.name ?? '', port: server.port?.number ?? 0, protocol: parseProtocol(server.port?.protocol ?? '') };
  const out: ChainOpts[] = [];
  if (server.tls?.mode === 'AUTO_PASSTHROUGH') {
    const hosts = mg.tlsServerInfo.get(server)?.sniHosts ?? [];
    for (const svc of ctx.scope.services) {
      if (svc.meshExternal) continue;
      for (const p of svc.ports) {
        if (p.protocol === 'UDP') continue;
        if (!hosts.some((h) => hostSubsetOf(svc.hostname, h))) continue;
        const cluster = dnsSrvSubsetKey('outbound', '', svc.hostname, p.port);
        const dr = scopeDestinationRule(ctx.scope, 'outbound', ctx.proxy, svc.hostname)?.rule.spec;
        out.push({
          sniHosts: [cluster],
          applicationProtocols: ALL_ISTIO_MTLS_ALPNS,
          networkFilters: singleDestinationFilters(ctx, 'gateway', cluster, cluster, '', p.protocol, dr, false, true),
          prov: [ref(svc.resource.key)],
        });
        for (const ss of dr?.subsets ?? []) {
          const sc = dnsSrvSubsetKey('outbound', ss.name, svc.hostname, p.port);
          out.push({
            sniHosts: [sc],
            applicationProtocols: ALL_ISTIO_MTLS_ALPNS,
            networkFilters: singleDestinationFilters(ctx, 'gateway', sc, sc, ss.name, p.protocol, dr, false, true),
            prov: [ref(svc.resource.key)],
          });
        }
      }
    }
    return out;
  }
  for (const vs of virtualServicesForGateway(ctx.push, ctx.proxy.configNamespace, gateway)) {
    if (!vsMatchesServer(server, vs)) continue;
    vs.tls.forEach((t, ti) => {
      if (t.route.length === 0) return;
      t.match.forEach((m, mi) => {
        if (!l4Match(m, server, gateway)) return;
        const known = mapAt(tlsHostsByPort, listenerPort);
        const dups = m.sniHosts.filter((h) => known.has(h) && known.get(h) === server.bind);
        if (dups.length > 0) return;
        for (const h of m.sniHosts) known.set(h, server.bind);
        out.push({
          sniHosts: m.sniHosts,
          networkFilters: outboundNetworkFilters(ctx, 'gateway', t.route, port, vs.meta, false, true),
          prov: [ref(vs.meta.sourceKey, vs.meta.sourceKey === vs.meta.resource.key ? `spec.tls[${ti}].match[${mi}]` : undefined)],
        });
      });
    });
  }
  return out;
}

/** createGatewayTCPFilterChainOpts. */
function tcpChains(
  ctx: GenContext,
  mg: MergedGateway,
  server: Server,
  listenerPort: number,
  gateway: string,
  tlsHostsByPort: Map<number, Map<string, string>>,
): ChainOpts[] {
  if (!server.tls) {
    const f = tcpRouteFilters(ctx, server, gateway);
    return f ? [{ networkFilters: f.filters, prov: [...serverProv(mg, server), ...f.prov] }] : [];
  }
  if (!isPassthroughServer(server)) {
    const f = tcpRouteFilters(ctx, server, gateway);
    if (!f) return [];
    return [
      {
        sniHosts: mg.tlsServerInfo.get(server)?.sniHosts ?? [],
        tlsContext: listenerTlsContext(
          server.tls,
          ctx.proxy,
          ctx.mesh,
          isTcpServerWithTlsTermination(server),
          ctx.features.PILOT_ENABLE_METADATA_EXCHANGE,
          ctx.push.externalSds,
        ),
        networkFilters: f.filters,
        prov: [...serverProv(mg, server), ...f.prov],
      },
    ];
  }
  return tlsRouteChains(ctx, mg, server, listenerPort, gateway, tlsHostsByPort).map((c) => ({ ...c, prov: [...serverProv(mg, server), ...(c.prov ?? [])] }));
}

/** buildGatewayListeners. */
export function gatewayListeners(ctx: GenContext, mg: MergedGateway | undefined): Json[] {
  if (!mg) return [];
  const byName = new Map<string, { bind: string; port: number; chains: ChainOpts[] }>();
  const tlsHostsByPort = new Map<number, Map<string, string>>();
  const pc = ctx.mesh.defaultConfig;
  const needProxyProtocol = isObj(pc.gatewayTopology) && isObj(pc.gatewayTopology.proxyProtocol);
  for (const sp of mg.serverPorts) {
    // An unprivileged gateway pod cannot listen below 1024 (mergeGateways already moved service ports to target ports).
    if (ctx.proxy.metadata.unprivileged && sp.number < 1024) continue;
    const bind = sp.bind !== '' ? sp.bind : (ctx.wildcards[0] as string);
    const name = listenerName(bind, sp.number);
    const servers = mg.mergedServers.get(serverPortKey(sp));
    if (!servers) continue;
    const chains: ChainOpts[] = [];
    if (isHttp(parseProtocol(sp.protocol))) {
      const c = httpChain(ctx, mg, undefined, sp.protocol, servers.routeName);
      c.prov = servers.servers.flatMap((s) => serverProv(mg, s));
      chains.push(c);
    } else {
      for (const s of servers.servers) {
        if (isHttpsServerWithTlsTermination(s)) chains.push(httpChain(ctx, mg, s, s.port?.protocol ?? '', mg.tlsServerInfo.get(s)?.routeName ?? ''));
        else chains.push(...tcpChains(ctx, mg, s, sp.number, mg.gatewayNameForServer.get(s) as string, tlsHostsByPort));
      }
    }
    const existing = byName.get(name);
    if (existing) existing.chains.push(...chains);
    else byName.set(name, { bind, port: sp.number, chains });
  }
  const out: Json[] = [];
  for (const [name, l] of byName) {
    if (l.chains.length === 0) continue;
    const listenerFilters: Json[] = [];
    if (needProxyProtocol) listenerFilters.push(PROXY_PROTOCOL);
    if (l.chains.some((c) => (c.sniHosts && c.sniHosts.length > 0) || (c.tlsContext && Array.isArray((c.tlsContext.commonTlsContext as Json).alpnProtocols))))
      listenerFilters.push(TLS_INSPECTOR);
    const chains = l.chains.map((c) => {
      const chain: Json = {};
      const m = filterChainMatch(c);
      if (m) chain.filterChainMatch = m;
      chain.filters = c.httpOpts
        ? [
            ...(c.networkFilters ?? []),
            hcmFilter(ctx, { ...c.httpOpts, statPrefix: c.httpOpts.statPrefix !== '' ? c.httpOpts.statPrefix : `outbound_${name};` }),
          ]
        : (c.networkFilters ?? []);
      if (c.tlsContext) chain.transportSocket = { name: 'envoy.transport_sockets.tls', typedConfig: c.tlsContext };
      if (c.metadata) chain.metadata = c.metadata;
      chain.transportSocketConnectTimeout = '15s';
      return c.prov ? mark(chain, ...c.prov) : chain;
    });
    const listener: Json = { name, address: buildAddress(l.bind, l.port), filterChains: chains };
    if (listenerFilters.length > 0) listener.listenerFilters = listenerFilters;
    listener.trafficDirection = 'OUTBOUND';
    listener.maxConnectionsToAcceptPerSocketEvent = 1;
    for (const c of l.chains) for (const p of c.prov ?? []) mark(listener, p);
    out.push(listener);
  }
  return out;
}

export { configMetadata };
