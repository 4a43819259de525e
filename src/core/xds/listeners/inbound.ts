// A sidecar's inbound listeners (listener_inbound.go, filterchain_options.go; spec §3):
// virtualInbound with the blackhole chain, passthrough chains per mTLS mode, and one set of
// chains per target port (or Sidecar ingress port) by protocol and PeerAuthentication mode.
import type { Json, ProvenanceRef } from '../types.ts';
import type { GenContext } from '../context.ts';
import type { IstioProtocol } from '../../config/protocol.ts';
import { parseProtocol } from '../../config/protocol.ts';
import { afterTlsTermination, isGrpc, isHttp, isHttp2, listenerProtocol, type ListenerProtocol } from '../protocol.ts';
import { canBindToPort, ipMode } from '../proxy.ts';
import { composePeerAuthentication, mtlsModeForPort } from '../peerAuthn.ts';
import type { MtlsMode, Service } from '../pushContext.ts';
import { trustDomainsForValidation } from '../mesh.ts';
import { inboundMtlsContext, listenerTlsContext } from '../tlsContext.ts';
import {
  HTTP_INSPECTOR,
  HTTP_INSPECTOR_NAME,
  ORIGINAL_DST,
  ORIGINAL_SRC,
  TCP_LISTENER_MX,
  TCP_PROXY_NAME,
  TCP_PROXY_TYPE,
  TLS_INSPECTOR,
  TLS_INSPECTOR_NAME,
  networkFilter,
  tcpProxyFilter,
} from '../filters.ts';
import {
  BLACKHOLE_CLUSTER,
  INBOUND_PASSTHROUGH_CLUSTER,
  inboundClusterName,
  listenerName,
  VIRTUAL_INBOUND,
  VIRTUAL_INBOUND_BLACKHOLE_CHAIN,
  VIRTUAL_INBOUND_CATCHALL_HTTP_CHAIN,
} from '../names.ts';
import { defaultInboundRoute } from '../routes/translate.ts';
import { durationJson } from '../duration.ts';
import { hcmFilter, proxyHeaders } from './hcm.ts';
import { additionalAddresses, buildAddress, completeNetworkFilters, configMetadata, metricsNetworkFilters } from './common.ts';
import { plaintextHttpAlpns } from './outbound.ts';
import { builtin, mark, ref } from '../provenance.ts';
import { ipBytes } from '../net.ts';

const MTLS_HTTP_ALPNS = ['istio-http/1.0', 'istio-http/1.1', 'istio-h2'];
const ALL_ISTIO_MTLS_ALPNS = ['istio', 'istio-peer-exchange', 'istio-http/1.0', 'istio-http/1.1', 'istio-h2'];
const MTLS_TCP_WITH_MXC_ALPNS = ['istio-peer-exchange', 'istio'];

/** inboundChainConfig. */
export interface InboundChainConfig {
  clusterName: string;
  /** The service port (name, number, protocol) and the target port. */
  port: { name: string; port: number; protocol: IstioProtocol; targetPort: number };
  bind: string;
  extraBind: string[];
  tlsSettings?: NonNullable<GenContext['scope']['sidecar']>['spec']['ingress'][number]['tls'];
  passthrough: boolean;
  bindToPort: boolean;
  instanceHostname: string;
  configMeta?: NonNullable<GenContext['scope']['sidecar']>['meta'];
  services: Service[];
  prov: ProvenanceRef[];
}

interface MatchOption {
  alpn?: string[];
  transport: string;
  protocol: 'HTTP' | 'TCP';
  tls: boolean;
}

