// peerauthentications.DisabledNamespaceWideChecker (Kiali business/checkers/peerauthentications/disabled_namespacewide_checker.go):
// a PeerAuthentication outside the root namespace disabling mTLS conflicts with the first
// namespace-wide DestinationRule enabling (ISTIO_)MUTUAL, or, unless one disables TLS there,
// with a mesh-wide one met before it: KIA0505 on spec/mtls.
import { KINDS } from '../../../../document/kinds.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { destinationRuleModeForHost, peerAuthnNamespaceWideMode } from '../mtls.ts';
import { meshWideDrMode } from '../destinationrules/mtlsModes.ts';

const MUTUAL = new Set(['ISTIO_MUTUAL', 'MUTUAL']);

export const disabledNamespaceWideChecker = objectChecker(
  'peerauthentications.DisabledNamespaceWideChecker',
  KINDS.PeerAuthentication,
  ['KIA0505'],
  (ctx, pa) => {
    if (pa.namespace === ctx.rootNamespace || peerAuthnNamespaceWideMode(pa) !== 'DISABLE') return { checks: [], valid: true };
    const error = { checks: [buildCheck('peerauthentications.mtls.disabledestinationrulemissing', 'spec/mtls')], valid: false };
    const nsHost = `*.${pa.namespace}.${ctx.identityDomain}`;
    let meshEnabled = false;
    for (const dr of ctx.destinationRules) {
      const mode = destinationRuleModeForHost(dr, nsHost);
      if (MUTUAL.has(mode)) return error;
      if (mode === 'DISABLE') return { checks: [], valid: true };
      if (MUTUAL.has(meshWideDrMode(dr))) meshEnabled = true;
    }
    return meshEnabled ? error : { checks: [], valid: true };
  },
);
