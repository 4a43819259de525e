// destinationrules.DisabledMeshWideMTLSChecker (Kiali business/checkers/destinationrules/disabled_meshwide_mtls_checker.go):
// a `*.local` DestinationRule disabling TLS conflicts with a root namespace PeerAuthentication in
// STRICT mode: KIA0208 on its TLS mode.
import { KINDS } from '../../../../document/kinds.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { peerAuthnNamespaceWideMode } from '../mtls.ts';
import { meshWideDrMode, TLS_MODE_PATH } from './mtlsModes.ts';

export const disabledMeshWideMtlsChecker = objectChecker('destinationrules.DisabledMeshWideMTLSChecker', KINDS.DestinationRule, ['KIA0208'], (ctx, dr) => {
  if (meshWideDrMode(dr) !== 'DISABLE') return { checks: [], valid: true };
  if (ctx.meshPeerAuthentications.some((pa) => peerAuthnNamespaceWideMode(pa) === 'STRICT'))
    return { checks: [buildCheck('destinationrules.mtls.meshpolicymtlsenabled', TLS_MODE_PATH)], valid: false };
  return { checks: [], valid: true };
});
