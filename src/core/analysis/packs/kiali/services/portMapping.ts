// services.PortMappingChecker (Kiali business/checkers/services/port_mapping_checker.go): for a
// Service whose pods are in the mesh (every pod has a sidecar, or there are none, or some pod
// is ambient-captured), each port not UDP must be named `<protocol>[-suffix]` (KIA0601) or carry
// a known appProtocol (KIA0602). Outside control-plane namespaces, and for Services that are not
// waypoints or gateways, each port must be exposed by the first Deployment whose own labels the
// selector matches (KIA0701).
import { KINDS } from '../../../../document/kinds.ts';
import type { Resource } from '../../../../document/types.ts';
import { arr, isObj, str, stringMap, type Obj } from '../../../../document/read.ts';
import type { KialiContext } from '../context.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import type { KialiCheck } from '../types.ts';

/** Kiali's port protocols (kubernetes.portProtocols). */
const PORT_PROTOCOLS = ['grpc', 'grpc-web', 'http', 'http2', 'https', 'mongo', 'redis', 'tcp', 'tls', 'udp', 'mysql'] as const;
const KUBERNETES_APP_PROTOCOLS = ['kubernetes.io/h2c', 'kubernetes.io/ws', 'kubernetes.io/wss'] as const;

/** kubernetes.MatchPortNameWithValidProtocols: `<protocol>` or `<protocol>-<anything>` (the prefix is case-sensitive). */
export function matchPortNameWithValidProtocols(portName: string): boolean {
  return PORT_PROTOCOLS.some((p) => portName.startsWith(p) && (portName.toLowerCase() === p || portName.slice(p.length).startsWith('-')));
}

/** kubernetes.MatchPortAppProtocolWithValidProtocols: a protocol name (any case) or a Kubernetes app protocol. */
export function matchPortAppProtocolWithValidProtocols(appProtocol: string | undefined): boolean {
  if (appProtocol === undefined || appProtocol === '') return false;
  const proto = appProtocol.toLowerCase();
  return (PORT_PROTOCOLS as readonly string[]).includes(proto) || (KUBERNETES_APP_PROTOCOLS as readonly string[]).includes(proto);
}

function obj(v: unknown): Obj {
  return isObj(v) ? v : {};
}

/** Kiali's Pod.HasIstioSidecar: the sidecar status annotation lists proxy containers, or istio-proxy as an init container. */
function podHasSidecar(pod: Resource): boolean {
  const status = pod.annotations['sidecar.istio.io/status'];
  if (status === undefined) return false;
  try {
    const parsed: unknown = JSON.parse(status);
    if (!isObj(parsed)) return false;
    return arr(parsed.containers).length > 0 || arr(parsed.initContainers).some((c) => c === 'istio-proxy');
  } catch {
    return false;
  }
}

function podAmbient(pod: Resource): boolean {
  return pod.annotations['ambient.istio.io/redirection'] === 'enabled';
}

/** config.IsWaypoint. */
function isWaypoint(labels: Readonly<Record<string, string>>): boolean {
  if (labels['gateway.istio.io/managed'] === 'istio.io-mesh-controller') return true;
  const gw = labels['gateway.networking.k8s.io/gateway-name'];
  return gw !== undefined && gw.toLowerCase().includes('waypoint');
}

/** config.IsGateway, with no template annotations (as the checker calls it). */
function isGateway(labels: Readonly<Record<string, string>>): boolean {
  const component = labels['operator.istio.io/component'];
  if (component === 'IngressGateways' || component === 'EgressGateways') return true;
  const istio = labels.istio;
  if (istio === 'ingressgateway' || istio === 'egressgateway') return true;
  return labels['istio.io/gateway-name'] !== undefined;
}

function containerPorts(deployment: Resource): Obj[] {
  const template = obj(obj(deployment.body.spec).template);
  return arr(obj(template.spec).containers).flatMap((c) => arr(obj(c).ports).map(obj));
}

/** Whether the Service port is exposed by the Deployment (matchPorts). */
function portExposed(sp: Obj, ports: readonly Obj[]): boolean {
  const target = sp.targetPort;
  if (typeof target === 'string' && target !== '') return ports.some((cp) => str(cp.name) === target);
  let portNumber = Number(sp.port ?? 0);
  if (typeof target === 'number' && target > 0) portNumber = target;
  return ports.some((cp) => Number(cp.containerPort ?? 0) === portNumber);
}

const namespaceOf = (r: Resource) => r.namespace;
const labelsOf = (r: Resource) => r.labels;

export const portMappingChecker = objectChecker('services.PortMappingChecker', KINDS.Service, ['KIA0601', 'KIA0602', 'KIA0701'], (ctx: KialiContext, svc) => {
  const spec = obj(svc.body.spec);
  const ports = arr(spec.ports).map(obj);
  const selector = stringMap(spec.selector);
  const checks: KialiCheck[] = [];
  const pods = ctx.selectIn('pods', ctx.pods, namespaceOf, labelsOf, svc.namespace, selector);
  const inMesh = pods.every(podHasSidecar) || pods.some(podAmbient);
  if (inMesh) {
    ports.forEach((sp, i) => {
      if (svc.labels.kiali_wizard !== undefined || str(sp.protocol).toLowerCase() === 'udp') return;
      if (sp.appProtocol !== undefined && sp.appProtocol !== null) {
        if (!matchPortAppProtocolWithValidProtocols(str(sp.appProtocol))) checks.push(buildCheck('port.appprotocol.mismatch', `spec/ports[${i}]`));
      } else if (!matchPortNameWithValidProtocols(str(sp.name))) checks.push(buildCheck('port.name.mismatch', `spec/ports[${i}]`));
    });
  }
  if (ctx.isControlPlane(svc.namespace) || isWaypoint(svc.labels) || isGateway(svc.labels)) return { checks, valid: checks.length === 0 };
  if (Object.keys(selector).length > 0) {
    const deployment = ctx.selectIn('deployments', ctx.deployments, namespaceOf, labelsOf, svc.namespace, selector)[0];
    if (deployment) {
      const exposed = containerPorts(deployment);
      ports.forEach((sp, i) => {
        if (!portExposed(sp, exposed)) checks.push(buildCheck('service.deployment.port.mismatch', `spec/ports[${i}]`));
      });
    }
  }
  return { checks, valid: checks.length === 0 };
});
