// deployment.MultiServiceAnalyzer: the Services selecting a mesh Deployment's pods must not
// expose one port with different protocols (IST0116), nor send one targetPort through
// different service ports (IST0137).
import { listAt, mapAt } from '../../../document/maps.ts';
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import type { StoreView } from '../../../config/store.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { fullNameString } from '../../../config/hosts.ts';
import { selectorMatches, type LabelMap } from '../../../config/labels.ts';
import { serviceSpec, workloadControllerSpec, type KubeServicePort } from '../../../config/api/kube.ts';
import { templateShape } from '../../../config/workloads.ts';
import { inMeshForAnalysis } from '../../../config/workloadState.ts';
import { GATEWAY_MANAGED_LABEL, MESH_GATEWAY_CONTROLLER } from '../../../config/wellKnown.ts';

interface SelectingService {
  name: string;
  selector: LabelMap;
  ports: readonly KubeServicePort[];
}

/**
 * Services by namespace, then by the key and value of one pair of their (non-empty)
 * selector: nested maps, looked up with the labels' own strings (asked once per label of
 * every Deployment, so no key text is built for each).
 */
type ServiceIndex = Map<string, Map<string, Map<string, SelectingService[]>>>;

function buildServiceIndex(store: StoreView): ServiceIndex {
  const index: ServiceIndex = new Map();
  for (const s of store.list(KINDS.Service)) {
    const spec = serviceSpec(s);
    const keys = Object.keys(spec.selector);
    // A Service without a selector selects nothing here.
    if (keys.length === 0) continue;
    const k = keys[0] as string;
    listAt(mapAt(mapAt(index, s.namespace), k), spec.selector[k] as string).push({
      name: fullNameString(s.namespace, s.name),
      selector: spec.selector,
      ports: spec.ports,
    });
  }
  return index;
}

function matchingServices(index: ServiceIndex, namespace: string, podLabels: LabelMap): SelectingService[] {
  const out: SelectingService[] = [];
  const byKey = index.get(namespace);
  if (!byKey) return out;
  for (const k of Object.keys(podLabels)) {
    for (const s of byKey.get(k)?.get(podLabels[k] as string) ?? []) if (selectorMatches(s.selector, podLabels)) out.push(s);
  }
  return out;
}

/** Kubernetes IntOrString.String() (an absent value is the int 0). */
function intOrString(v: number | string | undefined): string {
  return v === undefined ? '0' : typeof v === 'number' ? String(v) : v;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function analyzeDeployment(ctx: AnalysisContext, d: Resource): void {
  // Waypoints are Istio's own.
  if (d.labels[GATEWAY_MANAGED_LABEL] === MESH_GATEWAY_CONTROLLER) return;
  const template = templateShape(d.namespace, workloadControllerSpec(d).template);
  // Istio's DeploymentInMesh: the template's containers only, not its init containers.
  if (!inMeshForAnalysis(ctx, template, false)) return;
  const podLabels = template.labels;

  const index = ctx.lookups.cached('deployment.servicesBySelectorPair', buildServiceIndex);
  const services = matchingServices(index, d.namespace, podLabels);
  const fieldPath = 'metadata.name';

  // port → protocol → service names
  const byPort = new Map<number, Map<string, string[]>>();
  // targetPort → port → service name (a later service wins, as in Istio's map)
  const byTarget = new Map<string, Map<number, string>>();
  for (const s of services) {
    for (const p of s.ports) {
      const port = p.port;
      const protocol = p.protocol || 'TCP';
      const protocols = mapAt(byPort, port);
      listAt(protocols, protocol).push(s.name);

      let target = intOrString(p.targetPort);
      if (target === '0' || target === '') target = String(port);
      const ports = mapAt(byTarget, target);
      ports.set(port, s.name);
    }
  }
  for (const [port, protocols] of byPort) {
    if (protocols.size <= 1) continue;
    const names = [...protocols.values()].flat().sort(byText);
    ctx.report(MESSAGES.DeploymentAssociatedToMultipleServices.at(d, d.name, port, names), { fieldPath });
  }
  for (const [target, ports] of byTarget) {
    if (ports.size <= 1) continue;
    const names = [...ports.values()].sort(byText);
    const numbers = [...ports.keys()].sort((a, b) => a - b);
    ctx.report(MESSAGES.DeploymentConflictingPorts.at(d, d.name, names, target, numbers), { fieldPath });
  }
}

export const multiServiceAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'deployment.MultiServiceAnalyzer',
    description: 'Checks that the Services selecting a mesh Deployment agree on port protocols and target ports',
    inputs: [KINDS.Service, KINDS.Deployment, KINDS.Namespace],
    optionalInputs: [KINDS.Namespace],
  },
  { kind: KINDS.Deployment, check: analyzeDeployment },
);
