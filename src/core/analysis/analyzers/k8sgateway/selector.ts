// k8sgateway.SelectorAnalyzer: a policy (AuthorizationPolicy, RequestAuthentication,
// Telemetry, WasmPlugin) without targetRef whose workload selector matches a pod of a
// Kubernetes Gateway (a pod labelled gateway.networking.k8s.io/gateway-name) in its namespace
// has no effect there: IST0166, once per such pod, naming the gateway.
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import type { KindInfo } from '../../../document/kinds.ts';
import { MESSAGES } from '../../messages.ts';
import { authorizationPolicy, requestAuthentication } from '../../../config/api/security.ts';
import { telemetry, wasmPlugin } from '../../../config/api/telemetry.ts';
import type { PolicyTargetReference } from '../../../config/api/common.ts';
import type { LabelMap } from '../../../config/labels.ts';
import { podsSelectedBy } from '../../../config/workloads.ts';
import { GATEWAY_NAME_LABEL } from '../../../config/wellKnown.ts';
import { writtenAt } from '../../../config/views.ts';

/** What the analyzer reads of each policy kind. */
type PolicyReader = (r: Resource) => { selector?: { matchLabels: LabelMap }; targetRef?: PolicyTargetReference };

const POLICIES: ReadonlyArray<readonly [KindInfo, PolicyReader]> = [
  [KINDS.AuthorizationPolicy, authorizationPolicy],
  [KINDS.RequestAuthentication, requestAuthentication],
  [KINDS.Telemetry, telemetry],
  [KINDS.WasmPlugin, wasmPlugin],
];

/** Namespaces holding a Kubernetes Gateway's pod (most hold none: their policies are skipped). */
function namespacesWithGatewayPods(ctx: AnalysisContext): ReadonlySet<string> {
  return ctx.lookups.cached('k8sgateway.namespacesWithGatewayPods', (store) => {
    const out = new Set<string>();
    for (const pod of store.list(KINDS.Pod)) if (pod.labels[GATEWAY_NAME_LABEL] !== undefined) out.add(pod.namespace);
    return out;
  });
}

function checkPolicy(ctx: AnalysisContext, policy: Resource, read: PolicyReader): void {
  const spec = read(policy);
  // Only the singular targetRef makes the selector irrelevant (as in Istio).
  if (spec.targetRef) return;
  if (!spec.selector || !namespacesWithGatewayPods(ctx).has(policy.namespace)) return;
  for (const pod of podsSelectedBy(ctx, spec.selector.matchLabels, policy.namespace)) {
    const gatewayName = pod.labels[GATEWAY_NAME_LABEL];
    if (gatewayName === undefined) continue;
    const highlightPath = writtenAt(policy, ['spec', 'selector', 'matchLabels']) === 'map' ? 'spec.selector.matchLabels' : 'spec.selector';
    ctx.report(MESSAGES.IneffectiveSelector.at(policy, gatewayName), { highlightPath });
  }
}

export const k8sGatewaySelectorAnalyzer: Analyzer = {
  metadata: {
    name: 'k8sgateway.SelectorAnalyzer',
    description: 'Checks that policies aimed at Kubernetes Gateway pods use targetRef rather than an ignored selector',
    inputs: [KINDS.AuthorizationPolicy, KINDS.RequestAuthentication, KINDS.Telemetry, KINDS.WasmPlugin, KINDS.Pod],
  },
  analyze(ctx) {
    for (const [kind, read] of POLICIES) for (const r of ctx.list(kind)) checkPolicy(ctx, r, read);
  },
};
