// gateway.IngressGatewayPortAnalyzer: a Gateway's server ports must be reachable through a
// Kubernetes Service that selects the gateway's pods (IST0162), and its selector must match
// at least one pod (IST0101).
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import type { StoreView } from '../../../config/store.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { firstSelectorKey, keySegment, selectorMatches, selectorString, toLabelMap, type LabelMap } from '../../../config/labels.ts';
import { arr, isObj, num, specOf, str } from '../../../model/read.ts';

export const ingressGatewayPortAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'gateway.IngressGatewayPortAnalyzer',
    description: "Checks that a Gateway's ports are exposed by the Service in front of its workload pods",
    inputs: [KINDS.Gateway, KINDS.Pod, KINDS.Service],
  },
  {
    kind: KINDS.Gateway,
    check(ctx, gw) {
      // Gateways often share a selector: what a selector reaches is computed once per run.
      const workloads = ctx.lookups.cached('gateway.workloadsBySelector', () => new Map<string, SelectedWorkloads>(), [KINDS.Pod, KINDS.Service]);
      analyzeGateway(ctx, gw, workloads);
    },
  },
);

interface SelectedWorkloads {
  podCount: number;
  /** Ports of the selecting Services that reach the pods (service ports and numeric target ports). */
  ports: Set<number>;
}

/** Pods by one `key=value` label pair, and Services by namespace and selector pair. */
interface PodServiceIndex {
  pods: readonly Resource[];
  podsByLabel: Map<string, Resource[]>;
  /** namespace → label pair → services whose selector has that pair. */
  servicesByPair: Map<string, Map<string, Resource[]>>;
  /** namespace → services with an empty selector (they select every pod of the namespace). */
  servicesSelectingAll: Map<string, Resource[]>;
  serviceSelectors: Map<Resource, LabelMap>;
  /** Ports each pod receives through Services, computed on first use. */
  portsByPod: Map<Resource, number[]>;
}

const pair = (k: string, v: string) => `${k}\u0000${v}`;

function buildIndex(store: StoreView): PodServiceIndex {
  const pods = store.list(KINDS.Pod);
  const podsByLabel = new Map<string, Resource[]>();
  for (const p of pods) {
    for (const [k, v] of Object.entries(p.labels)) {
      const key = pair(k, v);
      let l = podsByLabel.get(key);
      if (!l) podsByLabel.set(key, (l = []));
      l.push(p);
    }
  }
  const servicesByPair = new Map<string, Map<string, Resource[]>>();
  const servicesSelectingAll = new Map<string, Resource[]>();
  const serviceSelectors = new Map<Resource, LabelMap>();
  for (const s of store.list(KINDS.Service)) {
    const sel = toLabelMap(specOf(s).selector);
    serviceSelectors.set(s, sel);
    const keys = Object.keys(sel);
    if (keys.length === 0) {
      let l = servicesSelectingAll.get(s.namespace);
      if (!l) servicesSelectingAll.set(s.namespace, (l = []));
      l.push(s);
      continue;
    }
    // Indexing by one pair is enough: the full selector is checked for each candidate.
    const k = keys[0] as string;
    let byPair = servicesByPair.get(s.namespace);
    if (!byPair) servicesByPair.set(s.namespace, (byPair = new Map()));
    const key = pair(k, sel[k] as string);
    let l = byPair.get(key);
    if (!l) byPair.set(key, (l = []));
    l.push(s);
  }
  return { pods, podsByLabel, servicesByPair, servicesSelectingAll, serviceSelectors, portsByPod: new Map() };
}

/** Pods whose labels satisfy the selector (using the rarest selector pair as the candidate set). */
function podsSelectedBy(index: PodServiceIndex, selector: LabelMap): Resource[] {
  let candidates: readonly Resource[] = index.pods;
  for (const [k, v] of Object.entries(selector)) {
    const l = index.podsByLabel.get(pair(k, v)) ?? [];
    if (l.length < candidates.length) candidates = l;
  }
  return candidates.filter((p) => selectorMatches(selector, p.labels));
}

/** Service ports that reach a pod: from every Service of its namespace whose selector matches it. */
function portsForPod(index: PodServiceIndex, pod: Resource): number[] {
  const hit = index.portsByPod.get(pod);
  if (hit) return hit;
  const services: Resource[] = [...(index.servicesSelectingAll.get(pod.namespace) ?? [])];
  const byPair = index.servicesByPair.get(pod.namespace);
  if (byPair) {
    for (const [k, v] of Object.entries(pod.labels)) {
      for (const s of byPair.get(pair(k, v)) ?? []) {
        if (selectorMatches(index.serviceSelectors.get(s) ?? {}, pod.labels)) services.push(s);
      }
    }
  }
  const ports: number[] = [];
  for (const s of services) {
    for (const p of arr(specOf(s).ports)) {
      if (!isObj(p) || str(p.protocol) !== 'TCP') continue;
      // A server port is reachable when it is the Service port (Istio maps a gateway server
      // on a Service port to that port's target) or the numeric targetPort the Service
      // forwards to. A named targetPort cannot be resolved here and is ignored.
      ports.push(num(p.port));
      const target = targetPortNumber(p.targetPort);
      if (target !== 0) ports.push(target);
    }
  }
  index.portsByPod.set(pod, ports);
  return ports;
}

/** Kubernetes IntOrString.IntValue(): an int, or a string that parses as one; otherwise 0. */
function targetPortNumber(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : 0;
  if (typeof v === 'string' && /^[+-]?\d+$/.test(v)) return Number(v);
  return 0;
}

function analyzeGateway(ctx: AnalysisContext, gw: Resource, memo: Map<string, SelectedWorkloads>): void {
  const spec = specOf(gw);
  const selector = toLabelMap(spec.selector);
  const selText = selectorString(selector);
  let w = memo.get(selText);
  if (!w) {
    const index = ctx.lookups.cached('gateway.podServiceIndex', buildIndex);
    const pods = podsSelectedBy(index, selector);
    const ports = new Set<number>();
    for (const p of pods) for (const port of portsForPod(index, p)) ports.add(port);
    w = { podCount: pods.length, ports };
    memo.set(selText, w);
  }
  const label = firstSelectorKey(selText);
  const fieldPath = label ? `spec.selector${keySegment(label)}` : 'spec.selector';
  if (w.podCount === 0) {
    ctx.report(MESSAGES.ReferencedResourceNotFound.at(gw, 'selector', selText), { fieldPath });
    return;
  }
  const servers = arr(spec.servers);
  for (let i = 0; i < servers.length; i++) {
    const server = servers[i];
    if (!isObj(server) || !isObj(server.port)) continue;
    const number = num(server.port.number);
    if (!w.ports.has(number)) {
      // Istio points at the selector; the editor points at the server port no Service exposes.
      ctx.report(MESSAGES.GatewayPortNotDefinedOnService.at(gw, number, selText), { fieldPath, highlightPath: `spec.servers[${i}].port.number` });
    }
  }
}
