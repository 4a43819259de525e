// Hand-built Envoy resources for the simulator's unit tests (simulatorEdges, simulatorRules).
import { simulate, type SimCall } from '../../src/core/xds/simulate.ts';
import type { Json } from '../../src/core/xds/types.ts';

export const HCM = 'envoy.filters.network.http_connection_manager';
export const TCP = 'envoy.filters.network.tcp_proxy';
export const TLS_INSPECTOR = 'envoy.filters.listener.tls_inspector';
export const HTTP_INSPECTOR = 'envoy.filters.listener.http_inspector';

/** A filter chain whose tcp_proxy sends to a cluster named like the chain. */
export const tcpChain = (name: string, match: Json = {}, extra: Json = {}): Json => ({
  name,
  filterChainMatch: match,
  filters: [{ name: TCP, typedConfig: { cluster: name } }],
  ...extra,
});

export const listener = (name: string, address: string, port: number, chains: Json[], extra: Json = {}): Json => ({
  name,
  address: { socketAddress: { address, portValue: port } },
  filterChains: chains,
  ...extra,
});

export const run = (listeners: Json[], call: SimCall, routes: Json[] = []) => simulate({ listeners, routes }, call);
