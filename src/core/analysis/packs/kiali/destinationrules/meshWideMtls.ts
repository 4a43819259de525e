// destinationrules.MeshWideMTLSChecker (Kiali business/checkers/destinationrules/meshwide_mtls_checker.go):
// a `*.local` DestinationRule enabling ISTIO_MUTUAL needs, unless auto-mTLS is on, a root
// namespace PeerAuthentication enabling mTLS: otherwise KIA0401.
import { KINDS } from '../../../../document/kinds.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { meshWideDrMode, peerAuthnEnablesMtls, TLS_MODE_PATH } from './mtlsModes.ts';

export const meshWideMtlsChecker = objectChecker('destinationrules.MeshWideMTLSChecker', KINDS.DestinationRule, ['KIA0401'], (ctx, dr) => {
  if (meshWideDrMode(dr) !== 'ISTIO_MUTUAL' || ctx.enableAutoMtls) return { checks: [], valid: true };
  if (ctx.meshPeerAuthentications.some(peerAuthnEnablesMtls)) return { checks: [], valid: true };
  return { checks: [buildCheck('destinationrules.mtls.meshpolicymissing', TLS_MODE_PATH)], valid: false };
});