/** getFilterChainMatchOptions. */
function matchOptions(ctx: GenContext, mode: MtlsMode, lp: ListenerProtocol): MatchOption[] {
  const plain = plaintextHttpAlpns(ctx);
  if (lp === 'HTTP') {
    if (mode === 'STRICT') return [{ protocol: 'HTTP', transport: 'tls', tls: true }];
    if (mode === 'PERMISSIVE')
      return [
        { alpn: ALL_ISTIO_MTLS_ALPNS, transport: 'tls', protocol: 'HTTP', tls: true },
        { protocol: 'HTTP', transport: 'raw_buffer', tls: false },
      ];
    return [{ protocol: 'HTTP', transport: 'raw_buffer', tls: false }];
  }
  if (lp === 'AUTO') {
    if (mode === 'STRICT')
      return [
        { alpn: MTLS_HTTP_ALPNS, protocol: 'HTTP', transport: 'tls', tls: true },
        { protocol: 'TCP', transport: 'tls', tls: true },
      ];
    if (mode === 'PERMISSIVE') {
      return [
        { alpn: MTLS_HTTP_ALPNS, transport: 'tls', protocol: 'HTTP', tls: true },
        { alpn: plain, protocol: 'HTTP', transport: 'raw_buffer', tls: false },
        { alpn: MTLS_TCP_WITH_MXC_ALPNS, transport: 'tls', protocol: 'TCP', tls: true },
        { protocol: 'TCP', transport: 'raw_buffer', tls: false },
        { transport: 'tls', protocol: 'TCP', tls: false },
      ];
    }
    return [
      { alpn: plain, protocol: 'HTTP', transport: 'raw_buffer', tls: false },
      { protocol: 'TCP', transport: 'raw_buffer', tls: false },
    ];
  }
  if (mode === 'STRICT') return [{ protocol: 'TCP', transport: 'tls', tls: true }];
  if (mode === 'PERMISSIVE')
    return [
      { alpn: ALL_ISTIO_MTLS_ALPNS, transport: 'tls', protocol: 'TCP', tls: true },
      { transport: 'tls', protocol: 'TCP', tls: false },
      { protocol: 'TCP', transport: 'raw_buffer', tls: false },
    ];
  return [{ protocol: 'TCP', transport: 'raw_buffer', tls: false }];
}

interface MtlsSettings {
  port: number;
  mode: MtlsMode;
  tcp?: Json;
  http?: Json;
}

function mtlsSettings(ctx: GenContext, port: number, mode: MtlsMode): MtlsSettings {
  const tds = trustDomainsForValidation(ctx.mesh);
  const mx = ctx.features.PILOT_ENABLE_METADATA_EXCHANGE;
  const tcp = inboundMtlsContext(mode, true, ctx.mesh, tds, mx);
  const http = inboundMtlsContext(mode, false, ctx.mesh, tds, mx);
  return { port, mode, ...(tcp ? { tcp } : {}), ...(http ? { http } : {}) };
}

/** The pod IP when it is a global unicast address, else the wildcards (getSidecarInboundBindIPs). */
function sidecarInboundBindIps(ctx: GenContext): string[] {
  for (const ip of ctx.proxy.ipAddresses) {
    const b = ipBytes(ip);
    if (!b) continue;
    if (b.length === 4) {
      if (b[0] === 127 || b[0] === 0 || (b[0] === 169 && b[1] === 254) || (b[0] as number) >= 224) continue;
    } else if (b.every((x, i) => x === 0 || (i === 15 && x <= 1)) || (b[0] === 0xfe && ((b[1] as number) & 0xc0) === 0x80) || b[0] === 0xff) continue;
    return [ip];
  }
  return [...ctx.wildcards];
}

/** buildInboundChainConfigs: per target port (service targets), or per Sidecar ingress port. */
export function inboundChainConfigs(ctx: GenContext): InboundChainConfig[] {
  const byPort = new Map<number, InboundChainConfig>();
  const sc = ctx.scope.sidecar;
  const ingress = sc?.spec.ingress ?? [];
  if (ingress.length === 0) {
    if (ctx.proxy.interceptionMode === 'NONE') return [];
    const wildcard = ipMode(ctx.proxy) === 'IPv6' ? '::' : '0.0.0.0';
    for (const t of ctx.targets) {
      if (
        !canBindToPort(ctx.proxy, false, ctx.wildcards[0] as string, t.targetPort, isHttp(t.port.protocol), wildcard, [
          ctx.mesh.proxyListenPort,
          ctx.mesh.proxyInboundListenPort,
        ])
      )
        continue;
      const existing = byPort.get(t.targetPort);
      if (existing) {
        if (!existing.services.includes(t.service)) existing.services.push(t.service);
        continue;
      }
      byPort.set(t.targetPort, {
        clusterName: inboundClusterName(t.targetPort),
        port: { name: t.port.name, port: t.port.port, protocol: t.port.protocol, targetPort: t.targetPort },
        bind: ctx.wildcards[0] as string,
        extraBind: ctx.wildcards.slice(1),
        passthrough: false,
        bindToPort: false,
        instanceHostname: t.service.hostname,
        services: [t.service],
        prov: [ref(t.service.resource.key)],
      });
    }
  } else {
    ingress.forEach((i, idx) => {
      const port = i.port?.number ?? 0;
      let protocol = parseProtocol(i.port?.protocol ?? '');
      const bindToPort = i.captureMode === '' || i.captureMode === 'DEFAULT' ? ctx.proxy.interceptionMode === 'NONE' : i.captureMode === 'NONE';
      if (byPort.has(port)) return;
      if (!canBindToPort(ctx.proxy, bindToPort, i.bind, port, isHttp(protocol), ipMode(ctx.proxy) === 'IPv6' ? '::' : '0.0.0.0')) return;
      let bind = i.bind;
      let extraBind: string[] = [];
      if (bind === '') {
        const ips = sidecarInboundBindIps(ctx);
        bind = ips[0] as string;
        extraBind = ips.slice(1);
      }
      const cc: InboundChainConfig = {
        clusterName: inboundClusterName(port),
        port: { name: i.port?.name ?? '', port, protocol, targetPort: port },
        bind,
        extraBind,
        passthrough: false,
        bindToPort,
        instanceHostname: `${sc?.meta.name}.${sc?.meta.namespace}`,
        ...(sc ? { configMeta: sc.meta } : {}),
        services: ctx.targets.filter((t) => t.targetPort === port).map((t) => t.service),
        prov: [ref(sc?.meta.resource.key ?? '', `spec.ingress[${idx}]`)],
      };
      if (i.tls && ctx.features.ENABLE_TLS_ON_SIDECAR_INGRESS) {
        cc.tlsSettings = i.tls;
        protocol = afterTlsTermination(protocol);
        cc.port = { ...cc.port, protocol };
      }
      byPort.set(port, cc);
    });
  }
  return [...byPort.values()].sort((a, b) => a.port.targetPort - b.port.targetPort);
}

