// Ports a quick fix never offers: the ones Istio's own proxies (sidecars, gateways, waypoints,
// ztunnel) listen on inside every pod they run in. A Gateway server, a route or a Service
// port moved onto one of them collides with the proxy's own listener (15021 is the health
// check every gateway Service exposes as `status-port`, so it sits in the ports a fix would
// otherwise pick from).
//
// The list is Istio's "Ports used by Istio" (istio.io, docs/ops/deployment/application-requirements)
// for the proxy, the same set pilot-agent refuses as scrape targets
// (pilot/cmd/pilot-agent/status/server.go istioReservedPorts), plus 15009 (HBONE for secure
// networks) from the docs' table. The control plane's ports (15010, 15012, 15014, 15017) are
// left out on purpose: an east-west gateway exposes istiod's 15012 and 15017 as real
// Gateway servers.
export const ISTIO_PROXY_PORTS: ReadonlyMap<number, string> = new Map([
  [15000, 'Envoy admin'],
  [15001, 'Envoy outbound (traffic capture)'],
  [15004, 'pilot-agent debug'],
  [15006, 'Envoy inbound (traffic capture)'],
  [15008, 'HBONE mTLS tunnel'],
  [15009, 'HBONE for secure networks'],
  [15020, 'merged Prometheus telemetry (pilot-agent status)'],
  [15021, 'health checks'],
  [15053, 'DNS proxy'],
  [15090, 'Envoy Prometheus telemetry'],
]);

/** Whether a port belongs to Istio's proxy itself, so no fix should suggest it. */
export function isIstioProxyPort(port: number): boolean {
  return ISTIO_PROXY_PORTS.has(port);
}
