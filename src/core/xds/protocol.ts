// Protocol classes the generator branches on (pkg/config/protocol, istionetworking
// ModelProtocolToListenerProtocol; spec §2.2).
import type { IstioProtocol } from '../config/protocol.ts';

export type ListenerProtocol = 'HTTP' | 'TCP' | 'AUTO' | 'UNKNOWN';

export function isHttp(p: IstioProtocol): boolean {
  return p === 'HTTP' || p === 'HTTP2' || p === 'HTTP_PROXY' || p === 'GRPC' || p === 'GRPC-Web';
}

export function isHttp2(p: IstioProtocol): boolean {
  return p === 'HTTP2' || p === 'GRPC' || p === 'GRPC-Web';
}

export function isGrpc(p: IstioProtocol): boolean {
  return p === 'GRPC' || p === 'GRPC-Web';
}

export function isTcp(p: IstioProtocol): boolean {
  return p === 'TCP' || p === 'HTTPS' || p === 'TLS' || p === 'Mongo' || p === 'Redis' || p === 'MySQL';
}

export function isTls(p: IstioProtocol): boolean {
  return p === 'HTTPS' || p === 'TLS';
}

export function isUnsupported(p: IstioProtocol): boolean {
  return p === 'UnsupportedProtocol';
}

export function isHttpOrSniffed(p: IstioProtocol): boolean {
  return isHttp(p) || isUnsupported(p);
}

/** ModelProtocolToListenerProtocol. */
export function listenerProtocol(p: IstioProtocol): ListenerProtocol {
  if (isHttp(p)) return 'HTTP';
  if (isTcp(p)) return 'TCP';
  if (p === 'UDP') return 'UNKNOWN';
  return 'AUTO';
}

/** Instance.AfterTLSTermination: HTTPS → HTTP, TLS → TCP, others unchanged. */
export function afterTlsTermination(p: IstioProtocol): IstioProtocol {
  if (p === 'HTTPS') return 'HTTP';
  if (p === 'TLS') return 'TCP';
  return p;
}
