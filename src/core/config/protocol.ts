// The protocol Istio gives a Kubernetes Service port (pkg/config/kube ConvertProtocol): from
// its appProtocol or its name prefix, with a TCP default for a few well-known ports. The
// port-name analyzer, its quick fixes and, later, listener building ask here.

/** Istio's protocol.Instance names. */
export type IstioProtocol =
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

/** Istio's protocol.Parse (case-insensitive). */
const BY_NAME: ReadonlyMap<string, IstioProtocol> = new Map([
  ['tcp', 'TCP'],
  ['udp', 'UDP'],
  ['grpc', 'GRPC'],
  ['grpc-web', 'GRPC-Web'],
  ['http', 'HTTP'],
  ['http_proxy', 'HTTP_PROXY'],
  ['http2', 'HTTP2'],
  ['https', 'HTTPS'],
  ['tls', 'TLS'],
  ['mongo', 'Mongo'],
  ['redis', 'Redis'],
  ['mysql', 'MySQL'],
]);

/** Kubernetes' standard appProtocol names (only an appProtocol can hold them). */
const KUBERNETES_APP_PROTOCOLS: ReadonlyMap<string, IstioProtocol> = new Map([
  ['kubernetes.io/h2c', 'HTTP2'],
  ['kubernetes.io/ws', 'HTTP'],
  ['kubernetes.io/wss', 'HTTPS'],
]);

/** Ports whose protocol defaults to TCP when the name says nothing (SMTP, DNS, MySQL, MongoDB). */
const WELL_KNOWN_PORTS: ReadonlySet<number> = new Set([25, 53, 3306, 27017]);

const GRPC_WEB = 'grpc-web';

/**
 * Istio's ConvertProtocol: UDP ports are UDP; otherwise appProtocol (when set) or the name
 * decides, up to its first `-` (a `grpc-web` prefix counts whole); a name Istio does not
 * know gives TCP on a well-known port and is unsupported elsewhere.
 */
export function kubePortProtocol(port: number, name: string, protocol: string, appProtocol: string | undefined): IstioProtocol {
  if (protocol === 'UDP') return 'UDP';
  let n = name;
  if (appProtocol !== undefined) {
    n = appProtocol;
    const standard = KUBERNETES_APP_PROTOCOLS.get(n);
    if (standard) return standard;
  }
  if (n.length >= GRPC_WEB.length && n.slice(0, GRPC_WEB.length).toLowerCase() === GRPC_WEB) return 'GRPC-Web';
  const dash = n.indexOf('-');
  if (dash >= 0) n = n.slice(0, dash);
  const p = BY_NAME.get(n.toLowerCase());
  if (p) return p;
  return WELL_KNOWN_PORTS.has(port) ? 'TCP' : 'UnsupportedProtocol';
}

/** True when Istio cannot tell the port's protocol (ConvertProtocol gives Unsupported). */
export function protocolUnsupported(port: number, name: string, protocol: string, appProtocol: string | undefined): boolean {
  return kubePortProtocol(port, name, protocol, appProtocol) === 'UnsupportedProtocol';
}

/** Istio's protocol.Parse: a protocol name, case-insensitively; anything else is unsupported. */
export function parseProtocol(name: string): IstioProtocol {
  return BY_NAME.get(name.toLowerCase()) ?? 'UnsupportedProtocol';
}

/** HTTP-family protocols (the proxy builds HTTP routes for them). */
export function isHttpProtocol(p: IstioProtocol): boolean {
  return p === 'HTTP' || p === 'HTTP2' || p === 'GRPC' || p === 'GRPC-Web';
}