function chainName(cc: InboundChainConfig, protocol: 'HTTP' | 'TCP'): string {
  if (cc.passthrough) return protocol === 'HTTP' ? VIRTUAL_INBOUND_CATCHALL_HTTP_CHAIN : VIRTUAL_INBOUND;
  return listenerName(cc.bind, cc.port.targetPort);
}

function chainMatch(cc: InboundChainConfig, o: MatchOption): Json {
  const m: Json = {};
  if (cc.port.targetPort > 0) m.destinationPort = cc.port.targetPort;
  if (o.transport) m.transportProtocol = o.transport;
  if (o.alpn && o.alpn.length > 0) m.applicationProtocols = o.alpn;
  return m;
}

function inboundHttpFilters(ctx: GenContext, cc: InboundChainConfig): Json[] {
  const ph = proxyHeaders(ctx, 'inbound');
  const grpc = isGrpc(cc.port.protocol);
  const routeConfig = {
    name: cc.clusterName,
    virtualHosts: [
      {
        name: `inbound|http|${cc.port.port}`,
        domains: ['*'],
        routes: [
          defaultInboundRoute(
            cc.clusterName,
            `${cc.instanceHostname.includes(':') ? `[${cc.instanceHostname}]` : cc.instanceHostname}:${cc.port.port}/*`,
            grpc,
            ctx.mesh,
          ),
        ],
      },
    ],
    validateClusters: false,
  };
  const extra: Json = {};
  if (isHttp2(cc.port.protocol)) extra.http2ProtocolOptions = {};
  if (ctx.features.PILOT_HTTP10 || ctx.proxy.metadata.http10) extra.httpProtocolOptions = { acceptHttp10: true };
  if (ph.serverName !== '') extra.serverName = ph.serverName;
  extra.forwardClientCertDetails = ph.forwardClientCert;
  extra.setCurrentClientCertDetails = { subject: true, dns: true, uri: true };
  const statPrefix = cc.passthrough ? `${cc.clusterName};` : `inbound_${chainName(cc, 'HTTP')};`;
  const filters: Json[] = [];
  if (ctx.features.PILOT_ENABLE_METADATA_EXCHANGE) filters.push(TCP_LISTENER_MX);
  filters.push(hcmFilter(ctx, { routeConfig, statPrefix, protocol: cc.port.protocol, class: 'inbound', useRemoteAddress: false, extra }));
  return filters;
}

function inboundTcpFilters(ctx: GenContext, cc: InboundChainConfig): Json[] {
  const tcp: Json = { '@type': TCP_PROXY_TYPE, statPrefix: cc.clusterName, cluster: cc.clusterName };
  const idle = ctx.proxy.metadata.idleTimeout ? durationJson(ctx.proxy.metadata.idleTimeout) : undefined;
  if (idle) tcp.idleTimeout = idle;
  const tcpFilter = networkFilter(TCP_PROXY_NAME, tcp);
  const stack =
    cc.port.protocol === 'Mongo' && ctx.features.PILOT_ENABLE_MONGO_FILTER
      ? [
          networkFilter('envoy.filters.network.mongo_proxy', {
            '@type': 'type.googleapis.com/envoy.extensions.filters.network.mongo_proxy.v3.MongoProxy',
            statPrefix: cc.clusterName,
          }),
          tcpFilter,
        ]
      : [tcpFilter];
  return completeNetworkFilters(ctx, 'inbound', stack, true, true);
}

