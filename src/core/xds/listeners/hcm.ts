// The HTTP connection manager (listener_builder.go buildHTTPConnectionManager, tracing.go):
// codec, stat prefix, RDS or inline routes, Istio's HTTP filter chain, tracing, request id.
import type { Json } from '../types.ts';
import type { GenContext } from '../context.ts';
import { allowAnyDynamicDns, dynamicForwardProxyHttpFilter } from '../dynamicDns.ts';
import type { IstioProtocol } from '../../config/protocol.ts';
import {
  ALPN,
  CORS,
  FAULT,
  GRPC_STATS,
  GRPC_WEB,
  HCM_NAME,
  HCM_TYPE,
  SIDECAR_INBOUND_MX,
  SIDECAR_OUTBOUND_MX,
  SIDECAR_OUTBOUND_MX_SKIP_HEADERS,
  UUID_REQUEST_ID,
  routerFilter,
  statsFilter,
} from '../filters.ts';
import { isObj, str } from '../../document/read.ts';

export type ListenerClass = 'outbound' | 'inbound' | 'gateway';

export interface HttpOpts {
  rds?: string;
  routeConfig?: Json;
  statPrefix: string;
  protocol: IstioProtocol;
  class: ListenerClass;
  useRemoteAddress: boolean;
  /** Extra HCM fields (server name, client cert details, protocol options…). */
  extra: Json;
  skipMxHeaders?: boolean;
}

/** Proxy headers of the proxy's ProxyConfig (util.GetProxyHeaders). */
export function proxyHeaders(
  ctx: GenContext,
  cls: ListenerClass,
): { serverName: string; forwardClientCert: string; suppressDebugHeaders: boolean; skipMxHeaders: boolean; includeAttemptCount: boolean } {
  const pc = ctx.mesh.defaultConfig;
  const ph = isObj(pc.proxyHeaders) ? pc.proxyHeaders : {};
  let serverName = cls === 'outbound' ? '' : 'istio-envoy';
  if (isObj(ph.server)) {
    if (ph.server.disabled === true) serverName = '';
    else if (str(ph.server.value) !== '') serverName = str(ph.server.value);
  }
  const fcc = str(ph.forwardedClientCert);
  return {
    serverName,
    forwardClientCert: fcc !== '' && fcc !== 'UNDEFINED' ? fcc : 'APPEND_FORWARD',
    suppressDebugHeaders: isObj(ph.envoyDebugHeaders) && ph.envoyDebugHeaders.disabled === true,
    skipMxHeaders: isObj(ph.metadataExchangeHeaders) && ph.metadataExchangeHeaders.mode === 'IN_MESH',
    includeAttemptCount: !(isObj(ph.attemptCount) && ph.attemptCount.disabled === true),
  };
}

function literalTag(tag: string, value: string): Json {
  return { tag, literal: { value } };
}

function dryRunTag(tag: string, key: string): Json {
  return { tag, metadata: { kind: { request: {} }, metadataKey: { key: 'envoy.filters.http.rbac', path: [{ key }] } } };
}

/** The tracing block Istio adds when the mesh enables tracing without a Telemetry provider. */
function tracing(ctx: GenContext): Json | undefined {
  if (!ctx.mesh.enableTracing) return undefined;
  const labels = ctx.proxy.labels;
  const tags = [
    literalTag('istio.canonical_revision', labels['service.istio.io/canonical-revision'] || 'latest'),
    literalTag('istio.canonical_service', labels['service.istio.io/canonical-name'] || 'unknown'),
    // tracing.go:642-645: node.Metadata.MeshID, else "unknown".
    literalTag('istio.mesh_id', ctx.proxy.metadata.meshId || 'unknown'),
    literalTag('istio.namespace', ctx.proxy.namespace || 'default'),
    literalTag('istio.cluster_id', ctx.proxy.clusterId || 'unknown'),
    dryRunTag('istio.authorization.dry_run.allow_policy.name', 'istio_dry_run_allow_shadow_effective_policy_id'),
    dryRunTag('istio.authorization.dry_run.allow_policy.result', 'istio_dry_run_allow_shadow_engine_result'),
    dryRunTag('istio.authorization.dry_run.deny_policy.name', 'istio_dry_run_deny_shadow_effective_policy_id'),
    dryRunTag('istio.authorization.dry_run.deny_policy.result', 'istio_dry_run_deny_shadow_engine_result'),
  ].sort((a, b) => ((a.tag as string) < (b.tag as string) ? -1 : 1));
  return { clientSampling: { value: 100 }, randomSampling: { value: ctx.mesh.traceSampling }, overallSampling: { value: 100 }, customTags: tags };
}

/** The HTTP filters of an HCM, in Istio's order. */
function httpFilters(ctx: GenContext, o: HttpOpts): Json[] {
  const f: Json[] = [];
  if (ctx.features.PILOT_ENABLE_METADATA_EXCHANGE) {
    if (o.class === 'inbound') f.push(SIDECAR_INBOUND_MX);
    else f.push(o.skipMxHeaders ? SIDECAR_OUTBOUND_MX_SKIP_HEADERS : SIDECAR_OUTBOUND_MX);
  }
  if (o.class !== 'outbound') {
    f.push(...ctx.authz.httpCustom);
    f.push(...ctx.authz.httpJwt);
    f.push(...ctx.authz.httpRbac);
  }
  if (o.protocol === 'GRPC-Web') f.push(GRPC_WEB);
  f.push(GRPC_STATS);
  if (ctx.features.PILOT_ENABLE_ALPN_FILTER && o.class !== 'inbound') f.push(ALPN);
  f.push(FAULT, CORS);
  if (ctx.mesh.prometheusMetrics) f.push(statsFilter(o.class !== 'outbound'));
  // listener_builder.go: every sidecar outbound HCM, since each route configuration ends in the catch-all virtual host.
  if (o.class === 'outbound' && allowAnyDynamicDns(ctx)) f.push(dynamicForwardProxyHttpFilter(ctx));
  f.push(routerFilter(proxyHeaders(ctx, o.class).suppressDebugHeaders));
  return f;
}

/** buildHTTPConnectionManager as a network filter. */
export function hcmFilter(ctx: GenContext, o: HttpOpts): Json {
  const h: Json = { '@type': HCM_TYPE, statPrefix: o.statPrefix };
  if (o.rds !== undefined && o.rds !== '') {
    h.rds = { configSource: { ads: {}, initialFetchTimeout: '0s', resourceApiVersion: 'V3' }, routeConfigName: o.rds };
  } else h.routeConfig = o.routeConfig;
  h.httpFilters = httpFilters(ctx, o);
  const t = tracing(ctx);
  if (t) h.tracing = t;
  for (const [k, v] of Object.entries(o.extra)) if (v !== undefined) h[k] = v;
  h.useRemoteAddress = o.useRemoteAddress;
  h.upgradeConfigs = [{ upgradeType: 'websocket' }];
  const pn = ctx.mesh.pathNormalization;
  h.normalizePath = pn !== 'NONE';
  if (pn === 'MERGE_SLASHES' || pn === 'DECODE_AND_MERGE_SLASHES') h.mergeSlashes = true;
  h.pathWithEscapedSlashesAction = pn === 'DECODE_AND_MERGE_SLASHES' ? 'UNESCAPE_AND_FORWARD' : 'KEEP_UNCHANGED';
  h.requestIdExtension = UUID_REQUEST_ID;
  h.streamIdleTimeout = '0s';
  h.proxy100Continue = true;
  return { name: HCM_NAME, typedConfig: h };
}
