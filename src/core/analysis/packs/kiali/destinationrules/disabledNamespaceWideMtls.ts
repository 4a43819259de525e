// destinationrules.DisabledNamespaceWideMTLSChecker (Kiali business/checkers/destinationrules/disabled_namespacewide_mtls_checker.go):
// a `*.<ns>.<identity domain>` DestinationRule disabling TLS conflicts with the first namespace
// PeerAuthentication enabling mTLS when it is STRICT (KIA0207; PERMISSIVE is fine), or, when no
// namespace PeerAuthentication disables mTLS, with a STRICT one in the root namespace (KIA0208).
import { KINDS } from '../../../../document/kinds.ts';
import { objectChecker } from '../checker.ts';
import { buildCheck } from '../messages.ts';
import { peerAuthnNamespaceWideMode } from '../mtls.ts';
import { namespaceWideDrMode, TLS_MODE_PATH } from './mtlsModes.ts';

export const disabledNamespaceWideMtlsChecker = objectChecker(
  'destinationrules.DisabledNamespaceWideMTLSChecker',
  KINDS.DestinationRule,
  ['KIA0207', 'KIA0208'],
  (ctx, dr) => {
    if (namespaceWideDrMode(dr, ctx.identityDomain) !== 'DISABLE') return { checks: [], valid: true };
    let nsDisableFound = false;
    for (const pa of ctx.peerAuthenticationsIn(dr.namespace)) {
      const mode = peerAuthnNamespaceWideMode(pa);
      if (mode === 'STRICT') return { checks: [buildCheck('destinationrules.mtls.policymtlsenabled', TLS_MODE_PATH)], valid: false };
      if (mode === 'PERMISSIVE') return { checks: [], valid: true };
      if (mode === 'DISABLE') nsDisableFound = true;
    }
    if (!nsDisableFound && ctx.meshPeerAuthentications.some((pa) => peerAuthnNamespaceWideMode(pa) === 'STRICT'))
      return { checks: [buildCheck('destinationrules.mtls.meshpolicymtlsenabled', TLS_MODE_PATH)], valid: false };
    return { checks: [], valid: true };
  },
);
