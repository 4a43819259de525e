// peerauthentications.MeshMtlsChecker (Kiali business/checkers/peerauthentications/mesh_mtls_checker.go):
// a root namespace PeerAuthentication in STRICT mode needs, unless auto-mTLS is on, a `*.local`
// DestinationRule enabling ISTIO_MUTUAL: otherwise KIA0205 on spec/mtls. Kiali runs it on the
// PeerAuthentications of the root namespace only (NamespaceMtlsChecker takes the others).
import { KINDS } from '../../../../document/kinds.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { peerAuthnNamespaceWideMode } from '../mtls.ts';
import { meshWideDrMode } from '../destinationrules/mtlsModes.ts';

export const meshMtlsChecker = objectChecker('peerauthentications.MeshMtlsChecker', KINDS.PeerAuthentication, ['KIA0205'], (ctx, pa) => {
  if (pa.namespace !== ctx.rootNamespace || peerAuthnNamespaceWideMode(pa) !== 'STRICT' || ctx.enableAutoMtls) return { checks: [], valid: true };
  if (ctx.destinationRules.some((dr) => meshWideDrMode(dr) === 'ISTIO_MUTUAL')) return { checks: [], valid: true };
  return { checks: [buildCheck('peerauthentication.mtls.destinationrulemissing', 'spec/mtls')], valid: false };
});
