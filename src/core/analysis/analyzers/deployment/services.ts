// deployment.MultiServiceAnalyzer: the Services selecting a mesh Deployment's pods must not
// expose one port with different protocols (IST0116), nor send one targetPort through
// different service ports (IST0137).
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import type { StoreView } from '../../../config/store.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { fullNameString } from '../../../config/hosts.ts';
import { selectorMatches, toLabelMap, type LabelMap } from '../../../config/labels.ts';
import { arr, isObj, num, objOrUndefined, specOf, str } from '../../../model/read.ts';
import { containersOf, workloadInMesh } from '../util/workloadsMesh.ts';

const GATEWAY_MANAGED_LABEL = 'gateway.istio.io/managed';
const MESH_CONTROLLER = 'istio.io-mesh-controller';

interface ServiceEntry {
  name: string;
  selector: LabelMap;
  ports: unknown[];
}

/** Services by namespace and by one `key=value` pair of their (non-empty) selector. */
type ServiceIndex = Map<string, ServiceEntry[]>;

const pairKey = (ns: string, k: string, v: string) => `${ns}\u0000${k}\u0000${v}`;

function buildServiceIndex(store: StoreView): ServiceIndex {
  const index: ServiceIndex = new Map();
  for (const s of store.list(KINDS.Service)) {
    const selector = toLabelMap(specOf(s).selector);
    const keys = Object.keys(selector);
    // A Service without a selector selects nothing here.
    if (keys.length === 0) continue;
    const k = keys[0] as string;
    const key = pairKey(s.namespace, k, selector[k] as string);
    let l = index.get(key);
    if (!l) index.set(key, (l = []));
    l.push({ name: fullNameString(s.namespace, s.name), selector, ports: arr(specOf(s).ports) });
  }
  return index;
}

function matchingServices(index: ServiceIndex, namespace: string, podLabels: LabelMap): ServiceEntry[] {
  const out: ServiceEntry[] = [];
  for (const [k, v] of Object.entries(podLabels)) {
    for (const s of index.get(pairKey(namespace, k, v)) ?? []) if (selectorMatches(s.selector, podLabels)) out.push(s);
  }
  return out;
}

/** Kubernetes IntOrString.String(): the number as text, or the string. */
function intOrString(v: unknown): string {
  if (typeof v === 'number') return String(Math.trunc(v));
  if (typeof v === 'string') return v;
  return '0';
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function analyzeDeployment(ctx: AnalysisContext, d: Resource): void {
  if (d.labels[GATEWAY_MANAGED_LABEL] === MESH_CONTROLLER) return;
  const template = objOrUndefined(specOf(d).template) ?? {};
  const meta = objOrUndefined(template.metadata) ?? {};
  const podLabels = toLabelMap(meta.labels);
  const podAnnotations = toLabelMap(meta.annotations);
  if (!workloadInMesh(ctx, d.namespace, podLabels, podAnnotations, containersOf(template.spec))) return;

  const index = ctx.lookups.cached('deployment.servicesBySelectorPair', buildServiceIndex);
  const services = matchingServices(index, d.namespace, podLabels);
  const fieldPath = 'metadata.name';

  // port → protocol → service names
  const byPort = new Map<number, Map<string, string[]>>();
  // targetPort → port → service name (a later service wins, as in Istio's map)
  const byTarget = new Map<string, Map<number, string>>();
  for (const s of services) {
    for (const p of s.ports) {
      if (!isObj(p)) continue;
      const port = num(p.port);
      const protocol = str(p.protocol) || 'TCP';
      let protocols = byPort.get(port);
      if (!protocols) byPort.set(port, (protocols = new Map()));
      let names = protocols.get(protocol);
      if (!names) protocols.set(protocol, (names = []));
      names.push(s.name);

      let target = intOrString(p.targetPort);
      if (target === '0' || target === '') target = String(port);
      let ports = byTarget.get(target);
      if (!ports) byTarget.set(target, (ports = new Map()));
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
