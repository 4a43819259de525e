// sidecars.OutboundTrafficPolicyModeChecker (Kiali business/checkers/sidecars/outbound_traffic_policy_mode.go):
// an outboundTrafficPolicy whose mode is the proto default (REGISTRY_ONLY, or unset: Kiali cannot
// tell them apart) is ambiguous: KIA1007 (severity unknown).
import { KINDS } from '../../../../document/kinds.ts';
import { isObj } from '../../../../document/read.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';

export const outboundTrafficPolicyModeChecker = objectChecker('sidecars.OutboundTrafficPolicyModeChecker', KINDS.Sidecar, ['KIA1007'], (_ctx, sidecar) => {
  const spec = isObj(sidecar.body.spec) ? sidecar.body.spec : {};
  const policy = spec.outboundTrafficPolicy;
  if (!isObj(policy)) return { checks: [], valid: true };
  const mode = policy.mode;
  const zero = mode === undefined || mode === null || mode === '' || mode === 'REGISTRY_ONLY' || mode === 0;
  return { checks: zero ? [buildCheck('sidecar.outboundtrafficpolicy.mode.ambiguous', 'spec/outboundTrafficPolicy')] : [], valid: true };
});
