// peerauthentications.NamespaceMtlsChecker (Kiali business/checkers/peerauthentications/namespace_mtls_checker.go):
// a PeerAuthentication outside the root namespace in STRICT mode needs, unless auto-mTLS is on,
// a DestinationRule enabling ISTIO_MUTUAL namespace-wide or mesh-wide: otherwise KIA0206.
import { KINDS } from '../../../../document/kinds.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { destinationRuleModeForHost, peerAuthnNamespaceWideMode } from '../mtls.ts';
import { meshWideDrMode } from '../destinationrules/mtlsModes.ts';

export const namespaceMtlsChecker = objectChecker('peerauthentications.NamespaceMtlsChecker', KINDS.PeerAuthentication, ['KIA0206'], (ctx, pa) => {
  if (pa.namespace === ctx.rootNamespace || peerAuthnNamespaceWideMode(pa) !== 'STRICT' || ctx.enableAutoMtls) return { checks: [], valid: true };
  const nsHost = `*.${pa.namespace}.${ctx.identityDomain}`;
  if (ctx.destinationRules.some((dr) => destinationRuleModeForHost(dr, nsHost) === 'ISTIO_MUTUAL' || meshWideDrMode(dr) === 'ISTIO_MUTUAL'))
    return { checks: [], valid: true };
  return { checks: [buildCheck('peerauthentications.mtls.destinationrulemissing', 'spec/mtls')], valid: false };
});
