// Istio's names for Envoy resources (spec §1): cluster subset keys, the DNS-SRV form used as
// mTLS SNI, listener names, virtual host names.

export type TrafficDirection = 'inbound' | 'outbound' | 'inbound-vip';

/** model.BuildSubsetKey: `direction|port|subset|host` (exactly three `|`). */
export function subsetKey(direction: TrafficDirection, subset: string, host: string, port: number): string {
  return `${direction}|${port}|${subset}|${host}`;
}

/** model.BuildInboundSubsetKey: `inbound|port||`. */
export function inboundClusterName(port: number): string {
  return `inbound|${port}||`;
}

/** model.BuildDNSSrvSubsetKey: `outbound_.port_.subset_.host`. */
export function dnsSrvSubsetKey(direction: TrafficDirection, subset: string, host: string, port: number): string {
  return `${direction}_.${port}_.${subset}_.${host}`;
}

export function isDnsSrvSubsetKey(name: string): boolean {
  return name.split('_.').length === 4;
}

export interface SubsetKey {
  direction: string;
  subset: string;
  host: string;
  port: number;
}

/** model.ParseSubsetKey (`|` form or the DNS-SRV `_.` form); undefined for other names. */
export function parseSubsetKey(name: string): SubsetKey | undefined {
  let parts = name.split('|');
  if (parts.length < 4) {
    parts = name.split('_.');
    if (parts.length < 4) return undefined;
  }
  const port = Number(parts[1]);
  return { direction: parts[0] as string, port: Number.isInteger(port) ? port : 0, subset: parts[2] as string, host: parts.slice(3).join('|') };
}

/** model.IsValidSubsetKey: a `|` name with at least four parts. */
export function isValidSubsetKey(name: string): boolean {
  return name.split('|').length >= 4;
}

/** getListenerName for TCP: `<bind>_<port>`. */
export function listenerName(bind: string, port: number): string {
  return `${bind}_${port}`;
}

/** util.IPv6Compliant: bracket hosts containing `:`. */
export function ipv6Compliant(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** util.DomainName (net.JoinHostPort). */
export function domainName(host: string, port: number): string {
  return `${ipv6Compliant(host)}:${port}`;
}

/** Well-known cluster and listener names. */
export const BLACKHOLE_CLUSTER = 'BlackHoleCluster';
export const PASSTHROUGH_CLUSTER = 'PassthroughCluster';
export const INBOUND_PASSTHROUGH_CLUSTER = 'InboundPassthroughCluster';
export const VIRTUAL_OUTBOUND = 'virtualOutbound';
export const VIRTUAL_INBOUND = 'virtualInbound';
export const VIRTUAL_OUTBOUND_BLACKHOLE_CHAIN = 'virtualOutbound-blackhole';
export const VIRTUAL_OUTBOUND_CATCHALL_TCP_CHAIN = 'virtualOutbound-catchall-tcp';
export const VIRTUAL_INBOUND_BLACKHOLE_CHAIN = 'virtualInbound-blackhole';
export const VIRTUAL_INBOUND_CATCHALL_HTTP_CHAIN = 'virtualInbound-catchall-http';
export const PASSTHROUGH_FILTER_CHAIN = 'PassthroughFilterChain';
export const UNKNOWN_SERVICE_CLUSTER = 'UnknownService';
export const RDS_HTTP_PROXY = 'http_proxy';
