// service.PortNameAnalyzer: each Service port must let Istio infer its protocol from the
// port name or appProtocol (IST0118); ExternalName Services get IST0150 instead, also for a
// port named plainly `tcp`. Istio's control plane and gateway-controller Services are skipped.
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { arr, isObj, num, specOf, str } from '../../../model/read.ts';
import { isIstioControlPlane } from '../deployment/pod.ts';

const GATEWAY_MANAGED_LABEL = 'gateway.istio.io/managed';
/** Services created by Istio's gateway controllers (not by users). */
const MANAGED_BY_ISTIO = new Set(['istio.io-gateway-controller', 'istio.io-mesh-controller', 'istio.io-eastwest-controller']);

/** Protocol names Istio understands as a port-name prefix or appProtocol (case-insensitive). */
const KNOWN_PROTOCOLS = new Set(['tcp', 'udp', 'grpc', 'grpc-web', 'http', 'http_proxy', 'http2', 'https', 'tls', 'mongo', 'redis', 'mysql']);
/** Ports whose protocol defaults to TCP when the name says nothing (SMTP, DNS, MySQL, MongoDB). */
const WELL_KNOWN_PORTS = new Set([25, 53, 3306, 27017]);

/**
 * True when Istio cannot tell the port's protocol (ConvertProtocol gives Unsupported):
 * UDP ports are always known; otherwise appProtocol (when set) or the name is used, up to
 * its first `-` (a `grpc-web` prefix counts whole).
 */
export function protocolUnsupported(port: number, name: string, protocol: string, appProtocol: string | undefined): boolean {
  if (protocol === 'UDP') return false;
  let n = appProtocol ?? name;
  if (n.length >= 8 && n.slice(0, 8).toLowerCase() === 'grpc-web') return false;
  const dash = n.indexOf('-');
  if (dash >= 0) n = n.slice(0, dash);
  if (KNOWN_PROTOCOLS.has(n.toLowerCase())) return false;
  return !WELL_KNOWN_PORTS.has(port);
}

/** Kubernetes IntOrString.String(). */
function intOrString(v: unknown): string {
  if (typeof v === 'number') return String(Math.trunc(v));
  if (typeof v === 'string') return v;
  return '0';
}

function analyzeService(ctx: AnalysisContext, svc: Resource): void {
  if (isIstioControlPlane(svc)) return;
  if (MANAGED_BY_ISTIO.has(svc.labels[GATEWAY_MANAGED_LABEL] ?? '')) return;
  const spec = specOf(svc);
  const externalName = str(spec.type) === 'ExternalName';
  arr(spec.ports).forEach((p, i) => {
    const port = isObj(p) ? p : {};
    const name = str(port.name);
    const appProtocol = port.appProtocol === undefined || port.appProtocol === null ? undefined : str(port.appProtocol);
    const unsupported = protocolUnsupported(num(port.port), name, str(port.protocol), appProtocol);
    if (!unsupported && !(name === 'tcp' && externalName)) return;
    const fieldPath = `spec.ports[${i}].port`;
    // The name (or the appProtocol that overrides it) is what Istio could not read; an unnamed
    // port keeps the port number highlighted (the path does not resolve).
    const highlightPath = appProtocol !== undefined && unsupported ? `spec.ports[${i}].appProtocol` : `spec.ports[${i}].name`;
    if (externalName) {
      ctx.report(MESSAGES.ExternalNameServiceTypeInvalidPortName.at(svc), { fieldPath, highlightPath });
    } else {
      ctx.report(MESSAGES.PortNameIsNotUnderNamingConvention.at(svc, name, num(port.port), intOrString(port.targetPort)), { fieldPath, highlightPath });
    }
  });
}

export const portNameAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'service.PortNameAnalyzer',
    description: 'Checks that Service port names (or appProtocol) tell Istio the protocol',
    inputs: [KINDS.Service],
  },
  { kind: KINDS.Service, check: analyzeService },
);
