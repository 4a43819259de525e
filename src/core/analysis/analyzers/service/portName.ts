// service.PortNameAnalyzer: each Service port must let Istio infer its protocol from the
// port name or appProtocol (IST0118); ExternalName Services get IST0150 instead, also for a
// port named plainly `tcp`. Istio's control plane and gateway-controller Services are skipped.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { serviceSpec } from '../../../config/api/kube.ts';
import { protocolUnsupported } from '../../../config/protocol.ts';
import { isIstioControlPlane } from '../../../config/workloadState.ts';
import { EASTWEST_GATEWAY_CONTROLLER, GATEWAY_CONTROLLER, GATEWAY_MANAGED_LABEL, MESH_GATEWAY_CONTROLLER } from '../../../config/wellKnown.ts';

/** Services created by Istio's gateway controllers (not by users). */
const MANAGED_BY_ISTIO: ReadonlySet<string> = new Set([GATEWAY_CONTROLLER, MESH_GATEWAY_CONTROLLER, EASTWEST_GATEWAY_CONTROLLER]);

/** Kubernetes IntOrString.String() (an absent value is the int 0). */
function intOrString(v: number | string | undefined): string {
  return v === undefined ? '0' : typeof v === 'number' ? String(v) : v;
}

function analyzeService(ctx: AnalysisContext, svc: Resource): void {
  if (isIstioControlPlane(svc)) return;
  if (MANAGED_BY_ISTIO.has(svc.labels[GATEWAY_MANAGED_LABEL] ?? '')) return;
  const spec = serviceSpec(svc);
  const externalName = spec.type === 'ExternalName';
  spec.ports.forEach((port, i) => {
    const { name, appProtocol } = port;
    const unsupported = protocolUnsupported(port.port, name, port.protocol, appProtocol);
    if (!unsupported && !(name === 'tcp' && externalName)) return;
    const fieldPath = `spec.ports[${i}].port`;
    // The name (or the appProtocol that overrides it) is what Istio could not read; an unnamed
    // port keeps the port number highlighted (the path does not resolve).
    const highlightPath = appProtocol !== undefined && unsupported ? `spec.ports[${i}].appProtocol` : `spec.ports[${i}].name`;
    if (externalName) {
      ctx.report(MESSAGES.ExternalNameServiceTypeInvalidPortName.at(svc), { fieldPath, highlightPath });
    } else {
      ctx.report(MESSAGES.PortNameIsNotUnderNamingConvention.at(svc, name, port.port, intOrString(port.targetPort)), { fieldPath, highlightPath });
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
