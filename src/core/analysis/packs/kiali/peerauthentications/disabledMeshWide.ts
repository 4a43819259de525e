// peerauthentications.DisabledMeshWideChecker (Kiali business/checkers/peerauthentications/disabled_meshwide_checker.go):
// a root namespace PeerAuthentication disabling mTLS conflicts with a `*.local` DestinationRule
// in ISTIO_MUTUAL or MUTUAL mode: KIA0506 on spec/mtls.
import { KINDS } from '../../../../document/kinds.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { peerAuthnNamespaceWideMode } from '../mtls.ts';
import { meshWideDrMode } from '../destinationrules/mtlsModes.ts';

const MUTUAL = new Set(['ISTIO_MUTUAL', 'MUTUAL']);

export const disabledMeshWideChecker = objectChecker('peerauthentications.DisabledMeshWideChecker', KINDS.PeerAuthentication, ['KIA0506'], (ctx, pa) => {
  if (pa.namespace !== ctx.rootNamespace || peerAuthnNamespaceWideMode(pa) !== 'DISABLE') return { checks: [], valid: true };
  if (ctx.destinationRules.some((dr) => MUTUAL.has(meshWideDrMode(dr))))
    return { checks: [buildCheck('peerauthentications.mtls.disablemeshdestinationrulemissing', 'spec/mtls')], valid: false };
  return { checks: [], valid: true };
});