function chainsFor(ctx: GenContext, cc: InboundChainConfig, mtls: MtlsSettings, opts: MatchOption[]): Json[] {
  return opts.map((o) => {
    const chain: Json = { filterChainMatch: chainMatch(cc, o), filters: o.protocol === 'HTTP' ? inboundHttpFilters(ctx, cc) : inboundTcpFilters(ctx, cc) };
    const tls = o.tls ? (o.protocol === 'HTTP' ? mtls.http : mtls.tcp) : undefined;
    if (tls) chain.transportSocket = { name: 'envoy.transport_sockets.tls', typedConfig: tls };
    if (cc.configMeta) chain.metadata = configMetadata(cc.configMeta);
    chain.name = chainName(cc, o.protocol);
    return mark(chain, ...cc.prov);
  });
}

/** The ports that get their own passthrough chains (PeerAuthentication port-level modes not on a service port). */
function passthroughMtls(ctx: GenContext, pa: ReturnType<typeof composePeerAuthentication>): MtlsSettings[] {
  const out = [mtlsSettings(ctx, 0, pa.mode)];
  const ingress = ctx.scope.sidecar?.spec.ingress ?? [];
  for (const port of [...pa.perPort.keys()].sort((a, b) => a - b)) {
    const isServicePort = ingress.length > 0 ? ingress.some((i) => i.port?.number === port) : ctx.targets.some((t) => t.targetPort === port);
    if (isServicePort) continue;
    out.push(mtlsSettings(ctx, port, mtlsModeForPort(pa, port)));
  }
  return out;
}

export function listenerPredicateExclude(ports: number[]): Json {
  const ranges = ports.map((p) => ({ destinationPortRange: { start: p, end: p + 1 } }));
  return ranges.length > 1 ? { orMatch: { rules: ranges } } : (ranges[0] as Json);
}

/** populateListenerFilters: original_dst (and original_src), TLS and HTTP inspectors limited to the ports that need them. */
function listenerFilters(ctx: GenContext, chains: readonly Json[], bindToPort: boolean): Json[] {
  const lf: Json[] = [];
  if (!bindToPort) lf.push(ORIGINAL_DST);
  if (!bindToPort && ctx.proxy.interceptionMode === 'TPROXY') lf.push(ORIGINAL_SRC);
  const inspectors = new Map<number, { tls: boolean; http: boolean }>();
  for (const fc of chains) {
    const m = (fc.filterChainMatch ?? {}) as Json;
    const port = typeof m.destinationPort === 'number' ? m.destinationPort : 0;
    const needsTls = m.transportProtocol === 'tls';
    const alpn = Array.isArray(m.applicationProtocols) ? (m.applicationProtocols as string[]) : [];
    const needsHttp = alpn.includes('http/1.1') || alpn.includes('h2c');
    const i = inspectors.get(port) ?? { tls: false, http: false };
    inspectors.set(port, { tls: i.tls || needsTls, http: i.http || needsHttp });
  }
  const ports = [...inspectors.keys()].sort((a, b) => a - b);
  if ([...inspectors.values()].some((i) => i.tls)) {
    if (inspectors.get(0)?.tls) {
      const excl = ports.filter((p) => p !== 0 && !inspectors.get(p)?.tls);
      lf.push(
        excl.length === 0
          ? TLS_INSPECTOR
          : { name: TLS_INSPECTOR_NAME, typedConfig: TLS_INSPECTOR.typedConfig, filterDisabled: listenerPredicateExclude(excl) },
      );
    } else {
      const incl = ports.filter((p) => p !== 0 && inspectors.get(p)?.tls);
      lf.push(
        incl.length === 0
          ? TLS_INSPECTOR
          : { name: TLS_INSPECTOR_NAME, typedConfig: TLS_INSPECTOR.typedConfig, filterDisabled: { notMatch: listenerPredicateExclude(incl) } },
      );
    }
  }
  if ([...inspectors.values()].some((i) => i.http)) {
    const excl = ports.filter((p) => !inspectors.get(p)?.http);
    lf.push(
      excl.length === 0
        ? HTTP_INSPECTOR
        : { name: HTTP_INSPECTOR_NAME, typedConfig: HTTP_INSPECTOR.typedConfig, filterDisabled: listenerPredicateExclude(excl) },
    );
  }
  return lf;
}

