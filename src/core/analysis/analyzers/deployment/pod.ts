// applicationUID.Analyzer: application containers (and pods) must not run as UID 1337,
// which is reserved for the sidecar proxy (IST0144). Istio's control plane is exempt.
//
// Deployments are checked through their pod template. (Some older Istio file stores also
// added a synthetic Pod per Deployment; the current one does not, and the conformance cases
// expect messages on the Deployment only, so no such Pods exist in our store either.)
import { KINDS } from '../../../document/kinds.ts';
import type { Resource } from '../../../document/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { podSpec, workloadControllerSpec, type PodSpec } from '../../../config/api/kube.ts';
import { isIstioControlPlane } from '../../../config/workloadState.ts';
import { ISTIO_OPERATOR_CONTAINER, ISTIO_PROXY_CONTAINER, PROXY_UID } from '../../../config/wellKnown.ts';

function runsAsProxyUid(securityContext: PodSpec['securityContext']): boolean {
  return securityContext?.runAsUser === PROXY_UID;
}

/**
 * One message per offending pod or container context (identical ones collapse in output).
 * `at` is where the pod spec sits in the resource (`spec`, or a Deployment's template spec).
 */
function checkPodSpec(ctx: AnalysisContext, r: Resource, spec: PodSpec | undefined, at: string): void {
  if (isIstioControlPlane(r) || !spec) return;
  if (runsAsProxyUid(spec.securityContext)) {
    ctx.report(MESSAGES.InvalidApplicationUID.at(r), { highlightPath: `${at}.securityContext.runAsUser` });
  }
  spec.containers.forEach((c, i) => {
    if (c.name === ISTIO_PROXY_CONTAINER || c.name === ISTIO_OPERATOR_CONTAINER) return;
    if (runsAsProxyUid(c.securityContext)) {
      ctx.report(MESSAGES.InvalidApplicationUID.at(r), { highlightPath: `${at}.containers[${i}].securityContext.runAsUser` });
    }
  });
}

export const applicationUIDAnalyzer: Analyzer = perResourceAnalyzer(
  {
    name: 'applicationUID.Analyzer',
    description: 'Checks that application containers do not run as the UID reserved for the sidecar proxy',
    inputs: [KINDS.Pod, KINDS.Deployment],
    optionalInputs: [KINDS.Pod],
  },
  {
    kind: KINDS.Pod,
    check: (ctx, pod) => checkPodSpec(ctx, pod, podSpec(pod), 'spec'),
    global(ctx) {
      for (const d of ctx.list(KINDS.Deployment)) checkPodSpec(ctx, d, workloadControllerSpec(d).template?.spec, 'spec.template.spec');
    },
  },
);
