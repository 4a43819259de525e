// Filters and TLS pieces only waypoints use (pilot/pkg/xds/filters/filters.go,
// listener_waypoint.go buildCommonConnectTLSContext): the peer-metadata filters, the
// set_filter_state filters that carry the CONNECT authority into the inner connection, the
// matcher inputs and actions of main_internal's filter chain matcher, and the HBONE TLS context.
import type { Json } from '../types.ts';
import type { MeshSettings } from '../mesh.ts';
import { trustDomainsForValidation } from '../mesh.ts';
import { TYPED_STRUCT } from '../filters.ts';
import { sdsSecretConfig, SDS_DEFAULT, SDS_ROOT } from '../tlsContext.ts';

const T = 'type.googleapis.com/';
const PEER_METADATA = `${T}io.istio.http.peer_metadata.Config`;
const HTTP_SET_FILTER_STATE = `${T}envoy.extensions.filters.http.set_filter_state.v3.Config`;
const NETWORK_SET_FILTER_STATE = `${T}envoy.extensions.filters.network.set_filter_state.v3.Config`;
export const ORIGINAL_DST_LOCAL_IP = 'envoy.filters.listener.original_dst.local_ip';
export const AUTHORITY_FILTER_STATE = 'io.istio.connect_authority';

/** waypoint_downstream_peer_metadata: peer metadata of the ztunnel-side client, shared with the inner connection. */
export const WAYPOINT_DOWNSTREAM_PEER_METADATA: Json = {
  name: 'waypoint_downstream_peer_metadata',
  typedConfig: { '@type': TYPED_STRUCT, typeUrl: PEER_METADATA, value: { downstream_discovery: [{ workload_discovery: {} }], shared_with_upstream: true } },
};

/** waypoint_upstream_peer_metadata: peer metadata of the chosen backend. */
export const WAYPOINT_UPSTREAM_PEER_METADATA: Json = {
  name: 'waypoint_upstream_peer_metadata',
  typedConfig: { '@type': TYPED_STRUCT, typeUrl: PEER_METADATA, value: { upstream_discovery: [{ workload_discovery: {} }] } },
};

function formatted(inline: string): Json {
  return { textFormatSource: { inlineString: inline } };
}

function stateValue(key: string, inline: string, factoryKey?: string): Json {
  return { objectKey: key, ...(factoryKey ? { factoryKey } : {}), formatString: formatted(inline), sharedWithUpstream: 'ONCE' };
}

/** connect_authority (HTTP, proxies ≥ 1.29.2): the CONNECT authority, peer address and principals into filter state. */
export const CONNECT_AUTHORITY_HTTP: Json = {
  name: 'connect_authority',
  typedConfig: {
    '@type': HTTP_SET_FILTER_STATE,
    onRequestHeaders: [
      stateValue(ORIGINAL_DST_LOCAL_IP, '%REQ(:AUTHORITY)%'),
      stateValue(AUTHORITY_FILTER_STATE, '%REQ(:AUTHORITY)%', 'istio.hashable_string'),
      stateValue('envoy.filters.listener.original_dst.remote_ip', '%DOWNSTREAM_REMOTE_ADDRESS%'),
      stateValue('io.istio.peer_principal', '%DOWNSTREAM_PEER_URI_SAN%', 'istio.hashable_string'),
      stateValue('io.istio.local_principal', '%DOWNSTREAM_LOCAL_URI_SAN%', 'istio.hashable_string'),
    ],
  },
};

/** connect_authority (network): the original destination handed on to the direct-to-workload chains. */
export const CONNECT_AUTHORITY_NETWORK: Json = {
  name: 'connect_authority',
  typedConfig: {
    '@type': NETWORK_SET_FILTER_STATE,
    onNewConnection: [stateValue(ORIGINAL_DST_LOCAL_IP, `%FILTER_STATE(${ORIGINAL_DST_LOCAL_IP}:PLAIN)%`)],
  },
};

/** istio.stats on a waypoint: server-gateway reporter, no host header fallback (ListenerClassSidecarInbound). */
export function waypointStatsFilter(): Json {
  return { name: 'istio.stats', typedConfig: { '@type': `${T}stats.PluginConfig`, disableHostHeaderFallback: true, reporter: 'SERVER_GATEWAY' } };
}

// ---- matcher tree (pilot/pkg/networking/core/match) -----------------------------------

const INPUT = `${T}envoy.extensions.matching.common_inputs.network.v3.`;
export const DESTINATION_IP_INPUT: Json = { name: 'ip', typedConfig: { '@type': `${INPUT}DestinationIPInput` } };
export const DESTINATION_PORT_INPUT: Json = { name: 'port', typedConfig: { '@type': `${INPUT}DestinationPortInput` } };
export const APPLICATION_PROTOCOL_INPUT: Json = { name: 'application-protocol', typedConfig: { '@type': `${INPUT}ApplicationProtocolInput` } };
export const IP_MATCHER_TYPE = `${T}xds.type.matcher.v3.IPMatcher`;

/** match.ToChain: an action naming the filter chain. */
export function toChain(name: string): Json {
  return { action: { name, typedConfig: { '@type': `${T}google.protobuf.StringValue`, value: name } } };
}

/** match.ToMatcher. */
export function toMatcher(m: Json): Json {
  return { matcher: m };
}

/** An exact-match map matcher over an input (match.newMapper), with an optional fallback. */
export function mapMatcher(input: Json, map: Record<string, Json>, onNoMatch?: Json): Json {
  return { matcherTree: { input, exactMatchMap: { map } }, ...(onNoMatch ? { onNoMatch } : {}) };
}

/** match.NewAppProtocol: HTTP/1.1 and h2c to the HTTP chain, anything else to the TCP chain. */
export function appProtocolMatcher(tcp: Json, http: Json, http10: boolean): Json {
  const map: Record<string, Json> = { "'h2c'": http, "'http/1.1'": http };
  if (http10) map["'http/1.0'"] = http;
  return mapMatcher(APPLICATION_PROTOCOL_INPUT, map, tcp);
}

// ---- HBONE TLS ---------------------------------------------------------------------------

/** buildCommonConnectTLSContext: Istio's certificate, the mesh's trust domains as URI SAN prefixes, h2, TLS 1.3 only. */
export function connectCommonTlsContext(mesh: MeshSettings, extraSanPrefixes: readonly string[] = []): Json {
  const sans = [...trustDomainsForValidation(mesh).map((td) => `spiffe://${td}/`), ...extraSanPrefixes].map((prefix) => ({
    sanType: 'URI',
    matcher: { prefix },
  }));
  const dvc: Json = sans.length > 0 ? { matchTypedSubjectAltNames: sans } : {};
  return {
    tlsParams: { tlsMinimumProtocolVersion: 'TLSv1_3', tlsMaximumProtocolVersion: 'TLSv1_3' },
    tlsCertificateSdsSecretConfigs: [sdsSecretConfig(SDS_DEFAULT)],
    combinedValidationContext: { defaultValidationContext: dvc, validationContextSdsSecretConfig: sdsSecretConfig(SDS_ROOT) },
    alpnProtocols: ['h2'],
  };
}
