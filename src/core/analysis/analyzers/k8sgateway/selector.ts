// k8sgateway.SelectorAnalyzer: a policy (AuthorizationPolicy, RequestAuthentication,
// Telemetry, WasmPlugin) without targetRef whose workload selector matches a pod of a
// Kubernetes Gateway (a pod labelled gateway.networking.k8s.io/gateway-name) in its namespace
// has no effect there: IST0166, once per such pod, naming the gateway.
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import type { KindInfo } from '../../../model/kinds.ts';
import { MESSAGES } from '../../messages.ts';
import { labelPair } from '../util/gatewaysPods.ts';
import { selectorMatches, toLabelMap } from '../../../config/labels.ts';
import { isObj, specOf } from '../../../model/read.ts';

export const GATEWAY_NAME_LABEL = 'gateway.networking.k8s.io/gateway-name';

const POLICY_KINDS: readonly KindInfo[] = [KINDS.AuthorizationPolicy, KINDS.RequestAuthentication, KINDS.Telemetry, KINDS.WasmPlugin];

interface GatewayPods {
  /** namespace → gateway pods in load order. */
  byNamespace: Map<string, Resource[]>;
  /** namespace → label pair → gateway pods. */
  byPair: Map<string, Map<string, Resource[]>>;
}

function gatewayPods(ctx: AnalysisContext): GatewayPods {
  return ctx.lookups.cached('k8sgateway.gatewayPods', (store) => {
    const byNamespace = new Map<string, Resource[]>();
    const byPair = new Map<string, Map<string, Resource[]>>();
    for (const pod of store.list(KINDS.Pod)) {
      if (!(GATEWAY_NAME_LABEL in pod.labels)) continue;
      let l = byNamespace.get(pod.namespace);
      if (!l) byNamespace.set(pod.namespace, (l = []));
      l.push(pod);
      let pairs = byPair.get(pod.namespace);
      if (!pairs) byPair.set(pod.namespace, (pairs = new Map()));
      for (const [k, v] of Object.entries(pod.labels)) {
        const key = labelPair(k, String(v));
        let pl = pairs.get(key);
        if (!pl) pairs.set(key, (pl = []));
        pl.push(pod);
      }
    }
    return { byNamespace, byPair };
  });
}

function checkPolicy(ctx: AnalysisContext, policy: Resource): void {
  const spec = specOf(policy);
  // Only the singular targetRef makes the selector irrelevant (as in Istio).
  if (spec.targetRef !== undefined && spec.targetRef !== null) return;
  if (!isObj(spec.selector)) return;
  const matchLabels = toLabelMap(spec.selector.matchLabels);
  const index = gatewayPods(ctx);
  let candidates: readonly Resource[] = index.byNamespace.get(policy.namespace) ?? [];
  if (candidates.length === 0) return;
  const pairs = index.byPair.get(policy.namespace);
  for (const [k, v] of Object.entries(matchLabels)) {
    const l = pairs?.get(labelPair(k, v)) ?? [];
    if (l.length < candidates.length) candidates = l;
  }
  for (const pod of candidates) {
    if (selectorMatches(matchLabels, pod.labels)) {
      ctx.report(MESSAGES.IneffectiveSelector.at(policy, pod.labels[GATEWAY_NAME_LABEL] ?? ''), { highlightPath: isObj(spec.selector.matchLabels) ? 'spec.selector.matchLabels' : 'spec.selector' });
    }
  }
}

export const k8sGatewaySelectorAnalyzer: Analyzer = {
  metadata: {
    name: 'k8sgateway.SelectorAnalyzer',
    description: 'Checks that policies aimed at Kubernetes Gateway pods use targetRef rather than an ignored selector',
    inputs: [KINDS.AuthorizationPolicy, KINDS.RequestAuthentication, KINDS.Telemetry, KINDS.WasmPlugin, KINDS.Pod],
  },
  analyze(ctx) {
    for (const kind of POLICY_KINDS) for (const r of ctx.list(kind)) checkPolicy(ctx, r);
  },
};
