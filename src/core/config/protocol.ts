// Port protocols as Istio reads them (pkg/config/protocol and pkg/config/kube/conversion.go).

export type Protocol =
  | 'GRPC'
  | 'GRPC-Web'
  | 'HTTP'
  | 'HTTP_PROXY'
  | 'HTTP2'
  | 'HTTPS'
  | 'TCP'
  | 'TLS'
  | 'UDP'
  | 'Mongo'
  | 'Redis'
  | 'MySQL'
  | 'UnsupportedProtocol';

const BY_NAME: Readonly<Record<string, Protocol>> = {
  tcp: 'TCP',
  udp: 'UDP',
  grpc: 'GRPC',
  'grpc-web': 'GRPC-Web',
  http: 'HTTP',
  http_proxy: 'HTTP_PROXY',
  http2: 'HTTP2',
  https: 'HTTPS',
  tls: 'TLS',
  mongo: 'Mongo',
  redis: 'Redis',
  mysql: 'MySQL',
};

/** Istio's protocol.Parse: a protocol name, case-insensitively; anything else is unsupported. */
export function parseProtocol(name: string): Protocol {
  return Object.prototype.hasOwnProperty.call(BY_NAME, name.toLowerCase()) ? (BY_NAME[name.toLowerCase()] as Protocol) : 'UnsupportedProtocol';
}

/** Ports that carry TCP when their name says nothing (SMTP, DNS, MySQL, MongoDB). */
const WELL_KNOWN_TCP_PORTS = new Set([25, 53, 3306, 27017]);

/**
 * Istio's kube.ConvertProtocol: the protocol of a Kubernetes Service port. UDP is UDP;
 * otherwise `appProtocol` when set (with Kubernetes' standard h2c/ws/wss names), else the
 * port name's prefix before the first `-` (`grpc-web` as a whole); an unknown name on a
 * well-known port is TCP, on any other port unsupported (Istio then sniffs the protocol).
 */
export function kubePortProtocol(port: number, portName: string, transport: string, appProtocol: string | undefined): Protocol {
  if (transport === 'UDP') return 'UDP';
  let name = portName;
  if (appProtocol !== undefined) {
    name = appProtocol;
    if (name === 'kubernetes.io/h2c') return 'HTTP2';
    if (name === 'kubernetes.io/ws') return 'HTTP';
    if (name === 'kubernetes.io/wss') return 'HTTPS';
  }
  if (name.length >= 8 && name.slice(0, 8).toLowerCase() === 'grpc-web') return 'GRPC-Web';
  const dash = name.indexOf('-');
  const p = parseProtocol(dash >= 0 ? name.slice(0, dash) : name);
  if (p === 'UnsupportedProtocol' && WELL_KNOWN_TCP_PORTS.has(port)) return 'TCP';
  return p;
}

/** HTTP-family protocols (the proxy builds HTTP routes for them). */
export function isHttpProtocol(p: Protocol): boolean {
  return p === 'HTTP' || p === 'HTTP2' || p === 'GRPC' || p === 'GRPC-Web';
}
