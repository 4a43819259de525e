// destinationrules.NamespaceWideMTLSChecker (Kiali business/checkers/destinationrules/namespacewide_mtls_checker.go):
// a `*.<ns>.<identity domain>` DestinationRule enabling ISTIO_MUTUAL needs, unless auto-mTLS is
// on, a PeerAuthentication enabling mTLS in its namespace or the root namespace: otherwise KIA0501.
import { KINDS } from '../../../../document/kinds.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { namespaceWideDrMode, peerAuthnEnablesMtls, TLS_MODE_PATH } from './mtlsModes.ts';

export const namespaceWideMtlsChecker = objectChecker('destinationrules.NamespaceWideMTLSChecker', KINDS.DestinationRule, ['KIA0501'], (ctx, dr) => {
  if (namespaceWideDrMode(dr, ctx.identityDomain) !== 'ISTIO_MUTUAL' || ctx.enableAutoMtls) return { checks: [], valid: true };
  if (ctx.peerAuthenticationsIn(dr.namespace).some(peerAuthnEnablesMtls)) return { checks: [], valid: true };
  if (ctx.meshPeerAuthentications.some(peerAuthnEnablesMtls)) return { checks: [], valid: true };
  return { checks: [buildCheck('destinationrules.mtls.nspolicymissing', TLS_MODE_PATH)], valid: false };
});
