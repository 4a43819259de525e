// gateway.IngressGatewayPortAnalyzer: a Gateway's server ports must be reachable through a
// Kubernetes Service that selects the gateway's pods (IST0162), and its selector must match
// at least one pod (IST0101).
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { firstSelectorKey, keySegment, selectorMatches, selectorString, type LabelMap } from '../../../config/labels.ts';
import { gateway } from '../../../config/api/networking.ts';
import { serviceSpec } from '../../../config/api/kube.ts';
import { podsSelectedBy } from '../../../config/workloads.ts';
import { listAt } from '../../../document/maps.ts';

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

/**
 * Services by namespace, with Istio's selector semantics for this analyzer: a Service's
 * selector is matched as a label set, so an empty one selects every pod of its namespace.
 */
function servicesByNamespace(ctx: AnalysisContext): Map<string, Array<{ selector: LabelMap; service: Resource }>> {
  return ctx.lookups.cached('gateway.servicesByNamespace', (store) => {
    const m = new Map<string, Array<{ selector: LabelMap; service: Resource }>>();
    for (const s of store.list(KINDS.Service)) {
      listAt(m, s.namespace).push({ selector: serviceSpec(s).selector, service: s });
    }
    return m;
  });
}

/** Service ports that reach a pod: from every Service of its namespace whose selector matches it. */
function portsForPod(ctx: AnalysisContext, pod: Resource): number[] {
  const memo = ctx.lookups.cached('gateway.portsByPod', () => new Map<Resource, number[]>(), [KINDS.Pod, KINDS.Service]);
  const hit = memo.get(pod);
  if (hit) return hit;
  const ports: number[] = [];
  for (const { selector, service } of servicesByNamespace(ctx).get(pod.namespace) ?? []) {
    if (!selectorMatches(selector, pod.labels)) continue;
    for (const p of serviceSpec(service).ports) {
      // The API server defaults an absent protocol to TCP.
      if ((p.protocol || 'TCP') !== 'TCP') continue;
      // A server port is reachable when it is the Service port (Istio maps a gateway server
      // on a Service port to that port's target) or the numeric targetPort the Service
      // forwards to. A named targetPort cannot be resolved here and is ignored.
      ports.push(p.port);
      const target = targetPortNumber(p.targetPort);
      if (target !== 0) ports.push(target);
    }
  }
  memo.set(pod, ports);
  return ports;
}

/** Kubernetes IntOrString.IntValue(): an int, or a string that parses as one; otherwise 0. */
function targetPortNumber(v: number | string | undefined): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^[+-]?\d+$/.test(v)) return Number(v);
  return 0;
}

function analyzeGateway(ctx: AnalysisContext, gw: Resource, memo: Map<string, SelectedWorkloads>): void {
  const spec = gateway(gw);
  const selText = selectorString(spec.selector);
  let w = memo.get(selText);
  if (!w) {
    const pods = podsSelectedBy(ctx, spec.selector);
    const ports = new Set<number>();
    for (const p of pods) for (const port of portsForPod(ctx, p)) ports.add(port);
    w = { podCount: pods.length, ports };
    memo.set(selText, w);
  }
  const label = firstSelectorKey(selText);
  const fieldPath = label ? `spec.selector${keySegment(label)}` : 'spec.selector';
  if (w.podCount === 0) {
    ctx.report(MESSAGES.ReferencedResourceNotFound.at(gw, 'selector', selText), { fieldPath });
    return;
  }
  spec.servers.forEach((server, i) => {
    if (!server.port) return;
    const number = server.port.number;
    if (!w.ports.has(number)) {
      // Istio points at the selector; the editor points at the server port no Service exposes.
      ctx.report(MESSAGES.GatewayPortNotDefinedOnService.at(gw, number, selText), { fieldPath, highlightPath: `spec.servers[${i}].port.number` });
    }
  });
}
