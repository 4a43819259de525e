// applicationUID.Analyzer: application containers (and pods) must not run as UID 1337,
// which is reserved for the sidecar proxy (IST0144). Istio's control plane is exempt.
//
// Deployments are checked through their pod template. (Some older Istio file stores also
// added a synthetic Pod per Deployment; the current one does not, and the conformance cases
// expect messages on the Deployment only, so no such Pods exist in our store either.)
import { KINDS } from '../../../model/kinds.ts';
import type { Resource } from '../../../model/types.ts';
import type { AnalysisContext, Analyzer } from '../../types.ts';
import { MESSAGES } from '../../messages.ts';
import { perResourceAnalyzer } from '../../perResource.ts';
import { arr, isObj, objOrUndefined, specOf, str } from '../../../model/read.ts';
import { ISTIO_OPERATOR_CONTAINER, ISTIO_PROXY_CONTAINER } from '../util/workloadsMesh.ts';

export const PROXY_UID = 1337;

/** Istio's IsIstioControlPlane: an `istio` label, or `release: istio`. */
export function isIstioControlPlane(r: Resource): boolean {
  return Object.prototype.hasOwnProperty.call(r.labels, 'istio') || r.labels.release === 'istio';
}

function runsAsProxyUid(securityContext: unknown): boolean {
  if (!isObj(securityContext)) return false;
  const uid = securityContext.runAsUser;
  return (typeof uid === 'number' || (typeof uid === 'string' && uid.trim() !== '')) && Number(uid) === PROXY_UID;
}

/**
 * One message per offending pod or container context (identical ones collapse in output).
 * `at` is where the pod spec sits in the resource (`spec`, or a Deployment's template spec).
 */
function checkPodSpec(ctx: AnalysisContext, r: Resource, podSpec: unknown, at: string): void {
  if (isIstioControlPlane(r)) return;
  const spec = objOrUndefined(podSpec) ?? {};
  if (runsAsProxyUid(spec.securityContext)) {
    ctx.report(MESSAGES.InvalidApplicationUID.at(r), { highlightPath: `${at}.securityContext.runAsUser` });
  }
  arr(spec.containers).forEach((c, i) => {
    if (!isObj(c)) return;
    const name = str(c.name);
    if (name === ISTIO_PROXY_CONTAINER || name === ISTIO_OPERATOR_CONTAINER) return;
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
    check: (ctx, pod) => checkPodSpec(ctx, pod, pod.body.spec, 'spec'),
    global(ctx) {
      for (const d of ctx.list(KINDS.Deployment)) {
        const template = objOrUndefined(specOf(d).template);
        checkPodSpec(ctx, d, template?.spec, 'spec.template.spec');
      }
    },
  },
);