function inboundListener(ctx: GenContext, name: string, addresses: readonly string[], port: number, bindToPort: boolean, chains: Json[]): Json {
  const l: Json = { name, address: buildAddress(addresses[0] as string, port) };
  if (ctx.features.ISTIO_DUAL_STACK && addresses.length > 1) l.additionalAddresses = additionalAddresses(addresses.slice(1), port);
  l.filterChains = chains;
  const lf = listenerFilters(ctx, chains, bindToPort);
  if (lf.length > 0) l.listenerFilters = lf;
  l.listenerFiltersTimeout = ctx.mesh.protocolDetectionTimeout;
  l.continueOnListenerFiltersTimeout = true;
  if (!bindToPort && ctx.proxy.interceptionMode === 'TPROXY') l.transparent = true;
  l.trafficDirection = 'INBOUND';
  l.maxConnectionsToAcceptPerSocketEvent = 1;
  return l;
}

/** buildInboundListeners: virtualInbound first, then listeners for ports bound directly. */
export function sidecarInboundListeners(ctx: GenContext): Json[] {
  const listeners: Json[] = [];
  const virtualChains: Json[] = [];
  const pa = composePeerAuthentication(ctx.push, ctx.proxy.configNamespace, ctx.proxy.labels);
  for (const cc of inboundChainConfigs(ctx)) {
    let mtls = mtlsSettings(ctx, cc.port.targetPort, mtlsModeForPort(pa, cc.port.targetPort));
    let opts: MatchOption[];
    if (cc.tlsSettings && mtls.mode === 'DISABLE') {
      const lp = listenerProtocol(cc.port.protocol);
      opts = [{ protocol: lp === 'HTTP' ? 'HTTP' : 'TCP', transport: 'tls', tls: true }];
      const tls = listenerTlsContext(cc.tlsSettings, ctx.proxy, ctx.mesh, false, ctx.features.PILOT_ENABLE_METADATA_EXCHANGE);
      mtls = { ...mtls, tcp: tls, http: tls };
    } else opts = matchOptions(ctx, mtls.mode, listenerProtocol(cc.port.protocol));
    const chains = chainsFor(ctx, cc, mtls, opts);
    for (const c of chains) mark(c, ...pa.from);
    if (cc.bindToPort)
      listeners.push(mark(inboundListener(ctx, chainName(cc, 'TCP'), [cc.bind, ...cc.extraBind], cc.port.targetPort, true, chains), ...cc.prov));
    else virtualChains.push(...chains);
  }
  if (ctx.proxy.interceptionMode !== 'NONE') {
    const all = [...passthroughChains(ctx, pa), ...virtualChains];
    listeners.unshift(
      mark(
        inboundListener(ctx, VIRTUAL_INBOUND, ctx.wildcards, ctx.mesh.proxyInboundListenPort, false, all),
        builtin('traffic capture (iptables redirect to 15006)'),
      ),
    );
  }
  return listeners;
}

function passthroughChains(ctx: GenContext, pa: ReturnType<typeof composePeerAuthentication>): Json[] {
  const blackhole = mark(
    {
      filterChainMatch: { destinationPort: ctx.mesh.proxyInboundListenPort },
      filters: [
        ...(ctx.features.PILOT_ENABLE_METADATA_EXCHANGE ? [TCP_LISTENER_MX] : []),
        ...metricsNetworkFilters(ctx, 'inbound'),
        tcpProxyFilter(BLACKHOLE_CLUSTER, BLACKHOLE_CLUSTER),
      ],
      name: VIRTUAL_INBOUND_BLACKHOLE_CHAIN,
    },
    builtin('loop protection'),
  );
  const out: Json[] = [blackhole];
  for (const mtls of passthroughMtls(ctx, pa)) {
    const cc: InboundChainConfig = {
      clusterName: INBOUND_PASSTHROUGH_CLUSTER,
      port: { name: VIRTUAL_INBOUND, port: 0, protocol: 'UnsupportedProtocol', targetPort: mtls.port },
      bind: '',
      extraBind: [],
      passthrough: true,
      bindToPort: false,
      instanceHostname: '',
      services: [],
      prov: [...pa.from, builtin(`inbound passthrough (PeerAuthentication mode ${mtls.mode})`)],
    };
    out.push(...chainsFor(ctx, cc, mtls, matchOptions(ctx, mtls.mode, 'AUTO')));
  }
  return out;
}
